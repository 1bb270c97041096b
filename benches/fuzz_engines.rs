//! pbt's in-process `fuzz` runner against a fuzz engine on the same
//! property, b-u-g (`fuzz/properties/bug.rs`): tests per second and tests
//! to the bug, median of 10 seeds.
//!
//! `cargo bench --bench fuzz_engines` measures pbt's runner. With
//! `PBT_LIBFUZZER_BIN` naming the libFuzzer target built by
//! `cargo fuzz build -s none bug` (see docs/fuzzing.md), it also runs the
//! target once per seed (`-seed=1..=10`) until the crash and reads
//! libFuzzer's final statistics, then prints the ratios.

#[path = "../fuzz/properties/bug.rs"]
mod bug;

use pbt::runners::{fuzz, Config, Mutation, Regressions};
use std::process::Command;
use std::time::Instant;

const SEEDS: u64 = 10;
const BUDGET: u64 = 10_000_000;

/// The median of `xs` (the lower one of the middle two).
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[(xs.len() - 1) / 2]
}

/// Tests to the bug and tests per second of pbt's `fuzz` runner, per seed.
fn pbt_fuzz() -> (Vec<f64>, Vec<f64>) {
    let prop = bug::property();
    let (mut tests, mut rates) = (Vec::new(), Vec::new());
    for seed in 1..=SEEDS {
        let config = Config::default()
            .ignore_env()
            .cases(BUDGET)
            .seed(seed)
            .mutation(Mutation::Both)
            .regressions(Regressions::Off);
        let start = Instant::now();
        let report = fuzz(&prop, config);
        let secs = start.elapsed().as_secs_f64();
        let failure = report
            .failure
            .as_ref()
            .expect("pbt's fuzz runner finds b-u-g");
        assert_eq!(failure.counterexample[0].value, "[98, 117, 103]");
        tests.push(report.tests as f64);
        // The time includes shrinking, a few hundred tests at most.
        rates.push(report.tests as f64 / secs);
    }
    (tests, rates)
}

/// The value of `stat::<name>:` in libFuzzer's final statistics.
fn stat(output: &str, name: &str) -> Option<f64> {
    output
        .lines()
        .find_map(|l| l.strip_prefix(&format!("stat::{name}:")))
        .and_then(|v| v.trim().parse().ok())
}

/// Executions to the crash and executions per second of the libFuzzer
/// target at `bin`, per seed.
fn libfuzzer(bin: &str) -> (Vec<f64>, Vec<f64>) {
    let dir = std::env::temp_dir().join(format!("pbt-bench-libfuzzer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut execs, mut rates) = (Vec::new(), Vec::new());
    for seed in 1..=SEEDS {
        let start = Instant::now();
        let out = Command::new(bin)
            .arg(format!("-seed={seed}"))
            .arg(format!("-runs={BUDGET}"))
            .arg("-print_final_stats=1")
            .arg(format!("-artifact_prefix={}/", dir.display()))
            .output()
            .expect("the libFuzzer target runs");
        let secs = start.elapsed().as_secs_f64();
        let text = String::from_utf8_lossy(&out.stderr);
        let units = stat(&text, "number_of_executed_units").expect("libFuzzer's final stats");
        assert!(
            text.contains("= [98, 117, 103"),
            "seed {seed}: libFuzzer found b-u-g"
        );
        execs.push(units);
        rates.push(units / secs);
    }
    let _ = std::fs::remove_dir_all(&dir);
    (execs, rates)
}

fn main() {
    let (tests, rates) = pbt_fuzz();
    let (pbt_tests, pbt_rate) = (median(tests), median(rates));
    println!(
        "b-u-g, median of {SEEDS} seeds\npbt runners::fuzz (choices and values): \
         {pbt_tests:>9.0} tests to the bug, {pbt_rate:>10.0} tests/s"
    );
    match std::env::var("PBT_LIBFUZZER_BIN") {
        Ok(bin) => {
            let (execs, rates) = libfuzzer(&bin);
            let (lf_execs, lf_rate) = (median(execs), median(rates));
            println!(
                "libFuzzer (fuzz_target!, -s none):        {lf_execs:>9.0} execs to the bug, \
                 {lf_rate:>10.0} execs/s (process start included)"
            );
            println!(
                "ratio libFuzzer / pbt: {:.2}x tests to the bug, {:.2}x tests per second",
                lf_execs / pbt_tests,
                lf_rate / pbt_rate
            );
        }
        Err(_) => println!("(set PBT_LIBFUZZER_BIN to a built libFuzzer target to compare)"),
    }
}

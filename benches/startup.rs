//! Start-up: the time from calling the runner to holding the report of a
//! property that fails on its very first test, for pbt, proptest and
//! quickcheck in one process.
//!
//! `cargo bench --bench startup` (add `-- --runs N --rounds R`, and
//! `--only start-up` or `--only failing` for one of the two tables,
//! `--lib NAME` for the rows whose name starts with NAME; `--calls N` calls
//! the rows N times untimed, for `valgrind --tool=callgrind`).
//!
//! A second table times start-up alone: a run of one passing test
//! (`forall x: u32. true` with one case), from the runner's entry to its
//! report, without a failure path (no shrinking, no printing).
//!
//! The property is `forall x: u32. false`: every library fails on its first
//! input, shrinks it to `0` (one or a few steps) and formats its report, so
//! what is timed is mostly the fixed cost of a run: the configuration, the
//! environment, the regressions file, the watchdog, the panic hook. Each
//! round times `runs` calls of each library, interleaved library by library;
//! the table shows the median µs per call over the rounds, by wall time
//! (what a user waits; it includes the time other processes hold the CPU
//! on a shared machine) and by this thread's CPU time
//! (`benches/common/cpu_clock.rs`; it leaves out time spent waiting for
//! another thread).

#[path = "common/cpu_clock.rs"]
mod cpu_clock;

use pbt::runners::{generational, Config, Regressions};
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

fn never(x: u32) -> bool {
    black_box(x) == u32::MAX && black_box(false)
}

/// pbt as `#[property_test]` runs it: the default configuration (the
/// environment read, a time limit and so a watchdog), with the regressions
/// file in a scratch directory.
fn pbt_default(file: &Path) -> usize {
    let prop = pbt::property! {
        forall x: u32;
        check never(x)
    };
    let report = generational(
        &prop,
        Config::default().regressions(Regressions::File(file.to_path_buf())),
    );
    assert!(!report.passed());
    report.to_string().len()
}

/// pbt without a regressions file.
fn pbt_no_file() -> usize {
    let prop = pbt::property! {
        forall x: u32;
        check never(x)
    };
    let report = generational(&prop, Config::default().regressions(Regressions::Off));
    assert!(!report.passed());
    report.to_string().len()
}

/// pbt without a regressions file, the environment or a time limit.
fn pbt_bare() -> usize {
    let prop = pbt::property! {
        forall x: u32;
        check never(x)
    };
    let config = Config::default()
        .regressions(Regressions::Off)
        .ignore_env()
        .no_timeout();
    let report = generational(&prop, config);
    assert!(!report.passed());
    report.to_string().len()
}

fn always(x: u32) -> bool {
    black_box(x) != u32::MAX || black_box(true)
}

/// pbt as `#[property_test]` runs it, one passing test, regressions file
/// in a scratch directory.
fn pbt_one_test(file: &Path) -> usize {
    let prop = pbt::property! {
        forall x: u32;
        check always(x)
    };
    let config = Config::default()
        .cases(1)
        .regressions(Regressions::File(file.to_path_buf()));
    let report = generational(&prop, config);
    assert!(report.passed());
    report.tests as usize
}

/// pbt as `#[property_test]` runs it by default: one passing test, the
/// regressions file of the source file (`pbt-regressions/benches/startup.txt`,
/// which a passing test never creates).
fn pbt_one_test_beside() -> usize {
    let prop = pbt::property! {
        forall x: u32;
        check always(x)
    };
    let report = generational(&prop, Config::default().cases(1));
    assert!(report.passed());
    report.tests as usize
}

/// pbt, one passing test, without a regressions file.
fn pbt_one_test_no_file() -> usize {
    let prop = pbt::property! {
        forall x: u32;
        check always(x)
    };
    let config = Config::default().cases(1).regressions(Regressions::Off);
    let report = generational(&prop, config);
    assert!(report.passed());
    report.tests as usize
}

/// proptest, one passing test.
fn proptest_one_test() -> usize {
    use proptest::prelude::*;
    use proptest::test_runner::{Config as PConfig, TestRunner};
    let mut runner = TestRunner::new(PConfig {
        cases: 1,
        failure_persistence: None,
        ..PConfig::default()
    });
    runner
        .run(&any::<u32>(), |x| {
            prop_assert!(always(x));
            Ok(())
        })
        .expect("passes");
    1
}

/// quickcheck, one passing test.
fn quickcheck_one_test() -> usize {
    let result = quickcheck::QuickCheck::new()
        .tests(1)
        .max_tests(1)
        .quicktest(always as fn(u32) -> bool);
    result.expect("passes") as usize
}

/// proptest's default configuration, without its failure persistence.
fn proptest_default() -> usize {
    use proptest::prelude::*;
    use proptest::test_runner::{Config as PConfig, TestRunner};
    let mut runner = TestRunner::new(PConfig {
        failure_persistence: None,
        ..PConfig::default()
    });
    let err = runner
        .run(&any::<u32>(), |x| {
            prop_assert!(never(x));
            Ok(())
        })
        .expect_err("fails");
    err.to_string().len()
}

/// quickcheck's default configuration (`quicktest` returns the failure
/// rather than panicking with it).
fn quickcheck_default() -> usize {
    let result = quickcheck::QuickCheck::new().quicktest(never as fn(u32) -> bool);
    format!("{:?}", result.expect_err("fails")).len()
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

type Lib<'a> = (&'static str, Box<dyn Fn() -> usize + 'a>);

/// Time `runs` calls of each library per round, interleaved library by
/// library, and print the medians and their ratio to the last row
/// (quickcheck).
fn table(title: &str, libs: &[Lib], runs: u64, rounds: usize) {
    // `--lib NAME`: only the rows whose name starts with NAME (for a
    // profiler); the ratio column is then against the last row kept.
    let lib = std::env::args().skip_while(|a| a != "--lib").nth(1);
    let libs: Vec<&Lib> = libs
        .iter()
        .filter(|(name, _)| lib.as_deref().is_none_or(|l| name.starts_with(l)))
        .collect();
    for (_, f) in &libs {
        black_box(f()); // warm up (and the regressions file now exists)
    }
    // `--calls N`: call each row N times, untimed, and print nothing (for
    // `valgrind --tool=callgrind`, which cannot run the CPU clock: its vDSO
    // lookup faults under valgrind).
    if let Some(calls) = std::env::args().skip_while(|a| a != "--calls").nth(1) {
        let calls: u64 = calls.parse().expect("--calls takes a number");
        for (_, f) in &libs {
            for _ in 0..calls {
                black_box(f());
            }
        }
        return;
    }
    let mut wall = vec![Vec::new(); libs.len()];
    let mut cpu = vec![Vec::new(); libs.len()];
    for _ in 0..rounds {
        for (i, (_, f)) in libs.iter().enumerate() {
            let (start, start_cpu) = (Instant::now(), cpu_clock::now());
            for _ in 0..runs {
                black_box(f());
            }
            let per_run = |d: std::time::Duration| d.as_secs_f64() * 1e6 / runs as f64;
            cpu[i].push(per_run(cpu_clock::now() - start_cpu));
            wall[i].push(per_run(start.elapsed()));
        }
    }
    println!("\n{title}: {runs} runs x {rounds} rounds (median µs per run)");
    let wall: Vec<f64> = wall.into_iter().map(median).collect();
    let cpu: Vec<f64> = cpu.into_iter().map(median).collect();
    let qc = libs.len() - 1;
    println!(
        "{:<36} {:>10} {:>14} {:>10} {:>14}",
        "library", "wall µs", "x quickcheck", "CPU µs", "x quickcheck"
    );
    for (i, (name, _)) in libs.iter().enumerate() {
        println!(
            "{name:<36} {:>10.2} {:>14.2} {:>10.2} {:>14.2}",
            wall[i],
            wall[i] / wall[qc],
            cpu[i],
            cpu[i] / cpu[qc]
        );
    }
}

fn main() {
    let runs = arg("--runs", 200);
    let rounds = arg("--rounds", 15) as usize;
    let dir = std::env::temp_dir().join(format!("pbt-startup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let file = dir.join("startup.pbt-regressions");
    let passing = dir.join("passing.pbt-regressions");
    let failing: Vec<Lib> = vec![
        (
            "pbt, defaults + regressions file",
            Box::new(|| pbt_default(&file)),
        ),
        ("pbt, defaults, no file", Box::new(pbt_no_file)),
        ("pbt, no file/env/time limit", Box::new(pbt_bare)),
        ("proptest", Box::new(proptest_default)),
        ("quickcheck", Box::new(quickcheck_default)),
    ];
    // `--only start-up` (or `--only failing`) runs one of the two tables.
    let only = std::env::args().skip_while(|a| a != "--only").nth(1);
    let wanted = |t: &str| only.as_deref().is_none_or(|o| t.contains(o));
    let title = "time to the report of a property failing on its first test";
    if wanted(title) {
        table(title, &failing, runs, rounds);
    }
    let one_test: Vec<Lib> = vec![
        (
            "pbt, defaults + regressions file",
            Box::new(|| pbt_one_test(&passing)),
        ),
        (
            "pbt, defaults (file beside the source)",
            Box::new(pbt_one_test_beside),
        ),
        ("pbt, defaults, no file", Box::new(pbt_one_test_no_file)),
        ("proptest", Box::new(proptest_one_test)),
        ("quickcheck", Box::new(quickcheck_one_test)),
    ];
    let title = "start-up: a run of one passing test";
    if wanted(title) {
        table(title, &one_test, runs, rounds);
    }
    std::fs::remove_dir_all(&dir).ok();
}

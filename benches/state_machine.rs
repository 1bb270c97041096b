//! Stateful testing (issue 15): on the planted key-value bug of
//! `tests/stateful/kv.rs` (`remove` forgets a key after 3 inserts; the
//! shortest failing program has 4 commands), for each runner over 20 seeds:
//! the median tests to the first failure, the median time to a shrunk
//! counterexample, and the longest shrunk program.
//!
//! `cargo bench --bench state_machine` (options: `-- --seeds N`).
//!
//! Not measured here: proptest-state-machine on the same bug (it is not a
//! dependency of the workspace yet).

#[path = "../tests/stateful/kv.rs"]
mod kv;

use kv::KvMachine;
use pbt::runners::{Config, Regressions, Report, Shrinker};
use pbt::stateful::StateMachine;
use std::time::Instant;

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

/// The number of commands of the printed counterexample.
fn program_length(report: &Report) -> usize {
    let failure = report.failure.as_ref().expect("the planted bug is found");
    let shown = &failure.counterexample[0].value;
    shown.lines().filter(|l| l.contains("  // model: ")).count()
}

fn main() {
    let seeds = arg("--seeds", 20);
    let runners = [
        ("generational", Shrinker::External),
        ("integrated", Shrinker::Integrated),
        ("integrated+both", Shrinker::Both),
        ("fuzz", Shrinker::External),
        ("targeted", Shrinker::External),
    ];
    println!("planted bug: remove forgets a key after 3 inserts (shortest program: 4 commands)");
    println!(
        "{:<16} {:>14} {:>16} {:>14}",
        "runner", "tests (median)", "time ms (median)", "longest shrunk"
    );
    for (name, shrinker) in runners {
        let mut tests = Vec::new();
        let mut times = Vec::new();
        let mut longest = 0;
        for seed in 1..=seeds {
            let config = Config::default()
                .seed(seed)
                .regressions(Regressions::Off)
                .ignore_env()
                .shrinker(shrinker);
            let prop = KvMachine.property();
            let start = Instant::now();
            let report = match name {
                "fuzz" => pbt::runners::fuzz(&prop, config),
                "targeted" => pbt::runners::targeted(&prop, config),
                "generational" => pbt::runners::generational(&prop, config),
                _ => pbt::runners::integrated(&prop, config),
            };
            times.push(start.elapsed().as_secs_f64() * 1e3);
            tests.push(report.tests as f64);
            longest = longest.max(program_length(&report));
        }
        println!(
            "{name:<16} {:>14} {:>16.1} {:>14}",
            median(tests),
            median(times),
            longest
        );
    }
}

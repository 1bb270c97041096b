//! Stateful testing: the planted bugs of `tests/stateful/` — a key-value
//! store whose `remove` forgets a key after 3 inserts, and a ring buffer of
//! capacity 3 that overwrites instead of refusing a push (each one's
//! shortest failing program: 4 commands) — under each pbt runner and under
//! proptest-state-machine, in this process, over 20 seeds: the median (and mean)
//! tests to the first failure, the median time to a shrunk counterexample,
//! and the median and longest shrunk program. The closing lines print the ratios
//! of proptest-state-machine to pbt's generational runner.
//!
//! `cargo bench --bench state_machine` (options: `-- --seeds N`).

#[path = "../tests/stateful/kv.rs"]
mod kv;
#[path = "../tests/stateful/queue.rs"]
mod queue;

#[path = "../tests/stateful/concurrent.rs"]
#[allow(dead_code)] // the bench uses the counter, not the registry
mod concurrent;

#[path = "state_machine/baseline.rs"]
mod baseline;

use kv::KvMachine;
use pbt::runners::{Config, Regressions, Report, Shrinker};
use pbt::stateful::StateMachine;
use queue::QueueMachine;
use std::time::Instant;

/// Cases per run, for pbt and proptest alike (both find the bugs far sooner).
const CASES: u32 = 1_000;
/// The longest program either tool generates.
const MAX_STEPS: usize = 32;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
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

/// One row of the table: per seed, tests to failure, milliseconds, and the
/// shrunk program's length.
#[derive(Default)]
struct Row {
    tests: Vec<f64>,
    millis: Vec<f64>,
    shrunk: Vec<f64>,
}

impl Row {
    fn print(&self, bug: &str, tool: &str) {
        println!(
            "{bug:<6} {tool:<24} {:>8} {:>8.2} {:>10.2} {:>8} {:>8}",
            median(self.tests.clone()),
            mean(&self.tests),
            median(self.millis.clone()),
            median(self.shrunk.clone()),
            self.shrunk.iter().copied().fold(0.0, f64::max),
        );
    }
}

/// pbt's runners on the machine `make()` builds.
fn pbt_row<M: StateMachine>(make: &dyn Fn() -> M, runner: &str, seeds: u64) -> Row {
    let mut row = Row::default();
    for seed in 1..=seeds {
        let shrinker = match runner {
            "integrated" => Shrinker::Integrated,
            "integrated+both" => Shrinker::Both,
            _ => Shrinker::External,
        };
        let config = Config::default()
            .seed(seed)
            .cases(CASES as u64)
            .regressions(Regressions::Off)
            .ignore_env()
            .shrinker(shrinker);
        let prop = make().property();
        let start = Instant::now();
        let report = match runner {
            "fuzz" => pbt::runners::fuzz(&prop, config),
            "targeted" => pbt::runners::targeted(&prop, config),
            "generational" => pbt::runners::generational(&prop, config),
            _ => pbt::runners::integrated(&prop, config),
        };
        row.millis.push(start.elapsed().as_secs_f64() * 1e3);
        row.tests.push(report.tests as f64);
        row.shrunk.push(program_length(&report) as f64);
    }
    row
}

/// proptest-state-machine on the test `T`.
fn proptest_row<T: proptest_state_machine::StateMachineTest>(seeds: u64) -> Row {
    let mut row = Row::default();
    // The failing cases panic (that is how proptest-state-machine's
    // `apply` reports); keep their messages off the table.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for seed in 1..=seeds {
        let start = Instant::now();
        let found = baseline::run::<T>(seed, CASES, MAX_STEPS);
        row.millis.push(start.elapsed().as_secs_f64() * 1e3);
        let found = found.expect("proptest-state-machine finds the planted bug");
        row.tests.push(found.tests as f64);
        row.shrunk.push(found.shrunk as f64);
    }
    std::panic::set_hook(hook);
    row
}

fn ratios(bug: &str, pbt: &Row, proptest: &Row) {
    let r = |a: &[f64], b: &[f64]| median(a.to_vec()) / median(b.to_vec()).max(f64::MIN_POSITIVE);
    println!(
        "{bug}: proptest-state-machine / pbt generational: tests {:.2}x (mean {:.2}x), time {:.2}x, median shrunk length {:.2}x",
        r(&proptest.tests, &pbt.tests),
        mean(&proptest.tests) / mean(&pbt.tests),
        r(&proptest.millis, &pbt.millis),
        r(&proptest.shrunk, &pbt.shrunk),
    );
}

/// The planted race (a counter's read-yield-write increment) under the
/// concurrent property, and the sequential property that cannot see it.
fn race(seeds: u64) {
    use pbt::stateful::ConcurrentMachine;
    let racy = || concurrent::Counter { racy: true };
    for (shrinker, name) in [
        (Shrinker::Both, "pbt concurrent (default)"),
        (Shrinker::External, "pbt concurrent, external"),
    ] {
        let mut row = Row::default();
        for seed in 1..=seeds {
            let config = Config::default()
                .seed(seed)
                .cases(CASES as u64)
                .regressions(Regressions::Off)
                .ignore_env()
                .shrinker(shrinker);
            let start = Instant::now();
            let report = pbt::runners::generational(&racy().concurrent_property(), config);
            row.millis.push(start.elapsed().as_secs_f64() * 1e3);
            row.tests.push(report.tests as f64);
            let failure = report.failure.as_ref().expect("the race is found");
            let shown = &failure.counterexample[0].value;
            let program = shown.split("a run").next().unwrap_or_default();
            let commands = program.lines().filter(|l| l.starts_with("    ")).count();
            row.shrunk.push(commands as f64);
        }
        row.print("race", name);
    }
    let config = Config::default()
        .cases(CASES as u64)
        .regressions(Regressions::Off)
        .ignore_env();
    let sequential = pbt::runners::generational(&racy().property(), config);
    println!(
        "race: the sequential property {} after {} tests (shortest racy program: 2 commands, one per thread)",
        if sequential.passed() { "passed" } else { "failed" },
        sequential.tests
    );
}

fn main() {
    let seeds = arg("--seeds", 20);
    println!("{seeds} seeds; programs of at most {MAX_STEPS} commands; shortest failing program: 4 commands");
    println!(
        "{:<6} {:<24} {:>8} {:>8} {:>10} {:>8} {:>8}",
        "bug", "tool", "tests", "mean", "time ms", "shrunk", "longest"
    );
    let runners = [
        "generational",
        "integrated",
        "integrated+both",
        "fuzz",
        "targeted",
    ];
    let mut summary = Vec::new();
    let kv_rows: Vec<Row> = runners
        .iter()
        .map(|r| {
            let row = pbt_row(&|| KvMachine, r, seeds);
            row.print("kv", &format!("pbt {r}"));
            row
        })
        .collect();
    let kv_proptest = proptest_row::<baseline::KvTest>(seeds);
    kv_proptest.print("kv", "proptest-state-machine");
    summary.push(("kv", kv_rows, kv_proptest));
    let queue_rows: Vec<Row> = runners
        .iter()
        .map(|r| {
            let row = pbt_row(&|| QueueMachine, r, seeds);
            row.print("queue", &format!("pbt {r}"));
            row
        })
        .collect();
    let queue_proptest = proptest_row::<baseline::QueueTest>(seeds);
    queue_proptest.print("queue", "proptest-state-machine");
    summary.push(("queue", queue_rows, queue_proptest));
    race(seeds);
    println!();
    for (bug, rows, proptest) in &summary {
        ratios(bug, &rows[0], proptest);
    }
}

//! The cost of the process-isolated mode (`Config::isolated`): per property
//! and per test, against the same property run in process; and how closely
//! shrinking keeps to `max_shrink_time`.
//!
//! `cargo bench --bench isolation` (add `-- --rounds R`). The property is
//! trivial (`forall xs: Vec<u8>; check xs.len() <= 100`), so the figures
//! are the mode's own overhead: per property, a run of 100 tests (starting
//! the worker process included); per test, the difference between runs of
//! 1 001 and 1 tests, divided by 1 000 (one round trip to the worker each).
//! The table shows medians over the rounds and the ratios to in process.
//!
//! The second table runs a property whose shrinking never ends (a
//! `#[shrink]` that yields passing candidates forever, each costing the
//! check's time) under several limits, and shows how long the run took past
//! the limit: shrinking looks at the limit before every candidate, so it
//! overruns by one candidate at most (the figure also counts the rest of the
//! run: finding the input, and the one re-run after shrinking).
//!
//! This bench has no libtest harness, so a worker re-runs `main` from the
//! start: `main` sends a process started as a worker straight to the
//! isolated runner call, where it serves the parent.

use pbt::runners::{generational, Config, Regressions, Shrinker};
use std::time::{Duration, Instant};

/// One run of the trivial property: seconds taken.
fn round(cases: u64, isolated: bool) -> f64 {
    let prop = pbt::property! {
        forall xs: Vec<u8>;
        check xs.len() <= 100
    };
    let config = Config::default()
        .cases(cases)
        .seed(1)
        .regressions(Regressions::Off)
        .isolated(isolated);
    let start = Instant::now();
    let report = generational(&prop, config);
    assert!(report.passed(), "{report}");
    assert_eq!(report.tests, cases);
    start.elapsed().as_secs_f64()
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn rounds() -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == "--rounds")
        .and_then(|i| args.get(i + 1))
        .and_then(|r| r.parse().ok())
        .unwrap_or(15)
}

fn measure(cases: u64, isolated: bool, rounds: usize) -> f64 {
    median((0..rounds).map(|_| round(cases, isolated)).collect())
}

/// One run whose shrinking never ends under `limit`, each candidate's check
/// taking `cost`: seconds taken past the limit.
fn overrun(limit: Duration, cost: Duration, shrinker: Shrinker) -> f64 {
    let prop = pbt::property! {
        forall x: u32, #[gen = int(10..1000u32)], #[shrink = |_: &u32| std::iter::repeat(0u32)];
        check {
            if x == 0 {
                let start = Instant::now();
                while start.elapsed() < cost {
                    std::hint::spin_loop();
                }
            }
            x < 10
        }
    };
    let config = Config::default()
        .seed(1)
        .regressions(Regressions::Off)
        .shrinker(shrinker)
        .max_shrink_time(limit);
    let start = Instant::now();
    let report = generational(&prop, config);
    assert!(!report.passed());
    (start.elapsed().as_secs_f64() - limit.as_secs_f64()).max(0.0)
}

fn shrink_time_limit(rounds: usize) {
    let rounds = rounds.min(5);
    println!(
        "\nshrinking's time limit: a shrink that never ends, median overrun of {rounds} rounds \
         (the whole run past the limit: finding the input and the re-run after shrinking too)"
    );
    println!(
        "{:<14} {:>16} {:>14} {:>10}",
        "max_shrink_time", "candidate costs", "overrun", "of limit"
    );
    for limit_ms in [50u64, 200, 1000] {
        for cost_us in [0u64, 1_000, 10_000] {
            let (limit, cost) = (
                Duration::from_millis(limit_ms),
                Duration::from_micros(cost_us),
            );
            let over = median(
                (0..rounds)
                    .map(|_| overrun(limit, cost, Shrinker::Both))
                    .collect(),
            );
            println!(
                "{:>11} ms {:>13} µs {:>11.2} ms {:>9.1}%",
                limit_ms,
                cost_us,
                over * 1e3,
                100.0 * over / limit.as_secs_f64()
            );
        }
    }
}

fn main() {
    if std::env::var_os("PBT_ISOLATE_CHILD").is_some() {
        // A worker: serve the parent (this call does not return).
        round(1, true);
        return;
    }
    let rounds = rounds();
    println!("isolated mode overhead: trivial property over Vec<u8>, median of {rounds} rounds");
    let property = (measure(100, false, rounds), measure(100, true, rounds));
    let one = (measure(1, false, rounds), measure(1, true, rounds));
    let many = (measure(1001, false, rounds), measure(1001, true, rounds));
    let per_test = ((many.0 - one.0) / 1000.0, (many.1 - one.1) / 1000.0);
    println!(
        "{:<32} {:>14} {:>14} {:>8}",
        "", "in process", "isolated", "ratio"
    );
    println!(
        "{:<32} {:>11.3} ms {:>11.3} ms {:>7.0}x",
        "per property (100 tests)",
        property.0 * 1e3,
        property.1 * 1e3,
        property.1 / property.0
    );
    println!(
        "{:<32} {:>11.3} ms {:>11.3} ms {:>7.0}x",
        "per property (1 test)",
        one.0 * 1e3,
        one.1 * 1e3,
        one.1 / one.0
    );
    println!(
        "{:<32} {:>11.2} µs {:>11.2} µs {:>7.0}x",
        "per test (1001 vs 1 tests)",
        per_test.0 * 1e6,
        per_test.1 * 1e6,
        per_test.1 / per_test.0
    );
    shrink_time_limit(rounds);
}

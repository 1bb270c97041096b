//! Tests per second of the generational runner on a trivial property over
//! `Vec<i32>`, next to proptest and quickcheck running the same property in
//! the same process.
//!
//! `cargo bench --bench runner_throughput` (add `-- --cases N --rounds R`).
//! Each library runs `cases` passing tests per round; the table shows the
//! median over the rounds and the ratios against pbt. The first pbt rows fix
//! the size at 99, so that every library draws vectors of length uniform in
//! `0..100` (proptest: `vec(any::<i32>(), 0..100)`; quickcheck: `Gen` of size
//! 100); the last row is pbt's default schedule (size cycling through
//! `0..=100`, so shorter vectors on average), for information.

use pbt::dbas::{Check, Forall, Prop};
use pbt::runners::{generational, Config, Regressions, Sizes};
use std::hint::black_box;
use std::time::Instant;

/// The check every library runs: touches every element, always true.
fn trivial(xs: &[i32]) -> bool {
    black_box(xs.iter().fold(0i64, |a, &x| a + i64::from(x))) > i64::MIN
}

fn pbt_round(cases: u64, seed: u64) -> f64 {
    pbt_sized_round(cases, seed, Sizes::Fixed(99))
}

fn pbt_default_sizes_round(cases: u64, seed: u64) -> f64 {
    pbt_sized_round(cases, seed, Sizes::Cycle)
}

fn pbt_sized_round(cases: u64, seed: u64, sizes: Sizes) -> f64 {
    let prop = pbt::property! {
        forall xs: Vec<i32>;
        check trivial(xs)
    };
    let config = Config::default()
        .cases(cases)
        .seed(seed)
        .sizes(sizes)
        .regressions(Regressions::Off)
        .ignore_env();
    let start = Instant::now();
    let report = generational(&prop, config);
    assert!(report.passed(), "{report}");
    cases as f64 / start.elapsed().as_secs_f64()
}

fn pbt_hand_built_round(cases: u64, seed: u64) -> f64 {
    let prop = Prop::new(Forall::new(
        "xs",
        "Vec<i32>",
        Check::new(|(xs, ()): &(Vec<i32>, ())| trivial(xs)),
    ));
    let config = Config::default()
        .cases(cases)
        .seed(seed)
        .sizes(Sizes::Fixed(99))
        .regressions(Regressions::Off)
        .ignore_env();
    let start = Instant::now();
    let report = generational(&prop, config);
    assert!(report.passed(), "{report}");
    cases as f64 / start.elapsed().as_secs_f64()
}

fn proptest_round(cases: u64, _seed: u64) -> f64 {
    use proptest::prelude::*;
    use proptest::test_runner::{Config as PConfig, TestRunner};
    let mut runner = TestRunner::new(PConfig {
        cases: cases as u32,
        failure_persistence: None,
        ..PConfig::default()
    });
    let strategy = proptest::collection::vec(any::<i32>(), 0..100);
    let start = Instant::now();
    runner
        .run(&strategy, |xs| {
            prop_assert!(trivial(&xs));
            Ok(())
        })
        .expect("the trivial property passes");
    cases as f64 / start.elapsed().as_secs_f64()
}

fn quickcheck_round(cases: u64, _seed: u64) -> f64 {
    fn prop(xs: Vec<i32>) -> bool {
        trivial(&xs)
    }
    let start = Instant::now();
    quickcheck::QuickCheck::new()
        .tests(cases)
        .max_tests(cases)
        .quickcheck(prop as fn(Vec<i32>) -> bool);
    cases as f64 / start.elapsed().as_secs_f64()
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

fn main() {
    let cases = arg("--cases", 20_000);
    let rounds = arg("--rounds", 9);
    type Round = fn(u64, u64) -> f64;
    let libs: [(&str, Round); 5] = [
        ("pbt property!", pbt_round),
        ("pbt hand-built chain", pbt_hand_built_round),
        ("proptest", proptest_round),
        ("quickcheck", quickcheck_round),
        ("pbt, default sizes", pbt_default_sizes_round),
    ];
    println!("generational runner throughput: trivial property over Vec<i32>, {cases} tests x {rounds} rounds (median)");
    let mut results = Vec::new();
    for (name, f) in libs {
        f(cases / 10, 0); // warm up
                          // Interleaving would be fairer on a noisy machine, but each library's
                          // rounds back to back keep its caches warm, as in a real test run.
        let tps: Vec<f64> = (0..rounds).map(|r| f(cases, r + 1)).collect();
        results.push((name, median(tps)));
    }
    let base = results[0].1;
    println!(
        "{:<24} {:>14} {:>12} {:>16}",
        "library", "tests/s", "ns/test", "pbt speed-up"
    );
    for (name, tps) in &results {
        println!(
            "{name:<24} {tps:>14.0} {:>12.0} {:>15.2}x",
            1e9 / tps,
            base / tps
        );
    }
}

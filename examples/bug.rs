//! The nested "b-u-g" branch bug of papers/001 §4, found by coverage-guided
//! fuzzing and not by plain generation.
//!
//! Random bytes start with "bug" once in 16.7 million tries. Coverage makes
//! the search incremental: an input reaching the `b` branch is new coverage,
//! kept and mutated until one reaches `bu`, then `bug`.
//!
//! `cargo run --release --example bug` reports, over 20 seeds and a budget
//! of 1,000,000 tests per run, how often each runner finds the bug and the
//! median number of tests it took. The branches report themselves with
//! `cover(id)` (manual instrumentation, like papers/001 Fig. 5); built with
//! the `coverage` feature and SanitizerCoverage (see `pbt_core::coverage`)
//! the fuzzer sees the branches without them.

use pbt::feedback::cover;
use pbt::runners::{fuzz, generational, Config, Regressions};

/// Fails on inputs starting with "bug".
fn buggy(s: &[u8]) -> bool {
    if s.first() == Some(&b'b') {
        cover(1);
        if s.get(1) == Some(&b'u') {
            cover(2);
            if s.get(2) == Some(&b'g') {
                return false;
            }
        }
    }
    true
}

fn main() {
    const BUDGET: u64 = 1_000_000;
    const SEEDS: u64 = 20;
    let prop = pbt::property! {
        forall s: Vec<u8>, #[gen = vec(int(0..=255u8), 0..8)];
        check buggy(&s)
    };
    println!("b-u-g: {SEEDS} seeds, at most {BUDGET} tests each\n");
    println!(
        "{:<14} {:>8} {:>22}",
        "runner", "found", "median tests to failure"
    );
    for (name, run) in [
        (
            "generational",
            generational as fn(&_, Config) -> pbt::Report,
        ),
        ("fuzz", fuzz),
    ] {
        let mut tests: Vec<u64> = Vec::new();
        for seed in 0..SEEDS {
            let config = Config::default()
                .cases(BUDGET)
                .seed(seed)
                .regressions(Regressions::Off);
            let report = run(&prop, config);
            if let Some(failure) = &report.failure {
                assert_eq!(
                    failure.counterexample[0].value, "[98, 117, 103]",
                    "{report}"
                );
                tests.push(report.tests);
            }
        }
        tests.sort_unstable();
        let median = tests
            .get(tests.len() / 2)
            .map_or("-".to_string(), |t| t.to_string());
        println!("{name:<14} {:>5}/{SEEDS} {median:>22}", tests.len());
    }
}

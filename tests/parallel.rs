//! The parallel runner past its first tests: numbers handed out in blocks
//! to workers kept for the process. Its promises — the generational
//! runner's counterexample for the same seed, exactly `cases` passing
//! tests, no hang when every input is discarded — must hold however the
//! blocks fall, with runs overlapping, and with a run started from a check.

use pbt::prelude::*;
use pbt::runners::{generational, parallel, Regressions, Verdict};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

fn quiet() -> Config {
    Config::default()
        .regressions(Regressions::Off)
        .ignore_env()
        .max_shrinks(0)
}

/// Busy for about `d` (the tests must outlast the runner's first 200 µs on
/// its own thread, so that the workers share them).
fn busy(d: Duration) {
    let t = Instant::now();
    while t.elapsed() < d {
        std::hint::spin_loop();
    }
}

/// The case that failed and the input as found.
fn found(report: &pbt::runners::Report) -> Option<(u64, String)> {
    let failure = report.failure.as_ref()?;
    Some((failure.case_seed, failure.counterexample[0].value.clone()))
}

#[test]
fn a_rare_failure_is_the_generational_runners_whatever_the_blocks() {
    // About one input in 400 fails, so the failure comes long after the
    // hand-over, with both workers claiming blocks; tests take 2 µs, so
    // blocks grow to dozens of tests.
    let prop = property! {
        forall x: u64;
        check { busy(Duration::from_micros(2)); x % 400 != 7 }
    };
    for seed in 0..6 {
        let config = || quiet().seed(seed).cases(1_000_000);
        let sequential = generational(&prop, config());
        let two = parallel(&prop, config().workers(2));
        let three = parallel(&prop, config().workers(3));
        assert!(found(&sequential).is_some(), "seed {seed}: {sequential}");
        assert_eq!(found(&sequential), found(&two), "seed {seed}: {two}");
        assert_eq!(found(&sequential), found(&three), "seed {seed}: {three}");
        // Every test before it passed (and maybe some after it, run
        // before it was found).
        assert!(two.tests >= sequential.tests, "seed {seed}");
    }
}

#[test]
fn exactly_cases_tests_pass_and_each_discard_is_counted_once() {
    static CHECKED: AtomicU64 = AtomicU64::new(0);
    let prop = property! {
        forall x: u32;
        implies x % 3 != 0;
        check { CHECKED.fetch_add(1, Relaxed); busy(Duration::from_micros(1)); true }
    };
    let report = parallel(&prop, quiet().seed(3).cases(5_000).workers(2));
    assert_eq!(report.verdict, Verdict::Passed, "{report}");
    assert_eq!(report.tests, 5_000, "{report}");
    assert_eq!(CHECKED.load(Relaxed), 5_000);
    assert_eq!(report.statistics.tests, report.tests, "{report}");
    // Every number claimed is tested, so the cases tested are the first
    // ones up to the 5 000th pass, as the generational runner tests them:
    // the same discards.
    let sequential = generational(&prop, quiet().seed(3).cases(5_000));
    assert!(report.discards > 1_000, "{report}");
    assert_eq!(report.discards, sequential.discards, "{report}");
}

#[test]
fn a_run_that_discards_everything_gives_up_rather_than_hangs() {
    let prop = property! {
        forall x: u32;
        implies x == u32::MAX - 1 && x == 3;
        check true
    };
    let report = parallel(&prop, quiet().seed(1).cases(100).workers(2));
    assert_eq!(report.verdict, Verdict::GaveUp, "{report}");
    assert_eq!(report.tests, 0);
}

#[test]
fn overlapping_runs_share_the_workers_and_each_finds_its_own_counterexample() {
    let prop = property! {
        forall x: u64;
        check { busy(Duration::from_micros(2)); x % 300 != 5 }
    };
    let expected: Vec<_> = (0..4)
        .map(|seed| found(&generational(&prop, quiet().seed(seed))))
        .collect();
    let prop = &prop;
    let got: Vec<_> = std::thread::scope(|s| {
        let runs: Vec<_> = (0..4)
            .map(|seed| s.spawn(move || found(&parallel(prop, quiet().seed(seed).workers(2)))))
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    assert_eq!(got, expected);
}

#[test]
fn a_parallel_run_inside_a_check_of_a_parallel_run_finishes() {
    let inner = property! {
        forall y: u16;
        check { busy(Duration::from_micros(1)); y == y }
    };
    let outer = property! {
        forall x: u8;
        check {
            let report = parallel(&inner, quiet().seed(u64::from(x)).cases(300).workers(2));
            report.passed() && report.tests == 300
        }
    };
    let report = parallel(&outer, quiet().seed(9).cases(40).workers(2));
    assert!(report.passed(), "{report}");
}

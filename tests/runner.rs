//! The generational runner: panics, timeouts, discards, replay and the
//! regressions file.

use pbt::generators as gen;
use pbt::prelude::*;
use pbt::runners::{generational, Regressions, Verdict};
use std::time::Duration;

fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

#[test]
fn a_panic_is_a_failure_with_its_message() {
    let prop = property! {
        forall x: u8;
        check {
            if x > 100 {
                panic!("x is too big: {x}");
            }
        }
    };
    let report = generational(&prop, quiet().seed(7));
    let failure = report.failure.expect("the check panics");
    assert_eq!(failure.counterexample[0].value, "101");
    assert!(
        failure.reason.contains("x is too big: 101"),
        "{}",
        failure.reason
    );
}

#[test]
fn an_err_is_a_failure_with_its_value() {
    let prop = property! {
        forall x: u8;
        check if x == 0 { Err("zero".to_string()) } else { Ok(()) }
    };
    let report = generational(&prop, quiet().seed(7));
    assert!(report.failure.expect("fails").reason.contains("zero"));
}

#[test]
fn a_slow_test_fails_by_timeout_and_is_shrunk() {
    let prop = property! {
        forall n: u64, #[gen = gen::int(0..400u64)];
        check {
            if n >= 100 {
                std::thread::sleep(Duration::from_millis(300));
            }
            true
        }
    };
    // A wide margin between fast (no sleep) and slow (300 ms) tests around the
    // 100 ms limit, so a loaded machine does not make a fast test look slow.
    let config = quiet()
        .seed(3)
        .timeout(Duration::from_millis(100))
        .max_shrink_time(Duration::from_secs(20));
    let report = generational(&prop, config);
    let failure = report.failure.expect("slow inputs time out");
    assert!(failure.reason.contains("time limit"), "{}", failure.reason);
    assert_eq!(failure.counterexample[0].value, "100");
}

#[test]
fn rejecting_preconditions_give_up_clearly() {
    // A precondition with no gradient to climb: automatic targeting (which
    // can reach `x == 12345` by stepping `x`) cannot satisfy it either.
    let prop = property! {
        forall x: u64;
        implies x.wrapping_mul(0x9E37_79B9_7F4A_7C15) == 12345;
        check false
    };
    let report = generational(&prop, quiet().cases(50));
    assert_eq!(report.verdict, Verdict::GaveUp);
    assert!(report.discards > 500);
    assert!(report.to_string().contains("gave up"), "{report}");
}

#[test]
fn targeting_climbs_to_an_equality_precondition_by_stepping_the_value() {
    // Random `u64`s never satisfy `x == 12345`; the derived utility
    // `-|x - 12345|` and `u64`'s mutator (small steps, bit flips) climb to it
    // (with `Mutation::Choices` alone: 0 of 10 seeds, as measured).
    let prop = property! {
        forall x: u64;
        implies x == 12345;
        check false
    };
    let found = (0..10)
        .filter(|&seed| {
            let report = generational(&prop, quiet().cases(1000).seed(seed));
            report
                .failure
                .is_some_and(|f| f.counterexample[0].value == "12345")
        })
        .count();
    eprintln!("x == 12345 reached on {found} of 10 seeds");
    assert!(found >= 8, "reached on {found} of 10 seeds");
}

#[test]
fn preconditions_discard_and_the_rest_is_tested() {
    let prop = property! {
        forall x: u32;
        implies x % 2 == 0;
        check x % 2 == 0
    };
    let report = generational(&prop, quiet().cases(200));
    assert!(report.passed(), "{report}");
    assert_eq!(report.tests, 200);
    assert!(report.discards > 20);
}

#[test]
fn same_seed_same_counterexample() {
    let run = |seed| {
        let prop = property! {
            forall xs: Vec<u16>;
            forall k: u16;
            check !xs.contains(&k) || xs.len() < 3
        };
        generational(&prop, quiet().seed(seed).cases(5000))
            .failure
            .map(|f| f.counterexample)
    };
    for seed in [1, 2, 99] {
        assert_eq!(run(seed), run(seed));
    }
}

#[test]
fn the_report_serialises_to_json() {
    let prop = property! {
        forall x: u8;
        check x < 10
    };
    let report = generational(&prop, quiet().seed(5));
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    assert_eq!(json["verdict"], "Failed");
    assert_eq!(json["failure"]["counterexample"][0]["name"], "x");
    assert_eq!(json["failure"]["counterexample"][0]["value"], "10");
    assert_eq!(json["seed"], 5);
}

#[test]
fn failures_are_saved_and_replayed_first() {
    let dir = std::env::temp_dir().join(format!("pbt-regressions-{}", std::process::id()));
    let file = dir.join("saved.pbt-regressions");
    let config = || {
        Config::default()
            .ignore_env()
            .regressions(Regressions::File(file.clone()))
    };
    let prop = property! {
        forall x: u64, #[gen = gen::int(0..2000u64)];
        check x != 1234
    };
    let first = generational(&prop, config().cases(1_000_000).seed(1));
    let failure = first
        .failure
        .expect("found by chance within a million cases");
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(
        saved.contains(&format!("cc {:#x} ", failure.case_seed)),
        "{saved}"
    );
    // Another seed and a single case: only the replay can find it.
    let second = generational(&prop, config().cases(1).seed(2));
    assert_eq!(second.replayed, 1);
    assert_eq!(
        second.failure.expect("replayed").counterexample[0].value,
        "1234"
    );
    // Saving the same case again does not duplicate it.
    let saved = std::fs::read_to_string(&file).unwrap();
    let cases = saved.lines().filter(|l| l.starts_with("cc ")).count();
    assert_eq!(cases, 1, "{saved}");
    let _ = std::fs::remove_dir_all(&dir);
}

// Fresh tests run in batches (one panic-catching call while they pass
// silently): what a batch hands back must be what one test at a time gives.

/// The first failing case of a batch is the one stepping case by case finds,
/// at the same test number.
#[test]
fn a_batch_stops_at_the_test_one_at_a_time_stops_at() {
    use pbt::runners::components::{supervise, DynProperty, InProcess, Plan, RunStep, Tested};
    let prop = property! {
        forall x: u16;
        check x < 60_000
    };
    for seed in 0..5 {
        let config = quiet().seed(seed).cases(100_000);
        let plan = Plan::new(&config, &DynProperty::structure(&prop));
        let first = supervise(&prop, &plan, |watch| {
            let mut step = InProcess::new(&prop, &plan, watch);
            (0..).find(|&n| step.test_fresh(&plan.case(n)) != Tested::Passed)
        });
        let report = generational(&prop, config);
        let failure = report.failure.expect("some x is 60 000 or more");
        assert_eq!(report.tests, first.expect("found") + 1, "seed {seed}");
        assert!(failure.original[0].value.parse::<u16>().unwrap() >= 60_000);
    }
}

/// A panic in the middle of a batch is attributed to the generator or the
/// check as when each test caught its own.
#[test]
fn a_panic_inside_a_batch_is_the_generators_or_the_checks() {
    let in_generator = property! {
        forall x: u32, #[gen = map(int(0..1000u32), |x| { assert!(x < 990, "generated {x}"); x })];
        check x < 2000
    };
    let report = generational(&in_generator, quiet().seed(3).cases(10_000));
    let failure = report.failure.expect("the generator panics");
    assert!(
        failure
            .reason
            .starts_with("the generator panicked: generated 99"),
        "{}",
        failure.reason
    );
    let in_check = property! {
        forall x: u32, #[gen = int(0..1000u32)];
        check { assert!(x < 990, "checked {x}"); }
    };
    let report = generational(&in_check, quiet().seed(3).cases(10_000));
    let failure = report.failure.expect("the check panics");
    assert!(
        failure.reason.starts_with("panicked: checked 99"),
        "{}",
        failure.reason
    );
    assert_eq!(failure.counterexample[0].value, "990");
}

/// Statistics recorded by some tests only (a batch stops at each of them)
/// are counted once per test that recorded them, and every test is counted.
#[test]
fn statistics_recorded_by_some_tests_are_counted_exactly() {
    use std::sync::atomic::{AtomicU64, Ordering};
    static SMALL: AtomicU64 = AtomicU64::new(0);
    let prop = property! {
        forall x: u8;
        check {
            if x < 10 {
                SMALL.fetch_add(1, Ordering::Relaxed);
            }
            pbt::classify!(x < 10, "small");
            true
        }
    };
    let report = generational(&prop, quiet().seed(11).cases(5_000));
    assert!(report.passed(), "{report}");
    let stats = &report.statistics;
    assert_eq!((report.tests, stats.tests), (5_000, 5_000));
    let small = stats.classes.iter().find(|r| r.label == "small");
    let counted = SMALL.load(Ordering::Relaxed);
    assert!(counted > 0);
    assert_eq!(small.map(|r| r.count), Some(counted));
}

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

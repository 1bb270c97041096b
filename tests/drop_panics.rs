//! A generated value whose `Drop` panics is user code like any other: pbt
//! catches the panic wherever it drops a value it owns (a candidate the
//! shrinker let go of, the input a step replaced, a report's typed
//! counterexample), says so in the report, and loses neither the run nor
//! the case. A panic while the check owns the value (a `#[property_test]`
//! body takes its arguments by value) is the check's: a failure, shrunk
//! like any other.

use pbt::prelude::*;
use pbt::runners::{
    combinatorial, fuzz, generalized, generational, integrated, parallel, targeted, Regressions,
    Shrinker,
};

/// A value whose `Drop` panics when it is 3 modulo 7 (a "drop bomb", as a
/// guard that must be defused before it goes out of scope).
#[derive(Clone, Debug, PartialEq)]
pub struct Bomb(pub u32);

impl Drop for Bomb {
    fn drop(&mut self) {
        if self.0 % 7 == 3 && !std::thread::panicking() {
            panic!("Bomb({}) went off when dropped", self.0);
        }
    }
}

impl pbt::Arbitrary for Bomb {
    fn arbitrary<S: pbt::Source + ?Sized>(src: &mut S, size: usize) -> Bomb {
        Bomb(u32::arbitrary(src, size))
    }
}

impl pbt::Shrink for Bomb {
    fn shrink(&self) -> Box<dyn Iterator<Item = Bomb> + '_> {
        Box::new(self.0.shrink().map(Bomb))
    }
}

/// A bomb that goes off when it is 50, even while the thread unwinds from
/// another panic (which, uncaught, aborts the process).
#[derive(Clone, Debug, PartialEq)]
pub struct NaiveBomb(pub u32);

impl Drop for NaiveBomb {
    fn drop(&mut self) {
        if self.0 == 50 {
            panic!("NaiveBomb({}) went off when dropped", self.0);
        }
    }
}

impl pbt::Arbitrary for NaiveBomb {
    fn arbitrary<S: pbt::Source + ?Sized>(src: &mut S, size: usize) -> NaiveBomb {
        NaiveBomb(u32::arbitrary(src, size))
    }
}

impl pbt::Shrink for NaiveBomb {
    fn shrink(&self) -> Box<dyn Iterator<Item = NaiveBomb> + '_> {
        Box::new(self.0.shrink().map(NaiveBomb))
    }
}

fn config() -> Config {
    Config::default()
        .ignore_env()
        .seed(3)
        .regressions(Regressions::Off)
}

/// The shrunk bomb's number (the bomb itself is forgotten, not dropped:
/// this test's own drop would set it off).
fn shrunk(report: &Report) -> Option<u32> {
    report.counterexample::<(Bomb,)>().map(|(b,)| {
        let n = b.0;
        std::mem::forget(b);
        n
    })
}

/// The note a report carries when pbt caught a panic of a dropped value.
fn noted(report: &Report) -> bool {
    report
        .notes
        .iter()
        .any(|n| n.contains("Drop") && n.contains("went off when dropped"))
}

#[test]
fn a_drop_that_panics_outside_the_check_is_caught_and_noted_by_every_shrinker() {
    // The check borrows: only pbt drops the values. The failure (>= 50)
    // shrinks to 50 whatever the bombs among the candidates.
    let prop = property! {
        forall b: Bomb;
        check b.0 < 50
    };
    for shrinker in [Shrinker::Integrated, Shrinker::External, Shrinker::Both] {
        for seed in 0..5 {
            let report = generational(&prop, config().seed(seed).shrinker(shrinker));
            let failure = report.failure.as_ref().expect("a failure");
            assert_eq!(failure.reason, "the check returned false", "{report}");
            assert_eq!(
                report.counterexample::<(Bomb,)>(),
                Some((Bomb(50),)),
                "{shrinker:?}, seed {seed}: {report}"
            );
            assert!(!failure.flaky, "{report}");
        }
    }
}

#[test]
fn a_check_that_owns_the_value_fails_on_its_drop_and_shrinks_among_bombs() {
    // As a `#[property_test]` body does: the value is the check's, so its
    // drop is part of the test. Bombs are 3 modulo 7: a shrinker that
    // moves a number toward 0 stops at the first bomb below it that its
    // steps reach, 3 on some seeds (not a local search's minimum on all).
    let prop = property! {
        forall b: Bomb;
        check { let owned = b.clone(); owned.0 < u32::MAX }
    };
    let mut reached_3 = false;
    for seed in 0..10 {
        let report = generational(&prop, config().seed(seed).cases(10_000));
        let failure = report.failure.as_ref().expect("a bomb is found");
        let n = shrunk(&report).expect("a counterexample");
        assert_eq!(n % 7, 3, "seed {seed}: {report}");
        assert!(
            failure
                .reason
                .contains(&format!("Bomb({n}) went off when dropped")),
            "seed {seed}: {report}"
        );
        assert!(!failure.flaky, "{report}");
        reached_3 |= n == 3;
    }
    assert!(reached_3, "no seed shrank to the smallest bomb");
}

#[test]
fn every_runner_reports_through_bombs_it_drops() {
    let prop = property! {
        forall b: Bomb;
        check b.0 < 50
    };
    let mut runs: Vec<(&str, Report)> = vec![
        ("generational", generational(&prop, config())),
        ("integrated", integrated(&prop, config())),
        ("parallel", parallel(&prop, config().workers(2))),
        ("combinatorial", combinatorial(&prop, config())),
        ("fuzz", fuzz(&prop, config())),
        ("targeted", targeted(&prop, config())),
    ];
    let update = |_: &mut (), _: &()| false;
    runs.push(("generalized", generalized(&prop, config(), (), update)));
    for (runner, report) in runs {
        assert_eq!(
            report.counterexample::<(Bomb,)>(),
            Some((Bomb(50),)),
            "{runner}: {report}"
        );
        // Dropping the report drops its typed counterexample and original
        // (a bomb, often): caught too.
        drop(report);
    }
}

#[test]
fn a_bomb_dropped_by_the_shrinker_is_noted_in_the_report() {
    // Every value from 1 to 2^32 - 1 fails; the integrated shrinker passes
    // by bombs (3, 10, 17, …) on its way down and drops the ones it does
    // not take.
    let prop = property! {
        forall b: Bomb;
        check b.0 == 0
    };
    let noted_somewhere = (0..20).any(|seed| {
        let report = generational(&prop, config().seed(seed));
        assert_eq!(
            report.counterexample::<(Bomb,)>(),
            Some((Bomb(1),)),
            "{report}"
        );
        noted(&report)
    });
    assert!(
        noted_somewhere,
        "no report noted a bomb the shrinker dropped"
    );
}

#[test]
fn a_report_holding_a_bomb_can_be_dropped_while_panicking() {
    // `#[property_test]` panics with the report (assert_passed) and the
    // report is dropped while unwinding: a bomb going off then would abort
    // the test process, not fail the test.
    let prop = property! {
        forall b: NaiveBomb;
        check b.0 < 50
    };
    let report = generational(&prop, config().cases(10_000));
    let shrunk = report.counterexample::<(NaiveBomb,)>().map(|(b,)| {
        let n = b.0;
        std::mem::forget(b);
        n
    });
    assert_eq!(shrunk, Some(50), "{report}");
    let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        report.assert_passed();
    }));
    assert!(unwound.is_err(), "assert_passed panics with the report");
}

#[test]
fn a_failure_that_is_only_a_dropped_input_is_not_flaky() {
    // The check borrows and always passes; the runner drops each input
    // inside the test, so a bomb fails it. Run again, the check passes,
    // but the input's drop panics again: the failure is its `Drop`, and
    // the report says so rather than calling it flaky.
    let prop = property! {
        forall b: Bomb;
        check b.0 < u32::MAX
    };
    for seed in 0..5 {
        let report = generational(&prop, config().seed(seed).cases(10_000));
        let failure = report.failure.as_ref().expect("a bomb is found");
        let n = shrunk(&report).expect("a counterexample");
        assert_eq!(n % 7, 3, "{report}");
        assert!(!failure.flaky, "seed {seed}: {report}");
        assert!(
            report
                .notes
                .iter()
                .any(|n| n.contains("the check passes") && n.contains("Drop")),
            "seed {seed}: {report}"
        );
    }
}

//! The explain phase: after shrinking, a variable that can take any
//! value (the others held) and the input still fails the same way is
//! marked "or any other generated value"; one that matters is not.

use pbt::generators as gen;
use pbt::prelude::*;
use pbt::runners::{generational, integrated, parallel, Regressions, Shrinker};

fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

/// The line of the report that shows `name`.
fn line<'a>(text: &'a str, name: &str) -> &'a str {
    let prefix = format!("    {name} = ");
    text.lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no line for {name}:\n{text}"))
}

#[test]
fn an_irrelevant_variable_is_marked_and_the_one_that_matters_is_not() {
    let prop = property! {
        forall a: u32;
        forall b: u32;
        check a < 1000
    };
    for seed in 0..5 {
        for shrinker in [Shrinker::Both, Shrinker::Integrated, Shrinker::External] {
            let report = generational(&prop, quiet().seed(seed).shrinker(shrinker));
            let failure = report.failure.as_ref().unwrap();
            assert_eq!(failure.any_value_fails, ["b"], "{shrinker:?}: {report}");
            let text = report.to_string();
            assert_eq!(line(&text, "a"), "    a = 1000", "{text}");
            assert_eq!(
                line(&text, "b"),
                "    b = 0    (or any other generated value)",
                "{text}"
            );
        }
    }
}

#[test]
fn variables_that_fail_only_together_are_not_marked() {
    // Fails when a and b are equal: neither is free.
    let prop = property! {
        forall a: u8, #[gen = gen::int(0..=3u8)];
        forall b: u8, #[gen = gen::int(0..=3u8)];
        check a != b
    };
    let report = generational(&prop, quiet().seed(1));
    let failure = report.failure.as_ref().unwrap();
    assert!(failure.any_value_fails.is_empty(), "{report}");
    assert!(!report.to_string().contains("any other generated value"));
}

/// A later variable whose generator reads an earlier one: redrawing the
/// earlier one regenerates the later from its own choices, so `n` (the
/// length the list depends on) matters, and `flag` does not.
#[test]
fn a_dependent_variable_is_regenerated_when_the_one_it_reads_is_redrawn() {
    let prop = property! {
        forall n: usize, #[gen = gen::int(0..=20usize)];
        forall xs: Vec<u8>, #[gen = gen::vec(gen::int(0..=9u8), n..=n)];
        forall flag: bool;
        check xs.len() < 3
    };
    let report = generational(&prop, quiet().seed(2));
    let failure = report.failure.as_ref().unwrap();
    assert!(
        failure
            .counterexample
            .iter()
            .any(|b| b.name == "n" && b.value == "3"),
        "{report}"
    );
    assert!(failure.any_value_fails.contains(&"flag"), "{report}");
    assert!(!failure.any_value_fails.contains(&"n"), "{report}");
    // The elements of the list do not matter, but the list is one
    // variable: its length is fixed by `n`, so every redraw fails.
    assert!(failure.any_value_fails.contains(&"xs"), "{report}");
}

/// A fresh value that fails another way (another origin) is no evidence
/// that the variable is free: it is not marked. Here a fresh `b` is huge
/// three times in four, which fails the other assertion.
#[test]
fn a_failure_of_another_origin_does_not_mark_a_variable() {
    fn check(a: u32, b: u32) {
        assert!(b < 1_000_000, "b is huge");
        assert!(a < 1000, "a is large");
    }
    let prop = property! {
        forall a: u32;
        forall b: u32, #[gen = gen::int(0..=4_000_000u32)];
        check check(a, b)
    };
    let config = quiet().seed(3).cases(1000).report_multiple(true);
    let report = generational(&prop, config);
    let a_large = (report.failures())
        .find(|f| f.reason.starts_with("panicked: a is large"))
        .unwrap_or_else(|| panic!("both bugs are found: {report}"));
    assert_eq!(a_large.counterexample[0].value, "1000", "{report}");
    assert!(a_large.any_value_fails.is_empty(), "{report}");
}

/// `max_shrinks(0)` turns the phase off: nothing is marked.
#[test]
fn no_shrinking_no_explanation() {
    let prop = property! {
        forall a: u32;
        forall b: u32;
        check a < 1000
    };
    let report = generational(&prop, quiet().seed(1).max_shrinks(0));
    let failure = report.failure.as_ref().unwrap();
    assert!(failure.any_value_fails.is_empty(), "{report}");
}

/// Every runner's failure path explains: the integrated and the parallel
/// runner too.
#[test]
fn other_runners_explain_too() {
    let prop = property! {
        forall a: u32;
        forall b: String;
        check a < 1000
    };
    let one = integrated(&prop, quiet().seed(1));
    assert_eq!(
        one.failure.as_ref().unwrap().any_value_fails,
        ["b"],
        "{one}"
    );
    let two = parallel(&prop, quiet().seed(1).workers(2));
    assert_eq!(
        two.failure.as_ref().unwrap().any_value_fails,
        ["b"],
        "{two}"
    );
}

/// A property test with an irrelevant parameter, run by the test below
/// (it fails on purpose).
#[property_test(config = Config::default().regressions(Regressions::Off).ignore_env().seed(5))]
#[ignore = "fails on purpose: run by a_property_test_report_shows_the_mark"]
fn irrelevant_b(a: u32, b: u32) {
    assert!(a < 1000, "a = {a}, b = {b}");
}

/// Through `#[property_test]`: the attribute's parameters are the
/// variables; the report shows the mark.
#[test]
fn a_property_test_report_shows_the_mark() {
    let panic = std::panic::catch_unwind(irrelevant_b).expect_err("it fails");
    let message = panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    assert!(
        message.contains("    b = 0    (or any other generated value)"),
        "{message}"
    );
    assert!(message.contains("    a = 1000\n"), "{message}");
}

/// Fresh values are drawn at the sizes of the run's own tests, not at the
/// shrunk input's (the integrated shrinker replays at the largest size):
/// a sum that overflows for the shrunk list does not for most lists the
/// run generates, so the only variable is not marked.
#[test]
fn fresh_values_come_at_the_runs_sizes() {
    let prop = property! {
        forall xs: Vec<i32>;
        check { let _ = xs.iter().sum::<i32>(); }
    };
    for seed in 0..5 {
        let report = generational(&prop, quiet().seed(seed));
        let Some(failure) = report.failure.as_ref() else {
            continue;
        };
        assert!(failure.any_value_fails.is_empty(), "seed {seed}: {report}");
    }
}

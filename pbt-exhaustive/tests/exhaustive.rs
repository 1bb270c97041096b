//! The exhaustive runner, from another crate: it finds the smallest failing
//! input, proves small properties exhaustively, and fails exactly like the
//! built-in runners (saved, replayable, the same report).

use pbt::prelude::*;
use pbt::runners::{generational, Regressions, Shrinker};
use pbt_exhaustive::{exhaustive, exhaustive_prefix_to, exhaustive_to, Bound};
use std::path::PathBuf;

/// The external shrinker: these tests are about what the enumeration finds
/// (the integrated one compares padded choice sequences, where `[0, 5]`
/// comes before the `[5]` enumeration found as `[5, 0]`).
fn quiet() -> Config {
    Config::default()
        .ignore_env()
        .regressions(Regressions::Off)
        .shrinker(Shrinker::External)
}

fn first_counterexample(report: &Report) -> Vec<String> {
    let failure = report.failure.as_ref().expect("a failure");
    failure
        .counterexample
        .iter()
        .map(|b| b.value.clone())
        .collect()
}

/// A regressions file of this test's own, removed first.
fn scratch(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("pbt-exhaustive-{name}-{}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

// `int(range)` maps choice `c` to the `c`th value from the low end, so
// shortlex order over choices is numeric order over values.

#[test]
fn finds_the_smallest_failing_integer() {
    let prop = property! { forall x: u32, #[gen = int(0..=u32::MAX)]; check x < 1000 };
    let report = exhaustive(&prop, quiet());
    let failure = report.failure.as_ref().expect("a failure");
    assert_eq!(first_counterexample(&report), ["1000"], "{report}");
    // Found as it is, not shrunk to it: every smaller input was tested.
    assert_eq!(failure.original[0].value, "1000", "{report}");
    assert_eq!(report.tests, 1001, "{report}");
}

#[test]
fn finds_the_smallest_failing_pair() {
    let prop = property! {
        forall a: u8, #[gen = int(0..=255u8)];
        forall b: u8, #[gen = int(0..=255u8)];
        check u16::from(a) + u16::from(b) < 5
    };
    let report = exhaustive(&prop, quiet());
    // Shortlex: the one-choice sequence [5] (b is the padding zero) comes
    // before every two-choice one, [0, 5] included; [0..=4] all pass.
    assert_eq!(first_counterexample(&report), ["5", "0"], "{report}");
    assert_eq!(report.tests, 6, "{report}");
}

/// Type-based integers draw their kind, then their magnitude, in value
/// order (smaller choices, simpler values), so the shortlex-first failure
/// is already the least value: nothing is left for the failure path to
/// shrink.
#[test]
fn the_first_failure_of_a_type_based_integer_is_the_least() {
    let prop = property! { forall x: u32; check x < 1000 };
    let report = exhaustive(&prop, quiet());
    let failure = report.failure.as_ref().expect("a failure");
    assert_eq!(first_counterexample(&report), ["1000"], "{report}");
    assert_eq!(failure.original[0].value, "1000", "{report}");
    assert_eq!(report.shrinks, 0, "{report}");
}

#[test]
fn finds_the_shortest_failing_vector() {
    let prop = property! { forall xs: Vec<u8>; check xs.len() < 3 };
    let report = exhaustive(&prop, quiet());
    assert_eq!(first_counterexample(&report), ["[0, 0, 0]"], "{report}");
}

#[test]
fn a_generator_fault_is_a_failure_at_the_smallest_input() {
    let prop = property! {
        forall x: u8, #[gen = map(int(0..=20u8), |x| { assert!(x != 7, "seven"); x })];
        check x < 100
    };
    let report = exhaustive(&prop, quiet());
    let failure = report.failure.as_ref().expect("a failure");
    assert!(failure.reason.contains("seven"), "{report}");
    assert_eq!(failure.choices.as_deref(), Some(&[7][..]), "{report}");
}

#[test]
fn proves_every_pair_of_booleans() {
    let prop = property! { forall a: bool; forall b: bool; check (a || b) == (b || a) };
    let report = exhaustive_to(&prop, quiet(), Bound::depth(4));
    assert!(report.passed(), "{report}");
    assert_eq!(report.tests, 4);
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("all 4 inputs passed")),
        "{report}"
    );
}

#[test]
fn proves_a_property_of_every_byte() {
    let prop = property! {
        forall x: u8, #[gen = int(0..=255u8)];
        check x.wrapping_add(1).wrapping_sub(1) == x
    };
    let report = exhaustive(&prop, quiet());
    assert!(report.passed(), "{report}");
    assert_eq!(report.tests, 256);
}

#[test]
fn equal_values_are_tested_once() {
    let prop = property! {
        forall x: u8, #[gen = map(int(0..=9u8), |x| x / 5)];
        check x < 2
    };
    let report = exhaustive(&prop, quiet());
    assert!(report.passed(), "{report}");
    assert_eq!(report.tests, 2, "{report}");
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("8 duplicates skipped")),
        "{report}"
    );
}

#[test]
fn discarded_inputs_are_counted_and_the_rest_tested() {
    let prop = property! { forall x: u8, #[gen = int(0..=255u8)]; implies x > 250; check x != 0 };
    let report = exhaustive(&prop, quiet());
    assert!(report.passed(), "{report}");
    assert_eq!((report.tests, report.discards), (5, 251), "{report}");
}

#[test]
fn the_count_bound_stops_it_and_says_so() {
    let prop = property! { forall x: u64, #[gen = int(0..=u64::MAX)]; check x != u64::MAX };
    let report = exhaustive_to(&prop, quiet(), Bound::depth(3).count(100));
    assert!(report.passed(), "{report}");
    assert_eq!(report.tests, 100);
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("count bound of 100 inputs")),
        "{report}"
    );
}

#[property_test(runner = pbt_exhaustive::exhaustive_to(pbt_exhaustive::Bound::depth(2)))]
fn selectable_with_runner_path(a: bool, b: bool) -> bool {
    (a && b) == (b && a)
}

/// A runner in another crate shrinks, saves and reports exactly like
/// `generational`: the same counterexample, reason and shrinker; the input
/// saved on discovery; and the saved case replayed first by any runner.
#[test]
fn fails_exactly_like_generational() {
    let prop = property! { forall x: u32, #[gen = int(0..=u32::MAX)]; check x < 1000 };
    let (mine, theirs) = (scratch("mine"), scratch("theirs"));
    let config = |file: &PathBuf| {
        Config::default()
            .ignore_env()
            .seed(7)
            // The same shrinker: exhaustive finds the minimum (no step to
            // take), generational shrinks to it.
            .shrinker(Shrinker::Integrated)
            .regressions(Regressions::File(file.clone()))
    };
    let ours = exhaustive(&prop, config(&mine));
    let builtin = generational(&prop, config(&theirs));
    let (a, b) = (
        ours.failure.as_ref().unwrap(),
        builtin.failure.as_ref().unwrap(),
    );
    assert_eq!(first_counterexample(&ours), first_counterexample(&builtin));
    assert_eq!(
        (&a.reason, a.shrinker, a.flaky),
        (&b.reason, b.shrinker, b.flaky)
    );
    assert_eq!(ours.verdict, builtin.verdict);
    // Saved on discovery, in the same file format.
    let saved = std::fs::read_to_string(&mine).expect("the exhaustive runner saved its failure");
    let cases = |text: &str| {
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .count()
    };
    assert_eq!(cases(&saved), 1, "{saved}");
    assert!(cases(&std::fs::read_to_string(&theirs).unwrap()) >= 1);
    // Replayable: the built-in runner replays the exhaustive runner's case
    // first, and the exhaustive runner replays its own.
    for replay in [
        generational(&prop, config(&mine)),
        exhaustive(&prop, config(&mine)),
    ] {
        let failure = replay.failure.as_ref().expect("the saved case still fails");
        assert!(failure.replayed_from.is_some(), "{replay}");
        assert_eq!(first_counterexample(&replay), ["1000"]);
    }
    std::fs::remove_file(&mine).unwrap();
    std::fs::remove_file(&theirs).unwrap();
}

/// A small structured failure that random generation practically never
/// draws ([0, 0, 0]: length 3 of 0..=100, then three zeros of 256) is among
/// the first inputs of the prefix.
#[test]
fn the_prefix_finds_a_small_failure_that_random_generation_misses() {
    let prop = property! {
        forall xs: Vec<u8>, #[gen = vec(int(0..=255u8), 0..=100)];
        check *xs != [0, 0, 0]
    };
    assert!(generational(&prop, quiet().cases(10_000)).passed());
    let report = exhaustive_prefix_to(&prop, quiet().cases(10_000), Bound::depth(64).count(1_000));
    assert_eq!(first_counterexample(&report), ["[0, 0, 0]"], "{report}");
    assert!(report.tests <= 1_000, "{report}");
}

/// A failure that needs a large input (eight or more large elements) is
/// beyond the prefix of 200 inputs: the random phase finds it, and the
/// report counts both phases' tests.
#[test]
fn after_the_prefix_random_generation_finds_large_failures() {
    let prop = property! {
        forall xs: Vec<u8>, #[gen = vec(int(0..=255u8), 0..=100)];
        check xs.iter().map(|&x| u32::from(x)).sum::<u32>() < 2_000
    };
    let report = exhaustive_prefix_to(&prop, quiet().cases(10_000), Bound::depth(64).count(200));
    assert!(report.failure.is_some(), "{report}");
    assert!(
        report.tests > 100,
        "the prefix's tests are counted: {report}"
    );
    assert!(
        report.notes.iter().any(|n| n.contains("exhaustive: all")),
        "the prefix's note is kept: {report}"
    );
    let passing = property! {
        forall xs: Vec<u8>, #[gen = vec(int(0..=255u8), 0..=100)];
        check xs.len() <= 100
    };
    let report = exhaustive_prefix_to(&passing, quiet().cases(500), Bound::depth(64).count(200));
    assert!(report.passed(), "{report}");
    assert_eq!(report.tests, 500, "the budget covers both phases: {report}");
}

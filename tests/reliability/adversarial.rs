//! The adversarial scenarios of `docs/reliability.md` (rows 34 on): deep
//! values, absurd sizes and configuration values, panics that panic again,
//! threads that panic, and a regressions file of a million lines.

use super::{rerun_with, saved_lines, saving_to, temp_file};
use pbt::prelude::*;
use pbt::runners::{generational, Regressions};
use std::time::Duration;

/// A list as deep as it is long: plain Rust builds, clones, compares and
/// drops one 10 000 deep on a test thread; its derived `Debug` does not
/// fit there in a debug build.
#[derive(Arbitrary, Debug, Clone, PartialEq)]
pub enum List {
    Nil,
    Cons(u8, Box<List>),
}

/// A list of `n` cells.
pub fn deep(n: usize) -> List {
    let mut list = List::Nil;
    for i in 0..n {
        list = List::Cons(i as u8, Box::new(list));
    }
    list
}

/// Its length, without recursion.
pub fn length(mut list: &List) -> usize {
    let mut n = 0;
    while let List::Cons(_, tail) = list {
        n += 1;
        list = tail;
    }
    n
}

#[test]
fn plain_rust_builds_clones_compares_and_drops_a_deep_list_on_a_test_thread() {
    let list = deep(10_000);
    let copy = list.clone();
    assert!(list == copy);
    assert_eq!(length(&copy), 10_000);
}

#[test]
fn a_failing_property_over_a_deep_list_is_reported_cut_short_and_saved() {
    let file = temp_file("deep-list");
    let prop = property! {
        forall list: List, #[gen = map(int(10_000..=10_000usize), deep)];
        check length(&list) < 10
    };
    let report = generational(&prop, saving_to(&file));
    let failure = report.failure.clone().expect("a report, not a crash");
    assert_eq!(failure.reason, "the check returned false", "{report}");
    let text = report.to_string();
    assert!(text.contains("cut short"), "{text}");
    assert!(text.contains("Cons("), "{text}");
    assert!(!saved_lines(&file).is_empty());
    let (list,) = report
        .counterexample::<(List,)>()
        .expect("the input, typed");
    assert_eq!(length(&list), 10_000);
}

#[property_test(cases = 20)]
fn a_passing_property_test_over_a_deep_list(
    #[with = map(int(9_000..=10_000usize), deep)] list: List,
) {
    assert!(length(&list) >= 9_000);
}

#[test]
fn every_runner_handles_a_deep_list_passing_and_failing() {
    let config = |_: &str| {
        Config::default()
            .ignore_env()
            .seed(3)
            .regressions(Regressions::Off)
            .cases(30)
    };
    let passing = property! {
        forall list: List, #[gen = map(int(9_000..=10_000usize), deep)];
        check length(&list) >= 9_000
    };
    super::each_runner(&passing, config, |runner, report| {
        assert!(report.passed(), "{runner}: {report}");
    });
    let failing = property! {
        forall list: List, #[gen = map(int(9_000..=10_000usize), deep)];
        check length(&list) < 9_000
    };
    super::each_runner(&failing, config, |runner, report| {
        assert!(!report.passed(), "{runner}: {report}");
        assert!(report.to_string().contains("cut short"), "{runner}");
    });
}

/// A list that mutates by type too.
#[derive(Arbitrary, Mutate, Debug, Clone, PartialEq)]
pub enum MList {
    Nil,
    Cons(u8, Box<MList>),
}

#[test]
fn the_derived_shrinker_and_mutator_do_not_recurse_through_a_deep_value() {
    let list = deep(10_000);
    // The first candidates: the tail, `Nil`, the head's shrinks.
    let lengths: Vec<usize> = pbt::Shrink::shrink(&list)
        .take(3)
        .map(|c| length(&c))
        .collect();
    assert_eq!(lengths, [9_999, 0, 10_000]);
    let mut m = MList::Nil;
    for i in 0..10_000 {
        m = MList::Cons(i as u8, Box::new(m));
    }
    let mut rng = pbt::Rng::from_seed(1);
    for _ in 0..50 {
        let mutant = pbt::Mutate::mutate(&m, &mut rng, 100);
        assert_ne!(mutant, m);
    }
}

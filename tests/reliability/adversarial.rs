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

/// What [`absurd_configuration_values_never_overflow`] runs in a child
/// process with `PBT_CASES` set: a filter that never accepts.
#[test]
fn never_accepting_child() {
    let prop = property! {
        forall x: u8, #[gen = filter(int(0..=255u8), |_| false)];
        check x == x
    };
    let mut config = Config::default().regressions(Regressions::Off);
    if std::env::var_os("PBT_RELIABILITY_CHILD").is_none() {
        config = config.ignore_env();
    }
    let report = generational(&prop, config);
    println!("passed: {}, discards: {}", report.passed(), report.discards);
    println!("{report}");
}

#[test]
fn absurd_configuration_values_never_overflow() {
    let (_, out) = rerun_with(
        "adversarial::never_accepting_child",
        &[("PBT_CASES", "18446744073709551615")],
    );
    assert!(!out.contains("overflow"), "{out}");
    assert!(out.contains("passed: false"), "{out}");
}

#[test]
fn every_configuration_value_at_its_extreme_is_a_run_not_an_overflow() {
    let failing = property! { forall x: u32, xs: Vec<u8>; check x < 1000 };
    let passing = property! { forall x: u8, xs: Vec<u8>; check x == x && xs.len() < usize::MAX };
    let base = || {
        Config::default()
            .ignore_env()
            .regressions(Regressions::Off)
            .seed(1)
    };
    /// A setting at its extreme.
    type Extreme = fn(Config) -> Config;
    let extremes: Vec<(&str, Extreme)> = vec![
        ("cases", |c| c.cases(u64::MAX)),
        ("max_shrinks", |c| c.max_shrinks(u64::MAX)),
        ("max_shrink_time", |c| c.max_shrink_time(Duration::MAX)),
        ("timeout", |c| c.timeout(Duration::MAX)),
        ("max_discard_ratio", |c| c.max_discard_ratio(u64::MAX)),
        ("max_size", |c| c.max_size(usize::MAX)),
        ("sizes", |c| c.sizes(pbt::runners::Sizes::Fixed(usize::MAX))),
        ("max_draws", |c| c.max_draws(u64::MAX)),
        ("candidates", |c| c.candidates(usize::MAX)),
        ("workers", |c| c.workers(usize::MAX)),
        ("all", |c| {
            c.max_shrinks(u64::MAX)
                .max_shrink_time(Duration::MAX)
                .timeout(Duration::MAX)
                .max_discard_ratio(u64::MAX)
                .max_size(usize::MAX)
                .max_draws(u64::MAX)
                .candidates(usize::MAX)
                .workers(usize::MAX)
        }),
    ];
    for (field, extreme) in extremes {
        super::each_runner(
            &failing,
            |_| extreme(base()),
            |runner, report| {
                assert!(!report.passed(), "{field}, {runner}: {report}");
                let failure = report.failure.as_ref().unwrap();
                assert!(
                    !failure.reason.contains("overflow"),
                    "{field}, {runner}: {report}"
                );
            },
        );
        super::each_runner(
            &passing,
            |_| extreme(base()).cases(5),
            |runner, report| {
                assert!(report.passed(), "{field}, {runner}: {report}");
            },
        );
    }
}

/// What [`pbt_cases_zero_says_that_nothing_ran`] runs with `PBT_CASES=0`.
#[property_test]
fn passing_property_test_child(x: u8) {
    assert_eq!(x, x);
}

#[test]
fn pbt_cases_zero_says_that_nothing_ran() {
    let (passed, out) = rerun_with(
        "adversarial::passing_property_test_child",
        &[("PBT_CASES", "0")],
    );
    assert!(passed, "{out}");
    assert!(out.contains("nothing ran"), "{out}");
    let report = generational(
        &property! { forall x: u8; check x == x },
        Config::default()
            .ignore_env()
            .regressions(Regressions::Off)
            .cases(0),
    );
    assert!(report.passed());
    assert!(report.to_string().contains("nothing ran"), "{report}");
}

/// A panic payload whose `Drop` panics.
struct Bomb;

impl Drop for Bomb {
    fn drop(&mut self) {
        panic!("the payload's drop panicked");
    }
}

#[test]
fn a_panic_payload_whose_drop_panics_still_gets_the_case_saved_and_reported() {
    let file = temp_file("payload-drop");
    let prop = property! {
        forall x: u32, #[gen = int(0..1000u32)];
        check {
            if x >= 10 {
                std::panic::panic_any(Bomb);
            }
            true
        }
    };
    let report = generational(&prop, saving_to(&file));
    let failure = report.failure.clone().expect("a report, not a lost case");
    assert!(failure.reason.contains("panicked"), "{report}");
    assert!(report.to_string().contains("seed"), "{report}");
    assert_eq!(report.counterexample::<(u32,)>(), Some((10,)), "{report}");
    assert!(!saved_lines(&file).is_empty());
}

#[test]
fn panics_in_threads_the_check_spawns_are_reported_once() {
    let (passed, out) = rerun_with("adversarial::thread_panics_child", &[]);
    assert!(!passed, "{out}");
    let printed = out.matches("a spawned thread broke").count();
    assert_eq!(printed, 1, "printed {printed} times:\n{out}");
    assert!(printed >= 1, "never printed:\n{out}");
}

/// What [`panics_in_threads_the_check_spawns_are_reported_once`] runs: a
/// check whose five threads panic whenever `x >= 10` (so while shrinking
/// too).
#[test]
fn thread_panics_child() {
    if std::env::var_os("PBT_RELIABILITY_CHILD").is_none() {
        return;
    }
    let prop = property! {
        forall x: u32, #[gen = int(0..1000u32)];
        check {
            let handles: Vec<_> = (0..5)
                .map(|_| std::thread::spawn(move || assert!(x < 10, "a spawned thread broke")))
                .collect();
            // Every thread joined, so none panics after the run.
            let joined: Vec<bool> = handles.into_iter().map(|h| h.join().is_ok()).collect();
            joined.into_iter().all(|ok| ok)
        }
    };
    generational(
        &prop,
        Config::default().seed(1).regressions(Regressions::Off),
    )
    .assert_passed();
}

#[test]
fn a_million_passing_saved_lines_replay_before_the_failing_one() {
    let file = temp_file("million");
    // The failing line: the first case of seed 7, whatever it checks.
    let found = property! { forall x: u64; check { let _ = x; false } };
    let first = generational(&found, saving_to(&file).max_shrinks(0));
    let (magic,) = first.original::<(u64,)>().expect("a failure");
    let failing = saved_lines(&file).remove(0);
    let mut text = String::with_capacity(30_000_000);
    for i in 1..=1_000_000u64 {
        text.push_str(&format!("cc {i:#x} 0 # passes\n"));
    }
    text.push_str(&failing);
    text.push('\n');
    std::fs::write(&file, text).unwrap();
    let prop = property! { forall x: u64; check x < magic };
    let started = std::time::Instant::now();
    let report = generational(&prop, saving_to(&file).cases(0));
    eprintln!("replayed in {:?}", started.elapsed());
    assert_eq!(
        report.counterexample::<(u64,)>(),
        Some((magic,)),
        "{report}"
    );
    assert_eq!(report.replayed, 1_000_001, "{report}");
}

/// A derived recursive type with two recursive fields.
#[derive(Arbitrary, Debug, Clone, PartialEq)]
pub enum Tree {
    Leaf(u8),
    Text(String, Vec<u64>),
    Node(Box<Tree>, Box<Tree>),
    Many(Vec<Tree>),
}

/// What [`a_derived_recursive_type_at_an_absurd_size_stays_within_memory`]
/// runs in a child: a passing property at size `usize::MAX / 4`; prints the
/// child's peak memory (Linux: `VmHWM` of `/proc/self/status`).
#[test]
fn absurd_size_child() {
    if std::env::var_os("PBT_RELIABILITY_CHILD").is_none() {
        return;
    }
    let prop = property! { forall t: Tree; check { let _ = &t; true } };
    let config = Config::default()
        .ignore_env()
        .seed(1)
        .regressions(Regressions::Off)
        .cases(20)
        .max_size(usize::MAX)
        .sizes(pbt::runners::Sizes::Fixed(usize::MAX / 4));
    let report = generational(&prop, config);
    println!("{report}");
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let peak_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0);
    println!("peak: {peak_kib} KiB");
}

#[test]
#[cfg(target_os = "linux")]
fn a_derived_recursive_type_at_an_absurd_size_stays_within_memory() {
    let (_, out) = rerun_with("adversarial::absurd_size_child", &[]);
    let peak: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("peak: "))
        .and_then(|v| v.trim_end_matches(" KiB").parse().ok())
        .unwrap_or_else(|| panic!("no peak printed:\n{out}"));
    assert!(peak < 256 * 1024, "peak {peak} KiB:\n{out}");
    // The elements stop at the draw budget; nothing reserves the count
    // drawn (at this size, a capacity overflow; a little lower, gigabytes).
    assert!(!out.contains("capacity overflow"), "{out}");
    assert!(out.contains("data too large"), "{out}");
}

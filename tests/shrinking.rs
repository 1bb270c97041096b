//! The library tests its shrinkers with its own properties: a shrunk value
//! still fails and is never larger; shrinking reaches the documented minima.

use pbt::generators as gen;
use pbt::prelude::*;
use pbt::runners::{generational, Regressions};
use pbt::Shrink;

fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

/// `forall xs: Vec<i32>; check sum < 1000` ends at exactly `[1000]`, from
/// every seed tried.
#[test]
fn vec_sum_shrinks_to_exactly_1000() {
    for seed in 0..40 {
        let prop = property! {
            forall xs: Vec<i32>;
            check xs.iter().map(|&x| i64::from(x)).sum::<i64>() < 1000
        };
        let report = generational(&prop, quiet().seed(seed));
        let failure = report.failure.as_ref().expect("the property is false");
        assert_eq!(
            failure.counterexample[0].value, "[1000]",
            "seed {seed}: {report}"
        );
    }
}

#[test]
fn integers_shrink_to_the_boundary() {
    for seed in 0..20 {
        let prop = property! {
            forall x: i64;
            check x < 12_345
        };
        let report = generational(&prop, quiet().seed(seed));
        let failure = report.failure.expect("the property is false");
        assert_eq!(failure.counterexample[0].value, "12345", "seed {seed}");
    }
}

#[test]
fn negative_integers_shrink_toward_zero() {
    let prop = property! {
        forall x: i32;
        check x > -77
    };
    let report = generational(&prop, quiet().seed(3));
    assert_eq!(report.failure.unwrap().counterexample[0].value, "-77");
}

/// Shrinking a variable with a custom generator goes through its choices, so
/// the result stays inside the generator's range even where the type-based
/// shrinker would leave it.
#[test]
fn custom_generators_shrink_within_their_range() {
    let prop = property! {
        forall x: i32, #[gen = gen::int(500..2000)];
        check x < 700
    };
    let report = generational(&prop, quiet().seed(1));
    assert_eq!(report.failure.unwrap().counterexample[0].value, "700");
}

/// Dependent variables are regenerated from their own choices when the
/// variable they read shrinks: the check never sees `x > n`.
#[test]
fn dependent_variables_stay_consistent_while_shrinking() {
    for seed in 0..20 {
        let prop = property! {
            forall n: u32, #[gen = gen::int(1..1000u32)];
            forall xs: Vec<u32>, #[gen = gen::vec(gen::int(0..=n), 1..10)];
            check {
                assert!(xs.iter().all(|&x| x <= n), "generator invariant broken: {xs:?} > {n}");
                xs.iter().sum::<u32>() < 300
            }
        };
        let report = generational(&prop, quiet().seed(seed));
        let failure = report.failure.expect("the property is false");
        assert_eq!(
            failure.reason, "the check returned false",
            "seed {seed}: {failure:?}"
        );
        let n: u32 = failure.counterexample[0].value.parse().unwrap();
        let xs: Vec<u32> = failure.counterexample[1]
            .value
            .trim_matches(|c| c == '[' || c == ']')
            .split(", ")
            .map(|s| s.parse().unwrap())
            .collect();
        assert!(xs.iter().all(|&x| x <= n));
        assert_eq!(xs.iter().sum::<u32>(), 300, "seed {seed}: {failure:?}");
    }
}

/// Shrink candidates of any failing vector, run through the property: the
/// shrinker's result still fails and is no larger than the original.
#[test]
fn shrunk_values_still_fail_and_are_never_larger() {
    let prop = property! {
        forall seed: u64;
        forall limit: i64, #[gen = gen::int(0..5000i64)];
        check {
            let inner = property! {
                forall xs: Vec<i16>;
                check xs.iter().map(|&x| i64::from(x).abs()).sum::<i64>() <= limit
            };
            let report = generational(&inner, quiet().seed(seed).cases(200));
            match report.failure {
                None => true,
                Some(f) => {
                    let parse = |s: &str| -> Vec<i64> {
                        s.trim_matches(|c| c == '[' || c == ']')
                            .split(", ")
                            .filter(|t| !t.is_empty())
                            .map(|t| t.parse().unwrap())
                            .collect()
                    };
                    let (shrunk, original) = (parse(&f.counterexample[0].value), parse(&f.original[0].value));
                    let total = |v: &[i64]| v.iter().map(|x| x.abs()).sum::<i64>();
                    total(&shrunk) > limit
                        && shrunk.len() <= original.len()
                        && total(&shrunk) <= total(&original)
                }
            }
        }
    };
    let report = generational(&prop, quiet().cases(60));
    assert!(report.passed(), "{report}");
}

#[test]
fn type_based_shrink_candidates_are_strictly_simpler() {
    let prop = property! {
        forall x: i64;
        forall xs: Vec<u8>;
        forall s: String;
        check {
            x.shrink().all(|c| c.unsigned_abs() < x.unsigned_abs() || (c.unsigned_abs() == x.unsigned_abs() && c > x))
                && xs.shrink().all(|c| c.len() < xs.len() || (c.len() == xs.len() && c < *xs))
                && s.shrink().all(|c| c.chars().count() <= s.chars().count() && c != *s)
        }
    };
    let report = generational(&prop, quiet().cases(300));
    assert!(report.passed(), "{report}");
}

/// Regression: redistribution between choices must not overflow on raw
/// 64-bit choices (`Arbitrary` integers draw those).
#[test]
fn choice_simplification_handles_the_largest_choices() {
    let n = pbt::shrink::choices::simplifications(&[u64::MAX, 0, u64::MAX - 1]).count();
    assert!(n > 0);
}

/// Regression: deleting trailing zeros is not offered as a deletion (a
/// replay pads them back), so minimising a large choice halves it rather
/// than stepping it down by one.
#[test]
fn integrated_shrinking_halves_large_choices() {
    let prop = property! {
        forall x: u64, #[gen = int(0..=u64::MAX / 2)];
        forall pad: Vec<u8>, #[gen = vec(just(0u8), 3..=3)];
        check x < 1_000_000_007 || pad.len() != 3
    };
    let report = pbt::runners::integrated(&prop, quiet().seed(2).max_shrinks(500));
    let failure = report.failure.expect("fails");
    assert_eq!(failure.counterexample[0].value, "1000000007");
    assert!(report.shrinks < 200, "{} steps", report.shrinks);
}

/// Regression: a panic outside the tests (here, in a shrinker) neither hangs
/// the runner nor loses the case: shrinking stops and the failure is
/// reported as found (tests/reliability.rs has the other faults).
#[test]
fn a_panicking_shrinker_does_not_hang_the_runner() {
    let prop = property! {
        forall x: u8, #[shrink = |_: &u8| -> Vec<u8> { panic!("the shrinker broke") }];
        check x < 10
    };
    let report = generational(&prop, quiet().seed(1));
    let failure = report.failure.clone().expect("reported");
    assert!(failure.counterexample[0].value.parse::<u8>().unwrap() >= 10);
    assert!(
        report.to_string().contains("the shrinker broke"),
        "{report}"
    );
}

/// Choice order is value order for `Arbitrary` integers: a value of
/// `u32::MAX` is never simpler than `1000`, so every shrinker ends at exactly
/// `[1000]` (a regression test: it used to end at `[4294967295]`, whose
/// choice was cheaper).
#[test]
fn unsigned_vec_shrinks_to_the_boundary_with_every_shrinker() {
    use pbt::runners::Shrinker;
    for shrinker in [Shrinker::External, Shrinker::Integrated, Shrinker::Both] {
        for seed in 0..20 {
            let prop = property! {
                forall xs: Vec<u32>;
                check xs.iter().all(|&x| x < 1000)
            };
            let report = generational(&prop, quiet().seed(seed).shrinker(shrinker));
            let failure = report.failure.as_ref().expect("the property is false");
            assert_eq!(
                failure.counterexample[0].value, "[1000]",
                "{shrinker:?}, seed {seed}: {report}"
            );
        }
    }
}

/// Smaller choices are never larger magnitudes: for every integer type, the
/// value of choices `[kind, c]` grows in magnitude with `c` within a kind,
/// and the edge kind comes last.
#[test]
fn arbitrary_integer_choices_are_ordered_by_magnitude() {
    use pbt::choices::Replay;
    fn value<T: pbt::Arbitrary>(kind: u64, c: u64) -> T {
        T::arbitrary(&mut Replay::new(&[kind, c]), 1000)
    }
    for kind in 0..7 {
        let mut last = 0u64;
        for c in 0..2000 {
            let mag = value::<i64>(kind, c).unsigned_abs();
            if kind < 4 && c > 2000 {
                continue;
            }
            assert!(mag >= last, "kind {kind}, choice {c}: {mag} after {last}");
            last = mag;
            // A small value's choice is at most `size`; a replay reads a
            // choice beyond its bound as `0`.
            let expected = if kind < 4 && c > 1000 { 0 } else { c };
            assert_eq!(u64::from(value::<u32>(kind, c)), expected);
        }
    }
    assert_eq!(value::<i64>(0, 0), 0);
    assert_eq!(value::<i64>(0, 1), 1);
    assert_eq!(value::<i64>(0, 2), -1);
    assert_eq!(value::<i8>(4, 255), i8::MIN);
    assert_eq!(value::<i8>(4, 254), -127);
    assert_eq!(value::<u8>(4, 255), u8::MAX);
    assert_eq!(value::<i128>(7, 3), i128::MIN);
    assert_eq!(value::<u64>(7, 2), u64::MAX);
}

/// A value shrinker that proposes its own input (`std::iter::repeat(x)`)
/// takes no step: it used to take `max_shrinks` (10 000) steps that changed
/// nothing, each a check, and report "stopped at a limit", with the 10 000
/// steps saved to the regressions file.
#[test]
fn a_shrinker_that_proposes_its_own_input_takes_no_step() {
    use pbt::runners::Shrinker;
    let prop = property! {
        forall x: u32, #[gen = gen::int(500..1000u32)], #[shrink = |x: &u32| std::iter::repeat(*x)];
        check x < 100
    };
    let stopped = |report: &Report| {
        let failure = report.failure.as_ref().expect("the property is false");
        failure.notes.iter().any(|n| n.contains("limit"))
    };
    let external = generational(&prop, quiet().seed(3).shrinker(Shrinker::External));
    let failure = external.failure.as_ref().expect("the property is false");
    assert_eq!(external.shrinks, 0, "{external}");
    assert_eq!(failure.counterexample, failure.original, "{external}");
    assert!(!stopped(&external), "{external}");
    // Both: the integrated shrinker reaches the range's bottom, the
    // shrinker's repeats add nothing.
    let both = generational(&prop, quiet().seed(3).shrinker(Shrinker::Both));
    let failure = both.failure.as_ref().expect("the property is false");
    assert_eq!(failure.counterexample[0].value, "500", "{both}");
    assert_eq!(both.shrinks, 1, "{both}");
    assert!(!stopped(&both), "{both}");
}

/// The external shrinker of a `#[gen]` variable takes only steps that change
/// the value: under a generator that maps a million choices to each value, a
/// step that only lowers the choice within the same value is no progress.
#[test]
fn gen_variables_shrink_only_by_steps_that_change_the_value() {
    use pbt::runners::Shrinker;
    for seed in 0..10 {
        let prop = property! {
            forall x: u64, #[gen = gen::map(gen::int(0..=u64::MAX), |c| c / 1_000_000)];
            check x < 7
        };
        let report = generational(&prop, quiet().seed(seed).shrinker(Shrinker::External));
        let failure = report.failure.as_ref().expect("the property is false");
        assert_eq!(
            failure.counterexample[0].value, "7",
            "seed {seed}: {report}"
        );
        // Measured on these seeds: 38 to 43 steps, against 46 to 53 when
        // steps that keep the value (choices 7_999_999 → 7_000_000) counted.
        assert!(
            report.shrinks <= 44,
            "seed {seed}: {} steps\n{report}",
            report.shrinks
        );
    }
}

/// The rank `char`'s shrinker orders by: `a b A 0 space`, then code points.
fn char_rank(c: char) -> u64 {
    match ['a', 'b', 'A', '0', ' '].iter().position(|&s| s == c) {
        Some(i) => i as u64,
        None => 5 + u64::from(u32::from(c)),
    }
}

/// Greedy descent with `Shrink`: the first candidate that still fails, until
/// none does; panics after `limit` steps (a cycle).
fn greedy<T: Shrink + Clone + std::fmt::Debug>(
    start: T,
    fails: impl Fn(&T) -> bool,
    limit: usize,
) -> (T, usize) {
    let mut best = start;
    for steps in 0..limit {
        let next = best.shrink().find(|c| fails(c));
        match next {
            Some(next) => best = next,
            None => return (best, steps),
        }
    }
    panic!("no minimum after {limit} steps, at {best:?}");
}

/// `char` shrinking terminates (no `'a'` → `'\0'` → `'a'` cycle): every
/// candidate ranks strictly lower, and greedy shrinking ends at `'a'`, or at
/// the simplest char that keeps a failure.
#[test]
fn char_shrinking_is_strict_and_ends_at_a_minimum() {
    let samples = [
        'a',
        'b',
        'A',
        '0',
        ' ',
        '\0',
        'z',
        '~',
        '\x7f',
        'é',
        '\u{715ab}',
        char::MAX,
    ];
    for c in samples {
        for cand in c.shrink() {
            assert!(char_rank(cand) < char_rank(c), "{c:?} proposes {cand:?}");
        }
        assert_eq!(greedy(c, |_| true, 64).0, 'a', "from {c:?}");
        if c > '~' {
            assert_eq!(greedy(c, |&x| x > '~', 200).0, '\x7f', "from {c:?}");
        }
    }
}

/// Strings shrink shorter, then to simpler chars, and greedy shrinking ends:
/// the junk `"\0\u{715ab}/9]"` shrinks to `""`, to `"aaa"` when three chars
/// are needed, and to `"\u{7f}"` when a char above `'~'` is.
#[test]
fn string_shrinking_terminates_at_readable_minima() {
    let junk = String::from("\0\u{715ab}/9]");
    assert_eq!(greedy(junk.clone(), |_| true, 10).0, "");
    assert_eq!(
        greedy(junk.clone(), |s| s.chars().count() >= 3, 200).0,
        "aaa"
    );
    assert_eq!(
        greedy(junk, |s| s.chars().any(|c| c > '~'), 200).0,
        "\u{7f}"
    );
    let prop = property! {
        forall s: String;
        check !s.chars().any(|c| c.is_ascii_digit())
    };
    for seed in 0..10 {
        let report = generational(&prop, quiet().seed(seed));
        let failure = report.failure.as_ref().expect("the property is false");
        assert_eq!(
            failure.counterexample[0].value, "\"0\"",
            "seed {seed}: {report}"
        );
    }
}

/// Integrated shrinking lowers equal values together even when they are far
/// apart (more than the pair pass reaches): two ends of a list that must stay
/// equal (and above the second element, so sorting cannot help) reach the
/// bottom of their range together.
#[test]
fn integrated_shrinking_lowers_far_apart_duplicates_together() {
    use pbt::runners::Shrinker;
    for seed in 0..10 {
        let prop = property! {
            forall xs: Vec<u32>, #[gen = gen::vec(gen::int(100..=130u32), 30..=30)];
            check !(xs[0] == xs[29] && xs[0] > xs[1])
        };
        let config = quiet().seed(seed).cases(10_000);
        let report = generational(&prop, config.shrinker(Shrinker::Integrated));
        let failure = report.failure.as_ref().expect("the property is false");
        let xs: Vec<u32> = failure.counterexample[0]
            .value
            .trim_matches(|c| c == '[' || c == ']')
            .split(", ")
            .map(|x| x.parse().unwrap())
            .collect();
        let mut minimum = vec![100; 30];
        (minimum[0], minimum[29]) = (101, 101);
        assert_eq!(xs, minimum, "seed {seed}: {report}");
    }
}

/// Every built-in runner, and a runner of the user's that ends in the public
/// failure path, hands back the shrunk counterexample as typed values, the
/// same as the printed bindings.
#[test]
fn every_runner_reports_the_typed_counterexample() {
    use pbt::runners::components::{
        report_failure, supervise, Discovery, DynProperty, Found, Plan, Tested,
    };
    use pbt::runners::{combinatorial, fuzz, generalized, integrated, parallel, targeted};
    use std::collections::HashSet;

    let prop = property! {
        forall x: u32;
        forall flag: bool;
        check x < 1000
    };
    let config = || quiet().seed(5).cases(2000);
    // A user's runner: the first failing case down the failure path.
    let mine = || {
        let plan = Plan::new(&config(), &DynProperty::structure(&prop));
        supervise(&prop, &plan, |watch| {
            let (case, fault) = (0..)
                .map(|n| plan.case(n))
                .find_map(|case| match prop.test(&case, watch) {
                    Tested::Failed(fault) => Some((case, fault)),
                    _ => None,
                })
                .expect("a failing case");
            let discovery = Discovery::fresh(Found::Case(case), fault);
            report_failure(&prop, &plan, watch, discovery, Report::empty("mine", &plan))
        })
    };
    let reports = [
        generational(&prop, config()),
        integrated(&prop, config()),
        parallel(&prop, config().workers(2)),
        combinatorial(&prop, config()),
        fuzz(&prop, config()),
        targeted(&prop, config()),
        generalized(
            &prop,
            config(),
            HashSet::new(),
            |seen: &mut HashSet<u8>, x: &u8| seen.insert(*x),
        ),
        mine(),
    ];
    for report in reports {
        let typed = report.counterexample::<(u32, bool)>();
        assert_eq!(typed, Some((1000, false)), "{}: {report}", report.runner);
        let failure = report.failure.as_ref().unwrap();
        let printed: Vec<&str> = failure
            .counterexample
            .iter()
            .map(|b| b.value.as_str())
            .collect();
        assert_eq!(printed, ["1000", "false"], "{}", report.runner);
        // The property's own input type, and wrong types read as `None`.
        let case = failure.inputs::<pbt::Case<(bool, (u32, ()))>>();
        assert_eq!(case.map(|c| c.env), Some((false, (1000, ()))));
        assert_eq!(report.counterexample::<(u32,)>(), None);
        assert_eq!(report.counterexample::<(bool, u32)>(), None);
    }
    // A passing run has none.
    let passing = property! { forall x: u8; check u16::from(x) < 256 };
    assert_eq!(
        generational(&passing, quiet()).counterexample::<(u8,)>(),
        None
    );
}

fn long_with_seven(xs: &[u8]) -> bool {
    xs.len() >= 3 && xs.contains(&7)
}

/// A long list fails when it has at least three elements and holds a 7:
/// shortening comes before zeroing, so the 7 is kept, and the list ends
/// with three elements, two of them `0`.
#[test]
fn long_lists_shrink_to_three_elements_keeping_the_seven() {
    use pbt::runners::Shrinker;
    for shrinker in [Shrinker::External, Shrinker::Integrated, Shrinker::Both] {
        for seed in 0..10 {
            let prop = property! {
                forall xs: Vec<u8>, #[gen = gen::vec(gen::int(0..=9u8), 0..=200)];
                forall ys: Vec<u8>;
                check !(long_with_seven(&xs) || long_with_seven(&ys))
            };
            let report = generational(&prop, quiet().seed(seed).shrinker(shrinker));
            let (xs, ys) = report
                .counterexample::<(Vec<u8>, Vec<u8>)>()
                .expect("fails");
            let failing = if ys.len() >= 3 && ys.contains(&7) {
                &ys
            } else {
                &xs
            };
            let mut sorted = failing.clone();
            sorted.sort();
            assert_eq!(sorted, [0, 0, 7], "{shrinker:?}, seed {seed}: {report}");
        }
    }
}

/// With `both`, the external shrinker goes on from the integrated result
/// only where it knows more: a value shrinker the choices do not subsume.
/// When every variable shrinks through its generator's choices, or is
/// type-based with a value shrinker those choices subsume (integers and
/// their `Vec`s, `Shrink::SUBSUMED_BY_CHOICES`), and the integrated shrinker
/// reached its fixed point, `both` is the integrated shrinker, candidate for
/// candidate; a `String` (whose shrinker also simplifies characters) still
/// gets the external phase.
#[test]
fn both_adds_the_external_phase_only_for_value_shrinkers() {
    use pbt::runners::Shrinker;
    let by_choices = property! {
        forall xs: Vec<i32>, #[gen = gen::vec(gen::any::<i32>(), 0..=300)];
        check xs.iter().all(|&x| x < 1 << 30)
    };
    let by_type = property! {
        forall xs: Vec<i32>;
        check xs.iter().all(|&x| x < 1 << 30)
    };
    let by_value = property! {
        forall s: String;
        check s.len() < 3
    };
    for seed in 0..10 {
        let choices = |s| generational(&by_choices, quiet().seed(seed).shrinker(s));
        let (integrated, both) = (choices(Shrinker::Integrated), choices(Shrinker::Both));
        assert_eq!(both.counterexample::<(Vec<i32>,)>(), Some((vec![1 << 30],)));
        assert_eq!(
            (both.shrink_attempts, both.shrinks),
            (integrated.shrink_attempts, integrated.shrinks),
            "seed {seed}: {both}"
        );
        let typed = |s| generational(&by_type, quiet().seed(seed).shrinker(s));
        let (integrated, both) = (typed(Shrinker::Integrated), typed(Shrinker::Both));
        assert_eq!(both.counterexample::<(Vec<i32>,)>(), Some((vec![1 << 30],)));
        assert_eq!(
            (both.shrink_attempts, both.shrinks),
            (integrated.shrink_attempts, integrated.shrinks),
            "seed {seed}: {both}"
        );
        let text = |s| generational(&by_value, quiet().seed(seed).shrinker(s));
        let (integrated, both) = (text(Shrinker::Integrated), text(Shrinker::Both));
        assert_eq!(
            both.counterexample::<(String,)>().map(|(s,)| s.len()),
            Some(3)
        );
        assert!(
            both.shrink_attempts > integrated.shrink_attempts,
            "seed {seed}: the external phase ran no candidate: {both}"
        );
    }
}

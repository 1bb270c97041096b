//! The external shrinker's cost and guarantees: a variable with a generator
//! bisects each choice (the choice carries its search from step to step),
//! only a candidate that fails is printed, a candidate that prints as the
//! input it came from is no step, and the saved shrink path replays through
//! every candidate the shrinker turned down.

use pbt::choices::shortlex_lt;
use pbt::prelude::*;
use pbt::runners::{generational, Regressions, Shrinker};
use pbt::shrink::choices::bisections;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

/// Greedy descent over [`bisections`] of one choice against "fails from
/// `t` up": where it ends and how many candidates it tried.
fn descend_to(start: u64, t: u64) -> (u64, u64) {
    let (mut v, mut tried) = (start, 0u64);
    'step: loop {
        for c in bisections(&[v]) {
            tried += 1;
            if c[0] >= t {
                v = c[0];
                continue 'step;
            }
        }
        return (v, tried);
    }
}

/// Bisection finds where a monotone failure starts, from any start at or
/// above it, in a number of candidates logarithmic in the start (halving
/// the distance from the top at every step takes about `log2(v)^2 / 2`),
/// and every candidate is smaller.
#[test]
fn bisection_reaches_the_boundary_in_logarithmic_candidates() {
    let prop = property! {
        forall t: u64, #[gen = int(0..=u64::MAX / 2)];
        forall above: u64, #[gen = int(0..=u64::MAX / 2)];
        check {
            let start = t + above;
            let (end, tried) = descend_to(start, t);
            let bits = u64::from(u64::BITS - start.leading_zeros());
            let smaller = bisections(&[start]).all(|c| shortlex_lt(&c, &[start]));
            smaller && end == t && tried <= 4 * bits + 4
        }
    };
    let report = generational(&prop, quiet().cases(2_000));
    assert!(report.passed(), "{report}");
    // The worst case of the old halving at 63 bits took over 1 000.
    assert_eq!(descend_to(u64::MAX / 2, 1 << 61).0, 1 << 61);
    assert!(descend_to(u64::MAX / 2, 1 << 61).1 <= 4 * 63 + 4);
}

/// A signed range interleaves its values over the choices (0, 1, -1, 2,
/// -2, …): the bisection keeps the lowest bit, so it searches among the
/// values of one sign, and the external shrinker reaches the exact
/// boundary on either side of zero.
#[test]
fn a_generated_integer_shrinks_to_the_boundary_on_either_side() {
    for seed in 0..5 {
        let prop = property! {
            forall x: i64, #[gen = int(i64::MIN..=i64::MAX)];
            check x < 123_456_789_012
        };
        let config = quiet().seed(seed).shrinker(Shrinker::External);
        let report = generational(&prop, config);
        let (x,): (i64,) = report.counterexample().expect("a failure");
        assert_eq!(x, 123_456_789_012, "seed {seed}\n{report}");
        assert!(
            report.shrink_attempts < 400,
            "seed {seed}: {} candidates\n{report}",
            report.shrink_attempts
        );
        let prop = property! {
            forall x: i64, #[gen = int(i64::MIN..=i64::MAX)];
            check x > -987_654_321
        };
        let report = generational(&prop, quiet().seed(seed).shrinker(Shrinker::External));
        let (x,): (i64,) = report.counterexample().expect("a failure");
        assert_eq!(x, -987_654_321, "seed {seed}\n{report}");
    }
}

/// Only the candidates that fail are printed: a printer runs about twice
/// per step (the candidate, compared with the input it would replace, and
/// the input as first found), not once per candidate.
#[test]
fn only_failing_candidates_are_printed() {
    static PRINTS: AtomicUsize = AtomicUsize::new(0);
    fn counted(xs: &Vec<u32>) -> String {
        PRINTS.fetch_add(1, Relaxed);
        format!("{xs:?}")
    }
    for shrinker in [Shrinker::External, Shrinker::Both] {
        let by_type = property! {
            forall xs: Vec<u32>, #[print = |xs: &Vec<u32>| counted(xs)];
            check xs.iter().all(|&x| x < 1_000_000)
        };
        let by_gen = property! {
            forall xs: Vec<u32>,
                #[gen = vec(int(0..=u32::MAX), 0..=50)],
                #[print = |xs: &Vec<u32>| counted(xs)];
            check xs.iter().all(|&x| x < 1_000_000)
        };
        for report in [
            {
                PRINTS.store(0, Relaxed);
                generational(&by_type, quiet().seed(1).shrinker(shrinker))
            },
            {
                PRINTS.store(0, Relaxed);
                generational(&by_gen, quiet().seed(1).shrinker(shrinker))
            },
        ] {
            let prints = PRINTS.load(Relaxed) as u64;
            let failure = report.failure.as_ref().expect("fails");
            assert_eq!(failure.counterexample[0].value, "[1000000]", "{report}");
            assert!(
                prints <= 2 * report.shrinks + 10,
                "{shrinker:?}: {prints} prints for {} steps, {} candidates\n{report}",
                report.shrinks,
                report.shrink_attempts
            );
        }
    }
}

/// A shrinker that proposes its own input between candidates that pass,
/// forever, ends after `max_shrinks` of those repeats with no step (they
/// are counted whatever passes between them), not at the time limit.
#[test]
fn repeats_of_the_input_between_passing_candidates_end_shrinking() {
    let prop = property! {
        forall x: u32,
            #[gen = int(500..1000u32)],
            #[shrink = |x: &u32| { let x = *x; (0u32..).map(move |i| if i % 2 == 0 { x } else { 0 }) }];
        check x < 100
    };
    let config = quiet()
        .seed(2)
        .shrinker(Shrinker::External)
        .max_shrinks(500)
        .max_shrink_time(std::time::Duration::from_secs(20));
    let report = generational(&prop, config);
    let failure = report.failure.as_ref().expect("fails");
    assert_eq!(report.shrinks, 0, "{report}");
    assert_eq!(failure.counterexample, failure.original, "{report}");
    assert!(
        !failure.notes.iter().any(|n| n.contains("limit")),
        "ended by the repeats, not a limit: {report}"
    );
    assert!(report.shrink_attempts <= 1_002, "{report}");
}

/// The saved shrink path of a variable with a generator replays to the
/// shrunk input, although the shrinker turned down many candidates that
/// print the same (a million choices per value) or pass.
#[test]
fn the_shrink_path_of_a_generated_variable_replays() {
    let prop = property! {
        forall x: u64, #[gen = map(int(0..=u64::MAX), |c| c / 1_000_000)];
        forall xs: Vec<i32>, #[gen = vec(any::<i32>(), 0..=40)];
        check x < 7 || xs.iter().all(|&v| v < 1 << 20)
    };
    for seed in 0..4 {
        let dir =
            std::env::temp_dir().join(format!("pbt-external-path-{}-{seed}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("saved.pbt-regressions");
        let saving = || {
            Config::default()
                .ignore_env()
                .regressions(Regressions::File(file.clone()))
                .shrinker(Shrinker::External)
        };
        let report = generational(&prop, saving().seed(seed));
        let failure = report.failure.clone().expect("fails");
        assert_eq!(failure.counterexample[0].value, "7", "{report}");
        assert_eq!(failure.counterexample[1].value, "[1048576]", "{report}");
        let text = std::fs::read_to_string(&file).unwrap();
        let last = text.lines().last().expect("a saved line").to_string();
        assert!(last.starts_with("cs "), "a shrink path: {text}");
        // That line alone, replayed without shrinking.
        std::fs::write(&file, format!("{last}\n")).unwrap();
        let again = generational(&prop, saving().cases(0).max_shrinks(0));
        let replayed = again.failure.expect("the shrunk case fails again");
        assert_eq!(
            replayed.counterexample, failure.counterexample,
            "seed {seed}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A type-based integer bisects its magnitude the same way: the exact
/// boundary, on either side of zero, in a number of candidates
/// logarithmic in the value (halving from the top at every step took
/// about 300 on a failing `Vec<i32>` of a hundred elements).
#[test]
fn a_type_based_integer_bisects_to_the_boundary() {
    for seed in 0..5 {
        let prop = property! { forall x: u64; check x < 123_456_789_012 };
        let report = generational(&prop, quiet().seed(seed).shrinker(Shrinker::External));
        let (x,): (u64,) = report.counterexample().expect("a failure");
        assert_eq!(x, 123_456_789_012, "seed {seed}\n{report}");
        assert!(report.shrink_attempts < 200, "seed {seed}\n{report}");
        let prop = property! { forall x: i64; check x > -987_654_321 };
        let report = generational(&prop, quiet().seed(seed).shrinker(Shrinker::External));
        let (x,): (i64,) = report.counterexample().expect("a failure");
        assert_eq!(x, -987_654_321, "seed {seed}\n{report}");
        let prop = property! { forall xs: Vec<i32>; check xs.iter().all(|&x| x < 1 << 30) };
        let config = quiet()
            .seed(seed)
            .shrinker(Shrinker::External)
            .sizes(pbt::runners::Sizes::Fixed(1000))
            .max_size(1000);
        let report = generational(&prop, config);
        let (xs,): (Vec<i32>,) = report.counterexample().expect("a failure");
        assert_eq!(xs, [1 << 30], "seed {seed}\n{report}");
        assert!(report.shrink_attempts < 150, "seed {seed}\n{report}");
    }
}

/// No two candidates of a variable with a generator use the same choices:
/// the passes that reach the same choices (the empty list, by deleting
/// every element, by zeroing the length, by deleting every choice) make one
/// candidate. Each is smaller than the case shrunk.
#[test]
fn a_generated_variable_proposes_each_choice_sequence_once() {
    let prop = property! {
        forall xs: Vec<i32>, #[gen = vec(any::<i32>(), 0..=6)];
        forall n: u8, #[gen = int(0..=200u8)];
        check xs.len() < 100 || n > 0
    };
    let mut rng = pbt::Rng::from_seed(5);
    for _ in 0..50 {
        let mut recorder = pbt::choices::Recorder::new(&mut rng);
        let case = Property::generate(&prop, &mut recorder, 6).expect("generates");
        let mut seen = std::collections::HashSet::new();
        for candidate in Property::shrink(&prop, &case) {
            let own: Vec<Option<Vec<u64>>> = candidate.choices.clone();
            assert!(seen.insert(own.clone()), "proposed twice: {own:?}");
            let (old, new) = (&case.choices, &candidate.choices);
            let simpler = (0..2).any(|i| {
                let at =
                    |c: &Vec<Option<Vec<u64>>>| c.get(i).cloned().flatten().unwrap_or_default();
                at(new) != at(old) && shortlex_lt(&at(new), &at(old))
            });
            assert!(simpler, "{new:?} is not simpler than {old:?}");
        }
    }
}

/// With the external shrinker alone the input as found is regenerated on
/// the generators' fast path for the report (no choices recorded): it is
/// the input the other shrinkers report as found, value for value.
#[test]
fn the_input_as_found_is_the_same_whichever_shrinker() {
    let by_gen = property! {
        forall xs: Vec<i32>, #[gen = vec(any::<i32>(), 0..=300)];
        forall s: String;
        check xs.iter().all(|&x| x < 1 << 28) || s.len() > 1000
    };
    let by_type = property! {
        forall xs: Vec<(u8, i64)>;
        check xs.iter().all(|&(a, b)| a < 200 || b < 0)
    };
    for seed in 0..5 {
        let run = |shrinker| {
            let external = generational(&by_gen, quiet().seed(seed).shrinker(shrinker));
            let typed = generational(&by_type, quiet().seed(seed).shrinker(shrinker));
            [external, typed].map(|r| {
                let failure = r.failure.expect("fails");
                (failure.original, r.replayed)
            })
        };
        assert_eq!(run(Shrinker::External), run(Shrinker::Both), "seed {seed}");
    }
}

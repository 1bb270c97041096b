//! The integrated shrinker's passes, through the runner: each does what its
//! name says on a property only it can shrink, results still fail and are
//! smaller, the same seed gives the same counterexample, long inputs shrink
//! in few replays, and a generator that misbehaves while replaying is
//! still a clear report.

use pbt::choices::{shortlex_lt, Recorder, Replay};
use pbt::generators::{self as gen, Gen};
use pbt::prelude::*;
use pbt::runners::{generational, Regressions, Report, Shrinker};
use pbt::shrink::choices::{Attempt, ChoiceShrinker, ReplayMode, Trial};
use std::fmt;
use std::time::Instant;

fn integrated() -> Config {
    Config::default()
        .regressions(Regressions::Off)
        .ignore_env()
        .shrinker(Shrinker::Integrated)
}

/// The shrunk counterexample's first variable, printed.
fn shown(report: &Report) -> String {
    let failure = report.failure.as_ref().expect("the property is false");
    failure.counterexample[0].value.clone()
}

// ------------------------------------------------------- pass_to_descendant

#[derive(Clone, PartialEq, Eq)]
enum Expr {
    Lit(i64),
    Add(Box<Expr>, Box<Expr>),
    Div(Box<Expr>, Box<Expr>),
}

impl fmt::Debug for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Lit(n) => write!(f, "{n}"),
            Expr::Add(l, r) => write!(f, "('+', {l:?}, {r:?})"),
            Expr::Div(l, r) => write!(f, "('/', {l:?}, {r:?})"),
        }
    }
}

fn add((l, r): (Expr, Expr)) -> Expr {
    Expr::Add(Box::new(l), Box::new(r))
}

fn div((l, r): (Expr, Expr)) -> Expr {
    Expr::Div(Box::new(l), Box::new(r))
}

impl Expr {
    fn no_div_by_literal_zero(&self) -> bool {
        match self {
            Expr::Lit(_) => true,
            Expr::Div(_, r) if **r == Expr::Lit(0) => false,
            Expr::Add(l, r) | Expr::Div(l, r) => {
                l.no_div_by_literal_zero() && r.no_div_by_literal_zero()
            }
        }
    }

    fn evaluate(&self) -> Option<i64> {
        match self {
            Expr::Lit(n) => Some(*n),
            Expr::Add(l, r) => Some(l.evaluate()?.wrapping_add(r.evaluate()?)),
            Expr::Div(l, r) => {
                let (l, r) = (l.evaluate()?, r.evaluate()?);
                (r != 0).then(|| l.wrapping_div(r))
            }
        }
    }
}

/// The shrinking challenge's calculator: integrated shrinking used to stop
/// at `('+', ('/', 0, ('+', 0, 0)), 0)`; replacing the outer `+` by its
/// child (a recursive layer by a nested one) removes the wrapper, on every
/// seed.
#[test]
fn pass_to_descendant_removes_the_calculators_plus_zero_wrapper() {
    for seed in 0..10 {
        let prop = property! {
            forall e: Expr,
                #[gen = recursive::<Expr>(|rec| frequency[
                    3 => map(any::<i64>(), Expr::Lit),
                    size => map((rec, rec), add),
                    size => map((rec, rec), div)
                ])];
            implies e.no_div_by_literal_zero();
            check e.evaluate().is_some()
        };
        let report = generational(&prop, integrated().seed(seed));
        let e = shown(&report);
        assert!(
            e == "('/', 0, ('+', 0, 0))" || e == "('/', 0, ('/', 0, 1))",
            "seed {seed}: {report}"
        );
    }
}

/// The same with runtime combinators (no staging): `recursive` and its
/// handle mark the same blocks.
#[test]
fn pass_to_descendant_works_on_runtime_recursive_generators() {
    let expr = || {
        gen::recursive(|rec| {
            gen::frequency(vec![
                (
                    gen::Weight::Fixed(3),
                    gen::any::<i64>().map(Expr::Lit).boxed(),
                ),
                (
                    gen::Weight::Size,
                    (rec.clone(), rec.clone()).map(add).boxed(),
                ),
                (gen::Weight::Size, (rec.clone(), rec).map(div).boxed()),
            ])
        })
    };
    for seed in 0..5 {
        let prop = property! {
            forall e: Expr, #[gen = expr()];
            implies e.no_div_by_literal_zero();
            check e.evaluate().is_some()
        };
        let report = generational(&prop, integrated().seed(seed));
        let e = shown(&report);
        assert!(
            e == "('/', 0, ('+', 0, 0))" || e == "('/', 0, ('/', 0, 1))",
            "seed {seed}: {report}"
        );
    }
}

// ---------------------------------------------------------- delete_blocks

/// The choices of a `len`-element `Vec<i32>` (seed `seed`) as
/// `vec(any::<i32>(), 0..=len)` draws them: the length, then the elements.
fn long_list(seed: u64, len: usize) -> Vec<u64> {
    let mut rec = Recorder::new(pbt::Rng::from_seed(seed));
    gen::vec(gen::any::<i32>(), len..=len)
        .generate(&mut rec, 100)
        .unwrap();
    let mut choices = rec.into_choices();
    choices[0] = len as u64;
    choices
}

/// Shrink `start` through `g` while `fails` holds: the shrinker, run.
fn shrink_with<'g, G: Gen, F: Fn(&G::Value) -> bool + 'g>(
    g: &'g G,
    start: Vec<u64>,
    fails: F,
) -> ChoiceShrinker<impl FnMut(Attempt<'_>) -> Trial + 'g> {
    let test = move |a: Attempt<'_>| {
        let mut replay = match a.mode {
            ReplayMode::Reencode => Replay::saturating(a.candidate),
            _ => Replay::new(a.candidate),
        };
        match g.generate(&mut replay, a.size) {
            Ok(v) => {
                let replayed = replay.into_replayed();
                if fails(&v) && a.progress(&replayed.choices) {
                    Trial::Shrunk(replayed)
                } else {
                    Trial::NotAStep
                }
            }
            Err(_) => Trial::NotAStep,
        }
    };
    let mut replay = Replay::new(&start);
    g.generate(&mut replay, 100).unwrap();
    let mut shrinker = ChoiceShrinker::new(replay.into_replayed(), 100, test);
    shrinker.run();
    shrinker
}

/// Deleting whole elements (with the length) leaves the one element that
/// fails: from 1 000 elements in a few hundred replays, not the
/// millions of a quadratic shrinker (and the count grows about linearly).
#[test]
fn delete_blocks_leaves_the_one_failing_element_of_a_long_list() {
    let g = gen::vec(gen::any::<i32>(), 0..=10_000);
    let fails = |xs: &Vec<i32>| xs.iter().any(|&x| x >= 1_000_000);
    for seed in 0..3 {
        let mut attempts = Vec::new();
        for len in [100, 1000] {
            let began = Instant::now();
            let shrinker = shrink_with(&g, long_list(seed, len), fails);
            let mut replay = Replay::new(shrinker.choices());
            assert_eq!(
                g.generate(&mut replay, 100),
                Ok(vec![1_000_000]),
                "seed {seed}"
            );
            println!(
                "seed {seed}: {len} elements shrunk in {:?}, {} replays, {} steps",
                began.elapsed(),
                shrinker.attempts(),
                shrinker.steps()
            );
            attempts.push(shrinker.attempts());
        }
        assert!(attempts[1] < 5 * attempts[0].max(200), "{attempts:?}");
    }
}

/// The same through the runner, from lists of up to 1 000 elements (it
/// prints the time; `cargo test --release` for the figure).
#[test]
fn a_long_list_shrinks_through_the_runner() {
    for seed in 0..3 {
        let prop = property! {
            forall xs: Vec<i32>, #[gen = vec(any::<i32>(), 900..=1000)];
            check xs.len() < 900 || xs.iter().all(|&x| x < 1_000_000)
        };
        let began = Instant::now();
        let report = generational(&prop, integrated().seed(seed));
        let failure = report.failure.as_ref().expect("fails");
        let first = failure.original[0].value.matches(',').count() + 1;
        assert!(
            shown(&report).starts_with("[0, 0, 0") && shown(&report).ends_with(", 1000000]"),
            "seed {seed}: {report}"
        );
        println!(
            "seed {seed}: {first} elements shrunk through the runner in {:?}, {} replays, {} steps",
            began.elapsed(),
            report.shrink_attempts,
            report.shrinks
        );
    }
}

/// A 1 000-element list that must stay 1 000 long: the elements zero
/// together in runs, so it takes a few hundred replays too.
#[test]
fn zero_blocks_zeroes_a_long_list_in_runs() {
    let g = gen::vec(gen::any::<i32>(), 0..=10_000);
    let fails = |xs: &Vec<i32>| xs.len() >= 1000;
    let shrinker = shrink_with(&g, long_list(7, 1000), fails);
    let mut replay = Replay::new(shrinker.choices());
    assert_eq!(g.generate(&mut replay, 100), Ok(vec![0; 1000]));
    assert!(shrinker.attempts() < 500, "{}", shrinker.attempts());
}

/// Every step is smaller in shortlex order and still fails; shrinking
/// ends, and ends where it says it does.
#[test]
fn every_step_fails_and_is_shortlex_smaller() {
    let prop = property! {
        forall seed: u64;
        forall bound: i64, #[gen = int(0..=1000i64)];
        check shrinks_soundly(seed, bound)
    };
    let config = Config::default()
        .cases(100)
        .regressions(Regressions::Off)
        .ignore_env();
    let report = generational(&prop, config);
    assert!(report.passed(), "{report}");
}

/// Lists of lists from `seed` whose sum is above `bound` shrink to one
/// that still is, with choices no larger.
fn shrinks_soundly(seed: u64, bound: i64) -> Result<(), String> {
    let g = gen::vec(gen::vec(gen::any::<i16>(), 0..=4), 0..=8);
    let sum = |v: &Vec<Vec<i16>>| v.iter().flatten().map(|&x| i64::from(x)).sum::<i64>();
    let mut rec = Recorder::new(pbt::Rng::from_seed(seed));
    if sum(&g.generate(&mut rec, 20).unwrap()) <= bound {
        return Ok(());
    }
    let start = rec.into_choices();
    let shrinker = shrink_with(&g, start.clone(), |v| sum(v) > bound);
    let end = g
        .generate(&mut Replay::new(shrinker.choices()), 100)
        .unwrap();
    if sum(&end) <= bound || shortlex_lt(&start, shrinker.choices()) {
        return Err(format!("ended at {end:?} from {start:?}"));
    }
    Ok(())
}

/// Sorting sibling blocks of different lengths: an `Arbitrary` integer
/// drawn as an edge value takes two choices, a small one two as well, but
/// a list of lists puts its short list first.
#[test]
fn reorder_blocks_puts_the_smaller_list_first() {
    for seed in 0..5 {
        let prop = property! {
            forall xss: Vec<Vec<u8>>, #[gen = vec(vec(int(0..=9u8), 0..=5), 2..=2)];
            check !(xss[0].len() + xss[1].len() >= 3 && xss.iter().any(|xs| xs.is_empty()))
        };
        let report = generational(&prop, integrated().seed(seed).cases(10_000));
        assert_eq!(shown(&report), "[[], [0, 0, 0]]", "seed {seed}: {report}");
    }
}

// ------------------------------------------------------- minimize_choices

/// Binary search: a threshold far inside a huge range is reached exactly.
#[test]
fn minimize_choices_reaches_a_threshold_by_binary_search() {
    for seed in 0..10 {
        let prop = property! {
            forall x: u64, #[gen = int(0..=u64::MAX)];
            check x < 123_456_789_012
        };
        let report = generational(&prop, integrated().seed(seed));
        assert_eq!(shown(&report), "123456789012", "seed {seed}: {report}");
        assert!(report.shrink_attempts < 400, "{}", report.shrink_attempts);
    }
}

// ------------------------------------------- shrink_duplicates, lower_pairs

/// Two values that must stay equal shrink together.
#[test]
fn shrink_duplicates_lowers_equal_values_together() {
    for seed in 0..10 {
        let prop = property! {
            forall p: (u32, u32), #[gen = (int(0..=1000u32), int(0..=1000u32))];
            check !(p.0 == p.1 && p.0 >= 10)
        };
        let report = generational(&prop, integrated().seed(seed).cases(100_000));
        assert_eq!(shown(&report), "(10, 10)", "seed {seed}: {report}");
    }
}

// ------------------------------------------------------------ determinism

/// The same seed gives the same counterexample, and the same count of
/// replays.
#[test]
fn the_same_seed_shrinks_to_the_same_counterexample() {
    let prop = property! {
        forall xs: Vec<i64>;
        check xs.iter().map(|&x| x.unsigned_abs()).sum::<u64>() < 5000 || xs.len() < 3
    };
    for seed in 0..5 {
        let a = generational(&prop, integrated().seed(seed));
        let b = generational(&prop, integrated().seed(seed));
        assert_eq!(shown(&a), shown(&b));
        assert_eq!(a.shrink_attempts, b.shrink_attempts);
    }
}

// ------------------------------------------------------------- adversarial

/// A generator that panics on some replayed choices: those candidates are
/// rejected, shrinking still ends at a failing value and the report is
/// the property's failure.
#[test]
fn a_generator_that_panics_while_replaying_still_gives_a_clear_report() {
    let picky = gen::int(0..=1000u32).map(|x| {
        assert!(x == 0 || x > 7, "picky generator: {x} is between 1 and 7");
        x
    });
    let prop = property! {
        forall x: u32, #[gen = picky];
        check x < 500
    };
    let report = generational(&prop, integrated().seed(3));
    let failure = report.failure.as_ref().expect("the property is false");
    assert_eq!(shown(&report), "500", "{report}");
    assert!(!failure.reason.contains("picky"), "{report}");
}

/// A generator that loops forever on some replayed choices: the watchdog
/// or the replay limit stops it, and the failure is still reported.
#[test]
fn a_generator_that_loops_while_replaying_still_gives_a_clear_report() {
    #[derive(Clone)]
    struct Spin;
    impl Gen for Spin {
        type Value = Vec<u64>;
        fn generate<S: pbt::Source + ?Sized>(
            &self,
            src: &mut S,
            _size: usize,
        ) -> pbt::Generated<Vec<u64>> {
            let n = src.draw(20);
            let mut out = Vec::new();
            // Retries until a non-zero draw: the replay's padding zeros
            // would spin forever without its read limit.
            while (out.len() as u64) < n {
                let x = src.draw(100);
                if x != 0 {
                    out.push(x);
                }
            }
            Ok(out)
        }
    }
    let prop = property! {
        forall xs: Vec<u64>, #[gen = Spin];
        check xs.len() < 3
    };
    let report = generational(&prop, integrated().seed(1));
    assert_eq!(shown(&report), "[1, 1, 1]", "{report}");
}

// ------------------------------------------------------------ sized lengths

/// The shrinking challenge's nestedlists with lengths bounded by the size
/// (`0..=size`): the failure is one list of 11 zeros, on every seed.
#[test]
fn nestedlists_with_sized_lengths_shrink_to_one_list() {
    for seed in 0..10 {
        let prop = property! {
            forall ls: Vec<Vec<i32>>, #[gen = vec(vec(int(0..=0i32), 0..=size), 0..=size)];
            check ls.iter().map(Vec::len).sum::<usize>() <= 10
        };
        let report = generational(&prop, integrated().seed(seed));
        assert_eq!(
            shown(&report),
            "[[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]",
            "seed {seed}: {report}"
        );
    }
}

// ------------------------------------------------------------- widen_size

/// A wider size that grows no bound of the choices (a range fixed by the
/// generator) is no step, and is not printed to see that it keeps the
/// value: the shrunk counterexample is printed when shrinking reaches it
/// (once more for smaller choices of the same value) and in the report,
/// not again by `widen_size` in each round to the fixed point.
#[test]
fn a_wider_size_that_grows_no_bound_is_not_printed() {
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    static SHRUNK_PRINTED: AtomicUsize = AtomicUsize::new(0);
    let prop = property! {
        forall x: u32, #[gen = gen::int(0..=1000u32)], #[print = |x: &u32| {
            if *x == 500 {
                SHRUNK_PRINTED.fetch_add(1, Relaxed);
            }
            x.to_string()
        }];
        check x < 500
    };
    for seed in 0..5 {
        SHRUNK_PRINTED.store(0, Relaxed);
        let report = generational(&prop, integrated().seed(seed));
        assert_eq!(shown(&report), "500", "{report}");
        let printed = SHRUNK_PRINTED.load(Relaxed);
        assert!(
            printed <= 3,
            "seed {seed}: 500 printed {printed} times\n{report}"
        );
    }
}

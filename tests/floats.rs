//! Float generation reaches every class of value at its documented rate:
//! `±0`, `±inf`, NaN, the extremes (`MIN`, `MAX`, `MIN_POSITIVE`,
//! `EPSILON`), subnormals and small integers; `float(range)` reaches the
//! range's ends and `0`. Floats shrink to readable minima with every
//! shrinker: toward `0` (or the range's value nearest it), then integers,
//! then fewer binary digits.

use pbt::generators::{self as gen, Gen};
use pbt::{Arbitrary, Rng};

macro_rules! reaches_every_class {
    ($name:ident, $t:ident) => {
        #[test]
        fn $name() {
            let all: [(&str, fn($t) -> bool); 11] = [
                ("+0", |x| x == 0.0 && x.is_sign_positive()),
                ("-0", |x| x == 0.0 && x.is_sign_negative()),
                ("subnormal", |x| x.is_subnormal()),
                ("small non-zero integer", |x| {
                    x != 0.0 && x.fract() == 0.0 && x.abs() <= 100.0
                }),
                ("fraction in ±(size + 1)", |x| {
                    x.fract() != 0.0 && x.abs() <= 101.0
                }),
                ("+inf", |x| x == $t::INFINITY),
                ("-inf", |x| x == $t::NEG_INFINITY),
                ("NaN", |x| x.is_nan()),
                ("MAX / MIN", |x| x == $t::MAX || x == $t::MIN),
                ("MIN_POSITIVE", |x| x == $t::MIN_POSITIVE),
                ("EPSILON", |x| x == $t::EPSILON),
            ];
            let mut counts = vec![0u32; all.len()];
            let mut rng = Rng::from_seed(2024);
            const DRAWS: u32 = 10_000;
            for i in 0..DRAWS {
                let x = $t::arbitrary(&mut rng, (i % 101) as usize);
                for (k, (_, is)) in all.iter().enumerate() {
                    counts[k] += u32::from(is(x));
                }
            }
            let report: Vec<String> = all
                .iter()
                .zip(&counts)
                .map(|((name, _), n)| format!("{name}: {n}"))
                .collect();
            // The documented rates: each edge value 1/32 (312 expected),
            // subnormals 2/32 plus the smallest-subnormal edge (937), small
            // integers 4/32 (1250, plus ±1 from the edges and zero
            // excluded); the lower bounds are far below.
            for ((name, _), &n) in all.iter().zip(&counts) {
                assert!(n >= 150, "{name} appeared {n} times in {DRAWS}: {report:?}");
            }
            let subnormals = counts[2];
            assert!((800..1100).contains(&subnormals), "{report:?}");
        }
    };
}

reaches_every_class!(f64_reaches_every_class, f64);
reaches_every_class!(f32_reaches_every_class, f32);

/// `float(range)` gives `0` when the range holds it, and both ends.
#[test]
fn float_ranges_reach_their_ends_and_zero() {
    let mut rng = Rng::from_seed(5);
    let g = gen::float(-2.5..=7.0f64);
    let xs: Vec<f64> = (0..1000)
        .map(|_| g.generate(&mut rng, 10).unwrap())
        .collect();
    for want in [-2.5, 7.0, 0.0] {
        assert!(xs.contains(&want), "{want} never drawn");
    }
    let positive = gen::float(3.0..4.0f32);
    let ys: Vec<f32> = (0..1000)
        .map(|_| positive.generate(&mut rng, 10).unwrap())
        .collect();
    assert!(ys.contains(&3.0));
    assert!(ys.iter().all(|y| (3.0..4.0).contains(y)));
}

/// Zero choices still give `0.0`.
#[test]
fn the_simplest_float_is_zero() {
    let x = f64::arbitrary(&mut pbt::choices::Replay::new(&[]), 10);
    assert!(x == 0.0 && x.is_sign_positive());
}

// ---------------------------------------------------------------------------
// Shrinking to readable minima
// ---------------------------------------------------------------------------

use pbt::prelude::*;
use pbt::runners::{generational, Regressions, Shrinker};

const SHRINKERS: [Shrinker; 3] = [Shrinker::External, Shrinker::Integrated, Shrinker::Both];

fn config(shrinker: Shrinker, seed: u64) -> Config {
    Config::default()
        .regressions(Regressions::Off)
        .ignore_env()
        .seed(seed)
        .shrinker(shrinker)
}

/// Run `prop` from seeds 0..10 with every shrinker; every shrunk `x` must
/// be `want`.
fn shrinks_to<P: Property, T: Variables + PartialEq + std::fmt::Debug>(prop: &P, want: T) {
    shrinks_to_or_keeps_edges(prop, want, |_| false)
}

/// The edge values a type-based float draws as kinds of their own.
fn edge64(&(x,): &(f64,)) -> bool {
    !x.is_finite()
        || x.abs() == f64::MAX
        || x == f64::MIN_POSITIVE
        || x == f64::EPSILON
        || x.is_subnormal()
}

fn edge32(&(x,): &(f32,)) -> bool {
    edge64(&(f64::from(x),))
        || x.abs() == f32::MAX
        || x == f32::MIN_POSITIVE
        || x == f32::EPSILON
        || x.is_subnormal()
}

/// [`shrinks_to`], except that the integrated shrinker alone may end at an
/// edge value (`MAX`, the smallest subnormal, …; `edge` says which) when it
/// found one first: a type-based float draws an edge value as a kind of its
/// own, with no other draws, and lowering the kind to a number kind draws
/// that number from `0`s. The external shrinker (and so `Both`) goes on to
/// the minimum.
fn shrinks_to_or_keeps_edges<P: Property, T: Variables + PartialEq + std::fmt::Debug>(
    prop: &P,
    want: T,
    edge: fn(&T) -> bool,
) {
    for shrinker in SHRINKERS {
        for seed in 0..10 {
            let report = generational(prop, config(shrinker, seed));
            let shrunk = report.counterexample::<T>().expect("the property is false");
            if !(shrinker == Shrinker::Integrated && edge(&shrunk)) {
                assert_eq!(
                    report.counterexample::<T>().as_ref(),
                    Some(&want),
                    "{shrinker:?}, seed {seed}: {report}"
                );
            }
        }
    }
}
use pbt::runners::Variables;

/// Type-based: toward zero, then integers: the least integer past 1.5.
#[test]
fn f64_past_one_and_a_half_shrinks_to_two() {
    shrinks_to_or_keeps_edges(
        &property! { forall x: f64; check x <= 1.5 || x.is_nan() },
        (2.0f64,),
        edge64,
    );
}

#[test]
fn f32_past_one_and_a_half_shrinks_to_two() {
    shrinks_to_or_keeps_edges(
        &property! { forall x: f32; check x <= 1.5 || x.is_nan() },
        (2.0f32,),
        edge32,
    );
}

/// Type-based: a failure only small fractions have ends at the fraction
/// with the fewest digits, `0.25`, not at a subnormal like `1.7e-300`. The
/// integrated shrinker alone may stop at another short binary fraction
/// (`0.1875`, four digits): the failing fractions are not contiguous in
/// choice order, so its binary search can miss `0.25`; `Both`, the
/// default, goes on to it.
#[test]
fn small_fractions_shrink_to_the_shortest() {
    shrinks_to_or_keeps_edges(
        &property! { forall x: f64; check !(x > 0.0 && x <= 0.3) },
        (0.25f64,),
        |&(x,): &(f64,)| edge64(&(x,)) || (x * 16.0).fract() == 0.0,
    );
}

/// A range generator: toward zero (the middle of the range), then
/// integers: `1001.0`, on either side.
#[test]
fn float_range_shrinks_to_the_integer_past_the_boundary() {
    shrinks_to(
        &property! {
            forall x: f64, #[gen = gen::float(-1e6..1e6)];
            check x.abs() <= 1e3
        },
        (1001.0f64,),
    );
}

/// A range generator never shrinks toward its bottom for its own sake: a
/// failure below `-500` ends at `-501.0`, not at `-1e6`.
#[test]
fn float_range_does_not_shrink_to_its_bottom() {
    shrinks_to(
        &property! {
            forall x: f64, #[gen = gen::float(-1e6..1e6)];
            check x >= -500.0
        },
        (-501.0f64,),
    );
}

/// A range without zero shrinks toward the end nearest zero, then to
/// fewer digits: `float(-3.0..-2.0)` failing below `-2.3` ends at `-2.5`.
#[test]
fn float_range_without_zero_shrinks_toward_its_nearest_end() {
    shrinks_to(
        &property! {
            forall x: f32, #[gen = gen::float(-3.0..-2.0f32)];
            check x >= -2.3
        },
        (-2.5f32,),
    );
}

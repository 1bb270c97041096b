//! Float generation reaches every class of value at its documented rate:
//! `±0`, `±inf`, NaN, the extremes (`MIN`, `MAX`, `MIN_POSITIVE`,
//! `EPSILON`), subnormals and small integers; `float(range)` reaches the
//! range's ends and `0`.

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

//! The library tests its generators with its own properties: values stay in
//! their ranges, for every integer type and every kind of range.

use pbt::generators::{self as gen, Gen};
use pbt::prelude::*;
use pbt::runners::{generational, Regressions};
use pbt::Arbitrary;
use pbt::{Rng, Source};

fn config() -> Config {
    Config::default().cases(300).regressions(Regressions::Off)
}

macro_rules! int_in_range {
    ($name:ident, $t:ty) => {
        #[test]
        fn $name() {
            let prop = property! {
                forall a: $t;
                forall b: $t;
                forall seed: u64;
                check {
                    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
                    let mut rng = Rng::from_seed(seed);
                    let x = gen::int(lo..=hi).generate(&mut rng, 0).unwrap();
                    let y = gen::int(..=hi).generate(&mut rng, 0).unwrap();
                    let z = gen::int(lo..).generate(&mut rng, 0).unwrap();
                    (lo..=hi).contains(&x) && y <= hi && z >= lo
                }
            };
            let report = generational(&prop, config());
            assert!(report.passed(), "{report}");
        }
    };
}
int_in_range!(u8_in_range, u8);
int_in_range!(i8_in_range, i8);
int_in_range!(u16_in_range, u16);
int_in_range!(i16_in_range, i16);
int_in_range!(u32_in_range, u32);
int_in_range!(i32_in_range, i32);
int_in_range!(u64_in_range, u64);
int_in_range!(i64_in_range, i64);
int_in_range!(u128_in_range, u128);
int_in_range!(i128_in_range, i128);
int_in_range!(usize_in_range, usize);
int_in_range!(isize_in_range, isize);

#[test]
fn half_open_ranges_exclude_their_end() {
    let prop = property! {
        forall lo: i16, #[gen = gen::int(-30_000..30_000i16)];
        forall len: u16, #[gen = gen::int(1..=2000u16)];
        forall seed: u64;
        check {
            let hi = lo.saturating_add(len as i16).max(lo.saturating_add(1));
            let x = gen::int(lo..hi).generate(&mut Rng::from_seed(seed), 0).unwrap();
            lo <= x && x < hi
        }
    };
    let report = generational(&prop, config());
    assert!(report.passed(), "{report}");
}

#[test]
fn choice_zero_is_the_value_nearest_zero() {
    struct Zeros;
    impl Source for Zeros {
        fn draw(&mut self, _max: u64) -> u64 {
            0
        }
    }
    let prop = property! {
        forall a: i64;
        forall b: i64;
        check {
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            let v = gen::int(lo..=hi).generate(&mut Zeros, 0).unwrap();
            let nearest = if lo > 0 { lo } else if hi < 0 { hi } else { 0 };
            v == nearest
        }
    };
    let report = generational(&prop, config());
    assert!(report.passed(), "{report}");
}

#[test]
fn signed_ranges_around_zero_are_a_bijection() {
    // Every choice of a small range maps to a distinct value inside it.
    struct Fixed(u64);
    impl Source for Fixed {
        fn draw(&mut self, _max: u64) -> u64 {
            self.0
        }
    }
    for (lo, hi) in [(-3i8, 5i8), (-5, 3), (-4, 4), (-128, 127), (-1, 0), (0, 1)] {
        let span = (i16::from(hi) - i16::from(lo)) as u64;
        let mut seen: Vec<i8> = (0..=span)
            .map(|c| gen::int(lo..=hi).generate(&mut Fixed(c), 0).unwrap())
            .collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen, (lo..=hi).collect::<Vec<_>>(), "range {lo}..={hi}");
    }
}

#[test]
fn floats_stay_in_range() {
    let prop = property! {
        forall lo: f64, #[gen = gen::float(-1e6..=1e6)];
        forall width: f64, #[gen = gen::float(1e-3..=1e6)];
        forall seed: u64;
        check {
            let hi = lo + width;
            let mut rng = Rng::from_seed(seed);
            let x = gen::float(lo..hi).generate(&mut rng, 0).unwrap();
            let y = gen::float(lo..=hi).generate(&mut rng, 0).unwrap();
            (lo..hi).contains(&x) && (lo..=hi).contains(&y)
        }
    };
    let report = generational(&prop, config());
    assert!(report.passed(), "{report}");
}

#[test]
fn collections_respect_their_length_ranges() {
    let prop = property! {
        forall min: usize, #[gen = gen::int(0..20usize)];
        forall extra: usize, #[gen = gen::int(0..20usize)];
        forall xs: Vec<u8>, #[gen = gen::vec(gen::int(3..7u8), min..=min + extra)];
        forall s: String, #[gen = gen::string("xyz", min..=min + extra)];
        check {
            (min..=min + extra).contains(&xs.len())
                && xs.iter().all(|x| (3..7).contains(x))
                && (min..=min + extra).contains(&s.chars().count())
                && s.chars().all(|c| "xyz".contains(c))
        }
    };
    let report = generational(&prop, config());
    assert!(report.passed(), "{report}");
}

#[test]
fn arbitrary_collections_are_bounded_by_size() {
    let prop = property! {
        forall size: usize, #[gen = gen::int(0..50usize)];
        forall seed: u64;
        check {
            let mut rng = Rng::from_seed(seed);
            let v = <Vec<String>>::arbitrary(&mut rng, size);
            let m = <std::collections::BTreeMap<u8, Vec<bool>>>::arbitrary(&mut rng, size);
            v.len() <= size && v.iter().all(|s| s.chars().count() <= size) && m.len() <= size
        }
    };
    let report = generational(&prop, config());
    assert!(report.passed(), "{report}");
}

#[test]
fn chars_and_subsets_and_choices_are_valid() {
    let items = [10, 20, 30, 40, 50];
    let prop = property! {
        forall k: usize, #[gen = gen::int(0..=5usize)];
        forall picked: Vec<i32>, #[gen = gen::subset(&items, k)];
        forall one: i32, #[gen = gen::choose(&items)];
        forall c: char, #[gen = gen::char('\u{d000}'..='\u{e100}')];
        check {
            let mut sorted = picked.clone();
            sorted.sort();
            sorted.dedup();
            sorted.len() == k
                && picked.iter().all(|p| items.contains(p))
                && items.contains(&one)
                && ('\u{d000}'..='\u{e100}').contains(&c)
        }
    };
    let report = generational(&prop, config());
    assert!(report.passed(), "{report}");
}

#[test]
fn frequency_never_picks_a_zero_weight() {
    let prop = property! {
        forall seed: u64;
        forall w: u64, #[gen = gen::int(1..100u64)];
        check {
            let g = gen::frequency(vec![(0, gen::just('a')), (w, gen::just('b')), (0, gen::just('c'))]);
            g.generate(&mut Rng::from_seed(seed), 0) == Ok('b')
        }
    };
    let report = generational(&prop, config());
    assert!(report.passed(), "{report}");
}

#[test]
fn recursive_generators_terminate_and_shrink_with_size() {
    #[derive(Debug)]
    enum Tree {
        Leaf,
        Node(Box<Tree>, Box<Tree>),
    }
    fn count(t: &Tree) -> usize {
        match t {
            Tree::Leaf => 1,
            Tree::Node(l, r) => 1 + count(l) + count(r),
        }
    }
    fn tree() -> impl Gen<Value = Tree> {
        gen::recursive(|rec| {
            gen::sized(move |n| {
                gen::frequency(vec![
                    (1, gen::just(()).map(|_| Tree::Leaf).boxed()),
                    (
                        n as u64,
                        (rec.clone(), rec.clone())
                            .map(|(l, r)| Tree::Node(Box::new(l), Box::new(r)))
                            .boxed(),
                    ),
                ])
            })
        })
    }
    let mean = |size: usize| {
        let g = tree();
        let mut rng = Rng::from_seed(size as u64);
        (0..300)
            .map(|_| count(&g.generate(&mut rng, size).unwrap()))
            .sum::<usize>() as f64
            / 300.0
    };
    let (small, large) = (mean(2), mean(64));
    assert!(
        small < large,
        "mean tree size {small} at size 2, {large} at size 64"
    );
    // Halving the size per level bounds the depth by log2(size), hence the node count.
    assert!(large <= 2f64.powi(8), "mean tree size {large} at size 64");
}

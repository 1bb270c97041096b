//! Every `Shrink` impl of a std type descends a documented, well-founded
//! order (the measure in `pbt::shrink`'s documentation), tested with pbt
//! itself: every candidate of a generated value, and of each value on its
//! greedy path, is strictly simpler, and the path ends.

use pbt::prelude::*;
use pbt::runners::{generational, Regressions};
use pbt::Shrink;

fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

/// The rank `char`'s shrinker descends: `a b A 0 space`, then code points.
fn char_rank(c: char) -> u64 {
    match ['a', 'b', 'A', '0', ' '].iter().position(|&s| s == c) {
        Some(i) => i as u64,
        None => 5 + u64::from(u32::from(c)),
    }
}

/// The measure `Shrink` lowers (documented in `pbt::shrink`): integers by
/// magnitude then sign, `bool` false first, `char` by its rank, floats by
/// `float_measure`; collections by length, then the multiset of their
/// elements' measures (compared largest first); `Option` `None` first;
/// `Result`, tuples and arrays component by component; wrappers as what
/// they hold.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Measure {
    N(u128),
    L(Vec<Measure>),
}

trait Measured {
    fn measure(&self) -> Measure;
}

fn collection<'a, T: Measured + 'a>(items: impl IntoIterator<Item = &'a T>) -> Measure {
    let mut ms: Vec<Measure> = items.into_iter().map(Measured::measure).collect();
    ms.sort_by(|a, b| b.cmp(a));
    Measure::L(vec![Measure::N(ms.len() as u128), Measure::L(ms)])
}

macro_rules! measured_int {
    ($($t:ty),*) => {$(
        impl Measured for $t {
            #[allow(unused_comparisons)]
            fn measure(&self) -> Measure {
                let negative = *self < 0;
                let magnitude = if negative { (*self as i128).unsigned_abs() } else { *self as u128 };
                Measure::L(vec![Measure::N(magnitude), Measure::N(negative.into())])
            }
        }
    )*};
}
measured_int!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

impl Measured for f64 {
    fn measure(&self) -> Measure {
        let (class, digits, magnitude, negative) = pbt::shrink::float_measure(*self);
        Measure::L(vec![
            Measure::N(class.into()),
            Measure::N(digits.into()),
            Measure::N(magnitude.into()),
            Measure::N(negative.into()),
        ])
    }
}

impl Measured for f32 {
    fn measure(&self) -> Measure {
        f64::from(*self).measure()
    }
}

impl Measured for bool {
    fn measure(&self) -> Measure {
        Measure::N((*self).into())
    }
}

impl Measured for char {
    fn measure(&self) -> Measure {
        Measure::N(char_rank(*self).into())
    }
}

impl Measured for () {
    fn measure(&self) -> Measure {
        Measure::N(0)
    }
}

impl Measured for String {
    fn measure(&self) -> Measure {
        let chars: Vec<char> = self.chars().collect();
        collection(&chars)
    }
}

macro_rules! measured_collection {
    ($($c:ident),*) => {$(
        impl<T: Measured> Measured for std::collections::$c<T> {
            fn measure(&self) -> Measure {
                collection(self)
            }
        }
    )*};
}
measured_collection!(VecDeque, LinkedList, BTreeSet, BinaryHeap, HashSet);

impl<T: Measured> Measured for Vec<T> {
    fn measure(&self) -> Measure {
        collection(self)
    }
}

impl<K: Measured, V: Measured> Measured for std::collections::BTreeMap<K, V> {
    fn measure(&self) -> Measure {
        let pairs: Vec<Measure> = self
            .iter()
            .map(|(k, v)| Measure::L(vec![k.measure(), v.measure()]))
            .collect();
        collection(&pairs)
    }
}

impl<K: Measured, V: Measured> Measured for std::collections::HashMap<K, V> {
    fn measure(&self) -> Measure {
        let pairs: Vec<Measure> = self
            .iter()
            .map(|(k, v)| Measure::L(vec![k.measure(), v.measure()]))
            .collect();
        collection(&pairs)
    }
}

impl Measured for Measure {
    fn measure(&self) -> Measure {
        self.clone()
    }
}

impl<T: Measured> Measured for Option<T> {
    fn measure(&self) -> Measure {
        match self {
            None => Measure::L(vec![Measure::N(0)]),
            Some(x) => Measure::L(vec![Measure::N(1), x.measure()]),
        }
    }
}

impl<T: Measured, E: Measured> Measured for Result<T, E> {
    fn measure(&self) -> Measure {
        match self {
            Ok(x) => Measure::L(vec![Measure::N(0), x.measure()]),
            Err(e) => Measure::L(vec![Measure::N(1), e.measure()]),
        }
    }
}

macro_rules! measured_wrapper {
    ($($w:ident),*) => {$(
        impl<T: Measured> Measured for $w<T> {
            fn measure(&self) -> Measure {
                (**self).measure()
            }
        }
    )*};
}
use std::{rc::Rc, sync::Arc};
measured_wrapper!(Box, Rc, Arc);

impl<A: Measured, B: Measured> Measured for (A, B) {
    fn measure(&self) -> Measure {
        Measure::L(vec![self.0.measure(), self.1.measure()])
    }
}

impl<A: Measured, B: Measured, C: Measured> Measured for (A, B, C) {
    fn measure(&self) -> Measure {
        Measure::L(vec![self.0.measure(), self.1.measure(), self.2.measure()])
    }
}

impl<T: Measured, const N: usize> Measured for [T; N] {
    fn measure(&self) -> Measure {
        Measure::L(self.iter().map(Measured::measure).collect())
    }
}

/// Every candidate of `x`, and the first 64 of every value on the greedy
/// path from `x` (first candidate each time), is strictly simpler than the
/// value it came from, and the path ends (within 2 000 steps; a strictly
/// decreasing measure over a well-founded order ends anyway, this bounds
/// the test).
fn strict_and_terminating<T: Shrink + Measured + std::fmt::Debug>(x: &T) -> Result<(), String> {
    let mut current: Option<T> = None;
    for step in 0..2_000 {
        let at = current.as_ref().unwrap_or(x);
        let own = at.measure();
        let mut first = None;
        let checked = if step == 0 { usize::MAX } else { 64 };
        for c in at.shrink().take(checked) {
            if c.measure() >= own {
                return Err(format!("{at:?} has the candidate {c:?}, not simpler"));
            }
            first.get_or_insert(c);
        }
        match first {
            Some(c) => current = Some(c),
            None => return Ok(()),
        }
    }
    Err(format!("shrinking {x:?} did not end in 2 000 steps"))
}

macro_rules! strict_order {
    ($($name:ident: $t:ty),* $(,)?) => {$(
        #[test]
        fn $name() {
            let prop = property! {
                forall x: $t;
                check {
                    let x: &$t = std::borrow::Borrow::borrow(&x);
                    strict_and_terminating(x)
                }
            };
            let report = generational(&prop, quiet().cases(100).max_size(20));
            assert!(report.passed(), "{report}");
        }
    )*};
}

use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
strict_order!(
    strict_u8: u8, strict_u16: u16, strict_u32: u32, strict_u64: u64, strict_u128: u128,
    strict_usize: usize, strict_i8: i8, strict_i16: i16, strict_i32: i32, strict_i64: i64,
    strict_i128: i128, strict_isize: isize,
    strict_f32: f32, strict_f64: f64, strict_bool: bool, strict_char: char, strict_unit: (),
    strict_string: String,
    strict_vec: Vec<i16>, strict_nested_vec: Vec<Vec<u8>>, strict_vec_deque: VecDeque<f32>,
    strict_linked_list: LinkedList<char>, strict_btree_set: BTreeSet<i32>,
    strict_binary_heap: BinaryHeap<u16>, strict_hash_set: HashSet<i8>,
    strict_btree_map: BTreeMap<u8, String>, strict_hash_map: HashMap<i16, bool>,
    strict_option: Option<f64>, strict_result: Result<u8, String>,
    strict_box: Box<i64>, strict_rc: Rc<String>, strict_arc: Arc<Option<u8>>,
    strict_pair: (u8, String), strict_triple: (bool, i32, Vec<bool>),
    strict_array: [i8; 4],
);

// ---------------------------------------------------------------------------
// The external shrinker of a `#[with]` variable
// ---------------------------------------------------------------------------

/// A long generated list that keeps failing (some element at least `2^30`)
/// shrinks, with the external shrinker alone, to one element in a number of
/// candidates that does not grow with its length: runs of whole elements go
/// first, halving from the whole list. (Choice-level deletions first took
/// hundreds of thousands of candidates at a thousand elements, and hit the
/// time limit.) The element is `2^30` unless it was drawn as an edge value
/// (`i32::MAX`): re-encoding it as an ordinary value to shrink it further
/// keeps the printed value, which the external shrinker never counts as a
/// step (the integrated shrinker's `reencode` pass does that).
#[test]
fn external_shrinking_of_a_long_generated_list_is_near_linear() {
    use pbt::runners::{Shrinker, Sizes};
    const BIG: i32 = 1 << 30;
    for n in [100usize, 1_000, 10_000] {
        let prop = property! {
            forall xs: Vec<i32>, #[with = vec(any::<i32>(), 0..=n)];
            check xs.iter().all(|&x| x < BIG)
        };
        for seed in 0..3 {
            let config = quiet()
                .seed(seed)
                .shrinker(Shrinker::External)
                .max_size(n)
                .sizes(Sizes::Fixed(n));
            let report = generational(&prop, config);
            let (xs,): (Vec<i32>,) = report.counterexample().expect("a failure");
            assert!(
                xs == [BIG] || xs == [i32::MAX],
                "n = {n}, seed {seed}\n{report}"
            );
            eprintln!(
                "n = {n}, seed {seed}: {} steps, {} candidates",
                report.shrinks, report.shrink_attempts
            );
            assert!(
                report.shrink_attempts < 2_000,
                "n = {n}, seed {seed}: {} candidates\n{report}",
                report.shrink_attempts
            );
        }
    }
}

//! Everything that makes an input smaller.
//!
//! - [`Shrink`]: type-based shrinking, for the std types
//!   [`crate::Arbitrary`] covers (this page).
//! - [`choices`]: shrinking through a generator, by shrinking the choices it
//!   drew: the integrated shrinker, [`choices::ChoiceShrinker`], and its
//!   passes.
//!
//! # Type-based shrinking
//!
//! A shrinker proposes candidates, simplest first; a runner keeps the first
//! candidate that still fails and asks again (greedy descent). Integers move
//! toward zero: `0` (and a negative's positive twin), then a binary search
//! for the boundary of the failure whose scale the value carries from step
//! to step in its lowest set bit (about `2 log2 x` candidates over all the
//! steps of a failure from some magnitude up), then `x - x/2`, `x - x/4`,
//! …, `x - 1` for the failures that are not. Collections
//! first remove chunks (the whole, halves, quarters, … single elements), then
//! adjacent pairs, and only then shrink elements in place: a long list
//! shortens before its elements are zeroed, so the one element that matters
//! is kept. Floats move toward `0.0`, then integers, then fewer digits
//! ([`float_measure`]).
//!
//! # The order every candidate descends
//!
//! Every candidate is strictly simpler than the value shrunk under this
//! measure, which is well-founded, so repeated shrinking terminates (the
//! library's tests check it for every impl, with pbt itself):
//!
//! - integers (and `NonZero*`, IP addresses as their integers): magnitude,
//!   then positive before negative;
//! - floats: [`float_measure`] (finite, infinite, NaN; binary digits after
//!   the point; magnitude; sign);
//! - `bool`: `false` first; `char`: the rank `a b A 0 space`, then code
//!   points;
//! - `String`, `Vec`, `VecDeque`, `LinkedList`, sets, heaps and maps: length,
//!   then the multiset of the elements' measures (compared largest first; a
//!   candidate either is shorter or has one element simpler);
//! - `Option`: `None` first; `Result`, tuples, arrays, `Duration`, ranges
//!   and socket addresses: component by component (one component simpler,
//!   the others unchanged); `Box`, `Rc`, `Arc`, `Cow`: what they hold;
//! - `IpAddr` and `SocketAddr`: V4 before V6; `PathBuf`: relative before rooted,
//!   then fewer components, then simpler names.

pub mod choices;
mod float;
mod std_types;

pub use float::float_measure;

use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::hash::Hash;
use std::rc::Rc;
use std::sync::Arc;

/// The candidates a shrinker proposes.
pub type Candidates<'a, T> = Box<dyn Iterator<Item = T> + 'a>;

/// `candidates` boxed as [`Candidates`], through an adapter that forwards
/// `next` alone.
///
/// A shrinker's iterator is a chain of adapters (`Chain`, `FlatMap`,
/// `Map`, …), and boxing it as `dyn Iterator` compiles every method of its
/// vtable (`size_hint`, `nth`, `advance_by`) for each adapter of the chain,
/// in every crate that shrinks a type of its own. A runner only calls
/// `next`: forwarding `next` alone keeps a debug test target's code about a
/// fifth smaller (`docs/benchmarks.md`, "Compile time") and takes no
/// candidate away.
///
/// ```
/// use pbt_core::shrink::{boxed, Candidates};
/// fn halves(x: u32) -> Candidates<'static, u32> {
///     boxed(std::iter::successors(Some(x / 2), |&h| (h > 0).then(|| h / 2)))
/// }
/// assert_eq!(halves(10).collect::<Vec<_>>(), [5, 2, 1, 0]);
/// ```
pub fn boxed<'a, T>(candidates: impl Iterator<Item = T> + 'a) -> Candidates<'a, T> {
    Box::new(NextOnly(candidates))
}

/// An iterator that forwards `next` alone ([`boxed`]).
struct NextOnly<I>(I);

impl<I: Iterator> Iterator for NextOnly<I> {
    type Item = I::Item;

    #[inline]
    fn next(&mut self) -> Option<I::Item> {
        self.0.next()
    }
}

/// Types with a default shrinker.
///
/// Every candidate must be strictly simpler than `self` under a
/// well-founded order (so greedy shrinking terminates); the std impls use
/// the measure of the [module documentation](self).
///
/// ```
/// use pbt_core::Shrink;
/// let c: Vec<i32> = 100i32.shrink().collect();
/// assert_eq!(c[0], 0);
/// assert!(c.contains(&50) && c.contains(&99));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no shrinker: it does not implement `Shrink`",
    label = "no `Shrink` for `{Self}`",
    note = "`#[derive(Arbitrary)]` on `{Self}` implements `Shrink` too; or give this variable a generator (`#[with = …]`), which shrinks through its choices"
)]
pub trait Shrink: Sized {
    /// Whether the integrated shrinker, minimizing the choices that
    /// [`Arbitrary`](crate::Arbitrary) drew this type's value from, already
    /// makes every kind of simplification these candidates make (deleting
    /// elements, moving a number toward zero): then the `both` shrinker
    /// skips its second, value-shrinking phase on a variable of this type
    /// once the integrated phase reached its fixed point. `false` (the
    /// default) keeps that phase: say `true` only of a type whose
    /// candidates are all such simplifications.
    ///
    /// ```
    /// use pbt_core::Shrink;
    /// assert!(<Vec<Vec<i32>> as Shrink>::SUBSUMED_BY_CHOICES);
    /// assert!(!<f64 as Shrink>::SUBSUMED_BY_CHOICES); // it knows round numbers
    /// ```
    const SUBSUMED_BY_CHOICES: bool = false;
    /// Simpler values than `self`, simplest first.
    fn shrink(&self) -> Candidates<'_, Self>;
}

macro_rules! shrink_int {
    ($($t:ty),*) => {$(
        impl Shrink for $t {
            // Its candidates move it toward zero: the choices' binary
            // search does the same.
            const SUBSUMED_BY_CHOICES: bool = true;
            fn shrink(&self) -> Candidates<'_, Self> {
                let x = *self;
                #[allow(unused_comparisons)]
                let negative = x < 0;
                let magnitude: u128 = if negative { (x as i128).unsigned_abs() } else { x as u128 };
                // A magnitude below `x`'s, with `x`'s sign: it fits.
                let signed = move |m: u128| {
                    let m = m as $t;
                    if negative { (0 as $t).wrapping_sub(m) } else { m }
                };
                // For negatives, also propose the positive twin (when it exists).
                let flip = negative.then(|| (0 as $t).checked_sub(x)).flatten();
                // Steps toward zero: x/2, x/4, …, 2 in magnitude (x - step
                // moves toward 0; the bisection proposed x - 1, and, for a
                // power of two, every other step).
                let steps = std::iter::successors(Some(x / 2), |&d| (d / 2 != 0).then_some(d / 2))
                    .filter(move |&d| d / 2 != 0 && !magnitude.is_power_of_two())
                    .map(move |d| x - d);
                let towards: Box<dyn Iterator<Item = $t>> = if x == 0 {
                    boxed(std::iter::empty())
                } else {
                    let bisected = bisect_magnitude(magnitude).map(signed);
                    boxed(std::iter::once(0).chain(flip).chain(bisected).chain(steps))
                };
                boxed(dedup_sorted(towards, x))
            }
        }
    )*};
}
shrink_int!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

/// Smaller magnitudes than `m` (none of them 0) by binary search over a
/// greedy descent, which keeps no state between steps: the magnitude
/// carries its search's scale in its lowest set bit. First the steps of a
/// search under way (`m - 2^j` for each `2^j` below `m`'s lowest set bit,
/// largest first), then the searches that start (`m` rounded down to a
/// multiple of `2^k` for each `k`, coarsest first; taking the first that
/// still fails leaves the failure's boundary within its lowest set bit
/// below it), then `m - 1`. A failure from some magnitude `t` up is so
/// found in about `2 log2 m` candidates over all the steps, where the
/// distances `m/2, m/4, …` from the top at every step take about
/// `(log2 m)^2 / 2`.
fn bisect_magnitude(m: u128) -> impl Iterator<Item = u128> {
    let under_way = (0..m.trailing_zeros().min(127))
        .rev()
        .map(move |j| m - (1 << j))
        .filter(|&c| c > 0);
    let bits = u128::BITS - m.leading_zeros();
    let mut last = 0;
    let starts = (1..bits)
        .rev()
        .map(move |k| (m >> k) << k)
        .filter(move |&r| r > 0 && r < m && std::mem::replace(&mut last, r) != r);
    let lowest = (m > 1).then(|| m - 1);
    under_way.chain(starts).chain(lowest)
}

/// Drop repeats of consecutive candidates and anything equal to `x`.
fn dedup_sorted<T: PartialEq + Copy>(it: impl Iterator<Item = T>, x: T) -> impl Iterator<Item = T> {
    let mut last: Option<T> = None;
    it.filter(move |&c| {
        let keep = c != x && last != Some(c);
        last = Some(c);
        keep
    })
}

impl Shrink for bool {
    fn shrink(&self) -> Candidates<'_, Self> {
        boxed(self.then_some(false).into_iter())
    }
}

impl Shrink for char {
    /// Toward `'a'`: the simple characters `a b A 0 space` rank first, in
    /// that order, then every other character by code point. Candidates
    /// are the simple characters ranked before `self`, then (for a
    /// character that is not simple) lower code points; each has a lower
    /// rank, so shrinking a character terminates.
    fn shrink(&self) -> Candidates<'_, Self> {
        let c = *self;
        let code = c as u32;
        let simple = ['a', 'b', 'A', '0', ' '];
        let firsts = simple.into_iter().take_while(move |&s| s != c);
        let lower: Vec<char> = if simple.contains(&c) {
            Vec::new()
        } else {
            (code as u64)
                .shrink()
                .filter_map(|x| char::from_u32(x as u32))
                .filter(|&x| x < c && !simple.contains(&x))
                .take(16)
                .collect()
        };
        boxed(firsts.chain(lower))
    }
}

impl Shrink for () {
    fn shrink(&self) -> Candidates<'_, Self> {
        boxed(std::iter::empty())
    }
}

/// Shrink a sequence: remove chunks of decreasing length (the whole, halves,
/// quarters, … single elements), then every adjacent pair, then shrink each
/// element in place.
///
/// ```
/// let c: Vec<Vec<u8>> = pbt_core::shrink::shrink_slice(&[3u8, 5]).collect();
/// assert_eq!(c[0], Vec::<u8>::new());
/// assert!(c.contains(&vec![5]) && c.contains(&vec![0, 5]));
/// ```
pub fn shrink_slice<T: Shrink + Clone>(xs: &[T]) -> Candidates<'_, Vec<T>> {
    let n = xs.len();
    let chunks = std::iter::successors(Some(n), |&k| (k > 1).then_some(k / 2)).filter(|&k| k > 0);
    let removals = chunks.flat_map(move |k| {
        (0..n / k).map(move |i| {
            let mut v = xs[..i * k].to_vec();
            v.extend_from_slice(&xs[(i + 1) * k..]);
            v
        })
    });
    // Every adjacent pair, aligned or not: elements that only matter
    // together (a push and the pop that undoes it) go in one step.
    let pairs = (0..n.saturating_sub(1)).map(move |i| {
        let mut v = xs[..i].to_vec();
        v.extend_from_slice(&xs[i + 2..]);
        v
    });
    let elements = (0..n).flat_map(move |i| {
        xs[i].shrink().map(move |e| {
            let mut v = xs.to_vec();
            v[i] = e;
            v
        })
    });
    boxed(removals.chain(pairs).chain(elements))
}

impl Shrink for String {
    /// [`shrink_slice`]'s candidates over the chars, made one at a time (a
    /// long string has quadratically many characters over all of them).
    fn shrink(&self) -> Candidates<'_, Self> {
        let chars: Rc<[char]> = self.chars().collect();
        boxed(shrink_shared(chars).map(|cs| cs.into_iter().collect()))
    }
}

/// [`shrink_slice`] over a sequence the iterator owns (shared, so that each
/// pass holds it without copying).
fn shrink_shared<T: Shrink + Clone + 'static>(xs: Rc<[T]>) -> impl Iterator<Item = Vec<T>> {
    let n = xs.len();
    let without = |xs: &[T], from: usize, to: usize| {
        let mut v = xs[..from].to_vec();
        v.extend_from_slice(&xs[to..]);
        v
    };
    let chunks = std::iter::successors(Some(n), |&k| (k > 1).then_some(k / 2)).filter(|&k| k > 0);
    let all = xs.clone();
    let removals = chunks.flat_map(move |k| {
        let xs = all.clone();
        (0..n / k).map(move |i| without(&xs, i * k, (i + 1) * k))
    });
    let all = xs.clone();
    let pairs = (0..n.saturating_sub(1)).map(move |i| without(&all, i, i + 2));
    let elements = (0..n).flat_map(move |i| {
        let xs = xs.clone();
        let shrunk: Vec<T> = xs[i].shrink().collect();
        shrunk.into_iter().map(move |e| {
            let mut v = xs.to_vec();
            v[i] = e;
            v
        })
    });
    removals.chain(pairs).chain(elements)
}

impl<T: Shrink + Clone> Shrink for Vec<T> {
    // Deleting elements and shrinking each: the integrated shrinker
    // deletes elements' blocks and shrinks each element's choices.
    const SUBSUMED_BY_CHOICES: bool = T::SUBSUMED_BY_CHOICES;
    fn shrink(&self) -> Candidates<'_, Self> {
        shrink_slice(self)
    }
}

macro_rules! shrink_via_vec {
    ($($c:ident<T> $(+ $bound:path)*;)*) => {$(
        impl<T: Shrink + Clone $(+ $bound)*> Shrink for $c<T> {
            fn shrink(&self) -> Candidates<'_, Self> {
                let v: Vec<T> = self.clone().into_iter().collect();
                let cands: Vec<Vec<T>> = v.shrink().collect();
                boxed(cands.into_iter().map(|v| v.into_iter().collect()))
            }
        }
    )*};
}
shrink_via_vec! {
    VecDeque<T>;
    LinkedList<T>;
    BTreeSet<T> + Ord;
    BinaryHeap<T> + Ord;
    HashSet<T> + Eq + Hash;
}

macro_rules! shrink_map {
    ($($m:ident $(+ $bound:path)*;)*) => {$(
        impl<K: Shrink + Clone $(+ $bound)*, V: Shrink + Clone> Shrink for $m<K, V> {
            fn shrink(&self) -> Candidates<'_, Self> {
                let v: Vec<(K, V)> = self.clone().into_iter().collect();
                let cands: Vec<Vec<(K, V)>> = v.shrink().collect();
                boxed(cands.into_iter().map(|v| v.into_iter().collect()))
            }
        }
    )*};
}
shrink_map! {
    BTreeMap + Ord;
    HashMap + Eq + Hash;
}

impl<T: Shrink + Clone> Shrink for Option<T> {
    fn shrink(&self) -> Candidates<'_, Self> {
        match self {
            None => boxed(std::iter::empty()),
            Some(x) => boxed(std::iter::once(None).chain(x.shrink().map(Some))),
        }
    }
}

impl<T: Shrink + Clone, E: Shrink + Clone> Shrink for Result<T, E> {
    fn shrink(&self) -> Candidates<'_, Self> {
        match self {
            Ok(x) => boxed(x.shrink().map(Ok)),
            Err(e) => boxed(e.shrink().map(Err)),
        }
    }
}

macro_rules! shrink_wrapper {
    ($($w:ident),*) => {$(
        impl<T: Shrink + Clone> Shrink for $w<T> {
            fn shrink(&self) -> Candidates<'_, Self> {
                boxed((**self).shrink().map($w::new))
            }
        }
    )*};
}
shrink_wrapper!(Box, Rc, Arc);

macro_rules! shrink_tuple {
    ($($t:ident $i:tt),+) => {
        impl<$($t: Shrink + Clone),+> Shrink for ($($t,)+) {
            /// Shrink one component at a time, left to right.
            fn shrink(&self) -> Candidates<'_, Self> {
                let it = std::iter::empty();
                $(
                    let it = it.chain(self.$i.shrink().map(move |c| {
                        let mut t = self.clone();
                        t.$i = c;
                        t
                    }));
                )+
                boxed(it)
            }
        }
    };
}
shrink_tuple!(A 0);
shrink_tuple!(A 0, B 1);
shrink_tuple!(A 0, B 1, C 2);
shrink_tuple!(A 0, B 1, C 2, D 3);
shrink_tuple!(A 0, B 1, C 2, D 3, E 4);
shrink_tuple!(A 0, B 1, C 2, D 3, E 4, F 5);
shrink_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
shrink_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);

impl<T: Shrink + Clone, const N: usize> Shrink for [T; N] {
    fn shrink(&self) -> Candidates<'_, Self> {
        boxed((0..N).flat_map(move |i| {
            self[i].shrink().map(move |e| {
                let mut a = self.clone();
                a[i] = e;
                a
            })
        }))
    }
}

impl Shrink for std::time::Duration {
    fn shrink(&self) -> Candidates<'_, Self> {
        let (s, n) = (self.as_secs(), self.subsec_nanos());
        let secs: Vec<u64> = s.shrink().collect();
        let nanos: Vec<u32> = n.shrink().collect();
        boxed(
            secs.into_iter()
                .map(move |s| std::time::Duration::new(s, n))
                .chain(
                    nanos
                        .into_iter()
                        .map(move |n| std::time::Duration::new(s, n)),
                ),
        )
    }
}

//! Type-based mutation: [`Mutate`] for the std types [`Arbitrary`] covers.
//!
//! A mutator makes a value *near* the one it is given, as fuzzers do
//! (*Programmable Property-Based Testing* §6.1.2, FuzzChick's semantic mutations; *Flexible and Automatic Targeted Property-Based Testing* §6.5,
//! mutation by value): a collection gains, loses or changes an element, an
//! integer takes a small step or flips a bit, an `Option` toggles. Which
//! mutation happens is decided by draws from a [`Source`], so a fuzzer's bytes
//! or a seeded [`crate::Rng`] steer it.
//!
//! Two promises hold for every impl here and for `#[derive(Mutate)]`:
//! the mutant is a valid value of the type (a `Duration`'s nanoseconds stay
//! below 10^9, a set has no duplicates), and it differs from the input
//! whenever the type has more than one value (floats: as bit patterns).

mod std_types;

use crate::arbitrary::Arbitrary;
use crate::source::Source;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::hash::Hash;
use std::rc::Rc;
use std::sync::Arc;

/// Types with a default mutator.
///
/// ```
/// use pbt_core::{Mutate, Rng};
/// let mut rng = Rng::from_seed(3);
/// let xs = vec![1u8, 2, 3];
/// let ys = xs.mutate(&mut rng, 10);
/// assert_ne!(xs, ys);
/// ```
pub trait Mutate: Sized {
    /// A value near `self`, chosen by draws from `src`; fresh parts are
    /// generated at `size`. Always a valid value of the type, and different
    /// from `self` whenever the type has more than one value.
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self;
}

/// How far a small step goes at `size`: `1..=16`, fewer when `size` is small.
#[inline]
fn step<S: Source + ?Sized>(src: &mut S, size: usize) -> u64 {
    1 + src.draw(size.clamp(1, 16) as u64 - 1)
}

macro_rules! mutate_int {
    ($($t:ty: $edges:expr),* $(,)?) => {$(
        impl Mutate for $t {
            /// A small step up or down (wrapping), a flipped bit, an edge
            /// value, or a fresh value.
            fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
                let x = *self;
                let y = match src.draw(3) {
                    0 => {
                        let k = step(src, size) as $t;
                        if src.draw(1) == 0 { x.wrapping_add(k) } else { x.wrapping_sub(k) }
                    }
                    1 => x ^ ((1 as $t) << src.draw(u64::from(<$t>::BITS) - 1)),
                    2 => {
                        let edges: &[$t] = &$edges;
                        edges[src.draw(edges.len() as u64 - 1) as usize]
                    }
                    _ => <$t as Arbitrary>::arbitrary(src, size),
                };
                // An edge or fresh value can coincide with `x`: flip the low bit.
                if y == x { x ^ 1 } else { y }
            }
        }
    )*};
}
mutate_int!(
    u8: [0, 1, u8::MAX], u16: [0, 1, u16::MAX], u32: [0, 1, u32::MAX],
    u64: [0, 1, u64::MAX], u128: [0, 1, u128::MAX], usize: [0, 1, usize::MAX],
    i8: [0, 1, -1, i8::MIN, i8::MAX], i16: [0, 1, -1, i16::MIN, i16::MAX],
    i32: [0, 1, -1, i32::MIN, i32::MAX], i64: [0, 1, -1, i64::MIN, i64::MAX],
    i128: [0, 1, -1, i128::MIN, i128::MAX], isize: [0, 1, -1, isize::MIN, isize::MAX],
);

macro_rules! mutate_float {
    ($($t:ty: $bits:ty),*) => {$(
        impl Mutate for $t {
            /// A small step, a negation, a flipped bit of the representation,
            /// or a fresh value; never the same bit pattern.
            fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
                let x = *self;
                let y = match src.draw(3) {
                    0 => {
                        let k = step(src, size) as $t;
                        if src.draw(1) == 0 { x + k } else { x - k }
                    }
                    1 => -x,
                    2 => <$t>::from_bits(x.to_bits() ^ ((1 as $bits) << src.draw(u64::from(<$bits>::BITS) - 1))),
                    _ => <$t as Arbitrary>::arbitrary(src, size),
                };
                if y.to_bits() == x.to_bits() {
                    <$t>::from_bits(x.to_bits() ^ 1)
                } else {
                    y
                }
            }
        }
    )*};
}
mutate_float!(f32: u32, f64: u64);

impl Mutate for bool {
    fn mutate<S: Source + ?Sized>(&self, _src: &mut S, _size: usize) -> Self {
        !*self
    }
}

impl Mutate for char {
    /// A small step in code points (skipping the surrogates) or a fresh char.
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        let c = *self;
        let y = if src.draw(1) == 0 {
            let k = step(src, size) as u32;
            let code = if src.draw(1) == 0 {
                (c as u32).checked_add(k)
            } else {
                (c as u32).checked_sub(k)
            };
            code.and_then(char::from_u32).unwrap_or('a')
        } else {
            char::arbitrary(src, size)
        };
        match (y == c, c == 'a') {
            (false, _) => y,
            (true, false) => 'a',
            (true, true) => 'b',
        }
    }
}

impl Mutate for () {
    /// `()` has one value.
    fn mutate<S: Source + ?Sized>(&self, _src: &mut S, _size: usize) -> Self {}
}

/// A sequence near `xs`: insert a fresh element, remove one, change one (by
/// its own mutator), append a few fresh ones, cut the tail, or repeat a
/// slice. Empty sequences only grow. The length changes, or one element
/// changes into a different value, so the result differs from `xs` (when
/// `T` has more than one value).
///
/// Growth is bounded: a mutant has at most `max(size, 64)` elements (or
/// `xs.len()`, if that is more), so a search that rewards length (the
/// targeted runner under `target(xs.len())`) cannot double a vector until
/// allocation fails.
///
/// ```
/// let mut rng = pbt_core::Rng::from_seed(1);
/// let ys = pbt_core::mutate::mutate_slice(&[5u8, 6], &mut rng, 10);
/// assert_ne!(ys, vec![5u8, 6]);
/// ```
pub fn mutate_slice<T, S>(xs: &[T], src: &mut S, size: usize) -> Vec<T>
where
    T: Mutate + Arbitrary + Clone,
    S: Source + ?Sized,
{
    let n = xs.len();
    let cap = size.max(MIN_GROWTH_CAP);
    let op = if n == 0 {
        src.draw(1) * 3
    } else if n < cap {
        src.draw(5)
    } else {
        // At the cap: remove, change or cut only.
        [1, 2, 4][src.draw(2) as usize]
    };
    let mut out = xs.to_vec();
    match op {
        0 => {
            let at = src.draw(n as u64) as usize;
            out.insert(at, T::arbitrary(src, size));
        }
        1 => {
            out.remove(src.draw(n as u64 - 1) as usize);
        }
        2 => {
            let at = src.draw(n as u64 - 1) as usize;
            out[at] = xs[at].mutate(src, size);
        }
        3 => {
            let k = step(src, size.min(8));
            out.extend((0..k).map(|_| T::arbitrary(src, size)));
        }
        4 => out.truncate(src.draw(n as u64 - 1) as usize),
        _ => {
            let start = src.draw(n as u64 - 1) as usize;
            let end = start + 1 + src.draw((n - start - 1) as u64) as usize;
            let at = src.draw(n as u64) as usize;
            out.splice(at..at, xs[start..end].iter().cloned());
        }
    }
    out.truncate(cap.max(n));
    out
}

/// The length a mutant sequence may always grow to, whatever the size.
const MIN_GROWTH_CAP: usize = 64;

impl<T: Mutate + Arbitrary + Clone> Mutate for Vec<T> {
    /// See [`mutate_slice`].
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        mutate_slice(self, src, size)
    }
}

impl Mutate for String {
    /// [`mutate_slice`] over the chars.
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        let chars: Vec<char> = self.chars().collect();
        mutate_slice(&chars, src, size).into_iter().collect()
    }
}

macro_rules! mutate_via_vec {
    ($($c:ident<T> $(+ $bound:path)*;)*) => {$(
        impl<T: Mutate + Arbitrary + Clone $(+ $bound)*> Mutate for $c<T> {
            /// [`mutate_slice`] over the elements in order.
            fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
                let v: Vec<T> = self.iter().cloned().collect();
                mutate_slice(&v, src, size).into_iter().collect()
            }
        }
    )*};
}
mutate_via_vec! {
    VecDeque<T>;
    LinkedList<T>;
}

impl<T: Mutate + Arbitrary + Clone + Ord> Mutate for BinaryHeap<T> {
    /// [`mutate_slice`] over the elements (in the heap's order).
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        let v: Vec<T> = self.iter().cloned().collect();
        mutate_slice(&v, src, size).into_iter().collect()
    }
}

/// How many fresh values a set or map tries before it gives up inserting.
const INSERT_TRIES: usize = 8;

macro_rules! mutate_set {
    ($($set:ident $(+ $bound:path)*;)*) => {$(
        impl<T: Mutate + Arbitrary + Clone $(+ $bound)*> Mutate for $set<T> {
            /// Insert a fresh element, remove one, or change one (remove it,
            /// insert its mutant). An insert that only finds members removes
            /// an element instead.
            fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
                let mut out = self.clone();
                let n = self.len();
                let op = if n == 0 { 0 } else { src.draw(2) };
                if op == 0 {
                    for _ in 0..INSERT_TRIES {
                        if out.insert(T::arbitrary(src, size)) {
                            return out;
                        }
                    }
                }
                if n == 0 {
                    // Every fresh value was a member of the empty set: impossible.
                    return out;
                }
                let Some(x) = self.iter().nth(src.draw(n as u64 - 1) as usize) else {
                    return out;
                };
                out.remove(x);
                if op == 2 {
                    out.insert(x.mutate(src, size));
                }
                out
            }
        }
    )*};
}
mutate_set! {
    BTreeSet + Ord;
    HashSet + Eq + Hash;
}

macro_rules! mutate_map {
    ($($map:ident $(+ $bound:path)*;)*) => {$(
        impl<K, V> Mutate for $map<K, V>
        where
            K: Mutate + Arbitrary + Clone $(+ $bound)*,
            V: Mutate + Arbitrary + Clone,
        {
            /// Insert a fresh entry, remove one, change a value, or change a
            /// key (keeping its value). A fresh key that is already present
            /// changes that key's value instead.
            fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
                let mut out = self.clone();
                let n = self.len();
                let op = if n == 0 { 0 } else { src.draw(3) };
                if op == 0 {
                    let k = K::arbitrary(src, size);
                    let v = match self.get(&k) {
                        Some(old) => old.mutate(src, size),
                        None => V::arbitrary(src, size),
                    };
                    out.insert(k, v);
                    return out;
                }
                let Some((k, v)) = self.iter().nth(src.draw(n as u64 - 1) as usize) else {
                    return out;
                };
                match op {
                    1 => {
                        out.remove(k);
                    }
                    2 => {
                        out.insert(k.clone(), v.mutate(src, size));
                    }
                    _ => {
                        out.remove(k);
                        out.insert(k.mutate(src, size), v.clone());
                    }
                }
                out
            }
        }
    )*};
}
mutate_map! {
    BTreeMap + Ord;
    HashMap + Eq + Hash;
}

impl<T: Mutate + Arbitrary> Mutate for Option<T> {
    /// `None` becomes a fresh `Some`; `Some(x)` becomes `None` (a quarter of
    /// the time) or `Some` of a mutant of `x`.
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        match self {
            None => Some(T::arbitrary(src, size)),
            Some(x) => (src.draw(3) != 0).then(|| x.mutate(src, size)),
        }
    }
}

impl<T: Mutate + Arbitrary, E: Mutate + Arbitrary> Mutate for Result<T, E> {
    /// Mutate the payload, or (a quarter of the time) switch to a fresh value
    /// of the other side.
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        let switch = src.draw(3) == 0;
        match (self, switch) {
            (Ok(x), false) => Ok(x.mutate(src, size)),
            (Ok(_), true) => Err(E::arbitrary(src, size)),
            (Err(e), false) => Err(e.mutate(src, size)),
            (Err(_), true) => Ok(T::arbitrary(src, size)),
        }
    }
}

macro_rules! mutate_wrapper {
    ($($w:ident),*) => {$(
        impl<T: Mutate> Mutate for $w<T> {
            fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
                $w::new((**self).mutate(src, size))
            }
        }
    )*};
}
mutate_wrapper!(Box, Rc, Arc);

macro_rules! mutate_tuple {
    ($n:expr; $($t:ident $i:tt),+) => {
        impl<$($t: Mutate + Clone),+> Mutate for ($($t,)+) {
            /// Mutate one component, chosen by a draw.
            fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
                let mut out = self.clone();
                let which = src.draw($n - 1);
                $(
                    if which == $i {
                        out.$i = self.$i.mutate(src, size);
                    }
                )+
                out
            }
        }
    };
}
mutate_tuple!(1; A 0);
mutate_tuple!(2; A 0, B 1);
mutate_tuple!(3; A 0, B 1, C 2);
mutate_tuple!(4; A 0, B 1, C 2, D 3);
mutate_tuple!(5; A 0, B 1, C 2, D 3, E 4);
mutate_tuple!(6; A 0, B 1, C 2, D 3, E 4, F 5);
mutate_tuple!(7; A 0, B 1, C 2, D 3, E 4, F 5, G 6);
mutate_tuple!(8; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);

impl<T: Mutate + Clone, const N: usize> Mutate for [T; N] {
    /// Mutate one element, chosen by a draw (`[T; 0]` has one value).
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        let mut out = self.clone();
        if N > 0 {
            let at = src.draw(N as u64 - 1) as usize;
            out[at] = self[at].mutate(src, size);
        }
        out
    }
}

impl Mutate for std::time::Duration {
    /// Mutate the seconds or the nanoseconds (kept below 10^9).
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        let (secs, nanos) = (self.as_secs(), self.subsec_nanos());
        if src.draw(1) == 0 {
            return std::time::Duration::new(secs.mutate(src, size), nanos);
        }
        let mut n = nanos.mutate(src, size) % 1_000_000_000;
        if n == nanos {
            n = (n + 1) % 1_000_000_000;
        }
        std::time::Duration::new(secs, n)
    }
}

/// Support for `#[derive(Mutate)]`. Not a public API.
///
/// `(&Differ(&a, &b)).differ()` is `a != b` when the type is `PartialEq`
/// and `true` (unknown: assume they differ) otherwise — autoref
/// specialisation, resolved where the type is concrete.
#[doc(hidden)]
pub mod support {
    /// Two values to compare, if their type can.
    pub struct Differ<'a, T>(pub &'a T, pub &'a T);

    /// `PartialEq` types: compare.
    pub trait DifferEq {
        /// Whether the two values differ.
        fn differ(&self) -> bool;
    }

    impl<T: PartialEq> DifferEq for Differ<'_, T> {
        #[inline]
        fn differ(&self) -> bool {
            self.0 != self.1
        }
    }

    /// Other types: assume they differ.
    pub trait DifferUnknown {
        /// `true`.
        fn differ(&self) -> bool;
    }

    impl<T> DifferUnknown for &Differ<'_, T> {
        #[inline]
        fn differ(&self) -> bool {
            true
        }
    }

    /// How many times a `#[pbt(gen = …)]` field is regenerated, by the
    /// derived generator when its filters reject and by the derived
    /// mutator until the value changes.
    pub const FIELD_TRIES: usize = 16;
}

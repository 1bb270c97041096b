//! Type-based generators: [`Arbitrary`] for the std types users expect.
//!
//! Integers mix three kinds of value (a first draw picks the kind, a second
//! the value, both ordered simplest first): small values within `±size` (half
//! the time), any value of the type (three eighths), and the edges `0, 1, -1,
//! MIN, MAX` (one eighth). Collections have length
//! `0..=size`. Choice `0` everywhere gives the simplest value, so a sequence of
//! zero choices generates the "zero" of every type.

pub(crate) mod std_types;

use crate::gen::{FloatType, Gen};
use crate::source::{BlockKind, Rng, Source};
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::hash::Hash;
use std::rc::Rc;
use std::sync::Arc;

/// Types with a default generator.
///
/// ```
/// use pbt_core::{Arbitrary, Rng};
/// let v = <Vec<(u8, bool)>>::arbitrary(&mut Rng::from_seed(1), 5);
/// assert!(v.len() <= 5);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no default generator: it does not implement `Arbitrary`",
    label = "no `Arbitrary` for `{Self}`",
    note = "derive one with `#[derive(Arbitrary)]` on `{Self}` (its fields need `Arbitrary` too), or give this variable a generator: `#[with = …]`"
)]
pub trait Arbitrary: Sized {
    /// Draw a value of `Self` at `size`.
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self;

    /// The draws every value makes from an [`Rng`], when that number is
    /// fixed (`None`, the default, when it is not). A collection of such
    /// values charges its elements' draws to the budget once
    /// ([`Source::charge_parts`]) and generates them with
    /// [`arbitrary_prepaid`](Arbitrary::arbitrary_prepaid).
    #[doc(hidden)]
    const FIXED_DRAWS: Option<u64> = None;

    /// [`arbitrary`](Arbitrary::arbitrary) on an [`Rng`] whose budget was
    /// already charged [`FIXED_DRAWS`](Arbitrary::FIXED_DRAWS) draws for
    /// this value: the same value, without counting them again. The
    /// default (for a type without fixed draws, never called so) counts.
    #[doc(hidden)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn arbitrary_prepaid(rng: &mut Rng, size: usize) -> Self {
        Self::arbitrary(rng, size)
    }
}

/// Integers from two draws, ordered so that smaller choices are simpler
/// values: first the kind, `k` in `0..=7` (`0..=3` small, `4..=6` any, `7` an
/// edge value, so the simplest kind comes first), then the value within the
/// kind, whose choice order is value order by magnitude (zigzag `0, 1, -1,
/// 2, …` for signed types, `0, 1, 2, …` for unsigned ones). Lowering either
/// choice never makes the value more complex, and choices `[0, 0]` give `0`.
/// Up to 64 bits the two choices come from one
/// [`Source::draw_kind_value`] (one step on an [`crate::Rng`], the same
/// choices as two draws; on an `Rng` the value's bound is picked from the
/// three by masks), so generation has no data-dependent branch, and a
/// value always makes two draws ([`Arbitrary::FIXED_DRAWS`]: a `Vec` of
/// them charges the budget once); 128-bit values draw the kind, then
/// ("any") their high half, then their low half.
macro_rules! arbitrary_int {
    ($($t:ty: $edges:expr),* $(,)?) => {$(
        impl Arbitrary for $t {
            // A kind and a value, up to 64 bits; 128-bit "any" values
            // draw a third.
            const FIXED_DRAWS: Option<u64> = if <$t>::BITS <= 64 { Some(2) } else { None };

            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn arbitrary_prepaid(rng: &mut Rng, size: usize) -> Self {
                if <$t>::BITS <= 64 {
                    let edges: &[$t] = &$edges;
                    let (kind, c) = rng.kind_value_grouped_prepaid(
                        <$t as SmallInt>::small_max(size),
                        u64::MAX >> 64u32.saturating_sub(<$t>::BITS),
                        edges.len() as u64 - 1,
                    );
                    return Self::from_kind_value(kind, c);
                }
                Self::arbitrary(rng, size)
            }

            // Always inlined: in a collection's loop the generator's state
            // then stays in registers (a call per element costs a third).
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
                let edges: &[$t] = &$edges;
                if <$t>::BITS <= 64 {
                    let small_max = <$t as SmallInt>::small_max(size);
                    let any_max = u64::MAX >> 64u32.saturating_sub(<$t>::BITS);
                    let edge_max = edges.len() as u64 - 1;
                    // The kind and the value in one go (one step on an
                    // `Rng`), recorded as the two choices.
                    // An `Rng` picks the value's bound from the three
                    // by masks (no table on the stack); other sources
                    // get the table.
                    let (kind, c) = match src.as_rng() {
                        Some(rng) => rng.kind_value_grouped(small_max, any_max, edge_max),
                        None => src.draw_kind_value(&[
                            small_max, small_max, small_max, small_max,
                            any_max, any_max, any_max, edge_max,
                        ]),
                    };
                    return Self::from_kind_value(kind, c);
                }
                // The kind and the first value choice (the value, or the
                // high half of an "any" value) as one pair, so that a
                // recording source marks the integer; the same draws.
                let small_max = <$t as SmallInt>::small_max(size);
                let edge_max = edges.len() as u64 - 1;
                let (kind, first) = src.draw_kind_value(&[
                    small_max, small_max, small_max, small_max,
                    u64::MAX, u64::MAX, u64::MAX, edge_max,
                ]);
                match KIND[kind] {
                    0 => <$t as SmallInt>::from_choice(first),
                    1 => {
                        let high = u128::from(first) << 64;
                        <$t as SmallInt>::from_wide_choice(high | u128::from(src.draw(u64::MAX)))
                    }
                    _ => edges[(first as usize).min(edges.len() - 1)],
                }
            }
        }

        impl KindValue for $t {
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn from_kind_value(kind: usize, c: u64) -> Self {
                    // Branch-free: the kind is random, so a branch on it
                    // would be mispredicted. The edge is looked up in a
                    // table of eight (the edges, then zeros) by the low
                    // bits of the choice, which for the edge kind is the
                    // edge's index, and is ignored for the other kinds.
                    const PADDED: [$t; 8] = {
                        let edges: &[$t] = &$edges;
                        let mut padded = [0; 8];
                        let mut i = 0;
                        while i < edges.len() {
                            padded[i] = edges[i];
                            i += 1;
                        }
                        padded
                    };
                    let edge = PADDED[c as usize & 7];
                    let value = <$t as SmallInt>::from_choice(c);
                    // The edge kind is the last (7): `(kind + 1) >> 3` is
                    // 1 for it and 0 for the others, a mask by arithmetic
                    // (a comparison would be compiled to a branch).
                    let edge_mask = ((kind as u64 + 1) >> 3).wrapping_neg();
                    ((value as u64) ^ (((value as u64) ^ (edge as u64)) & edge_mask)) as $t
            }
        }
    )*};
}

/// The integer of a kind and a value choice (up to 64 bits), as
/// [`Arbitrary`] for integers maps them.
trait KindValue {
    fn from_kind_value(kind: usize, c: u64) -> Self;
}

/// The kind of integer for each value of the kind draw: small (half), any
/// (three eighths), edge (one eighth).
const KIND: [usize; 8] = [0, 0, 0, 0, 1, 1, 1, 2];

/// The first kind choice whose value may be any of the type's values (the
/// smaller ones hold only small values).
const FIRST_ANY_KIND: u64 = 4;

/// The kind choice that lets an `Arbitrary` integer of kind choice `kind`
/// hold any value of its type, when `kind` holds only small values: what
/// the shrinker puts in place of a small kind to move a large value into
/// its integer.
pub(crate) fn any_kind_for(kind: u64) -> Option<u64> {
    (kind < FIRST_ANY_KIND).then_some(FIRST_ANY_KIND)
}

/// The value-ordered mapping from choices to integers: choice `c` is the
/// `c`-th value counting outward from zero (`0, 1, -1, 2, -2, …` for signed
/// types), so a smaller choice is never a larger magnitude. A small value is
/// a choice in `0..=small_max(size)`, which covers `±size` (`0..=size` for
/// unsigned types, capped at the type's range).
trait SmallInt: Sized {
    /// The largest choice of a small value at `size`.
    fn small_max(size: usize) -> u64;
    /// The value of choice `c` (its low bits, for types narrower than 64).
    fn from_choice(c: u64) -> Self;
    /// The value of a 128-bit choice.
    fn from_wide_choice(c: u128) -> Self;
}

/// Bounds `size` so that `2 * size` never overflows.
const SMALL_CAP: u64 = 1 << 40;

/// Zigzag decoding of an unsigned choice `c`: odd choices are positive
/// (`2k + 1` is `k + 1`), even ones negative (`2k` is `-k`), so
/// `0, 1, -1, 2, -2, …`. Branch-free (the parity is random): the mask
/// `(c & 1) - 1` is all ones for an even choice, and `!k + 1` is `-k`;
/// for an odd one `k + 1` (wrapping: the top choice is `MIN`).
macro_rules! zigzag {
    ($c:expr) => {{
        let c = $c;
        ((c >> 1) ^ (c & 1).wrapping_sub(1)).wrapping_add(1)
    }};
}

macro_rules! small_signed {
    ($($t:ty => $u:ty),*) => {$(
        impl SmallInt for $t {
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn small_max(size: usize) -> u64 {
                2 * (size as u64).min(<$t>::MAX as u64).min(SMALL_CAP)
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn from_choice(c: u64) -> Self {
                zigzag!(c as $u) as $t
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn from_wide_choice(c: u128) -> Self {
                zigzag!(c as $u) as $t
            }
        }
    )*};
}
small_signed!(i8 => u8, i16 => u16, i32 => u32, i64 => u64, i128 => u128, isize => usize);

macro_rules! small_unsigned {
    ($($t:ty),*) => {$(
        impl SmallInt for $t {
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn small_max(size: usize) -> u64 {
                (size as u64).min(<$t>::MAX as u64).min(SMALL_CAP)
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn from_choice(c: u64) -> Self {
                c as $t
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn from_wide_choice(c: u128) -> Self {
                c as $t
            }
        }
    )*};
}
small_unsigned!(u8, u16, u32, u64, u128, usize);

arbitrary_int!(
    u8: [0, 1, u8::MAX], u16: [0, 1, u16::MAX], u32: [0, 1, u32::MAX],
    u64: [0, 1, u64::MAX], u128: [0, 1, u128::MAX], usize: [0, 1, usize::MAX],
    i8: [0, 1, -1, i8::MIN, i8::MAX], i16: [0, 1, -1, i16::MIN, i16::MAX],
    i32: [0, 1, -1, i32::MIN, i32::MAX], i64: [0, 1, -1, i64::MIN, i64::MAX],
    i128: [0, 1, -1, i128::MIN, i128::MAX], isize: [0, 1, -1, isize::MIN, isize::MAX],
);

/// The kinds of float [`Arbitrary`] draws, by the first draw `k` in
/// `0..32`, simplest first (so lowering `k` moves toward readable values,
/// never toward an edge value): `0.0`, then [`FLOAT_SMALL_INT`] slots of
/// integers, [`FLOAT_UNIFORM`] slots of uniform values (rounded as
/// [`crate::gen::float`] rounds), one slot for each other edge value,
/// [`FLOAT_SUBNORMAL`] slots of subnormals, and the rest any bit pattern.
const FLOAT_KINDS: u64 = 32;
/// Slots (of 32) for integers in `±size`, as floats.
const FLOAT_SMALL_INT: u64 = 4;
/// Slots (of 32) for subnormals.
const FLOAT_SUBNORMAL: u64 = 2;
/// Slots (of 32) for a uniform value in `±(size + 1)`.
const FLOAT_UNIFORM: u64 = 10;

/// A source whose draws were charged beforehand ([`Source::charge`]):
/// each is made with [`Source::draw_charged`].
struct Charged<'a, S: ?Sized>(&'a mut S);

impl<S: Source + ?Sized> Source for Charged<'_, S> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn draw(&mut self, max: u64) -> u64 {
        self.0.draw_charged(max)
    }
}

/// Floats from a first draw `k` in `0..32` (see the `f64` impl for the rates).
fn arbitrary_float<T: FloatType, S: Source + ?Sized>(
    src: &mut S,
    size: usize,
    edges: &[T; 12],
    from_bits: impl Fn(u64) -> T,
    subnormal: impl Fn(u64) -> T,
) -> T {
    // The kind and the offset's three draws (or the three draws bounded
    // by `0` that stand for it) are always made: charged at once.
    src.charge(4);
    let k = src.draw_charged(FLOAT_KINDS - 1);
    // A number kind draws an offset in `±(size + 1)`, as `float(-b..=b)`
    // draws it; every other kind makes the same draws bounded by `0`.
    let bound = size as f64 + 1.0;
    let uniform = crate::gen::Float {
        lo: -bound,
        hi: bound,
        hi_included: true,
    };
    let small_int = 1;
    let uniform_kinds = small_int + FLOAT_SMALL_INT;
    let other_edges = uniform_kinds + FLOAT_UNIFORM;
    let subnormals = other_edges + edges.len() as u64 - 1;
    let bits = subnormals + FLOAT_SUBNORMAL;
    if (small_int..other_edges).contains(&k) {
        let mut offset = uniform.draw_offset(&mut Charged(&mut *src));
        if k < uniform_kinds {
            // The integer is the first draw after the kind, modulo the
            // integers: in value order below them, and no draw the kind
            // ignores (a shrinker could lower one forever).
            offset.whole = offset.fraction % (uniform.whole_max() + 1);
            offset.fraction = 0;
        }
        return T::from_f64(uniform.offset_value(offset));
    }
    crate::gen::skip_offset(&mut Charged(&mut *src));
    if k < small_int {
        edges[0]
    } else if k < subnormals {
        edges[(k - other_edges + 1) as usize]
    } else if k < bits {
        subnormal(src.draw(u64::MAX))
    } else {
        from_bits(src.draw(u64::MAX))
    }
}

impl Arbitrary for f64 {
    /// One draw in `0..32` picks the kind of value, the simplest kinds at
    /// the lowest choices (in the order of the table), so a shrinker that
    /// lowers choices moves toward `0.0`, integers and short fractions, not
    /// toward an edge value:
    ///
    /// | kind | rate |
    /// |---|---|
    /// | `0.0` (choice `0`) | 1/32 |
    /// | an integer in `±(size + 1)`, as a float (nearer zero at lower choices) | 4/32 = 12.5% |
    /// | a uniform value in `±(size + 1)` (with its ends and `0`; fewer digits at lower choices, as [`crate::gen::float`] draws) | 10/32 = 31.25% |
    /// | each other edge value: `-0.0`, `1.0`, `-1.0`, `MIN_POSITIVE`, `EPSILON`, `MAX`, `MIN`, `INFINITY`, `NEG_INFINITY`, `NAN`, the smallest subnormal | 1/32 each (37.5% with `0.0`) |
    /// | a subnormal (random sign and mantissa) | 2/32 = 6.25% |
    /// | any bit pattern | 4/32 = 12.5% |
    ///
    /// ```
    /// use pbt_core::{Arbitrary, Rng};
    /// let mut rng = Rng::from_seed(1);
    /// let xs: Vec<f64> = (0..1000).map(|_| f64::arbitrary(&mut rng, 10)).collect();
    /// assert!(xs.iter().any(|x| x.is_nan()) && xs.iter().any(|x| x.is_subnormal()));
    /// ```
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        const EDGES: [f64; 12] = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            f64::MIN_POSITIVE,
            f64::EPSILON,
            f64::MAX,
            f64::MIN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::from_bits(1),
        ];
        arbitrary_float(src, size, &EDGES, f64::from_bits, |r| {
            let mantissa = (r & ((1 << 52) - 1)).max(1);
            f64::from_bits((r & (1 << 63)) | mantissa)
        })
    }
}

impl Arbitrary for f32 {
    /// As `f64` (same kinds, same rates), with the `f32` edge values.
    ///
    /// ```
    /// use pbt_core::{Arbitrary, Rng};
    /// let mut rng = Rng::from_seed(1);
    /// let xs: Vec<f32> = (0..1000).map(|_| f32::arbitrary(&mut rng, 10)).collect();
    /// assert!(xs.iter().any(|x| x.is_infinite()) && xs.iter().any(|x| x.is_subnormal()));
    /// ```
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        const EDGES: [f32; 12] = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            f32::MIN_POSITIVE,
            f32::EPSILON,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::from_bits(1),
        ];
        arbitrary_float(
            src,
            size,
            &EDGES,
            |b| f32::from_bits(b as u32),
            |r| {
                let mantissa = (r as u32 & ((1 << 23) - 1)).max(1);
                f32::from_bits(((r >> 32) as u32 & (1 << 31)) | mantissa)
            },
        )
    }
}

impl Arbitrary for bool {
    #[inline]
    fn arbitrary<S: Source + ?Sized>(src: &mut S, _size: usize) -> Self {
        src.draw(1) == 1
    }
}

impl Arbitrary for char {
    /// Mostly printable ASCII (choice `0` is `'a'`), sometimes any ASCII, sometimes any char.
    fn arbitrary<S: Source + ?Sized>(src: &mut S, _size: usize) -> Self {
        match src.draw(9) {
            0..=6 => (b' ' + ((src.draw(94) as u8 + (b'a' - b' ')) % 95)) as char,
            7 => crate::gen::char('\0'..='\x7f')
                .generate(src, 0)
                .unwrap_or('a'),
            _ => crate::gen::char(..).generate(src, 0).unwrap_or('a'),
        }
    }
}

impl Arbitrary for () {
    fn arbitrary<S: Source + ?Sized>(_src: &mut S, _size: usize) -> Self {}
}

/// The length of a collection at `size`: uniform in `0..=size`. Each
/// element is a part of the draw budget ([`Source::charge_parts`]), so a
/// collection at a huge size of elements that draw nothing (`Vec<()>`)
/// still ends as "data too large".
#[inline]
fn length<S: Source + ?Sized>(src: &mut S, size: usize) -> usize {
    let n = src.draw(size as u64);
    src.charge_parts(n, 0);
    n as usize
}

impl Arbitrary for String {
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        src.start_block(BlockKind::Collection);
        let n = length(src, size);
        let s = (0..n)
            .map(|_| {
                src.start_block(BlockKind::Element);
                let c = char::arbitrary(src, size);
                src.end_block();
                c
            })
            .collect();
        src.end_block();
        s
    }
}

impl<T: Arbitrary> Arbitrary for Vec<T> {
    #[inline]
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        if let (Some(rng), Some(draws)) = (src.as_rng(), T::FIXED_DRAWS) {
            // Elements with a fixed number of draws: the length, then the
            // elements' parts and draws charged at once, and the elements
            // made without counting each (from a local copy, as below).
            let mut local = rng.clone();
            let n = local.draw(size as u64);
            local.charge_parts(n, n.saturating_mul(draws));
            let n = n as usize;
            let mut v = Vec::with_capacity(n.min(crate::gen::MAX_RESERVE));
            for _ in 0..n {
                v.push(T::arbitrary_prepaid(&mut local, size));
            }
            *rng = local;
            return v;
        }
        if let Some(rng) = src.as_rng() {
            // The elements from a copy of the generator in a local, put
            // back at the end: a local that nothing points to stays in
            // registers through the loop, where the generator behind
            // `src` is loaded and stored for every element. (A panic in
            // between leaves `src` where it was; a generator that stopped
            // is not drawn from again.)
            let mut local = rng.clone();
            let v = vec_of(&mut local, size);
            *rng = local;
            return v;
        }
        vec_of(src, size)
    }
}

/// [`Arbitrary`] for `Vec<T>` on any source.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn vec_of<T: Arbitrary, S: Source + ?Sized>(src: &mut S, size: usize) -> Vec<T> {
    src.start_block(BlockKind::Collection);
    let n = length(src, size);
    // At most `MAX_RESERVE` up front: the budget stops a huge length as
    // its elements come, before the allocator would abort.
    let mut v = Vec::with_capacity(n.min(crate::gen::MAX_RESERVE));
    for _ in 0..n {
        src.start_block(BlockKind::Element);
        v.push(T::arbitrary(src, size));
        src.end_block();
    }
    src.end_block();
    v
}

macro_rules! arbitrary_collect {
    ($($c:ident<T> $(+ $bound:path)*;)*) => {$(
        impl<T: Arbitrary $(+ $bound)*> Arbitrary for $c<T> {
            fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
                <Vec<T>>::arbitrary(src, size).into_iter().collect()
            }
        }
    )*};
}
arbitrary_collect! {
    VecDeque<T>;
    LinkedList<T>;
    BTreeSet<T> + Ord;
    BinaryHeap<T> + Ord;
    HashSet<T> + Eq + Hash;
}

impl<K: Arbitrary + Ord, V: Arbitrary> Arbitrary for BTreeMap<K, V> {
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        <Vec<(K, V)>>::arbitrary(src, size).into_iter().collect()
    }
}

impl<K: Arbitrary + Eq + Hash, V: Arbitrary> Arbitrary for HashMap<K, V> {
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        <Vec<(K, V)>>::arbitrary(src, size).into_iter().collect()
    }
}

impl<T: Arbitrary> Arbitrary for Option<T> {
    /// `None` a quarter of the time (choice `0`).
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        (src.draw(3) != 0).then(|| T::arbitrary(src, size))
    }
}

impl<T: Arbitrary, E: Arbitrary> Arbitrary for Result<T, E> {
    /// `Ok` (choice `0`) three quarters of the time.
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        if src.draw(3) == 3 {
            Err(E::arbitrary(src, size))
        } else {
            Ok(T::arbitrary(src, size))
        }
    }
}

macro_rules! arbitrary_wrapper {
    ($($w:ident),*) => {$(
        impl<T: Arbitrary> Arbitrary for $w<T> {
            fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
                $w::new(T::arbitrary(src, size))
            }
        }
    )*};
}
arbitrary_wrapper!(Box, Rc, Arc);

macro_rules! arbitrary_tuple {
    ($($t:ident),+) => {
        impl<$($t: Arbitrary),+> Arbitrary for ($($t,)+) {
            #[inline]
            fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
                ($($t::arbitrary(src, size),)+)
            }
        }
    };
}
arbitrary_tuple!(A);
arbitrary_tuple!(A, B);
arbitrary_tuple!(A, B, C);
arbitrary_tuple!(A, B, C, D);
arbitrary_tuple!(A, B, C, D, E);
arbitrary_tuple!(A, B, C, D, E, F);
arbitrary_tuple!(A, B, C, D, E, F, G);
arbitrary_tuple!(A, B, C, D, E, F, G, H);

impl<T: Arbitrary, const N: usize> Arbitrary for [T; N] {
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        std::array::from_fn(|_| T::arbitrary(src, size))
    }
}

impl Arbitrary for std::time::Duration {
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        std::time::Duration::new(
            u64::arbitrary(src, size) % 1_000_000,
            src.draw(999_999_999) as u32,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::SmallInt;

    /// The zigzag as it was written before it was made branch-free.
    fn old_i64(c: u64) -> i64 {
        let mag = (c >> 1).wrapping_add(c & 1) as i64;
        if c & 1 == 1 {
            mag
        } else {
            mag.wrapping_neg()
        }
    }

    #[test]
    fn signed_choices_map_to_the_same_values_as_before() {
        let mut rng = crate::Rng::from_seed(11);
        let mut choices: Vec<u64> = (0..1_000).chain([u64::MAX, u64::MAX - 1]).collect();
        choices.extend((0..10_000).map(|_| crate::Source::draw(&mut rng, u64::MAX)));
        for c in choices {
            assert_eq!(i64::from_choice(c), old_i64(c), "choice {c}");
            assert_eq!(isize::from_choice(c) as i64, old_i64(c), "choice {c}");
            let c32 = c as u32 as u64;
            assert_eq!(i64::from(i32::from_choice(c)), old_i64(c32) as i32 as i64);
            let c8 = c as u8 as u64;
            assert_eq!(i64::from(i8::from_choice(c)), old_i64(c8) as i8 as i64);
            let wide = (u128::from(c) << 64) | u128::from(c.rotate_left(7));
            let mag = (wide >> 1).wrapping_add(wide & 1) as i128;
            let old = if wide & 1 == 1 {
                mag
            } else {
                mag.wrapping_neg()
            };
            assert_eq!(i128::from_wide_choice(wide), old, "choice {wide}");
        }
    }
}

//! Integers over any range of any integer type, and booleans.
//!
//! A range `lo..=hi` is one draw in `0..=hi-lo` (Lemire's method, no modulo
//! bias). The draw is mapped so that choice `0` is the value closest to zero:
//! ranges on one side of zero count outward from the end nearest zero, and
//! ranges containing zero interleave `0, 1, -1, 2, -2, …` until one side runs
//! out. The mapping is a bijection, so values stay uniform.

use super::{Gen, Generated};
use crate::source::Source;
use std::ops::{Bound, RangeBounds};

/// Integer types that [`int`] can generate: every primitive integer.
pub trait IntType: Copy + Ord + std::fmt::Debug + 'static {
    /// The smallest value.
    const MIN: Self;
    /// The largest value.
    const MAX: Self;
    /// `self + 1`, or `None` on overflow.
    fn succ(self) -> Option<Self>;
    /// `self - 1`, or `None` on overflow.
    fn pred(self) -> Option<Self>;
    /// The value for choice `c` in `lo..=hi` (see the module docs), drawing
    /// from `src`.
    fn draw_in<S: Source + ?Sized>(src: &mut S, lo: Self, hi: Self) -> Self;
}

/// Inclusive bounds of `range`, panicking with a clear message when it is empty.
fn bounds<T: IntType>(range: impl RangeBounds<T>) -> (T, T) {
    let lo = match range.start_bound() {
        Bound::Included(&x) => Some(x),
        Bound::Excluded(&x) => x.succ(),
        Bound::Unbounded => Some(T::MIN),
    };
    let hi = match range.end_bound() {
        Bound::Included(&x) => Some(x),
        Bound::Excluded(&x) => x.pred(),
        Bound::Unbounded => Some(T::MAX),
    };
    match (lo, hi) {
        (Some(lo), Some(hi)) if lo <= hi => (lo, hi),
        _ => panic!(
            "pbt: int(range) needs a non-empty range, got {:?}..{:?}",
            range.start_bound(),
            range.end_bound()
        ),
    }
}

/// Integers in `range`, for every integer type and every kind of range.
///
/// ```
/// use pbt_core::{gen::{int, Gen}, Rng};
/// let mut rng = Rng::from_seed(9);
/// for _ in 0..100 {
///     let x = int(-3..3i8).generate(&mut rng, 0).unwrap();
///     assert!((-3..3).contains(&x));
/// }
/// let _any: u128 = int(..).generate(&mut rng, 0).unwrap();
/// ```
///
/// # Panics
/// When the range is empty (e.g. `5..5`).
#[inline]
pub fn int<T: IntType>(range: impl RangeBounds<T>) -> Int<T> {
    let (lo, hi) = bounds(range);
    Int { lo, hi }
}

/// See [`int`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Int<T> {
    /// Smallest value (inclusive).
    pub lo: T,
    /// Largest value (inclusive).
    pub hi: T,
}

impl<T: IntType> Gen for Int<T> {
    type Value = T;
    #[inline(always)]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, _size: usize) -> Generated<T> {
        Ok(T::draw_in(src, self.lo, self.hi))
    }
}

/// Magnitude-to-value mapping shared by the signed types: `c` in `0..=span`
/// to an offset from zero, simplest first.
#[inline(always)]
fn zigzag(c: u64, neg: u64, pos: u64) -> (bool, u64) {
    let m = neg.min(pos);
    if c <= 2 * m {
        if c % 2 == 1 {
            (false, c.div_ceil(2))
        } else {
            (true, c / 2)
        }
    } else {
        let r = c - 2 * m;
        (pos <= m, m + r)
    }
}

macro_rules! unsigned {
    ($($t:ty),*) => {$(
        impl IntType for $t {
            const MIN: Self = <$t>::MIN;
            const MAX: Self = <$t>::MAX;
            fn succ(self) -> Option<Self> { self.checked_add(1) }
            fn pred(self) -> Option<Self> { self.checked_sub(1) }
            #[inline(always)]
            fn draw_in<S: Source + ?Sized>(src: &mut S, lo: Self, hi: Self) -> Self {
                lo + src.draw((hi - lo) as u64) as $t
            }
        }
    )*};
}
unsigned!(u8, u16, u32, u64, usize);

macro_rules! signed {
    ($($t:ty => $u:ty),*) => {$(
        impl IntType for $t {
            const MIN: Self = <$t>::MIN;
            const MAX: Self = <$t>::MAX;
            fn succ(self) -> Option<Self> { self.checked_add(1) }
            fn pred(self) -> Option<Self> { self.checked_sub(1) }
            #[inline(always)]
            fn draw_in<S: Source + ?Sized>(src: &mut S, lo: Self, hi: Self) -> Self {
                let c = src.draw((hi as $u).wrapping_sub(lo as $u) as u64);
                if lo >= 0 {
                    lo.wrapping_add(c as $t)
                } else if hi <= 0 {
                    hi.wrapping_sub(c as $t)
                } else {
                    let neg = (lo as $u).wrapping_neg() as u64;
                    let (negative, mag) = zigzag(c, neg, hi as u64);
                    if negative { (mag as $t).wrapping_neg() } else { mag as $t }
                }
            }
        }
    )*};
}
signed!(i8 => u8, i16 => u16, i32 => u32, i64 => u64, isize => usize);

/// A uniform `u128` in `0..=max` from 64-bit draws: the high half first,
/// then the low half, rejecting the rare overshoot.
fn draw_u128<S: Source + ?Sized>(src: &mut S, max: u128) -> u128 {
    let hi_max = (max >> 64) as u64;
    if hi_max == 0 {
        return u128::from(src.draw(max as u64));
    }
    for _ in 0..64 {
        let hi = src.draw(hi_max);
        let lo = src.draw(u64::MAX);
        let v = (u128::from(hi) << 64) | u128::from(lo);
        if v <= max {
            return v;
        }
    }
    max >> 1
}

impl IntType for u128 {
    const MIN: Self = u128::MIN;
    const MAX: Self = u128::MAX;
    fn succ(self) -> Option<Self> {
        self.checked_add(1)
    }
    fn pred(self) -> Option<Self> {
        self.checked_sub(1)
    }
    fn draw_in<S: Source + ?Sized>(src: &mut S, lo: Self, hi: Self) -> Self {
        lo + draw_u128(src, hi - lo)
    }
}

impl IntType for i128 {
    const MIN: Self = i128::MIN;
    const MAX: Self = i128::MAX;
    fn succ(self) -> Option<Self> {
        self.checked_add(1)
    }
    fn pred(self) -> Option<Self> {
        self.checked_sub(1)
    }
    fn draw_in<S: Source + ?Sized>(src: &mut S, lo: Self, hi: Self) -> Self {
        let c = draw_u128(src, (hi as u128).wrapping_sub(lo as u128));
        if lo >= 0 {
            lo.wrapping_add(c as i128)
        } else if hi <= 0 {
            hi.wrapping_sub(c as i128)
        } else {
            let neg = (lo as u128).wrapping_neg();
            let pos = hi as u128;
            let m = neg.min(pos);
            let (negative, mag) = if c <= 2 * m {
                (c % 2 == 0, c.div_ceil(2))
            } else {
                (pos <= m, m + (c - 2 * m))
            };
            if negative {
                (mag as i128).wrapping_neg()
            } else {
                mag as i128
            }
        }
    }
}

/// Fair booleans; choice `0` is `false`.
#[inline]
pub fn bool() -> Bool {
    Bool
}

/// See [`bool()`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Bool;

impl Gen for Bool {
    type Value = bool;
    #[inline(always)]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, _size: usize) -> Generated<bool> {
        Ok(src.draw(1) == 1)
    }
}

/// Resolution of probabilities: one draw in `0..2^53`.
pub const UNIT: u64 = 1 << 53;

/// The threshold below which a unit draw counts as "with probability `p`".
#[inline(always)]
pub fn threshold(p: f64) -> u64 {
    (p.clamp(0.0, 1.0) * UNIT as f64) as u64
}

/// `true` with probability `p` (clamped into `0..=1`); choice `0` is `false`
/// unless `p == 1`.
///
/// ```
/// use pbt_core::{gen::{weighted_bool, Gen}, Rng};
/// assert!(!weighted_bool(0.0).generate(&mut Rng::from_seed(1), 0).unwrap());
/// ```
#[inline]
pub fn weighted_bool(p: f64) -> WeightedBool {
    WeightedBool(p)
}

/// See [`weighted_bool`].
#[derive(Clone, Copy, Debug)]
pub struct WeightedBool(pub f64);

impl Gen for WeightedBool {
    type Value = bool;
    #[inline(always)]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, _size: usize) -> Generated<bool> {
        Ok(src.draw(UNIT - 1) >= UNIT - threshold(self.0))
    }
}

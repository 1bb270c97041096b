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
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, _size: usize) -> Generated<T> {
        Ok(T::draw_in(src, self.lo, self.hi))
    }
}

/// The value of choice `c` in a range holding `neg` negative and `pos`
/// positive values (`c` in `0..=neg + pos`), as the two's-complement bits of
/// a 64-bit integer (truncated by the caller to its type): `0, 1, -1, 2, -2,
/// …` while both sides last, then outward on the longer side.
///
/// Branch-free: `c` is random, so a branch on its parity (or on whether it
/// is past the interleaved part) would be mispredicted half the time. `min`
/// and comparisons compile to conditional moves, and the sign is applied
/// with a mask.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn zigzag(c: u64, neg: u64, pos: u64) -> u64 {
    let m = neg.min(pos);
    // Position within the interleaved part (`2 * m` fits: one side of a
    // 64-bit range holds at most `2^63` values, the other fewer).
    let z = c.min(2 * m);
    // How far past it, on the longer side.
    let tail = c - z;
    let magnitude = (z >> 1) + (z & 1) + tail;
    // Interleaved: even choices are negative. Past it (`z = 2m`, even), the
    // value is negative unless the positive side is the longer one.
    let negative = ((z & 1) ^ 1) ^ (u64::from(tail != 0) & u64::from(pos > m));
    let mask = negative.wrapping_neg();
    (magnitude ^ mask).wrapping_sub(mask)
}

macro_rules! unsigned {
    ($($t:ty),*) => {$(
        impl IntType for $t {
            const MIN: Self = <$t>::MIN;
            const MAX: Self = <$t>::MAX;
            fn succ(self) -> Option<Self> { self.checked_add(1) }
            fn pred(self) -> Option<Self> { self.checked_sub(1) }
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
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
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn draw_in<S: Source + ?Sized>(src: &mut S, lo: Self, hi: Self) -> Self {
                let c = src.draw((hi as $u).wrapping_sub(lo as $u) as u64);
                if lo >= 0 {
                    lo.wrapping_add(c as $t)
                } else if hi <= 0 {
                    hi.wrapping_sub(c as $t)
                } else {
                    zigzag(c, (lo as $u).wrapping_neg() as u64, hi as u64) as $t
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
            zigzag128(c, (lo as u128).wrapping_neg(), hi as u128) as i128
        }
    }
}

/// [`zigzag`] for 128-bit ranges.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn zigzag128(c: u128, neg: u128, pos: u128) -> u128 {
    let m = neg.min(pos);
    let z = c.min(2 * m);
    let tail = c - z;
    let magnitude = (z >> 1) + (z & 1) + tail;
    let negative = ((z & 1) ^ 1) ^ (u128::from(tail != 0) & u128::from(pos > m));
    let mask = negative.wrapping_neg();
    (magnitude ^ mask).wrapping_sub(mask)
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
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, _size: usize) -> Generated<bool> {
        Ok(src.draw(1) == 1)
    }
}

/// Resolution of probabilities: one draw in `0..2^53`.
pub const UNIT: u64 = 1 << 53;

/// The threshold below which a unit draw counts as "with probability `p`".
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
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
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, _size: usize) -> Generated<bool> {
        Ok(src.draw(UNIT - 1) >= UNIT - threshold(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choices::Replay;

    /// The mapping as it was written before it was made branch-free: the
    /// reference the branch-free one must agree with on every input.
    fn zigzag_branchy(c: u64, neg: u64, pos: u64) -> (bool, u64) {
        let m = neg.min(pos);
        if c <= 2 * m {
            if c % 2 == 1 {
                (false, c.div_ceil(2))
            } else {
                (true, c / 2)
            }
        } else {
            (pos <= m, m + (c - 2 * m))
        }
    }

    /// The value the old `draw_in` gave for choice `c` in `lo..=hi`.
    fn old_i64(c: u64, lo: i64, hi: i64) -> i64 {
        if lo >= 0 {
            lo.wrapping_add(c as i64)
        } else if hi <= 0 {
            hi.wrapping_sub(c as i64)
        } else {
            let (negative, mag) = zigzag_branchy(c, (lo as u64).wrapping_neg(), hi as u64);
            if negative {
                (mag as i64).wrapping_neg()
            } else {
                mag as i64
            }
        }
    }

    fn new_i64(c: u64, lo: i64, hi: i64) -> i64 {
        i64::draw_in(&mut Replay::new(&[c]), lo, hi)
    }

    #[test]
    fn every_i8_range_and_choice_maps_as_before() {
        for lo in i8::MIN..=i8::MAX {
            for hi in lo..=i8::MAX {
                let span = (hi as u8).wrapping_sub(lo as u8) as u64;
                for c in 0..=span {
                    let old = old_i64(c, lo.into(), hi.into());
                    let new = i8::draw_in(&mut Replay::new(&[c]), lo, hi);
                    assert_eq!(i64::from(new), old, "choice {c} in {lo}..={hi}");
                }
            }
        }
    }

    #[test]
    fn wide_ranges_map_as_before() {
        // Ranges around zero, lopsided either way, the full range, and
        // choices at both ends of each, at the turn from interleaving to
        // one side, and spread between.
        let ranges = [
            (i64::MIN, i64::MAX),
            (i64::MIN + 1, i64::MAX),
            (i64::MIN, 0),
            (-1, i64::MAX),
            (i64::MIN, 1),
            (-1_000_000, 999_999),
            (-3, 1_000_000_000_000),
            (-1_000_000_000_000, 3),
            (-5, 5),
            (0, i64::MAX),
            (i64::MIN, -1),
        ];
        let mut rng = crate::Rng::from_seed(17);
        for (lo, hi) in ranges {
            let span = (hi as u64).wrapping_sub(lo as u64);
            let m = ((lo as u64).wrapping_neg()).min(hi as u64);
            let turn = m.saturating_mul(2);
            let mut choices = vec![0, 1, 2, 3, span, span - 1, span / 2];
            for d in 0..3 {
                choices.push(turn.saturating_sub(d).min(span));
                choices.push(turn.saturating_add(d).min(span));
            }
            for _ in 0..10_000 {
                choices.push(rng.draw(span));
            }
            for c in choices {
                assert_eq!(
                    new_i64(c, lo, hi),
                    old_i64(c, lo, hi),
                    "choice {c} in {lo}..={hi}"
                );
            }
        }
    }

    #[test]
    fn every_type_maps_the_full_range_as_before() {
        let mut rng = crate::Rng::from_seed(5);
        for _ in 0..10_000 {
            let c = rng.draw(u64::MAX);
            let c32 = c as u32 as u64;
            let c16 = c as u16 as u64;
            assert_eq!(
                i64::from(i32::draw_in(&mut Replay::new(&[c32]), i32::MIN, i32::MAX)),
                old_i64(c32, i32::MIN.into(), i32::MAX.into())
            );
            assert_eq!(
                i64::from(i16::draw_in(&mut Replay::new(&[c16]), i16::MIN, i16::MAX)),
                old_i64(c16, i16::MIN.into(), i16::MAX.into())
            );
            assert_eq!(
                isize::draw_in(&mut Replay::new(&[c]), isize::MIN, isize::MAX) as i64,
                old_i64(c, isize::MIN as i64, isize::MAX as i64)
            );
        }
    }

    #[test]
    fn i128_ranges_map_as_before() {
        fn old(c: u128, lo: i128, hi: i128) -> i128 {
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
        let ranges = [
            (i128::MIN, i128::MAX),
            (-7, 1 << 100),
            (-(1 << 100), 7),
            (-1_000, 999),
        ];
        let mut rng = crate::Rng::from_seed(3);
        for (lo, hi) in ranges {
            let span = (hi as u128).wrapping_sub(lo as u128);
            let mut choices = vec![0, 1, 2, span, span - 1, span / 2];
            for _ in 0..2_000 {
                let c = (u128::from(rng.draw(u64::MAX)) << 64) | u128::from(rng.draw(u64::MAX));
                choices.push(c % span.saturating_add(1).max(1));
            }
            for c in choices {
                let new = zigzag128(c, (lo as u128).wrapping_neg(), hi as u128) as i128;
                assert_eq!(new, old(c, lo, hi), "choice {c} in {lo}..={hi}");
            }
        }
    }
}

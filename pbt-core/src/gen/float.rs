//! Floating-point numbers in a range, with the range's edge values.
//!
//! One draw in `0..=19` picks the kind: `0` the simplest value (zero when the
//! range holds it, else the end nearest zero), `1` the low end, `2` the high
//! end (when included), anything else a uniform value from a second draw of
//! 53 bits. Edge values therefore come up 15% of the time.

use super::int::UNIT;
use super::{Gen, Generated};
use crate::source::Source;
use std::ops::{Bound, RangeBounds};

/// `f32` and `f64`.
pub trait FloatType: Copy + PartialOrd + std::fmt::Debug + 'static {
    /// Zero.
    const ZERO: Self;
    /// Lossy conversion from `f64`.
    fn from_f64(x: f64) -> Self;
    /// Lossless conversion to `f64`.
    fn to_f64(self) -> f64;
}

impl FloatType for f64 {
    const ZERO: Self = 0.0;
    fn from_f64(x: f64) -> Self {
        x
    }
    fn to_f64(self) -> f64 {
        self
    }
}

impl FloatType for f32 {
    const ZERO: Self = 0.0;
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

/// Floats in `range` (which must be bounded and non-empty, with finite ends).
///
/// ```
/// use pbt_core::{gen::{float, Gen}, Rng};
/// let mut rng = Rng::from_seed(2);
/// for _ in 0..100 {
///     let x = float(-1.0..1.0f64).generate(&mut rng, 0).unwrap();
///     assert!((-1.0..1.0).contains(&x));
/// }
/// ```
///
/// # Panics
/// When the range is unbounded, empty, or has a non-finite end.
pub fn float<T: FloatType>(range: impl RangeBounds<T>) -> Float<T> {
    let (lo, hi, hi_included) = match (range.start_bound(), range.end_bound()) {
        (Bound::Included(&lo), Bound::Included(&hi)) => (lo, hi, true),
        (Bound::Included(&lo), Bound::Excluded(&hi)) => (lo, hi, false),
        _ => panic!("pbt: float(range) needs a range `lo..hi` or `lo..=hi`"),
    };
    let (l, h) = (lo.to_f64(), hi.to_f64());
    assert!(
        l.is_finite() && h.is_finite() && (l < h || (hi_included && l == h)),
        "pbt: float(range) needs finite ends and a non-empty range, got {lo:?}..{hi:?}"
    );
    Float {
        lo,
        hi,
        hi_included,
    }
}

/// See [`float`].
#[derive(Clone, Copy, Debug)]
pub struct Float<T> {
    /// Low end (inclusive).
    pub lo: T,
    /// High end.
    pub hi: T,
    /// Whether `hi` itself may be generated.
    pub hi_included: bool,
}

impl<T: FloatType> Float<T> {
    #[inline]
    fn contains(&self, x: T) -> bool {
        x >= self.lo && (x < self.hi || (self.hi_included && x == self.hi))
    }

    #[inline]
    fn simplest(&self) -> T {
        if self.contains(T::ZERO) {
            T::ZERO
        } else if self.lo > T::ZERO {
            self.lo
        } else {
            self.hi
        }
    }
}

impl<T: FloatType> Gen for Float<T> {
    type Value = T;
    #[inline]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, _size: usize) -> Generated<T> {
        let v = match src.draw(19) {
            0 => self.simplest(),
            1 => self.lo,
            2 if self.hi_included => self.hi,
            _ => {
                let u = src.draw(UNIT - 1) as f64 / UNIT as f64;
                let (lo, hi) = (self.lo.to_f64(), self.hi.to_f64());
                T::from_f64(lo + u * (hi - lo))
            }
        };
        Ok(if self.contains(v) { v } else { self.lo })
    }
}

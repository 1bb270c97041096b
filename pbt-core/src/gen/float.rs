//! Floating-point numbers in a range, with the range's edge values, in a
//! choice encoding where smaller choices are simpler values.
//!
//! Every value takes four draws (the last three bounded by `0`, so always
//! `0`, for a kind that ignores them):
//!
//! 1. the kind, in `0..=19`: `0` the simplest value (zero when the range
//!    holds it, else the end nearest zero), `18` the low end, `19` the high
//!    end (when included), anything else an offset from the simplest value
//!    (so edge values come up 15% of the time, and lowering the kind never
//!    moves toward a range's bottom for its own sake);
//! 2. the fraction of the offset, 53 bits with their order reversed
//!    (Hypothesis's encoding): choices below `2^k` are the fractions of at
//!    most `k` binary digits, so `0` is an integer, `1` is `.5`, `2` and
//!    `3` are `.25` and `.75`, …;
//! 3. the whole part of the offset;
//! 4. the side of the simplest value, in `0..2^53`: low choices above it,
//!    high ones below, in proportion to the range on each side.
//!
//! The offset is uniform over the side's extent (the whole part is drawn
//! below the wider side's extent; one past the narrower side's end spreads
//! the fraction over that side, which keeps it uniform). The
//! fraction comes before the whole part, so a shrinker that lowers choices
//! moves toward the simplest value, then to integers, then to fewer digits:
//! `x > 1.5` ends at `2.0`, `x.abs() > 1e3` at `1001.0`. Ranges wider than
//! `2^53` count their offsets in units of a power of two (the integers
//! there are multiples of it).

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
    /// The next float toward negative infinity (of a finite `self`).
    fn next_down(self) -> Self;
}

impl FloatType for f64 {
    const ZERO: Self = 0.0;
    fn from_f64(x: f64) -> Self {
        x
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn next_down(self) -> Self {
        match self {
            0.0 => -f64::from_bits(1),
            x if x > 0.0 => f64::from_bits(x.to_bits() - 1),
            x => f64::from_bits(x.to_bits() + 1),
        }
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
    fn next_down(self) -> Self {
        match self {
            0.0 => -f32::from_bits(1),
            x if x > 0.0 => f32::from_bits(x.to_bits() - 1),
            x => f32::from_bits(x.to_bits() + 1),
        }
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

    /// The value in range nearest zero: zero, or an end (the float just
    /// below an excluded high end).
    #[inline]
    fn simplest(&self) -> T {
        if self.contains(T::ZERO) {
            T::ZERO
        } else if self.lo > T::ZERO {
            self.lo
        } else if self.hi_included {
            self.hi
        } else {
            let below = self.hi.next_down();
            if self.contains(below) {
                below
            } else {
                self.lo
            }
        }
    }
}

/// Draws of the kind (see the module documentation).
const KINDS: u64 = 20;
/// The kind of the low end.
const KIND_LO: u64 = 18;
/// The kind of the high end.
const KIND_HI: u64 = 19;
/// Binary digits of an offset's fraction.
const FRACTION_BITS: u32 = 53;

/// An offset from the simplest value, as drawn (see the module
/// documentation).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Offset {
    /// The fraction's choice: its 53 binary digits, last first.
    pub(crate) fraction: u64,
    /// The whole part, in units.
    pub(crate) whole: u64,
    /// Below [`UNIT`] times the share of the range above the simplest
    /// value: above it.
    pub(crate) side: u64,
}

/// The fraction in `[0, 1)` a choice below `2^53` encodes: its 53 bits
/// reversed, so fewer digits take smaller choices.
#[inline]
fn fraction_of(choice: u64) -> f64 {
    let bits = choice.reverse_bits() >> (64 - FRACTION_BITS);
    bits as f64 / UNIT as f64
}

/// The draws of an offset, for a kind without one: all `0`.
#[inline]
pub(crate) fn skip_offset<S: Source + ?Sized>(src: &mut S) {
    for _ in 0..3 {
        src.draw(0);
    }
}

/// `x.ceil() as u64`, without the call into the C library that `ceil`
/// is on x86-64's baseline (no SSE4.1 rounding instruction): the
/// truncation, plus one when it is below `x`. The same for every `x`
/// (negative, NaN, past `u64::MAX`).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn ceil_u64(x: f64) -> u64 {
    let t = x as u64;
    t.saturating_add(u64::from((t as f64) < x))
}

/// The unit offsets are counted in: `1`, or for an extent past `2^53` the
/// power of two that brings it under `2^53`.
#[inline]
fn unit_of(extent: f64) -> f64 {
    let mut unit = 1.0;
    while extent / unit > UNIT as f64 {
        unit *= 2.0;
    }
    unit
}

impl<T: FloatType> Float<T> {
    /// Where offsets start: zero when the range holds it, else the end
    /// nearest zero (an excluded high end too: its offset `0` falls back to
    /// [`Float::simplest`], and the others are as round as inside).
    #[inline]
    fn anchor(&self) -> f64 {
        if self.contains(T::ZERO) {
            0.0
        } else if self.lo > T::ZERO {
            self.lo.to_f64()
        } else {
            self.hi.to_f64()
        }
    }

    /// The extent of the range above and below the anchor.
    #[inline]
    fn extents(&self, anchor: f64) -> (f64, f64) {
        (self.hi.to_f64() - anchor, anchor - self.lo.to_f64())
    }

    /// The largest whole part drawn: below the wider side's extent (in
    /// units), so an integer extent (`±(size + 1)`, say) never needs the
    /// fallback past the end.
    #[inline]
    pub(crate) fn whole_max(&self) -> u64 {
        let (up, down) = self.extents(self.anchor());
        let extent = up.max(down);
        ceil_u64(extent / unit_of(extent)).saturating_sub(1)
    }

    /// Draw an offset (draws 2 to 4 of the module documentation): the
    /// kinds that have one.
    ///
    /// The other kinds make the same draws with bound `0` ([`skip_offset`]):
    /// the sequence keeps its length whatever the kind, and a draw a value
    /// ignores is always `0` (a shrinker could otherwise lower an ignored
    /// choice one step at a time, the value never changing).
    #[inline]
    pub(crate) fn draw_offset<S: Source + ?Sized>(&self, src: &mut S) -> Offset {
        let fraction = src.draw(UNIT - 1);
        let whole = src.draw(self.whole_max());
        let side = src.draw(UNIT - 1);
        Offset {
            fraction,
            whole,
            side,
        }
    }

    /// The value of a drawn offset (in range).
    pub(crate) fn offset_value(&self, offset: Offset) -> T {
        let anchor = self.anchor();
        let (up, down) = self.extents(anchor);
        let above =
            down <= 0.0 || (up > 0.0 && (offset.side as f64) < up / (up + down) * UNIT as f64);
        let extent = if above { up } else { down };
        let unit = unit_of(extent);
        let span = extent / unit;
        let fraction = fraction_of(offset.fraction);
        // Past the side's end (the whole part is drawn for the wider side),
        // the fraction spreads over the side: uniform either way.
        let whole = offset.whole as f64;
        let distance = if whole + fraction <= span {
            whole + fraction
        } else {
            span * fraction
        };
        let distance = distance * unit;
        let v = T::from_f64(if above {
            anchor + distance
        } else {
            anchor - distance
        });
        if self.contains(v) {
            v
        } else {
            self.simplest()
        }
    }
}

impl<T: FloatType> Gen for Float<T> {
    type Value = T;
    #[inline]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, _size: usize) -> Generated<T> {
        let kind = src.draw(KINDS - 1);
        let v = match kind {
            0 => self.simplest(),
            KIND_LO => self.lo,
            KIND_HI if self.hi_included => self.hi,
            _ => return Ok(self.offset_value(self.draw_offset(src))),
        };
        skip_offset(src);
        Ok(if self.contains(v) { v } else { self.simplest() })
    }
}

#[cfg(test)]
mod tests {
    use super::ceil_u64;

    #[test]
    fn ceil_without_the_library_call_is_ceil() {
        let mut xs = vec![
            0.0,
            -0.0,
            0.5,
            1.0,
            1.5,
            -0.5,
            -1.0,
            -7.25,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
            f64::EPSILON,
            f64::MAX,
            (1u64 << 53) as f64,
            (1u64 << 53) as f64 - 0.5,
            (1u64 << 63) as f64,
            u64::MAX as f64,
            u64::MAX as f64 * 2.0,
        ];
        let mut rng = crate::Rng::from_seed(3);
        for _ in 0..100_000 {
            let bits = crate::Source::draw(&mut rng, u64::MAX);
            xs.push(f64::from_bits(bits));
            xs.push((bits >> 11) as f64 / (1 + (bits & 0xff)) as f64);
        }
        for x in xs {
            assert_eq!(ceil_u64(x), x.ceil() as u64, "{x:e}");
        }
    }
}

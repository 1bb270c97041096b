//! [`Shrink`] for `f32` and `f64`: toward `0.0`, then integers, then fewer
//! binary digits after the point.
//!
//! The measure every candidate lowers, compared in order:
//!
//! 1. the class: finite, then infinite, then NaN;
//! 2. the binary digits after the point (`0` for integers, `1` for `2.5`,
//!    `2` for `0.75`, …);
//! 3. the magnitude;
//! 4. the sign: positive before negative (`0.0` before `-0.0`).
//!
//! Floats are finitely many, so any strictly decreasing chain ends:
//! repeated shrinking terminates. Candidates, simplest first: `0.0`; for
//! non-finite values `MAX`/`MIN`; the positive twin; the integers toward
//! and away from zero next to a fraction, then the integer with the
//! fraction's significand (`x · 2^digits`: a failure that depends on the
//! significand, a rounding tie, keeps failing there); for an integer,
//! integers halving the distance to zero (a binary search for the boundary
//! of the failure), then the integer with one of its bits cleared, then
//! integers of each smaller bit length made of its bits (see
//! [`smaller_integers`]); then the value rounded toward and away from zero
//! to fewer digits.
//!
//! The last two are what the integer passes of the choice shrinker do for
//! wide integers: a failure whose region is sparse (an integer must be a
//! rounding tie of some narrower type) has no boundary to bisect, so the
//! search tries values of each smaller magnitude, then clears the bits the
//! failure does not need.

use super::choices::{of_length, tries};
use super::{Candidates, Shrink};

/// A float's measure (see the module documentation), for tests and for
/// the filter that keeps every candidate strictly simpler.
///
/// ```
/// use pbt_core::shrink::float_measure;
/// assert!(float_measure(2.0) < float_measure(1.5));
/// assert!(float_measure(1.5) < float_measure(-1.5));
/// assert!(float_measure(1e300) < float_measure(f64::INFINITY));
/// assert!(float_measure(0.0) < float_measure(-0.0));
/// ```
pub fn float_measure(x: f64) -> (u8, u32, u64, bool) {
    let class = if x.is_nan() {
        2
    } else if x.is_infinite() {
        1
    } else {
        0
    };
    let magnitude = if x.is_nan() { 0 } else { x.abs().to_bits() };
    (class, fraction_digits(x), magnitude, x.is_sign_negative())
}

/// Binary digits after the point of a finite `x` (`0` for integers and
/// non-finite values).
fn fraction_digits(x: f64) -> u32 {
    if !x.is_finite() || x == 0.0 {
        return 0;
    }
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    let mantissa = bits & ((1 << 52) - 1);
    // x = m * 2^e with m an integer.
    let (m, e) = if exponent == 0 {
        (mantissa, -1074)
    } else {
        (mantissa | (1 << 52), exponent - 1075)
    };
    let e = e + m.trailing_zeros() as i32;
    (-e).max(0) as u32
}

/// `x * 2^p` for `p` in `0..=1074` (in two steps, so `2^p` never
/// overflows; exact, as scaling by powers of two is while in range).
fn scale(x: f64, p: u32) -> f64 {
    let half = p / 2;
    x * 2f64.powi(half as i32) * 2f64.powi((p - half) as i32)
}

/// `x` (with more than `p` digits after the point) rounded to `p` digits,
/// toward zero and away from it.
fn rounded(x: f64, p: u32) -> [f64; 2] {
    let scaled = scale(x, p);
    let back = |y: f64| y / 2f64.powi((p - p / 2) as i32) / 2f64.powi((p / 2) as i32);
    [back(scaled.trunc()), back(scaled.trunc() + scaled.signum())]
}

/// A finite, non-zero integer `x` as `m · 2^e` with `m` its 53-bit
/// significand (top bit set) and `e` its scale (`e` may be negative; `m`
/// then has at least `-e` trailing zeros).
fn significand(x: f64) -> (u64, i32) {
    let bits = x.abs().to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    ((bits & ((1 << 52) - 1)) | (1 << 52), exponent - 1075)
}

/// `m · 2^e` with the sign of `like` (exact: `m` has at most 53 bits; and
/// `e` is at most 971, so `2^e` is finite).
fn integer(m: u64, e: i32, like: f64) -> f64 {
    let magnitude = if e >= 0 {
        m as f64 * 2f64.powi(e)
    } else {
        (m >> -e) as f64
    };
    magnitude.copysign(like)
}

/// The integer `x` with one of its bits below the top cleared, the highest
/// first (a smaller magnitude with the same bit length; at most 52).
fn cleared_bits(x: f64) -> impl Iterator<Item = f64> {
    let (m, e) = significand(x);
    (0..52)
        .rev()
        .filter(move |&j| m & (1 << j) != 0 && j + e >= 0)
        .map(move |j| integer(m & !(1 << j), e, x))
}

/// Integers of each bit length below the integer `x`'s own, from 1 bit up,
/// made of `x`'s significand as the choice shrinker's magnitude pass makes
/// a wide integer's values ([`of_length`]; more of the length one bit
/// below); a length above 53 bits keeps a 53-bit significand. Above 64
/// bits only every 16th length is tried (and the one just below), so an
/// integer near `MAX` costs at most about 1 000 candidates.
fn smaller_integers(x: f64) -> impl Iterator<Item = f64> {
    let (m, e) = significand(x);
    let len = (53 + e) as u32;
    (1..len)
        .filter(move |&bits| bits <= 64 || bits % 16 == 0 || bits + 1 == len)
        .flat_map(move |bits| {
            let width = bits.min(53);
            of_length(u128::from(m), 53, width, tries(bits, len))
                .map(move |v| integer(v as u64, (bits - width) as i32, x))
        })
}

/// The candidates for a finite, non-zero `x`, in the order tried (not yet
/// filtered to strictly simpler ones). Lazy: the shrinker takes the first
/// that fails, and an integer's smaller ones are hundreds.
fn finite_candidates(x: f64) -> impl Iterator<Item = f64> {
    let mut head = vec![0.0];
    if x < 0.0 {
        head.push(-x);
    }
    let digits = fraction_digits(x);
    if digits > 0 {
        head.push(x.trunc());
        head.push(x.trunc() + x.signum());
        let whole = scale(x, digits);
        if whole.is_finite() {
            head.push(whole);
        }
    } else {
        // Integers halving the distance to zero: x - x/2, x - x/4, …, x - 1.
        let mut d = (x / 2.0).trunc();
        while d != 0.0 {
            head.push(x - d);
            d = (d / 2.0).trunc();
        }
    }
    let smaller = (digits == 0)
        .then(|| cleared_bits(x).chain(smaller_integers(x)))
        .into_iter()
        .flatten();
    // Fewer digits: at most 64 precisions, the coarsest first.
    let step = (digits / 64).max(1) as usize;
    let fewer_digits = (1..digits).step_by(step).flat_map(move |p| rounded(x, p));
    head.into_iter().chain(smaller).chain(fewer_digits)
}

/// The candidates for `x`, each strictly simpler under [`float_measure`],
/// without repeats.
fn candidates(x: f64) -> impl Iterator<Item = f64> {
    let (special, finite) = if x == 0.0 {
        (vec![0.0], None)
    } else if x.is_nan() {
        (vec![0.0, f64::MAX], None)
    } else if x.is_infinite() {
        (
            vec![0.0, if x > 0.0 { f64::MAX } else { f64::MIN }, f64::MAX],
            None,
        )
    } else {
        (Vec::new(), Some(finite_candidates(x)))
    };
    let own = float_measure(x);
    let mut seen = std::collections::HashSet::new();
    special
        .into_iter()
        .chain(finite.into_iter().flatten())
        .filter(move |c| float_measure(*c) < own && seen.insert(c.to_bits()))
}

impl Shrink for f64 {
    /// See the module documentation of `shrink::float`.
    ///
    /// ```
    /// use pbt_core::Shrink;
    /// let c: Vec<f64> = 1.7f64.shrink().collect();
    /// assert_eq!(&c[..3], &[0.0, 1.0, 2.0]);
    /// assert!(c.contains(&1.5));
    /// ```
    fn shrink(&self) -> Candidates<'_, Self> {
        Box::new(candidates(*self))
    }
}

impl Shrink for f32 {
    /// As `f64`, in `f32`: every candidate of an `f32` is one (rounding
    /// drops digits; `MAX` and `MIN` are the `f32` ones).
    ///
    /// ```
    /// use pbt_core::Shrink;
    /// let c: Vec<f32> = (-3.25f32).shrink().collect();
    /// assert_eq!(&c[..2], &[0.0, 3.25]);
    /// ```
    fn shrink(&self) -> Candidates<'_, Self> {
        let x = *self;
        let own = float_measure(f64::from(x));
        let limit = |c: f64| {
            if c == f64::MAX {
                f32::MAX
            } else if c == f64::MIN {
                f32::MIN
            } else {
                c as f32
            }
        };
        let mut seen = std::collections::HashSet::new();
        Box::new(
            candidates(f64::from(x))
                .map(limit)
                .filter(move |c| float_measure(f64::from(*c)) < own && seen.insert(c.to_bits())),
        )
    }
}

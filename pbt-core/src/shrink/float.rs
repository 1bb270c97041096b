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
//! and away from zero next to a fraction; for an integer, integers halving
//! the distance to zero (a binary search for the boundary of the failure);
//! then the value rounded toward and away from zero to fewer digits.

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

/// The candidates for a finite, non-zero `x`, in the order tried (not yet
/// filtered to strictly simpler ones).
fn finite_candidates(x: f64) -> Vec<f64> {
    let mut out = vec![0.0];
    if x < 0.0 {
        out.push(-x);
    }
    let digits = fraction_digits(x);
    if digits > 0 {
        out.push(x.trunc());
        out.push(x.trunc() + x.signum());
    } else {
        // Integers halving the distance to zero: x - x/2, x - x/4, …, x - 1.
        let mut d = (x / 2.0).trunc();
        while d != 0.0 {
            out.push(x - d);
            d = (d / 2.0).trunc();
        }
    }
    // Fewer digits: at most 64 precisions, the coarsest first.
    let step = (digits / 64).max(1) as usize;
    for p in (1..digits).step_by(step) {
        out.extend(rounded(x, p));
    }
    out
}

/// The candidates for `x`, each strictly simpler under [`float_measure`],
/// without repeats.
fn candidates(x: f64) -> Vec<f64> {
    let raw = if x == 0.0 {
        vec![0.0]
    } else if x.is_nan() {
        vec![0.0, f64::MAX]
    } else if x.is_infinite() {
        vec![0.0, if x > 0.0 { f64::MAX } else { f64::MIN }, f64::MAX]
    } else {
        finite_candidates(x)
    };
    let own = float_measure(x);
    let mut out: Vec<f64> = Vec::with_capacity(raw.len());
    for c in raw {
        if float_measure(c) < own && !out.iter().any(|o| o.to_bits() == c.to_bits()) {
            out.push(c);
        }
    }
    out
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
        Box::new(candidates(*self).into_iter())
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
        let mut out: Vec<f32> = Vec::new();
        for c in candidates(f64::from(x)).into_iter().map(limit) {
            if float_measure(f64::from(c)) < own && !out.iter().any(|o| o.to_bits() == c.to_bits())
            {
                out.push(c);
            }
        }
        Box::new(out.into_iter())
    }
}

//! Utilities of preconditions (*Flexible and Automatic Targeted Property-Based Testing* §3, Fig. 3): a number that is
//! `>= 0` exactly when the precondition holds (Lemma 3.2), and grows as the
//! inputs get "closer" to satisfying it, so a search can climb towards valid
//! inputs.
//!
//! `property!` translates each `implies` into these functions at compile
//! time: `a <= b` ↦ `b - a`, `a < b` ↦ `b - a - 1` (integers; floats keep
//! the sign right), `a == b` ↦ `-|a - b|`, `&&` ↦ min, `||` ↦ max, `!` as in
//! the paper, `true` ↦ 1, `false` ↦ -1, `iter.all(p)` / `iter.any(p)` as
//! folds, anything else as a plain boolean (1 or -1). Conjunctions and
//! disjunctions keep Rust's short-circuit evaluation.
//!
//! ```
//! use pbt_core::utility::{le, lt, eq, not, Cmp};
//! assert_eq!(le(&Cmp(&3, &5)), 2.0);
//! assert!(lt(&Cmp(&5, &5)) < 0.0);
//! assert!(not(eq(&Cmp(&1.5, &1.5))) < 0.0);
//! ```

/// The utility of `true`.
pub const TRUE: f64 = 1.0;
/// The utility of `false`.
pub const FALSE: f64 = -1.0;

/// A plain boolean as a utility.
#[inline]
pub fn of_bool(b: bool) -> f64 {
    if b {
        TRUE
    } else {
        FALSE
    }
}

/// `¬b`: `-u`, except that a true `b` of utility 0 becomes `false`.
#[inline]
pub fn not(u: f64) -> f64 {
    if u == 0.0 {
        FALSE
    } else {
        -u
    }
}

/// `all`: the minimum, `true` when empty.
pub fn all(us: impl IntoIterator<Item = f64>) -> f64 {
    us.into_iter().fold(TRUE, f64::min)
}

/// `any`: the maximum, `false` when empty.
pub fn any(us: impl IntoIterator<Item = f64>) -> f64 {
    us.into_iter().fold(FALSE, f64::max)
}

/// Two operands of a comparison; see [`le`], [`lt`], [`eq`].
pub struct Cmp<'a, A: ?Sized, B: ?Sized>(pub &'a A, pub &'a B);

/// Numbers, whose differences give graded utilities.
pub trait Number: Copy + PartialOrd {
    /// `b - a` as an `f64` whose sign is exact (`NaN` if unordered).
    fn difference(a: Self, b: Self) -> f64;
    /// Whether values are integers (so `a < b` ⟺ `b - a >= 1`).
    const INTEGER: bool;
}

macro_rules! integer {
    ($($t:ty => $wide:ty),*) => {$(
        impl Number for $t {
            #[inline]
            fn difference(a: Self, b: Self) -> f64 {
                if a <= b {
                    (b as $wide).wrapping_sub(a as $wide) as f64
                } else {
                    -((a as $wide).wrapping_sub(b as $wide) as f64)
                }
            }
            const INTEGER: bool = true;
        }
    )*};
}
integer!(u8 => u128, u16 => u128, u32 => u128, u64 => u128, u128 => u128, usize => u128,
         i8 => i128, i16 => i128, i32 => i128, i64 => i128, isize => i128);

impl Number for i128 {
    fn difference(a: Self, b: Self) -> f64 {
        if a <= b {
            (b as u128).wrapping_sub(a as u128) as f64
        } else {
            -((a as u128).wrapping_sub(b as u128) as f64)
        }
    }
    const INTEGER: bool = true;
}

impl Number for f64 {
    fn difference(a: Self, b: Self) -> f64 {
        b - a
    }
    const INTEGER: bool = false;
}

impl Number for f32 {
    fn difference(a: Self, b: Self) -> f64 {
        f64::from(b) - f64::from(a)
    }
    const INTEGER: bool = false;
}

/// Graded comparisons of numbers (chosen first by autoref specialisation).
pub trait CmpNumber {
    /// `a <= b`.
    fn le(&self) -> f64;
    /// `a < b`.
    fn lt(&self) -> f64;
    /// `a == b`.
    fn eq(&self) -> f64;
}

impl<N: Number> CmpNumber for Cmp<'_, N, N> {
    #[inline]
    fn le(&self) -> f64 {
        let d = N::difference(*self.0, *self.1);
        if d.is_nan() {
            FALSE
        } else {
            d
        }
    }
    #[inline]
    fn lt(&self) -> f64 {
        let d = N::difference(*self.0, *self.1);
        if d.is_nan() || d <= 0.0 {
            if d.is_nan() {
                FALSE
            } else {
                d - 1.0
            }
        } else if N::INTEGER {
            d - 1.0
        } else {
            d
        }
    }
    #[inline]
    fn eq(&self) -> f64 {
        let d = N::difference(*self.0, *self.1);
        if d.is_nan() {
            FALSE
        } else {
            -d.abs()
        }
    }
}

/// Comparisons of anything else: plain booleans.
pub trait CmpOther {
    /// `a <= b`.
    fn le(&self) -> f64;
    /// `a < b`.
    fn lt(&self) -> f64;
    /// `a == b`.
    fn eq(&self) -> f64;
}

impl<A: PartialOrd<B> + ?Sized, B: ?Sized> CmpOther for &Cmp<'_, A, B> {
    fn le(&self) -> f64 {
        of_bool(self.0 <= self.1)
    }
    fn lt(&self) -> f64 {
        of_bool(self.0 < self.1)
    }
    fn eq(&self) -> f64 {
        of_bool(self.0 == self.1)
    }
}

/// `a <= b` for numbers (for the generated code, which calls the method form).
pub fn le<N: Number>(c: &Cmp<'_, N, N>) -> f64 {
    CmpNumber::le(c)
}

/// `a < b` for numbers.
pub fn lt<N: Number>(c: &Cmp<'_, N, N>) -> f64 {
    CmpNumber::lt(c)
}

/// `a == b` for numbers.
pub fn eq<N: Number>(c: &Cmp<'_, N, N>) -> f64 {
    CmpNumber::eq(c)
}

//! A collection's length: a range of lengths, or one exact length.

use super::{int, Int};
use std::ops::{Bound, Range, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};

/// What a collection generator takes as its length: a `usize` range
/// (`0..10`, `1..=5`, `3..`, `..=4`, `..`) or one exact length (`1000`, as
/// proptest's `vec(s, 1000)` accepts).
///
/// ```
/// use pbt_core::{gen::{btree_set, int, vec, Gen}, Rng};
/// let v = vec(int(0..10u8), 4).generate(&mut Rng::from_seed(1), 10).unwrap();
/// assert_eq!(v.len(), 4);
/// let s = btree_set(int(0..=u32::MAX), 100).generate(&mut Rng::from_seed(1), 10).unwrap();
/// assert_eq!(s.len(), 100);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a length",
    label = "a length is a `usize` range or one `usize`",
    note = "write a range of lengths (`0..10`, `1..=5`, `3..`) or one exact length (`1000`)"
)]
pub trait Length {
    /// The lengths as an inclusive range.
    fn lengths(self) -> Int<usize>;
}

impl Length for usize {
    #[inline]
    fn lengths(self) -> Int<usize> {
        int(self..=self)
    }
}

macro_rules! range_lengths {
    ($($range:ty),*) => {$(
        impl Length for $range {
            #[inline]
            fn lengths(self) -> Int<usize> {
                int(self)
            }
        }
    )*};
}
range_lengths!(
    Range<usize>,
    RangeInclusive<usize>,
    RangeFrom<usize>,
    RangeTo<usize>,
    RangeToInclusive<usize>,
    RangeFull,
    (Bound<usize>, Bound<usize>)
);

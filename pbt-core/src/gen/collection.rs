//! Collections: vectors with a length range, and subsets.

use super::{Gen, Generated, Int, Length};
use crate::source::{BlockKind, Source};

/// The most elements a collection generator reserves room for before it
/// draws them. A longer drawn length (`vec(g, 0..usize::MAX)`) grows the
/// collection as its elements come, so that the draw budget stops a
/// runaway length with a report ("data too large") before the allocator
/// aborts the process.
pub const MAX_RESERVE: usize = 1 << 16;

/// Vectors whose length is drawn from `len` (a `usize` range, or one exact
/// [`Length`]) and whose
/// elements come from `g`: one draw for the length, then the elements in order
/// (a [`BlockKind::Collection`] block holding one [`BlockKind::Element`]
/// block per element).
///
/// ```
/// use pbt_core::{gen::{bool, vec, Gen}, Rng};
/// let v = vec(bool(), 3..=3).generate(&mut Rng::from_seed(0), 0).unwrap();
/// assert_eq!(v.len(), 3);
/// ```
pub fn vec<G: Gen>(g: G, len: impl Length) -> VecOf<G> {
    VecOf {
        elem: g,
        len: len.lengths(),
    }
}

/// See [`vec()`].
#[derive(Clone, Copy, Debug)]
pub struct VecOf<G> {
    elem: G,
    len: Int<usize>,
}

impl<G: Gen> Gen for VecOf<G> {
    type Value = Vec<G::Value>;
    #[inline]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<Self::Value> {
        src.start_block(BlockKind::Collection);
        let n = self.len.generate(src, size)?;
        // Each element is a part of the budget, even one that draws nothing.
        src.charge_parts(n as u64, 0);
        let mut out = Vec::with_capacity(n.min(MAX_RESERVE));
        for _ in 0..n {
            src.start_block(BlockKind::Element);
            out.push(self.elem.generate(src, size)?);
            src.end_block();
        }
        src.end_block();
        Ok(out)
    }
}

/// `k` distinct elements of `items` (by position), in the order drawn: a
/// partial Fisher–Yates shuffle, one draw per element.
///
/// ```
/// use pbt_core::{gen::{subset, Gen}, Rng};
/// let s = subset(&[1, 2, 3, 4], 2).generate(&mut Rng::from_seed(0), 0).unwrap();
/// assert_eq!(s.len(), 2);
/// assert_ne!(s[0], s[1]);
/// ```
///
/// # Panics
/// When `k > items.len()`.
pub fn subset<T: Clone>(items: &[T], k: usize) -> Subset<'_, T> {
    assert!(
        k <= items.len(),
        "pbt: subset(items, k) needs k <= items.len(), got k = {k} for {} items",
        items.len()
    );
    Subset { items, k }
}

/// See [`subset`].
#[derive(Clone, Copy, Debug)]
pub struct Subset<'a, T> {
    items: &'a [T],
    k: usize,
}

impl<T: Clone> Gen for Subset<'_, T> {
    type Value = Vec<T>;
    fn generate<S: Source + ?Sized>(&self, src: &mut S, _size: usize) -> Generated<Vec<T>> {
        let n = self.items.len();
        let mut idx: Vec<usize> = (0..n).collect();
        for i in 0..self.k {
            let j = i + src.draw((n - 1 - i) as u64) as usize;
            idx.swap(i, j);
        }
        Ok(idx[..self.k]
            .iter()
            .map(|&i| self.items[i].clone())
            .collect())
    }
}

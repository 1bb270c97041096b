//! [`Staged`]: a generator whose code the `pbt::generator!` and `property!` macros
//! wrote inline, in two copies — one over the default [`Rng`] (every draw
//! inlined) and one over `dyn Source` (for recording, replaying and fuzzing
//! sources). Both copies make the same choices.

use super::{Gen, Generated};
use crate::source::{Rng, Source};

/// A staged generator: `fast` runs when the source is an [`Rng`], `slow`
/// otherwise. Built by the macros; see `pbt::generator!`.
#[derive(Clone, Copy, Debug)]
pub struct Staged<F, D> {
    fast: F,
    slow: D,
}

impl<F, D> Staged<F, D> {
    /// Pair the two copies of the same generator code.
    pub fn new<T>(fast: F, slow: D) -> Self
    where
        F: Fn(&mut Rng, usize) -> Generated<T>,
        D: Fn(&mut dyn Source, usize) -> Generated<T>,
    {
        Staged { fast, slow }
    }
}

impl<T, F, D> Gen for Staged<F, D>
where
    F: Fn(&mut Rng, usize) -> Generated<T>,
    D: Fn(&mut dyn Source, usize) -> Generated<T>,
{
    type Value = T;
    #[inline(always)]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<T> {
        if let Some(rng) = src.as_rng() {
            return (self.fast)(rng, size);
        }
        let mut src = src;
        (self.slow)(&mut src, size)
    }
}

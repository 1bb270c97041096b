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
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<T> {
        if let Some(rng) = src.as_rng() {
            return (self.fast)(rng, size);
        }
        let mut src = src;
        (self.slow)(&mut src, size)
    }
}

/// `src`, its next draw already counted by a [`Source::charge`]: staged
/// code hands it to a primitive (`int`, `bool`, `float`, …) whose first
/// draw the enclosing generator charged, so that draw is made with
/// [`Source::draw_charged`]; any further draws of the primitive (the second
/// half of a `u128`, the parts of a float) are counted as usual.
///
/// ```
/// use pbt_core::{gen::{int, Gen, Prepaid}, Rng, Source};
/// let (mut a, mut b) = (Rng::from_seed(5), Rng::from_seed(5));
/// b.charge(1);
/// let x = int(0..10u8).generate(&mut Prepaid::new(&mut b), 0);
/// assert_eq!(x, int(0..10u8).generate(&mut a, 0));
/// ```
#[derive(Debug)]
pub struct Prepaid<'a, S: ?Sized> {
    src: &'a mut S,
    paid: bool,
}

impl<'a, S: Source + ?Sized> Prepaid<'a, S> {
    /// `src`, whose next draw was charged.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn new(src: &'a mut S) -> Self {
        Prepaid { src, paid: true }
    }
}

impl<S: Source + ?Sized> Source for Prepaid<'_, S> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn draw(&mut self, max: u64) -> u64 {
        if self.paid {
            self.paid = false;
            self.src.draw_charged(max)
        } else {
            self.src.draw(max)
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn records(&self) -> bool {
        self.src.records()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn start_block(&mut self, kind: crate::source::BlockKind) {
        self.src.start_block(kind)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn end_block(&mut self) {
        self.src.end_block()
    }
    fn continuation(&mut self) -> crate::data::Continuation {
        self.src.continuation()
    }
    // `as_rng` stays `None`: a generator that took the `Rng` would make the
    // charged draw again, counted.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn charge(&mut self, draws: u64) {
        self.src.charge(draws)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn charge_parts(&mut self, parts: u64, draws: u64) {
        self.src.charge_parts(parts, draws)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn draw_charged(&mut self, max: u64) -> u64 {
        self.src.draw_charged(max)
    }
    // A recording source gets the pair, so that it marks the integer: the
    // same choices, and the same charges (a recording source charges a
    // prepaid draw's `draw_charged` as a draw, and its pair as two).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn draw_kind_value(&mut self, bounds: &[u64; 8]) -> (usize, u64) {
        if self.src.records() {
            self.paid = false;
            return self.src.draw_kind_value(bounds);
        }
        let kind = self.draw(7) as usize & 7;
        (kind, self.draw(bounds[kind]))
    }
}

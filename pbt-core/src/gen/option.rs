//! `Option` and `Result` from generators: [`option`] and [`result`].
//!
//! Both make one draw in `0..=3` first, as the [`Arbitrary`](crate::Arbitrary)
//! impls of `Option` and `Result` do, so choice `0` is the simpler variant
//! (`None`, `Ok`).

use super::{Gen, Generated};
use crate::source::Source;

/// `None` a quarter of the time (choice `0`), otherwise `Some` of a value
/// from `g`.
///
/// ```
/// use pbt_core::{choices::Replay, gen::{int, option, Gen}, Rng};
/// let g = option(int(1..=6u8));
/// assert_eq!(g.generate(&mut Replay::new(&[]), 0), Ok(None));
/// let x = g.generate(&mut Rng::from_seed(0), 0).unwrap();
/// assert!(x.map_or(true, |d| (1..=6).contains(&d)));
/// ```
#[inline]
pub fn option<G: Gen>(g: G) -> OptionOf<G> {
    OptionOf(g)
}

/// See [`option`].
#[derive(Clone, Copy, Debug)]
pub struct OptionOf<G>(G);

impl<G: Gen> Gen for OptionOf<G> {
    type Value = Option<G::Value>;
    #[inline]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<Self::Value> {
        if src.draw(3) == 0 {
            return Ok(None);
        }
        self.0.generate(src, size).map(Some)
    }
}

/// `Err` of a value from `err` a quarter of the time (choice `3`),
/// otherwise `Ok` of a value from `ok` (choice `0` is `Ok`).
///
/// ```
/// use pbt_core::{choices::Replay, gen::{int, just, result, Gen}};
/// let g = result(int(0..10u8), just("boom"));
/// assert_eq!(g.generate(&mut Replay::new(&[]), 0), Ok(Ok(0)));
/// assert_eq!(g.generate(&mut Replay::new(&[3]), 0), Ok(Err("boom")));
/// ```
#[inline]
pub fn result<A: Gen, B: Gen>(ok: A, err: B) -> ResultOf<A, B> {
    ResultOf(ok, err)
}

/// See [`result`].
#[derive(Clone, Copy, Debug)]
pub struct ResultOf<A, B>(A, B);

impl<A: Gen, B: Gen> Gen for ResultOf<A, B> {
    type Value = Result<A::Value, B::Value>;
    #[inline]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<Self::Value> {
        if src.draw(3) == 3 {
            return self.1.generate(src, size).map(Err);
        }
        self.0.generate(src, size).map(Ok)
    }
}

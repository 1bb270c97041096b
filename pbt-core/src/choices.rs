//! Choice sequences: recording the draws of a generator, replaying them, and
//! editing them at random.
//!
//! Generation is a function of the choices drawn from a [`Source`], so a
//! recorded sequence reproduces a value exactly, and a *modified* sequence
//! replayed through the same generator yields a value that the generator could
//! have produced (*Property Based Testing in MIT-Scheme*, §3.1–3.2). This
//! module holds the data; what makes a sequence smaller is in
//! [`shrink::choices`](crate::shrink::choices).
//!
//! - [`Recorder`], [`Tracer`]: keep the choices (and bounds) of a generation.
//! - [`Replay`]: feed a sequence back, keeping the [`Block`]s generators mark
//!   and where its integers are ([`IntegerMarks`]).
//! - [`mutate_choices`]: random edits, for mutation-based runners.
//!
//! [`Source`]: crate::Source

mod blocks;
mod integers;
mod mutate;
mod record;
mod replay;

pub(crate) use blocks::children;
pub use blocks::{Block, BlockMarks};
pub use integers::IntegerMarks;
pub use mutate::mutate_choices;
pub use record::{Recorder, Tracer};
pub use replay::{Replay, ReplaySource, Replayed};

/// The draws made during one generation, in order.
pub type Choices = Vec<u64>;

/// Shortlex order: shorter sequences first, then lexicographic.
///
/// ```
/// use pbt_core::choices::shortlex_lt;
/// assert!(shortlex_lt(&[9], &[0, 0]));
/// assert!(shortlex_lt(&[0, 5], &[1, 0]));
/// ```
pub fn shortlex_lt(a: &[u64], b: &[u64]) -> bool {
    (a.len(), a) < (b.len(), b)
}

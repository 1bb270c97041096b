//! Choice sequences: recording the draws of a generator, replaying them, and
//! shrinking them.
//!
//! Generation is a function of the choices drawn from a [`Source`], so a
//! recorded sequence reproduces a value exactly, and a *modified* sequence
//! replayed through the same generator yields a value that the generator could
//! have produced (*Property Based Testing in MIT-Scheme*, §3.1–3.2). Shrinking such a sequence is how pbt
//! shrinks variables whose generator has invariants a type-based shrinker would
//! not know about.
//!
//! - [`Recorder`], [`Tracer`]: keep the choices (and bounds) of a generation.
//! - [`Replay`]: feed a sequence back, keeping the [`Block`]s generators mark.
//! - [`ChoiceShrinker`]: the integrated shrinker's passes, run to a fixed
//!   point, cheap ones first (Hypothesis style): delete halves of long
//!   collections, widen the size,
//!   pass-to-descendant, join collections, zero blocks, delete blocks,
//!   delete choices, minimise choices (binary search), shrink duplicates;
//!   then reorder blocks, move a list's last element to the next list,
//!   delete with length, lower pairs, redistribute,
//!   lower one integer raising the next,
//!   shrink the size, re-encode. Each pass is a function in `delete`,
//!   `minimise` or `restructure`.
//! - [`simplifications`], [`bisections`], [`simplifications_by_bisection`],
//!   [`reencodings`]: candidates as iterators, for
//!   shrinkers that take the first candidate that fails.
//! - [`mutate_choices`]: random edits, for mutation-based runners.
//!
//! [`Source`]: crate::Source

mod blocks;
mod candidates;
mod delete;
pub(crate) use delete::without_elements;
mod minimise;
mod mutate;
mod record;
mod replay;
mod restructure;
mod shrinker;

pub use blocks::{Block, BlockMarks};
pub use candidates::{bisections, reencodings, simplifications, simplifications_by_bisection};
pub use mutate::mutate_choices;
pub use record::{Recorder, Tracer};
pub use replay::{Replay, Replayed};
pub use shrinker::{Attempt, ChoiceShrinker, Spare, Step, Trial};

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

#[cfg(test)]
mod tests;

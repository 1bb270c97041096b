//! What discarded the last test on this thread: the `implies`, the
//! `assume!`, the `filter`/`ensure`, or the collection that could not reach
//! its minimum length. A runner that gives up on discards names it, so the
//! message says what to change.
//!
//! ```
//! use pbt_core::rejection::{self, Rejection};
//! use pbt_core::gen::{btree_set, int};
//! use pbt_core::{Gen, Rng};
//! // Three distinct values from a range of two.
//! let set = btree_set(int(0..2u8), 3..=3);
//! assert!(set.generate(&mut Rng::from_seed(1), 10).is_err());
//! assert_eq!(rejection::take(), Some(Rejection::MinimumLength { min: 3, reached: 2 }));
//! assert_eq!(rejection::take(), None);
//! ```

use serde::Serialize;
use std::cell::Cell;
use std::fmt;

/// What discarded a test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Rejection {
    /// An `implies` did not hold (its condition as written).
    Implies(&'static str),
    /// An `assume!` did not hold (its condition as written).
    Assume(&'static str),
    /// A generator's `filter` or `ensure` rejected every candidate (its
    /// predicate as written, when the DSL staged it).
    Filter(Option<&'static str>),
    /// A collection of distinct elements (`btree_set`, `hash_map`,
    /// `vec_unique`, …) did not reach its minimum length: its element
    /// generator repeated itself. Not a precondition.
    MinimumLength {
        /// The minimum length asked for.
        min: usize,
        /// The distinct elements it found before giving up.
        reached: usize,
    },
}

impl Rejection {
    /// Whether the user wrote this as a precondition (`implies`, `assume!`,
    /// `filter`, `ensure`), as opposed to a collection's minimum length.
    pub fn is_precondition(&self) -> bool {
        !matches!(self, Rejection::MinimumLength { .. })
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::Implies("") => write!(f, "an `implies`"),
            Rejection::Implies(cond) => write!(f, "the precondition `implies {cond}`"),
            Rejection::Assume(cond) => write!(f, "the assumption `assume!({cond})`"),
            Rejection::Filter(Some(pred)) => write!(f, "the generator's filter `{pred}`"),
            Rejection::Filter(None) => write!(f, "a generator's `filter`"),
            Rejection::MinimumLength { min, reached } => write!(
                f,
                "a collection of distinct elements, which found {reached} distinct elements \
                 but needs at least {min}"
            ),
        }
    }
}

thread_local! {
    static LAST: Cell<Option<Rejection>> = const { Cell::new(None) };
}

/// Record what discarded the test running on this thread.
#[cold]
pub fn note(why: Rejection) {
    LAST.with(|last| last.set(Some(why)));
}

/// What discarded the last test on this thread since the last call, if
/// anything said.
pub fn take() -> Option<Rejection> {
    LAST.with(Cell::take)
}

/// [`note`] `why`, and reject: what a staged `filter`, `ensure` or
/// collection returns when it gives up.
#[doc(hidden)]
#[cold]
pub fn rejected(why: Rejection) -> crate::Rejected {
    note(why);
    crate::Rejected
}

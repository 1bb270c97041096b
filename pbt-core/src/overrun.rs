//! Resource guards on generation (Hypothesis's "data too large"): a bound on
//! the choices one generated input may draw, on how deep a generator may
//! recurse into the stack, and on how far a replayed choice sequence may be
//! read past its end.
//!
//! A source that hits a bound stops the generator by panicking with an
//! [`Overrun`] payload; runners catch it (as they catch every panic in user
//! code) and turn it into a report — "the generator drew more than N
//! choices" — or, for a replayed sequence during shrinking, into a rejected
//! candidate. So a recursive generator whose size never shrinks ends in a
//! clear report rather than a stack overflow or an allocation failure, and a
//! generator that retries until it draws a non-zero choice cannot spin
//! forever on a replay that only has zeros left.

use std::fmt;

/// Why a source stopped a generator. Raised as a panic payload by
/// [`raise`]; the runners catch it.
///
/// ```
/// use pbt_core::overrun::Overrun;
/// let o = Overrun::Draws { limit: 10 };
/// assert!(o.to_string().contains("more than 10 choices"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overrun {
    /// A fresh source handed out more than `limit` choices for one input,
    /// counting each part of the value (an element of a collection, a
    /// recursive layer) as one (see [`crate::Source::charge_parts`]).
    Draws {
        /// The limit (`Config::max_draws` in the runners).
        limit: u64,
    },
    /// The generator went more than `limit` bytes deeper into the stack than
    /// where generation started: a recursion that does not end.
    Stack {
        /// The limit in bytes.
        limit: usize,
    },
    /// A replayed choice sequence of `recorded` choices was read more than
    /// [`replay_limit`]`(recorded)` times: the generator keeps drawing
    /// after the recorded choices ran out (only zeros are left).
    Replay {
        /// The length of the recorded sequence.
        recorded: usize,
    },
}

impl fmt::Display for Overrun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Overrun::Draws { limit } => write!(
                f,
                "data too large: the generator drew more than {limit} choices for one input \
                 (each element of a collection and each recursive layer counts as one too; \
                 a generator that never stops growing? raise Config::max_draws if it is meant to)"
            ),
            Overrun::Stack { limit } => write!(
                f,
                "data too large: the generator recursed more than {} KiB deep into the stack \
                 (a recursive generator that does not stop as its size shrinks? weigh the \
                 recursive cases by `size`, as in `frequency[1 => leaf, size => node]`, so \
                 that size 0 always takes a base case)",
                limit / 1024
            ),
            Overrun::Replay { recorded } => write!(
                f,
                "a replay of {recorded} recorded choices was read more than {} times",
                replay_limit(*recorded)
            ),
        }
    }
}

/// Stop the generator in progress with `overrun` (a panic the runners catch).
///
/// ```
/// use pbt_core::overrun::{raise, Overrun};
/// let payload = std::panic::catch_unwind(|| raise(Overrun::Draws { limit: 5 })).unwrap_err();
/// assert_eq!(payload.downcast_ref::<Overrun>(), Some(&Overrun::Draws { limit: 5 }));
/// ```
#[cold]
#[inline(never)]
pub fn raise(overrun: Overrun) -> ! {
    std::panic::panic_any(overrun)
}

/// How many draws a replay of `recorded` choices allows: twice its length
/// plus 64. Past that the generator only sees padding zeros, and a
/// candidate that needs that many is rejected.
///
/// ```
/// assert_eq!(pbt_core::overrun::replay_limit(10), 84);
/// ```
pub const fn replay_limit(recorded: usize) -> usize {
    recorded.saturating_mul(2).saturating_add(64)
}

/// The default bound on the choices drawn for one input: a million draws.
pub const DEFAULT_MAX_DRAWS: u64 = 1_000_000;

/// The default bound on how deep generation may go into the stack: 1 MiB,
/// half of the 2 MiB a test thread gets.
pub const DEFAULT_MAX_STACK: usize = 1 << 20;

/// The address of a local of a fresh frame: where the stack is now.
///
/// ```
/// use pbt_core::overrun::stack_position;
/// fn deeper(n: u32) -> usize { if n == 0 { stack_position() } else { deeper(n - 1) + 0 } }
/// assert_ne!(deeper(0), deeper(50));
/// ```
#[inline(never)]
pub fn stack_position() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

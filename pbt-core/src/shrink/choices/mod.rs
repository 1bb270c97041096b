//! Shrinking a choice sequence: the integrated shrinker and its passes.
//!
//! A value generated from recorded choices shrinks by shrinking the choices
//! and replaying them through the same generator (*Property Based Testing in
//! MIT-Scheme*, §3.2; Hypothesis's shrinker): the replay can only give values
//! the generator could have produced, so the generator's invariants hold for
//! every candidate.
//!
//! - [`ChoiceShrinker`]: the integrated shrinker. Its passes are the rows of
//!   one table, [`passes::table`], run to a fixed point, cheap ones first
//!   (Hypothesis style); each is a function in a family file: `delete.rs`
//!   (shorter sequences), `minimize.rs` (smaller choices, the same length),
//!   `restructure.rs` (a value's shape), `size.rs` (other sizes and
//!   encodings), `combine.rs` (a deletion together with another edit, past
//!   the local minima of short programs), `magnitude.rs` (wide integers
//!   by bit length first). What each pass did is
//!   in [`ChoiceShrinker::stats`], and printed with `PBT_SHRINK_STATS=1`.
//! - [`simplifications`], [`bisections`], [`simplifications_by_bisection`],
//!   [`reencodings`]: candidates as iterators, for shrinkers that take the
//!   first candidate that fails and ask again (greedy descent).
//!
//! # Writing a pass
//!
//! A pass is a [`passes::PassFn`]: one sweep over the current sequence,
//! proposing candidates to the shrinker. Hypothesis's "Designing Shrink
//! Passes" in pbt's terms; a new pass is checked against this list.
//!
//! 1. **Propose through `consider` only** ([`ChoiceShrinker::consider`],
//!    `consider_at` for another size, `consider_splice` for a range
//!    replaced), and pass its [`Stop`] on with `?`. It skips a candidate
//!    that is not smaller in shortlex order (a comparison, where a run costs
//!    a replay and a test) and one the test rejected before, counts every
//!    run, and takes a step by replacing the current sequence. A pass never
//!    edits the sequence itself, and never asks [`ChoiceShrinker::stopped`]:
//!    `?` ends it at once.
//! 2. **Loops stay valid when the sequence changes.** After any step the
//!    choices, their bounds and their blocks may all be different: bound a
//!    loop by `s.choices().len()` (or `s.blocks().len()`) on every turn, not
//!    by a length read before it; delete from the end, so the positions
//!    still to visit stay put; a copy of the state (`delete::Snapshot`) is
//!    taken again when `s.steps()` moved.
//! 3. **No fixed point inside a pass.** One sweep, then return: the shrinker
//!    runs every pass again until none makes progress, and a pass that loops
//!    to its own fixed point starves the others, whose steps would make its
//!    work cheaper. Trying the same place again after a step (a replaced
//!    block may nest more) is one sweep; starting the sweep over is not.
//! 4. **Adapt: `find_integer` for runs.** To
//!    delete, zero or lower `k` things at once, probe `k = 1, 2, 3, 4`, then
//!    double, then bisect: a run of `n` costs `O(log n)` candidates, and a
//!    place where nothing goes costs one. Try the special value first (`0`,
//!    the whole block), then search.
//! 5. **Defer, do not drop.** A pass that leaves a large structure after
//!    many failures in a row asks `s.defer()` and stops only when it says
//!    yes. When no pass made progress but one deferred, the shrinker runs a
//!    round in which `defer()` says no, so the fixed point it ends at is
//!    one of every pass in full.
//! 6. **Determinism.** The candidates a pass proposes depend only on the
//!    current sequence, its bounds, blocks, integer marks and size: no
//!    randomness, no clock, no count of earlier runs. The test is
//!    deterministic too. The rejected cache relies on both: a rejected
//!    [`ReplayMode::Simplify`] candidate is never run again (its value
//!    passes, or its replay is no smaller than a sequence that only gets
//!    smaller), nor is any candidate that begins with the choices a
//!    rejected replay read and no further ([`Trial::NotAStepReading`]: a
//!    pass that lowers a length or a program's continuation to `0` and
//!    edits what comes after it proposes the same replay many times).
//! 7. **Read structure from the record, not from guesses.** Blocks say
//!    where a collection, an element or a recursive layer is;
//!    [`Replayed::integers`](crate::choices::Replayed::integers) says where
//!    an `Arbitrary` integer's kind and value are. Bounds say what a choice
//!    may be, not what it is.
//! 8. **Cheap or expensive.** A pass whose sweep runs about one candidate
//!    per choice or fewer is [`Cheap`](passes::Tier::Cheap); one that tries
//!    pairs, orders or sizes is [`Expensive`](passes::Tier::Expensive) and
//!    runs only when the cheap ones are stuck.
//!
//! Name a pass with a verb phrase in the domain's words (`delete_blocks`,
//! `lower_pairs`), open its doc with what it guarantees, and add its row to
//! [`passes::table`] and a test `<pass>_<what it guarantees>` to the pass
//! tests (`tests.rs`).

mod candidates;
mod combine;
mod delete;
mod magnitude;
mod minimize;
pub mod passes;
mod rejected;
mod restructure;
mod shrinker;
mod size;

pub use candidates::{bisections, reencodings, simplifications, simplifications_by_bisection};
pub(crate) use delete::without_elements;
pub(crate) use magnitude::{of_length, tries};
pub use shrinker::{
    Attempt, ChoiceShrinker, ReplayMode, ShrinkTest, Shrinking, Spare, Stop, Trial,
};

#[cfg(test)]
mod tests;

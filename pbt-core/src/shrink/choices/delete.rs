//! Deletion passes: shorter sequences first.
//!
//! - [`delete_halves`]: delete the first or second half (else a quarter) of
//!   a long collection's elements, again and again (QuickCheck's list
//!   shrinker): a long list that fails because of a few of its elements
//!   drops to a few in `O(log n)` runs, each on a sequence half as long as the
//!   one before, so its whole cost is about two replays of the original.
//! - [`delete_blocks`]: delete runs of a collection's elements together
//!   with the same amount off its length, adaptively (a run that can go
//!   grows by doubling, so deleting most of a long list takes `O(log n)`
//!   runs).
//! - [`delete_choices`]: delete runs of single choices (for generators that
//!   mark no blocks).
//! - [`delete_with_length`]: delete a run of choices and lower a choice
//!   shortly before it (a length drawn before elements no block marks).
//!
//! A run of equal elements (or choices) is tried once: deleting any one of
//! them gives the same candidate.

use super::shrinker::{find_integer, ChoiceShrinker, ReplayMode, ShrinkTest, Shrinking};
use crate::choices::Choices;
use crate::choices::{children, Block};
use crate::source::BlockKind;

/// How far before a deleted run [`delete_with_length`] looks for its length.
const REACH: usize = 8;

/// The fewest elements a collection needs for [`delete_halves`] to start
/// on it. Shorter ones are left to [`delete_blocks`] and the zeroing
/// passes: on short lists, halving first ends at other local minima (the
/// shrinking-challenge suite's bound5 reached its minimum from fewer seeds
/// when this was 8 or 32).
const HALVES_FROM: usize = 64;

/// The fewest elements [`delete_halves`] halves a collection it started on
/// down to.
const HALVES_DOWN_TO: usize = 8;

/// The fewest elements a collection needs for [`delete_halves`] to try
/// its short prefixes first.
const PREFIXES_FROM: usize = 256;

/// Delete halves, else quarters, of each collection of at least
/// [`HALVES_FROM`] elements (with its length lowered as [`delete_blocks`]
/// does; the last run first), starting again from the halves after every
/// step, down to [`HALVES_DOWN_TO`] elements. When none of
/// them can go, that costs six runs per long collection; the elements that
/// are left go one by one in [`delete_blocks`].
///
/// A collection of at least [`PREFIXES_FROM`] elements first tries keeping
/// only its first 8, 16, 32, … elements (fewer than half): a long list that
/// fails because of any one of many elements drops to a short one in one
/// step, its candidates short replays, instead of a halving per step, each
/// a replay (and a printed step) of half the list.
pub(crate) fn delete_halves<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    let mut c = s.blocks().len();
    while c > 0 {
        c -= 1;
        if s.blocks().get(c).map(|b| b.kind) != Some(BlockKind::Collection) {
            continue;
        }
        // A collection cut to its prefix halves on, down to eight elements.
        let mut started = keep_prefix(s, c)?;
        'again: loop {
            let elems = children(s.blocks(), c, BlockKind::Element);
            let m = elems.len();
            if m < HALVES_DOWN_TO || (m < HALVES_FROM && !started) {
                break;
            }
            started = true;
            // Indices into the collection drawn after it, as the sequence
            // is until a step.
            let after = (
                s.choices().len(),
                indices_after(s.bounds(), s.blocks(), c, m),
            );
            // The last run first, as [`delete_blocks`] deletes from the end.
            for k in [m / 2, m / 4] {
                for first in (0..=m - k).rev().step_by(k) {
                    let cand = without_elements(s.choices(), s.blocks(), &elems, c, first, k);
                    let after = (after.0, &after.1[..]);
                    if let Some(cand) = cand {
                        if consider_deletion(s, &cand, after, (first, k))? {
                            continue 'again;
                        }
                    }
                }
            }
            break;
        }
    }
    Ok(())
}

/// Keep only the shortest prefix of collection `c`'s elements, of 8, 16,
/// 32, … elements (fewer than half of them), that still fails, when the
/// collection has at least [`PREFIXES_FROM`] elements; whether one did.
fn keep_prefix<T: ShrinkTest>(s: &mut ChoiceShrinker<T>, c: usize) -> Shrinking<bool> {
    let elems = children(s.blocks(), c, BlockKind::Element);
    let m = elems.len();
    if m < PREFIXES_FROM {
        return Ok(false);
    }
    let (len, indices) = (
        s.choices().len(),
        indices_after(s.bounds(), s.blocks(), c, m),
    );
    let mut k = HALVES_DOWN_TO;
    while k < m / 2 {
        let cand = without_elements(s.choices(), s.blocks(), &elems, c, k, m - k);
        if let Some(cand) = cand {
            if consider_deletion(s, &cand, (len, &indices), (k, m - k))? {
                return Ok(true);
            }
        }
        k *= 2;
    }
    Ok(false)
}

/// How many elements in a row [`delete_blocks`] may fail to delete before
/// it leaves the collection for later (see [`ChoiceShrinker::defer`]).
const PATIENCE: usize = 8;

/// Delete runs of sibling elements, lowering their collection's length
/// choice (its first choice) by the number deleted; when that choice is
/// already `0` (a length range like `n..=n`), lower the choice just before
/// the collection instead (the `n` it was drawn with). A deletion that is
/// no step is tried again with the indices into the collection drawn after
/// it pointed at the elements they pointed at (see [`repointed`]).
///
/// It runs before the zeroing passes (a failing list loses its passing
/// elements without their being zeroed first, each zeroing a printed step
/// of the whole list), so a collection none of whose elements can go would
/// cost a replay of it per element: after [`PATIENCE`] elements in a row
/// that stay, it leaves the collection to the zeroing passes (equal
/// elements are then one candidate) and the shrinker runs it in full
/// before it ends.
pub(crate) fn delete_blocks<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    let mut c = s.blocks().len();
    while c > 0 {
        c -= 1;
        if s.blocks().get(c).map(|b| b.kind) != Some(BlockKind::Collection) {
            continue;
        }
        let mut stayed = 0;
        let mut j = children(s.blocks(), c, BlockKind::Element).len();
        // The sequence, blocks and elements as they are now, taken again
        // only after a step (taking them each time would be quadratic).
        let mut now = Snapshot::of(s, c);
        while j > 0 {
            j -= 1;
            if now.steps != s.steps() {
                now = Snapshot::of(s, c);
            }
            let Snapshot {
                choices,
                blocks,
                elems,
                indices,
                ..
            } = &now;
            if j >= elems.len() {
                j = elems.len();
                continue;
            }
            // The next element (already tried) is equal: same candidate.
            let same_as_next = elems
                .get(j + 1)
                .is_some_and(|&k| choices[blocks[elems[j]].span()] == choices[blocks[k].span()]);
            if same_as_next {
                continue;
            }
            // Delete elements j+1-k ..= j of the sequence as it is now.
            let deleted = find_integer(|k| {
                Ok(k <= j + 1 && {
                    let cand = without_elements(choices, blocks, elems, c, j + 1 - k, k);
                    let after = (choices.len(), &indices[..]);
                    match cand {
                        Some(cand) => consider_deletion(s, &cand, after, (j + 1 - k, k))?,
                        None => false,
                    }
                })
            })?;
            j = j.saturating_sub(deleted.saturating_sub(1));
            stayed = if deleted == 0 { stayed + 1 } else { 0 };
            if stayed >= PATIENCE && j > 0 && s.defer() {
                break;
            }
        }
    }
    Ok(())
}

/// `choices` without `count` elements of collection `c` from element
/// `first` on, and its length lowered by `count`: the collection's first
/// choice, or when that is too small (a length range like `n..=n`) the
/// choice just before the collection (the `n` it was drawn with). `None`
/// when neither can be lowered that far, or the elements are not all in
/// `choices`. A collection whose first element starts with it draws no
/// length up front (each element starts with a "one more" choice): its
/// elements are deleted alone. The integrated shrinker's deletion passes
/// and the external shrinker's element deletions both build candidates
/// with it.
pub(crate) fn without_elements(
    choices: &[u64],
    blocks: &[Block],
    elems: &[usize],
    c: usize,
    first: usize,
    count: usize,
) -> Option<Choices> {
    if count == 0 || first + count > elems.len() {
        return None;
    }
    let coll = blocks[c];
    let span = blocks[elems[first]].start..blocks[elems[first + count - 1]].end;
    if span.end > choices.len() {
        return None;
    }
    let prefixed = blocks[elems[0]].start > coll.start;
    let len_at = if !prefixed {
        None
    } else if choices[coll.start] >= count as u64 {
        Some(coll.start)
    } else if coll.start > 0 && choices[coll.start - 1] >= count as u64 {
        Some(coll.start - 1)
    } else {
        return None;
    };
    let mut cand = Vec::with_capacity(choices.len() - span.len());
    cand.extend_from_slice(&choices[..span.start]);
    cand.extend_from_slice(&choices[span.end..]);
    if let Some(at) = len_at {
        cand[at] -= count as u64;
    }
    Some(cand)
}

/// Whether choice `j`, drawn with `bound`, looks like an index into a
/// collection of `m` elements drawn after it: a position in `0..m` (bound
/// `m - 1`) or in `0..=m` (bound `m`). `xs`, then `i` in `0..xs.len()`;
/// or `n`, then `vec(g, n..=n)`, then `i` in `0..n`.
fn indexes(bound: u64, m: usize) -> bool {
    let m = m as u64;
    bound.checked_add(1) == Some(m) || bound == m
}

/// The positions of the choices drawn after collection `c` (of `m`
/// elements) that look like indices into it (see [`indexes`]).
fn indices_after(bounds: &[u64], blocks: &[Block], c: usize, m: usize) -> Vec<usize> {
    let Some(coll) = blocks.get(c) else {
        return Vec::new();
    };
    (coll.end..bounds.len())
        .filter(|&j| indexes(bounds[j], m))
        .collect()
}

/// `cand`, a collection without its elements `first..first + count` (as
/// [`without_elements`] made it from a sequence of `len` choices), with
/// each index into the collection drawn after it (`indices`, positions in
/// that sequence, all after the deleted run) pointed again at the element
/// it pointed at: lowered by `count` when the element is after the deleted
/// run, at the run's place when it was in it. Replayed as it is, such an
/// index would point at another element, or (past its new bound) read as
/// `0`: a list of passing elements and one failing element at its end,
/// with the index on it, could then lose no element. `None` when no index
/// moves.
fn repointed(
    cand: &[u64],
    len: usize,
    indices: &[usize],
    (first, count): (usize, usize),
) -> Option<Choices> {
    // The choices after the run moved back by its length, unchanged.
    let deleted = len.checked_sub(cand.len())?;
    let (first, count) = (first as u64, count as u64);
    let mut out: Option<Choices> = None;
    for &j in indices {
        let at = j.checked_sub(deleted)?;
        let i = *cand.get(at)?;
        let to = match i {
            i if i >= first + count => i - count,
            i if i >= first => first,
            i => i,
        };
        if to != i {
            out.get_or_insert_with(|| cand.to_vec())[at] = to;
        }
    }
    out
}

/// Consider `cand`, a deletion of elements `run` (first, count) from a
/// sequence of `len` choices, and when it is no step and would move an
/// index drawn after the collection (`indices`, see [`indices_after`]),
/// the deletion with the indices pointed again at their elements (see
/// [`repointed`]).
fn consider_deletion<T: ShrinkTest>(
    s: &mut ChoiceShrinker<T>,
    cand: &[u64],
    (len, indices): (usize, &[usize]),
    run: (usize, usize),
) -> Shrinking<bool> {
    if s.consider(cand, ReplayMode::Simplify)? {
        return Ok(true);
    }
    match repointed(cand, len, indices, run) {
        Some(again) => s.consider(&again, ReplayMode::Simplify),
        None => Ok(false),
    }
}

/// The current sequence, its blocks and the elements of one collection.
pub(crate) struct Snapshot {
    /// The step count when it was taken.
    pub(crate) steps: u64,
    pub(crate) choices: Vec<u64>,
    pub(crate) blocks: Vec<Block>,
    pub(crate) elems: Vec<usize>,
    /// The positions of the indices into the collection drawn after it
    /// (see [`indices_after`]).
    pub(crate) indices: Vec<usize>,
}

impl Snapshot {
    /// The state of `s`, with the elements of collection `c`.
    pub(crate) fn of<T: ShrinkTest>(s: &ChoiceShrinker<T>, c: usize) -> Snapshot {
        let elems = if c < s.blocks().len() {
            children(s.blocks(), c, BlockKind::Element)
        } else {
            Vec::new()
        };
        Snapshot {
            steps: s.steps(),
            indices: indices_after(s.bounds(), s.blocks(), c, elems.len()),
            choices: s.choices().to_vec(),
            blocks: s.blocks().to_vec(),
            elems,
        }
    }
}

/// Delete runs of single choices (else of pairs: a "one more?" flag and
/// its element), from the end: a run that can go grows by doubling.
pub(crate) fn delete_choices<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    let mut i = s.choices().len();
    let (mut seen, mut nonzero_end) = (u64::MAX, 0);
    while i > 0 {
        i -= 1;
        if seen != s.steps() {
            seen = s.steps();
            nonzero_end = s
                .choices()
                .iter()
                .rposition(|&c| c != 0)
                .map_or(0, |p| p + 1);
        }
        let cur = s.choices();
        if i >= cur.len() {
            i = cur.len();
            continue;
        }
        // Deleting zeros at the very end deletes nothing (a replay pads
        // them back); deleting one of a run of equal choices is one
        // candidate, tried at the run's end.
        if i >= nonzero_end || cur.get(i + 1) == Some(&cur[i]) {
            continue;
        }
        let before = cur.to_vec();
        let mut delete = |k: usize| -> Shrinking<bool> {
            Ok(k <= i + 1 && {
                let mut cand = before[..i + 1 - k].to_vec();
                cand.extend_from_slice(&before[i + 1..]);
                s.consider(&cand, ReplayMode::Simplify)?
            })
        };
        // Runs of one choice, else of pairs (a flag and a value), growing.
        let deleted = if delete(1)? {
            find_integer(&mut delete)?
        } else if delete(2)? {
            2 * find_integer(|m| delete(2 * m))?
        } else {
            0
        };
        i = i.saturating_sub(deleted.saturating_sub(1));
    }
    Ok(())
}

/// Delete a run of `k` choices (`k` = 1, 2, 4, …) and lower one of the
/// [`REACH`] choices before it by 1 or by `k`: a collection's length drawn
/// before elements that mark no blocks. Only choices smaller than the number
/// of choices after them are taken for lengths, which keeps the pass near
/// linear on long sequences of large values.
pub(crate) fn delete_with_length<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    let mut k = 1;
    while k <= s.choices().len() {
        let mut start = s.choices().len().saturating_sub(k);
        let (mut seen, mut nonzero_end) = (u64::MAX, 0);
        loop {
            if seen != s.steps() {
                seen = s.steps();
                nonzero_end = s
                    .choices()
                    .iter()
                    .rposition(|&c| c != 0)
                    .map_or(0, |p| p + 1);
            }
            let cur = s.choices();
            if start + k <= cur.len() && start < nonzero_end {
                let by_what: &[u64] = if k == 1 { &[1] } else { &[1, k as u64] };
                'lower: for i in start.saturating_sub(REACH)..start {
                    for &by in by_what {
                        let cur = s.choices();
                        // A length counts the elements after it, each at
                        // least one choice: a larger choice is no length.
                        let remaining = (cur.len() - i) as u64;
                        if start + k > cur.len() || cur[i] < by || cur[i] >= remaining {
                            continue;
                        }
                        let mut cand = Vec::with_capacity(cur.len() - k);
                        cand.extend_from_slice(&cur[..start]);
                        cand.extend_from_slice(&cur[start + k..]);
                        cand[i] -= by;
                        if s.consider(&cand, ReplayMode::Simplify)? {
                            break 'lower;
                        }
                    }
                }
            }
            if start == 0 {
                break;
            }
            start -= 1;
        }
        k *= 2;
    }
    Ok(())
}

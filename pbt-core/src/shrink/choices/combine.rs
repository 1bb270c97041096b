//! Deletions past local minima: edits of a short collection (a program of
//! commands, a list of operations, a string) that delete an element only
//! together with another edit, where no single deletion still fails.
//!
//! - [`delete_pairs`]: delete two elements that are not adjacent (a
//!   command and the one it enabled: `Inc … Dec`, `Push … Pop`).
//! - [`delete_replacing`]: delete an element and give one choice of an
//!   element that equals another a small other value (a step replaced,
//!   the rest replayed and so re-validated: `Set(0) Set(0) Undo Undo Get`
//!   becomes `Set(1) Set(0) Undo Get`).
//! - [`delete_raising`]: delete an element and raise one choice of a later
//!   element by one (a call from the front deleted while the call after
//!   reaches one further: `Next Next NthBack(6)` becomes `Next
//!   NthBack(7)`).
//!
//! They try every pair of places, so they run only on short collections
//! ([`SHORT`], [`REPLACE_UP_TO`]), and only when the cheap passes are
//! stuck.

use super::delete::Snapshot;
use super::shrinker::{ChoiceShrinker, ReplayMode, ShrinkTest, Shrinking};
use crate::choices::{children, Block, Choices};
use crate::source::BlockKind;

/// The most elements a collection may have for these passes.
const SHORT: usize = 24;

/// The most elements, and the most choices, a collection may have for
/// [`delete_replacing`], which tries [`VALUES`] values at each choice per
/// deleted element: the minimal programs of interacting steps are short,
/// and a pass that costs `elements × choices × VALUES` replays at every
/// fixed point must not be run on the lists of the shrinking benchmarks
/// (their nested lists end at 11 elements, where it cost 40% of the whole
/// shrink and never stepped).
const REPLACE_UP_TO: (usize, usize) = (8, 32);

/// The values [`delete_replacing`] gives a choice: `0..VALUES`, within its
/// bound.
const VALUES: u64 = 4;

/// `choices` without the elements `gone` (indices into `elems`, the
/// elements of collection `c`, in increasing order), its length choice
/// lowered by their count as [`super::delete`]'s `without_elements` does;
/// `None` when the length cannot go that low.
fn without(
    choices: &[u64],
    blocks: &[Block],
    elems: &[usize],
    c: usize,
    gone: &[usize],
) -> Option<Choices> {
    let coll = blocks[c];
    let prefixed = blocks[*elems.first()?].start > coll.start;
    let count = gone.len() as u64;
    let len_at = match prefixed {
        false => None,
        true if choices.get(coll.start)? >= &count => Some(coll.start),
        true if coll.start > 0 && choices[coll.start - 1] >= count => Some(coll.start - 1),
        true => return None,
    };
    let mut out = Vec::with_capacity(choices.len());
    let mut from = 0;
    for &g in gone {
        let span = blocks[*elems.get(g)?].span();
        if span.end > choices.len() || span.start < from {
            return None;
        }
        out.extend_from_slice(&choices[from..span.start]);
        from = span.end;
    }
    out.extend_from_slice(&choices[from..]);
    if let Some(at) = len_at {
        out[at] -= count;
    }
    Some(out)
}

/// The collections of `s` with `elements` elements and at most `choices`
/// choices, innermost (last) first: counted from the blocks, before any
/// copy of the sequence is taken (most collections of a long sequence are
/// not short, and a copy for each would cost more than the pass).
fn short_collections<T: ShrinkTest>(
    s: &ChoiceShrinker<T>,
    elements: std::ops::RangeInclusive<usize>,
    choices: usize,
) -> Vec<usize> {
    let blocks = s.blocks();
    (0..blocks.len())
        .rev()
        .filter(|&c| {
            let b = blocks[c];
            b.kind == BlockKind::Collection
                && b.len() <= choices
                && elements.contains(&children(blocks, c, BlockKind::Element).len())
        })
        .collect()
}

/// Whether block `c` of the snapshot is a collection (after a step, the
/// blocks may be others).
fn is_collection(now: &Snapshot, c: usize) -> bool {
    now.blocks
        .get(c)
        .is_some_and(|b| b.kind == BlockKind::Collection)
}

/// The span of collection `c` of the snapshot while it is one that
/// [`delete_replacing`] and [`delete_raising`] take: of 2 to
/// [`REPLACE_UP_TO`] elements and choices, within the sequence.
fn fitting(now: &Snapshot, c: usize) -> Option<std::ops::Range<usize>> {
    let coll = now.blocks.get(c).map(Block::span)?;
    let m = now.elems.len();
    let fits = coll.end <= now.choices.len()
        && (2..=REPLACE_UP_TO.0).contains(&m)
        && coll.len() <= REPLACE_UP_TO.1;
    (fits && is_collection(now, c)).then_some(coll)
}

/// Whether element `e` of the snapshot is zeros that end the sequence (a
/// program's last continuation choice, `0`: "end here"). Deleting it
/// deletes nothing: a replay reads past the end of a candidate as `0`, so
/// it reads the element back, and the candidate is the edit that comes
/// with the deletion alone, a choice lowered (a candidate of the
/// single-choice passes) or raised (no smaller), in a sequence no shorter
/// than the current one (see [`Attempt::progress`](super::Attempt::progress)).
fn pads_back(now: &Snapshot, e: usize) -> bool {
    let span = now.blocks[now.elems[e]].span();
    span.end == now.choices.len() && now.choices[span].iter().all(|&x| x == 0)
}

/// Delete two elements of a collection of at most [`SHORT`] that are not
/// next to each other (adjacent ones go as a run in `delete_blocks`): for
/// each element from the last, with each earlier one from the nearest.
/// A program whose failure needs `Inc Inc Inc Dec` and that holds one
/// `Inc` and one `Dec` more loses neither alone (the `Dec` it keeps needs
/// the `Inc`), and both together. Of a run of equal elements only the
/// last is tried (the others give the same candidates).
pub(crate) fn delete_pairs<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    for c in short_collections(s, 3..=SHORT, usize::MAX) {
        let mut now = Snapshot::of(s, c);
        let mut j = now.elems.len();
        'j: while j > 0 {
            j -= 1;
            if now.steps != s.steps() {
                now = Snapshot::of(s, c);
            }
            let m = now.elems.len();
            if !is_collection(&now, c) || !(3..=SHORT).contains(&m) || j >= m {
                break;
            }
            // An element equal to the next one, tried already (as `j`,
            // or as `i` with the same `j`), gives the same candidates.
            let body = |e: usize| &now.choices[now.blocks[now.elems[e]].span()];
            if j + 1 < m && body(j) == body(j + 1) || pads_back(&now, j) {
                continue;
            }
            for i in (0..j.saturating_sub(1)).rev() {
                if i + 2 < j && body(i) == body(i + 1) {
                    continue;
                }
                let cand = without(&now.choices, &now.blocks, &now.elems, c, &[i, j]);
                if let Some(cand) = cand {
                    if s.consider(&cand, ReplayMode::Simplify)? {
                        continue 'j;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Delete an element of a collection of at most [`REPLACE_UP_TO`]
/// elements and choices, and give one choice of another element that
/// equals a third (two steps that must come to differ) a value below
/// [`VALUES`] (within its bound); the replay regenerates
/// everything after it, so a step replaced this way re-validates the rest.
/// Shorter, so a step even when the new value is larger: a program that
/// needs two different values, stuck with `Set(0) Set(0)` and an extra
/// `Undo`, becomes `Set(1) Set(0)` without it.
pub(crate) fn delete_replacing<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    let (elements, choices) = REPLACE_UP_TO;
    for c in short_collections(s, 2..=elements, choices) {
        let mut now = Snapshot::of(s, c);
        let mut j = now.elems.len();
        'j: while j > 0 {
            j -= 1;
            if now.steps != s.steps() {
                now = Snapshot::of(s, c);
            }
            let m = now.elems.len();
            if fitting(&now, c).is_none() || j >= m {
                break;
            }
            if pads_back(&now, j) {
                continue;
            }
            let Some(cand) = without(&now.choices, &now.blocks, &now.elems, c, &[j]) else {
                continue;
            };
            let gone = now.blocks[now.elems[j]].span();
            let bounds = s.bounds().to_vec();
            // The choices of the elements left that equal another element
            // (where two values must differ), at their places in the
            // candidate (those after the deleted element moved back by its
            // length), with their bounds.
            let body = |e: usize| &now.choices[now.blocks[now.elems[e]].span()];
            let twins = (0..m).filter(|&e| e != j && (0..m).any(|f| f != e && body(f) == body(e)));
            let places: Vec<usize> = twins
                .flat_map(|e| now.blocks[now.elems[e]].span())
                .collect();
            let mut cand = cand;
            for at in places {
                let bound = bounds[at];
                let at = if at < gone.start { at } else { at - gone.len() };
                let was = cand[at];
                for v in (0..VALUES.min(bound.saturating_add(1))).filter(|&v| v != was) {
                    cand[at] = v;
                    if s.consider(&cand, ReplayMode::Simplify)? {
                        continue 'j;
                    }
                }
                cand[at] = was;
            }
        }
    }
    Ok(())
}

/// The largest bound of a choice [`delete_raising`] raises: a count, an
/// index, a variant (the `k` of `NthBack(k)` in `0..8`), not a value of a
/// wide range.
const COUNT_BOUND: u64 = 255;

/// Whether choice `at` is the kind or the first value choice of an
/// `Arbitrary` integer (which [`super::magnitude`] and the minimizing
/// passes shrink by magnitude; raising it by one is never what a deletion
/// needs).
fn arbitrary_integer<T: ShrinkTest>(s: &ChoiceShrinker<T>, at: usize) -> bool {
    let marks = s.integers();
    marks.starts_at(at) || (at > 0 && marks.starts_at(at - 1))
}

/// Delete an element of a collection of at most [`REPLACE_UP_TO`]
/// elements and choices, and raise one choice of a later element by one
/// (within its bound, a bound of at most [`COUNT_BOUND`], not an
/// `Arbitrary` integer's): where a step's effect is counted by a later one
/// (`Next Next NthBack(6)`, an `nth_back` that must reach past what the
/// calls from the front took), one step fewer needs the count one higher,
/// `Next NthBack(7)`. Shorter, so a step although a value went up; each
/// run raises by one, so a count `k` too low takes `k` runs.
pub(crate) fn delete_raising<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    let (elements, choices) = REPLACE_UP_TO;
    for c in short_collections(s, 2..=elements, choices) {
        let mut now = Snapshot::of(s, c);
        let mut j = now.elems.len();
        'j: while j > 0 {
            j -= 1;
            if now.steps != s.steps() {
                now = Snapshot::of(s, c);
            }
            let Some(coll) = fitting(&now, c) else {
                break;
            };
            if j + 1 >= now.elems.len() {
                continue;
            }
            let Some(mut cand) = without(&now.choices, &now.blocks, &now.elems, c, &[j]) else {
                continue;
            };
            let gone = now.blocks[now.elems[j]].span();
            let later = now.blocks[now.elems[j + 1]].start..coll.end;
            for at in later {
                let (bound, to) = (s.bounds()[at], at - gone.len());
                let was = cand[to];
                if was >= bound || bound > COUNT_BOUND || arbitrary_integer(s, at) {
                    continue;
                }
                cand[to] = was + 1;
                if s.consider(&cand, ReplayMode::Simplify)? {
                    continue 'j;
                }
                cand[to] = was;
            }
        }
    }
    Ok(())
}

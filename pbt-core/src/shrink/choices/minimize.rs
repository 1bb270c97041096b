//! Passes that lower choices, keeping the sequence's length.
//!
//! - [`zero_blocks`]: set whole blocks to zeros (a collection's elements in
//!   runs that grow by doubling).
//! - [`minimize_choices`]: lower each choice to the least that still fails,
//!   by binary search over values of the same parity (which keeps the sign
//!   of an interleaved signed value), then one below.
//! - [`shrink_duplicates`]: lower every copy of a repeated choice together.
//! - [`lower_pairs`]: lower two nearby choices by the same amount.
//! - [`redistribute`]: move value from a choice to a later one nearby.
//! - [`lower_raising_next`]: lower an integer while the next one goes to
//!   the top of its range (a product that overflows, say).

use super::delete::Snapshot;
use super::shrinker::{find_integer, ChoiceShrinker, ReplayMode, ShrinkTest, Shrinking};
use crate::arbitrary::any_kind_for;
use crate::source::BlockKind;

/// How far apart two choices may be for the passes that change two.
const REACH: usize = 8;

/// Zero blocks: first each collection's elements in runs (all at once,
/// else runs growing by doubling from each element on), then every other
/// block that is not zero yet, outermost first (the whole block, else all
/// of it but its first choice).
pub(crate) fn zero_blocks<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    let mut c = 0;
    while c < s.blocks().len() {
        if s.blocks()[c].kind == BlockKind::Collection {
            zero_elements(s, c)?;
        }
        c += 1;
    }
    let mut b = 0;
    while b < s.blocks().len() {
        let span = s.blocks()[b].span();
        // The whole block, else all but its first choice (a recursive
        // layer's branch: `a + b` with both operands zero).
        for from in [span.start, span.start + 1] {
            let part = from..span.end;
            if from < part.end
                && part.end <= s.choices().len()
                && s.choices()[part.clone()].iter().any(|&x| x != 0)
            {
                let zeros = vec![0; part.len()];
                if s.consider_splice(part, &zeros, ReplayMode::Simplify)? {
                    break;
                }
            }
        }
        b += 1;
    }
    Ok(())
}

/// Zero the elements of collection `c` in runs.
fn zero_elements<T: ShrinkTest>(s: &mut ChoiceShrinker<T>, c: usize) -> Shrinking {
    let mut j = 0;
    let mut now = Snapshot::of(s, c);
    loop {
        if now.steps != s.steps() {
            now = Snapshot::of(s, c);
        }
        let Snapshot {
            choices,
            blocks,
            elems,
            ..
        } = &now;
        if j >= elems.len() {
            return Ok(());
        }
        if choices[blocks[elems[j]].span()].iter().all(|&x| x == 0) {
            j += 1;
            continue;
        }
        let zeroed = find_integer(|k| {
            Ok(j + k <= elems.len() && {
                let mut cand = choices.clone();
                let run = blocks[elems[j]].start..blocks[elems[j + k - 1]].end;
                cand[run].iter_mut().for_each(|x| *x = 0);
                s.consider(&cand, ReplayMode::Simplify)?
            })
        })?;
        j += zeroed.max(1);
    }
}

/// Lower each choice to the least value that still fails: `0`, else (when
/// one or two below still fails) a binary search over the values of its
/// parity between one that does not fail and one that does, then the value
/// one below that.
pub(crate) fn minimize_choices<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    let mut i = 0;
    while i < s.choices().len() {
        minimize_at(s, i)?;
        i += 1;
    }
    Ok(())
}

/// [`minimize_choices`] at choice `i`.
fn minimize_at<T: ShrinkTest>(s: &mut ChoiceShrinker<T>, i: usize) -> Shrinking {
    let set = |s: &mut ChoiceShrinker<T>, v: u64| -> Shrinking<bool> {
        Ok(s.choices().get(i).is_some_and(|&c| v < c)
            && s.consider_splice(i..i + 1, &[v], ReplayMode::Simplify)?)
    };
    let Some(&c) = s.choices().get(i) else {
        return Ok(());
    };
    if c == 0 || set(s, 0)? {
        return Ok(());
    }
    // A choice one below that does not fail (or fails as the same value)
    // leaves nothing to search for, unless the parity matters: two below.
    if !set(s, c - 1)? && (c < 2 || !set(s, c - 2)?) {
        return Ok(());
    }
    // Same parity first: `c - 2m` for the largest `m` that fails.
    let parity = c & 1;
    if c >= 2 {
        let (mut lo, mut hi) = (0u64, c / 2); // m = hi works (it is c)
        if parity == 1 && set(s, 1)? {
            return Ok(());
        }
        while lo + 1 < hi {
            let mid = lo + (hi - lo) / 2;
            if set(s, parity + 2 * mid)? {
                hi = mid;
            } else {
                lo = mid;
            }
        }
    }
    // Then the one value below, of the other parity (on an unsigned range
    // the next smaller value; on an interleaved signed one, the value of
    // the other sign next to it in magnitude). A second binary search over
    // every value below cost as many replays again and found no more.
    if let Some(&c) = s.choices().get(i) {
        if c > 0 {
            set(s, c - 1)?;
        }
    }
    Ok(())
}

/// Lower every copy of a repeated non-zero choice together, by binary
/// search (Hypothesis's "minimize duplicated blocks": values that must stay
/// equal shrink as one, wherever they are).
pub(crate) fn shrink_duplicates<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    let mut values: Vec<u64> = s.choices().iter().copied().filter(|&c| c > 0).collect();
    values.sort_unstable();
    let mut repeated: Vec<u64> = values
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0])
        .collect();
    repeated.dedup();
    for v in repeated.into_iter().take(32) {
        let at: Vec<usize> = (0..s.choices().len())
            .filter(|&i| s.choices()[i] == v)
            .collect();
        if at.len() < 2 {
            continue;
        }
        let before = s.choices().to_vec();
        let lower = |s: &mut ChoiceShrinker<T>, to: u64| {
            let mut cand = before.clone();
            at.iter().for_each(|&i| cand[i] = to);
            s.consider(&cand, ReplayMode::Simplify)
        };
        if lower(s, 0)? {
            continue;
        }
        let (mut lo, mut hi) = (0u64, v);
        while lo + 1 < hi {
            let mid = lo + (hi - lo) / 2;
            if lower(s, mid)? {
                hi = mid;
            } else {
                lo = mid;
            }
        }
    }
    Ok(())
}

/// Lower two choices at most [`REACH`] apart by the same amount (values
/// that must keep their difference shrink as a pair): the largest amount
/// that still fails, by halving from the smaller of the two.
pub(crate) fn lower_pairs<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    let mut i = 0;
    while i < s.choices().len() {
        let mut j = i + 1;
        while j < s.choices().len().min(i + 1 + REACH) {
            let cur = s.choices();
            let m = cur[i].min(cur[j]);
            let mut d = m;
            while d > 0 {
                let cur = s.choices();
                let mut cand = cur.to_vec();
                cand[i] -= d;
                cand[j] -= d;
                if s.consider(&cand, ReplayMode::Simplify)? {
                    break;
                }
                d /= 2;
            }
            j += 1;
        }
        i += 1;
    }
    Ok(())
}

/// Lower an `Arbitrary` integer while the next one goes to the top of its
/// range: the largest amount that still fails (by [`find_integer`]), each
/// candidate from the sequence as it was. Value that must keep a product
/// (or any bound that the two pass together, but neither alone) cannot move
/// by [`redistribute`]'s sums: `a * b` overflowing a `u32` ends at
/// `3 × 1431655766`, from which lowering `a` alone passes. With `b` at the
/// top, `a` goes down to `2`, and [`minimize_choices`] then takes `b` down
/// to `2^31`. The later integer goes up but the earlier one down: the
/// sequence gets smaller. Only pairs of integers drawn one right after
/// the other (their kind and value choices adjacent, as the
/// [marks](crate::choices::Replayed::integers) say), the later one's value
/// below the top of the kind it was drawn in.
pub(crate) fn lower_raising_next<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    let mut i = 1;
    while i + 2 < s.choices().len() {
        let j = i + 2;
        let (cur, bounds, marks) = (s.choices(), s.bounds(), s.integers());
        let top = bounds.get(j).copied().filter(|&top| cur[j] < top);
        let lowerable = marks.starts_at(i - 1) && marks.starts_at(j - 1) && cur[i] > 0;
        if let (true, Some(top)) = (lowerable, top) {
            // Each candidate from the sequence as it is now (copied only
            // for a pair that may move).
            let cur = cur.to_vec();
            find_integer(|d| {
                Ok(d as u64 <= cur[i] && {
                    let mut cand = cur.clone();
                    cand[i] -= d as u64;
                    cand[j] = top;
                    s.consider(&cand, ReplayMode::Simplify)?
                })
            })?;
        }
        i += 1;
    }
    Ok(())
}

/// Move value from a choice to a later one at most [`REACH`] after it: the
/// earlier loses `d`, the later gains `d`, `2d` or `d / 2` (signed values
/// interleave `0, 1, -1, 2, …`, so one step of value is two of choice, except
/// beyond the smaller of the two extremes), for `d` the
/// whole choice, then halves (each also rounded down to even, which keeps
/// an interleaved value's sign).
pub(crate) fn redistribute<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    let mut i = 0;
    while i < s.choices().len() {
        let mut j = i + 1;
        while j < s.choices().len().min(i + 1 + REACH) {
            move_value(s, i, j)?;
            j += 1;
        }
        i += 1;
    }
    Ok(())
}

/// [`redistribute`] from choice `i` to choice `j`: the first amount that
/// still fails.
fn move_value<T: ShrinkTest>(s: &mut ChoiceShrinker<T>, i: usize, j: usize) -> Shrinking {
    let v = s.choices()[i];
    let mut last = 0;
    let amounts: Vec<u64> = std::iter::successors(Some(v), |&d| (d > 1).then_some(d / 2))
        .flat_map(|d| [d, d & !1])
        .filter(|&d| d > 0)
        .filter(move |&d| std::mem::replace(&mut last, d) != d)
        .collect();
    for d in amounts {
        for gain in [d, d.saturating_mul(2), d / 2] {
            let cur = s.choices();
            if j >= cur.len() || cur[i] < d {
                return Ok(());
            }
            let Some(moved) = cur[j].checked_add(gain).filter(|_| gain > 0) else {
                continue;
            };
            let mut cand = cur.to_vec();
            cand[i] -= d;
            cand[j] = moved;
            if s.consider(&cand, ReplayMode::Simplify)? {
                return Ok(());
            }
            if let Some((kind, any)) = small_kind_before(s, i, j, moved) {
                cand[kind] = any;
                if s.consider(&cand, ReplayMode::Simplify)? {
                    return Ok(());
                }
            }
        }
    }
    Ok(())
}

/// The position of choice `j`'s kind and the kind to put there, when `j`
/// is the value of an `Arbitrary` integer (a [mark](crate::choices::Replayed::integers)
/// right before it) drawn in a small kind that cannot hold `moved` (its
/// value's bound is below it), and the kind is after `i`: the move then
/// needs the integer in the "any" kind. So `a + b` overflowing, with `b`
/// drawn small (at most 10 000 at size 100), moves value from `a` to `b`
/// and ends at `1 + u32::MAX`, not `4294957296 + 10000`. The kind goes up,
/// but after `i`, which went down: the sequence gets smaller.
fn small_kind_before<T: ShrinkTest>(
    s: &ChoiceShrinker<T>,
    i: usize,
    j: usize,
    moved: u64,
) -> Option<(usize, u64)> {
    let kind = j.checked_sub(1).filter(|&k| k > i)?;
    let (bounds, choices) = (s.bounds(), s.choices());
    if !s.integers().starts_at(kind) || bounds.get(j).is_none_or(|&b| moved <= b) {
        return None;
    }
    any_kind_for(choices[kind]).map(|any| (kind, any))
}

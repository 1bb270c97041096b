//! Candidate simplifications as iterators, for shrinkers that take the
//! first candidate that fails (the stateful and isolated runners).

use crate::choices::Choices;
#[cfg(doc)]
use crate::choices::Replay;

/// Candidate simplifications of a choice sequence, in passes (Hypothesis and
/// falsify style): delete spans; zero spans; minimize single choices (toward
/// 0 by halving distances, which greedy acceptance turns into a binary
/// search); sort spans and swap adjacent blocks into order; lower pairs of
/// choices together; lower every copy of a repeated choice together;
/// redistribute between pairs (move value from an earlier choice to a later
/// one). Span
/// deletions are also tried together with lowering a choice shortly before
/// the span (a length drawn before its elements).
///
/// Every candidate is smaller than `seq` in shortlex order (shorter, or as long
/// and lexicographically smaller), so greedy shrinking over them terminates.
///
/// ```
/// let cands: Vec<_> = pbt_core::shrink::choices::simplifications(&[4, 0]).collect();
/// assert!(cands.contains(&vec![0]));
/// assert!(cands.iter().all(|c| pbt_core::choices::shortlex_lt(c, &[4, 0])));
/// ```
pub fn simplifications(seq: &[u64]) -> Box<dyn Iterator<Item = Choices> + '_> {
    passes(seq, Box::new(halvings(seq)))
}

/// The [`simplifications`] with their pass that lowers single choices by
/// `v, v/2, …` replaced by [`bisections`], in the same place. Over a greedy
/// descent, the bisections lower a choice to where a monotone failure
/// starts in about `log2 v` candidates in all, where that pass tries about
/// `log2 v` at every step. What the external shrinker proposes for a
/// variable with a generator, after deleting whole elements.
///
/// ```
/// use pbt_core::{choices::shortlex_lt, shrink::choices::simplifications_by_bisection};
/// let cands: Vec<_> = simplifications_by_bisection(&[100, 3]).collect();
/// assert!(cands.contains(&vec![3])); // a deletion
/// // 100 bisected: 98 (a search under way), 0, 64, 96, 99 (searches that
/// // start); not halved (100 - 50, 100 - 25, …).
/// assert!(cands.contains(&vec![64, 3]) && cands.contains(&vec![96, 3]));
/// assert!(!cands.contains(&vec![50, 3]) && !cands.contains(&vec![75, 3]));
/// assert!(cands.iter().all(|c| shortlex_lt(c, &[100, 3])));
/// ```
pub fn simplifications_by_bisection(seq: &[u64]) -> Box<dyn Iterator<Item = Choices> + '_> {
    Box::new(passes(seq, Box::new(bisections(seq))))
}

/// Each choice lowered toward 0 by halving distances (`v`, `v/2`, …, `1`,
/// each also rounded down to even), which greedy acceptance turns into a
/// binary search, from the top at every step.
fn halvings(seq: &[u64]) -> impl Iterator<Item = Choices> + '_ {
    (0..seq.len()).flat_map(move |i| {
        let v = seq[i];
        // Distances v, v/2, …, 1, each also rounded down to even (an even
        // step on an interleaved signed range keeps the value's sign).
        let mut last = 0;
        let steps = std::iter::successors(Some(v), |&d| (d > 1).then_some(d / 2))
            .flat_map(|d| [d, d & !1])
            .filter(move |&d| d > 0 && std::mem::replace(&mut last, d) != d);
        steps.filter(move |_| v > 0).map(move |d| {
            let mut c = seq.to_vec();
            c[i] = v - d;
            c
        })
    })
}

/// The passes of [`simplifications`], with `singles` as the one that
/// lowers single choices.
fn passes<'a>(
    seq: &'a [u64],
    singles: Box<dyn Iterator<Item = Choices> + 'a>,
) -> Box<dyn Iterator<Item = Choices> + 'a> {
    /// How far apart two choices may be for the passes that change two.
    const REACH: usize = 8;
    let n = seq.len();
    let spans = std::iter::successors(Some(n), |&k| (k > 1).then_some(k / 2));
    let deletions = spans.clone().flat_map(move |k| {
        (0..=n.saturating_sub(k)).rev().map(move |start| {
            let mut c = seq[..start].to_vec();
            c.extend_from_slice(&seq[start + k..]);
            c
        })
    });
    // A collection's length is drawn before its elements: deleting elements
    // pairs with lowering a length drawn shortly before them.
    let spans_k = std::iter::successors(Some(n), |&k| (k > 1).then_some(k / 2));
    let length_deletions = spans_k.flat_map(move |k| {
        (0..=n.saturating_sub(k)).rev().flat_map(move |start| {
            // Deleting zeros at the very end deletes nothing (a replay pads
            // them back): that candidate would only lower the length.
            let at_end = start + k == n && seq[start..].iter().all(|&c| c == 0);
            let reach = if at_end {
                start..start
            } else {
                start.saturating_sub(REACH)..start
            };
            reach.flat_map(move |i| {
                let by = [1, k as u64];
                by.into_iter()
                    .filter(move |&d| d <= seq[i] && (d == 1 || k > 1))
                    .map(move |d| {
                        let mut c = seq[..start].to_vec();
                        c.extend_from_slice(&seq[start + k..]);
                        c[i] -= d;
                        c
                    })
            })
        })
    });
    let zeroings = spans.flat_map(move |k| {
        (0..=n.saturating_sub(k)).filter_map(move |start| {
            let span = &seq[start..start + k];
            (k > 1 && span.iter().any(|&c| c != 0)).then(|| {
                let mut c = seq.to_vec();
                c[start..start + k].iter_mut().for_each(|x| *x = 0);
                c
            })
        })
    });
    let blocks = std::iter::successors(Some(1usize), move |&k| (2 * k <= n / 2).then_some(2 * k));
    let reorders = blocks.flat_map(move |k| {
        (0..n.saturating_sub(2 * k - 1)).filter_map(move |i| {
            let (a, b) = (&seq[i..i + k], &seq[i + k..i + 2 * k]);
            (b < a).then(|| {
                let mut c = seq.to_vec();
                c[i..i + k].copy_from_slice(b);
                c[i + k..i + 2 * k].copy_from_slice(a);
                c
            })
        })
    });
    let sorts = std::iter::successors(Some(n), |&k| (k > 2).then_some(k / 2)).flat_map(move |k| {
        (0..=n.saturating_sub(k))
            .step_by(k.max(1))
            .filter_map(move |i| {
                let span = &seq[i..i + k];
                (k > 2 && span.windows(2).any(|w| w[0] > w[1])).then(|| {
                    let mut c = seq.to_vec();
                    c[i..i + k].sort_unstable();
                    c
                })
            })
    });
    // Two choices lowered together by the same amount: values that must stay
    // equal (or keep their difference) shrink as a pair.
    let pairs = (0..n).flat_map(move |i| {
        ((i + 1)..n.min(i + 1 + REACH)).flat_map(move |j| {
            let m = seq[i].min(seq[j]);
            std::iter::successors(Some(m), |&d| (d > 1).then_some(d / 2))
                .filter(move |&d| d > 0)
                .map(move |d| {
                    let mut c = seq.to_vec();
                    c[i] -= d;
                    c[j] -= d;
                    c
                })
        })
    });
    // Equal choices lowered together, wherever they are (Hypothesis's
    // "minimize duplicated blocks"): values that must stay equal shrink as
    // one, even when they are farther apart than `pairs` reaches.
    // Found when the pass is reached (sorting a long sequence's choices
    // at every step was a tenth of shrinking a 10 000-element list).
    let duplicates = std::iter::once(()).flat_map(move |()| {
        let mut values: Vec<u64> = seq.iter().copied().filter(|&c| c > 0).collect();
        values.sort_unstable();
        let repeated: Vec<u64> = values
            .windows(2)
            .filter(|w| w[0] == w[1])
            .map(|w| w[0])
            .collect::<std::collections::BTreeSet<u64>>()
            .into_iter()
            .take(32)
            .collect();
        repeated.into_iter().flat_map(move |v| {
            std::iter::successors(Some(v), |&d| (d > 1).then_some(d / 2)).map(move |d| {
                seq.iter()
                    .map(|&c| if c == v { v - d } else { c })
                    .collect::<Choices>()
            })
        })
    });
    let redistributions = (0..n).flat_map(move |i| {
        ((i + 1)..n.min(i + 1 + REACH)).flat_map(move |j| {
            let v = seq[i];
            // Amounts v, v/2, …, each also rounded down to even: signed
            // values interleave 0, 1, -1, 2, …, so an even amount of choice
            // keeps the sign it changes.
            let steps = std::iter::successors(Some(v), |&d| (d > 1).then_some(d / 2))
                .flat_map(|d| [d, d & !1])
                .filter(|&d| d > 0);
            let mut last = 0;
            let steps = steps.filter(move |&d| std::mem::replace(&mut last, d) != d);
            // The receiver gains d, or 2d: one step of value for one step
            // of choice on an interleaved signed range is two steps.
            steps.filter(move |_| v > 0).flat_map(move |d| {
                [Some(d), d.checked_mul(2)]
                    .into_iter()
                    .flatten()
                    .filter_map(move |gain| {
                        let moved = seq[j].checked_add(gain)?;
                        let mut c = seq.to_vec();
                        c[i] = v - d;
                        c[j] = moved;
                        Some(c)
                    })
            })
        })
    });
    // Boxed: the chain is compiled once here, not in every property that
    // shrinks through choices.
    Box::new(
        deletions
            .chain(length_deletions)
            .chain(zeroings)
            .chain(singles)
            .chain(reorders)
            .chain(sorts)
            .chain(pairs)
            .chain(duplicates)
            .chain(redistributions),
    )
}

/// Candidates that lower one choice at a time by binary search, for a
/// shrinker that takes the first candidate that fails and then asks again
/// from it (greedy descent), which keeps no state between steps: the
/// choice itself carries the state of its search.
///
/// A choice `v` is searched as `w = v >> 1` with its lowest bit kept (an
/// interleaved signed range puts one sign on odd choices and the other on
/// even ones: a step of an even amount keeps the sign). First, for every
/// choice, the steps of a search under way: `w` lowered by `2^j` for each
/// `2^j` below `w`'s lowest set bit, largest first. Then, for every
/// choice, the searches that start: `0`; `w` rounded down to a multiple
/// of `2^k` for each `k`, coarsest first (taking the first that fails
/// leaves `w` a multiple of `2^k` whose next lower multiple passed: the
/// failure's boundary is within `2^k` below it, which the steps of a
/// search under way then halve, each step leaving the next one's scale in
/// the lowest set bit); and `v - 1` (the lowest bit, or the other sign).
///
/// Each choice `v` of a monotone failure (fails from some `t` up) so ends
/// at `t` after about `log2 v` candidates over all its steps, where
/// lowering it by `v/2, v/4, …` from the top at every step tries about
/// `(log2 v)^2 / 2`. Every candidate is as long as `seq` and smaller in
/// lexicographic order.
///
/// ```
/// let cands: Vec<_> = pbt_core::shrink::choices::bisections(&[9]).collect();
/// // A search under way (9 = 2·4 + 1: 4 lowered by 2, then by 1), then 0,
/// // 4 rounded down to 0 (with the low bit kept: 1), then 9 - 1.
/// assert_eq!(cands, [vec![5], vec![7], vec![0], vec![1], vec![8]]);
/// // 100 = 2·50: 50 lowered by 1; then 0, 50 rounded down to 32 and to
/// // 48 (64 and 96), then 99.
/// let cands: Vec<_> = pbt_core::shrink::choices::bisections(&[100]).collect();
/// assert_eq!(cands, [vec![98], vec![0], vec![64], vec![96], vec![99]]);
/// assert!(cands.iter().all(|c| pbt_core::choices::shortlex_lt(c, &[100])));
/// ```
pub fn bisections(seq: &[u64]) -> impl Iterator<Item = Choices> + '_ {
    let under_way = (0..seq.len()).flat_map(move |i| {
        let (v, w) = (seq[i], seq[i] >> 1);
        let scale = if w == 0 { 0 } else { w.trailing_zeros() };
        (0..scale)
            .rev()
            .map(move |j| with_choice(seq, i, v - (2 << j)))
    });
    let starts = (0..seq.len()).flat_map(move |i| {
        let (v, w, low) = (seq[i], seq[i] >> 1, seq[i] & 1);
        let zero = (v > 0).then_some(0);
        let bits = u64::BITS - w.leading_zeros();
        // Coarsest first, each multiple once (rounding to `2^k` and to
        // `2^(k+1)` agree when bit `k` of `w` is clear).
        let mut last = None;
        let rounded = (1..=bits)
            .rev()
            .map(move |k| w.checked_shr(k).map_or(0, |high| high << k))
            .filter(move |&r| r < w && last.replace(r) != Some(r))
            .map(move |r| (r << 1) | low)
            .filter(|&c| c > 0);
        let lowest = (v > 1).then(|| v - 1);
        zero.into_iter()
            .chain(rounded)
            .chain(lowest)
            .map(move |c| with_choice(seq, i, c))
    });
    under_way.chain(starts)
}

/// `seq` with its choice `i` set to `v`.
fn with_choice(seq: &[u64], i: usize, v: u64) -> Choices {
    let mut c = seq.to_vec();
    c[i] = v;
    c
}

/// Candidates that lower a choice (by up to 8) and raise the next one to
/// its bound or up to three below (`u64::MAX - 3 ..= u64::MAX`, read as the
/// bound minus 3 ..= the bound by [`Replay::saturating`]; a signed value's
/// largest choices are its extremes): the same value, encoded in a simpler
/// kind. An `Arbitrary` integer drawn as an
/// edge value (kind `7`, say `u32::MAX`) has no simpler neighbour among the
/// [`simplifications`]; re-encoded as an "any" value (kind `6`, choice
/// `u32::MAX`) it can shrink by binary search. Each candidate is smaller in
/// shortlex order.
///
/// ```
/// let cands: Vec<_> = pbt_core::shrink::choices::reencodings(&[7, 2]).collect();
/// assert_eq!(cands[..2], [vec![6, u64::MAX], vec![6, u64::MAX - 1]]);
/// assert!(cands.iter().all(|c| pbt_core::choices::shortlex_lt(c, &[7, 2])));
/// ```
pub fn reencodings(seq: &[u64]) -> impl Iterator<Item = Choices> + '_ {
    /// How far one choice is lowered at most.
    const LOWER: u64 = 8;
    (0..seq.len().saturating_sub(1))
        .filter(move |&i| seq[i + 1] < u64::MAX - 3)
        .flat_map(move |i| {
            let v = seq[i];
            (v.saturating_sub(LOWER)..v).rev().flat_map(move |lowered| {
                [0, 1, 2, 3].map(|below| {
                    let mut c = seq.to_vec();
                    c[i] = lowered;
                    c[i + 1] = u64::MAX - below;
                    c
                })
            })
        })
}

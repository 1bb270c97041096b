//! Candidate simplifications as iterators, for shrinkers that take the
//! first candidate that fails (the stateful and isolated runners).

use super::Choices;
#[cfg(doc)]
use super::Replay;

/// Candidate simplifications of a choice sequence, in passes (Hypothesis and
/// falsify style): delete spans; zero spans; minimise single choices (toward
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
/// let cands: Vec<_> = pbt_core::choices::simplifications(&[4, 0]).collect();
/// assert!(cands.contains(&vec![0]));
/// assert!(cands.iter().all(|c| pbt_core::choices::shortlex_lt(c, &[4, 0])));
/// ```
pub fn simplifications(seq: &[u64]) -> Box<dyn Iterator<Item = Choices> + '_> {
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
    let singles = (0..n).flat_map(move |i| {
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
    let duplicates = {
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
    };
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
/// let cands: Vec<_> = pbt_core::choices::reencodings(&[7, 2]).collect();
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

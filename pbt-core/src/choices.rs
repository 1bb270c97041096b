//! Choice sequences: recording the draws of a generator and replaying them.
//!
//! Generation is a function of the choices drawn from a [`Source`], so a
//! recorded sequence reproduces a value exactly, and a *modified* sequence
//! replayed through the same generator yields a value that the generator could
//! have produced (*Property Based Testing in MIT-Scheme*, §3.1–3.2). Shrinking such a sequence is how pbt
//! shrinks variables whose generator has invariants a type-based shrinker would
//! not know about.

use crate::source::Source;

/// The draws made during one generation, in order.
pub type Choices = Vec<u64>;

/// A source that forwards to another and keeps every choice it hands out.
///
/// ```
/// use pbt_core::{choices::{Recorder, Replay}, gen::{int, Gen}, Rng};
/// let g = int(0..100u32);
/// let mut rec = Recorder::new(Rng::from_seed(3));
/// let x = g.generate(&mut rec, 10).unwrap();
/// let y = g.generate(&mut Replay::new(rec.choices()), 10).unwrap();
/// assert_eq!(x, y);
/// ```
#[derive(Clone, Debug)]
pub struct Recorder<S> {
    inner: S,
    choices: Choices,
}

impl<S: Source> Recorder<S> {
    /// Record the draws of `inner`.
    pub fn new(inner: S) -> Self {
        Recorder {
            inner,
            // Room for a typical test case, so recording rarely reallocates.
            choices: Vec::with_capacity(256),
        }
    }

    /// Record the draws of `inner` into `buffer` (cleared first), so that a
    /// runner recording every test case reuses one allocation.
    pub fn with_buffer(inner: S, mut buffer: Choices) -> Self {
        buffer.clear();
        Recorder {
            inner,
            choices: buffer,
        }
    }

    /// The choices recorded so far.
    pub fn choices(&self) -> &[u64] {
        &self.choices
    }

    /// The recorded choices, consuming the recorder.
    pub fn into_choices(self) -> Choices {
        self.choices
    }
}

impl<S: Source> Source for Recorder<S> {
    #[inline(always)]
    fn draw(&mut self, max: u64) -> u64 {
        let c = self.inner.draw(max);
        self.choices.push(c);
        c
    }

    fn records(&self) -> bool {
        true
    }
}

/// A recorder that also keeps each draw's bound, so that a mutator can
/// replace a choice by another valid one (*Property Based Testing in MIT-Scheme*, §3.2).
#[derive(Clone, Debug)]
pub struct Tracer<S> {
    inner: S,
    choices: Choices,
    bounds: Choices,
}

impl<S: Source> Tracer<S> {
    /// Trace the draws of `inner`.
    pub fn new(inner: S) -> Self {
        Tracer {
            inner,
            choices: Vec::with_capacity(256),
            bounds: Vec::with_capacity(256),
        }
    }

    /// The choices and their bounds (`choice <= bound`).
    pub fn into_trace(self) -> (Choices, Choices) {
        (self.choices, self.bounds)
    }
}

impl<S: Source> Source for Tracer<S> {
    #[inline(always)]
    fn draw(&mut self, max: u64) -> u64 {
        let c = self.inner.draw(max);
        self.choices.push(c);
        self.bounds.push(max);
        c
    }

    fn records(&self) -> bool {
        true
    }
}

/// A random edit of a traced choice sequence (for mutation-based runners),
/// AFL "havoc" style: one to four stacked edits, each redrawing a choice
/// within its bound, nudging one by ±1, zeroing one, deleting or duplicating
/// a block, or inserting fresh choices (bounded like a neighbour) — so a
/// collection can grow by elements that are not all the simplest.
/// `bounds[i]` is the bound choice `i` was drawn with (missing bounds count
/// as `u64::MAX`).
///
/// ```
/// use pbt_core::{choices::mutate_choices, Rng};
/// let mut rng = Rng::from_seed(1);
/// let m = mutate_choices(&[3, 1, 4], &[9, 1, 9], &mut rng);
/// assert_ne!(m, vec![3, 1, 4]);
/// ```
pub fn mutate_choices<S: Source + ?Sized>(choices: &[u64], bounds: &[u64], src: &mut S) -> Choices {
    let mut out = choices.to_vec();
    let mut bnd: Vec<u64> = (0..choices.len())
        .map(|i| bounds.get(i).copied().unwrap_or(u64::MAX))
        .collect();
    let edits = 1 + src.draw(3);
    let mut done = 0;
    while done < edits || out == choices {
        done += 1;
        let n = out.len();
        if n == 0 {
            out.push(src.draw(u64::MAX));
            bnd.push(u64::MAX);
            continue;
        }
        let i = src.draw(n as u64 - 1) as usize;
        let span = 1 + src.draw((n - i - 1).min(7) as u64) as usize;
        match src.draw(6) {
            0 | 1 => out[i] = src.draw(bnd[i]),
            2 => {
                out[i] = if src.draw(1) == 0 {
                    out[i].saturating_sub(1)
                } else {
                    out[i].saturating_add(1).min(bnd[i])
                }
            }
            3 => out[i] = 0,
            4 => {
                out.drain(i..i + span);
                bnd.drain(i..i + span);
            }
            5 => {
                let (block, bblock) = (out[i..i + span].to_vec(), bnd[i..i + span].to_vec());
                out.splice(i + span..i + span, block);
                bnd.splice(i + span..i + span, bblock);
            }
            _ => {
                let fresh: Vec<u64> = (0..span).map(|k| src.draw(bnd[(i + k) % n])).collect();
                let fresh_bounds: Vec<u64> = (0..span).map(|k| bnd[(i + k) % n]).collect();
                out.splice(i + 1..i + 1, fresh);
                bnd.splice(i + 1..i + 1, fresh_bounds);
            }
        }
        if done > 64 {
            break;
        }
    }
    out
}

/// A source that feeds a recorded (possibly edited) sequence back.
///
/// When the sequence runs out, or a recorded choice is larger than the bound
/// asked for now, it yields `0`: the simplest choice. It records what it
/// actually handed out, so the result can be stored as the new sequence.
///
/// A replay is bounded: once it has been read more than
/// [`replay_limit`](crate::overrun::replay_limit)`(len)` times (twice the
/// recorded length plus 64), the draw panics with
/// [`Overrun::Replay`](crate::overrun::Overrun::Replay), which runners
/// treat as a rejected candidate. A generator that retries until it draws a
/// non-zero choice would otherwise spin forever on the padding zeros.
///
/// ```
/// use pbt_core::{choices::Replay, overrun::Overrun, Source};
/// let mut replay = Replay::new(&[]);
/// let stopped = std::panic::catch_unwind(move || loop {
///     if replay.draw(9) != 0 { break; }
/// }).unwrap_err();
/// assert_eq!(stopped.downcast_ref::<Overrun>(), Some(&Overrun::Replay { recorded: 0 }));
/// ```
#[derive(Clone, Debug)]
pub struct Replay<'a> {
    recorded: &'a [u64],
    pos: usize,
    limit: usize,
    used: Choices,
    saturate: bool,
}

impl<'a> Replay<'a> {
    /// Replay `recorded` from the start.
    pub fn new(recorded: &'a [u64]) -> Self {
        Replay {
            recorded,
            pos: 0,
            limit: crate::overrun::replay_limit(recorded.len()),
            used: Vec::with_capacity(recorded.len()),
            saturate: false,
        }
    }

    /// Replay `recorded`, reading a recorded choice above a draw's bound as
    /// that bound (not as `0`): the replay that [`reencodings`] are meant for.
    ///
    /// ```
    /// use pbt_core::{choices::Replay, Source};
    /// assert_eq!(Replay::saturating(&[u64::MAX]).draw(9), 9);
    /// assert_eq!(Replay::new(&[u64::MAX]).draw(9), 0);
    /// ```
    pub fn saturating(recorded: &'a [u64]) -> Self {
        Replay {
            saturate: true,
            ..Replay::new(recorded)
        }
    }

    /// The choices actually handed out (after clamping and padding).
    pub fn into_used(self) -> Choices {
        self.used
    }
}

impl Source for Replay<'_> {
    #[inline(always)]
    fn draw(&mut self, max: u64) -> u64 {
        let c = match self.recorded.get(self.pos) {
            Some(&c) if c <= max => c,
            Some(_) if self.saturate => max,
            _ if self.pos >= self.limit => crate::overrun::raise(crate::overrun::Overrun::Replay {
                recorded: self.recorded.len(),
            }),
            _ => 0,
        };
        self.pos += 1;
        self.used.push(c);
        c
    }

    fn records(&self) -> bool {
        true
    }
}

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
/// its bound (`u64::MAX`, read as the bound by [`Replay::saturating`]): the
/// same value, encoded in a simpler kind. An `Arbitrary` integer drawn as an
/// edge value (kind `7`, say `u32::MAX`) has no simpler neighbour among the
/// [`simplifications`]; re-encoded as an "any" value (kind `6`, choice
/// `u32::MAX`) it can shrink by binary search. Each candidate is smaller in
/// shortlex order.
///
/// ```
/// let cands: Vec<_> = pbt_core::choices::reencodings(&[7, 2]).collect();
/// assert_eq!(cands[0], vec![6, u64::MAX]);
/// assert!(cands.iter().all(|c| pbt_core::choices::shortlex_lt(c, &[7, 2])));
/// ```
pub fn reencodings(seq: &[u64]) -> impl Iterator<Item = Choices> + '_ {
    /// How far one choice is lowered at most.
    const LOWER: u64 = 8;
    (0..seq.len().saturating_sub(1))
        .filter(move |&i| seq[i + 1] != u64::MAX)
        .flat_map(move |i| {
            let v = seq[i];
            (v.saturating_sub(LOWER)..v).rev().map(move |lowered| {
                let mut c = seq.to_vec();
                c[i] = lowered;
                c[i + 1] = u64::MAX;
                c
            })
        })
}

/// Shortlex order: shorter sequences first, then lexicographic.
pub fn shortlex_lt(a: &[u64], b: &[u64]) -> bool {
    (a.len(), a) < (b.len(), b)
}

//! Choice sequences: recording the draws of a generator and replaying them.
//!
//! Generation is a function of the choices drawn from a [`Source`], so a
//! recorded sequence reproduces a value exactly, and a *modified* sequence
//! replayed through the same generator yields a value that the generator could
//! have produced (papers/002 §3.1–3.2). Shrinking such a sequence is how pbt
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
            choices: Vec::new(),
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
    #[inline]
    fn draw(&mut self, max: u64) -> u64 {
        let c = self.inner.draw(max);
        self.choices.push(c);
        c
    }

    fn records(&self) -> bool {
        true
    }
}

/// A source that feeds a recorded (possibly edited) sequence back.
///
/// When the sequence runs out, or a recorded choice is larger than the bound
/// asked for now, it yields `0`: the simplest choice. It records what it
/// actually handed out, so the result can be stored as the new sequence.
#[derive(Clone, Debug)]
pub struct Replay<'a> {
    recorded: &'a [u64],
    pos: usize,
    used: Choices,
}

impl<'a> Replay<'a> {
    /// Replay `recorded` from the start.
    pub fn new(recorded: &'a [u64]) -> Self {
        Replay {
            recorded,
            pos: 0,
            used: Vec::with_capacity(recorded.len()),
        }
    }

    /// The choices actually handed out (after clamping and padding).
    pub fn into_used(self) -> Choices {
        self.used
    }
}

impl Source for Replay<'_> {
    #[inline]
    fn draw(&mut self, max: u64) -> u64 {
        let c = match self.recorded.get(self.pos) {
            Some(&c) if c <= max => c,
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
/// search); sort spans and swap adjacent blocks into order; redistribute
/// between pairs (move value from an earlier choice to a later one).
///
/// Every candidate is smaller than `seq` in shortlex order (shorter, or as long
/// and lexicographically smaller), so greedy shrinking over them terminates.
///
/// ```
/// let cands: Vec<_> = pbt_core::choices::simplifications(&[4, 0]).collect();
/// assert!(cands.contains(&vec![0]));
/// assert!(cands.iter().all(|c| pbt_core::choices::shortlex_lt(c, &[4, 0])));
/// ```
pub fn simplifications(seq: &[u64]) -> impl Iterator<Item = Choices> + '_ {
    let n = seq.len();
    let spans = std::iter::successors(Some(n), |&k| (k > 1).then_some(k / 2));
    let deletions = spans.clone().flat_map(move |k| {
        (0..=n.saturating_sub(k)).rev().map(move |start| {
            let mut c = seq[..start].to_vec();
            c.extend_from_slice(&seq[start + k..]);
            c
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
        let steps = std::iter::successors(Some(v), |&d| (d > 1).then_some(d / 2));
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
    const REACH: usize = 8;
    let redistributions = (0..n).flat_map(move |i| {
        ((i + 1)..n.min(i + 1 + REACH)).flat_map(move |j| {
            let v = seq[i];
            let steps = std::iter::successors(Some(v), |&d| (d > 1).then_some(d / 2));
            steps.filter(move |_| v > 0).filter_map(move |d| {
                let moved = seq[j].checked_add(d)?;
                let mut c = seq.to_vec();
                c[i] = v - d;
                c[j] = moved;
                Some(c)
            })
        })
    });
    deletions
        .chain(zeroings)
        .chain(singles)
        .chain(reorders)
        .chain(sorts)
        .chain(redistributions)
}

/// Shortlex order: shorter sequences first, then lexicographic.
pub fn shortlex_lt(a: &[u64], b: &[u64]) -> bool {
    (a.len(), a) < (b.len(), b)
}

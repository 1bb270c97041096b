//! The integrated shrinker's loop (Hypothesis's shrinker, *Programmable
//! Property-Based Testing* §2.2): named passes over the current choice
//! sequence, each proposing candidates one at a time, run to a fixed point
//! with the cheap passes first.
//!
//! The shrinker never runs a candidate that is not smaller than the current
//! sequence in shortlex order (the check costs a comparison; a replay costs a
//! generation and a test), and it counts every candidate it runs. A
//! candidate is run by the caller's *test*, which replays it through the
//! generators and says whether it is a step: the choices the replay used are
//! smaller (see [`Attempt::progress`]) and the value still fails.

use super::blocks::Block;
use super::{shortlex_lt, Replayed};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// What a candidate asks of its replay and of the value it generates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Replay the choices as they are (a choice above its bound reads as
    /// `0`); the value must change.
    Simplify,
    /// Replay saturating ([`Replay::saturating`](super::Replay::saturating):
    /// a choice above its bound reads as the bound); the value must stay the
    /// same, encoded in simpler choices.
    Reencode,
    /// Replay the same choices at the smaller [`Attempt::size`]; the value
    /// must change.
    Resize,
    /// Replay the same choices at the larger [`Attempt::size`]; the value
    /// must stay the same (bounds that grow with the size then leave the
    /// other passes room: two lists drawn with lengths in `0..=size` can be
    /// joined only if the size allows their total).
    Widen,
}

impl Step {
    /// Whether the value must stay the same (else it must change).
    pub fn keeps_value(self) -> bool {
        matches!(self, Step::Reencode | Step::Widen)
    }
}

/// One candidate, handed to the test.
#[derive(Clone, Copy, Debug)]
pub struct Attempt<'a> {
    /// The choices to replay.
    pub candidate: &'a [u64],
    /// The size to replay them at.
    pub size: usize,
    /// How to replay them, and what the value must do.
    pub step: Step,
    /// The current (smallest failing) sequence.
    pub current: &'a [u64],
    /// The buffers of a sequence the shrinker no longer needs (the one a
    /// step replaced), for the test to replay into.
    pub spare: &'a Spare,
}

/// The buffers of a [`Replayed`] the shrinker let go of, handed to the
/// test through [`Attempt::spare`] so that a replay after a step allocates
/// nothing (see [`Replay::reusing`](super::Replay::reusing)).
///
/// ```
/// use pbt_core::choices::{Replayed, Spare};
/// let spare = Spare::default();
/// spare.put(Replayed { choices: vec![1, 2], ..Replayed::default() });
/// assert_eq!(spare.take().map(|r| r.choices), Some(vec![1, 2]));
/// assert_eq!(spare.take(), None);
/// ```
#[derive(Default)]
pub struct Spare(std::cell::Cell<Option<Replayed>>);

impl Spare {
    /// The buffers, if any (leaving none).
    pub fn take(&self) -> Option<Replayed> {
        self.0.take()
    }

    /// Keep `buffers` for the next replay (dropping any kept before).
    pub fn put(&self, buffers: Replayed) {
        self.0.set(Some(buffers));
    }
}

impl std::fmt::Debug for Spare {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Spare")
    }
}

impl Attempt<'_> {
    /// Whether the choices a replay of this candidate `used` make progress:
    /// smaller than the current sequence in shortlex order (at a smaller
    /// size, no larger), and, for a candidate that deleted choices, shorter
    /// than it (a deletion the replay pads back with zeros deleted nothing:
    /// it is a one-step nudge of an earlier choice).
    ///
    /// ```
    /// use pbt_core::choices::{Attempt, Step};
    /// let spare = Default::default();
    /// let a = Attempt { candidate: &[3], size: 10, step: Step::Simplify, current: &[3, 1], spare: &spare };
    /// assert!(a.progress(&[3]));
    /// assert!(!a.progress(&[3, 0])); // padded back
    /// ```
    pub fn progress(&self, used: &[u64]) -> bool {
        match self.step {
            Step::Resize | Step::Widen => !shortlex_lt(self.current, used),
            _ => {
                shortlex_lt(used, self.current)
                    && (self.candidate.len() >= self.current.len()
                        || used.len() < self.current.len())
            }
        }
    }
}

/// What the test says about an [`Attempt`].
#[derive(Clone, Debug)]
pub enum Trial {
    /// A step: the choices and blocks of the replay (smaller, and the value
    /// still fails).
    Shrunk(Replayed),
    /// Not a step.
    Rejected,
    /// Not a step: the candidate still fails, but it generates the value as
    /// it is (a size change the value does not show). A pass that searches
    /// the size stops there, as a size between it and the current one
    /// gives that value too. A test that does not tell may say
    /// [`Trial::Rejected`] instead: the passes then search on.
    Unchanged,
    /// Stop shrinking (a limit was reached).
    Stop,
}

/// The state of one integrated shrink: the smallest failing sequence so far,
/// its blocks and size, and the counts. Passes (see the module's other
/// files) propose candidates through [`ChoiceShrinker::consider`].
///
/// ```
/// use pbt_core::choices::{ChoiceShrinker, Replay, Replayed, Step, Trial};
/// use pbt_core::gen::{int, vec, Gen};
/// let g = vec(int(0..=1000u32), 0..=50);
/// // Fails when some element is at least 100.
/// let test = |a: pbt_core::choices::Attempt<'_>| {
///     let mut replay = match a.step {
///         Step::Reencode => Replay::saturating(a.candidate),
///         _ => Replay::new(a.candidate),
///     };
///     let v = g.generate(&mut replay, a.size).unwrap();
///     let replayed = replay.into_replayed();
///     if v.iter().any(|&x| x >= 100) && a.progress(&replayed.choices) {
///         Trial::Shrunk(replayed)
///     } else {
///         Trial::Rejected
///     }
/// };
/// let start = Replayed { choices: vec![3, 7, 500, 900], ..Replayed::default() };
/// let mut shrinker = ChoiceShrinker::new(start, 10, test);
/// shrinker.run();
/// assert_eq!(shrinker.choices(), &[1, 100]);
/// ```
pub struct ChoiceShrinker<T> {
    current: Replayed,
    size: usize,
    test: T,
    attempts: u64,
    steps: u64,
    stopped: bool,
    resizing: bool,
    /// Whether a pass left work for later this round (see
    /// [`ChoiceShrinker::defer`]), and whether passes may do so now.
    deferred: bool,
    thorough: bool,
    /// The fingerprints of the [`Step::Simplify`] candidates the test
    /// rejected. A rejection is for good: the value passes (the test is
    /// deterministic), or the replay is no smaller than the current
    /// sequence, which only gets smaller. Passes propose the same candidate
    /// more than once (zeroing a block and minimising its one choice;
    /// every pass again in each round to the fixed point), and it runs once.
    rejected: HashSet<u64, BuildHasherDefault<Prehashed>>,
    /// The buffer [`ChoiceShrinker::consider_splice`] builds candidates in.
    scratch: Vec<u64>,
    /// Whether the test said [`Trial::Unchanged`] of the last candidate.
    unchanged: bool,
    /// The buffers of the sequence the last step replaced.
    spare: Spare,
}

/// A hasher for keys that are hashes already ([`fingerprint`]s).
#[derive(Default)]
pub(crate) struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// A 64-bit hash of a candidate replayed at `size` (FxHash's mixing).
fn fingerprint(candidate: &[u64], size: usize) -> u64 {
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let mix = |h: u64, x: u64| (h.rotate_left(5) ^ x).wrapping_mul(K);
    let h = mix(mix(0, size as u64), candidate.len() as u64);
    candidate.iter().fold(h, |h, &x| mix(h, x))
}

/// The largest size [`Step::Widen`] goes to.
pub const MAX_WIDENED_SIZE: usize = 10_000;

/// A named pass.
pub(crate) type Pass<T> = fn(&mut ChoiceShrinker<T>);

impl<T: FnMut(Attempt<'_>) -> Trial> ChoiceShrinker<T> {
    /// Shrink from `start` (a failing sequence and its blocks, generated at
    /// `size`), running candidates through `test`.
    pub fn new(start: Replayed, size: usize, test: T) -> Self {
        ChoiceShrinker {
            current: start,
            size,
            test,
            attempts: 0,
            steps: 0,
            stopped: false,
            resizing: false,
            deferred: false,
            thorough: false,
            rejected: HashSet::with_capacity_and_hasher(256, Default::default()),
            scratch: Vec::new(),
            unchanged: false,
            spare: Spare::default(),
        }
    }

    /// Let the size passes replay at other sizes ([`Step::Resize`] smaller,
    /// [`Step::Widen`] larger, up to `MAX_WIDENED_SIZE`); the caller must
    /// then keep the final [`size`](Self::size) with the choices.
    pub fn resizing(mut self, on: bool) -> Self {
        self.resizing = on;
        self
    }

    /// Run the passes to a fixed point: the cheap passes until none makes
    /// progress, then the expensive ones, and again from the cheap ones
    /// whenever an expensive one made progress.
    pub fn run(&mut self) {
        let cheap: [(&str, Pass<T>); 9] = [
            ("delete_halves", super::delete::delete_halves),
            ("widen_size", super::restructure::widen_size),
            ("pass_to_descendant", super::restructure::pass_to_descendant),
            ("join_collections", super::restructure::join_collections),
            ("delete_blocks", super::delete::delete_blocks),
            ("zero_blocks", super::minimise::zero_blocks),
            ("delete_choices", super::delete::delete_choices),
            ("minimise_choices", super::minimise::minimise_choices),
            ("shrink_duplicates", super::minimise::shrink_duplicates),
        ];
        let expensive: [(&str, Pass<T>); 8] = [
            ("reorder_blocks", super::restructure::reorder_blocks),
            ("move_to_next_list", super::restructure::move_to_next_list),
            ("delete_with_length", super::delete::delete_with_length),
            ("lower_pairs", super::minimise::lower_pairs),
            ("redistribute", super::minimise::redistribute),
            ("lower_raising_next", super::minimise::lower_raising_next),
            ("shrink_size", super::restructure::shrink_size),
            ("reencode", super::restructure::reencode),
        ];
        loop {
            let before = self.steps;
            self.deferred = false;
            for (_, pass) in cheap {
                pass(self);
                if self.stopped {
                    return;
                }
            }
            if self.steps != before {
                self.thorough = false;
                continue;
            }
            // A pass left work for later and nothing else made progress:
            // the cheap passes once more, none leaving anything.
            if self.deferred {
                self.thorough = true;
                continue;
            }
            for (_, pass) in expensive {
                let at = self.steps;
                pass(self);
                if self.stopped {
                    return;
                }
                // Back to the cheap passes as soon as one makes progress.
                if self.steps != at {
                    break;
                }
            }
            if self.steps == before {
                return;
            }
            self.thorough = false;
        }
    }

    /// Whether a pass may leave the rest of its work for later (it then
    /// must, having said so): not in the round the shrinker runs when no
    /// pass made progress but one left work, so the fixed point it ends at
    /// is one of every pass in full.
    pub(crate) fn defer(&mut self) -> bool {
        if !self.thorough {
            self.deferred = true;
        }
        !self.thorough
    }

    /// Run `candidate` if it is smaller than the current sequence; `true`
    /// when it was a step (the current sequence is then its replay).
    pub fn consider(&mut self, candidate: &[u64], step: Step) -> bool {
        self.consider_at(candidate, self.size, step)
    }

    /// [`consider`](Self::consider) at `size`.
    pub(crate) fn consider_at(&mut self, candidate: &[u64], size: usize, step: Step) -> bool {
        let smaller = match step {
            Step::Resize => self.resizing && size < self.size,
            Step::Widen => self.resizing && size > self.size && size <= MAX_WIDENED_SIZE,
            _ => shortlex_lt(candidate, &self.current.choices),
        };
        if self.stopped || !smaller {
            return false;
        }
        let key = (step == Step::Simplify).then(|| fingerprint(candidate, size));
        if key.is_some_and(|key| self.rejected.contains(&key)) {
            return false;
        }
        self.attempts += 1;
        self.unchanged = false;
        let attempt = Attempt {
            candidate,
            size,
            step,
            current: &self.current.choices,
            spare: &self.spare,
        };
        match (self.test)(attempt) {
            // A wider size that grows no bound of the sequence leaves the
            // passes no room (they see only choices and bounds): no step, or
            // the size passes would search down from it again at the end.
            Trial::Shrunk(replayed)
                if step == Step::Widen && replayed.bounds == self.current.bounds =>
            {
                self.spare.put(replayed);
                false
            }
            Trial::Shrunk(replayed) => {
                // The sequence replaced: its buffers are the next replay's.
                self.spare
                    .put(std::mem::replace(&mut self.current, replayed));
                self.size = size;
                self.steps += 1;
                true
            }
            trial @ (Trial::Rejected | Trial::Unchanged) => {
                if let Some(key) = key {
                    self.rejected.insert(key);
                }
                self.unchanged = matches!(trial, Trial::Unchanged);
                false
            }
            Trial::Stop => {
                self.stopped = true;
                false
            }
        }
    }

    /// Whether the last candidate run still failed with the value as it
    /// is ([`Trial::Unchanged`]).
    pub(crate) fn unchanged(&self) -> bool {
        self.unchanged
    }

    /// The current sequence with `range` replaced by `with`, considered.
    pub(crate) fn consider_splice(
        &mut self,
        range: std::ops::Range<usize>,
        with: &[u64],
        step: Step,
    ) -> bool {
        let cur = &self.current.choices;
        let mut c = std::mem::take(&mut self.scratch);
        c.clear();
        c.extend_from_slice(&cur[..range.start]);
        c.extend_from_slice(with);
        c.extend_from_slice(&cur[range.end..]);
        let stepped = self.consider(&c, step);
        self.scratch = c;
        stepped
    }

    /// The smallest failing sequence found.
    pub fn choices(&self) -> &[u64] {
        &self.current.choices
    }

    /// Its blocks.
    pub fn blocks(&self) -> &[Block] {
        &self.current.blocks
    }

    /// The bound each of its choices was drawn with.
    pub fn bounds(&self) -> &[u64] {
        &self.current.bounds
    }

    /// The size it generates the failure at.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The candidates run.
    pub fn attempts(&self) -> u64 {
        self.attempts
    }

    /// The steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Whether the test stopped shrinking before a fixed point.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Whether the test has stopped shrinking.
    pub(crate) fn halted(&self) -> bool {
        self.stopped
    }
}

/// The largest `n` for which `f(n)` holds, given that `f(0)` does, probing
/// `1, 2, 3, 4`, then doubling, then a binary search (Hypothesis's
/// `find_integer`): `O(log n)` calls of `f`.
pub(crate) fn find_integer(mut f: impl FnMut(usize) -> bool) -> usize {
    for i in 1..5 {
        if !f(i) {
            return i - 1;
        }
    }
    let (mut lo, mut hi) = (4usize, 8usize);
    while f(hi) {
        lo = hi;
        match hi.checked_mul(2) {
            Some(h) => hi = h,
            None => return hi,
        }
    }
    while lo + 1 < hi {
        let mid = lo + (hi - lo) / 2;
        if f(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::find_integer;

    #[test]
    fn find_integer_finds_the_largest_that_holds() {
        for limit in [0usize, 1, 3, 4, 5, 9, 100, 1023] {
            let mut calls = 0;
            assert_eq!(
                find_integer(|n| {
                    calls += 1;
                    n <= limit
                }),
                limit
            );
            assert!(calls <= 8 + 2 * (usize::BITS - limit.leading_zeros()) as usize);
        }
    }
}

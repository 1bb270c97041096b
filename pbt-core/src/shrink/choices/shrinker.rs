//! The integrated shrinker's state and loop (Hypothesis's shrinker,
//! *Programmable Property-Based Testing* §2.2): the passes of the
//! [table](super::passes) over the current choice sequence, each proposing
//! candidates one at a time, run to a fixed point with the cheap passes
//! first.
//!
//! The shrinker never runs a candidate that is not smaller than the current
//! sequence in shortlex order (the check costs a comparison; a replay costs a
//! generation and a test), and it counts every candidate it runs. A
//! candidate is run by the caller's *test*, which replays it through the
//! generators and says whether it is a step: the choices the replay used are
//! smaller (see [`Attempt::progress`]) and the value still fails.

use super::passes::{self, PassStats, Tier};
use super::rejected::Rejected;
use crate::choices::{shortlex_lt, Block, IntegerMarks, Replayed};

/// What a candidate asks of its replay and of the value it generates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayMode {
    /// Replay the choices as they are (a choice above its bound reads as
    /// `0`); the value must change.
    Simplify,
    /// Replay saturating ([`Replay::saturating`](crate::choices::Replay::saturating):
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

impl ReplayMode {
    /// Whether the value must stay the same (else it must change).
    pub fn keeps_value(self) -> bool {
        matches!(self, ReplayMode::Reencode | ReplayMode::Widen)
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
    pub mode: ReplayMode,
    /// The current (smallest failing) sequence.
    pub current: &'a [u64],
    /// The bound of each of its choices. A [`ReplayMode::Widen`] replay
    /// whose bounds are these grew none: the shrinker takes it for no
    /// step, so a test may say [`Trial::NotAStep`] of it without checking
    /// that the value stays.
    pub bounds: &'a [u64],
    /// The buffers of a sequence the shrinker no longer needs (the one a
    /// step replaced), for the test to replay into.
    pub spare: &'a Spare,
}

/// The buffers of a [`Replayed`] the shrinker let go of, handed to the
/// test through [`Attempt::spare`] so that a replay after a step allocates
/// nothing (see [`Replay::reusing`](crate::choices::Replay::reusing)).
///
/// ```
/// use pbt_core::{choices::Replayed, shrink::choices::Spare};
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
    /// use pbt_core::shrink::choices::{Attempt, ReplayMode};
    /// let spare = Default::default();
    /// let a = Attempt {
    ///     candidate: &[3],
    ///     size: 10,
    ///     mode: ReplayMode::Simplify,
    ///     current: &[3, 1],
    ///     bounds: &[9, 9],
    ///     spare: &spare,
    /// };
    /// assert!(a.progress(&[3]));
    /// assert!(!a.progress(&[3, 0])); // padded back
    /// ```
    pub fn progress(&self, used: &[u64]) -> bool {
        match self.mode {
            ReplayMode::Resize | ReplayMode::Widen => !shortlex_lt(self.current, used),
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
    /// Not a step: the value passes, or the replay is no smaller (see
    /// [`Attempt::progress`]), or it does not do what the
    /// [`ReplayMode`] asks.
    NotAStep,
    /// Not a step, as [`Trial::NotAStep`], and the replay read the first
    /// `n` choices of the candidate as they are (none above its bound, none
    /// past its end) and no more. Every candidate that begins with those `n`
    /// choices replays to the same value (the generators and the test are
    /// deterministic), so the shrinker runs none of them: a pass that ends
    /// a collection early (a length or a continuation choice lowered to
    /// `0`) and then edits the choices after it proposes many. Said of a
    /// [`ReplayMode::Simplify`] or [`ReplayMode::Reencode`] candidate whose
    /// value passes, or whose choices make no progress (not of one turned
    /// down for changing the value it must keep); a test may always say
    /// [`Trial::NotAStep`] instead.
    NotAStepReading(usize),
    /// Not a step: the candidate still fails, but it generates the value as
    /// it is (a size change the value does not show). A pass that searches
    /// the size stops there, as a size between it and the current one
    /// gives that value too. A test that does not tell may say
    /// [`Trial::NotAStep`] instead: the passes then search on.
    Unchanged,
    /// Stop shrinking (a limit was reached).
    Stop,
}

/// Shrinking stopped before a fixed point: the test said [`Trial::Stop`].
/// Every [`ChoiceShrinker::consider`] after it is `Err(Stop)`, so a pass
/// propagates it with `?` and ends at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop;

/// What a pass, or a step of one, came to: `Err(Stop)` when shrinking
/// stopped.
pub type Shrinking<T = ()> = Result<T, Stop>;

/// The test of a [`ChoiceShrinker`]: runs an [`Attempt`] and says what it
/// came to. Implemented by every `FnMut(Attempt<'_>) -> Trial`; the passes
/// are written against it.
pub trait ShrinkTest: FnMut(Attempt<'_>) -> Trial {}

impl<F: FnMut(Attempt<'_>) -> Trial> ShrinkTest for F {}

/// The state of one integrated shrink: the smallest failing sequence so far,
/// its blocks and size, and the counts. Passes (see the
/// [module](super)'s "Writing a pass") propose candidates through
/// [`ChoiceShrinker::consider`].
///
/// ```
/// use pbt_core::choices::{Replay, Replayed};
/// use pbt_core::shrink::choices::{ChoiceShrinker, ReplayMode, Trial};
/// use pbt_core::gen::{int, vec, Gen};
/// let g = vec(int(0..=1000u32), 0..=50);
/// // Fails when some element is at least 100.
/// let test = |a: pbt_core::shrink::choices::Attempt<'_>| {
///     let mut replay = match a.mode {
///         ReplayMode::Reencode => Replay::saturating(a.candidate),
///         _ => Replay::new(a.candidate),
///     };
///     let v = g.generate(&mut replay, a.size).unwrap();
///     let replayed = replay.into_replayed();
///     if v.iter().any(|&x| x >= 100) && a.progress(&replayed.choices) {
///         Trial::Shrunk(replayed)
///     } else {
///         Trial::NotAStep
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
    /// The fingerprints of the [`ReplayMode::Simplify`] candidates the test
    /// rejected. A rejection is for good: the value passes (the test is
    /// deterministic), or the replay is no smaller than the current
    /// sequence, which only gets smaller. Passes propose the same candidate
    /// more than once (zeroing a block and minimizing its one choice;
    /// every pass again in each round to the fixed point), and it runs once.
    /// With them, the prefixes a rejected replay read and no more
    /// ([`Trial::NotAStepReading`]).
    rejected: Rejected,
    /// The buffer [`ChoiceShrinker::consider_splice`] builds candidates in.
    scratch: Vec<u64>,
    /// Whether the test said [`Trial::Unchanged`] of the last candidate.
    unchanged: bool,
    /// The buffers of the sequence the last step replaced.
    spare: Spare,
    /// What each pass of the table did, in the table's order.
    stats: Vec<PassStats>,
}

/// Whether a [`Trial::NotAStepReading`] of a candidate replayed in `mode`
/// rejects its prefix: a candidate at the shrinker's size, whose test says
/// so only when its value passes or makes no progress.
fn reads_prefixes(mode: ReplayMode) -> bool {
    matches!(mode, ReplayMode::Simplify | ReplayMode::Reencode)
}

/// The largest size [`ReplayMode::Widen`] goes to.
pub const MAX_WIDENED_SIZE: usize = 10_000;

impl<T: ShrinkTest> ChoiceShrinker<T> {
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
            rejected: Rejected::new(),
            scratch: Vec::new(),
            unchanged: false,
            spare: Spare::default(),
            stats: Vec::new(),
        }
    }

    /// Let the size passes replay at other sizes ([`ReplayMode::Resize`] smaller,
    /// [`ReplayMode::Widen`] larger, up to `MAX_WIDENED_SIZE`); the caller must
    /// then keep the final [`size`](Self::size) with the choices.
    pub fn resizing(mut self, on: bool) -> Self {
        self.resizing = on;
        self
    }

    /// Run the passes to a fixed point: the cheap passes until none makes
    /// progress, then the expensive ones, and again from the cheap ones
    /// whenever an expensive one made progress. The passes and their order
    /// are the [table](super::passes)'s. With `PBT_SHRINK_STATS=1` set,
    /// what each pass did is printed to stderr at the end (see
    /// [`stats`](Self::stats)).
    pub fn run(&mut self) {
        let table = passes::table::<T>();
        // What this run did is the statistics after it less those before
        // (none on a first run, the usual case: no copy).
        let before = if self.stats.is_empty() {
            self.stats = table
                .iter()
                .map(|p| PassStats::new(p.name, p.tier))
                .collect();
            Vec::new()
        } else {
            self.stats.clone()
        };
        let _ = self.fixed_point(&table);
        passes::record(&before, &self.stats);
    }

    /// [`run`](Self::run)'s loop, until a fixed point or a [`Stop`].
    fn fixed_point(&mut self, table: &[passes::Pass<T>]) -> Shrinking {
        let cheap = table
            .iter()
            .enumerate()
            .filter(|(_, p)| p.tier == Tier::Cheap);
        let expensive = table
            .iter()
            .enumerate()
            .filter(|(_, p)| p.tier == Tier::Expensive);
        loop {
            let before = self.steps;
            self.deferred = false;
            for (i, pass) in cheap.clone() {
                self.run_pass(i, pass.run)?;
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
            for (i, pass) in expensive.clone() {
                let at = self.steps;
                self.run_pass(i, pass.run)?;
                // Back to the cheap passes as soon as one makes progress.
                if self.steps != at {
                    break;
                }
            }
            if self.steps == before {
                return Ok(());
            }
            self.thorough = false;
        }
    }

    /// Run pass `i` of the table once, counting what it did.
    fn run_pass(&mut self, i: usize, pass: passes::PassFn<T>) -> Shrinking {
        let (attempts, steps, len) = (self.attempts, self.steps, self.current.choices.len());
        let ran = pass(self);
        let stats = &mut self.stats[i];
        stats.runs += 1;
        stats.attempts += self.attempts - attempts;
        stats.steps += self.steps - steps;
        stats.choices_removed += len.saturating_sub(self.current.choices.len()) as u64;
        ran
    }

    /// What each pass did in the [`run`](Self::run)s so far, in the
    /// table's order (empty before the first run).
    ///
    /// ```
    /// use pbt_core::choices::{Replay, Replayed};
    /// use pbt_core::shrink::choices::{Attempt, ChoiceShrinker, Trial};
    /// use pbt_core::gen::{int, vec, Gen};
    /// let g = vec(int(0..=9u8), 0..=20);
    /// let test = |a: Attempt<'_>| {
    ///     let mut replay = Replay::new(a.candidate);
    ///     let v = g.generate(&mut replay, a.size).unwrap();
    ///     let replayed = replay.into_replayed();
    ///     if v.contains(&7) && a.progress(&replayed.choices) {
    ///         Trial::Shrunk(replayed)
    ///     } else {
    ///         Trial::NotAStep
    ///     }
    /// };
    /// let mut replay = Replay::new(&[4, 1, 7, 2, 3]);
    /// g.generate(&mut replay, 10).unwrap();
    /// let mut shrinker = ChoiceShrinker::new(replay.into_replayed(), 10, test);
    /// shrinker.run();
    /// assert_eq!(shrinker.choices(), &[1, 7]);
    /// let stats = shrinker.stats();
    /// assert_eq!(stats[0].name, "delete_halves");
    /// assert_eq!(stats.iter().map(|p| p.attempts).sum::<u64>(), shrinker.attempts());
    /// assert_eq!(stats.iter().map(|p| p.steps).sum::<u64>(), shrinker.steps());
    /// assert_eq!(stats.iter().map(|p| p.choices_removed).sum::<u64>(), 3);
    /// ```
    pub fn stats(&self) -> &[PassStats] {
        &self.stats
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

    /// Run `candidate` if it is smaller than the current sequence:
    /// `Ok(true)` when it was a step (the current sequence is then its
    /// replay), `Err(Stop)` once the test has said [`Trial::Stop`].
    pub fn consider(&mut self, candidate: &[u64], mode: ReplayMode) -> Shrinking<bool> {
        self.consider_at(candidate, self.size, mode)
    }

    /// [`consider`](Self::consider) at `size`.
    pub(crate) fn consider_at(
        &mut self,
        candidate: &[u64],
        size: usize,
        mode: ReplayMode,
    ) -> Shrinking<bool> {
        if self.stopped {
            return Err(Stop);
        }
        let smaller = match mode {
            ReplayMode::Resize => self.resizing && size < self.size,
            ReplayMode::Widen => self.resizing && size > self.size && size <= MAX_WIDENED_SIZE,
            _ => shortlex_lt(candidate, &self.current.choices),
        };
        if !smaller {
            return Ok(false);
        }
        // A re-encoding replays saturating: only a prefix read as it is
        // reads the same in it.
        let key = match mode {
            ReplayMode::Simplify | ReplayMode::Reencode => {
                let simplify = mode == ReplayMode::Simplify;
                match self.rejected.lookup(candidate, size, simplify) {
                    Some(key) => simplify.then_some(key),
                    None => return Ok(false),
                }
            }
            ReplayMode::Resize | ReplayMode::Widen => None,
        };
        self.attempts += 1;
        self.unchanged = false;
        let attempt = Attempt {
            candidate,
            size,
            mode,
            current: &self.current.choices,
            bounds: &self.current.bounds,
            spare: &self.spare,
        };
        match (self.test)(attempt) {
            // A wider size that grows no bound of the sequence leaves the
            // passes no room (they see only choices and bounds): no step, or
            // the size passes would search down from it again at the end.
            Trial::Shrunk(replayed)
                if mode == ReplayMode::Widen && replayed.bounds == self.current.bounds =>
            {
                self.spare.put(replayed);
                Ok(false)
            }
            Trial::Shrunk(replayed) => {
                // The sequence replaced: its buffers are the next replay's.
                self.spare
                    .put(std::mem::replace(&mut self.current, replayed));
                self.size = size;
                self.steps += 1;
                Ok(true)
            }
            Trial::NotAStepReading(n) if reads_prefixes(mode) && n < candidate.len() => {
                self.rejected.reject_prefix(&candidate[..n], size);
                if let Some(key) = key {
                    self.rejected.reject(key);
                }
                Ok(false)
            }
            trial @ (Trial::NotAStep | Trial::NotAStepReading(_) | Trial::Unchanged) => {
                if let Some(key) = key {
                    self.rejected.reject(key);
                }
                self.unchanged = matches!(trial, Trial::Unchanged);
                Ok(false)
            }
            Trial::Stop => {
                self.stopped = true;
                Err(Stop)
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
        mode: ReplayMode,
    ) -> Shrinking<bool> {
        let cur = &self.current.choices;
        let mut c = std::mem::take(&mut self.scratch);
        c.clear();
        c.extend_from_slice(&cur[..range.start]);
        c.extend_from_slice(with);
        c.extend_from_slice(&cur[range.end..]);
        let stepped = self.consider(&c, mode);
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

    /// Where each of its `Arbitrary` integers starts (see
    /// [`Replayed::integers`]).
    pub fn integers(&self) -> &IntegerMarks {
        &self.current.integers
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
}

/// The largest `n` for which `f(n)` holds, given that `f(0)` does, probing
/// `1, 2, 3, 4`, then doubling, then a binary search (Hypothesis's
/// `find_integer`): `O(log n)` calls of `f`. A [`Stop`] from `f` ends the
/// search.
pub(crate) fn find_integer(mut f: impl FnMut(usize) -> Shrinking<bool>) -> Shrinking<usize> {
    for i in 1..5 {
        if !f(i)? {
            return Ok(i - 1);
        }
    }
    let (mut lo, mut hi) = (4usize, 8usize);
    while f(hi)? {
        lo = hi;
        match hi.checked_mul(2) {
            Some(h) => hi = h,
            None => return Ok(hi),
        }
    }
    while lo + 1 < hi {
        let mid = lo + (hi - lo) / 2;
        if f(mid)? {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(lo)
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
                    Ok(n <= limit)
                }),
                Ok(limit)
            );
            assert!(calls <= 8 + 2 * (usize::BITS - limit.leading_zeros()) as usize);
        }
    }
}

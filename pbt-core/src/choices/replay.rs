//! Replaying a recorded (possibly edited) choice sequence.

use super::blocks::{Block, BlockMarks};
use super::Choices;
use super::IntegerMarks;
use crate::source::{BlockKind, Source};

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
    // No more than 128 bytes: the shrinker's test moves a replay about,
    // and a larger one is moved by a call to `memcpy` (the read position
    // is `used.len()`, the read limit is computed when it is reached).
    recorded: &'a [u64],
    used: Choices,
    saturate: bool,
    blocks: BlockMarks,
    bounds: Vec<u64>,
    integers: IntegerMarks,
}

/// What a [`Replay`] handed out: the choices, the bound each was drawn
/// with, and the blocks the generators marked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replayed {
    /// The choices used (after clamping and padding).
    pub choices: Choices,
    /// The bound of each draw (`choices[i] <= bounds[i]`).
    pub bounds: Vec<u64>,
    /// The blocks, in the order they started.
    pub blocks: Vec<Block>,
    /// Where each integer drawn by [`Source::draw_kind_value`] (every
    /// `Arbitrary` integer) starts.
    pub integers: IntegerMarks,
}

/// What a replay is drawn through when generators replay it
/// ([`Replay::source`]): the replay itself in an optimised build, so each
/// draw is a direct call; `dyn Source` in a debug build, so a property's
/// generators are compiled once for every source that is not a random
/// generator, not once more for `Replay` (a tenth of a debug test
/// target's LLVM IR, `docs/benchmarks.md`, "Compile time").
#[cfg(debug_assertions)]
pub type ReplaySource<'s, 'a> = dyn Source + 's;
/// What a replay is drawn through when generators replay it
/// ([`Replay::source`]): the replay itself in an optimised build, so each
/// draw is a direct call; `dyn Source` in a debug build.
#[cfg(not(debug_assertions))]
pub type ReplaySource<'s, 'a> = Replay<'a>;

impl<'a> Replay<'a> {
    /// This replay as generators draw from it: itself in an optimised
    /// build, `dyn Source` in a debug build ([`ReplaySource`]). The values
    /// drawn are the same either way.
    ///
    /// ```
    /// use pbt_core::{choices::Replay, gen::{int, Gen}};
    /// let mut replay = Replay::new(&[3]);
    /// assert_eq!(int(0..10u8).generate(replay.source(), 10), Ok(3));
    /// ```
    #[inline(always)]
    pub fn source<'s>(&'s mut self) -> &'s mut ReplaySource<'s, 'a> {
        self
    }

    /// Replay `recorded` from the start.
    pub fn new(recorded: &'a [u64]) -> Self {
        Replay {
            recorded,
            used: Vec::with_capacity(recorded.len()),
            saturate: false,
            // About a block per choice (an element and its value's kind):
            // growing the list one doubling at a time cost more than the
            // replay's draws on a short list.
            blocks: BlockMarks::reusing(Vec::with_capacity(recorded.len())),
            bounds: Vec::with_capacity(recorded.len()),
            integers: IntegerMarks::default(),
        }
    }

    /// Replay `recorded` into the buffers of `spare` (an earlier replay's
    /// result, cleared first): a shrinker that replays thousands of
    /// candidates allocates for none of them once its buffers are large
    /// enough.
    ///
    /// ```
    /// use pbt_core::{choices::{Replay, Replayed}, gen::{int, vec, Gen}};
    /// let g = vec(int(0..10u8), 0..=3);
    /// let mut first = Replay::new(&[2, 5, 7]);
    /// g.generate(&mut first, 10).unwrap();
    /// let mut again = Replay::reusing(&[1, 4], first.into_replayed());
    /// assert_eq!(g.generate(&mut again, 10), Ok(vec![4]));
    /// assert_eq!(again.into_replayed().choices, vec![1, 4]);
    /// ```
    pub fn reusing(recorded: &'a [u64], spare: Replayed) -> Self {
        let Replayed {
            choices: mut used,
            mut bounds,
            blocks,
            mut integers,
        } = spare;
        used.clear();
        bounds.clear();
        integers.clear();
        Replay {
            recorded,
            used,
            saturate: false,
            blocks: BlockMarks::reusing(blocks),
            bounds,
            integers,
        }
    }

    /// This replay, reading a recorded choice above a draw's bound as
    /// counting down from it (see [`Replay::saturating`]).
    pub fn saturate(mut self) -> Self {
        self.saturate = true;
        self
    }

    /// Replay `recorded`, reading a recorded choice above a draw's bound as
    /// counting down from that bound (`u64::MAX` is the bound, `u64::MAX - 1`
    /// one below it, and so on down to `0`) rather than as `0`: the replay
    /// that [`reencodings`](crate::shrink::choices::reencodings) are meant for.
    ///
    /// ```
    /// use pbt_core::{choices::Replay, Source};
    /// assert_eq!(Replay::saturating(&[u64::MAX]).draw(9), 9);
    /// assert_eq!(Replay::saturating(&[u64::MAX - 1]).draw(9), 8);
    /// assert_eq!(Replay::new(&[u64::MAX]).draw(9), 0);
    /// ```
    pub fn saturating(recorded: &'a [u64]) -> Self {
        Replay {
            saturate: true,
            ..Replay::new(recorded)
        }
    }

    /// The choices handed out so far (after clamping and padding).
    ///
    /// ```
    /// use pbt_core::{choices::Replay, Source};
    /// let mut replay = Replay::new(&[7, 3]);
    /// replay.draw(5);
    /// assert_eq!(replay.used(), &[0]); // 7 is above the bound 5
    /// ```
    pub fn used(&self) -> &[u64] {
        &self.used
    }

    /// Add the draws a check made through its [`Data`](crate::Data) after
    /// this replay's generation (see [`crate::data::capture`]): what it
    /// handed out is then the whole test's sequence.
    pub fn append(&mut self, tail: &crate::data::Tail) {
        tail.replay_into(
            &mut self.used,
            &mut self.bounds,
            Some(&mut self.blocks),
            &mut self.integers,
        );
    }

    /// The choices actually handed out (after clamping and padding).
    pub fn into_used(self) -> Choices {
        self.used
    }

    /// The choices actually handed out, their bounds and the blocks the
    /// generators marked in them (see [`Source::start_block`]).
    ///
    /// ```
    /// use pbt_core::{choices::Replay, gen::{int, vec, Gen}};
    /// let mut replay = Replay::new(&[1, 4]);
    /// let v = vec(int(0..10u8), 0..=3).generate(&mut replay, 10).unwrap();
    /// let replayed = replay.into_replayed();
    /// assert_eq!((v, replayed.choices), (vec![4], vec![1, 4]));
    /// assert_eq!(replayed.bounds, vec![3, 9]);
    /// assert_eq!(replayed.blocks.len(), 2); // the vector and its one element
    /// ```
    pub fn into_replayed(self) -> Replayed {
        let len = self.used.len();
        Replayed {
            choices: self.used,
            bounds: self.bounds,
            blocks: self.blocks.finish(len),
            integers: self.integers,
        }
    }
}

impl Source for Replay<'_> {
    fn continuation(&mut self) -> crate::data::Continuation {
        let read = self.used.len().min(self.recorded.len());
        crate::data::Continuation::Recorded {
            rest: self.recorded[read..].to_vec(),
            saturate: self.saturate,
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn draw(&mut self, max: u64) -> u64 {
        let pos = self.used.len();
        let c = match self.recorded.get(pos) {
            Some(&c) if c <= max => c,
            Some(&c) if self.saturate => max.saturating_sub(u64::MAX - c),
            _ if pos >= crate::overrun::replay_limit(self.recorded.len()) => {
                crate::overrun::raise(crate::overrun::Overrun::Replay {
                    recorded: self.recorded.len(),
                })
            }
            _ => 0,
        };
        self.used.push(c);
        self.bounds.push(max);
        c
    }

    fn records(&self) -> bool {
        true
    }

    #[inline]
    fn handed_out(&self) -> Option<&[u64]> {
        Some(&self.used)
    }

    #[inline]
    fn start_block(&mut self, kind: BlockKind) {
        self.blocks.start(kind, self.used.len());
    }

    #[inline]
    fn end_block(&mut self) {
        self.blocks.end(self.used.len());
    }

    // The two draws the default makes, with the integer marked.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn draw_kind_value(&mut self, bounds: &[u64; 8]) -> (usize, u64) {
        self.integers.mark(self.used.len());
        let kind = self.draw(7) as usize & 7;
        (kind, self.draw(bounds[kind]))
    }
}

#[cfg(test)]
mod tests {
    /// A replay is moved by value in the shrinker's test; above 128 bytes
    /// each move is a call to `memcpy` (it was, for every candidate run,
    /// when the integer marks made it 152).
    #[test]
    fn a_replay_moves_without_a_memcpy_call() {
        assert!(std::mem::size_of::<super::Replay<'_>>() <= 128);
    }
}

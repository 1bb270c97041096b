//! Recording the draws of a generator.

use super::blocks::BlockMarks;
use super::{Choices, IntegerMarks, Replayed};
use crate::source::{BlockKind, Source};

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
            // Empty: a shrinker records every replay of a variable that
            // draws a handful of choices; a long one grows it by doubling.
            choices: Vec::new(),
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
    // The check's draws reach a recording afterwards, as a `Tail`.
    fn continuation(&mut self) -> crate::data::Continuation {
        self.inner.continuation()
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn draw(&mut self, max: u64) -> u64 {
        let c = self.inner.draw(max);
        self.choices.push(c);
        c
    }

    fn records(&self) -> bool {
        true
    }

    #[inline]
    fn handed_out(&self) -> Option<&[u64]> {
        Some(&self.choices)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn start_block(&mut self, kind: BlockKind) {
        self.inner.start_block(kind)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn end_block(&mut self) {
        self.inner.end_block()
    }

    // The draws are counted as they are made; the parts reach the inner
    // source's budget.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn charge_parts(&mut self, parts: u64, _draws: u64) {
        self.inner.charge_parts(parts, 0)
    }
    // The inner source's one-draw pair (an `Rng`'s), recorded as the two
    // choices that two draws would have made.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn draw_kind_value(&mut self, bounds: &[u64; 8]) -> (usize, u64) {
        let (kind, value) = self.inner.draw_kind_value(bounds);
        self.choices.extend([kind as u64, value]);
        (kind, value)
    }
}

/// A recorder that also keeps each draw's bound, so that a mutator can
/// replace a choice by another valid one (*Property Based Testing in MIT-Scheme*, §3.2).
#[derive(Clone, Debug)]
pub struct Tracer<S> {
    inner: S,
    choices: Choices,
    bounds: Choices,
    /// The block marks, when asked for ([`Tracer::marking`]).
    blocks: Option<BlockMarks>,
    /// Where each integer starts (see [`Replayed::integers`]).
    integers: IntegerMarks,
}

impl<S: Source> Tracer<S> {
    /// Trace the draws of `inner`.
    pub fn new(inner: S) -> Self {
        Tracer {
            inner,
            choices: Vec::with_capacity(256),
            bounds: Vec::with_capacity(256),
            blocks: None,
            integers: IntegerMarks::default(),
        }
    }

    /// Trace the draws of `inner` and keep the blocks its generators mark,
    /// as a [`Replay`](super::Replay) does: what the integrated shrinker
    /// starts from, without replaying the choices once more to mark them.
    ///
    /// ```
    /// use pbt_core::{choices::{Replay, Tracer}, gen::{int, vec, Gen}, Rng};
    /// let g = vec(int(0..10u8), 0..=3);
    /// let mut tracer = Tracer::marking(Rng::from_seed(7));
    /// g.generate(&mut tracer, 10).unwrap();
    /// let traced = tracer.into_replayed();
    /// let mut replay = Replay::new(&traced.choices);
    /// g.generate(&mut replay, 10).unwrap();
    /// assert_eq!(replay.into_replayed(), traced);
    /// ```
    pub fn marking(inner: S) -> Self {
        Tracer {
            blocks: Some(BlockMarks::default()),
            ..Tracer::new(inner)
        }
    }

    /// Add the draws a check made through its [`Data`](crate::Data) after
    /// this generation (see [`crate::data::capture`]): the trace is then
    /// that of the whole test.
    ///
    /// ```
    /// use pbt_core::{choices::{Replay, Tracer}, data::{capture, Data}, gen::int, Rng};
    /// let mut tracer = Tracer::new(Rng::from_seed(2));
    /// let data = Data::standalone(Rng::from_seed(5), 10);
    /// let (x, tail) = capture(|| {
    ///     let _run = data.begin_run();
    ///     data.draw(int(0..100u8))
    /// });
    /// tracer.append(&tail.unwrap());
    /// let (choices, bounds) = tracer.into_trace();
    /// assert_eq!((choices, bounds), (vec![u64::from(x)], vec![99]));
    /// ```
    pub fn append(&mut self, tail: &crate::data::Tail) {
        tail.replay_into(
            &mut self.choices,
            &mut self.bounds,
            self.blocks.as_mut(),
            &mut self.integers,
        );
    }

    /// The choices and their bounds (`choice <= bound`).
    pub fn into_trace(self) -> (Choices, Choices) {
        (self.choices, self.bounds)
    }

    /// The choices, their bounds and the blocks marked in them (none unless
    /// made with [`Tracer::marking`]).
    pub fn into_replayed(self) -> Replayed {
        let len = self.choices.len();
        Replayed {
            choices: self.choices,
            bounds: self.bounds,
            blocks: self.blocks.map_or_else(Vec::new, |marks| marks.finish(len)),
            integers: self.integers,
        }
    }
}

impl<S: Source> Source for Tracer<S> {
    // The check's draws reach the trace afterwards ([`Tracer::append`]).
    fn continuation(&mut self) -> crate::data::Continuation {
        self.inner.continuation()
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn draw(&mut self, max: u64) -> u64 {
        let c = self.inner.draw(max);
        self.choices.push(c);
        self.bounds.push(max);
        c
    }

    fn records(&self) -> bool {
        true
    }

    #[inline]
    fn handed_out(&self) -> Option<&[u64]> {
        Some(&self.choices)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn start_block(&mut self, kind: BlockKind) {
        if let Some(marks) = &mut self.blocks {
            marks.start(kind, self.choices.len());
        }
        self.inner.start_block(kind)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn end_block(&mut self) {
        if let Some(marks) = &mut self.blocks {
            marks.end(self.choices.len());
        }
        self.inner.end_block()
    }

    // The draws are counted as they are made; the parts reach the inner
    // source's budget.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn charge_parts(&mut self, parts: u64, _draws: u64) {
        self.inner.charge_parts(parts, 0)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn draw_kind_value(&mut self, bounds: &[u64; 8]) -> (usize, u64) {
        let (kind, value) = self.inner.draw_kind_value(bounds);
        self.integers.mark(self.choices.len());
        self.choices.extend([kind as u64, value]);
        self.bounds.extend([7, bounds[kind]]);
        (kind, value)
    }
}

//! What a check drew through its [`Data`](super::Data), as a runner takes
//! it: a [`Tail`], handed over by [`capture`].

use crate::choices::{BlockMarks, IntegerMarks};
use crate::source::BlockKind;
use std::cell::RefCell;

/// One thing a check's draws did, in order: what a [`Tail`] replays into
/// a recording source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A choice, with the bound it was drawn with.
    Draw {
        /// The choice.
        choice: u64,
        /// Its bound (`choice <= bound`).
        bound: u64,
    },
    /// A block of `kind` starts (see [`Source::start_block`](crate::Source::start_block)).
    Start(BlockKind),
    /// The innermost block ends.
    End,
    /// An integer's pair of choices starts (see
    /// [`Source::draw_kind_value`](crate::Source::draw_kind_value)).
    Integer,
}

/// The draws one run of a check made through its [`Data`](super::Data), after the
/// generators' own: what [`capture`] hands a runner.
///
/// ```
/// use pbt_core::{data::{capture, Data}, gen::int, Rng};
/// let data = Data::standalone(Rng::from_seed(1), 10);
/// let ((), tail) = capture(|| {
///     let _guard = data.begin_run();
///     data.draw(int(0..=9u8));
/// });
/// let tail = tail.unwrap();
/// assert_eq!(tail.choices().len(), 1);
/// assert!(tail.choices()[0] <= 9);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tail {
    pub(super) events: Vec<Event>,
}

impl Tail {
    /// The events, in order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The choices drawn, in order.
    pub fn choices(&self) -> Vec<u64> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Draw { choice, .. } => Some(*choice),
                _ => None,
            })
            .collect()
    }

    /// Replay the events into a recording source's parts: `choices` and
    /// `bounds` grow, `blocks` and `integers` are marked at the positions
    /// the draws take after what is there.
    pub(crate) fn replay_into(
        &self,
        choices: &mut Vec<u64>,
        bounds: &mut Vec<u64>,
        mut blocks: Option<&mut BlockMarks>,
        integers: &mut IntegerMarks,
    ) {
        for event in &self.events {
            match *event {
                Event::Draw { choice, bound } => {
                    choices.push(choice);
                    bounds.push(bound);
                }
                Event::Start(kind) => {
                    if let Some(marks) = blocks.as_deref_mut() {
                        marks.start(kind, choices.len());
                    }
                }
                Event::End => {
                    if let Some(marks) = blocks.as_deref_mut() {
                        marks.end(choices.len());
                    }
                }
                Event::Integer => integers.mark(choices.len()),
            }
        }
    }
}

thread_local! {
    /// Where the `Data` of a check run under [`capture`] hands its tail.
    pub(super) static CAPTURED: RefCell<Option<Option<Tail>>> = const { RefCell::new(None) };
}

/// Run `f` (a run of a check) and take the draws its [`Data`](super::Data) made: `None`
/// when the check has no `Data` (or never ran). A run that panics still
/// hands over what it drew.
pub fn capture<R>(f: impl FnOnce() -> R) -> (R, Option<Tail>) {
    let outer = CAPTURED.with(|c| c.replace(Some(None)));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    let tail = CAPTURED.with(|c| c.replace(outer)).flatten();
    match result {
        Ok(r) => (r, tail),
        Err(payload) => std::panic::resume_unwind(payload),
    }
}

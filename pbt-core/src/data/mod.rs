//! Draws inside the test: a [`Data`] variable lets the check draw values
//! as it goes (Hypothesis's `st.data()`, hegel-rust's `tc.draw(…)`).
//!
//! A property's generators draw its variables before the check runs; a
//! `Data` variable draws nothing then. It continues the source where
//! generation ended ([`Source::continuation`]), and each
//! [`Data::draw`] in the check draws from there: on a fresh case, the
//! same random stream; on a replayed choice sequence, the rest of the
//! sequence. So the choice sequence of a test is the generators' draws
//! followed by the check's, and everything that works on choices works on
//! the draws too: the integrated shrinker shrinks them, the fuzzing runner
//! mutates them, and a saved case or `PBT_REPLAY` draws them again.
//!
//! The check's draws reach a runner as a [`Tail`]: [`capture`] around a
//! run hands it over, and [`Replay::append`](crate::choices::Replay::append)
//! or [`Tracer::append`](crate::choices::Tracer::append) adds it to the
//! choices of the generation before it.
//!
//! Each run of the check starts the draws over from the same place, so a
//! test runs the same way each time; a `Data` prints the draws of its last
//! run ("draw 1: 7; draw 2: [0, 50]", or a label given with
//! [`Data::draw_named`]).

use crate::gen::Gen;
use crate::source::{BlockKind, Rng, Source};
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

/// What a [`Data`] draws from: the source as generation left it, from
/// [`Source::continuation`].
#[derive(Clone, Debug)]
pub enum Continuation {
    /// The random stream of a random generator, as it stood when
    /// generation ended (a fresh case, so the case's seed replays it).
    Random(Rng),
    /// The rest of a replayed choice sequence, then `0`s (the simplest
    /// choices), as a [`Replay`](crate::choices::Replay) reads it:
    /// a recorded choice above a draw's bound is `0` (or counts down from
    /// the bound when `saturate`).
    Recorded {
        /// The choices not yet read when generation ended.
        rest: Vec<u64>,
        /// Read a choice above its bound as counting down from it.
        saturate: bool,
    },
}

impl Continuation {
    /// The continuation of a source that keeps nothing to continue from:
    /// a random stream seeded by one draw of `src` (so a replay of `src`'s
    /// choices draws the same).
    pub fn seeded_by<S: Source + ?Sized>(src: &mut S) -> Self {
        Continuation::Random(Rng::from_seed(src.draw(u64::MAX)))
    }
}

/// A drawn value as the report shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Shown {
    label: Option<String>,
    value: String,
}

/// Where the draws of the run in progress come from, recording what they
/// do.
#[derive(Debug)]
struct Working {
    from: Continuation,
    /// Choices read so far from a recorded continuation.
    read: usize,
    events: Vec<Event>,
}

impl Source for Working {
    fn draw(&mut self, max: u64) -> u64 {
        let c = match &mut self.from {
            Continuation::Random(rng) => rng.draw(max),
            Continuation::Recorded { rest, saturate } => {
                let at = self.read;
                self.read += 1;
                match rest.get(at) {
                    Some(&c) if c <= max => c,
                    Some(&c) if *saturate => max.saturating_sub(u64::MAX - c),
                    _ if at >= crate::overrun::replay_limit(rest.len()) => {
                        crate::overrun::raise(crate::overrun::Overrun::Replay {
                            recorded: rest.len(),
                        })
                    }
                    _ => 0,
                }
            }
        };
        self.events.push(Event::Draw {
            choice: c,
            bound: max,
        });
        c
    }

    fn records(&self) -> bool {
        true
    }

    fn start_block(&mut self, kind: BlockKind) {
        self.events.push(Event::Start(kind));
    }

    fn end_block(&mut self) {
        self.events.push(Event::End);
    }

    fn charge_parts(&mut self, parts: u64, _draws: u64) {
        if let Continuation::Random(rng) = &mut self.from {
            rng.charge_parts(parts, 0);
        }
    }

    fn draw_kind_value(&mut self, bounds: &[u64; 8]) -> (usize, u64) {
        self.events.push(Event::Integer);
        let kind = self.draw(7) as usize & 7;
        (kind, self.draw(bounds[kind]))
    }
}

/// Whether the check is running, and which run.
#[derive(Debug)]
enum State {
    /// No run in progress: a draw now is a mistake.
    Idle,
    /// Run number `run` is in progress.
    Running { run: u64, working: Working },
}

#[derive(Debug)]
struct Tape {
    /// Where every run starts drawing; `None` until generation attached it
    /// (then the draws are all `0`s, the simplest).
    origin: Option<Continuation>,
    size: usize,
    state: State,
    /// How many runs have started.
    runs: u64,
    /// The draws of the last run that ended, as printed (`None`: no run
    /// ended yet).
    shown: Option<Vec<Shown>>,
    /// The draws of the run in progress, as printed.
    showing: Vec<Shown>,
    /// Always running: a `Data` made by [`Data::standalone`].
    standalone: bool,
}

/// Draws inside the test.
///
/// Take it as a parameter, `data: &mut Data`, of a `#[property_test]`
/// function (or as `forall data: Data` in `property!`), then draw from any
/// generator, runtime or staged, as the test goes:
///
/// ```text
/// #[property_test]
/// fn sums_stay_small(data: &mut Data) {
///     let n = data.draw(int(0..=1000i64));
///     let v = data.draw(vec(int(0..=n), 0..=10));
///     assert!(v.iter().sum::<i64>() < 50);
/// }
/// ```
///
/// (A `text` block: this crate cannot call the macros; the `pbt` facade's
/// guide runs it.) The draws continue the test's choice sequence, so a
/// failure is shrunk through them, replayed from a saved case and mutated
/// by the fuzzing runner like any generated input, and the report prints
/// each draw of the shrunk run: `data = draw 1: 50; draw 2: [50]`.
///
/// One `Data` per property; it takes no annotation. A clone is a copy
/// (its draws and its printed run are its own).
pub struct Data {
    tape: Arc<Mutex<Tape>>,
    /// A lent handle ([`Data::lend`]): the run it was lent for.
    lent_for: Option<u64>,
}

impl Clone for Data {
    fn clone(&self) -> Self {
        let tape = self.lock();
        let copy = Tape {
            origin: tape.origin.clone(),
            size: tape.size,
            state: State::Idle,
            runs: 0,
            shown: tape.shown.clone(),
            showing: Vec::new(),
            standalone: tape.standalone,
        };
        drop(tape);
        let data = Data::with_tape(copy);
        if data.lock().standalone {
            data.start_standalone();
        }
        data
    }
}

impl fmt::Debug for Data {
    /// The draws of the last run, in order: `draw 1: 7; draw 2: [0, 50]`
    /// (a labelled draw by its label).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tape = self.lock();
        let shown = match (&tape.shown, tape.standalone) {
            (Some(shown), true) if tape.showing.is_empty() => Some(shown),
            (_, true) => Some(&tape.showing),
            (Some(shown), false) => Some(shown),
            (None, false) => None,
        };
        match shown {
            None => f.write_str("<no draws yet: the test has not run>"),
            Some(shown) if shown.is_empty() => f.write_str("no draws"),
            Some(shown) => {
                for (i, s) in shown.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    match &s.label {
                        Some(label) => write!(f, "{label}: {}", s.value)?,
                        None => write!(f, "draw {}: {}", i + 1, s.value)?,
                    }
                }
                Ok(())
            }
        }
    }
}

impl Data {
    fn with_tape(tape: Tape) -> Self {
        Data {
            tape: Arc::new(Mutex::new(tape)),
            lent_for: None,
        }
    }

    /// A `Data` of a property at `size`, drawing nothing yet: generation
    /// gives it its continuation ([`Data::continue_from`]) once every
    /// variable is generated.
    pub(crate) fn pending(size: usize) -> Self {
        Data::with_tape(Tape {
            origin: None,
            size,
            state: State::Idle,
            runs: 0,
            shown: None,
            showing: Vec::new(),
            standalone: false,
        })
    }

    /// A `Data` that draws from `rng` at `size` whenever asked, outside
    /// any property: for trying it out, and for a runner or a test of
    /// one's own. It prints every draw made so far.
    ///
    /// ```
    /// use pbt_core::{data::Data, gen::{int, vec}, Rng};
    /// let data = Data::standalone(Rng::from_seed(7), 10);
    /// let n = data.draw(int(0..=5usize));
    /// let v = data.draw_named("v", vec(int(0..10u8), n..=n));
    /// assert_eq!(v.len(), n);
    /// assert_eq!(format!("{data:?}"), format!("draw 1: {n}; v: {v:?}"));
    /// ```
    pub fn standalone(rng: Rng, size: usize) -> Self {
        let data = Data::with_tape(Tape {
            origin: Some(Continuation::Random(rng)),
            size,
            state: State::Idle,
            runs: 0,
            shown: None,
            showing: Vec::new(),
            standalone: true,
        });
        data.start_standalone();
        data
    }

    /// A standalone `Data`'s run, which goes on until a
    /// [`begin_run`](Data::begin_run) guard ends it.
    fn start_standalone(&self) {
        let runs = self.lock().runs + 1;
        let run = self.fresh_run(runs);
        let mut tape = self.lock();
        tape.runs = runs;
        tape.state = run;
    }

    fn lock(&self) -> MutexGuard<'_, Tape> {
        // A check that panicked while drawing leaves the tape as it was
        // between draws: usable.
        self.tape
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn fresh_run(&self, run: u64) -> State {
        let tape = self.lock();
        let from = tape.origin.clone().unwrap_or(Continuation::Recorded {
            rest: Vec::new(),
            saturate: false,
        });
        State::Running {
            run,
            working: Working {
                from,
                read: 0,
                events: Vec::new(),
            },
        }
    }

    /// Give this `Data` the source to draw from, as generation left it
    /// (called once every variable of the property is generated).
    pub(crate) fn continue_from<S: Source + ?Sized>(&self, src: &mut S) {
        let continuation = src.continuation();
        self.lock().origin = Some(continuation);
    }

    /// Start a run of the check: the draws start over from where
    /// generation ended. The run ends when the guard is dropped (also
    /// when the check panics), and a [`capture`] around it then receives
    /// its [`Tail`].
    pub fn begin_run(&self) -> RunGuard<'_> {
        let run = {
            let mut tape = self.lock();
            tape.runs += 1;
            tape.runs
        };
        let state = self.fresh_run(run);
        {
            let mut tape = self.lock();
            tape.state = state;
            tape.showing.clear();
        }
        RunGuard { data: self }
    }

    fn end_run(&self) {
        let mut tape = self.lock();
        let state = std::mem::replace(&mut tape.state, State::Idle);
        let showing = std::mem::take(&mut tape.showing);
        tape.shown = Some(showing);
        if let State::Running { working, .. } = state {
            let tail = Tail {
                events: working.events,
            };
            CAPTURED.with(|c| {
                if let Some(slot) = c.borrow_mut().as_mut() {
                    *slot = Some(tail);
                }
            });
        }
        // A standalone `Data` draws whenever asked: a run ended, the next
        // one starts (from the start again).
        if tape.standalone {
            drop(tape);
            self.start_standalone();
        }
    }

    /// A handle to this `Data` for the run in progress: what a
    /// `#[property_test]` function's `data: &mut Data` borrows. Its draws
    /// are this `Data`'s; once the run ends, drawing from it panics.
    #[doc(hidden)]
    pub fn lend(&self) -> Data {
        let run = match self.lock().state {
            State::Running { run, .. } => Some(run),
            State::Idle => None,
        };
        Data {
            tape: Arc::clone(&self.tape),
            lent_for: run,
        }
    }

    /// Draw a value from `generator` (any [`Gen`]: a runtime combinator of
    /// `pbt::generators`, or a staged `pbt::generator!`), at the test's
    /// size. The report prints it as "draw N" (its place among the draws).
    ///
    /// A generator that rejects (a `filter` that gives up) discards the
    /// test, as `assume!` does.
    ///
    /// ```
    /// use pbt_core::{data::Data, gen::int, Rng};
    /// let data = Data::standalone(Rng::from_seed(3), 10);
    /// let x = data.draw(int(1..=6u8));
    /// assert!((1..=6).contains(&x));
    /// assert_eq!(format!("{data:?}"), format!("draw 1: {x}"));
    /// ```
    #[track_caller]
    pub fn draw<G: Gen>(&self, generator: G) -> G::Value
    where
        G::Value: fmt::Debug,
    {
        self.draw_shown(None, generator)
    }

    /// [`Data::draw`], printed in the report under `label` instead of
    /// its place.
    ///
    /// ```
    /// use pbt_core::{data::Data, gen::{bool, int}, Rng};
    /// let data = Data::standalone(Rng::from_seed(3), 10);
    /// let x = data.draw_named("x", int(0..10u8));
    /// let b = data.draw(bool());
    /// assert_eq!(format!("{data:?}"), format!("x: {x}; draw 2: {b}"));
    /// ```
    #[track_caller]
    pub fn draw_named<G: Gen>(&self, label: &str, generator: G) -> G::Value
    where
        G::Value: fmt::Debug,
    {
        self.draw_shown(Some(label.to_owned()), generator)
    }

    #[track_caller]
    fn draw_shown<G: Gen>(&self, label: Option<String>, generator: G) -> G::Value
    where
        G::Value: fmt::Debug,
    {
        // The tape is taken out of the lock while the generator runs: a
        // generator may itself draw from this `Data` (it must not, but it
        // then gets a clear panic rather than a deadlock).
        let (mut working, size, run) = {
            let mut tape = self.lock();
            let run = match &tape.state {
                State::Running { run, .. } if self.lent_for.is_none_or(|lent| lent == *run) => *run,
                _ if self.lent_for.is_some() => {
                    drop(tape);
                    panic!(
                        "pbt: drawn from a `Data` after its test returned: a `Data` draws only \
                         while the run it was lent to goes on"
                    )
                }
                State::Running { run, .. } => *run,
                State::Idle => {
                    drop(tape);
                    panic!(
                        "pbt: drawn from a `Data` outside its test: a `Data` draws only while \
                         the check it belongs to runs"
                    )
                }
            };
            let size = tape.size;
            let State::Running { working, .. } = std::mem::replace(&mut tape.state, State::Idle)
            else {
                unreachable!()
            };
            (working, size, run)
        };
        let generated = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            generator.generate(&mut working, size)
        }));
        let mut tape = self.lock();
        tape.state = State::Running { run, working };
        match generated {
            Ok(Ok(value)) => {
                tape.showing.push(Shown {
                    label,
                    value: format!("{value:?}"),
                });
                value
            }
            Ok(Err(_rejected)) => {
                drop(tape);
                crate::assume::assumption_failed(
                    "data.draw: the generator rejected every candidate",
                )
            }
            Err(payload) if payload.is::<crate::overrun::Overrun>() => {
                drop(tape);
                crate::assume::assumption_failed("data.draw: the draws ran past their limit")
            }
            Err(payload) => {
                drop(tape);
                std::panic::resume_unwind(payload)
            }
        }
    }
}

/// A `Data` has no simpler value of its own: its draws are shrunk as
/// choices, by the integrated shrinker.
impl crate::Shrink for Data {
    const SUBSUMED_BY_CHOICES: bool = true;
    fn shrink(&self) -> crate::shrink::Candidates<'_, Self> {
        crate::shrink::boxed(std::iter::empty())
    }
}

/// A run of the check in progress (see [`Data::begin_run`]): it ends when
/// this is dropped.
#[must_use = "the run ends when the guard is dropped"]
#[derive(Debug)]
pub struct RunGuard<'a> {
    data: &'a Data,
}

impl Drop for RunGuard<'_> {
    fn drop(&mut self) {
        self.data.end_run();
    }
}

mod tail;
use tail::CAPTURED;
pub use tail::{capture, Event, Tail};

#[cfg(test)]
mod tests;

//! The generator step and the run step: generate a case from its seed; run
//! it with panics caught (message kept) and the time limit enforced.

use super::cases::CaseSeed;
use super::watchdog::Watch;
use pbt_core::overrun::Overrun;
use pbt_core::{Discarded, Outcome, Property};
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

/// What one test step came to: the [`Outcome`] of the check on a generated
/// input, or the input was never made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The case was generated and run: the check passed, failed (or
    /// panicked, or ran past the time limit; the reason says which), or
    /// discarded it.
    Ran(Outcome),
    /// The case was not generated (a precondition or a generator rejected).
    Discarded(Discarded),
    /// Generating the case failed: a generator or mutator panicked, or the
    /// generator drew more than its budget ("data too large"). The reason
    /// says which. It is a failure, never a discard.
    GeneratorPanicked(String),
}

/// Generate `case` and run it in one watched, panic-catching call (the hot
/// path of every generate-and-test loop): a panic while generating is the
/// generator's, one after is the check's. The generator draws from a source
/// bounded by the watch's [`Watch::max_draws`]; past it, generation stops
/// with a "data too large" reason ([`Step::GeneratorPanicked`]).
#[inline]
pub fn generate_and_run<P: Property>(prop: &P, case: &CaseSeed, watch: &Watch) -> Step {
    let mut rng = case.rng().limited(watch.max_draws(), MAX_STACK);
    let mut generated = false;
    let ticket = watch.start();
    let result = catch_quietly(|| match prop.generate(&mut rng, case.size) {
        Ok(inputs) => {
            generated = true;
            Step::Ran(prop.run(&inputs))
        }
        Err(why) => Step::Discarded(why),
    });
    let overran = watch.finish(ticket);
    match result {
        Ok(Step::Discarded(why)) => Step::Discarded(why),
        _ if overran => Step::Ran(Outcome::Fail(over_time(watch))),
        Ok(step) => step,
        Err(panic) if !generated => Step::GeneratorPanicked(panic.generator_reason()),
        Err(panic) => Step::Ran(Outcome::Fail(format!("panicked: {}", panic.message))),
    }
}

/// How deep into the stack a generator may go from where generation starts
/// (see [`pbt_core::overrun::DEFAULT_MAX_STACK`]).
pub const MAX_STACK: usize = pbt_core::overrun::DEFAULT_MAX_STACK;

/// The reason of a test that overran the watch's time limit.
pub fn over_time(watch: &Watch) -> String {
    format!(
        "the test ran longer than the time limit of {:?}",
        watch.limit().unwrap_or_default()
    )
}

/// Run the check on `inputs` under the watchdog: a panic is a failure with its
/// message, a run longer than the time limit is a failure too.
#[inline]
pub fn run<P: Property>(prop: &P, inputs: &P::Inputs, watch: &Watch) -> Outcome {
    let ticket = watch.start();
    let result = quietly(|| prop.run(inputs));
    let overran = watch.finish(ticket);
    match result {
        _ if overran => Outcome::Fail(over_time(watch)),
        Ok(outcome) => outcome,
        Err(msg) => Outcome::Fail(format!("panicked: {msg}")),
    }
}

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
    /// The last panic on this thread while quiet (the hook sees the
    /// location; the payload alone does not).
    static LAST_PANIC: RefCell<Option<Recorded>> = const { RefCell::new(None) };
}

/// A panic as the hook saw it.
struct Recorded {
    /// Its message.
    message: String,
    /// Where it was raised (" at file:line"), or empty.
    at: String,
}

/// A panic caught by [`catch_quietly`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Panic {
    /// Its message, with where it was raised when known.
    pub message: String,
    /// The payload was a source's [`Overrun`]: a generator drew too much
    /// (the message says what), not a panic of the user's.
    pub overrun: Option<Overrun>,
}

impl Panic {
    /// The reason of a failed generation: "the generator panicked: …", or
    /// the overrun ("data too large: …").
    pub fn generator_reason(&self) -> String {
        match self.overrun {
            Some(_) => self.message.clone(),
            None => format!("the generator panicked: {}", self.message),
        }
    }

    /// Whether a replayed choice sequence ran out (a rejected candidate,
    /// not a fault).
    pub fn replay_ran_out(&self) -> bool {
        matches!(self.overrun, Some(Overrun::Replay { .. }))
    }
}

/// Run `f`, catching a panic and returning its message; while `f` runs on
/// this thread the panic hook records the message instead of printing it.
#[inline]
pub fn quietly<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    catch_quietly(f).map_err(|panic| panic.message)
}

/// [`quietly`], keeping whether the panic was a source's [`Overrun`].
///
/// ```
/// use pbt_runners::components::catch_quietly;
/// let caught = catch_quietly(|| -> u8 { panic!("boom {}", 1) }).unwrap_err();
/// assert!(caught.message.starts_with("boom 1") && caught.overrun.is_none());
/// assert_eq!(catch_quietly(|| 5).unwrap(), 5);
/// ```
#[inline]
pub fn catch_quietly<R>(f: impl FnOnce() -> R) -> Result<R, Panic> {
    let mut f = Some(f);
    let mut out = None;
    // The catching is done once, in `run_quietly`, not once per closure type.
    run_quietly(&mut || out = f.take().map(|f| f()))?;
    out.ok_or_else(|| Panic {
        message: "the test did not run".to_string(),
        overrun: None,
    })
}

fn run_quietly(f: &mut dyn FnMut()) -> Result<(), Panic> {
    install_hook();
    let was = QUIET.with(|q| q.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    let payload = match result {
        Ok(()) => return Ok(()),
        Err(payload) => payload,
    };
    // What the hook saw last may belong to a panic the user's code caught
    // (on this input or an earlier one): it is used only when it is this
    // payload's message, and never kept for the next panic.
    let recorded = LAST_PANIC.with(|p| p.borrow_mut().take());
    let overrun = payload.downcast_ref::<Overrun>().copied();
    let message = payload_message(&*payload);
    let message = match recorded {
        Some(Recorded { message: msg, at }) if msg == message => format!("{msg}{at}"),
        _ => message,
    };
    Err(Panic { message, overrun })
}

/// The message a panic payload carries.
fn payload_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .or_else(|| payload.downcast_ref::<Overrun>().map(Overrun::to_string))
        .unwrap_or_else(|| "a panic with a non-string payload".to_string())
}

/// Wrap the process's panic hook once: quiet threads record, others print.
fn install_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) {
                let msg = payload_message(info.payload());
                let at = info
                    .location()
                    .map(|l| format!(" at {}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                let recorded = Recorded { message: msg, at };
                LAST_PANIC.with(|p| *p.borrow_mut() = Some(recorded));
            } else {
                previous(info);
            }
        }));
    });
}

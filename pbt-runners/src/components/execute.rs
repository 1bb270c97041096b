//! The generator step and the run step: generate a case from its seed; run
//! it with panics caught (message kept) and the time limit enforced.

use super::cases::Case;
use super::watchdog::Watch;
use pbt_core::{Discarded, Outcome, Property};
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

/// The verdict of one run step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The check held.
    Pass,
    /// The check failed, panicked or timed out; the reason says which.
    Fail(String),
    /// A precondition did not hold.
    Discard,
}

/// Generate `case` and run it in one watched, panic-catching call (the hot
/// path of every generate-and-test loop): a panic while generating is the
/// generator's, one after is the check's.
#[inline]
pub fn generate_and_run<P: Property>(
    prop: &P,
    case: &Case,
    watch: &Watch,
) -> Result<Result<Verdict, Discarded>, String> {
    let mut rng = case.rng();
    let mut generated = false;
    let ticket = watch.start();
    let result = quietly(|| {
        let inputs = prop.generate(&mut rng, case.size)?;
        generated = true;
        Ok(prop.run(&inputs))
    });
    let overran = watch.finish(ticket);
    match result {
        Ok(Err(why)) => Ok(Err(why)),
        _ if overran => Ok(Ok(Verdict::Fail(format!(
            "the test ran longer than the time limit of {:?}",
            watch.limit().unwrap_or_default()
        )))),
        Ok(Ok(outcome)) => Ok(Ok(verdict(outcome))),
        Err(msg) if !generated => Err(format!("the generator panicked: {msg}")),
        Err(msg) => Ok(Ok(Verdict::Fail(format!("panicked: {msg}")))),
    }
}

/// The run step's verdict for an outcome.
fn verdict(outcome: Outcome) -> Verdict {
    match outcome {
        Outcome::Pass => Verdict::Pass,
        Outcome::Discard => Verdict::Discard,
        Outcome::Fail(reason) => Verdict::Fail(reason),
    }
}

/// Run the check on `inputs` under the watchdog: a panic is a failure with its
/// message, a run longer than the time limit is a failure too.
#[inline]
pub fn run<P: Property>(prop: &P, inputs: &P::Inputs, watch: &Watch) -> Verdict {
    let ticket = watch.start();
    let result = quietly(|| prop.run(inputs));
    let overran = watch.finish(ticket);
    match result {
        _ if overran => Verdict::Fail(format!(
            "the test ran longer than the time limit of {:?}",
            watch.limit().unwrap_or_default()
        )),
        Ok(Outcome::Pass) => Verdict::Pass,
        Ok(Outcome::Discard) => Verdict::Discard,
        Ok(Outcome::Fail(reason)) => Verdict::Fail(reason),
        Err(msg) => Verdict::Fail(format!("panicked: {msg}")),
    }
}

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Run `f`, catching a panic and returning its message; while `f` runs on
/// this thread the panic hook records the message instead of printing it.
#[inline]
pub fn quietly<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    let mut f = Some(f);
    let mut out = None;
    // The catching is done once, in `run_quietly`, not once per closure type.
    run_quietly(&mut || out = f.take().map(|f| f()))?;
    out.ok_or_else(|| "the test did not run".to_string())
}

fn run_quietly(f: &mut dyn FnMut()) -> Result<(), String> {
    install_hook();
    let was = QUIET.with(|q| q.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    result.map_err(|payload| {
        LAST_PANIC
            .with(|p| p.borrow_mut().take())
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic with a non-string payload".to_string())
    })
}

/// Wrap the process's panic hook once: quiet threads record, others print.
fn install_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) {
                let msg = info
                    .payload()
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| info.payload().downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic with a non-string payload".to_string());
                let at = info
                    .location()
                    .map(|l| format!(" at {}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                LAST_PANIC.with(|p| *p.borrow_mut() = Some(format!("{msg}{at}")));
            } else {
                previous(info);
            }
        }));
    });
}

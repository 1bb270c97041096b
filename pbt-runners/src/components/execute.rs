//! The generator step and the run step: generate a case from its seed; run
//! it with panics caught (message kept) and the time limit enforced.

use super::cases::Cases;
use super::found::CaseSeed;
use super::statistics::Statistics;
use super::tested::{Fault, Tested};
use super::watch::Watch;
use pbt_core::overrun::Overrun;
use pbt_core::{Outcome, Property};
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::{Mutex, Once};

/// Generate `case` and run it in one watched, panic-catching call (the hot
/// path of every generate-and-test loop): a panic while generating is the
/// generator's, one after is the check's. The generator draws from a source
/// bounded by the watch's [`Watch::max_draws`]; past it, generation stops
/// with a "data too large" reason (a [`super::Fault::Generator`]).
#[inline]
pub fn generate_and_run<P: Property>(prop: &P, case: &CaseSeed, watch: &Watch) -> Tested {
    let mut rng = case.rng().limited(watch.max_draws(), MAX_STACK);
    let mut generated = false;
    let ticket = watch.start();
    let result = catch_quietly(|| match prop.generate(&mut rng, case.size) {
        Ok(inputs) => {
            generated = true;
            Tested::from(prop.run(&inputs))
        }
        Err(why) => Tested::Discarded(why),
    });
    let overran = watch.finish(ticket);
    match result {
        Ok(Tested::Discarded(why)) if !generated => Tested::Discarded(why),
        _ if overran => Tested::Failed(Fault::Check(over_time(watch))),
        Ok(tested) => tested,
        Err(panic) if !generated => Tested::Failed(Fault::Generator(panic.generator_reason())),
        Err(panic) => Tested::Failed(Fault::Check(format!("panicked: {}", panic.message))),
    }
}

/// What a batch of fresh tests ([`generate_and_run_batch`]) came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    /// The tests that passed and reported nothing (each counted in the
    /// statistics already).
    pub passed: u64,
    /// The test that ended the batch early, with what it came to: one that
    /// did not pass, or reported statistics (its observations are the
    /// observer's). `None` when the batch's every test passed silently.
    pub stopped: Option<(CaseSeed, Tested)>,
}

/// Generate and run the next fresh cases of `cases` until `budget` of them
/// have passed, or one did not pass (failed, panicked, overran, was
/// discarded) or reported statistics: [`generate_and_run`] on each, in one
/// panic-catching call and with one generator reseeded per case, which is
/// what keeps a runner's loop near a hand-written one. Each silent pass is
/// counted in `statistics` ([`Statistics::record_pass`]); the test that
/// stopped the batch is returned with what it came to, exactly as
/// [`generate_and_run`] would give it, for the caller to count.
///
/// The caller watches the batch's statistics with one
/// [`pbt_core::statistics::Observer`], started before the batch: since the
/// batch stops at the first test that reported anything, what the observer
/// saw is that test's.
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::components::statistics::Statistics;
/// use pbt_runners::components::{generate_and_run_batch, supervise, DynProperty, Fault, Plan, Tested};
/// use pbt_runners::{Config, Regressions};
/// let prop = Prop::new(Forall::new("x", "u8", Check::new(|&(x, ()): &(u8, ())| x < 200)));
/// let config = Config::default().ignore_env().seed(5).regressions(Regressions::Off);
/// let plan = Plan::new(&config, &DynProperty::structure(&prop));
/// let mut stats = Statistics::new(&plan.config);
/// let batch = supervise(&prop, &plan, |watch| {
///     generate_and_run_batch(&prop, &mut plan.cases(), 1000, watch, &mut stats)
/// });
/// let (case, tested) = batch.stopped.expect("some x is at least 200");
/// assert!(matches!(tested, Tested::Failed(Fault::Check(_))));
/// // The failing case is the first that fails one at a time.
/// assert_eq!(case, plan.case(batch.passed));
/// assert_eq!(stats.tests, batch.passed);
/// ```
#[inline]
pub fn generate_and_run_batch<P: Property>(
    prop: &P,
    cases: &mut Cases<'_>,
    budget: u64,
    watch: &Watch,
    statistics: &mut Statistics,
) -> Batch {
    // Tickets count the tests of a watch: this batch's are `first + 1`, ….
    // Each test announces itself to the watchdog with its ticket alone (one
    // store): the watch works the case out from it if the test hangs.
    let first = watch.start_batch(cases);
    // Whether the input in flight was generated (a panic is then the
    // check's): read after a panic, so kept outside the catching call.
    let mut generated = false;
    let result = catch_quietly(|| {
        // Local copies, kept in registers: the caller's are written back
        // when the batch ends without a panic.
        let mut rng = pbt_core::Rng::from_seed(0).limited(watch.max_draws(), MAX_STACK);
        // Each case's seed and generator state are worked out ahead of it
        // (`Cases`, `Cases::seeded`): nothing in a test feeds them, so the
        // processor works on them while the test before runs.
        let mut fresh = cases.clone().seeded();
        let mut ticket = first;
        // Read once, not through the reference the closure holds (about
        // 1 ns a test on the pair of `benches/runner_throughput.rs`).
        let last = first.saturating_add(budget);
        let stopped = loop {
            if ticket == last {
                break None;
            }
            let (case, state) = fresh.next_case();
            rng.restart(state);
            generated = false;
            ticket += 1;
            watch.start_batched(ticket);
            let verdict = match prop.generate_and_run(&mut rng, case.size, &mut generated) {
                Ok(verdict) => verdict,
                Err(why) => break Some((case, Tested::Discarded(why))),
            };
            if watch.overran(ticket) {
                break Some((case, Tested::Failed(Fault::Check(over_time(watch)))));
            }
            match verdict {
                Outcome::Pass if !pbt_core::statistics::recorded() => {
                    statistics.record_pass(case.size);
                }
                verdict => break Some((case, Tested::from(verdict))),
            }
        };
        *cases = fresh.into_cases();
        let passed = match stopped {
            None => ticket - first,
            Some(_) => ticket - first - 1,
        };
        watch.end_batch(ticket, stopped.as_ref().map(|(case, _)| case));
        Batch { passed, stopped }
    });
    match result {
        Ok(batch) => batch,
        Err(panic) => batch_panicked(panic, cases, first, generated, watch),
    }
}

/// The batch of [`generate_and_run_batch`] that a panic ended, after the
/// tests from ticket `first` on: not generic, so compiled once, not once
/// per property.
fn batch_panicked(
    panic: Panic,
    cases: &mut Cases<'_>,
    first: u64,
    generated: bool,
    watch: &Watch,
) -> Batch {
    // The test in flight is the watch's: its ticket, and its case worked
    // out from it.
    let ticket = watch.running();
    let case = watch.in_flight_case();
    // (A panic before the first test started would leave no ticket
    // running; nothing before it can panic, but no count goes below 0.)
    let passed = ticket.saturating_sub(first).saturating_sub(1);
    for _ in 0..=passed {
        cases.next();
    }
    let overran = ticket != 0 && watch.overran(ticket);
    watch.end_batch(ticket.max(first), Some(&case));
    let fault = match () {
        _ if overran => Fault::Check(over_time(watch)),
        _ if !generated => Fault::Generator(panic.generator_reason()),
        _ => Fault::Check(format!("panicked: {}", panic.message)),
    };
    Batch {
        passed,
        stopped: Some((case, Tested::Failed(fault))),
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
    /// Where it was raised (" at file:line:col"), or empty.
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
    // The catching is done once, in `run_quietly`, not once per closure
    // type; what is generic here is kept to the least code (a test target
    // compiles it for each closure it catches).
    run_quietly(&mut || {
        if let Some(f) = f.take() {
            out = Some(f());
        }
    })?;
    match out {
        Some(out) => Ok(out),
        None => Err(did_not_run()),
    }
}

#[cold]
fn did_not_run() -> Panic {
    Panic {
        message: "the test did not run".to_string(),
        overrun: None,
    }
}

fn run_quietly(f: &mut dyn FnMut()) -> Result<(), Panic> {
    let was = hush();
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    unhush(was);
    match result {
        Ok(()) => Ok(()),
        Err(payload) => Err(caught(payload)),
    }
}

/// Drop `value` quietly, as [`catch_quietly`] runs a closure: a panic of
/// its `Drop` comes back as a [`Panic`]. Inlined, for the shrinker drops
/// every candidate it rejects (see [`super::drop_quietly`]).
#[inline]
pub(crate) fn drop_caught<T>(value: T) -> Result<(), Panic> {
    let was = hush();
    let result = panic::catch_unwind(AssertUnwindSafe(move || drop(value)));
    unhush(was);
    result.map_err(caught)
}

/// Panics quiet from here on (the hook installed): what was set before.
/// Not generic, so [`drop_caught`]'s instances share it.
fn hush() -> bool {
    install_hook();
    QUIET.with(|q| q.replace(true))
}

/// Panics as quiet as `was` again ([`hush`]).
fn unhush(was: bool) {
    QUIET.with(|q| q.set(was));
}

/// The [`Panic`] a caught panic's `payload` is.
#[cold]
fn caught(payload: Box<dyn std::any::Any + Send>) -> Panic {
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
    drop_payload(payload);
    Panic { message, overrun }
}

/// Drop a caught panic's payload quietly: a payload whose own `Drop`
/// panics (`panic_any` of a guard) must not unwind out of the runner and
/// lose the case. The second panic's payload is leaked, not dropped: it
/// may panic again.
#[cold]
fn drop_payload(payload: Box<dyn std::any::Any + Send>) {
    let was = QUIET.with(|q| q.replace(true));
    if let Err(again) = panic::catch_unwind(AssertUnwindSafe(move || drop(payload))) {
        std::mem::forget(again);
    }
    QUIET.with(|q| q.set(was));
    LAST_PANIC.with(|p| p.borrow_mut().take());
}

/// Runs in progress in this process ([`RunScope`]): while there is one, a
/// panic on a thread that is not quiet (a thread the check spawned) is
/// printed once per message and place, not once per thread and test.
static RUNS: AtomicUsize = AtomicUsize::new(0);

/// The panics of spawned threads printed during the runs in progress
/// (message and place), forgotten when the last run ends.
static PRINTED: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());

/// A run in progress, for the panic hook (see [`RUNS`]): made by
/// [`super::supervise_all`] around a runner's body.
pub(crate) struct RunScope(());

impl RunScope {
    pub(crate) fn enter() -> RunScope {
        install_hook();
        RUNS.fetch_add(1, SeqCst);
        RunScope(())
    }
}

impl Drop for RunScope {
    fn drop(&mut self) {
        if RUNS.fetch_sub(1, SeqCst) == 1 {
            PRINTED.lock().unwrap_or_else(|e| e.into_inner()).clear();
        }
    }
}

/// Whether the hook prints a panic seen on a thread that is not quiet:
/// always outside runs and on named threads; on an unnamed thread during a
/// run, the first time its message and place are seen. The check's threads panic again on every input the shrinker
/// tries, and each would print its message into the test's output.
fn first_sighting(message: String, at: String) -> bool {
    // Only unnamed threads, which a check spawns: a test harness names its
    // test threads (libtest after the test), whose panics are their tests'
    // own reports and always printed.
    if RUNS.load(SeqCst) == 0 || std::thread::current().name().is_some() {
        return true;
    }
    let mut printed = PRINTED.lock().unwrap_or_else(|e| e.into_inner());
    let key = (message, at);
    if printed.contains(&key) {
        return false;
    }
    printed.push(key);
    true
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
                // The column too: two panics on one line are two origins
                // (`Config::report_multiple`).
                let at = info
                    .location()
                    .map(|l| format!(" at {}:{}:{}", l.file(), l.line(), l.column()))
                    .unwrap_or_default();
                let recorded = Recorded { message: msg, at };
                LAST_PANIC.with(|p| *p.borrow_mut() = Some(recorded));
            } else {
                let msg = payload_message(info.payload());
                let at = info
                    .location()
                    .map(|l| format!(" at {}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                if first_sighting(msg, at) {
                    previous(info);
                    if RUNS.load(SeqCst) > 0 && std::thread::current().name().is_none() {
                        eprintln!(
                            "pbt: a panic in a thread the test spawned; the same panic in \
                             other threads is not printed again during this run"
                        );
                    }
                }
            }
        }));
    });
}

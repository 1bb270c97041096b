//! The process-isolated mode (proptest's `fork`; the per-test timeouts of
//! *Property Based Testing in MIT-Scheme*, §3.3): the run step executed out of process.
//!
//! A test opts in with `#[property_test(isolated)]`, `Config::isolated(true)`
//! or `PBT_ISOLATE=1`. The test process then calls no user code: it re-runs
//! its own executable as a child — under libtest, on the same test (the
//! runner thread's name) — with `PBT_ISOLATE_CHILD` naming the property, and
//! the child, reaching the same runner call, serves as a worker
//! ([`Worker`]): it generates each input the parent sends (the runner's
//! inputs stream: saved cases first, then fresh cases from the run seed),
//! prints it, runs the check and answers. So:
//!
//! - a hang is killed at the time limit, an abort, a stack overflow, an
//!   allocation failure or `exit` ends only the child: each is a failure
//!   like any other, saved at once and reported with its input;
//! - it is shrunk like any other failure, on its choice sequence (the
//!   integrated shrinker), each candidate tested in a worker, a fresh one
//!   after each death;
//! - the other tests of the binary still run and report.
//!
//! The mode is a run step, [`Isolated`] (a [`super::RunStep`]): the
//! generational and integrated runners (the default of `#[property_test]`)
//! take it instead of [`super::InProcess`] when isolation is asked
//! ([`requested_step`]), and their one loop and inputs stream stay the same.
//! A hang the watchdog found in process is shrunk by the same workers
//! ([`super::supervise`] hands the watchdog `shrink_hang`).
//!
//! A test binary without libtest (`harness = false`) is re-run without
//! arguments and must reach the same runner call; one that never does
//! leaves the parent with a worker that does not answer, reported as such.

mod child;
mod worker;

pub use worker::{Answer, Shown, Spawn, Worker, UNPRINTED};

use super::cases::Plan;
use super::erased::DynProperty;
use super::failure::{discovered, replay_command, save_on_discovery, Discovery};
use super::found::{CaseSeed, Found};
use super::run_step::RunStep;
use super::tested::{Fault, Tested};
use super::watchdog::Hang;
use crate::config::{Config, Setting, Shrinker};
use crate::report::{Report, SavedAt, SavedFrom, Verdict};
use pbt_core::choices::Replayed;
use pbt_core::shrink::choices::{Attempt, ChoiceShrinker, ReplayMode, Trial};
use pbt_core::{Binding, Discarded, Structure};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// The environment variable that makes a process a worker for the property
/// it names.
pub const CHILD: &str = "PBT_ISOLATE_CHILD";

/// What starts a reply line on a worker's stdout.
const MARK: &str = "\u{1e}pbt-isolate:";

/// A worker's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Reply {
    /// The worker reached the property and waits for inputs.
    Ready,
    /// The input was generated from these choices.
    Drawn(Vec<u64>),
    /// A precondition or generator rejected the input.
    Rejected(Discarded),
    /// Generating the input failed (a generator panicked, or drew more than
    /// its budget): why.
    GeneratorFailed(String),
    /// Its variables, printed.
    Printed(Vec<String>),
    /// The check's verdict.
    Passed,
    Discarded,
    Failed(String),
    Refused(String),
}

/// Whether `config` (or `PBT_ISOLATE`, which overrides it when
/// `config.read_env`) asks for isolation; `Err` names a malformed value.
///
/// ```
/// use pbt_runners::{components::isolation, Config};
/// assert_eq!(isolation::requested(&Config::default().ignore_env().isolated(true)), Ok(true));
/// ```
pub fn requested(config: &Config) -> Result<bool, String> {
    if !config.read_env {
        return Ok(config.isolated);
    }
    // Read once per process with the other PBT_* variables (set but empty
    // is off); see `Config::reread_env`.
    crate::config::with_environment(|env| match &env.isolate {
        Setting::Unset => Ok(config.isolated),
        Setting::Set(on) => Ok(*on),
        Setting::Malformed(message) => Err(format!("PBT_ISOLATE={message}")),
    })
}

/// The isolated run step, when the configuration or the environment asks
/// for isolation: `None` when it does not, and in a worker process (whose
/// in-process run serves the parent, from [`super::supervise`]). A
/// malformed `PBT_ISOLATE` panics, naming the value. What the generational
/// and integrated runners call before they choose their step.
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::{generational, Config, Regressions};
/// // Aborts from x = 1000 on: in process, that would end this program.
/// let prop = Prop::new(Forall::new("x", "u32", Check::new(|&(x, ()): &(u32, ())| {
///     if x >= 1000 {
///         std::process::abort();
///     }
///     true
/// })));
/// let config = Config::default().seed(1).regressions(Regressions::Off).isolated(true);
/// let failure = generational(&prop, config).failure.expect("found");
/// assert!(failure.reason.contains("SIGABRT"), "{}", failure.reason);
/// assert!(failure.counterexample[0].value.parse::<u32>().unwrap() >= 1000);
/// ```
pub fn requested_step<'a>(prop: &dyn DynProperty, plan: &'a Plan) -> Option<Isolated<'a>> {
    if serving().is_some() {
        return None;
    }
    match requested(&plan.config) {
        Ok(on) => on.then(|| Isolated::new(plan, prop.structure())),
        Err(message) => panic!("pbt: {message}"),
    }
}

/// In a worker process for the property `plan` names, serve its inputs and
/// end the process; otherwise return at once. Every runner reaches this
/// (through [`super::supervise`]), so any runner's test can be re-run as a
/// worker: what the watchdog needs to shrink a hang in child processes.
pub fn serve_if_asked(prop: &dyn DynProperty, plan: &Plan) {
    if let Some(served) = serving() {
        if served.to_str() == Some(plan.name.as_str()) {
            child::serve(prop);
        }
    }
}

/// Warn when isolation is asked for a run that a runner without isolated
/// support runs in process (it is supervised: the runners with support
/// never supervise an isolated run in the parent).
pub(crate) fn warn_unsupported(plan: &Plan) {
    if serving().is_none() && requested(&plan.config) == Ok(true) {
        eprintln!(
            "pbt: {}: this runner does not run isolated (the generational and integrated runners \
             do); it runs in process, with the crash handler and the watchdog",
            plan.name
        );
    }
}

/// The property this process serves as a worker (the value of [`CHILD`]),
/// read once per process: the parent sets it in the worker's environment,
/// and it does not change while the worker runs. Every run asks (three
/// times), and an environment lookup is a lock and a scan of the
/// environment.
fn serving() -> Option<&'static std::ffi::OsStr> {
    static SERVING: std::sync::OnceLock<Option<std::ffi::OsString>> = std::sync::OnceLock::new();
    SERVING.get_or_init(|| std::env::var_os(CHILD)).as_deref()
}

/// The test's name under libtest (the current thread's), or `None`.
fn test_name() -> Option<String> {
    std::thread::current()
        .name()
        .filter(|n| *n != "main")
        .map(str::to_string)
}

/// The run step out of process: every input generated, printed and checked
/// in a worker (a child process re-running this test), a fresh worker after
/// each death. A failure — a check that fails, or a worker that hangs,
/// aborts, overflows its stack or exits — is saved at once and shrunk on its
/// choice sequence in workers. The parent calls no user code.
#[derive(Debug)]
pub struct Isolated<'a> {
    plan: &'a Plan,
    structure: Structure,
    spawn: Spawn,
    worker: Option<Worker>,
    /// The input tested last, as its worker showed it, when it failed:
    /// what the failure path shrinks.
    failed: Option<Shown>,
    /// Why the last worker could not be started, if it could not.
    unstarted: Option<String>,
}

impl<'a> Isolated<'a> {
    /// The isolated step for a property with this structure under `plan`
    /// (no worker is started before the first test).
    pub fn new(plan: &'a Plan, structure: Structure) -> Self {
        Isolated {
            spawn: Spawn {
                test: test_name(),
                property: plan.name.clone(),
            },
            plan,
            structure,
            worker: None,
            failed: None,
            unstarted: None,
        }
    }

    /// Test `found` in the live worker (started when there is none).
    fn test(&mut self, found: &Found) -> Tested {
        self.failed = None;
        self.unstarted = None;
        let worker = match worker_for(&self.spawn, &mut self.worker) {
            Ok(worker) => worker,
            Err(e) => {
                let reason = format!("could not start the child process of the isolated mode: {e}");
                self.unstarted = Some(reason.clone());
                return Tested::Failed(Fault::Generator(reason));
            }
        };
        let Answer { tested, shown } = worker.test(found, self.plan.config.timeout);
        if let Some(shown) = &shown {
            let printed = bindings(&self.structure, &shown.printed);
            super::narration::generated_shown(self.plan, found.size(), &printed);
        }
        let Tested::Failed(fault) = tested else {
            return tested;
        };
        if let Fault::Died(_) = fault {
            self.worker = None;
        }
        match (fault, shown) {
            // It died before its input was generated: the fault is the
            // generator's, and there is no input to shrink.
            (Fault::Died(reason), None) => Tested::Failed(Fault::Generator(reason)),
            (fault @ (Fault::Check(_) | Fault::Died(_)), Some(shown)) => {
                self.failed = Some(shown);
                Tested::Failed(fault)
            }
            (fault, _) => Tested::Failed(fault),
        }
    }
}

impl RunStep for Isolated<'_> {
    fn test_fresh(&mut self, case: &CaseSeed) -> Tested {
        self.test(&Found::Case(*case))
    }

    fn test_saved(&mut self, found: &Found) -> Tested {
        self.test(found)
    }

    /// The failure path out of process: save the input (unless it was
    /// replayed from the file), shrink it in workers, report it.
    fn fail(&mut self, discovery: Discovery, mut report: Report) -> Report {
        let Discovery {
            found,
            fault,
            saved,
        } = discovery;
        if saved.is_none() && fault.counts() {
            report.tests += 1;
        }
        let reason = fault.reason();
        if let Some(reason) = self.unstarted.take() {
            // Nothing is known about the input: it is not saved.
            return failed(report, &found, &reason, Failed::AsFound);
        }
        if saved.is_none() {
            let shrinking = self.failed.is_some() && self.plan.config.max_shrinks > 0;
            save_on_discovery(self.plan, &found, reason, shrinking, &mut report);
        }
        self.worker = None;
        let mut replay = found.clone();
        let outcome = match self.failed.take() {
            None => Failed::AsFound,
            Some(shown) => {
                let printed = bindings(&self.structure, &shown.printed);
                super::narration::failing_input_shown(self.plan, &printed);
                let structure = Some(&self.structure);
                let shrunk = shrink(
                    self.plan,
                    &self.spawn,
                    structure,
                    found.size(),
                    shown.clone(),
                    reason,
                );
                report.shrinks = shrunk.steps;
                report.shrink_attempts = shrunk.attempts;
                if shrunk.steps > 0 {
                    let shown = bindings(&self.structure, &shrunk.shown.printed);
                    let shown: Vec<String> = shown.iter().map(Binding::to_string).collect();
                    save(self.plan, &shrunk.smallest(found.size()), &shown.join(", "));
                }
                if shrunk.stopped_early {
                    report.notes.push(format!(
                        "shrinking stopped at a limit (max_shrinks {}, max_shrink_time {:?}) before a local minimum",
                        self.plan.config.max_shrinks, self.plan.config.max_shrink_time
                    ));
                }
                // Run once more, in a fresh worker: a counterexample that
                // passes now is flaky. (Unshrunk, the input as found: a
                // mutant or a saved shrunk case has no choices of its own.)
                // A hang the shrinker confirmed at the full limit has had it.
                let smallest = match shrunk.steps {
                    0 => found.clone(),
                    _ => shrunk.smallest(found.size()),
                };
                replay = smallest.clone();
                let flaky = !shrunk.confirmed
                    && match Worker::spawn(&self.spawn) {
                        Ok(mut worker) => !fails(worker.test(&smallest, self.plan.config.timeout)),
                        Err(_) => false,
                    };
                Failed::Shrunk {
                    counterexample: bindings(&self.structure, &shrunk.shown.printed),
                    original: bindings(&self.structure, &shown.printed),
                    reason: shrunk.reason,
                    flaky,
                }
            }
        };
        let mut report = failed(report, &found, reason, outcome);
        if let Some(failure) = &mut report.failure {
            failure.replayed_from = saved;
            failure.replay = Some(replay_command(self.plan, &replay));
        }
        report
    }
}

/// The live worker, started when there is none.
fn worker_for<'a>(
    spawn: &Spawn,
    worker: &'a mut Option<Worker>,
) -> std::io::Result<&'a mut Worker> {
    if worker.is_none() {
        *worker = Some(Worker::spawn(spawn)?);
    }
    Ok(worker.as_mut().expect("just started"))
}

/// The variables of a property with this structure, printed as `printed`.
fn bindings(structure: &Structure, printed: &[String]) -> Vec<Binding> {
    structure
        .variables()
        .zip(printed)
        .filter_map(|(v, value)| match v {
            pbt_core::property::NodeView::Forall { name, ty, .. } => Some(Binding {
                name,
                ty,
                value: value.clone(),
            }),
            _ => None,
        })
        .collect()
}

/// What the failure path out of process came to.
enum Failed {
    /// No input to show or shrink (the worker died, or could not start,
    /// before the input was generated).
    AsFound,
    /// Shrunk in workers.
    Shrunk {
        counterexample: Vec<Binding>,
        original: Vec<Binding>,
        reason: String,
        /// It passed when run once more.
        flaky: bool,
    },
}

/// Whether a worker's answer is a failure: the check failed, or the worker
/// died (hung, aborted, exited) on the input.
fn fails(answer: Answer) -> bool {
    matches!(
        answer.tested,
        Tested::Failed(Fault::Check(_) | Fault::Died(_))
    )
}

/// `report`, failed on `found` (first failing for `reason`).
fn failed(mut report: Report, found: &Found, reason: &str, outcome: Failed) -> Report {
    let mut failure = discovered(found, reason);
    if let Failed::Shrunk {
        counterexample,
        original,
        reason,
        flaky,
    } = outcome
    {
        failure.counterexample = counterexample;
        failure.original = original;
        failure.reason = reason;
        failure.flaky = flaky;
        failure.shrinker = Some(Shrinker::Integrated);
    }
    report.verdict = Verdict::Failed;
    report.failure = Some(failure);
    report
}

fn save(plan: &Plan, found: &Found, note: &str) {
    if let Some(file) = &plan.regressions {
        if let Err(e) = file.save(found, &plan.test, note) {
            eprintln!("pbt: could not save to {}: {e}", file.path().display());
        }
    }
}

/// A failure shrunk out of process.
#[derive(Debug)]
struct ShrunkOut {
    /// The smallest failing input, as its worker showed it.
    shown: Shown,
    /// Why it fails.
    reason: String,
    /// Accepted steps.
    steps: u64,
    /// Candidates tried.
    attempts: u64,
    /// Whether a limit stopped shrinking.
    stopped_early: bool,
    /// Whether every candidate had the run's whole time limit.
    limit_was_full: bool,
    /// Whether the smallest input already failed once more, in a fresh
    /// worker at the run's whole time limit (a hang shrunk with short
    /// limits is confirmed so): the flaky re-run would repeat it.
    confirmed: bool,
}

impl ShrunkOut {
    /// The smallest failing input, replayable at `size`.
    fn smallest(&self, size: usize) -> Found {
        Found::Choices {
            choices: self.shown.choices.clone(),
            size,
        }
    }
}

/// Shrink the failing input `shown` in workers ([`shrink_with`]). A hang
/// is shrunk with a shorter time limit per candidate first
/// ([`CandidateLimit`]): at the run's limit (10 s by default) each hanging
/// candidate would cost the whole limit, and `max_shrink_time` would stop
/// the shrinker a few steps in. The result is then run once at the full
/// limit; if it returns there (a slow input, not an infinite loop), the
/// hang is shrunk again at the full limit.
fn shrink(
    plan: &Plan,
    spawn: &Spawn,
    structure: Option<&Structure>,
    size: usize,
    shown: Shown,
    reason: &str,
) -> ShrunkOut {
    let full = plan.config.timeout;
    let with = |shown, limit| shrink_with(plan, spawn, structure, size, shown, reason, limit);
    if reason != worker::HUNG {
        return with(shown, CandidateLimit::full(full));
    }
    let mut quick = with(shown.clone(), CandidateLimit::quick(full));
    if quick.steps == 0 || quick.limit_was_full {
        return quick;
    }
    quick.confirmed = Worker::spawn(spawn).is_ok_and(|mut w| {
        let candidate = quick.smallest(size);
        matches!(
            w.test(&candidate, full).tested,
            Tested::Failed(Fault::Died(_))
        )
    });
    if quick.confirmed {
        return quick;
    }
    with(shown, CandidateLimit::full(full))
}

/// The time limit of one shrink candidate: the run's, or, while shrinking
/// a hang, twenty times the slowest candidate that returned, at least a
/// tenth of the run's limit or [`QUICK_FLOOR`], whichever is shorter, and
/// at most the run's limit.
#[derive(Clone, Copy, Debug)]
struct CandidateLimit {
    full: Option<Duration>,
    quick: bool,
    slowest: Duration,
}

/// The shortest time limit a hang's shrink candidate gets under a run's
/// limit of ten seconds or more.
const QUICK_FLOOR: Duration = Duration::from_secs(1);

impl CandidateLimit {
    fn full(full: Option<Duration>) -> Self {
        CandidateLimit {
            full,
            quick: false,
            slowest: Duration::ZERO,
        }
    }

    fn quick(full: Option<Duration>) -> Self {
        CandidateLimit {
            quick: true,
            ..CandidateLimit::full(full)
        }
    }

    /// The limit for the next candidate.
    fn get(&self) -> Option<Duration> {
        match self.quick {
            true => self.full.map(|full| {
                full.min(
                    self.slowest
                        .saturating_mul(20)
                        .max(QUICK_FLOOR.min(full / 10)),
                )
            }),
            false => self.full,
        }
    }

    /// A candidate returned (passed, failed or was discarded) after `took`.
    fn returned(&mut self, took: Duration) {
        self.slowest = self.slowest.max(took);
    }
}

/// Shrink the failing input `shown` on its choice sequence with the passes
/// of [`ChoiceShrinker`] (the in-process integrated shrinker's), each
/// candidate replayed in a worker: a candidate is taken when it fails, dies
/// or hangs and draws smaller choices; it is a step when it also prints
/// differently. A worker reports
/// no blocks or bounds, so only plain replays at `size` are tried (no
/// re-encoding or size steps).
///
/// Each step is narrated at verbose ([`super::narration`]), with the
/// variables' names when `structure` gives them.
fn shrink_with(
    plan: &Plan,
    spawn: &Spawn,
    structure: Option<&Structure>,
    size: usize,
    shown: Shown,
    reason: &str,
    mut limit: CandidateLimit,
) -> ShrunkOut {
    let began = Instant::now();
    let mut limit_was_full = true;
    let mut worker: Option<Worker> = None;
    let mut best = (shown, reason.to_string());
    let (mut steps, mut stopped_early) = (0u64, false);
    let start = Replayed {
        choices: best.0.choices.clone(),
        ..Replayed::default()
    };
    let test = |attempt: Attempt<'_>| {
        if steps >= plan.config.max_shrinks || began.elapsed() >= plan.config.max_shrink_time {
            stopped_early = true;
            return Trial::Stop;
        }
        if attempt.mode != ReplayMode::Simplify || attempt.size != size {
            return Trial::NotAStep;
        }
        let Ok(w) = worker_for(spawn, &mut worker) else {
            return Trial::NotAStep;
        };
        let candidate = Found::Choices {
            choices: attempt.candidate.to_vec(),
            size,
        };
        let this_limit = limit.get();
        limit_was_full &= this_limit == plan.config.timeout;
        let started = Instant::now();
        let Answer { tested, shown } = w.test(&candidate, this_limit);
        match &tested {
            Tested::Failed(Fault::Died(_)) => worker = None,
            _ => limit.returned(started.elapsed()),
        }
        let (next, why) = match (tested, shown) {
            (Tested::Failed(Fault::Check(why) | Fault::Died(why)), Some(shown)) => (shown, why),
            _ => return Trial::NotAStep,
        };
        if !attempt.progress(&next.choices) {
            return Trial::NotAStep;
        }
        // Only progress that shows (or cannot be printed) is a step; smaller
        // choices for the same value are taken silently, as in process: a
        // kind lowered under the same value is what lets the value itself
        // go lower after (refused, `[5, 301]` → `[4, 301]`, the passes
        // took `[4, 302]` instead and ended one above the minimum).
        let shows = next.printed != best.0.printed || next.printed.iter().any(|p| p == UNPRINTED);
        if shows {
            steps += 1;
        }
        if shows && super::narration::at(plan, crate::Verbosity::Verbose) {
            let printed = match structure {
                Some(structure) => {
                    let named = bindings(structure, &next.printed);
                    named
                        .iter()
                        .map(Binding::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                }
                None => next.printed.join(", "),
            };
            super::narration::shrink_step(plan, steps, &printed);
        }
        let replayed = Replayed {
            choices: next.choices.clone(),
            ..Replayed::default()
        };
        best = (next, why);
        Trial::Shrunk(replayed)
    };
    let mut shrinker = ChoiceShrinker::new(start, size, test);
    shrinker.run();
    let attempts = shrinker.attempts();
    drop(shrinker);
    let (shown, reason) = best;
    ShrunkOut {
        shown,
        reason,
        steps,
        attempts,
        stopped_early,
        limit_was_full,
        confirmed: false,
    }
}

/// `eprintln!` past the test harness's capture: the watchdog's thread
/// inherits the capture of whichever test started it, whose output is lost
/// when the watchdog ends the process.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// Shrink a hang the watchdog found in process, in workers, and print the
/// result (called on the watchdog's thread before it ends the process; it
/// calls no user code). Does nothing outside libtest, where the test cannot
/// be re-run alone.
/// `in_test`: the hang was in a test (generating and checking an input),
/// not in other user code the runner calls on it.
pub(crate) fn shrink_hang(plan: &Plan, test: Option<&str>, found: &Found, in_test: bool) {
    let Some(test) = test.filter(|t| *t != "main") else {
        return;
    };
    if std::env::var_os(CHILD).is_some() {
        return;
    }
    let spawn = Spawn {
        test: Some(test.to_string()),
        property: plan.name.clone(),
    };
    say!(
        "pbt: shrinking the hang in child processes (time limit at most {:?} each)…",
        plan.config.timeout.unwrap_or_default()
    );
    let Ok(mut worker) = Worker::spawn(&spawn) else {
        say!("pbt: could not start a child process to shrink it");
        return;
    };
    // Generous: the in-process run already showed it hangs.
    let limit = plan.config.timeout.or(Some(Duration::from_secs(10)));
    let (shown, reason) = match worker.test(found, limit) {
        Answer {
            tested: Tested::Failed(Fault::Died(reason)),
            shown: Some(shown),
        } => (shown, reason),
        // It hung while shrinking a failure: shrink the failure again, in
        // workers, where a hanging candidate is one more failure.
        Answer {
            tested: Tested::Failed(Fault::Check(reason)),
            shown: Some(shown),
        } => (shown, reason),
        Answer {
            tested: Tested::Failed(fault),
            shown: None,
        } => {
            say!(
                "pbt: in a child process: {}; the fault is in a generator, so there is no input to shrink",
                fault.reason()
            );
            return;
        }
        Answer {
            shown: Some(shown), ..
        } if !in_test => {
            say!(
                "pbt: in a child process, which only generates, prints and checks it, the input \
                 ({}) does not hang: the hang is in other user code the runner calls on it (a \
                 #[target], a shrinker or a mutator); the saved case replays it",
                shown.printed.join(", ")
            );
            return;
        }
        Answer {
            tested,
            shown: Some(shown),
        } => {
            say!(
                "pbt: in a child process the input ({}) did not hang: {tested:?} (flaky, or it hangs only after earlier tests)",
                shown.printed.join(", ")
            );
            return;
        }
        Answer { shown: None, .. } => {
            say!("pbt: in a child process the input was discarded (flaky)");
            return;
        }
    };
    drop(worker);
    say!("pbt: the input: {}", shown.printed.join(", "));
    let shrunk = shrink(plan, &spawn, None, found.size(), shown, &reason);
    if shrunk.steps > 0 {
        save(
            plan,
            &shrunk.smallest(found.size()),
            &shrunk.shown.printed.join(", "),
        );
    }
    say!(
        "pbt: shrunk in {} steps ({} tried){}: {}\npbt: reason: {}",
        shrunk.steps,
        shrunk.attempts,
        if shrunk.stopped_early {
            ", stopped at a limit"
        } else {
            ""
        },
        shrunk.shown.printed.join(", "),
        shrunk.reason
    );
}

/// The report of a hang the watchdog handed to the thread waiting on the
/// hung run (`supervise::abandonable`): the input in flight is tested again
/// in a worker, where it is killed at the time limit, then saved and shrunk
/// exactly as the isolated mode does with a hang ([`Isolated`]'s failure
/// path), so it reaches the same minimum. Calls no user code in this
/// process.
pub(crate) fn hang_report(hang: Hang) -> Report {
    let Hang {
        plan,
        structure,
        found,
        replayed,
        in_test,
        stuck,
        tests,
    } = hang;
    let mut report = Report::empty("watchdog", &plan);
    report.tests = tests;
    let saved = match (&plan.regressions, replayed) {
        (Some(file), true) => {
            let cases = plan.saved_cases();
            let at = cases.iter().position(|s| s.found == found);
            Some(SavedAt {
                file: file.path().display().to_string(),
                entry: at.map_or(0, |i| i + 1),
                from: match (&plan.replay, at.map(|i| cases[i].own)) {
                    (Some(_), _) => SavedFrom::Env,
                    (None, Some(false)) => SavedFrom::Shared,
                    (None, _) => SavedFrom::Own,
                },
            })
        }
        _ => None,
    };
    let limit = plan.config.timeout.unwrap_or_default();
    let hung = format!(
        "{} for {stuck:?} (time limit {limit:?}) and did not return; most likely an infinite \
         loop. Its thread was abandoned, and the other tests went on",
        match in_test {
            true => "the test ran",
            false => "the runner made no progress (no test started, no shrink step)",
        }
    );
    let mut step = Isolated::new(&plan, structure);
    let rerun = test_name().map(|_| step.test(&found));
    let not_rerun = match rerun {
        Some(Tested::Failed(fault)) if step.unstarted.is_none() => {
            let discovery = Discovery {
                found,
                fault,
                saved,
            };
            let mut report = step.fail(discovery, report);
            report.notes.push(hung);
            return report;
        }
        // No test name to re-run it by (not under libtest), or no child
        // process: saved and reported as found.
        Some(Tested::Failed(_)) | None => None,
        // It did not hang in a child, which only generates, prints and
        // checks it.
        Some(other) => Some(format!(
            "in a child process, which only generates, prints and checks it, the input did not \
             hang ({other:?}): the hang is in other user code the runner calls on it (a \
             #[target], a shrinker or a mutator), or it hangs only after earlier tests"
        )),
    };
    if saved.is_none() {
        save_on_discovery(&plan, &found, &hung, false, &mut report);
    }
    report.notes.extend(not_rerun);
    let mut report = failed(report, &found, &hung, Failed::AsFound);
    if let Some(failure) = &mut report.failure {
        failure.replayed_from = saved;
        failure.replay = Some(replay_command(&plan, &found));
    }
    report
}

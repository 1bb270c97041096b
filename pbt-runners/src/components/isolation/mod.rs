//! The process-isolated mode (proptest's `fork`; the per-test timeouts of
//! *Property Based Testing in MIT-Scheme*, §3.3): the run step executed out of process.
//!
//! A test opts in with `#[property_test(isolated)]`, `Config::isolated(true)`
//! or `PBT_ISOLATE=1`. The test process then calls no user code: it re-runs
//! its own executable as a child — under libtest, on the same test (the
//! runner thread's name) — with `PBT_ISOLATE_CHILD` naming the property, and
//! the child, reaching the same runner call, serves as a worker
//! ([`Worker`]): it generates each input the parent sends (saved cases
//! first, then fresh cases from the run seed), prints it, runs the check and
//! answers. So:
//!
//! - a hang is killed at the time limit, an abort, a stack overflow, an
//!   allocation failure or `exit` ends only the child: each is a failure
//!   like any other, saved at once and reported with its input;
//! - it is shrunk like any other failure, on its choice sequence (the
//!   integrated shrinker), each candidate tested in a worker, a fresh one
//!   after each death;
//! - the other tests of the binary still run and report.
//!
//! The generational and integrated runners (the default of
//! `#[property_test]`) run isolated; the watchdog uses the same workers to
//! shrink a hang it found in process.
//!
//! A test binary without libtest (`harness = false`) is re-run without
//! arguments and must reach the same runner call; one that never does
//! leaves the parent with a worker that does not answer, reported as such.

mod child;
mod worker;

pub use worker::{Spawn, Tested, Worker, UNPRINTED};

use super::cases::{Found, Plan};
use super::erased::DynProperty;
use super::shrinker::{descend, Descent, ShrinkLimits};
use crate::config::{Config, Shrinker};
use crate::report::Report;
use pbt_core::choices::{shortlex_lt, simplifications};
use pbt_core::Binding;
use pbt_core::Outcome;
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
    /// Its variables, printed.
    Printed(Vec<String>),
    Passed,
    Discarded,
    Failed(String),
    GeneratorPanicked,
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
    let Some(raw) = std::env::var_os("PBT_ISOLATE") else {
        return Ok(config.isolated);
    };
    // The switch syntax of every PBT_* variable; set but empty is off.
    match crate::config::parse_switch(&raw.to_string_lossy()) {
        Ok(on) => Ok(on.unwrap_or(false)),
        Err(()) => Err(format!(
            "PBT_ISOLATE={raw:?} is not a switch: expected 1 (run tests isolated) or 0"
        )),
    }
}

/// Run `prop` isolated when the configuration or the environment asks for
/// it, else `in_process`; in a worker process, serve the property the
/// parent names. What the generational and integrated runners call.
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
pub fn run(
    prop: &dyn DynProperty,
    config: Config,
    runner: &'static str,
    in_process: impl FnOnce(&dyn DynProperty, Config) -> Report,
) -> Report {
    if std::env::var_os(CHILD).is_some() {
        serve_if_asked(prop, &Plan::new(&config, &prop.structure()));
        return in_process(prop, config);
    }
    match requested(&config) {
        Ok(false) => in_process(prop, config),
        Ok(true) => isolated(prop, config, runner),
        Err(message) => panic!("pbt: {message}"),
    }
}

/// In a worker process for the property `plan` names, serve its inputs and
/// end the process; otherwise return at once. Every runner reaches this
/// (through [`super::supervise`]), so any runner's test can be re-run as a
/// worker: what the watchdog needs to shrink a hang in child processes.
pub fn serve_if_asked(prop: &dyn DynProperty, plan: &Plan) {
    if let Some(served) = std::env::var_os(CHILD) {
        if served.to_str() == Some(plan.name.as_str()) {
            child::serve(prop);
        }
    }
}

/// Warn when isolation is asked for a run that a runner without isolated
/// support runs in process (it is supervised: the runners with support
/// never supervise an isolated run in the parent).
pub(crate) fn warn_unsupported(plan: &Plan) {
    if std::env::var_os(CHILD).is_none() && requested(&plan.config) == Ok(true) {
        eprintln!(
            "pbt: {}: this runner does not run isolated (the generational and integrated runners \
             do); it runs in process, with the crash handler and the watchdog",
            plan.name
        );
    }
}

/// The test's name under libtest (the current thread's), or `None`.
fn test_name() -> Option<String> {
    std::thread::current()
        .name()
        .filter(|n| *n != "main")
        .map(str::to_string)
}

/// The generational loop with every test in a worker.
fn isolated(prop: &dyn DynProperty, config: Config, runner: &'static str) -> Report {
    let started = Instant::now();
    let structure = prop.structure();
    let plan = Plan::new(&config, &structure);
    let spawn = Spawn {
        test: test_name(),
        property: plan.name.clone(),
    };
    let saved = plan.saved();
    let mut report = Report::empty(runner, &plan);
    report.replayed = saved.len() as u64;
    report
        .notes
        .push("isolated: every test ran in a child process".to_string());
    let limit = plan.config.timeout;
    let mut worker = None;
    // Every saved case first, not counted toward `cases` (as in process),
    // then fresh cases until `cases` passed.
    let saved = saved.into_iter().map(|found| (found, true));
    let fresh = (0..).map(|n| (Found::Case(plan.case(n)), false));
    for (found, was_saved) in saved.chain(fresh) {
        if !was_saved && report.tests >= plan.config.cases {
            break;
        }
        let w = match worker_for(&spawn, &mut worker) {
            Ok(w) => w,
            Err(e) => return could_not_start(report, &found, e).finish(started),
        };
        match w.test(&found, limit) {
            Tested::Ran {
                verdict: Outcome::Pass,
                ..
            } => report.tests += u64::from(!was_saved),
            Tested::Ran {
                verdict: Outcome::Discard,
                ..
            }
            | Tested::Discarded
                if was_saved => {}
            Tested::Ran {
                verdict: Outcome::Discard,
                ..
            }
            | Tested::Discarded => {
                report.discards += 1;
                if plan.too_many_discards(report.discards) {
                    return report.gave_up().finish(started);
                }
            }
            Tested::Ran {
                choices,
                printed,
                verdict: Outcome::Fail(reason),
            } => {
                report.tests += 1;
                let first = Some((choices, printed));
                return fail(&plan, &spawn, &structure, &found, reason, first, report)
                    .finish(started);
            }
            Tested::Died { reason, generated } => {
                drop(worker.take());
                report.tests += 1;
                return fail(&plan, &spawn, &structure, &found, reason, generated, report)
                    .finish(started);
            }
        }
    }
    report.finish(started)
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

fn could_not_start(mut report: Report, found: &Found, e: std::io::Error) -> Report {
    report.verdict = crate::report::Verdict::Failed;
    let reason = format!("could not start the child process of the isolated mode: {e}");
    report.failure = Some(super::failure::discovered(found, &reason));
    report
}

/// A failure found out of process: save it, shrink it in workers, report.
fn fail(
    plan: &Plan,
    spawn: &Spawn,
    structure: &pbt_core::Structure,
    found: &Found,
    reason: String,
    generated: Option<(Vec<u64>, Vec<String>)>,
    mut report: Report,
) -> Report {
    super::failure::save_on_discovery(plan, found, &reason, &mut report);
    let bindings = |printed: &[String]| -> Vec<Binding> {
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
    };
    let Some((choices, printed)) = generated else {
        return failed(report, found, &reason, Vec::new(), Vec::new(), None);
    };
    let shrunk = shrink(plan, spawn, found.size(), choices, printed.clone(), reason);
    report.shrinks = shrunk.steps;
    report.shrink_attempts = shrunk.attempts;
    if shrunk.steps > 0 {
        let smallest = Found::Choices {
            choices: shrunk.choices.clone(),
            size: found.size(),
        };
        save(plan, &smallest, &shrunk.printed.join(", "));
    }
    if shrunk.stopped_early {
        report.notes.push(format!(
            "shrinking stopped at a limit (max_shrinks {}, max_shrink_time {:?}) before a local minimum",
            plan.config.max_shrinks, plan.config.max_shrink_time
        ));
    }
    let counterexample = bindings(&shrunk.printed);
    let original = bindings(&printed);
    failed(
        report,
        found,
        &shrunk.reason,
        counterexample,
        original,
        Some(Shrinker::Integrated),
    )
}

/// `report`, failed on `found` with this (shrunk) counterexample.
fn failed(
    mut report: Report,
    found: &Found,
    reason: &str,
    counterexample: Vec<Binding>,
    original: Vec<Binding>,
    shrinker: Option<Shrinker>,
) -> Report {
    let mut failure = super::failure::discovered(found, reason);
    failure.counterexample = counterexample;
    failure.original = original;
    failure.shrinker = shrinker;
    report.verdict = crate::report::Verdict::Failed;
    report.failure = Some(failure);
    report
}

fn save(plan: &Plan, found: &Found, note: &str) {
    if let Some(file) = &plan.regressions {
        if let Err(e) = file.save(found, &plan.name, note) {
            eprintln!("pbt: could not save to {}: {e}", file.path().display());
        }
    }
}

/// A failure shrunk out of process.
#[derive(Debug)]
struct ShrunkOut {
    /// The smallest failing choices.
    choices: Vec<u64>,
    /// Its variables printed.
    printed: Vec<String>,
    /// Why it fails.
    reason: String,
    /// Accepted steps.
    steps: u64,
    /// Candidates tried.
    attempts: u64,
    /// Whether a limit stopped shrinking.
    stopped_early: bool,
}

/// Shrink the failing `choices` (printed as `printed`) on their choice
/// sequence, each candidate replayed in a worker: a candidate is taken when
/// it fails, dies or hangs, draws fewer or smaller choices and prints
/// differently.
fn shrink(
    plan: &Plan,
    spawn: &Spawn,
    size: usize,
    choices: Vec<u64>,
    printed: Vec<String>,
    reason: String,
) -> ShrunkOut {
    let limits = ShrinkLimits {
        max_steps: plan.config.max_shrinks,
        max_time: plan.config.max_shrink_time,
    };
    let limit = plan.config.timeout;
    let mut worker: Option<Worker> = None;
    let Descent {
        point: (choices, printed, reason),
        steps,
        attempts,
        stopped_early,
    } = descend(
        (choices, printed, reason),
        limits,
        |(current, shown, _), budget| {
            simplifications(current)
                .take_while(|_| budget.tick())
                .find_map(|candidate| {
                    let w = worker_for(spawn, &mut worker).ok()?;
                    let tested = w.test(
                        &Found::Choices {
                            choices: candidate,
                            size,
                        },
                        limit,
                    );
                    let (used, printed, why) = match tested {
                        Tested::Ran {
                            choices,
                            printed,
                            verdict: Outcome::Fail(why),
                        } => (choices, printed, why),
                        Tested::Died {
                            reason,
                            generated: Some((choices, printed)),
                        } => {
                            worker = None;
                            (choices, printed, reason)
                        }
                        Tested::Died { .. } => {
                            worker = None;
                            return None;
                        }
                        _ => return None,
                    };
                    // Only progress that shows (when it can be printed).
                    let shows = &printed != shown || printed.iter().any(|p| p == UNPRINTED);
                    (shortlex_lt(&used, current) && shows).then_some((used, printed, why))
                })
        },
        |_| {},
    );
    ShrunkOut {
        choices,
        printed,
        reason,
        steps,
        attempts,
        stopped_early,
    }
}

/// Shrink a hang the watchdog found in process, in workers, and print the
/// result (called on the watchdog's thread before it ends the process; it
/// calls no user code). Does nothing outside libtest, where the test cannot
/// be re-run alone.
pub(crate) fn shrink_hang(plan: &Plan, test: Option<&str>, found: &Found) {
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
    eprintln!(
        "pbt: shrinking the hang in child processes (time limit {:?} each)…",
        plan.config.timeout.unwrap_or_default()
    );
    let Ok(mut worker) = Worker::spawn(&spawn) else {
        eprintln!("pbt: could not start a child process to shrink it");
        return;
    };
    // Generous: the in-process run already showed it hangs.
    let limit = plan.config.timeout.or(Some(Duration::from_secs(10)));
    let (choices, printed, reason) = match worker.test(found, limit) {
        Tested::Died {
            reason,
            generated: Some((choices, printed)),
        } => (choices, printed, reason),
        Tested::Died {
            reason,
            generated: None,
        } => {
            eprintln!(
                "pbt: in a child process: {reason}; the fault is in a generator, so there is no input to shrink"
            );
            return;
        }
        // It hung while shrinking a failure: shrink the failure again, in
        // workers, where a hanging candidate is one more failure.
        Tested::Ran {
            choices,
            printed,
            verdict: Outcome::Fail(reason),
        } => (choices, printed, reason),
        Tested::Ran {
            printed, verdict, ..
        } => {
            eprintln!(
                "pbt: in a child process the input ({}) did not hang: {verdict:?} (flaky, or it hangs only after earlier tests)",
                printed.join(", ")
            );
            return;
        }
        Tested::Discarded => {
            eprintln!("pbt: in a child process the input was discarded (flaky)");
            return;
        }
    };
    drop(worker);
    eprintln!("pbt: the input: {}", printed.join(", "));
    let shrunk = shrink(plan, &spawn, found.size(), choices, printed, reason);
    if shrunk.steps > 0 {
        let smallest = Found::Choices {
            choices: shrunk.choices.clone(),
            size: found.size(),
        };
        save(plan, &smallest, &shrunk.printed.join(", "));
    }
    eprintln!(
        "pbt: shrunk in {} steps ({} tried){}: {}\npbt: reason: {}",
        shrunk.steps,
        shrunk.attempts,
        if shrunk.stopped_early {
            ", stopped at a limit"
        } else {
            ""
        },
        shrunk.printed.join(", "),
        shrunk.reason
    );
}

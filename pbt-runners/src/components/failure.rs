//! The failure path every runner ends in (*Programmable Property-Based Testing* Fig. 12: shrink,
//! print, save — in the order that loses nothing):
//!
//! ```text
//! found a failing input
//!   → save it to the regressions file and print its seed to stderr   (before
//!     any user code runs again: a shrinker, printer or Debug that panics or
//!     hangs cannot lose it)
//!   → shrink it (a check failure only), each candidate's user code guarded
//!   → print the result (a printer that panics prints a placeholder)
//!   → run the result once more: passing now means the failure is flaky
//!   → explain it: mark the variables that can take any value and the
//!     input still fails (`explain`)
//!   → save the shrunk case too: its choices, or the external shrinker's
//!     path to it (a `cs` line), when it replays to the same input
//!   → the report
//! ```
//!
//! A runner calls [`report_failure`] with a [`Discovery`]; nothing else in a
//! runner saves or shrinks.

use super::cases::Plan;
use super::erased::DynProperty;
use super::explain::explain;
use super::found::Found;
use super::shrink_failure::{render, shrink_failure, ShrunkFailure};
use super::tested::Fault;
use super::watch::Watch;
use crate::config::{Regressions, Shrinker};
use crate::report::{Failure, Report, SavedAt, SavedFrom, TypedInputs, Verdict};
use pbt_core::{Binding, Outcome};
use std::time::Instant;

/// A failing input as first found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discovery {
    /// Where the input comes from (replayable).
    pub found: Found,
    /// What went wrong.
    pub fault: Fault,
    /// The saved case it was replayed from, if it came from the file.
    pub saved: Option<SavedAt>,
}

impl Discovery {
    /// A fresh input (not from the regressions file) with this fault.
    ///
    /// ```
    /// use pbt_runners::components::{CaseSeed, Discovery, Fault, Found};
    /// let d = Discovery::fresh(Found::Case(CaseSeed { seed: 1, size: 2 }), Fault::Check("false".into()));
    /// assert!(d.saved.is_none());
    /// ```
    pub fn fresh(found: Found, fault: Fault) -> Discovery {
        Discovery {
            found,
            fault,
            saved: None,
        }
    }
}

/// The failure path: save and announce the failing input, shrink it, print
/// it, re-run it once (flakiness), save the shrunk case, and return the
/// report of the failure. User code that panics on the way (a shrinker, a
/// printer, `Debug`) ends shrinking or prints a placeholder; the input is
/// already saved.
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::components::{
///     report_failure, supervise, Discovery, DynProperty, Found, Plan, Tested,
/// };
/// use pbt_runners::{Config, Regressions, Report};
/// let prop = Prop::new(Forall::new("x", "u32", Check::new(|&(x, ()): &(u32, ())| x < 10)));
/// let config = Config::default().ignore_env().regressions(Regressions::Off);
/// let plan = Plan::new(&config, &DynProperty::structure(&prop));
/// let report = supervise(&prop, &plan, |watch| {
///     // A runner's loop: the first failing case goes down the failure path.
///     let (case, fault) = (0..)
///         .map(|n| plan.case(n))
///         .find_map(|case| match prop.test(&case, watch) {
///             Tested::Failed(fault) => Some((case, fault)),
///             _ => None,
///         })
///         .unwrap();
///     let discovery = Discovery::fresh(Found::Case(case), fault);
///     report_failure(&prop, &plan, watch, discovery, Report::empty("mine", &plan))
/// });
/// // The shrunk input, typed and printed; the failing test is counted.
/// assert_eq!(report.counterexample::<(u32,)>(), Some((10,)));
/// assert_eq!(report.tests, 1);
/// let failure = report.failure.unwrap();
/// assert_eq!(failure.counterexample[0].value, "10");
/// assert!(!failure.flaky);
/// ```
pub fn report_failure(
    prop: &dyn DynProperty,
    plan: &Plan,
    watch: &Watch,
    discovery: Discovery,
    mut report: Report,
) -> Report {
    let Discovery {
        found,
        fault,
        saved,
    } = discovery;
    // The failing test is one more test, when its check ran; a saved case
    // is counted in `report.replayed` instead.
    if saved.is_none() && fault.counts() {
        report.tests += 1;
    }
    // The input in flight from here on, whichever thread found it (a
    // parallel worker's): what a hang or crash in the failure path names.
    match saved {
        Some(_) => watch.at_saved(&found),
        None => watch.at_found(&found),
    }
    // Only a check failure is shrunk (a generator or annotation fault is
    // reported as found), and only when the configuration allows a step.
    let shrinking = matches!(fault, Fault::Check(_)) && plan.config.max_shrinks > 0;
    if let Some(at) = &saved {
        // Already in the file: say so instead of saving it again.
        let which = match at.from {
            SavedFrom::Own => format!("its saved case {} ({}) still fails", at.entry, at.file),
            SavedFrom::Shared => format!("saved case {} of {} still fails", at.entry, at.file),
            SavedFrom::Env => "the case PBT_REPLAY names fails".to_string(),
        };
        if plan.config.verbosity > crate::Verbosity::Quiet {
            to_stderr(&format!(
                "pbt: {}: {which} ({}).{}\n",
                plan.name,
                shortened(fault.reason()),
                next_step(shrinking)
            ));
        }
    } else {
        save_on_discovery(plan, &found, fault.reason(), shrinking, &mut report);
    }
    super::narration::failing_input(prop, plan, watch, &found);
    let mut failure = discovered(&found, fault.reason());
    failure.replayed_from = saved;
    // Drop panics caught before this failure are not its.
    let _ = super::take_drop_panics();
    match fault {
        Fault::Check(reason) => {
            shrink_and_print(prop, plan, watch, &found, reason, &mut report, &mut failure)
        }
        Fault::Generator(_) => {
            // Generated once more: if it generates now, the fault was flaky
            // (and the input it made is shown).
            if let Ok(traced) = prop.generate_traced(&found, watch) {
                failure.flaky = true;
                failure.counterexample = printed(prop, watch, &*traced.inputs);
                failure.original = failure.counterexample.clone();
                failure.typed = Some(TypedInputs::from_any(traced.inputs));
                failure.typed_original = failure.typed.clone();
            }
        }
        // No test dies in process: a death is the isolated mode's, which
        // has its own failure path.
        Fault::Annotation(_) | Fault::Died(_) => {
            if let Ok(traced) = prop.generate_traced(&found, watch) {
                failure.counterexample = printed(prop, watch, &*traced.inputs);
                failure.original = failure.counterexample.clone();
                failure.typed = Some(TypedInputs::from_any(traced.inputs));
                failure.typed_original = failure.typed.clone();
            }
        }
    }
    // Values the shrinker let go of whose `Drop` panicked (caught).
    if let Some(caught) = super::take_drop_panics() {
        report.notes.push(super::drops::drop_note(caught));
    }
    failure
        .replay
        .get_or_insert_with(|| replay_command(plan, &found));
    report.verdict = Verdict::Failed;
    report.failure = Some(failure);
    report
}

/// The command that replays `found` alone, without the regressions file:
/// `PBT_REPLAY='<found>' cargo test -p <package> --tests -- <test> --exact`
/// (the package when cargo runs the test, the test when libtest does).
pub(crate) fn replay_command(plan: &Plan, found: &Found) -> String {
    let case = super::regressions::encode(found);
    let package = std::env::var("CARGO_PKG_NAME")
        .ok()
        .filter(|p| !p.is_empty() && !p.contains(char::is_whitespace));
    let package = package.map_or(String::new(), |p| format!(" -p {p}"));
    match &plan.filter {
        Some(test) => {
            format!("PBT_REPLAY='{case}' cargo test{package} --tests -- {test} --exact")
        }
        None => format!("PBT_REPLAY='{case}' and run the test again"),
    }
}

/// Shrink a check failure, print it, re-run it, save the shrunk case;
/// with `max_shrinks(0)`, print and re-run it as found (no shrinker runs,
/// none is named, no attempt is counted).
fn shrink_and_print(
    prop: &dyn DynProperty,
    plan: &Plan,
    watch: &Watch,
    found: &Found,
    reason: String,
    report: &mut Report,
    failure: &mut Failure,
) {
    if plan.config.max_shrinks == 0 {
        return print_as_found(prop, watch, found, report, failure);
    }
    let Some(ShrunkFailure {
        original,
        original_shown,
        shrunk,
        replay,
    }) = shrink_failure(prop, plan, watch, found, reason)
    else {
        report.notes.push(NO_LONGER_GENERATES.to_string());
        failure.flaky = true;
        return;
    };
    report.shrinks = shrunk.steps;
    report.shrink_attempts = shrunk.attempts;
    if shrunk.stopped_early {
        report.notes.push(format!(
            "shrinking stopped at a limit (max_shrinks {}, max_shrink_time {:?}) before a local minimum",
            plan.config.max_shrinks, plan.config.max_shrink_time
        ));
    }
    if let Some(panic) = &shrunk.interrupted {
        report.notes.push(format!(
            "the shrinker panicked ({panic}); the smallest failing input before that is reported"
        ));
    }
    if shrunk.shrinker == Shrinker::External && prop.draws_in_check() {
        report.notes.push(DRAWS_NOT_SHRUNK.to_string());
    }
    failure.counterexample = printed(prop, watch, &*shrunk.inputs);
    // No step: the input prints as found, and whole (`original_shown` is
    // cut short).
    failure.original = match shrunk.steps {
        0 => failure.counterexample.clone(),
        _ => original_shown,
    };
    failure.reason = shrunk.reason;
    failure.shrinker = Some(shrunk.shrinker);
    rerun(prop, watch, found, &*shrunk.inputs, failure, report);
    // Saved only when it replays to what is reported (a shrinker or
    // generator that depends on more than its input may not): when it
    // prints the same, or when replaying its choices draws exactly them
    // again — the same draws make the same value, even when the value
    // prints in another order (a `HashMap` or `HashSet` iterates in the
    // order of its `RandomState`, new for every map).
    let replays = replay.as_ref().is_some_and(|smallest| {
        prop.generate_traced(smallest, watch)
            .ok()
            .is_some_and(|traced| {
                let same_draws = matches!(smallest, Found::Choices { choices, .. } if *choices == traced.choices);
                same_draws || printed(prop, watch, &*traced.inputs) == failure.counterexample
            })
    });
    if let (true, Some(smallest)) = (replays, &replay) {
        failure.replay = Some(replay_command(plan, smallest));
    }
    if let (Some(file), Some(smallest)) = (&plan.regressions, replay) {
        let saved = match replays {
            true => file.save(&smallest, &plan.test, &render(&failure.counterexample)),
            false => Err(std::io::Error::other(
                "it does not replay to the same input (a shrinker or generator that depends on \
                 more than its input?)",
            )),
        };
        if let Err(e) = saved {
            report.notes.push(format!(
                "could not save the shrunk case to {}: {e}",
                file.path().display()
            ));
        }
    }
    // Which variables do not matter (the explain phase), once shrinking
    // reached a local minimum, and unless the failure did not happen again.
    let minimal = !shrunk.stopped_early && shrunk.interrupted.is_none();
    if minimal && !failure.flaky {
        failure.any_value_fails = explain(prop, plan, watch, &*shrunk.inputs, &failure.reason);
    }
    failure.typed = Some(TypedInputs::from_any(shrunk.inputs));
    failure.typed_original = Some(TypedInputs::from_any(original));
}

/// A check failure with no shrink step allowed (`max_shrinks(0)`): printed
/// and re-run as found; no shrinker runs, none is named, no attempt is
/// counted.
fn print_as_found(
    prop: &dyn DynProperty,
    watch: &Watch,
    found: &Found,
    report: &mut Report,
    failure: &mut Failure,
) {
    let Ok(traced) = prop.generate_traced(found, watch) else {
        report.notes.push(NO_LONGER_GENERATES.to_string());
        failure.flaky = true;
        return;
    };
    report
        .notes
        .push("not shrunk: max_shrinks is 0".to_string());
    failure.counterexample = printed(prop, watch, &*traced.inputs);
    failure.original = failure.counterexample.clone();
    rerun(prop, watch, found, &*traced.inputs, failure, report);
    failure.typed = Some(TypedInputs::from_any(traced.inputs));
    failure.typed_original = failure.typed.clone();
}

/// Run the reported input once more: a counterexample that passes now is
/// flaky, and this run (only this one) keeps what the check wrote with
/// `note!`.
///
/// A runner drops each fresh input inside its test, so a `Drop` that
/// panics fails it though the check passes: when the check passes again,
/// the input as found is generated once more and dropped, and a drop that
/// panics as the failure did makes it a failure of the input's `Drop`
/// (said in a note), not a flaky one.
fn rerun(
    prop: &dyn DynProperty,
    watch: &Watch,
    found: &Found,
    inputs: &dyn std::any::Any,
    failure: &mut Failure,
    report: &mut Report,
) {
    let (outcome, notes) = pbt_core::notes::capture(|| prop.run_any(inputs, watch));
    failure.notes = notes;
    if matches!(outcome, Outcome::Fail(_)) {
        failure.flaky = false;
        return;
    }
    let dropped = super::drops::drop_panic_in(|| {
        if let Ok(traced) = prop.generate_traced(found, watch) {
            drop(traced.inputs);
        }
    });
    let by_drop = dropped.is_some_and(|m| failure.reason == format!("panicked: {m}"));
    failure.flaky = !by_drop;
    if by_drop {
        report.notes.push(
            "the check passes when run again, but dropping the input panics as it did: the \
             failure is the input's `Drop` (the runner drops each input inside its test)"
                .to_string(),
        );
    }
}

/// The note of a failure whose check draws (a `Data`) shrunk by the
/// external shrinker alone, which has no candidates for the draws.
const DRAWS_NOT_SHRUNK: &str = "the draws of the `Data` are as found: they are shrunk as \
    choices, by the integrated shrinker (`shrink = \"integrated\"` or \"both\", the default), \
    and the external shrinker has no candidates for them";

/// The note of a failing input that does not generate again.
const NO_LONGER_GENERATES: &str = "the failing input no longer generates (a generator that \
    depends on more than its choices?); it is reported as found";

/// Save `found` and tell stderr, with the seed, before any user code runs
/// again; the report notes where it went.
pub(crate) fn save_on_discovery(
    plan: &Plan,
    found: &Found,
    reason: &str,
    shrinking: bool,
    report: &mut Report,
) {
    let saved_note = save_found(plan, found, reason);
    announce(plan, found, reason, &saved_note, shrinking);
    if plan.config.regressions != Regressions::Off {
        report.notes.push(saved_note);
    }
}

/// The failure of `found` as it was found: its reason and how it replays;
/// no input printed yet, not shrunk.
pub(crate) fn discovered(found: &Found, reason: &str) -> Failure {
    let mut failure = Failure {
        reason: reason.to_string(),
        origin: super::distinct::FailureOrigin::of(reason),
        counterexample: Vec::new(),
        original: Vec::new(),
        case_seed: 0,
        choices: None,
        mutations: Vec::new(),
        size: found.size(),
        shrinker: None,
        flaky: false,
        replay: None,
        replayed_from: None,
        notes: Vec::new(),
        typed: None,
        typed_original: None,
        any_value_fails: Vec::new(),
        shrinks: 0,
        shrink_attempts: 0,
    };
    describe(found, &mut failure);
    failure
}

/// Save `found` to the regressions file (if any): the note for the report.
fn save_found(plan: &Plan, found: &Found, reason: &str) -> String {
    let Some(file) = &plan.regressions else {
        return match plan.config.regressions {
            Regressions::Off => "not saved: the regressions file is off".to_string(),
            _ => "not saved: the test's source file was not found from the working \
                  directory, so neither was its regressions file (Config::regressions names \
                  one)"
                .to_string(),
        };
    };
    match file.save(found, &plan.test, reason) {
        Ok(()) => format!(
            "saved to {}; the next run replays it first",
            file.path().display()
        ),
        Err(e) => format!("could not save to {}: {e}", file.path().display()),
    }
}

/// Tell stderr about the failure the moment it is found, with the seed:
/// whatever happens next, the user can replay it.
fn announce(plan: &Plan, found: &Found, reason: &str, saved: &str, shrinking: bool) {
    use std::fmt::Write;
    // Quiet: the report alone (the input is saved all the same).
    if plan.config.verbosity == crate::Verbosity::Quiet {
        return;
    }
    // Pushed piece by piece into one buffer: `format!` over the same pieces
    // costs several times more (a good part of a short failing run).
    let mut line = String::with_capacity(160 + plan.name.len() + saved.len());
    line.push_str("pbt: ");
    line.push_str(&plan.name);
    line.push_str(": found a failing input (");
    line.push_str(shortened(reason));
    let _ = write!(line, "); run seed {:#x}, {}; ", plan.seed, CaseOf(found));
    line.push_str(saved);
    line.push('.');
    line.push_str(next_step(shrinking));
    line.push('\n');
    to_stderr(&line);
}

/// Write `text` to stderr in one `write`: stderr is unbuffered, so printing
/// the pieces of a format one by one asks the system once per piece (a
/// dozen calls for an announcement, more than the rest of a short failing
/// run), and lines of tests failing at once could interleave. Through
/// `eprint!`, so the test harness captures it like any output.
pub(crate) fn to_stderr(text: &str) {
    eprint!("{text}");
}

/// A failure reason as an announcement shows it: its first 200 characters.
fn shortened(reason: &str) -> &str {
    match reason.char_indices().nth(200) {
        Some((cut, _)) => &reason[..cut],
        None => reason,
    }
}

/// What the announcement says comes next.
fn next_step(shrinking: bool) -> &'static str {
    match shrinking {
        true => " Shrinking it.",
        false => "",
    }
}

/// The case part of a replay hint.
struct CaseOf<'a>(&'a Found);

impl std::fmt::Display for CaseOf<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Found::Case(case) => write!(f, "case seed {:#x} at size {}", case.seed, case.size),
            Found::Choices { choices, size } => {
                write!(f, "{} replayed choices at size {size}", choices.len())
            }
            Found::Mutated { base, steps } => {
                write!(f, "{} value mutations of {}", steps.len(), CaseOf(base))
            }
            Found::Shrunk { base, path } => {
                write!(f, "{} shrink steps from {}", path.len(), CaseOf(base))
            }
        }
    }
}

/// Fill in how `found` replays.
fn describe(found: &Found, failure: &mut Failure) {
    match found {
        Found::Case(case) => failure.case_seed = case.seed,
        Found::Choices { choices, .. } => failure.choices = Some(choices.clone()),
        Found::Mutated { base, steps } => {
            failure.mutations = steps.clone();
            describe(base, failure);
        }
        // A saved shrunk input (its report names the file): where the
        // shrinking started from.
        Found::Shrunk { base, .. } => describe(base, failure),
    }
}

/// The variables of `inputs` printed, under the watch (a `Debug` that never
/// returns is a hang the watchdog reports); a printer that panics prints a
/// placeholder.
fn printed(prop: &dyn DynProperty, watch: &Watch, inputs: &dyn std::any::Any) -> Vec<Binding> {
    let ticket = watch.start();
    let out = prop.print_any(inputs);
    watch.finish(ticket);
    out
}

impl Report {
    /// An empty report of `runner` for `plan` (what a runner starts from).
    ///
    /// ```
    /// use pbt_runners::components::Plan;
    /// use pbt_runners::{Config, Report};
    /// let plan = Plan::new(&Config::default().ignore_env().seed(3), &Default::default());
    /// let report = Report::empty("mine", &plan);
    /// assert!(report.passed() && report.seed == 3);
    /// ```
    #[inline]
    pub fn empty(runner: &'static str, plan: &Plan) -> Report {
        // What an earlier run on this thread discarded is not this run's.
        let _ = pbt_core::rejection::take();
        Report {
            runner,
            verdict: Verdict::Passed,
            tests: 0,
            discards: 0,
            shrinks: 0,
            shrink_attempts: 0,
            seed: plan.seed,
            replayed: 0,
            failure: None,
            more_failures: Vec::new(),
            elapsed: Default::default(),
            notes: Vec::new(),
            rejection: None,
            statistics: super::statistics::Statistics::new(&plan.config),
            verbosity: plan.config.verbosity,
        }
    }

    /// This report, given up (too many discards).
    pub fn gave_up(mut self) -> Report {
        self.verdict = Verdict::GaveUp;
        self.rejection = pbt_core::rejection::take();
        self
    }

    /// This report, with the time since `started`.
    #[inline]
    pub fn finish(mut self, started: Instant) -> Report {
        self.elapsed = started.elapsed();
        super::statistics::conclude(&mut self);
        self
    }
}

//! The run step (*Programmable Property-Based Testing* Fig. 12, the box
//! "run the test"): what a test loop does with each input of the inputs
//! stream, and with the one that fails.
//!
//! One loop, two steps: [`InProcess`] tests on the runner's thread, under
//! the watchdog, and takes a failure down [`super::report_failure`];
//! [`super::isolation::Isolated`] tests each input in a child process and
//! shrinks a failure there. [`replay_saved_with`] and the generational
//! runner's loop take either, so the saved cases and the fresh ones are
//! visited the same way in and out of process.

use super::cases::{Cases, Plan};
use super::distinct;
use super::erased::DynProperty;
use super::execute::Batch;
use super::failure::{report_failure, Discovery};
use super::found::{CaseSeed, Found};
use super::observe::{observed_test, How};
use super::regressions::Saved;
use super::statistics::Statistics;
use super::tested::Tested;
use super::watch::Watch;
use crate::report::{Report, SavedAt, SavedFrom};
use std::ops::ControlFlow;

/// How a test loop tests one input and reports a failing one.
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::components::{supervise, DynProperty, Fault, InProcess, Plan, RunStep, Tested};
/// use pbt_runners::{Config, Regressions};
/// let prop = Prop::new(Forall::new("x", "u8", Check::new(|&(x, ()): &(u8, ())| x < 200)));
/// let config = Config::default().ignore_env().regressions(Regressions::Off);
/// let plan = Plan::new(&config, &DynProperty::structure(&prop));
/// let failing = supervise(&prop, &plan, |watch| {
///     let mut step = InProcess::new(&prop, &plan, watch);
///     (0..1000).find(|&n| matches!(step.test_fresh(&plan.case(n)), Tested::Failed(Fault::Check(_))))
/// });
/// assert!(failing.is_some());
/// ```
pub trait RunStep {
    /// Generate and run the fresh case `case`.
    fn test_fresh(&mut self, case: &CaseSeed) -> Tested;
    /// Generate and run the next fresh cases of `cases` until `budget` of
    /// them passed silently (each counted in `statistics`) or one did not
    /// pass or reported statistics (see
    /// [`super::generate_and_run_batch`], which [`InProcess`] runs). The
    /// default tests one case at a time with [`RunStep::test_fresh`].
    fn test_batch(
        &mut self,
        cases: &mut Cases<'_>,
        budget: u64,
        statistics: &mut Statistics,
    ) -> Batch {
        one_at_a_time(self, cases, budget, statistics)
    }
    /// Generate and run `found`, replayed from the regressions file.
    fn test_saved(&mut self, found: &Found) -> Tested;
    /// The failure path for `discovery`, the input this step tested last:
    /// save it, shrink it, print it, report it. A fresh input whose check
    /// ran ([`super::Fault::counts`]) counts toward `report.tests`, as
    /// [`report_failure`] counts it.
    fn fail(&mut self, discovery: Discovery, report: Report) -> Report;
}

/// [`RunStep::test_batch`] one test at a time, with [`RunStep::test_fresh`].
fn one_at_a_time(
    step: &mut (impl RunStep + ?Sized),
    cases: &mut Cases<'_>,
    budget: u64,
    statistics: &mut Statistics,
) -> Batch {
    for passed in 0..budget {
        let case = cases.next().expect("fresh cases never run out");
        let tested = step.test_fresh(&case);
        if tested != Tested::Passed || pbt_core::statistics::recorded() {
            let stopped = Some((case, tested));
            return Batch { passed, stopped };
        }
        statistics.record_pass(case.size);
    }
    Batch {
        passed: budget,
        stopped: None,
    }
}

/// The run step on the runner's own thread, watched by `watch` (the time
/// limit, the draw limit, the crash handler's case in flight).
pub struct InProcess<'a> {
    prop: &'a dyn DynProperty,
    plan: &'a Plan,
    watch: &'a Watch,
    /// Every generated input is printed ([`crate::Verbosity::Debug`]).
    debug: bool,
}

impl<'a> InProcess<'a> {
    /// The in-process step for `prop` under `plan`, watched by `watch`
    /// (one of [`super::supervise`]'s).
    pub fn new(prop: &'a dyn DynProperty, plan: &'a Plan, watch: &'a Watch) -> Self {
        let debug = super::narration::at(plan, crate::Verbosity::Debug);
        InProcess {
            prop,
            plan,
            watch,
            debug,
        }
    }
}

impl RunStep for InProcess<'_> {
    #[inline]
    fn test_fresh(&mut self, case: &CaseSeed) -> Tested {
        self.watch.at_case(case);
        if self.debug {
            super::narration::generated(self.prop, self.plan, self.watch, case);
        }
        if let Some(log) = &self.plan.observations {
            return observed_test(
                self.prop,
                &Found::Case(*case),
                self.watch,
                log,
                How::Generated,
            );
        }
        self.prop.test(case, self.watch)
    }

    #[inline]
    fn test_batch(
        &mut self,
        cases: &mut Cases<'_>,
        budget: u64,
        statistics: &mut Statistics,
    ) -> Batch {
        // Debug prints each input, and an observed run writes each its
        // line: one test at a time.
        if self.debug || self.plan.observations.is_some() {
            return one_at_a_time(self, cases, budget, statistics);
        }
        self.prop.test_batch(cases, budget, self.watch, statistics)
    }

    fn test_saved(&mut self, found: &Found) -> Tested {
        self.watch.at_saved(found);
        if let Some(log) = &self.plan.observations {
            let how = match self.plan.replay {
                Some(_) => How::ReplayedFromEnv,
                None => How::Replayed,
            };
            return observed_test(self.prop, found, self.watch, log, how);
        }
        self.prop.test_found(found, self.watch)
    }

    fn fail(&mut self, discovery: Discovery, report: Report) -> Report {
        report_failure(self.prop, self.plan, self.watch, discovery, report)
    }
}

/// Replay every case saved in the regressions file with `step`, before any
/// fresh case: `Break` with the failure report when one still fails (it
/// goes down the step's failure path, and its report names the saved case),
/// `Continue` with the report to go on with. Saved cases are replayed
/// whatever `cases` is (`PBT_CASES=0` too) and do not count toward it:
/// `report.replayed` counts them, `report.tests` is left to the fresh ones.
/// [`replay_saved`] is this with the in-process step; a runner that
/// reports several distinct failures replays with
/// [`replay_saved_distinct`] instead.
pub fn replay_saved_with(
    plan: &Plan,
    step: &mut impl RunStep,
    report: Report,
) -> ControlFlow<Report, Report> {
    replay(plan, step, report, false)
}

/// [`replay_saved_with`] for a runner that reports several distinct
/// failures (`Config::report_multiple`): a failing saved case does not end
/// the replay. Each of an origin not seen yet goes down the step's failure
/// path and is kept in the report ([`super::distinct::keep`]); the report
/// comes back to go on with (fresh cases, say), and the runner ends with
/// [`super::distinct::finish`].
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::components::{distinct, replay_saved_distinct, supervise, DynProperty, InProcess, Plan};
/// use pbt_runners::{Config, Regressions, Report};
/// let file = std::env::temp_dir().join(format!("pbt-doc-distinct-{}", std::process::id()));
/// // Two saved cases, of two bugs (the seeds are found by a run below).
/// let prop = Prop::new(Forall::new("x", "u32", Check::new(|&(x, ()): &(u32, ())| {
///     assert!(x % 2 == 0, "odd");
///     assert!(x < 1000, "large");
/// })));
/// let _ = std::fs::remove_file(&file);
/// let config = Config::default().ignore_env().regressions(Regressions::File(file.clone())).cases(1000);
/// let found = pbt_runners::generational(&prop, config.clone().report_multiple(true));
/// assert_eq!(found.failures().count(), 2);
/// let plan = Plan::new(&config.cases(0), &DynProperty::structure(&prop));
/// let report = supervise(&prop, &plan, |watch| {
///     let mut step = InProcess::new(&prop, &plan, watch);
///     let report = replay_saved_distinct(&plan, &mut step, Report::empty("mine", &plan));
///     distinct::finish(report)
/// });
/// assert_eq!(report.failures().count(), 2);
/// std::fs::remove_file(&file).unwrap();
/// ```
pub fn replay_saved_distinct(plan: &Plan, step: &mut impl RunStep, report: Report) -> Report {
    match replay(plan, step, report, true) {
        ControlFlow::Continue(report) | ControlFlow::Break(report) => report,
    }
}

/// The replay of the saved cases: up to the first failing one, or (when
/// `keep_all`) every one, keeping a failure of each origin.
fn replay(
    plan: &Plan,
    step: &mut impl RunStep,
    mut report: Report,
    keep_all: bool,
) -> ControlFlow<Report, Report> {
    let saved = plan.saved_cases();
    report.replayed = saved.len() as u64;
    for (i, Saved { found, own }) in saved.into_iter().enumerate() {
        let Tested::Failed(fault) = step.test_saved(&found) else {
            continue;
        };
        if keep_all && !distinct::is_new(&report, &fault) {
            continue;
        }
        let from = match (&plan.replay, own) {
            (Some(_), _) => SavedFrom::Env,
            (None, true) => SavedFrom::Own,
            (None, false) => SavedFrom::Shared,
        };
        let file = plan
            .regressions
            .as_ref()
            .map(|f| f.path().display().to_string());
        let saved = match from {
            SavedFrom::Env => Some(String::from("PBT_REPLAY")),
            _ => file,
        }
        .map(|file| SavedAt {
            file,
            entry: i + 1,
            from,
        });
        let discovery = Discovery {
            found,
            fault,
            saved,
        };
        let failed = step.fail(discovery, report);
        match keep_all {
            true => report = distinct::keep(failed),
            false => return ControlFlow::Break(failed),
        }
    }
    ControlFlow::Continue(report)
}

/// Replay every case saved in the regressions file, before any fresh case,
/// in process: [`replay_saved_with`] the [`InProcess`] step. `Break` with
/// the failure report when one still fails (it goes down the failure path
/// like any failure, and its report names the saved case), `Continue` with
/// the report to go on with. Saved cases are replayed whatever `cases` is
/// (`PBT_CASES=0` too) and do not count toward it: `report.replayed` counts
/// them, `report.tests` is left to the fresh ones.
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::components::{replay_saved, supervise, DynProperty, Plan};
/// use pbt_runners::{Config, Regressions, Report};
/// use std::ops::ControlFlow;
/// let file = std::env::temp_dir().join(format!("pbt-doc-replay-{}", std::process::id()));
/// std::fs::write(&file, "cc 0x1 0 # t: a saved case\ncc 0x2 3 # t: another\n").unwrap();
/// let prop = Prop::new(Forall::new("x", "u8", Check::new(|_: &(u8, ())| true)));
/// let config = Config::default().ignore_env().cases(0).regressions(Regressions::File(file.clone()));
/// let plan = Plan::new(&config, &DynProperty::structure(&prop));
/// let flow = supervise(&prop, &plan, |watch| replay_saved(&prop, &plan, watch, Report::empty("mine", &plan)));
/// let ControlFlow::Continue(report) = flow else { panic!("both pass") };
/// assert_eq!((report.replayed, report.tests), (2, 0));
/// std::fs::remove_file(&file).unwrap();
/// ```
pub fn replay_saved(
    prop: &dyn DynProperty,
    plan: &Plan,
    watch: &Watch,
    report: Report,
) -> ControlFlow<Report, Report> {
    replay_saved_with(plan, &mut InProcess::new(prop, plan, watch), report)
}

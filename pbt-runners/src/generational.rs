//! The generational runner (QuickCheck; *Programmable Property-Based Testing* §6.1.1, Fig. 12).
//!
//! ```text
//! replay the saved cases (all of them; they do not count toward `cases`)
//! loop: case ← the next fresh case
//!       input ← generate(case)            discard? count it, maybe give up
//!       verdict ← run(input)              pass → next; discard → count
//!       fail (or a generator fault) → the failure path: save the case,
//!                                     shrink, print, report
//!       (report_multiple: keep the failure, go on; a failure of an origin
//!        already kept counts as a test; at the end, report them all)
//! ```
//!
//! The loop ([`generate_and_check`]) takes a run step: in process, or —
//! when the configuration or `PBT_ISOLATE` asks — each test in a child
//! process ([`crate::components::isolation`]); the inputs stream and the
//! loop are the same either way.
//!
//! When the preconditions reject most inputs (fewer than one in three
//! accepted after 100 discards) and `property!` derived utilities for them,
//! the rest of the run steers generation towards them: the feedback loop
//! with the preconditions' utility as its target (*Flexible and Automatic Targeted Property-Based Testing* §3), instead of
//! giving up.

use crate::components::{distinct, isolation};
use crate::components::{
    observe_run, replay_saved_distinct, replay_saved_with, supervise, Discovery, DynProperty,
    Found, InProcess, Plan, RunStep, Tested, Watch,
};
use crate::config::Config;
use crate::report::Report;
use pbt_core::property::NodeView;
use pbt_core::Property;
use std::ops::ControlFlow;
use std::time::Instant;

/// Run `prop` QuickCheck-style: generate and run up to `config.cases`
/// passing tests; on the first failure shrink it, print it, save it.
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::{generational, Config};
/// // forall x: u32; check x < 1000   (property! writes this chain for you)
/// let prop = Prop::new(Forall::new("x", "u32", Check::new(|&(x, ()): &(u32, ())| x < 1000)));
/// let report = generational(&prop, Config::default().seed(1).regressions(pbt_runners::Regressions::Off));
/// assert!(!report.passed());
/// assert_eq!(report.failure.unwrap().counterexample[0].value, "1000");
/// ```
pub fn generational<P: Property>(prop: &P, config: Config) -> Report {
    run(prop, config, "generational")
}

/// The generational loop with the run step the configuration asks for:
/// every test in a child process ([`isolation::Isolated`]) or on this thread
/// ([`InProcess`], under the watchdog).
pub(crate) fn run(prop: &dyn DynProperty, config: Config, runner: &'static str) -> Report {
    let started = Instant::now();
    let mut plan = Plan::new(&config, &prop.structure());
    // Several distinct failures are reported in process only: an isolated
    // run's shrinking in child processes does not stay on an origin.
    let multiple = plan.config.report_multiple;
    if multiple && isolation::requested(&plan.config) == Ok(true) {
        plan.config.report_multiple = false;
    }
    let report = match isolation::requested_step(prop, &plan) {
        None => {
            plan.config.report_multiple = multiple;
            in_process(prop, &plan, runner)
        }
        Some(mut step) => {
            let mut report = Report::empty(runner, &plan);
            let note = "isolated: every test ran in a child process";
            report.notes.push(note.to_string());
            if multiple {
                let note = "report_multiple is not supported isolated: the run stopped at its \
                            first failure";
                report.notes.push(note.to_string());
            }
            generate_and_check(&plan, &mut step, None, report)
        }
    };
    let report = report.finish(started);
    observe_run(&plan, &report);
    report
}

/// The generational loop in process (compiled once for every property).
pub(crate) fn in_process(prop: &dyn DynProperty, plan: &Plan, runner: &'static str) -> Report {
    // A graded `assume!` of an earlier run on this thread is not this one's.
    pbt_core::macro_support::take_graded_rejection();
    supervise(prop, plan, |watch| {
        // Made here, not captured: a report is large, and each move copies it.
        let report = Report::empty(runner, plan);
        // Whether the preconditions have utilities is asked only when they
        // reject most inputs (the structure costs a short run's start-up).
        let steer = |report| match targetable(prop) {
            true => ControlFlow::Break(target_preconditions(prop, plan, watch, report)),
            false => ControlFlow::Continue(report),
        };
        let steer = (plan.config.auto_target).then_some(&steer as &Steer);
        generate_and_check(plan, &mut InProcess::new(prop, plan, watch), steer, report)
    })
}

/// Take over the rest of a run whose preconditions reject most inputs
/// (`Break` with its report), or decline (`Continue`).
type Steer<'a> = dyn Fn(Report) -> ControlFlow<Report, Report> + 'a;

/// Whether `property!` derived a utility for some precondition of `prop`,
/// or a `pbt::assume!` with one rejected a test of this run.
fn targetable(prop: &dyn DynProperty) -> bool {
    pbt_core::macro_support::take_graded_rejection()
        | (prop.structure().nodes.iter()).any(|n| matches!(n, NodeView::Implies { utility: true }))
}

/// Fig. 12 over a run step: saved cases first (all of them, not counted
/// toward `cases`), then fresh ones, until `cases` fresh tests passed, a
/// test failed (the step's failure path), or too many were discarded. The
/// fresh tests run in batches ([`RunStep::test_batch`]): a batch goes on
/// while its tests pass silently, and hands back the first that did
/// anything else, which this loop then handles one test at a time.
/// `steer`, when given, may take over the rest of the run when the
/// preconditions reject most inputs (it is asked once).
///
/// With `Config::report_multiple`, a failure does not end the loop: each
/// of a new origin goes down the step's failure path and is kept
/// ([`distinct::keep`]), a repeat is counted as a test, and the run ends
/// at its budget with every failure ([`distinct::finish`]).
#[inline]
fn generate_and_check<S: RunStep>(
    plan: &Plan,
    step: &mut S,
    mut steer: Option<&Steer>,
    report: Report,
) -> Report {
    let multiple = plan.config.report_multiple;
    let mut report = match multiple {
        true => replay_saved_distinct(plan, step, report),
        false => match replay_saved_with(plan, step, report) {
            ControlFlow::Continue(report) => report,
            ControlFlow::Break(failed) => return failed,
        },
    };
    // The end of the run: with several failures kept, the report of them all.
    let end = |report: Report| match multiple {
        true => distinct::finish(report),
        false => report,
    };
    let mut cases = plan.cases();
    loop {
        // The fresh tests still wanted, in one batch; past `cases`, one at a
        // time while the coverage check asks for more.
        let budget = match plan.config.cases.saturating_sub(report.tests) {
            0 if report.statistics.keep_testing() => 1,
            0 => return end(report),
            wanted => wanted,
        };
        let observer = pbt_core::statistics::Observer::start();
        let batch = step.test_batch(&mut cases, budget, &mut report.statistics);
        report.tests += batch.passed;
        let Some((case, tested)) = batch.stopped else {
            let _ = observer.finish();
            continue;
        };
        report
            .statistics
            .record_tested(observer, &tested, case.size);
        let fault = match tested {
            Tested::Passed => {
                report.tests += 1;
                continue;
            }
            Tested::Discarded(_) => {
                report.discards += 1;
                let mostly_rejected = report.discards >= 100 && report.tests * 2 < report.discards;
                if let Some(take_over) = steer.filter(|_| mostly_rejected) {
                    match take_over(report) {
                        ControlFlow::Break(steered) => return end(steered),
                        // Asked once: the answer does not change.
                        ControlFlow::Continue(declined) => (report, steer) = (declined, None),
                    }
                }
                if report.statistics.too_many_discards(plan, report.discards) {
                    return end(report.gave_up());
                }
                continue;
            }
            Tested::Failed(fault) => fault,
        };
        if !multiple {
            return step.fail(Discovery::fresh(Found::Case(case), fault), report);
        }
        // Another failure of an origin already kept: one more test.
        if !distinct::is_new(&report, &fault) {
            report.tests += 1;
            continue;
        }
        report = distinct::keep(step.fail(Discovery::fresh(Found::Case(case), fault), report));
    }
}

/// Steer the rest of the run towards the preconditions: mutate the inputs
/// that come closest to satisfying them (their utility, *Flexible and Automatic Targeted Property-Based Testing* §3).
fn target_preconditions(
    prop: &dyn DynProperty,
    plan: &Plan,
    watch: &Watch,
    mut report: Report,
) -> Report {
    use crate::components::{feedback_loop, seed_pool, utility};
    let attempts = report.tests + report.discards;
    report.notes.push(format!(
        "the preconditions accepted {} of {attempts} inputs; the rest of the run targeted them",
        report.tests
    ));
    let mut pool = seed_pool::Pool::DynamicResettingSingleton(seed_pool::Energy::Fixed(50)).build();
    let mut probe = feedback_loop::no_probe;
    feedback_loop::feedback_loop(
        prop,
        plan,
        watch,
        &mut *pool,
        &mut utility::Maximize,
        &mut probe,
        report,
    )
}

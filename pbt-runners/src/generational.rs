//! The generational runner (QuickCheck; papers/000 §6.1.1, Fig. 12).
//!
//! ```text
//! loop: case ← next case (saved regressions first, then fresh seeds)
//!       input ← generate(case)            discard? count it, maybe give up
//!       verdict ← run(input)              pass → next; discard → count
//!       fail → shrink(input), print, save the case, report
//! ```
//!
//! When the preconditions reject most inputs (fewer than one in three
//! accepted after 100 discards) and `property!` derived utilities for them,
//! the rest of the run steers generation towards them: the feedback loop
//! with the preconditions' utility as its target (papers/001 §3), instead of
//! giving up.

use crate::components::{
    execute::Verdict, isolation, minimize, supervise, DynProperty, Found, Plan, Step, Watch,
};
use crate::config::Config;
use crate::report::{Failure, Report, Verdict as Outcome};
use pbt_core::Property;
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
    isolation::run(prop, config, "generational", |prop, config| {
        run_loop(prop, config, "generational")
    })
}

/// The generate-and-check loop (compiled once for every property): saved
/// cases first, then fresh ones, until `cases` tests passed, a test failed,
/// or too many were discarded.
pub(crate) fn run_loop(prop: &dyn DynProperty, config: Config, runner: &'static str) -> Report {
    let started = Instant::now();
    let plan = Plan::new(&config, &prop.structure());
    let saved = plan.saved();
    let mut report = Report::new(runner, &plan, saved.len() as u64);
    let targetable = plan.config.auto_target
        && prop
            .structure()
            .nodes
            .iter()
            .any(|n| matches!(n, pbt_core::property::NodeView::Implies { utility: true }));
    supervise(prop, &plan, |watch| {
        // Saved inputs first, then fresh cases (which need no `Found` unless
        // they fail).
        let fresh = (0..).map(|n| Err(plan.case(n)));
        for next in saved.into_iter().map(Ok).chain(fresh) {
            if report.tests >= plan.config.cases {
                break;
            }
            let step = match &next {
                Ok(found) => prop.test_found(found, watch),
                Err(case) => {
                    watch.at_case(case);
                    prop.test(case, watch)
                }
            };
            let found = || next.clone().unwrap_or_else(Found::Case);
            let verdict = match step {
                Step::Ran(verdict) => verdict,
                Step::Discarded(_) => Verdict::Discard,
                Step::GeneratorPanicked(panic) => {
                    return report.generator_failed(&plan, &found(), panic)
                }
            };
            match verdict {
                Verdict::Pass => report.tests += 1,
                Verdict::Discard => {
                    report.discards += 1;
                    if targetable && report.discards >= 100 && report.tests * 2 < report.discards {
                        return target_preconditions(prop, &plan, watch, report);
                    }
                    if plan.too_many_discards(report.discards) {
                        return report.gave_up();
                    }
                }
                Verdict::Fail(reason) => {
                    report.tests += 1;
                    return shrink_and_report(prop, &plan, watch, &found(), reason, report);
                }
            }
        }
        report
    })
    .finish(started)
}

/// Steer the rest of the run towards the preconditions: mutate the inputs
/// that come closest to satisfying them (their utility, papers/001 §3).
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

/// The shrink-and-check stage: minimise the failing case with the configured
/// shrinker, print it and save it.
pub(crate) fn shrink_and_report(
    prop: &dyn DynProperty,
    plan: &Plan,
    watch: &Watch,
    found: &Found,
    reason: String,
    mut report: Report,
) -> Report {
    let Some(shrunk) = minimize(prop, plan, watch, found, reason.clone()) else {
        return report.failed(plan, found, reason, Vec::new(), Vec::new(), "none");
    };
    report.shrinks = shrunk.steps;
    report.shrink_attempts = shrunk.attempts;
    if shrunk.stopped_early {
        report.notes.push(format!(
            "shrinking stopped at a limit (max_shrinks {}, max_shrink_time {:?}) before a local minimum",
            plan.config.max_shrinks, plan.config.max_shrink_time
        ));
    }
    let counterexample = prop.print_any(&*shrunk.inputs);
    let original = prop.print_any(&*shrunk.original);
    report.failed(
        plan,
        found,
        shrunk.reason,
        counterexample,
        original,
        shrunk.shrinker,
    )
}

/// Bindings on one line: `x = 1, ys = [2]`.
pub(crate) fn printed(bindings: &[pbt_core::Binding]) -> String {
    bindings
        .iter()
        .map(|b| b.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Report {
    /// An empty report of `runner` for `plan`.
    pub(crate) fn new(runner: &'static str, plan: &Plan, replayed: u64) -> Report {
        Report {
            runner,
            verdict: Outcome::Passed,
            tests: 0,
            discards: 0,
            shrinks: 0,
            shrink_attempts: 0,
            seed: plan.seed,
            replayed,
            failure: None,
            elapsed: Default::default(),
            notes: Vec::new(),
        }
    }

    pub(crate) fn gave_up(mut self) -> Report {
        self.verdict = Outcome::GaveUp;
        self
    }

    pub(crate) fn finish(mut self, started: Instant) -> Report {
        self.elapsed = started.elapsed();
        self
    }

    pub(crate) fn generator_failed(self, plan: &Plan, found: &Found, panic: String) -> Report {
        self.failed(plan, found, panic, Vec::new(), Vec::new(), "none")
    }

    /// Record the failure and save its case to the regressions file.
    pub(crate) fn failed(
        mut self,
        plan: &Plan,
        found: &Found,
        reason: String,
        counterexample: Vec<pbt_core::Binding>,
        original: Vec<pbt_core::Binding>,
        shrinker: &'static str,
    ) -> Report {
        if let Some(file) = &plan.regressions {
            match file.save(found, &plan.name, &printed(&counterexample)) {
                Ok(()) => self.notes.push(format!(
                    "saved to {}; the next run replays it first",
                    file.path().display()
                )),
                Err(e) => self
                    .notes
                    .push(format!("could not save to {}: {e}", file.path().display())),
            }
        }
        self.verdict = Outcome::Failed;
        let base = match found {
            Found::Mutated { base, .. } => base,
            other => other,
        };
        self.failure = Some(Failure {
            reason,
            counterexample,
            original,
            case_seed: match base {
                Found::Case(case) => case.seed,
                _ => 0,
            },
            choices: match base {
                Found::Choices { choices, .. } => Some(choices.clone()),
                _ => None,
            },
            mutations: match found {
                Found::Mutated { steps, .. } => steps.clone(),
                _ => Vec::new(),
            },
            size: found.size(),
            shrinker,
        });
        self
    }
}

//! The feedback-guided loop shared by the coverage-guided fuzzing runner
//! (papers/000 Fig. 14) and the targeted runner (Fig. 33):
//!
//! ```text
//! replay the saved inputs first (`replay_saved`), then
//! loop: directive ← pool.sample()
//!       input ← generate (fresh case)
//!             | mutate(seed's choices) and regenerate  | mutate(seed's value)
//!       (verdict, feedback) ← instrumented run(input)
//!       fail    → shrink, print, save (as every runner)
//!       useful? → pool.invest(input, utility(feedback))
//!       else    → pool.revise() if the input was a mutant
//! ```
//!
//! A seed is mutated in one of two ways (`Config::mutation`; by default
//! half and half when some variable mutates by value):
//!
//! - **by choices**: edit the recorded choice sequence and replay it through
//!   the property's generators. It works for any generator, and every
//!   mutant is a value the generators can produce; it is saved as its
//!   choices.
//! - **by value**: [`pbt_core::Property::mutate`], i.e. a variable's
//!   `#[mutate]` or its type's `Mutate` (FuzzChick's semantic mutation). The
//!   mutation is drawn from a fresh `Rng` seeded per mutation, so the mutant
//!   is saved as its ancestor (a case or choices) plus the mutation seeds,
//!   and replayed exactly on the next run.

use super::cases::{Found, Plan};
use super::erased::{DynProperty, Step};
use super::execute::Verdict;
use super::seed_pool::{Directive, Seed, SeedPool};
use super::utility::{Observation, Utility};
use super::watchdog::Watch;
use crate::config::Mutation;
use crate::generational::shrink_and_report;
use crate::report::Report;
use pbt_core::choices::mutate_choices;
use pbt_core::source::mix;
use pbt_core::{Rng, Source};
use std::ops::ControlFlow;

/// Instrumentation around a test: runs it, returns the `(counter, count)`
/// hits it caused.
pub type Probe = dyn FnMut(&mut dyn FnMut()) -> Vec<(u64, u32)>;

/// Run tests until `plan.config.cases` passed or one failed, steering with
/// `pool` and `utility`; `probe` adds instrumentation feedback to each
/// observation (coverage counters, say).
pub fn feedback_loop(
    prop: &dyn DynProperty,
    plan: &Plan,
    watch: &Watch,
    pool: &mut dyn SeedPool,
    utility: &mut dyn Utility,
    probe: &mut Probe,
    mut report: Report,
) -> Report {
    let mut rng = Rng::from_seed(mix(plan.seed ^ 0x6d75_7461_7465));
    let mut fresh = 0u64;
    let by_value = prop.structure().mutates_by_value();
    while report.tests < plan.config.cases {
        let (found, generated, mutant) = match pool.sample() {
            Directive::Generate => {
                fresh += 1;
                let found = Found::Case(plan.case(fresh - 1));
                watch.at_found(&found);
                let generated = prop.generate_traced(&found);
                (found, generated, false)
            }
            Directive::Mutate(seed) => {
                match mutation(plan.config.mutation, by_value, seed, &mut rng) {
                    Some(How::Choices) => {
                        let choices = mutate_choices(&seed.choices, &seed.bounds, &mut rng);
                        let found = Found::Choices {
                            choices,
                            size: seed.size,
                        };
                        watch.at_found(&found);
                        let generated = prop.generate_traced(&found);
                        // A mutant is kept as the choices its replay actually used.
                        let found = match &generated {
                            Some(Ok(traced)) => Found::Choices {
                                choices: traced.choices.clone(),
                                size: seed.size,
                            },
                            _ => found,
                        };
                        (found, generated, true)
                    }
                    Some(How::Values) => {
                        let step = rng.next_u64();
                        watch.at_found(&seed.found.mutated(step));
                        let generated = prop.mutate_step(&*seed.inputs, step, seed.size);
                        (seed.found.mutated(step), generated, true)
                    }
                    None => {
                        pool.revise();
                        continue;
                    }
                }
            }
        };
        let Some(Ok(traced)) = generated else {
            report.discards += 1;
            if mutant {
                pool.revise();
            }
            if plan.too_many_discards(report.discards) {
                return report.gave_up();
            }
            continue;
        };
        watch.at_found(&found);
        let mut verdict = Verdict::Discard;
        let mut feedback = pbt_core::feedback::Feedback::default();
        let hits = probe(&mut || {
            let (v, f) = pbt_core::feedback::collect(|| prop.run_any(&*traced.inputs, watch));
            (verdict, feedback) = (v, f);
        });
        // The check's `target(x)` and the inputs' `#[target = …]`, the larger.
        let annotated = prop.target_any(&*traced.inputs);
        let target = match (feedback.target, annotated) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let observation = Observation {
            target,
            precondition: prop.utility_any(&*traced.inputs),
            points: feedback.points,
            hits,
            data: feedback.data,
        };
        match verdict {
            Verdict::Fail(reason) => {
                report.tests += 1;
                return shrink_and_report(prop, plan, watch, &found, reason, report);
            }
            Verdict::Pass => report.tests += 1,
            Verdict::Discard => {
                report.discards += 1;
                if plan.too_many_discards(report.discards) {
                    return report.gave_up();
                }
            }
        }
        if utility.useful(pool, &observation) {
            let size = found.size();
            pool.invest(Seed {
                inputs: traced.inputs,
                found,
                choices: traced.choices,
                bounds: traced.bounds,
                size,
                feedback: utility.utility(&observation),
                energy: 0,
            });
        } else if mutant {
            pool.revise();
        }
    }
    report
}

/// Run the inputs saved in the regressions file before a feedback-guided
/// search: `Break` with the failure report when one still fails (it is
/// shrunk and reported as any failure), `Continue` with the report to go on
/// with.
pub fn replay_saved(
    prop: &dyn DynProperty,
    plan: &Plan,
    watch: &Watch,
    mut report: Report,
) -> ControlFlow<Report, Report> {
    for found in plan.saved() {
        watch.at_found(&found);
        match prop.test_found(&found, watch) {
            Step::Ran(Verdict::Pass) => report.tests += 1,
            Step::Ran(Verdict::Fail(reason)) => {
                report.tests += 1;
                let failed = shrink_and_report(prop, plan, watch, &found, reason, report);
                return ControlFlow::Break(failed);
            }
            Step::Ran(Verdict::Discard) | Step::Discarded(_) => report.discards += 1,
            Step::GeneratorPanicked(panic) => {
                return ControlFlow::Break(report.generator_failed(plan, &found, panic))
            }
        }
    }
    ControlFlow::Continue(report)
}

/// The longest chain of value mutations kept: a seed this many mutations
/// from its generated ancestor is mutated by choices, or not at all.
pub const MAX_VALUE_MUTATIONS: usize = 256;

/// One mutation's kind.
enum How {
    Choices,
    Values,
}

/// How to mutate `seed` under `setting` (`by_value`: some variable mutates
/// by value); `None` when it cannot be mutated further.
fn mutation(setting: Mutation, by_value: bool, seed: &Seed, rng: &mut Rng) -> Option<How> {
    let has_choices = !matches!(seed.found, Found::Mutated { .. });
    let values_left = seed.found.mutations() < MAX_VALUE_MUTATIONS;
    let values = match setting {
        _ if !has_choices => true,
        Mutation::Choices => false,
        Mutation::Values => true,
        Mutation::Both => by_value && rng.draw(1) == 0,
    };
    match (values, values_left, has_choices) {
        (true, true, _) => Some(How::Values),
        (_, _, true) => Some(How::Choices),
        _ => None,
    }
}

/// No instrumentation: run the test, report no hits.
pub fn no_probe(test: &mut dyn FnMut()) -> Vec<(u64, u32)> {
    test();
    Vec::new()
}

/// SanitizerCoverage: clear the counters, run the test, read the hits.
pub fn coverage_probe(test: &mut dyn FnMut()) -> Vec<(u64, u32)> {
    pbt_core::coverage::reset();
    test();
    let mut hits = Vec::new();
    pbt_core::coverage::hits(&mut hits);
    hits
}

//! The feedback-guided loop shared by the coverage-guided fuzzing runner
//! (papers/000 Fig. 14) and the targeted runner (Fig. 33):
//!
//! ```text
//! loop: directive ← pool.sample()
//!       input ← generate (fresh case)  |  mutate(seed's choices) and regenerate
//!       (verdict, feedback) ← instrumented run(input)
//!       fail    → shrink, print, save (as every runner)
//!       useful? → pool.invest(input, utility(feedback))
//!       else    → pool.revise() if the input was a mutant
//! ```
//!
//! Mutation edits the recorded choice sequence and replays it through the
//! property's generators, so it works for any generator, every mutant is a
//! value the generators can produce, and a failing mutant is saved (as its
//! choices) and replayed on the next run.

use super::cases::{Found, Plan};
use super::erased::DynProperty;
use super::execute::Verdict;
use super::seed_pool::{Directive, Seed, SeedPool};
use super::utility::{Observation, Utility};
use super::watchdog::Watch;
use crate::generational::shrink_and_report;
use crate::report::Report;
use pbt_core::choices::mutate_choices;
use pbt_core::source::mix;
use pbt_core::Rng;

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
    while report.tests < plan.config.cases {
        let (found, mutant) = match pool.sample() {
            Directive::Generate => {
                fresh += 1;
                (Found::Case(plan.case(fresh - 1)), false)
            }
            Directive::Mutate(seed) => {
                let choices = mutate_choices(&seed.choices, &seed.bounds, &mut rng);
                (
                    Found::Choices {
                        choices,
                        size: seed.size,
                    },
                    true,
                )
            }
        };
        let Some(Ok(traced)) = prop.generate_traced(&found) else {
            report.discards += 1;
            if mutant {
                pool.revise();
            }
            if plan.too_many_discards(report.discards) {
                return report.gave_up();
            }
            continue;
        };
        // A mutant is stored as the choices its replay actually used.
        let found = match found {
            Found::Choices { size, .. } => Found::Choices {
                choices: traced.choices.clone(),
                size,
            },
            case => case,
        };
        if let Found::Case(case) = &found {
            watch.at_case(case);
        }
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

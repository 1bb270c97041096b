//! The feedback-guided loop shared by the coverage-guided fuzzing runner
//! (*Programmable Property-Based Testing*, Fig. 14) and the targeted runner
//! (Fig. 33):
//!
//! ```text
//! (the runner replays the saved inputs first: `cases::replay_saved`)
//! loop: directive ← pool.sample()
//!       input ← generate (fresh case)
//!             | mutate(seed's choices) and regenerate  | mutate(seed's value)
//!       (verdict, feedback) ← instrumented run(input)
//!       fail, or a fault in a generator, mutator or target
//!               → the failure path (as every runner)
//!       discarded → counted, and still observed (below)
//!       useful? → pool.invest(input, utility(feedback))
//!       else    → pool.revise() if the input was a mutant
//! ```
//!
//! Unlike Fig. 14, a run the check discards is still observed and may be
//! invested: its preconditions' utility steers the pool towards inputs they
//! accept (*Flexible and Automatic Targeted Property-Based Testing*, §3),
//! which the generational runner's fallback relies on.
//!
//! A seed is mutated in one of two ways (`Config::mutation`; by default
//! half and half when some variable mutates by value):
//!
//! - **by choices**: edit the recorded choice sequence and replay it through
//!   the property's generators. It works for any generator, and every
//!   mutant is a value the generators can produce; it is saved as its
//!   choices, at its seed's size or — one time in four — at a size of the
//!   schedule drawn at random, so that an input found small can grow.
//! - **by value**: [`pbt_core::Property::mutate`], i.e. a variable's
//!   `#[mutate]` or its type's `Mutate` (FuzzChick's semantic mutation). The
//!   mutation is drawn from a fresh `Rng` seeded per mutation, so the mutant
//!   is saved as its ancestor (a case or choices) plus the mutation seeds,
//!   and replayed exactly on the next run.

use super::cases::Plan;
use super::erased::{DynProperty, Traced};
use super::execute::quietly;
use super::failure::{report_failure, Discovery};
use super::found::Found;
use super::observations::ObservationLog;
use super::observe::{self, write_test};
use super::seed_pool::{Directive, Seed, SeedPool};
use super::tested::{Fault, NotGenerated, Tested};
use super::utility::{Observation, Utility};
use super::watch::Watch;
use crate::config::Mutation;
use crate::report::Report;
use pbt_core::choices::mutate_choices;
use pbt_core::source::mix;
use pbt_core::Outcome;
use pbt_core::{Rng, Source};

/// Instrumentation around a test: runs it, returns the `(counter, count)`
/// hits it caused.
pub type Probe = dyn FnMut(&mut dyn FnMut()) -> Vec<(u64, u32)>;

/// Run tests until `plan.config.cases` passed or one failed, steering with
/// `pool` and `utility`; `probe` adds instrumentation feedback to each
/// observation (coverage counters, say). Each box of the figure is a
/// function below: [`next_input`] (sample, then generate or mutate),
/// [`instrumented_run`], [`invest_or_revise`].
pub fn feedback_loop(
    prop: &dyn DynProperty,
    plan: &Plan,
    watch: &Watch,
    pool: &mut dyn SeedPool,
    utility: &mut dyn Utility,
    probe: &mut Probe,
    mut report: Report,
) -> Report {
    let mut mutator = Mutator::new(prop, plan);
    let mut patience = Patience::new(report.discards);
    while report.tests < plan.config.cases || report.statistics.keep_testing() {
        let Input {
            found,
            generated,
            mutant,
        } = next_input(prop, plan, watch, pool, &mut mutator);
        if let (Some(log), Err(not)) = (&plan.observations, &generated) {
            let how = if mutant {
                observe::How::Mutated
            } else {
                observe::How::Generated
            };
            let tested = Tested::from(not.clone());
            write_test(log, &found, None, &tested, how, &[], &[]);
        }
        let traced = match generated {
            Ok(traced) => traced,
            Err(NotGenerated::Discarded(_)) => {
                report.discards += 1;
                if mutant {
                    pool.revise();
                }
                if patience.discarded(plan, &report) {
                    return report.gave_up();
                }
                continue;
            }
            Err(NotGenerated::Failed(reason)) => {
                let discovery = Discovery::fresh(found, Fault::Generator(reason));
                return report_failure(prop, plan, watch, discovery, report);
            }
        };
        let (tested, observation) =
            instrumented_run(prop, watch, &found, &traced, probe, &mut report);
        if let Some(log) = &plan.observations {
            observed(log, prop, &found, &traced, &tested, &observation, mutant);
        }
        match tested {
            Tested::Passed => {
                report.tests += 1;
                patience.progress();
            }
            // Not in the figure: a discarded run is still observed, so that
            // the preconditions' utility can steer the pool towards inputs
            // they accept (the targeted-preconditions paper, §3).
            Tested::Discarded(_) => {
                report.discards += 1;
                let best = pool.best().map_or(f64::NEG_INFINITY, |s| s.feedback);
                if utility.utility(&observation) > best {
                    patience.progress();
                } else if patience.discarded(plan, &report) {
                    return report.gave_up();
                }
            }
            Tested::Failed(fault) => {
                let discovery = Discovery::fresh(found, fault);
                return report_failure(prop, plan, watch, discovery, report);
            }
        }
        invest_or_revise(pool, utility, &observation, found, traced, mutant);
    }
    report
}

/// When a feedback-guided run gives up on discards. Not on its total, as
/// the generational loop does, but when [`Plan::too_many_discards`] of them
/// came in a row without progress: a test that passed, or a discarded input
/// of a higher utility than the pool's best (the search is still climbing
/// towards the preconditions). A search that reaches valid inputs keeps going while
/// it keeps finding them, however many of its mutants the preconditions
/// reject on the way; one that makes no progress gives up as soon as a
/// random run would. In all, a run discards at most `cases` times that
/// budget, so it ends even on a utility that rises forever by tiny steps.
/// Write the line of an input the loop tested (`mutant` or generated):
/// its features are the check's statistics, as [`observe::observed_test`]
/// writes them, and the feedback the pool saw: the target value
/// (`target`) and the number of coverage points and hits (`coverage
/// points`).
fn observed(
    log: &ObservationLog,
    prop: &dyn DynProperty,
    found: &Found,
    traced: &Traced,
    tested: &Tested,
    observation: &Observation,
    mutant: bool,
) {
    let target = observation
        .target
        .filter(|t| t.is_finite())
        .map(|t| t.to_string());
    let points = (observation.points.len() + observation.hits.len()).to_string();
    let seen = observation.seen.as_ref().map(observe::features);
    let mut features: Vec<(&str, &str)> = (seen.iter().flatten())
        .map(|(name, value)| (*name, value.as_str()))
        .collect();
    if let Some(target) = &target {
        features.push(("target", target.as_str()));
    }
    if points != "0" {
        features.push(("coverage points", points.as_str()));
    }
    let printed = prop.print_any(&*traced.inputs);
    let how = if mutant {
        observe::How::Mutated
    } else {
        observe::How::Generated
    };
    write_test(log, found, Some(&printed), tested, how, &features, &[]);
}

struct Patience {
    /// Discards since the last progress.
    stalled: u64,
}

impl Patience {
    /// Patience for a run that has already discarded `discards` inputs
    /// without a pass (the generational loop hands over its discards).
    fn new(discards: u64) -> Patience {
        Patience { stalled: discards }
    }

    fn progress(&mut self) {
        self.stalled = 0;
    }

    /// Count one discard; whether the run should give up now.
    fn discarded(&mut self, plan: &Plan, report: &Report) -> bool {
        self.stalled += 1;
        let cases = plan.config.cases.max(1);
        report.statistics.too_many_discards(plan, self.stalled)
            || plan.too_many_discards(report.statistics.tests, report.discards / cases)
    }
}

/// The state of the mutate box: its randomness, the fresh cases drawn so
/// far, and whether any variable mutates by value.
pub struct Mutator {
    rng: Rng,
    fresh: u64,
    by_value: bool,
}

impl Mutator {
    /// A mutator for `prop` under `plan` (its randomness from the run seed).
    pub fn new(prop: &dyn DynProperty, plan: &Plan) -> Mutator {
        Mutator {
            rng: Rng::from_seed(mix(plan.seed ^ 0x6d75_7461_7465)),
            fresh: 0,
            by_value: prop.structure().mutates_by_value(),
        }
    }
}

/// An input the loop is about to run.
pub struct Input {
    /// Where it comes from (replayable).
    pub found: Found,
    /// Its generation (or mutation).
    pub generated: Result<Traced, NotGenerated>,
    /// Whether it is a mutant of a seed.
    pub mutant: bool,
}

/// The sample, generate and mutate boxes: ask the pool what to do, then
/// generate a fresh case or mutate the sampled seed (by choices or by
/// value). A seed that cannot be mutated further (a value mutant at the end
/// of its chain, [`MAX_VALUE_MUTATIONS`]) spends the pool's energy on it and
/// gives way to a fresh case, so every turn of the loop runs a test.
pub fn next_input(
    prop: &dyn DynProperty,
    plan: &Plan,
    watch: &Watch,
    pool: &mut dyn SeedPool,
    mutator: &mut Mutator,
) -> Input {
    let seed = match pool.sample() {
        Directive::Generate => return fresh_input(prop, plan, watch, mutator),
        Directive::Mutate(seed) => seed,
    };
    let rng = &mut mutator.rng;
    let Some(how) = mutation(plan.config.mutation, mutator.by_value, seed, rng) else {
        pool.revise();
        return fresh_input(prop, plan, watch, mutator);
    };
    let (found, generated) = match how {
        How::Choices => {
            let choices = mutate_choices(&seed.choices, &seed.bounds, rng);
            let size = mutant_size(plan, seed.size, rng);
            let found = Found::Choices { choices, size };
            watch.at_found(&found);
            let generated = prop.generate_traced(&found, watch);
            // A mutant is kept as the choices its replay actually used.
            let found = match &generated {
                Ok(traced) => Found::Choices {
                    choices: traced.choices.clone(),
                    size,
                },
                _ => found,
            };
            (found, generated)
        }
        How::Values => {
            let step = rng.next_u64();
            let found = seed.found.mutated(step);
            watch.at_found(&found);
            let ticket = watch.start();
            let mut generated = prop.mutate_step(&*seed.inputs, step, seed.size, watch.max_draws());
            if watch.finish(ticket) {
                generated = Err(NotGenerated::Failed(format!(
                    "a mutator ran longer than the time limit of {:?}",
                    watch.limit().unwrap_or_default()
                )));
            }
            (found, generated)
        }
    };
    Input {
        found,
        generated,
        mutant: true,
    }
}

/// One mutant in [`RESIZE_ONE_IN`] replays at another size of the schedule.
pub const RESIZE_ONE_IN: u64 = 4;

/// The size a choice mutant replays at: mostly its seed's, but one time in
/// [`RESIZE_ONE_IN`] a size of the schedule drawn at random. A seed found at
/// a small size can thus grow (its choices replayed at a larger size draw
/// larger lengths and depths, and its mutants then mutate those), and a
/// large one shrink; a fixed size schedule (`Sizes::Fixed`) stays fixed.
fn mutant_size(plan: &Plan, seed_size: usize, rng: &mut Rng) -> usize {
    if rng.draw(RESIZE_ONE_IN - 1) != 0 {
        return seed_size;
    }
    let max = plan.config.max_size as u64;
    plan.config.size_of(rng.draw(max))
}

/// The generate box: the next fresh case of the plan.
fn fresh_input(prop: &dyn DynProperty, plan: &Plan, watch: &Watch, mutator: &mut Mutator) -> Input {
    mutator.fresh += 1;
    let found = Found::Case(plan.case(mutator.fresh - 1));
    watch.at_found(&found);
    let generated = prop.generate_traced(&found, watch);
    Input {
        found,
        generated,
        mutant: false,
    }
}

/// The instrumented-run box (`(res, feedback)` in the figure): run the
/// check under `probe`, collecting its feedback (`target`, `cover`,
/// `observe`), the inputs' `#[target]` and the preconditions' utility, all
/// user code guarded. What the test came to, and what was observed when it
/// passed or discarded (nothing when it failed: the check, or a `#[target]`
/// or utility that panicked). Records the test's statistics in `report`.
pub fn instrumented_run(
    prop: &dyn DynProperty,
    watch: &Watch,
    found: &Found,
    traced: &Traced,
    probe: &mut Probe,
    report: &mut Report,
) -> (Tested, Observation) {
    watch.at_found(found);
    let mut verdict = Outcome::Discard;
    let mut feedback = pbt_core::feedback::Feedback::default();
    let observer = pbt_core::statistics::Observer::start();
    let hits = probe(&mut || {
        let (v, f) = pbt_core::feedback::collect(|| prop.run_any(&*traced.inputs, watch));
        (verdict, feedback) = (v, f);
    });
    let seen = observer.finish();
    report
        .statistics
        .record_seen(seen.as_ref(), &verdict, found.size());
    if let Outcome::Fail(reason) = verdict {
        let observation = Observation {
            seen,
            ..Observation::default()
        };
        return (Tested::Failed(Fault::Check(reason)), observation);
    }
    // The check's `target(x)` and the inputs' `#[target = …]`, the
    // larger; the annotations are user code too.
    let annotations = quietly(|| {
        let target = prop.target_any(&*traced.inputs);
        (target, prop.utility_any(&*traced.inputs))
    });
    let (annotated, precondition) = match annotations {
        Ok(values) => values,
        Err(panic) => {
            let reason = format!("a #[target] or precondition utility panicked: {panic}");
            let observation = Observation {
                seen,
                ..Observation::default()
            };
            return (Tested::Failed(Fault::Annotation(reason)), observation);
        }
    };
    let target = match (feedback.target, annotated) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    // The preconditions' utility: the `implies`' and the `assume!`s', the least.
    let precondition = match (precondition, feedback.precondition) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let observation = Observation {
        target,
        precondition,
        points: feedback.points,
        hits,
        data: feedback.data,
        seen,
    };
    (Tested::from(verdict), observation)
}

/// The useful? box: invest a useful input in the pool with its utility;
/// otherwise revise the pool when the input was a mutant of a seed.
pub fn invest_or_revise(
    pool: &mut dyn SeedPool,
    utility: &mut dyn Utility,
    observation: &Observation,
    found: Found,
    traced: Traced,
    mutant: bool,
) {
    if utility.useful(pool, observation) {
        let size = found.size();
        pool.invest(Seed {
            inputs: traced.inputs,
            found,
            choices: traced.choices,
            bounds: traced.bounds,
            size,
            feedback: utility.utility(observation),
            energy: 0,
        });
    } else if mutant {
        pool.revise();
    }
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
    let has_choices = seed.found.has_choices();
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

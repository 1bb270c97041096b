//! The failure path's shrink stage (*Programmable Property-Based Testing*,
//! Fig. 12, `shrinker`): regenerate the failing input and shrink it with the
//! shrinker the configuration names — the integrated one on its choices
//! ([`super::shrink_choices`]), the external one on its value
//! ([`super::shrink`]), or the first then the second.

use super::cases::Plan;
use super::distinct::FailureOrigin;
use super::erased::{AnyInputs, DynProperty};
use super::execute::MAX_STACK;
use super::found::Found;
use super::integrated::{shrink_choices, Start};
use super::observe::observed_shrink_step;
use super::shrinker::{shrink, ShrinkLimits, Shrunk};
use super::watch::Watch;
use crate::config::Shrinker;
use pbt_core::choices::{Replay, Replayed, Tracer};
use pbt_core::property::NodeView;
use pbt_core::{Binding, Outcome};
use std::time::Instant;

/// A failure after the configured shrinker ran: the input as first found
/// and what shrinking made of it.
#[derive(Debug)]
pub struct ShrunkFailure {
    /// The input as first found.
    pub original: AnyInputs,
    /// It, printed, each value cut short after [`ORIGINAL_SHOWN`] bytes.
    pub original_shown: Vec<Binding>,
    /// The shrunk input, with what it took.
    pub shrunk: Shrunk,
    /// How the shrunk input replays, when shrinking moved it: the
    /// integrated shrinker's choices, and the external shrinker's path from
    /// them (or from the input as found). What the failure path saves next
    /// to the input as found.
    pub replay: Option<Found>,
}

/// How many bytes of each variable the input as first found is printed
/// with (the report's "first found as"; the shrunk input is printed whole).
pub const ORIGINAL_SHOWN: usize = 4096;

/// The input as found, regenerated under `watch`, with (when a choice
/// sequence generates it) its choices, their bounds and the blocks its
/// generators mark: the integrated shrinker starts from them, with no
/// replay to mark them again. `None` when it no longer generates.
fn trace(
    prop: &dyn DynProperty,
    found: &Found,
    watch: &Watch,
) -> Option<(AnyInputs, Option<Replayed>)> {
    let size = found.size();
    let ticket = watch.start();
    let (generated, replayed) = match found {
        // A check that draws (a `Data`) goes on with the sequence: run once
        // more, its draws end the choices shrinking starts from.
        Found::Case(case) => {
            let rng = case.rng().limited(watch.max_draws(), MAX_STACK);
            let mut tracer = Tracer::marking(rng);
            let generated = prop.generate_from(&mut tracer, size);
            if let Some(tail) = generated
                .as_ref()
                .ok()
                .and_then(|i| prop.run_for_draws(&**i))
            {
                tracer.append(&tail);
            }
            (generated, tracer.into_replayed())
        }
        Found::Choices { choices, .. } => {
            let mut replay = Replay::new(choices);
            let generated = prop.generate_from(&mut replay, size);
            if let Some(tail) = generated
                .as_ref()
                .ok()
                .and_then(|i| prop.run_for_draws(&**i))
            {
                replay.append(&tail);
            }
            (generated, replay.into_replayed())
        }
        Found::Mutated { .. } | Found::Shrunk { .. } => {
            watch.finish(ticket);
            let traced = prop.generate_traced(found, watch).ok()?;
            return Some((traced.inputs, None));
        }
    };
    if watch.finish(ticket) {
        return None;
    }
    Some((generated.ok()?, Some(replayed)))
}

/// The input as found, regenerated under `watch` for the report alone: a
/// fresh case on its `Rng` (the generators' fast path, no choice
/// recorded), any other as [`generate_traced`](DynProperty#method.generate_traced) makes it.
/// `None` when it no longer generates.
fn untraced(prop: &dyn DynProperty, found: &Found, watch: &Watch) -> Option<AnyInputs> {
    match found {
        Found::Case(case) => {
            let mut rng = (case.rng()).limited(watch.max_draws(), MAX_STACK);
            let ticket = watch.start();
            let generated = prop.generate_from(&mut rng, found.size());
            if watch.finish(ticket) {
                return None;
            }
            // Run for what a `Data` prints (a check that draws).
            if let Ok(inputs) = &generated {
                prop.run_for_draws(&**inputs);
            }
            generated.ok()
        }
        _ => prop.generate_traced(found, watch).ok().map(|t| t.inputs),
    }
}

/// The shrink-and-check stage shared by the runners: regenerate the failing
/// input with its choices recorded, then shrink it with the shrinker the
/// configuration names, within `max_shrinks` steps and `max_shrink_time`
/// in all. `None` when the input no longer generates (a flaky generator).
pub fn shrink_failure(
    prop: &dyn DynProperty,
    plan: &Plan,
    watch: &Watch,
    found: &Found,
    reason: String,
) -> Option<ShrunkFailure> {
    let began = Instant::now();
    let reason_found = reason.clone();
    let limits = ShrinkLimits {
        max_steps: plan.config.max_shrinks,
        max_time: plan.config.max_shrink_time,
    };
    // With several failures reported, shrinking stays on this one's
    // origin: a candidate failing another way is another bug.
    let origin = (plan.config.report_multiple).then(|| FailureOrigin::of(&reason));
    let stays = |why: &str| (origin.as_ref()).is_none_or(|o| FailureOrigin::of(why) == *o);
    let fails = |candidate: &AnyInputs| match prop.run_any(&**candidate, watch) {
        Outcome::Fail(why) if stays(&why) => Some(why),
        _ => None,
    };
    // Each step taken, to the narration (verbose), to the watchdog (what
    // a hang names) and, when the run is observed, to the observations file.
    let steps = std::cell::Cell::new(0u64);
    let show = |printed: &[Binding]| {
        steps.set(steps.get() + 1);
        if let Some(log) = &plan.observations {
            observed_shrink_step(log, printed, &reason_found, steps.get());
        }
        let printed = render(printed);
        super::narration::shrink_step(plan, steps.get(), &printed);
        watch.shrinking(printed)
    };
    let on_step = |_: &AnyInputs, printed: &[Binding]| show(printed);
    let size = found.size();
    // The external shrinker alone needs neither the choices' bounds nor
    // the blocks the integrated shrinker starts from (nor, for the
    // report's copy of the input as found, its choices): a tenth of a run
    // on a failing 10 000-element list.
    let (original, traced) = match plan.config.shrinker {
        Shrinker::External => (untraced(prop, found, watch)?, None),
        _ => trace(prop, found, watch)?,
    };
    // Printed for the report's "first found as", cut short: a long input
    // costs its first bytes, not a `Debug` of the whole (the typed
    // original is whole). Printed as shrinking prints each step: a `Debug`
    // that never returns is a shrink that makes no progress, which the
    // watchdog reports.
    let original_shown = prop.print_any_within(&*original, ORIGINAL_SHOWN);
    // Mutated or shrunk by value: no choice sequence generates it, so only
    // the external shrinker applies.
    let shrinker = match traced {
        Some(_) => plan.config.shrinker,
        None => Shrinker::External,
    };
    let regenerate = || prop.generate_traced(found, watch).ok().map(|t| t.inputs);
    let first = match traced {
        Some(traced) if shrinker != Shrinker::External => {
            super::narration::with_pass_table(plan, || {
                shrink_choices(
                    prop,
                    watch,
                    Start {
                        inputs: &*original,
                        traced,
                        // Whole unless a value was cut short.
                        shown: (original_shown.iter())
                            .all(|b| b.value.len() <= ORIGINAL_SHOWN)
                            .then(|| original_shown.clone()),
                        origin: origin.clone(),
                    },
                    size,
                    reason,
                    limits,
                    regenerate,
                    show,
                )
            })?
        }
        _ => Shrunk {
            // Only a variable with a generator shrinks through the choices
            // its case records: without one, the input is regenerated as
            // the report's copy is.
            inputs: match (prop.structure().variables())
                .any(|v| matches!(v, NodeView::Forall { gen: true, .. }))
            {
                true => regenerate()?,
                false => untraced(prop, found, watch)?,
            },
            choices: None,
            size,
            path: Vec::new(),
            reason,
            steps: 0,
            attempts: 0,
            stopped_early: false,
            interrupted: None,
            shrinker: Shrinker::External,
        },
    };
    // The integrated shrinker's result, when it took a step (smaller choices
    // it took silently give the value as found): its choices at their size.
    let moved = first
        .choices
        .as_ref()
        .filter(|_| first.steps > 0)
        .map(|choices| Found::Choices {
            choices: choices.clone(),
            size: first.size,
        });
    // With `both`, the external shrinker goes on from the integrated
    // shrinker's result to use what value shrinkers know. When every
    // variable shrinks through its generator's choices (`#[gen]` without
    // `#[shrink]`) or is type-based with a value shrinker those choices
    // subsume (`Shrink::SUBSUMED_BY_CHOICES`: integers, and `Vec`s of
    // them), and the integrated shrinker reached its fixed point, it would
    // only try again what the choices tried: a quarter of a run on a
    // failing `vec(any::<i32>(), 0..=1000)`, an eighth on a `Vec<i32>`,
    // for no step.
    let by_choices_only = || {
        (prop.structure().variables()).all(|v| match v {
            NodeView::Forall {
                shrink: false,
                gen,
                by_choices,
                ..
            } => *gen || *by_choices,
            _ => false,
        })
    };
    let converged = !first.stopped_early && first.interrupted.is_none();
    let redundant = shrinker == Shrinker::Both && converged && by_choices_only();
    if shrinker == Shrinker::Integrated || redundant {
        return Some(ShrunkFailure {
            original,
            original_shown,
            shrunk: first,
            replay: moved,
        });
    }
    // The external shrinker gets what is left of the time and of the
    // steps: `max_shrinks` bounds the two phases together.
    let limits = ShrinkLimits {
        max_steps: limits.max_steps.saturating_sub(first.steps),
        max_time: limits.max_time.saturating_sub(began.elapsed()),
    };
    let second = shrink(
        prop,
        watch,
        first.inputs,
        first.reason,
        limits,
        fails,
        on_step,
    );
    let name = match shrinker {
        Shrinker::Both if second.steps > 0 => Shrinker::Both,
        Shrinker::Both if first.steps > 0 => Shrinker::Integrated,
        _ => Shrinker::External,
    };
    let replay = match second.path.is_empty() {
        true => moved,
        false => Some(Found::Shrunk {
            base: Box::new(moved.unwrap_or_else(|| found.clone())),
            path: second.path.clone(),
        }),
    };
    Some(ShrunkFailure {
        original,
        original_shown,
        replay,
        shrunk: Shrunk {
            inputs: second.inputs,
            // The external shrinker's steps leave the choices behind.
            choices: first.choices.filter(|_| second.steps == 0),
            size: first.size,
            path: second.path,
            reason: second.reason,
            steps: first.steps + second.steps,
            attempts: first.attempts + second.attempts,
            stopped_early: first.stopped_early || second.stopped_early,
            interrupted: second.interrupted,
            shrinker: name,
        },
    })
}

/// Bindings on one line: `x = 1, ys = [2]`.
/// Written in place: no string per binding (the shrinker renders every
/// step for the watchdog).
pub(crate) fn render(bindings: &[Binding]) -> String {
    let len = bindings
        .iter()
        .map(|b| b.name.len() + b.value.len() + 5)
        .sum();
    let mut line = String::with_capacity(len);
    for (i, b) in bindings.iter().enumerate() {
        if i > 0 {
            line.push_str(", ");
        }
        line.push_str(b.name);
        line.push_str(" = ");
        line.push_str(&b.value);
    }
    line
}

//! The shrinker (*Programmable Property-Based Testing*, Fig. 12,
//! `shrinker`): greedy descent over the property's shrink candidates, bounded
//! by steps and time.

use super::erased::{AnyInputs, DynProperty};
use super::execute::quietly;
use super::watchdog::Watch;
use crate::config::Shrinker;
use pbt_core::choices::Choices;
use std::time::{Duration, Instant};

/// Bounds on shrinking.
#[derive(Clone, Copy, Debug)]
pub struct ShrinkLimits {
    /// Accepted steps at most.
    pub max_steps: u64,
    /// Time at most.
    pub max_time: Duration,
}

/// The result of shrinking.
#[derive(Debug)]
pub struct Shrunk {
    /// The smallest failing input found.
    pub inputs: AnyInputs,
    /// Why it fails.
    pub reason: String,
    /// Accepted steps.
    pub steps: u64,
    /// Candidates tried.
    pub attempts: u64,
    /// Whether a limit stopped shrinking before a local minimum.
    pub stopped_early: bool,
    /// The panic of the user's shrinker that ended shrinking, if one did.
    pub interrupted: Option<String>,
}

/// The attempts and time of one greedy descent.
#[derive(Debug)]
pub struct Budget {
    began: Instant,
    limits: ShrinkLimits,
    tried: u64,
    out_of_time: bool,
}

impl Budget {
    /// Count one candidate; `false` once the time limit has passed (checked
    /// before every candidate, so shrinking overruns its time by one
    /// candidate at most).
    pub fn tick(&mut self) -> bool {
        if self.began.elapsed() >= self.limits.max_time {
            self.out_of_time = true;
        }
        if !self.out_of_time {
            self.tried += 1;
        }
        !self.out_of_time
    }
}

/// Greedy descent, shared by both shrinkers: from `start`, move to the point
/// `next` finds (it counts each candidate it tries with [`Budget::tick`] and
/// stops when that says so), and start again from it, until `next` finds
/// none or a limit is hit. Returns the last point, the steps and attempts,
/// and whether a limit stopped it.
pub fn descend<T>(
    start: T,
    limits: ShrinkLimits,
    mut next: impl FnMut(&T, &mut Budget) -> Option<T>,
    mut on_step: impl FnMut(&T),
) -> (T, u64, u64, bool) {
    let mut budget = Budget {
        began: Instant::now(),
        limits,
        tried: 0,
        out_of_time: false,
    };
    let (mut best, mut steps) = (start, 0u64);
    loop {
        if steps >= limits.max_steps || budget.began.elapsed() >= limits.max_time {
            return (best, steps, budget.tried, true);
        }
        match next(&best, &mut budget) {
            Some(point) if !budget.out_of_time => {
                on_step(&point);
                best = point;
                steps += 1;
            }
            _ => return (best, steps, budget.tried, budget.out_of_time),
        }
    }
}

/// Shrink `failing` greedily: take the first candidate for which `fails`
/// returns a reason, and start again from it, until no candidate fails or a
/// limit is hit. `on_step` sees each accepted input. The candidates are
/// taken one at a time, each made under `watch`; a shrinker that panics while producing one ends
/// shrinking at the last failing input (the panic is in
/// [`Shrunk::interrupted`]).
pub fn shrink(
    prop: &dyn DynProperty,
    watch: &Watch,
    failing: AnyInputs,
    reason: String,
    limits: ShrinkLimits,
    mut fails: impl FnMut(&AnyInputs) -> Option<String>,
    mut on_step: impl FnMut(&AnyInputs),
) -> Shrunk {
    let mut interrupted = None;
    let ((inputs, reason), steps, attempts, stopped_early) = descend(
        (failing, reason),
        limits,
        |(best, _), budget| {
            if interrupted.is_some() {
                return None;
            }
            let mut candidates = match quietly(|| prop.shrink_any(&**best)) {
                Ok(candidates) => candidates,
                Err(panic) => {
                    interrupted = Some(panic);
                    return None;
                }
            };
            while budget.tick() {
                // Making a candidate runs user code (a shrinker, a generator
                // replaying choices): watched like a test, and a candidate
                // slower than the time limit is skipped.
                let ticket = watch.start();
                let next = quietly(|| candidates.next());
                if watch.finish(ticket) {
                    continue;
                }
                match next {
                    Ok(Some(candidate)) => {
                        if let Some(why) = fails(&candidate) {
                            return Some((candidate, why));
                        }
                    }
                    Ok(None) => return None,
                    Err(panic) => {
                        interrupted = Some(panic);
                        return None;
                    }
                }
            }
            None
        },
        |(inputs, _)| on_step(inputs),
    );
    Shrunk {
        inputs,
        reason,
        steps,
        attempts,
        stopped_early,
        interrupted,
    }
}

/// A failure after the configured shrinker ran.
#[derive(Debug)]
pub struct Minimized {
    /// The input as first found.
    pub original: AnyInputs,
    /// The smallest failing input found.
    pub inputs: AnyInputs,
    /// The choices that generate it, when a choice sequence does (the
    /// integrated shrinker's result): saved with the regressions.
    pub choices: Option<Choices>,
    /// Why it fails.
    pub reason: String,
    /// Accepted steps, over all shrinkers that ran.
    pub steps: u64,
    /// Candidates tried.
    pub attempts: u64,
    /// Whether a limit stopped shrinking before a local minimum.
    pub stopped_early: bool,
    /// The panic of the user's shrinker that ended shrinking, if one did.
    pub interrupted: Option<String>,
    /// Which shrinker produced the result: [`Shrinker::Both`] when both ran
    /// and the external one still improved on the integrated result.
    pub shrinker: Shrinker,
}

/// The shrink-and-check stage shared by the runners: regenerate the failing
/// input with its choices recorded, then minimise it with the shrinker the
/// configuration names, within `max_shrinks` steps and `max_shrink_time`
/// in all. `None` when the input no longer generates (a flaky generator).
pub fn minimize(
    prop: &dyn DynProperty,
    plan: &super::Plan,
    watch: &super::Watch,
    found: &super::Found,
    reason: String,
) -> Option<Minimized> {
    use pbt_core::Outcome as Verdict;
    let began = Instant::now();
    let limits = ShrinkLimits {
        max_steps: plan.config.max_shrinks,
        max_time: plan.config.max_shrink_time,
    };
    let fails = |candidate: &AnyInputs| match prop.run_any(&**candidate, watch) {
        Verdict::Fail(why) => Some(why),
        _ => None,
    };
    let on_step = |best: &AnyInputs| {
        let printed: Vec<String> = prop
            .print_any(&**best)
            .iter()
            .map(|b| b.to_string())
            .collect();
        watch.shrinking(printed.join(", "));
    };
    let size = found.size();
    let original = prop.generate_traced(found, watch).ok()?;
    let failing = prop.generate_traced(found, watch).ok()?;
    // Mutated by value: no choice sequence generates it, so only the
    // external shrinker applies.
    let choices = match found {
        super::Found::Mutated { .. } => None,
        _ => Some(failing.choices),
    };
    let shrinker = match choices {
        Some(_) => plan.config.shrinker,
        None => Shrinker::External,
    };
    let (inputs, choices, reason, mut steps, mut attempts, mut stopped_early) =
        if shrinker == Shrinker::External {
            (failing.inputs, None, reason, 0, 0, false)
        } else {
            let shrunk = super::integrated::shrink_choices(
                prop,
                watch,
                failing.inputs,
                choices.unwrap_or_default(),
                size,
                reason,
                limits,
                fails,
                on_step,
            );
            (
                shrunk.inputs,
                Some(shrunk.choices),
                shrunk.reason,
                shrunk.steps,
                shrunk.attempts,
                shrunk.stopped_early,
            )
        };
    if shrinker == Shrinker::Integrated {
        return Some(Minimized {
            original: original.inputs,
            inputs,
            choices,
            reason,
            steps,
            attempts,
            stopped_early,
            interrupted: None,
            shrinker: Shrinker::Integrated,
        });
    }
    // The external shrinker gets what is left of the time (and, as each
    // shrinker always has, `max_shrinks` steps of its own).
    let limits = ShrinkLimits {
        max_steps: limits.max_steps,
        max_time: limits.max_time.saturating_sub(began.elapsed()),
    };
    let integrated_steps = steps;
    let shrunk = shrink(prop, watch, inputs, reason, limits, fails, on_step);
    steps += shrunk.steps;
    attempts += shrunk.attempts;
    stopped_early |= shrunk.stopped_early;
    let name = match shrinker {
        Shrinker::Both if shrunk.steps > 0 => Shrinker::Both,
        Shrinker::Both if integrated_steps > 0 => Shrinker::Integrated,
        _ => Shrinker::External,
    };
    Some(Minimized {
        original: original.inputs,
        inputs: shrunk.inputs,
        // The external shrinker's steps leave the choices behind.
        choices: choices.filter(|_| shrunk.steps == 0),
        reason: shrunk.reason,
        steps,
        attempts,
        stopped_early,
        interrupted: shrunk.interrupted,
        shrinker: name,
    })
}

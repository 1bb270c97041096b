//! The shrinker (*Programmable Property-Based Testing*, Fig. 12,
//! `shrinker`): greedy descent over the property's shrink candidates, bounded
//! by steps and time.

use super::deadline::Deadline;
use super::erased::{AnyInputs, DynProperty};
use super::execute::quietly;
use super::watchdog::Watch;
use crate::config::Shrinker;
use pbt_core::choices::{Choices, Replay, Replayed, Tracer};
use pbt_core::property::NodeView;
use pbt_core::Binding;
use std::time::{Duration, Instant};

/// Bounds on shrinking.
#[derive(Clone, Copy, Debug)]
pub struct ShrinkLimits {
    /// Accepted steps at most.
    pub max_steps: u64,
    /// Time at most.
    pub max_time: Duration,
}

/// The result of shrinking, whichever shrinker produced it: the external
/// one ([`shrink`]), the integrated one
/// ([`super::integrated::shrink_choices`]) or the configured one or two in
/// turn ([`minimize`]).
#[derive(Debug)]
pub struct Shrunk {
    /// The smallest failing input found.
    pub inputs: AnyInputs,
    /// The choices that generate it, when a choice sequence does (the
    /// integrated shrinker's result, unless the external one moved on from
    /// it): saved with the regressions.
    pub choices: Option<Choices>,
    /// The size those choices replay at: the size the integrated shrinker
    /// ended at, which may not be the one the failure was found at (0 when
    /// there are no choices).
    pub size: usize,
    /// The index of each candidate the external shrinker took, among the
    /// candidates of the input before it (empty when it took none): from
    /// the input it started from, what replays the result
    /// ([`super::Found::Shrunk`]), saved with the regressions.
    pub path: Vec<u64>,
    /// Why it fails.
    pub reason: String,
    /// Accepted steps (over all shrinkers that ran).
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

/// Where a greedy descent ([`descend`]) ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Descent<T> {
    /// The last point reached.
    pub point: T,
    /// Accepted steps.
    pub steps: u64,
    /// Candidates tried.
    pub attempts: u64,
    /// Whether a limit (steps or time) stopped it before a local minimum.
    pub stopped_early: bool,
}

/// The attempts and time of one greedy descent.
#[derive(Debug)]
pub struct Budget {
    deadline: Deadline,
    tried: u64,
    out_of_time: bool,
}

impl Budget {
    /// Count one candidate; `false` once the time limit has passed (checked
    /// before every candidate, so shrinking overruns its time by one
    /// candidate at most).
    pub fn tick(&mut self) -> bool {
        if self.deadline.passed() {
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
/// none or a limit is hit.
///
/// ```
/// use pbt_runners::components::{descend, ShrinkLimits};
/// use std::time::Duration;
/// let limits = ShrinkLimits { max_steps: 100, max_time: Duration::from_secs(5) };
/// // Halve while the "failure" (x >= 10) persists.
/// let end = descend(1000u32, limits, |&x, budget| {
///     budget.tick();
///     (x / 2 >= 10).then_some(x / 2)
/// }, |_| {});
/// assert_eq!((end.point, end.steps, end.stopped_early), (15, 6, false));
/// ```
pub fn descend<T>(
    start: T,
    limits: ShrinkLimits,
    mut next: impl FnMut(&T, &mut Budget) -> Option<T>,
    mut on_step: impl FnMut(&T),
) -> Descent<T> {
    let mut budget = Budget {
        deadline: Deadline::new(limits.max_time),
        tried: 0,
        out_of_time: false,
    };
    let (mut best, mut steps) = (start, 0u64);
    loop {
        if steps >= limits.max_steps || budget.out_of_time || budget.deadline.passed() {
            return Descent {
                point: best,
                steps,
                attempts: budget.tried,
                stopped_early: true,
            };
        }
        match next(&best, &mut budget) {
            Some(point) if !budget.out_of_time => {
                on_step(&point);
                best = point;
                steps += 1;
            }
            _ => {
                return Descent {
                    point: best,
                    steps,
                    attempts: budget.tried,
                    stopped_early: budget.out_of_time,
                }
            }
        }
    }
}

/// Shrink `failing` greedily: take the first candidate for which `fails`
/// returns a reason and that prints differently from the input it came
/// from, and start again from it, until no candidate does or a limit is
/// hit. `on_step` sees each accepted input with its print. The candidates
/// are taken one at a time, each made under `watch`; a shrinker that
/// panics while producing one ends shrinking at the last failing input
/// (the panic is in [`Shrunk::interrupted`]).
///
/// Only a candidate that fails is printed (into one reused buffer) and
/// compared with the input it would replace: a candidate that prints the
/// same is no step (a shrinker that proposes its own input,
/// `std::iter::repeat(x)`, would otherwise take `max_shrinks` steps that
/// change nothing, each one a check and a line of the saved shrink path),
/// and `max_shrinks` of them in one round of candidates end it. The print
/// of a step taken is the one `on_step` gets and the next round compares
/// with; the input shrinking starts from is never printed whole for the
/// comparison (it is printed against the candidate's print, up to the
/// first difference: a long list whose first half is deleted differs at
/// once).
pub fn shrink(
    prop: &dyn DynProperty,
    watch: &Watch,
    failing: AnyInputs,
    reason: String,
    limits: ShrinkLimits,
    mut fails: impl FnMut(&AnyInputs) -> Option<String>,
    mut on_step: impl FnMut(&AnyInputs, &[Binding]),
) -> Shrunk {
    let mut interrupted = None;
    // The index of the candidate `next` returned last, and the path of
    // those taken (pushed when the descent takes one).
    let taken = std::cell::Cell::new(0u64);
    let mut path = Vec::new();
    // The best input as printed: the print of each step taken (none
    // before the first).
    let shown: std::cell::RefCell<Option<Vec<Binding>>> = std::cell::RefCell::new(None);
    // A candidate's print, made into the same strings each time.
    let mut printed: Vec<Binding> = Vec::new();
    let Descent {
        point: (inputs, reason),
        steps,
        attempts,
        stopped_early,
    } = descend(
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
            let mut index = 0u64;
            let mut unchanged = 0u64;
            while budget.tick() {
                // Making a candidate runs user code (a shrinker, a generator
                // replaying choices): watched like a test, and a candidate
                // slower than the time limit is skipped (its index counts:
                // a replay of the path makes it too).
                let ticket = watch.start();
                let next = quietly(|| candidates.next());
                let at = index;
                index += 1;
                if watch.finish(ticket) {
                    continue;
                }
                match next {
                    Ok(Some(candidate)) => {
                        let Some(why) = fails(&candidate) else {
                            continue;
                        };
                        prop.print_any_into(&*candidate, &mut printed);
                        let mut shown = shown.borrow_mut();
                        let same = match &*shown {
                            Some(shown) => printed == *shown,
                            None => prop.prints_as_any(&**best, &printed),
                        };
                        if same {
                            unchanged += 1;
                            if unchanged >= limits.max_steps {
                                return None;
                            }
                            continue;
                        }
                        std::mem::swap(shown.get_or_insert_with(Vec::new), &mut printed);
                        taken.set(at);
                        return Some((candidate, why));
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
        |(inputs, _)| {
            path.push(taken.get());
            on_step(inputs, shown.borrow().as_deref().unwrap_or_default())
        },
    );
    Shrunk {
        inputs,
        choices: None,
        size: 0,
        path,
        reason,
        steps,
        attempts,
        stopped_early,
        interrupted,
        shrinker: Shrinker::External,
    }
}

/// A failure after the configured shrinker ran: the input as first found
/// and what shrinking made of it.
#[derive(Debug)]
pub struct Minimized {
    /// The input as first found.
    pub original: AnyInputs,
    /// It, printed, each value cut short after [`ORIGINAL_SHOWN`] bytes.
    pub original_shown: Vec<pbt_core::Binding>,
    /// The shrunk input, with what it took.
    pub shrunk: Shrunk,
    /// How the shrunk input replays, when shrinking moved it: the
    /// integrated shrinker's choices, and the external shrinker's path from
    /// them (or from the input as found). What the failure path saves next
    /// to the input as found.
    pub replay: Option<super::Found>,
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
    found: &super::Found,
    watch: &Watch,
) -> Option<(AnyInputs, Option<Replayed>)> {
    use super::erased::Generation;
    let size = found.size();
    let ticket = watch.start();
    let (generated, replayed) = match found {
        super::Found::Case(case) => {
            let rng = case
                .rng()
                .limited(watch.max_draws(), super::execute::MAX_STACK);
            let mut tracer = Tracer::marking(rng);
            let generated = prop.generate_from(&mut tracer, size);
            (generated, tracer.into_replayed())
        }
        super::Found::Choices { choices, .. } => {
            let mut replay = Replay::new(choices);
            let generated = prop.generate_from(&mut replay, size);
            (generated, replay.into_replayed())
        }
        super::Found::Mutated { .. } | super::Found::Shrunk { .. } => {
            watch.finish(ticket);
            let traced = prop.generate_traced(found, watch).ok()?;
            return Some((traced.inputs, None));
        }
    };
    if watch.finish(ticket) {
        return None;
    }
    match generated {
        Generation::Generated(inputs) => Some((inputs, Some(replayed))),
        Generation::Discarded(_) | Generation::Failed(_) => None,
    }
}

/// The input as found, regenerated under `watch` for the report alone: a
/// fresh case on its `Rng` (the generators' fast path, no choice
/// recorded), any other as [`DynProperty::generate_traced`] makes it.
/// `None` when it no longer generates.
fn untraced(prop: &dyn DynProperty, found: &super::Found, watch: &Watch) -> Option<AnyInputs> {
    match found {
        super::Found::Case(case) => {
            let mut rng = (case.rng()).limited(watch.max_draws(), super::execute::MAX_STACK);
            let ticket = watch.start();
            let generated = prop.generate_from(&mut rng, found.size());
            if watch.finish(ticket) {
                return None;
            }
            generated.ok()
        }
        _ => prop.generate_traced(found, watch).ok().map(|t| t.inputs),
    }
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
    let show = |printed: &[pbt_core::Binding]| watch.shrinking(super::failure::render(printed));
    let on_step = |_: &AnyInputs, printed: &[pbt_core::Binding]| show(printed);
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
        Some(traced) if shrinker != Shrinker::External => super::integrated::shrink_choices(
            prop,
            watch,
            super::integrated::Start {
                inputs: &*original,
                traced,
                // Whole unless a value was cut short.
                shown: (original_shown.iter())
                    .all(|b| b.value.len() <= ORIGINAL_SHOWN)
                    .then(|| original_shown.clone()),
            },
            size,
            reason,
            limits,
            regenerate,
            show,
        )?,
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
        .map(|choices| super::Found::Choices {
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
        return Some(Minimized {
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
        false => Some(super::Found::Shrunk {
            base: Box::new(moved.unwrap_or_else(|| found.clone())),
            path: second.path.clone(),
        }),
    };
    Some(Minimized {
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

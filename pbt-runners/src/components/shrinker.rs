//! The shrinker (*Programmable Property-Based Testing*, Fig. 12,
//! `shrinker`): greedy descent over the property's shrink candidates, bounded
//! by steps and time.

use super::deadline::Deadline;
use super::erased::{AnyInputs, DynProperty};
use super::execute::quietly;
use super::watch::Watch;
use crate::config::Shrinker;
use pbt_core::choices::Choices;
use pbt_core::Binding;
use std::time::Duration;

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
/// turn ([`super::shrink_failure`]).
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

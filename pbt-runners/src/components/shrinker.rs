//! The shrinker (papers/000 Fig. 12, `shrinker`): greedy descent over the
//! property's shrink candidates, bounded by steps and time.

use super::erased::{AnyInputs, DynProperty};
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
}

/// Shrink `failing` greedily: take the first candidate for which `fails`
/// returns a reason, and start again from it, until no candidate fails or a
/// limit is hit. `on_step` sees each accepted input.
pub fn shrink(
    prop: &dyn DynProperty,
    failing: AnyInputs,
    reason: String,
    limits: ShrinkLimits,
    mut fails: impl FnMut(&AnyInputs) -> Option<String>,
    mut on_step: impl FnMut(&AnyInputs),
) -> Shrunk {
    let start = Instant::now();
    let mut best = Shrunk {
        inputs: failing,
        reason,
        steps: 0,
        attempts: 0,
        stopped_early: false,
    };
    loop {
        if best.steps >= limits.max_steps || start.elapsed() >= limits.max_time {
            best.stopped_early = true;
            return best;
        }
        let mut attempts = 0;
        let mut out_of_time = false;
        let next = prop.shrink_any(&*best.inputs).find_map(|candidate| {
            attempts += 1;
            if attempts % 32 == 0 && start.elapsed() >= limits.max_time {
                out_of_time = true;
                return Some(None);
            }
            fails(&candidate).map(|why| Some((candidate, why)))
        });
        best.attempts += attempts;
        match next.flatten() {
            Some((inputs, reason)) => {
                on_step(&inputs);
                best.inputs = inputs;
                best.reason = reason;
                best.steps += 1;
            }
            None => {
                best.stopped_early = out_of_time;
                return best;
            }
        }
    }
}

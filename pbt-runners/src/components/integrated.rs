//! The integrated shrinker (*Programmable Property-Based Testing*, §2.2,
//! Fig. 4; Hypothesis, Hedgehog, falsify): minimize the choice sequence an
//! input was generated from, and regenerate each candidate through the
//! property's own generators, so every candidate satisfies whatever the
//! generators guarantee.
//!
//! The passes are [`pbt_core::shrink::choices::ChoiceShrinker`]'s, the rows
//! of [`pbt_core::shrink::choices::passes::table`], which never run a
//! rejected candidate twice. This module runs
//! their candidates: each is replayed under the watchdog and taken only if
//! the choices its replay used are smaller in shortlex order (which
//! guarantees termination) and it still fails. It is a step (counted, and
//! shown while shrinking) when the printed value changed; smaller choices
//! for the same value are taken silently; a re-encoding or a wider size
//! must keep the value. Every replay counts as an attempt.

use super::deadline::Deadline;
use super::distinct::FailureOrigin;
use super::erased::{AnyInputs, DynProperty};
use super::shrinker::{ShrinkLimits, Shrunk};
use super::watch::Watch;
use crate::config::Shrinker;
use pbt_core::choices::{Replay, Replayed};
use pbt_core::shrink::choices::{Attempt, ChoiceShrinker, ReplayMode, Trial};
use pbt_core::Binding;

/// The smallest failing input so far, as the test of candidates keeps it.
struct Best {
    inputs: AnyInputs,
    reason: String,
    shown: Vec<Binding>,
}

/// The failing input the integrated shrinker starts from, as its caller
/// generated it.
#[derive(Debug)]
pub struct Start<'a> {
    /// The input (it stays the caller's).
    pub inputs: &'a dyn std::any::Any,
    /// The choices that generate it, their bounds and blocks.
    pub traced: Replayed,
    /// It, printed, when it was printed whole: the first step is compared
    /// with this; else with `inputs`, up to the first difference (a long
    /// input is never printed whole).
    pub shown: Option<Vec<Binding>>,
    /// The origin a candidate must fail with to be taken, when shrinking
    /// stays on it (`Config::report_multiple`: a candidate that fails
    /// another way is another bug); `None`: any failure is taken.
    pub origin: Option<FailureOrigin>,
}

/// Shrink the choices of `start` (failing at `size` for `reason`) with
/// the passes of [`ChoiceShrinker`], within `limits`. Each candidate is
/// replayed and checked under `watch` ([`DynProperty::replay_and_check`]:
/// a replay slower than the time limit is skipped, and a candidate whose
/// choices make no progress is not checked); `on_step` sees each accepted
/// input, printed. When no
/// candidate is taken, `regenerate` makes the result; `None` when it no
/// longer generates.
///
/// Shrinking may move to another size (see [`pbt_core::shrink::choices::ReplayMode`]'s
/// `Resize` and `Widen`); the choices returned replay at the size it ended
/// at ([`Shrunk::size`]).
#[allow(clippy::too_many_arguments)]
pub fn shrink_choices(
    prop: &dyn DynProperty,
    watch: &Watch,
    start: Start<'_>,
    size: usize,
    reason: String,
    limits: ShrinkLimits,
    regenerate: impl FnOnce() -> Option<AnyInputs>,
    mut on_step: impl FnMut(&[Binding]),
) -> Option<Shrunk> {
    let deadline = Deadline::new(limits.max_time);
    // The smallest failing input taken so far (`None`: the original).
    let mut best: Option<Best> = None;
    let (original, traced, original_shown) = (start.inputs, start.traced, start.shown);
    let origin = start.origin;
    let (mut steps, mut out_of_limits) = (0u64, false);
    // The buffers of the last rejected replay, for the next one.
    let mut spare = None;
    // Each taken candidate is printed into the strings of the one before.
    let mut printed = Vec::new();
    let test = |attempt: Attempt<'_>| {
        if steps >= limits.max_steps || deadline.passed() {
            out_of_limits = true;
            return Trial::Stop;
        }
        // A rejected replay's buffers, or those of the sequence the last
        // step replaced.
        let replay = match spare.take().or_else(|| attempt.spare.take()) {
            Some(spare) => Replay::reusing(attempt.candidate, spare),
            None => Replay::new(attempt.candidate),
        };
        let mut replay = match attempt.mode {
            ReplayMode::Reencode => replay.saturate(),
            ReplayMode::Simplify | ReplayMode::Resize | ReplayMode::Widen => replay,
        };
        // Regenerating a candidate is watched like a test: one that never
        // returns is a hang the watchdog reports. Its check runs only when
        // the choices it used make progress.
        let checked = prop.replay_and_check(&mut replay, attempt.size, watch, &mut |used| {
            attempt.progress(used)
        });
        let replayed = replay.into_replayed();
        // A failure of another origin is another bug: not this one's step.
        let checked = checked.filter(|(_, why)| {
            (origin.as_ref()).is_none_or(|origin| FailureOrigin::of(why) == *origin)
        });
        // A wider size that grows no bound is no step (the shrinker takes
        // none): not printed to see that it keeps the value.
        let checked = checked
            .filter(|_| attempt.mode != ReplayMode::Widen || replayed.bounds != attempt.bounds);
        let Some((inputs, why)) = checked else {
            // A replay that read a prefix of the candidate as it is, and no
            // more, rejects every candidate that begins with it.
            let read = replayed.choices.len();
            let trial = match attempt.mode {
                ReplayMode::Simplify | ReplayMode::Reencode
                    if attempt.candidate.get(..read) == Some(&replayed.choices[..]) =>
                {
                    Trial::NotAStepReading(read)
                }
                _ => Trial::NotAStep,
            };
            spare = Some(replayed);
            return trial;
        };
        // Only progress that shows counts as a step. Smaller choices that
        // generate the same value (bits a generator ignores, such as `0`
        // drawn in the "any" kind) are taken silently: the passes would
        // otherwise propose them again in every round. A re-encoding or a
        // wider size must keep the value, a smaller size change it (else
        // the size would go down and up again).
        prop.print_any_into(&*inputs, &mut printed);
        let same = match (&best, &original_shown) {
            (Some(best), _) => printed == best.shown,
            (None, Some(shown)) => printed == *shown,
            (None, None) => prop.prints_as_any(original, &printed),
        };
        let wrong = match attempt.mode {
            ReplayMode::Simplify => false,
            ReplayMode::Resize => same,
            ReplayMode::Reencode | ReplayMode::Widen => !same,
        };
        if wrong {
            spare = Some(replayed);
            // A smaller size that gives the same value: the size search
            // stops here.
            return match attempt.mode {
                ReplayMode::Resize => Trial::Unchanged,
                _ => Trial::NotAStep,
            };
        }
        if !same {
            on_step(&printed);
            steps += 1;
        }
        match &mut best {
            // The buffer of the step before is the next one's.
            Some(best) => {
                (best.inputs, best.reason) = (inputs, why);
                if !same {
                    std::mem::swap(&mut best.shown, &mut printed);
                }
            }
            None => {
                best = Some(Best {
                    inputs,
                    reason: why,
                    shown: std::mem::take(&mut printed),
                })
            }
        }
        Trial::Shrunk(replayed)
    };
    let mut shrinker = ChoiceShrinker::new(traced, size, test).resizing(true);
    shrinker.run();
    // The choices replay the shrunk input at the size shrinking ended at
    // (which may not be the one the failure was found at).
    let (attempts, at) = (shrinker.attempts(), shrinker.size());
    let shrunk = shrinker.choices().to_vec();
    drop(shrinker);
    let (inputs, reason) = match best {
        Some(best) => (best.inputs, best.reason),
        None => (regenerate()?, reason),
    };
    Some(Shrunk {
        inputs,
        choices: Some(shrunk),
        size: at,
        path: Vec::new(),
        reason,
        steps,
        attempts,
        stopped_early: out_of_limits,
        interrupted: None,
        shrinker: Shrinker::Integrated,
    })
}

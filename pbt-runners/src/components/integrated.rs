//! The integrated shrinker (*Programmable Property-Based Testing*, §2.2,
//! Fig. 4; Hypothesis, Hedgehog, falsify): minimise the choice sequence an
//! input was generated from, and regenerate each candidate through the
//! property's own generators, so every candidate satisfies whatever the
//! generators guarantee.
//!
//! The passes are [`pbt_core::choices::ChoiceShrinker`]'s (halve long
//! collections; delete, zero, join and reorder blocks; replace a recursive
//! layer by a nested one; minimise choices by binary search, shrink
//! duplicates, lower pairs, redistribute; widen and shrink the size;
//! re-encode), which never run a rejected candidate twice. This module runs
//! their candidates: each is replayed under the watchdog and taken only if
//! the choices its replay used are smaller in shortlex order (which
//! guarantees termination) and it still fails. It is a step (counted, and
//! shown while shrinking) when the printed value changed; smaller choices
//! for the same value are taken silently; a re-encoding or a wider size
//! must keep the value. Every replay counts as an attempt.

use super::erased::{AnyInputs, DynProperty, Generation};
use super::shrinker::{ShrinkLimits, Shrunk};
use super::watchdog::Watch;
use crate::config::Shrinker;
use pbt_core::choices::{Attempt, ChoiceShrinker, Choices, Replay, Replayed, Step, Trial};
use pbt_core::Binding;
use std::time::Instant;

/// The smallest failing input so far, as the test of candidates keeps it.
struct Best {
    inputs: AnyInputs,
    reason: String,
    shown: Vec<Binding>,
}

/// Shrink `choices` (which generate a failing input at `size`, failing
/// for `reason` and printed as `shown`) with the passes of
/// [`ChoiceShrinker`], within `limits`. The failing input is
/// regenerated from the choices (the one replay that also marks their
/// blocks); when that replay does not give the same choices (a generator
/// that depends on more than its choices), `regenerate` makes it instead
/// and the passes see no blocks. `None` when neither generates it. Each
/// regeneration runs under `watch` (a candidate slower than the time limit
/// is skipped); `on_step` sees each accepted input, printed.
///
/// Shrinking may move to another size (see [`pbt_core::choices::Step`]'s
/// `Resize` and `Widen`); the choices returned replay at the size it ended
/// at ([`Shrunk::size`]).
#[allow(clippy::too_many_arguments)]
pub fn shrink_choices(
    prop: &dyn DynProperty,
    watch: &Watch,
    choices: Choices,
    size: usize,
    (reason, shown): (String, Vec<Binding>),
    limits: ShrinkLimits,
    regenerate: impl FnOnce() -> Option<AnyInputs>,
    mut fails: impl FnMut(&AnyInputs) -> Option<String>,
    mut on_step: impl FnMut(&[Binding]),
) -> Option<Shrunk> {
    let began = Instant::now();
    // The failing input and the blocks of its choices: one replay (counted).
    let (failing, start) = match replay(prop, watch, &choices, size, Step::Simplify, None) {
        Some((inputs, replayed)) if replayed.choices == choices => (inputs, replayed),
        _ => (
            regenerate()?,
            Replayed {
                choices,
                ..Replayed::default()
            },
        ),
    };
    let mut best = Best {
        inputs: failing,
        reason,
        shown,
    };
    let (mut steps, mut out_of_limits) = (0u64, false);
    // The buffers of the last rejected replay, for the next one.
    let mut spare = None;
    let test = |attempt: Attempt<'_>| {
        if steps >= limits.max_steps || began.elapsed() >= limits.max_time {
            out_of_limits = true;
            return Trial::Stop;
        }
        let Some((inputs, replayed)) = replay(
            prop,
            watch,
            attempt.candidate,
            attempt.size,
            attempt.step,
            spare.take(),
        ) else {
            return Trial::Rejected;
        };
        if !attempt.progress(&replayed.choices) {
            spare = Some(replayed);
            return Trial::Rejected;
        }
        let Some(why) = fails(&inputs) else {
            spare = Some(replayed);
            return Trial::Rejected;
        };
        // Only progress that shows counts as a step. Smaller choices that
        // generate the same value (bits a generator ignores, such as `0`
        // drawn in the "any" kind) are taken silently: the passes would
        // otherwise propose them again in every round. A re-encoding or a
        // wider size must keep the value, a smaller size change it (else
        // the size would go down and up again).
        let printed = prop.print_any(&*inputs);
        let same = printed == best.shown;
        let wrong = match attempt.step {
            Step::Simplify => false,
            Step::Resize => same,
            Step::Reencode | Step::Widen => !same,
        };
        if wrong {
            spare = Some(replayed);
            // A smaller size that gives the same value: the size search
            // stops here.
            return match attempt.step {
                Step::Resize => Trial::Unchanged,
                _ => Trial::Rejected,
            };
        }
        if !same {
            on_step(&printed);
            steps += 1;
        }
        best = Best {
            inputs,
            reason: why,
            shown: printed,
        };
        Trial::Shrunk(replayed)
    };
    let mut shrinker = ChoiceShrinker::new(start, size, test).resizing(true);
    shrinker.run();
    // The choices replay the shrunk input at the size shrinking ended at
    // (which may not be the one the failure was found at).
    let (attempts, at) = (shrinker.attempts() + 1, shrinker.size());
    let shrunk = shrinker.choices().to_vec();
    drop(shrinker);
    Some(Shrunk {
        inputs: best.inputs,
        choices: Some(shrunk),
        size: at,
        path: Vec::new(),
        reason: best.reason,
        steps,
        attempts,
        stopped_early: out_of_limits,
        interrupted: None,
        shrinker: Shrinker::Integrated,
    })
}

/// Regenerate the inputs from `candidate` at `size` under `watch` (into
/// the buffers of `spare`, if given): the inputs and the choices and blocks
/// the replay used, or `None` when they do not generate (or took too long).
fn replay(
    prop: &dyn DynProperty,
    watch: &Watch,
    candidate: &[u64],
    size: usize,
    step: Step,
    spare: Option<Replayed>,
) -> Option<(AnyInputs, Replayed)> {
    let replay = match spare {
        Some(spare) => Replay::reusing(candidate, spare),
        None => Replay::new(candidate),
    };
    let mut replay = match step {
        Step::Reencode => replay.saturate(),
        Step::Simplify | Step::Resize | Step::Widen => replay,
    };
    // Regenerating a candidate is watched like a test: one that never
    // returns is a hang the watchdog reports.
    let ticket = watch.start();
    let generated = prop.generate_from(&mut replay, size);
    let overran = watch.finish(ticket);
    let Generation::Generated(inputs) = generated else {
        return None;
    };
    if overran {
        return None;
    }
    Some((inputs, replay.into_replayed()))
}

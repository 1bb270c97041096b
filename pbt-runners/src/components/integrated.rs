//! The integrated shrinker (*Programmable Property-Based Testing*, §2.2,
//! Fig. 4; Hypothesis, Hedgehog, falsify): minimise the choice sequence an
//! input was generated from, and regenerate each candidate through the
//! property's own generators, so every candidate satisfies whatever the
//! generators guarantee.
//!
//! Candidates come from [`pbt_core::choices::simplifications`] (delete and
//! zero spans, minimise single choices, reorder blocks, lower pairs and
//! duplicates together, redistribute between pairs), then, at their local
//! minimum, [`pbt_core::choices::reencodings`]. A candidate is kept only if
//! it still fails and the choices its regeneration actually used are smaller
//! in shortlex order, which guarantees termination.

use super::erased::{AnyInputs, DynProperty, Generation};
use super::shrinker::{descend, Descent, ShrinkLimits, Shrunk};
use super::watchdog::Watch;
use crate::config::Shrinker;
use pbt_core::choices::{reencodings, shortlex_lt, simplifications, Choices, Replay};

/// Where a candidate comes from, which decides how it is replayed and whether
/// it must change the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// One of [`simplifications`]: replayed as is, and must change the value.
    Simplify,
    /// One of [`reencodings`]: replayed saturating, and must keep the value.
    Reencode,
}

/// Shrink `choices` (which generate `failing` at `size`): take the first
/// simplification whose regeneration still fails, and start again from it.
/// Each regeneration runs under `watch` (a candidate slower than the time
/// limit is skipped).
#[allow(clippy::too_many_arguments)]
pub fn shrink_choices(
    prop: &dyn DynProperty,
    watch: &Watch,
    failing: AnyInputs,
    choices: Choices,
    size: usize,
    reason: String,
    limits: ShrinkLimits,
    mut fails: impl FnMut(&AnyInputs) -> Option<String>,
    mut on_step: impl FnMut(&AnyInputs),
) -> Shrunk {
    let shown = prop.print_any(&*failing);
    let Descent {
        point: (inputs, choices, reason, _),
        steps,
        attempts,
        stopped_early,
    } = descend(
        (failing, choices, reason, shown),
        limits,
        |(_, current, _, shown), budget| {
            // Simplifications first; at their local minimum, re-encodings
            // (the same value in a simpler kind, so no progress shows yet).
            let simpler = simplifications(current).map(|c| (c, Step::Simplify));
            let reencoded = reencodings(current).map(|c| (c, Step::Reencode));
            simpler
                .chain(reencoded)
                .take_while(|_| budget.tick())
                .find_map(|(candidate, step)| {
                    // Regenerating a candidate is watched like a test: one
                    // that never returns is a hang the watchdog reports.
                    let mut replay = match step {
                        Step::Simplify => Replay::new(&candidate),
                        Step::Reencode => Replay::saturating(&candidate),
                    };
                    let ticket = watch.start();
                    let generated = prop.generate_from(&mut replay, size);
                    let overran = watch.finish(ticket);
                    let Generation::Generated(inputs) = generated else {
                        return None;
                    };
                    if overran {
                        return None;
                    }
                    let used = replay.into_used();
                    // A deletion that the replay pads back (the generator
                    // drew past the shortened end) deleted nothing: with the
                    // choice it lowered, it is a one-step nudge of an earlier
                    // value, which would crowd out the binary searches of the
                    // later passes, one step at a time.
                    if candidate.len() < current.len() && used.len() >= current.len() {
                        return None;
                    }
                    // Only progress that shows: smaller choices that generate
                    // the same value (bits a generator ignores) are not a
                    // step. A re-encoding is the opposite: it must keep the
                    // value (a re-encoding that changes it is a one-choice
                    // nudge that simplifications do better), and is tried only
                    // once nothing else makes progress.
                    let printed = prop.print_any(&*inputs);
                    let same = &printed == shown;
                    if !shortlex_lt(&used, current) || same != (step == Step::Reencode) {
                        return None;
                    }
                    fails(&inputs).map(|why| (inputs, used, why, printed))
                })
        },
        |(inputs, _, _, _)| on_step(inputs),
    );
    Shrunk {
        inputs,
        choices: Some(choices),
        reason,
        steps,
        attempts,
        stopped_early,
        interrupted: None,
        shrinker: Shrinker::Integrated,
    }
}

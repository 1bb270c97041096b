//! The external shrinker's candidates for a variable with a generator:
//! its recorded choices simplified ([`ElementDeletions`] first, then
//! [`simplifications_by_bisection`]), each replayed through the generator,
//! and kept when the replay generates a value from choices smaller than the
//! recorded ones and not seen before.
//!
//! What does not depend on the variable's type, the walk over candidate
//! choices ([`ChoiceWalk`]), is compiled once here; what does, the replay
//! through the generator, is one small loop ([`ByChoices::next`]) per
//! variable. Written as adapters over the candidates, the whole walk was
//! compiled again for every variable of every property
//! (`docs/benchmarks.md`, "Compile time").

use super::element_deletions::ElementDeletions;
use crate::choices::{shortlex_lt, Block, Choices, Replay, Replayed};
use crate::shrink::choices::simplifications_by_bisection;

/// The candidates of a variable whose value `generate` regenerates from a
/// replay (`None` when the generator rejects or panics), for the value the
/// choices `recorded` generated: each with the choices its replay used.
pub(super) struct ByChoices<'a, F> {
    walk: ChoiceWalk<'a>,
    generate: F,
}

impl<'a, F> ByChoices<'a, F> {
    pub(super) fn new(recorded: &'a [u64], generate: F) -> Self {
        ByChoices {
            walk: ChoiceWalk {
                recorded,
                candidates: None,
                seen: Vec::new(),
                spare: None,
            },
            generate,
        }
    }
}

impl<T, F: FnMut(&mut Replay<'_>) -> Option<T>> Iterator for ByChoices<'_, F> {
    type Item = (T, Option<Choices>);

    fn next(&mut self) -> Option<(T, Option<Choices>)> {
        if self.walk.candidates.is_none() {
            // The replay that marks the elements runs at the first
            // candidate, where the runner watches for hangs.
            let mut replay = Replay::new(self.walk.recorded);
            let generated = (self.generate)(&mut replay).is_some();
            let blocks = generated.then(|| replay.into_replayed().blocks);
            self.walk.start(blocks.unwrap_or_default());
        }
        loop {
            let candidate = self.walk.next_candidate()?;
            let mut replay = self.walk.replay(&candidate);
            let value = (self.generate)(&mut replay);
            if let Some(used) = self.walk.judge(replay, candidate.len(), value.is_some()) {
                return value.map(|v| (v, Some(used)));
            }
        }
    }
}

/// The walk over candidate choices, for any variable's type.
struct ChoiceWalk<'a> {
    recorded: &'a [u64],
    /// Made at the first candidate ([`ChoiceWalk::start`]).
    candidates: Option<Box<dyn Iterator<Item = Choices> + 'a>>,
    /// The choices each candidate so far used, hashed: passes that reach
    /// the same choices (the empty list, say, by deleting every element, by
    /// zeroing the length and by deleting every choice) make one
    /// candidate, not one each.
    seen: Vec<u64>,
    /// The buffers of the last replay (all of them when its candidate was
    /// turned down, but for its choices when not): the next replay reuses
    /// them.
    spare: Option<Replayed>,
}

impl<'a> ChoiceWalk<'a> {
    /// Only progress that shows is a step: a candidate that prints as the
    /// value it came from (smaller choices in bits the generator ignores)
    /// is turned down by the runner, which prints only the candidates that
    /// fail. Whole elements deleted first (near-linear on a long list that
    /// keeps failing), as the replay of the recorded choices marked them
    /// (`blocks`); then the choice-level passes, among them each choice
    /// lowered by binary search.
    fn start(&mut self, blocks: Vec<Block>) {
        let recorded = self.recorded;
        let deletions = ElementDeletions::new(recorded, blocks);
        self.candidates = Some(Box::new(
            deletions.chain(simplifications_by_bisection(recorded)),
        ));
    }

    fn next_candidate(&mut self) -> Option<Choices> {
        self.candidates.as_mut()?.next()
    }

    /// A replay of `candidate` into the spare buffers.
    fn replay<'c>(&mut self, candidate: &'c [u64]) -> Replay<'c> {
        match self.spare.take() {
            Some(buffers) => Replay::reusing(candidate, buffers),
            None => Replay::new(candidate),
        }
    }

    /// The choices `replay` used when its candidate (of `len` choices)
    /// generated a value, from choices smaller than the recorded ones and
    /// new; `None` when it is no candidate. Keeps the replay's buffers.
    fn judge(&mut self, replay: Replay<'_>, len: usize, generated: bool) -> Option<Choices> {
        let Replayed {
            choices: used,
            bounds,
            blocks,
            integers,
        } = replay.into_replayed();
        let keep = |choices| {
            self.spare = Some(Replayed {
                choices,
                bounds,
                blocks,
                integers,
            })
        };
        if !generated {
            keep(used);
            return None;
        }
        // A deletion the replay pads back deleted nothing: with the choice
        // it lowered it is a one-step nudge, which would crowd out the
        // binary searches of later passes.
        let padded = len < self.recorded.len() && used.len() >= self.recorded.len();
        let smaller = shortlex_lt(&used, self.recorded) && !padded;
        if smaller && first_seen(&mut self.seen, &used) {
            // Its choices go with the candidate: the next replay's are
            // made as large as its recorded ones.
            keep(Vec::with_capacity(self.recorded.len()));
            Some(used)
        } else {
            keep(used);
            None
        }
    }
}

/// Whether `used` is seen for the first time, noting it in `seen` (sorted
/// hashes). A multiplicative hash (FxHash's constant): hashing with SipHash
/// into a `HashSet` cost more than the replays it saved.
fn first_seen(seen: &mut Vec<u64>, used: &[u64]) -> bool {
    let hash = used.iter().fold(used.len() as u64, |h, &c| {
        (h.rotate_left(5) ^ c).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
    });
    match seen.binary_search(&hash) {
        Ok(_) => false,
        Err(at) => {
            seen.insert(at, hash);
            true
        }
    }
}

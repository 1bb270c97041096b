//! What an input is, wherever it comes from: the seed and size of a fresh
//! case ([`CaseSeed`], numbered by [`case_at`]), and a replayable [`Found`]
//! (a case seed, a choice sequence, or value mutations and shrink steps
//! from either) that the regressions file saves and every runner replays.

use pbt_core::source::mix;

/// The seed and size of one fresh test case: what generates its inputs
/// (a generated test case, environment and choices, is a
/// [`pbt_core::Case`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CaseSeed {
    /// Seed of this case's [`pbt_core::Rng`].
    pub seed: u64,
    /// Size handed to the generators.
    pub size: usize,
}

impl CaseSeed {
    /// A fresh source for this case.
    #[inline]
    pub fn rng(&self) -> pbt_core::Rng {
        pbt_core::Rng::from_seed(self.seed)
    }
}

/// Where a test input comes from: a case (seed and size), a choice
/// sequence (an input found by mutating choices, which no seed generates),
/// another input mutated by value, or another input shrunk by the
/// external shrinker. Each is replayed exactly.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Found {
    /// Generated from a case's seed.
    Case(CaseSeed),
    /// Replayed from choices at a size.
    Choices {
        /// The choice sequence.
        choices: Vec<u64>,
        /// The size it is replayed at.
        size: usize,
    },
    /// `base`'s input mutated by value ([`pbt_core::Property::mutate`])
    /// once per step, each step with a fresh [`pbt_core::Rng`] seeded by it.
    Mutated {
        /// The input mutated: a case or a choice sequence.
        base: Box<Found>,
        /// The seed of each mutation, in order.
        steps: Vec<u64>,
    },
    /// `base`'s input shrunk by [`pbt_core::Property::shrink`] along
    /// `path`: each step takes the candidate at that index (counting from
    /// 0) among the shrink candidates of the input so far. What the
    /// external shrinker's result is saved as (no choice sequence
    /// generates it).
    Shrunk {
        /// The input shrunk: a case, a choice sequence or a mutant.
        base: Box<Found>,
        /// The index of the candidate taken at each step, in order.
        path: Vec<u64>,
    },
}

impl Found {
    /// The size the input is generated at.
    pub fn size(&self) -> usize {
        match self {
            Found::Case(c) => c.size,
            Found::Choices { size, .. } => *size,
            Found::Mutated { base, .. } | Found::Shrunk { base, .. } => base.size(),
        }
    }

    /// Whether a choice sequence generates this input (a case or choices),
    /// rather than value mutation or the external shrinker.
    ///
    /// ```
    /// use pbt_runners::components::{CaseSeed, Found};
    /// let case = Found::Case(CaseSeed { seed: 7, size: 3 });
    /// assert!(case.has_choices());
    /// assert!(!case.mutated(1).has_choices());
    /// ```
    pub fn has_choices(&self) -> bool {
        matches!(self, Found::Case(_) | Found::Choices { .. })
    }

    /// This input mutated by value once more, with the mutation seeded by
    /// `step`.
    ///
    /// ```
    /// use pbt_runners::components::{CaseSeed, Found};
    /// let case = Found::Case(CaseSeed { seed: 7, size: 3 });
    /// let twice = case.mutated(1).mutated(2);
    /// assert_eq!(twice, Found::Mutated { base: Box::new(case), steps: vec![1, 2] });
    /// ```
    pub fn mutated(&self, step: u64) -> Found {
        match self {
            Found::Mutated { base, steps } => {
                let mut steps = steps.clone();
                steps.push(step);
                Found::Mutated {
                    base: base.clone(),
                    steps,
                }
            }
            base => Found::Mutated {
                base: Box::new(base.clone()),
                steps: vec![step],
            },
        }
    }

    /// This input with every size above `ceiling` lowered to it (a saved
    /// size of 10¹² must not be allocated).
    ///
    /// ```
    /// use pbt_runners::components::{CaseSeed, Found};
    /// let huge = Found::Case(CaseSeed { seed: 1, size: 1 << 40 }).mutated(3);
    /// assert_eq!(huge.clamped(100).size(), 100);
    /// ```
    pub fn clamped(self, ceiling: usize) -> Found {
        match self {
            Found::Case(case) => Found::Case(CaseSeed {
                size: case.size.min(ceiling),
                ..case
            }),
            Found::Choices { choices, size } => Found::Choices {
                choices,
                size: size.min(ceiling),
            },
            Found::Mutated { base, steps } => Found::Mutated {
                base: Box::new(base.clamped(ceiling)),
                steps,
            },
            Found::Shrunk { base, path } => Found::Shrunk {
                base: Box::new(base.clamped(ceiling)),
                path,
            },
        }
    }

    /// How many value mutations lead to this input.
    pub fn mutations(&self) -> usize {
        match self {
            Found::Mutated { steps, .. } => steps.len(),
            Found::Shrunk { base, .. } => base.mutations(),
            _ => 0,
        }
    }
}

/// The `n`th fresh case of the run seeded `seed` under the size schedule
/// `sizes` and `max_size` as [`super::Cases::schedule`] gives them: what
/// [`super::Plan::case`] gives, without the plan (the watchdog and the crash
/// handler work out the case in flight from a ticket).
pub(crate) fn case_at(seed: u64, n: u64, sizes: u64, max_size: usize) -> CaseSeed {
    let size = match sizes {
        0 => match (max_size as u64).checked_add(1) {
            Some(period) => (n % period) as usize,
            None => n as usize,
        },
        1 => (u64::BITS - n.leading_zeros()) as usize,
        fixed => usize::try_from(fixed - 2).unwrap_or(usize::MAX),
    };
    CaseSeed {
        seed: case_seed(seed, n),
        size: size.min(max_size),
    }
}

/// The seed of the `n`th fresh case of the run seeded `seed`. (Output `n`
/// of SplitMix64 from `seed` would take one mix instead of two, but would
/// give every run seed other cases than it always has: `tests/seeds.rs`
/// pins them.)
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(super) fn case_seed(seed: u64, n: u64) -> u64 {
    mix(seed ^ mix(n))
}

/// The largest size a saved case is replayed at when `max_size` is smaller:
/// a case saved under a larger `max_size` replays exactly up to this size.
pub const MAX_SAVED_SIZE: usize = 10_000;

/// A found input in words.
pub(crate) fn describe(found: &Found) -> String {
    match found {
        Found::Case(case) => format!("the case with seed {:#x} at size {}", case.seed, case.size),
        Found::Choices { choices, size } => {
            format!("an input of {} choices at size {size}", choices.len())
        }
        Found::Mutated { steps, base } => {
            format!("{} mutated by value {} times", describe(base), steps.len())
        }
        Found::Shrunk { path, base } => {
            format!("{} shrunk by value {} times", describe(base), path.len())
        }
    }
}

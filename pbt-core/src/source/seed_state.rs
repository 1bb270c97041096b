//! [`SeedState`]: the starting state of a generator, worked out ahead of the
//! generator that will start from it.

use super::mix;

/// SplitMix64's increment: word `k` of a seeded state mixes
/// `seed + k * GAMMA`.
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// The starting state of an [`Rng`](super::Rng) seeded with some seed,
/// worked out ahead of the generator that will start from it
/// ([`Rng::restart`](super::Rng::restart)).
///
/// Seeding is four chains of multiplications that nothing in a test feeds:
/// a loop that seeds a generator per test can work out the next test's
/// state while the current test runs, instead of waiting for it when the
/// test starts. The state is the one [`Rng::from_seed`](super::Rng::from_seed)
/// starts from (four SplitMix64 outputs, as
/// `Xoshiro256PlusPlus::seed_from_u64`), so the draws are the same.
///
/// ```
/// use pbt_core::source::SeedState;
/// use pbt_core::{Rng, Source};
/// let ahead = SeedState::new(42);
/// let mut rng = Rng::from_seed(1).limited(1000, 1 << 20);
/// rng.draw(9);
/// rng.restart(ahead);
/// let mut fresh = Rng::from_seed(42);
/// assert_eq!(rng.draw(1 << 40), fresh.draw(1 << 40));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedState {
    pub(super) s: [u64; 4],
}

impl SeedState {
    /// The state `Rng::from_seed(seed)` starts from.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn new(seed: u64) -> Self {
        SeedState { s: words(seed) }
    }
}

/// The four words, one multiplication chain each.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(super) fn words(seed: u64) -> [u64; 4] {
    let word = |k: u64| mix(seed.wrapping_add(k.wrapping_mul(GAMMA)));
    [word(0), word(1), word(2), word(3)]
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::{Rng, Source};

    #[test]
    fn a_restarted_generator_draws_as_a_fresh_one() {
        let seeds = (0..10_000u64)
            .map(|i| i.wrapping_mul(0xd1b5_4a32_d192_ed03) ^ (i << 7))
            .chain([0, 1, u64::MAX, GAMMA, GAMMA.wrapping_neg(), 1 << 63]);
        let mut rng = Rng::from_seed(0).limited(1 << 20, 1 << 20);
        for seed in seeds {
            rng.draw(99);
            rng.restart(SeedState::new(seed));
            let mut fresh = Rng::from_seed(seed);
            for _ in 0..8 {
                assert_eq!(rng.draw(u64::MAX), fresh.draw(u64::MAX), "seed {seed:#x}");
            }
        }
    }
}

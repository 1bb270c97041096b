//! ETNA's bespoke IFC recipe (`ifc::gen::variation`) over the cheapest
//! randomness there is, so that `valgrind --tool=callgrind` can count what
//! the recipe itself costs — building the states, the same code in every
//! library — apart from any library's draws (docs/etna.md, "What bounds the
//! ratio on IFC"):
//!
//! ```sh
//! valgrind --tool=callgrind --toggle-collect='ifc_recipe_cost::build' \
//!     target/release/examples/ifc_recipe_cost N
//! ```
//!
//! for N = 1 000 and 2 000: the difference over 1 000 is one pair, its
//! draws (`Counter::below`, inclusive) and its drop included.

use pbt_eval::ifc::gen::variation;
use pbt_eval::stlc::gen::Draw;

/// SplitMix64 with a multiply-shift into `0..n`, counting its draws: about
/// a dozen instructions a draw.
struct Counter {
    state: u64,
    draws: u64,
}

impl Draw for Counter {
    #[inline(never)] // counted apart from the recipe
    fn below(&mut self, n: u64) -> u64 {
        self.draws += 1;
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let z = (self.state ^ (self.state >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        ((u128::from(z) * u128::from(n)) >> 64) as u64
    }
}

/// `n` pairs at the sizes `0..=7` in turn (QuickChick's), each dropped
/// after use; returns a checksum so that nothing is optimised away.
#[inline(never)] // the span callgrind counts
fn build(d: &mut Counter, n: usize) -> usize {
    (0..n).map(|i| variation(d, i % 8).st1.regs.len()).sum()
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let mut d = Counter { state: 1, draws: 0 };
    let sum = build(&mut d, n);
    println!("{n} pairs, {} draws (checksum {sum})", d.draws);
}

//! Magnitude first for wide integers.
//!
//! - [`lower_magnitude`]: give an `Arbitrary` 128-bit integer (its value
//!   drawn as two choices, the high half first) a value of each smaller
//!   bit length in turn, from the smallest, made of its own bits.
//!
//! The other passes lower one choice at a time: the high half to the least
//! that still fails with the low half as it is, then the low half. A
//! failure whose region depends on both halves (a conversion that rounds
//! twice, wrong just above `2^64` and from `2^117` on) then ends at the
//! largest region's edge, `2^117 + 2^64 + 1`, where no single choice goes
//! lower; the order a user reads is magnitude. This pass runs first, while
//! the value still has the random bits it was drawn with: a value of a
//! smaller magnitude made of them lands in a failing region as often as a
//! random value of that magnitude does, which is what bisecting the whole
//! value (proptest's and quickcheck's integer shrinkers) relies on.

use super::shrinker::{ChoiceShrinker, ReplayMode, ShrinkTest, Shrinking};

/// How many values of each bit length [`lower_magnitude`] tries, and of
/// the length one bit below the integer's own: a failing region just
/// below it (a boundary the value was drawn past) is found on every seed
/// when one in six of its values fails.
const PER_LENGTH: (u32, u32) = (8, 32);

/// The kind choices of an `Arbitrary` integer whose value may be any of its
/// type's (see `arbitrary.rs`: kinds `4..=6` of `0..=7`).
const ANY_KINDS: std::ops::RangeInclusive<u64> = 4..=6;

/// The value choice `c` of a 128-bit integer (zigzag for signed types, so
/// a smaller choice is never a larger magnitude) at each bit length below
/// its own, from 1 bit on ([`of_length`]). A value of a smaller bit
/// length is a smaller choice, and a smaller magnitude.
fn smaller_magnitudes(c: u128) -> impl Iterator<Item = u128> {
    let len = 128 - c.leading_zeros();
    (1..len).flat_map(move |bits| of_length(c, len, bits, tries(bits, len)))
}

/// How many values of `bits` bits the search below a value of `len` bits
/// tries ([`PER_LENGTH`]: more one bit below).
pub(crate) fn tries(bits: u32, len: u32) -> u32 {
    if bits + 1 == len {
        PER_LENGTH.1
    } else {
        PER_LENGTH.0
    }
}

/// `tries` values of `bits` bits (fewer than `len`, the bit length of `c`)
/// made of `c`'s bits, cut to the length with its top bit set: its top
/// bits, its bits rotated by a quarter, a half and three quarters, and its
/// bits mixed by multiplying (which gives bits as spread as a fresh
/// draw's even once the other passes have made `c` simple, so each round
/// tries other values). Also the float shrinker's, for an integer's
/// significand.
pub(crate) fn of_length(c: u128, len: u32, bits: u32, tries: u32) -> impl Iterator<Item = u128> {
    // An odd 128-bit constant (the digits of pi): multiplying by it mixes.
    const MIX: u128 = 0x243f_6a88_85a3_08d3_1319_8a2e_0370_7345;
    let (top, mask) = (1u128 << (bits - 1), (1u128 << bits) - 1);
    (0..tries).map(move |r| {
        let from = match r {
            0 => c >> (len - bits),
            1..=3 => c.rotate_left(32 * r),
            r => (c ^ u128::from(r)).wrapping_mul(MIX).rotate_left(bits),
        };
        (from & mask) | top
    })
}

/// Whether an `Arbitrary` integer of an "any" kind starts at `at` with a
/// 128-bit value whose high half is not zero (see [`lower_magnitude`]).
fn wide_at<T: ShrinkTest>(s: &ChoiceShrinker<T>, at: usize) -> bool {
    let (cur, bounds) = (s.choices(), s.bounds());
    at + 2 < cur.len()
        && ANY_KINDS.contains(&cur[at])
        && bounds[at + 1] == u64::MAX
        && bounds[at + 2] == u64::MAX
        && cur[at + 1] != 0
}

/// Give each `Arbitrary` 128-bit integer of an "any" kind a value of a
/// smaller bit length: the first that fails, trying the lengths from 1 bit
/// up (see [`smaller_magnitudes`]). An integer is taken for 128 bits where
/// its [mark](crate::choices::Replayed::integers) is followed by two
/// choices drawn with the bound `u64::MAX`; the high one is not zero (a
/// value below `2^64` is one choice's, which the other passes lower by
/// magnitude already). At most `126 × 8 + 32` candidates per integer, and
/// none for sequences without one; then its bits are cleared
/// ([`clear_bits`]).
pub(crate) fn lower_magnitude<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    // Most sequences hold no wide integer: one look, nothing allocated.
    if !s.integers().iter().any(|at| wide_at(s, at)) {
        return Ok(());
    }
    let wide: Vec<usize> = s.integers().iter().filter(|&at| wide_at(s, at)).collect();
    for at in wide {
        // After a step the sequence may be another one.
        if !wide_at(s, at) {
            continue;
        }
        let mut cand = s.choices().to_vec();
        let c = (u128::from(cand[at + 1]) << 64) | u128::from(cand[at + 2]);
        for v in smaller_magnitudes(c) {
            cand[at + 1] = (v >> 64) as u64;
            cand[at + 2] = v as u64;
            if s.consider(&cand, ReplayMode::Simplify)? {
                break;
            }
        }
        clear_bits(s, at)?;
    }
    Ok(())
}

/// Clear the bits of the wide integer at `at` below its top bit, from the
/// highest down, keeping each clearing that still fails, and move a bit
/// that must stay one place lower while that still fails: at its least bit
/// length, the value keeps only the bits the failure needs, each as low as
/// it can be (a rounding tie of `2^64 + lo` needs a dozen of `lo`'s, and a
/// fresh draw's other bits would stay). About two candidates per bit.
fn clear_bits<T: ShrinkTest>(s: &mut ChoiceShrinker<T>, at: usize) -> Shrinking {
    let value = |s: &ChoiceShrinker<T>| {
        let cur = s.choices();
        (u128::from(cur[at + 1]) << 64) | u128::from(cur[at + 2])
    };
    if !wide_at(s, at) {
        return Ok(());
    }
    let top = 127 - value(s).leading_zeros();
    for bit in (0..top).rev() {
        let c = value(s);
        if c & 1u128 << bit == 0 {
            continue;
        }
        let cleared = c & !(1u128 << bit);
        let lowered =
            (bit > 0 && c & 1u128 << (bit - 1) == 0).then(|| cleared | 1u128 << (bit - 1));
        // A tie's bits are tied to each other's places: moving one lower
        // may need one bit below it flipped too (`2^64 + 2^60 + 0x1780`
        // goes on to `2^64 + 2^59 + 0x17c0`, not to `… + 0x1780`), or the
        // run of bits below it cleared at once (`2^53 + 0x17ff` to
        // `2^53 + 0x801`: clearing any one of them alone passes).
        let flipped = lowered.into_iter().flat_map(move |v| {
            let flips = (0..bit - 1).rev().map(move |j| v ^ 1u128 << j);
            let runs =
                (0..bit - 1).map(move |j| v & !(((1u128 << (bit - 1)) - 1) & !((1u128 << j) - 1)));
            flips.chain(runs)
        });
        for v in std::iter::once(cleared).chain(lowered).chain(flipped) {
            let mut cand = s.choices().to_vec();
            cand[at + 1] = (v >> 64) as u64;
            cand[at + 2] = v as u64;
            if s.consider(&cand, ReplayMode::Simplify)? {
                break;
            }
        }
        if !wide_at(s, at) {
            break;
        }
    }
    Ok(())
}

//! [`Bytes`]: a source over a fuzzer's byte buffer, in a compact encoding
//! that byte-level mutations and truncation map onto meaningful changes of
//! the choices. The format is documented on [`Bytes`].

use super::Source;
use crate::overrun::{raise, replay_limit, Overrun, DEFAULT_MAX_DRAWS};

/// A source over a fixed buffer of bytes, as a fuzzer hands them out, in a
/// compact encoding: a draw below `2^k` reads `k` bits, an exhausted buffer
/// yields `0`, the simplest choice.
///
/// # The format
///
/// The buffer is a stream of bits, read from the first byte to the last and
/// within a byte from the least significant bit up. A draw in `0..=max`
/// reads `k` bits, where `k` is the bit width of `max` (`64 -
/// max.leading_zeros()`; `draw(0)` reads nothing and yields `0`):
///
/// - a *small* draw (`k < 8`: a `bool`, an enum variant, a digit) reads its
///   `k` bits from where the last draw stopped, the first bit read being the
///   value's least significant one; it may straddle a byte boundary;
/// - a *wide* draw (`k >= 8`) first skips to the next byte boundary, then
///   reads `ceil(k / 8)` whole bytes, little-endian, and keeps the low `k`
///   bits. A `u8`, `u16`, `u32` or `u64` choice is therefore its own bytes,
///   in order, at a byte offset, where a fuzzer's byte-level mutations and
///   comparison-operand dictionaries can reach it.
///
/// The `k` bits read give a raw number `r < 2^k`. The choice is `r` when
/// `r <= max`, and `r - (max + 1)` otherwise (for `k` bits, `r mod (max +
/// 1)`): every choice in range is reachable, and low choices, the simple
/// ones, are at most twice as likely as high ones.
///
/// Bits past the end of the buffer read as `0`. So:
///
/// - **an empty or short buffer yields the simplest choices**: every draw
///   past the end is `0`;
/// - **truncation simplifies**: cutting the tail turns the last draws into
///   `0`s;
/// - **how much a draw reads depends on its bound only, never on the values
///   drawn**, so changing a byte changes the draws that read it and no
///   other (unless the generator's control flow depends on them, as a
///   collection's length does); adding 1 to the first byte of a wide draw
///   adds 1 to the choice.
///
/// [`Bytes::encode`] writes a choice sequence (with the bound of each draw)
/// in this format, so `Bytes::new(&Bytes::encode(&choices, &bounds))` draws
/// `choices` again: a pbt-found case becomes a fuzzer corpus entry.
///
/// Reading is bounded like a replay: once the buffer is exhausted the source
/// hands out at most 65 536 more zeros plus
/// [`replay_limit`](crate::overrun::replay_limit) of the draws made so far,
/// and then raises [`Overrun::Replay`] (a generator that retries until
/// it draws a non-zero choice would otherwise spin forever on the padding);
/// in all, at most [`DEFAULT_MAX_DRAWS`](crate::overrun::DEFAULT_MAX_DRAWS) draws are made before
/// [`Overrun::Draws`] (`draw(0)` reads no bits).
///
/// ```
/// use pbt_core::{source::Bytes, Source};
/// let mut empty = Bytes::new(&[]);
/// assert_eq!(empty.draw(10), 0);
/// // Four 2-bit draws share a byte, lowest bits first.
/// let mut s = Bytes::new(&[0b11_10_01_00]);
/// assert_eq!([s.draw(3), s.draw(3), s.draw(3), s.draw(3)], [0, 1, 2, 3]);
/// // A wide draw starts at a byte boundary and reads whole bytes.
/// let mut s = Bytes::new(&[1, 0x34, 0x12]);
/// assert_eq!((s.draw(1), s.draw(u16::MAX as u64)), (1, 0x1234));
/// ```
#[derive(Clone, Debug)]
pub struct Bytes<'a> {
    data: &'a [u8],
    /// The next bit to read, counted from the start of `data`.
    bit: usize,
    /// Draws made so far.
    draws: u64,
    /// Parts counted so far (`Source::charge_parts`): they count against
    /// the draw bound with the draws.
    parts: u64,
    /// The draw count when the buffer ran out (once it has).
    exhausted_at: Option<u64>,
}

impl<'a> Bytes<'a> {
    /// A source reading `data` from the start.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes {
            data,
            bit: 0,
            draws: 0,
            parts: 0,
            exhausted_at: None,
        }
    }

    /// How many bytes of the buffer the draws so far have read (the last
    /// one possibly in part); the rest was not looked at.
    ///
    /// ```
    /// use pbt_core::{source::Bytes, Source};
    /// let mut s = Bytes::new(&[7, 7, 7]);
    /// s.draw(1);
    /// assert_eq!(s.consumed(), 1);
    /// s.draw(u16::MAX as u64);
    /// assert_eq!(s.consumed(), 3);
    /// ```
    pub fn consumed(&self) -> usize {
        self.bit.div_ceil(8).min(self.data.len())
    }

    /// The bytes that make [`Bytes`] draw `choices` when each draw `i` asks
    /// for `0..=bounds[i]` (the choices and bounds of a
    /// [`Tracer`](crate::choices::Tracer)). A choice above its bound is
    /// written as `0`, as [`Replay`](crate::choices::Replay) reads it;
    /// trailing zero bytes are dropped (they read as the padding does).
    ///
    /// # Panics
    ///
    /// When `choices` and `bounds` differ in length.
    ///
    /// ```
    /// use pbt_core::{source::Bytes, Source};
    /// let (choices, bounds) = ([1, 0x1234, 5, 0], [1, u16::MAX as u64, 9, 3]);
    /// let bytes = Bytes::encode(&choices, &bounds);
    /// assert_eq!(bytes, [1, 0x34, 0x12, 5]);
    /// let mut s = Bytes::new(&bytes);
    /// let again: Vec<u64> = bounds.iter().map(|&b| s.draw(b)).collect();
    /// assert_eq!(again, choices);
    /// ```
    pub fn encode(choices: &[u64], bounds: &[u64]) -> Vec<u8> {
        assert_eq!(
            choices.len(),
            bounds.len(),
            "Bytes::encode: one bound per choice"
        );
        let mut out = Vec::new();
        let mut bit = 0usize;
        for (&choice, &max) in choices.iter().zip(bounds) {
            let choice = if choice <= max { choice } else { 0 };
            let k = width(max);
            if k >= 8 {
                bit = bit.next_multiple_of(8);
            }
            for b in 0..k {
                let at = bit + b as usize;
                if at / 8 >= out.len() {
                    out.resize(at / 8 + 1, 0);
                }
                if (choice >> b) & 1 == 1 {
                    out[at / 8] |= 1 << (at % 8);
                }
            }
            bit += advance(k);
        }
        while out.last() == Some(&0) {
            out.pop();
        }
        out
    }

    /// Bit `at` of the buffer (`0` past its end).
    #[inline]
    fn bit_at(&self, at: usize) -> u64 {
        self.data
            .get(at / 8)
            .map_or(0, |byte| u64::from((byte >> (at % 8)) & 1))
    }

    /// Count a draw against the limits: the overall draw budget, and the
    /// zeros handed out past the end of the buffer.
    #[inline]
    fn count_draw(&mut self) {
        self.draws += 1;
        if self.draws.saturating_add(self.parts) > DEFAULT_MAX_DRAWS {
            raise(Overrun::Draws {
                limit: DEFAULT_MAX_DRAWS,
            });
        }
        if self.bit >= self.data.len() * 8 {
            let at = *self.exhausted_at.get_or_insert(self.draws - 1);
            let decoded = at as usize;
            if self.draws - at > PADDING + replay_limit(decoded) as u64 {
                raise(Overrun::Replay { recorded: decoded });
            }
        }
    }
}

/// How many zeros past the end of the buffer a source hands out, besides
/// [`replay_limit`] of the draws made before: enough for a generator that
/// draws a fixed number of values (an array, a tuple of collections) from a
/// short input, which should give the simplest value, not a rejection.
const PADDING: u64 = 1 << 16;

/// The bit width of `max`: how many bits a draw in `0..=max` reads.
#[inline]
fn width(max: u64) -> u32 {
    u64::BITS - max.leading_zeros()
}

/// How far a draw of `k` bits moves the cursor (from its aligned start for
/// a wide draw): `k` bits, or whole bytes for a wide draw.
#[inline]
fn advance(k: u32) -> usize {
    if k >= 8 {
        k.div_ceil(8) as usize * 8
    } else {
        k as usize
    }
}

impl Source for Bytes<'_> {
    // Parts count as draws against the draw bound (see
    // `Source::charge_parts`); the draws are counted as they are made.
    fn charge_parts(&mut self, parts: u64, _draws: u64) {
        self.parts = self.parts.saturating_add(parts);
        if self.draws.saturating_add(self.parts) > DEFAULT_MAX_DRAWS {
            raise(Overrun::Draws {
                limit: DEFAULT_MAX_DRAWS,
            });
        }
    }

    fn draw(&mut self, max: u64) -> u64 {
        self.count_draw();
        let k = width(max);
        if k >= 8 {
            self.bit = self.bit.next_multiple_of(8);
        }
        let raw = if k >= 8 && self.bit / 8 + (k as usize).div_ceil(8) <= self.data.len() {
            // The common wide case: whole bytes, all inside the buffer.
            let start = self.bit / 8;
            let mut word = [0u8; 8];
            let n = (k as usize).div_ceil(8);
            word[..n].copy_from_slice(&self.data[start..start + n]);
            let raw = u64::from_le_bytes(word);
            if k == 64 {
                raw
            } else {
                raw & ((1 << k) - 1)
            }
        } else {
            (0..k).fold(0, |acc, b| acc | (self.bit_at(self.bit + b as usize) << b))
        };
        self.bit += advance(k);
        match max.checked_add(1) {
            Some(range) if raw >= range => raw - range,
            _ => raw,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_and_wrapping() {
        assert_eq!(
            (width(0), width(1), width(2), width(255), width(256)),
            (0, 1, 2, 8, 9)
        );
        assert_eq!(width(u64::MAX), 64);
        // 0..=4 reads 3 bits: raw 5, 6, 7 wrap to 0, 1, 2.
        let mut s = Bytes::new(&[0b00_110_101]);
        assert_eq!([s.draw(4), s.draw(4)], [0, 1]);
        let mut s = Bytes::new(&[0xff; 8]);
        assert_eq!(s.draw(u64::MAX), u64::MAX);
    }

    #[test]
    fn padding_runs_out_into_an_overrun() {
        let mut s = Bytes::new(&[1]);
        for _ in 0..PADDING {
            s.draw(1);
        }
        let stopped = std::panic::catch_unwind(move || loop {
            if s.draw(1) == 1 && s.consumed() > 1 {
                break;
            }
        })
        .unwrap_err();
        assert!(matches!(
            stopped.downcast_ref::<Overrun>(),
            Some(Overrun::Replay { .. })
        ));
    }
}

//! Where the integers of a recorded sequence are.

/// The positions in a choice sequence where an integer drawn by
/// [`Source::draw_kind_value`](crate::Source::draw_kind_value) (every
/// `Arbitrary` integer) starts: its kind choice is at that position, its
/// value right after it. A [`Replay`](super::Replay) and a
/// [`Tracer`](super::Tracer) mark them as they hand the pair out, and the
/// shrinker's passes read them rather than guess integers from the bounds.
/// Marks never change the draws.
///
/// A bit per position: marking is a store, and a long sequence's marks
/// grow by a word per 64 choices.
///
/// ```
/// use pbt_core::{choices::Replay, gen::{any, int, Gen}};
/// let mut replay = Replay::new(&[3, 0, 9]);
/// let v = (int(0..=9u8), any::<u32>()).generate(&mut replay, 10).unwrap();
/// assert_eq!(v, (3, 9));
/// let marks = replay.into_replayed().integers;
/// assert!(marks.starts_at(1) && !marks.starts_at(0) && !marks.starts_at(2));
/// assert_eq!(marks.iter().collect::<Vec<_>>(), [1]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IntegerMarks {
    bits: Vec<u64>,
}

impl IntegerMarks {
    /// An integer starts at choice `at`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn mark(&mut self, at: usize) {
        let word = at / 64;
        if word >= self.bits.len() {
            self.bits.resize(word + 1, 0);
        }
        self.bits[word] |= 1 << (at % 64);
    }

    /// Whether an integer starts at choice `at` (its kind choice is there).
    #[inline]
    pub fn starts_at(&self, at: usize) -> bool {
        self.bits
            .get(at / 64)
            .is_some_and(|w| w >> (at % 64) & 1 == 1)
    }

    /// The positions where integers start, in order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &bits)| {
            (0..64)
                .filter(move |b| bits >> b & 1 == 1)
                .map(move |b| w * 64 + b)
        })
    }

    /// No marks, keeping the buffer.
    pub(crate) fn clear(&mut self) {
        self.bits.clear();
    }
}

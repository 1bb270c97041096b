//! The candidates the integrated shrinker's test rejected, by key, and the
//! prefixes whose replays read no further: what [`ChoiceShrinker`] never
//! runs again.
//!
//! [`ChoiceShrinker`]: super::ChoiceShrinker

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// FxHash's mixing of `x` into `h`. A candidate's key is its size, its
/// choices folded in order, then its length ([`Rejected::lookup`]), so the
/// hash of a prefix is on the way to the whole's ([`Rejected::reject_prefix`]).
///
/// The rotation is written out: `u64::rotate_left` is a call in an
/// unoptimised build, and a lookup mixes every choice of its candidate.
#[inline(always)]
#[allow(clippy::manual_rotate)]
pub(super) fn mix(h: u64, x: u64) -> u64 {
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    (((h << 5) | (h >> 59)) ^ x).wrapping_mul(K)
}

/// How many of a key's top bits pick its bit in [`Rejected`]'s filter.
const FILTER_BITS: u32 = 13;

/// The filter's length in words.
const FILTER_WORDS: usize = (1 << FILTER_BITS) / 64;

/// The keys of rejected candidates and prefixes. A rejection is for good
/// (see [`ChoiceShrinker`](super::ChoiceShrinker)'s `rejected`).
///
/// A lookup first reads one bit of an 8 192-bit filter (the key's top 13
/// bits): a key never inserted is mostly turned away there, without
/// hashing into the set, which in an unoptimised build cost about as much
/// as replaying a short program. (A filter of 65 536 bits cost more to
/// clear, on a shrink of a few candidates, than it saved.)
pub(super) struct Rejected {
    keys: HashSet<u64, BuildHasherDefault<Prehashed>>,
    filter: Vec<u64>,
    /// The lengths of the prefixes inserted, ascending.
    prefix_lengths: Vec<usize>,
}

impl Rejected {
    pub(super) fn new() -> Self {
        Rejected {
            keys: HashSet::with_capacity_and_hasher(256, Default::default()),
            filter: vec![0; FILTER_WORDS],
            prefix_lengths: Vec::new(),
        }
    }

    /// The word of the filter, and the bit in it, that stand for `key`.
    /// Inlined even in an unoptimised build: a lookup asks once per prefix
    /// length rejected, and a call costs there.
    #[inline(always)]
    fn bit(key: u64) -> (usize, u64) {
        let top = (key >> (64 - FILTER_BITS)) as usize;
        (top >> 6, 1 << (top & 63))
    }

    /// Whether `key` was rejected.
    fn contains(&self, key: u64) -> bool {
        let (word, bit) = Self::bit(key);
        self.filter[word] & bit != 0 && self.keys.contains(&key)
    }

    /// Reject `key` (a [`Rejected::lookup`] key).
    pub(super) fn reject(&mut self, key: u64) {
        let (word, bit) = Self::bit(key);
        self.filter[word] |= bit;
        self.keys.insert(key);
    }

    /// Reject every candidate at `size` that begins with `prefix`.
    pub(super) fn reject_prefix(&mut self, prefix: &[u64], size: usize) {
        let h = fold(mix(0, size as u64), prefix);
        self.reject(prefix_key(h, prefix.len()));
        if let Err(at) = self.prefix_lengths.binary_search(&prefix.len()) {
            self.prefix_lengths.insert(at, prefix.len());
        }
    }

    /// The key of `candidate` at `size`, or `None` when it was rejected,
    /// or a prefix of it was ([`Rejected::reject_prefix`]). With `whole`
    /// off, only its prefixes are looked up (a candidate replayed another
    /// way than the keys were: its key means nothing, but a prefix read
    /// as it is reads so in every replay).
    pub(super) fn lookup(&self, candidate: &[u64], size: usize, whole: bool) -> Option<u64> {
        let (mut h, mut at) = (mix(0, size as u64), 0);
        // Hashed in runs between the lengths of the prefixes rejected,
        // each looked up on the way.
        for &n in &self.prefix_lengths {
            if n > candidate.len() {
                break;
            }
            h = fold(h, &candidate[at..n]);
            at = n;
            if self.contains(prefix_key(h, n)) {
                return None;
            }
        }
        if !whole {
            return Some(0);
        }
        h = fold(h, &candidate[at..]);
        let key = mix(h, candidate.len() as u64);
        (!self.contains(key)).then_some(key)
    }
}

/// `part` mixed into `h` in order. A plain loop: an iterator's `fold`
/// and its closure are calls per choice in an unoptimised build.
fn fold(mut h: u64, part: &[u64]) -> u64 {
    let mut i = 0;
    while i < part.len() {
        h = mix(h, part[i]);
        i += 1;
    }
    h
}

/// The key of every candidate that begins with the `n` choices folded into
/// `h`: another than the key of those `n` choices alone, `mix(h, n)`.
fn prefix_key(h: u64, n: usize) -> u64 {
    mix(h, n as u64 | 1 << 63)
}

/// A hasher for keys that are hashes already.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

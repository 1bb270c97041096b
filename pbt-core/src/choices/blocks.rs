//! The block structure of a choice sequence: where each marked generator
//! call (a collection, one of its elements, a recursive layer) starts and
//! ends. Generators mark their calls with [`Source::start_block`] and
//! [`Source::end_block`]; a [`Replay`](super::Replay) keeps the marks, and
//! the integrated shrinker's passes use them to delete, zero, reorder and
//! replace whole values instead of single choices.
//!
//! [`Source::start_block`]: crate::Source::start_block
//! [`Source::end_block`]: crate::Source::end_block

use crate::source::BlockKind;
use std::ops::Range;

/// One marked generator call: the choices `start..end` it drew.
///
/// ```
/// use pbt_core::{choices::Replay, gen::{int, vec, Gen}, source::BlockKind};
/// let mut replay = Replay::new(&[2, 5, 7]);
/// let v = vec(int(0..10u8), 0..=3).generate(&mut replay, 10).unwrap();
/// assert_eq!(v.len(), 2);
/// let blocks = replay.into_replayed().blocks;
/// assert_eq!(blocks[0].kind, BlockKind::Collection);
/// assert_eq!(blocks[0].span(), 0..3);
/// assert_eq!(blocks[1].kind, BlockKind::Element);
/// assert_eq!(blocks[1].span(), 1..2);
/// assert_eq!(blocks[1].parent, Some(0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// What the call generated.
    pub kind: BlockKind,
    /// The index of its first choice.
    pub start: usize,
    /// One past the index of its last choice.
    pub end: usize,
    /// The innermost block it sits in (an index into the same list).
    pub parent: Option<usize>,
}

impl Block {
    /// The choices it drew.
    pub fn span(&self) -> Range<usize> {
        self.start..self.end
    }

    /// How many choices it drew.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// Whether it drew nothing.
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// Whether `other` lies inside this block (and is not this block).
    pub fn contains(&self, other: &Block) -> bool {
        self.start <= other.start && other.end <= self.end && self != other
    }
}

/// Blocks as a source hands out their marks: opened in order, closed
/// innermost first. Blocks still open at the end (a generator that stopped
/// early) close at the end of the sequence.
#[derive(Clone, Debug)]
pub struct BlockMarks {
    blocks: Vec<Block>,
    /// The innermost open block (blocks nest, so the one open around it is
    /// its parent), or `NONE`: a plain index keeps a `Replay` within 128
    /// bytes.
    open: usize,
}

/// No block is open.
const NONE: usize = usize::MAX;

impl Default for BlockMarks {
    fn default() -> Self {
        BlockMarks {
            blocks: Vec::new(),
            open: NONE,
        }
    }
}

impl BlockMarks {
    /// No blocks yet, in the buffer `blocks` (cleared first).
    pub(crate) fn reusing(mut blocks: Vec<Block>) -> Self {
        blocks.clear();
        BlockMarks { blocks, open: NONE }
    }

    /// A block of `kind` starts at choice `at`.
    #[inline]
    pub fn start(&mut self, kind: BlockKind, at: usize) {
        self.blocks.push(Block {
            kind,
            start: at,
            end: usize::MAX,
            parent: (self.open != NONE).then_some(self.open),
        });
        self.open = self.blocks.len() - 1;
    }

    /// The innermost open block ends before choice `at`.
    #[inline]
    pub fn end(&mut self, at: usize) {
        if let Some(b) = self.blocks.get_mut(self.open) {
            b.end = at;
            self.open = b.parent.unwrap_or(NONE);
        }
    }

    /// The blocks, in the order they started, closing any still open at `len`.
    pub fn finish(mut self, len: usize) -> Vec<Block> {
        while self.open != NONE {
            self.end(len);
        }
        self.blocks
    }
}

/// The blocks whose parent is `parent` and whose kind is `kind`, in order.
pub(crate) fn children(blocks: &[Block], parent: usize, kind: BlockKind) -> Vec<usize> {
    let span = blocks[parent].span();
    // A child has a choice or more, as a rule: one allocation where
    // collecting grew the list a doubling at a time (a list of 100
    // elements: 8 reallocations, on every pass that looks at them).
    let mut found = Vec::with_capacity(span.len().min(1024));
    found.extend(
        blocks
            .iter()
            .enumerate()
            .skip(parent + 1)
            .take_while(|(_, b)| b.start <= span.end)
            .filter(|(_, b)| b.parent == Some(parent) && b.kind == kind)
            .map(|(i, _)| i),
    );
    found
}

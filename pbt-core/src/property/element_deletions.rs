//! The first candidates of the external shrinker of a variable with a
//! generator: runs of a collection's elements deleted, with its length
//! lowered to match, largest runs first.
//!
//! The external shrinker takes the first candidate that still fails and
//! asks again from there, so what it proposes first decides its cost.
//! Choice-level deletions ([`simplifications`](crate::shrink::choices::simplifications))
//! delete a run of choices at every offset, for every run length, and
//! replay each: quadratic in a long list's choices before the first step.
//! Deleting whole elements, the whole collection first and then halves,
//! quarters, … down to single elements (quickcheck's order for a `Vec`,
//! here from the end back),
//! takes a long list that keeps failing to one element in `O(log n)`
//! steps of a few candidates each.

use crate::choices::{Block, Choices};
use crate::shrink::choices::without_elements;
use crate::source::BlockKind;

/// Candidates that delete runs of elements of each collection the choices
/// `choices` drew (as `blocks` marks them), outermost collection first;
/// runs of all elements, then halves, quarters, … single elements, each
/// run length at aligned offsets from the end back (what later elements
/// mean may depend on the earlier ones, say indices into the list: deleting
/// from the end keeps those). Made one at a time. For
/// `vec(int(0..10u8), 0..=3)` drawing `[2, 5, 7]` (length 2, then 5 and 7)
/// they are `[0]`, `[1, 5]`, `[1, 7]` (the tests below).
pub(super) struct ElementDeletions<'a> {
    choices: &'a [u64],
    blocks: Vec<Block>,
    /// Each collection with its elements, in the order they were drawn.
    collections: Vec<(usize, Vec<usize>)>,
    /// The collection being deleted from.
    at: usize,
    /// The run length (0 before the first run of a collection).
    run: usize,
    /// The element just after the next run (runs go from the end back).
    end: usize,
}

impl<'a> ElementDeletions<'a> {
    pub(super) fn new(choices: &'a [u64], blocks: Vec<Block>) -> Self {
        let mut elements: Vec<Vec<usize>> = vec![Vec::new(); blocks.len()];
        for (i, b) in blocks.iter().enumerate() {
            if let Some(p) = b.parent {
                if b.kind == BlockKind::Element && blocks[p].kind == BlockKind::Collection {
                    elements[p].push(i);
                }
            }
        }
        let collections = elements
            .into_iter()
            .enumerate()
            .filter(|(_, e)| !e.is_empty())
            .collect();
        ElementDeletions {
            choices,
            blocks,
            collections,
            at: 0,
            run: 0,
            end: 0,
        }
    }
}

impl Iterator for ElementDeletions<'_> {
    type Item = Choices;

    fn next(&mut self) -> Option<Choices> {
        loop {
            let (c, elems) = self.collections.get(self.at)?;
            let m = elems.len();
            if self.run == 0 {
                self.run = m;
                self.end = m;
            }
            if self.end == 0 {
                if self.run == 1 {
                    self.at += 1;
                    self.run = 0;
                } else {
                    self.run /= 2;
                    self.end = m;
                }
                continue;
            }
            let count = self.run.min(self.end);
            let first = self.end - count;
            let candidate = without_elements(self.choices, &self.blocks, elems, *c, first, count);
            self.end = first;
            if candidate.is_some() {
                return candidate;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ElementDeletions;
    use crate::choices::Replay;
    use crate::gen::{int, vec, Gen};

    /// The candidates of `choices` replayed through `vec(int(0..10u8), 0..=8)`.
    fn deletions(choices: &[u64]) -> Vec<Vec<u64>> {
        let mut replay = Replay::new(choices);
        vec(int(0..10u8), 0..=8).generate(&mut replay, 10).unwrap();
        let blocks = replay.into_replayed().blocks;
        ElementDeletions::new(choices, blocks).collect()
    }

    #[test]
    fn all_then_halves_then_single_elements() {
        assert_eq!(
            deletions(&[4, 5, 6, 7, 8]),
            [
                vec![0],
                vec![2, 5, 6],
                vec![2, 7, 8],
                vec![3, 5, 6, 7],
                vec![3, 5, 6, 8],
                vec![3, 5, 7, 8],
                vec![3, 6, 7, 8],
            ]
        );
    }

    #[test]
    fn a_run_past_the_start_is_cut_short() {
        assert_eq!(
            deletions(&[5, 1, 2, 3, 4, 5])[..4],
            [
                vec![0],
                vec![3, 1, 2, 3],
                vec![3, 1, 4, 5],
                vec![4, 2, 3, 4, 5]
            ]
        );
    }

    #[test]
    fn the_doc_example() {
        assert_eq!(deletions(&[2, 5, 7]), [vec![0], vec![1, 5], vec![1, 7]]);
    }

    #[test]
    fn an_empty_collection_proposes_nothing() {
        assert!(deletions(&[0]).is_empty());
    }

    #[test]
    fn a_fixed_length_is_lowered_where_it_was_drawn() {
        // bind(int(1..=5), |n| vec(int(0..10), n..=n)): the length `n` is the
        // choice before the collection (its own length choice is 0).
        let choices = [1u64, 0, 4, 9];
        let mut replay = Replay::new(&choices);
        let n = int(1..=5usize).generate(&mut replay, 10).unwrap();
        vec(int(0..10u8), n..=n).generate(&mut replay, 10).unwrap();
        let blocks = replay.into_replayed().blocks;
        let c: Vec<_> = ElementDeletions::new(&choices, blocks).collect();
        // Both elements: `n` cannot go below 1.
        assert_eq!(c, [vec![0, 0, 4], vec![0, 0, 9]]);
    }
}

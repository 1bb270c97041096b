//! Passes that change a value's shape rather than its numbers.
//!
//! - [`pass_to_descendant`]: replace a recursive layer by one nested in it
//!   (Hypothesis's pass-to-descendant: `(a + 0)` becomes `a`).
//! - [`reorder_blocks`]: sort sibling blocks, then swap adjacent ones, also
//!   blocks of different lengths, whenever the result is smaller.
//! - [`move_to_next_list`]: move a list's last element to the next list.
//! - [`join_collections`]: join adjacent sibling lists into one.

use super::shrinker::{ChoiceShrinker, ReplayMode, ShrinkTest, Shrinking};
use crate::choices::{children, Block};
use crate::source::BlockKind;

/// Replace each block by a descendant of the same kind (largest first, then
/// the nearest), from the outermost block on.
pub(crate) fn pass_to_descendant<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    let mut b = 0;
    while b < s.blocks().len() {
        let outer = s.blocks()[b];
        if outer.kind != BlockKind::Recursion {
            b += 1;
            continue;
        }
        let mut inner: Vec<Block> = s.blocks()[b + 1..]
            .iter()
            .take_while(|d| d.start < outer.end)
            .filter(|d| d.kind == outer.kind && outer.contains(d) && d.len() < outer.len())
            .copied()
            .collect();
        inner.sort_by_key(|d| (std::cmp::Reverse(d.len()), d.start));
        inner.dedup_by_key(|d| d.span());
        let (choices, bounds) = (s.choices().to_vec(), s.bounds().to_vec());
        let mut tried: Vec<Vec<u64>> = Vec::new();
        let mut replaced = false;
        'inner: for d in &inner {
            for body in transplants(&choices, &bounds, &outer, d) {
                // Equal subtrees give equal candidates.
                if tried.contains(&body) {
                    continue;
                }
                if s.consider_splice(outer.span(), &body, ReplayMode::Simplify)? {
                    replaced = true;
                    break 'inner;
                }
                tried.push(body);
            }
        }
        // A replaced block is tried again (its new content may nest more).
        if !replaced {
            b += 1;
        }
    }
    Ok(())
}

/// The choices of `inner` to put in place of `outer`: as they are, then
/// with their first choice (a recursive layer's branch) rescaled from the
/// bound it was drawn with to the bound `outer`'s first choice had. A
/// nested layer is drawn at a smaller size, and weights that grow with the
/// size (`size => node`) move the boundaries between branches.
fn transplants(choices: &[u64], bounds: &[u64], outer: &Block, inner: &Block) -> Vec<Vec<u64>> {
    let body = choices[inner.span()].to_vec();
    let mut out = vec![body.clone()];
    let (Some(&to), Some(&from)) = (bounds.get(outer.start), bounds.get(inner.start)) else {
        return out;
    };
    if body.is_empty() || to == from || to == u64::MAX || from == u64::MAX {
        return out;
    }
    let scale = |c: u64| (u128::from(c) * (u128::from(to) + 1) / (u128::from(from) + 1)) as u64;
    let c = body[0];
    for scaled in [scale(c), scale(c + 1).saturating_sub(1).max(scale(c))] {
        if scaled != c && scaled <= to && !out.iter().any(|b| b[0] == scaled) {
            let mut b = body.clone();
            b[0] = scaled;
            out.push(b);
        }
    }
    out
}

/// Put sibling blocks (same parent, same kind) in order: first all of them
/// sorted, then adjacent pairs swapped. A block's order is its choices'
/// lexicographic order, whatever their lengths; a candidate is run only
/// when the whole sequence gets smaller. The outermost blocks of a kind
/// (the collections of a tuple's fields, or of several variables) are
/// siblings too: ordering them lets value move between them, from the
/// earlier to the later.
pub(crate) fn reorder_blocks<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    for kind in [BlockKind::Collection, BlockKind::Recursion] {
        sort_children(s, None, kind)?;
        swap_children(s, None, kind)?;
    }
    let mut p = 0;
    while p < s.blocks().len() {
        // A collection's siblings are its elements; a recursive layer's,
        // the layers nested in it.
        let kind = match s.blocks()[p].kind {
            BlockKind::Collection => Some(BlockKind::Element),
            BlockKind::Recursion => Some(BlockKind::Recursion),
            BlockKind::Element => None,
        };
        if let Some(kind) = kind {
            sort_children(s, Some(p), kind)?;
            swap_children(s, Some(p), kind)?;
        }
        p += 1;
    }
    Ok(())
}

/// The sequence with the siblings `kids` of one parent rearranged: `order`
/// lists, for each slot, which sibling goes there.
fn rearranged(choices: &[u64], blocks: &[Block], kids: &[usize], order: &[usize]) -> Vec<u64> {
    let (first, last) = (blocks[kids[0]].start, blocks[kids[kids.len() - 1]].end);
    let mut out = Vec::with_capacity(choices.len());
    out.extend_from_slice(&choices[..first]);
    for (slot, &k) in order.iter().enumerate() {
        // What lies between this sibling and the next stays in place.
        out.extend_from_slice(&choices[blocks[kids[k]].span()]);
        if slot + 1 < kids.len() {
            out.extend_from_slice(&choices[blocks[kids[slot]].end..blocks[kids[slot + 1]].start]);
        }
    }
    out.extend_from_slice(&choices[last..]);
    out
}

/// The children of block `p` of `kind`; with no `p`, the outermost blocks
/// of `kind`.
fn siblings(blocks: &[Block], p: Option<usize>, kind: BlockKind) -> Vec<usize> {
    match p {
        Some(p) => children(blocks, p, kind),
        None => (0..blocks.len())
            .filter(|&i| blocks[i].parent.is_none() && blocks[i].kind == kind)
            .collect(),
    }
}

/// Sort the [`siblings`] of `p` of `kind` in one candidate.
fn sort_children<T: ShrinkTest>(
    s: &mut ChoiceShrinker<T>,
    p: Option<usize>,
    kind: BlockKind,
) -> Shrinking {
    let kids = siblings(s.blocks(), p, kind);
    if kids.len() < 2 {
        return Ok(());
    }
    let (choices, blocks) = (s.choices(), s.blocks());
    let mut order: Vec<usize> = (0..kids.len()).collect();
    order.sort_by(|&a, &b| choices[blocks[kids[a]].span()].cmp(&choices[blocks[kids[b]].span()]));
    if order.iter().enumerate().all(|(i, &k)| i == k) {
        return Ok(());
    }
    let cand = rearranged(choices, blocks, &kids, &order);
    s.consider(&cand, ReplayMode::Simplify)?;
    Ok(())
}

/// Swap adjacent [`siblings`] of `p` of `kind` where that makes the
/// sequence smaller.
fn swap_children<T: ShrinkTest>(
    s: &mut ChoiceShrinker<T>,
    p: Option<usize>,
    kind: BlockKind,
) -> Shrinking {
    let mut i = 0;
    let (mut seen, mut kids) = (s.steps(), siblings(s.blocks(), p, kind));
    loop {
        if seen != s.steps() {
            (seen, kids) = (s.steps(), siblings(s.blocks(), p, kind));
        }
        if i + 1 >= kids.len() {
            return Ok(());
        }
        let (choices, blocks) = (s.choices(), s.blocks());
        let (a, b) = (
            &choices[blocks[kids[i]].span()],
            &choices[blocks[kids[i + 1]].span()],
        );
        if b < a {
            let mut order: Vec<usize> = (0..kids.len()).collect();
            order.swap(i, i + 1);
            let cand = rearranged(choices, blocks, &kids, &order);
            s.consider(&cand, ReplayMode::Simplify)?;
        }
        i += 1;
    }
}

/// Move the last element of a list to the front of the next one, for
/// lists drawn one after the other (the variables `xs`, then `ys`), each
/// with its length up front: the first length goes down, the second up,
/// so the sequence gets smaller, of the same length. `([0], [0, 0])`
/// becomes `([], [0, 0, 0])`, the shortlex minimum of two lists whose total
/// length fails; no deletion or reordering reaches it.
pub(crate) fn move_to_next_list<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    let mut i = 0;
    loop {
        let lists = siblings(s.blocks(), None, BlockKind::Collection);
        if i + 1 >= lists.len() {
            return Ok(());
        }
        if let Some(cand) = moved_to_next(s.choices(), s.blocks(), lists[i], lists[i + 1]) {
            if s.consider(&cand, ReplayMode::Simplify)? {
                // The same pair again: it may give another element.
                continue;
            }
        }
        i += 1;
    }
}

/// `choices` with the last element of collection `a` moved to the front of
/// collection `b` (after `a`), and their lengths (each one's first choice)
/// lowered and raised by one; `None` unless both draw their length up
/// front and `a` has an element.
fn moved_to_next(choices: &[u64], blocks: &[Block], a: usize, b: usize) -> Option<Vec<u64>> {
    let (from, to) = (blocks[a], blocks[b]);
    let a_elems = children(blocks, a, BlockKind::Element);
    let elem = blocks[*a_elems.last()?];
    let first_start = |elems: &[usize]| elems.first().map(|&e| blocks[e].start);
    // A length up front: the first element starts after the collection.
    let prefixed = |start: usize, first: Option<usize>| first.is_none_or(|f| f > start);
    let first_of_b = first_start(&children(blocks, b, BlockKind::Element));
    let fits = prefixed(from.start, first_start(&a_elems))
        && prefixed(to.start, first_of_b)
        && to.start < to.end
        && elem.end <= to.start
        && to.end <= choices.len()
        && choices[from.start] >= 1;
    if !fits {
        return None;
    }
    let mut cand = Vec::with_capacity(choices.len());
    cand.extend_from_slice(&choices[..elem.start]);
    cand.extend_from_slice(&choices[elem.end..to.start]);
    cand.push(choices[to.start].checked_add(1)?);
    cand.extend_from_slice(&choices[elem.span()]);
    cand.extend_from_slice(&choices[to.start + 1..]);
    cand[from.start] -= 1;
    Some(cand)
}

/// Join adjacent sibling lists: where two adjacent elements of a
/// collection are each a collection with its length up front, move the
/// second one's elements to the end of the first (its length grows by
/// their count) and delete the second (the outer length shrinks by one).
/// One length choice fewer: shorter. (`[[1, 2], [3]]` becomes `[[1, 2, 3]]`.)
pub(crate) fn join_collections<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    let mut c = 0;
    while c < s.blocks().len() {
        if s.blocks()[c].kind == BlockKind::Collection {
            let mut i = 0;
            let (mut seen, mut elems) = (s.steps(), children(s.blocks(), c, BlockKind::Element));
            loop {
                if seen != s.steps() {
                    (seen, elems) = (s.steps(), children(s.blocks(), c, BlockKind::Element));
                }
                if i + 1 >= elems.len() {
                    break;
                }
                let joined = joined(s.choices(), s.blocks(), c, elems[i], elems[i + 1]);
                match joined {
                    Some(cand) if s.consider(&cand, ReplayMode::Simplify)? => {}
                    _ => i += 1,
                }
            }
        }
        c += 1;
    }
    Ok(())
}

/// The sequence with element `b` of collection `c` joined into element `a`
/// (see [`join_collections`]), if both are length-prefixed collections.
fn joined(choices: &[u64], blocks: &[Block], c: usize, a: usize, b: usize) -> Option<Vec<u64>> {
    let list = |e: usize| {
        // The element's first block, when it is a collection.
        let inner = e + 1;
        if blocks.get(inner)?.parent != Some(e) || blocks[inner].kind != BlockKind::Collection {
            return None;
        }
        let (outer, inner_b) = (blocks[e], blocks[inner]);
        let elems = children(blocks, inner, BlockKind::Element);
        let prefixed = elems
            .first()
            .is_none_or(|&f| blocks[f].start > inner_b.start);
        (inner_b.span() == outer.span() && prefixed).then_some((inner_b, elems.len() as u64))
    };
    let ((la, _), (lb, nb)) = (list(a)?, list(b)?);
    let coll = blocks[c];
    let first = children(blocks, c, BlockKind::Element).first().copied()?;
    if blocks[first].start == coll.start
        || choices[coll.start] == 0
        || la.is_empty()
        || lb.is_empty()
    {
        return None;
    }
    let mut out = Vec::with_capacity(choices.len() - 1);
    out.extend_from_slice(&choices[..la.start]);
    out.push(choices[la.start].checked_add(nb)?);
    out.extend_from_slice(&choices[la.start + 1..la.end]);
    out.extend_from_slice(&choices[la.end..lb.start]);
    out.extend_from_slice(&choices[lb.start + 1..]);
    out[coll.start] -= 1;
    Some(out)
}

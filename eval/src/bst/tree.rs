//! Binary search trees: insert, delete and union, each with its injected
//! bugs (the mutants of ETNA's BST workload, from *How to Specify It*).
//!
//! Every buggy function takes the [`Mutant`] in effect; [`Mutant::Base`] is
//! the correct implementation. Subtrees are shared through `Rc`, as in the
//! Haskell original, so an update copies one path.

use super::Mutant;
use crate::common::{Key, Val};
use std::cmp::Ordering::{Equal, Greater, Less};
use std::rc::Rc;

/// `E | T(l, k, v, r)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tree {
    /// The empty tree.
    E,
    /// A node: left subtree, key, value, right subtree.
    T(Rc<Tree>, Key, Val, Rc<Tree>),
}

use Tree::{E, T};

/// A node.
pub fn node(l: Tree, k: Key, v: Val, r: Tree) -> Tree {
    T(Rc::new(l), k, v, Rc::new(r))
}

/// Node with shared subtrees.
fn node_rc(l: &Rc<Tree>, k: Key, v: Val, r: &Rc<Tree>) -> Tree {
    T(Rc::clone(l), k, v, Rc::clone(r))
}

/// Insert `k ↦ v` (mutants `insert_1`, `insert_2`, `insert_3`).
pub fn insert(m: Mutant, k: Key, v: Val, t: &Tree) -> Tree {
    let T(l, k2, v2, r) = t else {
        return node(E, k, v, E);
    };
    match m {
        // A non-empty tree is replaced by a singleton.
        Mutant::Insert1 => node(E, k, v, E),
        // The `k > k'` branch is missing: larger keys overwrite the root.
        Mutant::Insert2 if k < *k2 => node(insert(m, k, v, l), *k2, *v2, (**r).clone()),
        Mutant::Insert2 => node_rc(l, *k2, v, r),
        // An equal key keeps the old value.
        _ => match k.cmp(k2) {
            Less => node(insert(m, k, v, l), *k2, *v2, (**r).clone()),
            Greater => node((**l).clone(), *k2, *v2, insert(m, k, v, r)),
            Equal if m == Mutant::Insert3 => t.clone(),
            Equal => node_rc(l, *k2, v, r),
        },
    }
}

/// Delete `k` (mutants `delete_4`, `delete_5`).
pub fn delete(m: Mutant, k: Key, t: &Tree) -> Tree {
    let T(l, k2, v2, r) = t else {
        return E;
    };
    match (m, k.cmp(k2)) {
        (_, Equal) => join(l, r),
        // Recursing drops the root and the other subtree.
        (Mutant::Delete4, Less) => delete(m, k, l),
        (Mutant::Delete4, Greater) => delete(m, k, r),
        // The comparison is flipped.
        (Mutant::Delete5, Greater) => node(delete(m, k, l), *k2, *v2, (**r).clone()),
        (Mutant::Delete5, Less) => node((**l).clone(), *k2, *v2, delete(m, k, r)),
        (_, Less) => node(delete(m, k, l), *k2, *v2, (**r).clone()),
        (_, Greater) => node((**l).clone(), *k2, *v2, delete(m, k, r)),
    }
}

/// The tree of the keys of `l` then those of `r` (all of `l`'s are smaller).
fn join(l: &Rc<Tree>, r: &Rc<Tree>) -> Tree {
    match (&**l, &**r) {
        (E, r) => r.clone(),
        (l, E) => l.clone(),
        (T(l1, k1, v1, r1), T(l2, k2, v2, r2)) => node_rc(
            l1,
            *k1,
            *v1,
            &Rc::new(T(Rc::new(join(r1, l2)), *k2, *v2, Rc::clone(r2))),
        ),
    }
}

/// The union, left-biased on equal keys (mutants `union_6`, `union_7`,
/// `union_8`).
pub fn union(m: Mutant, t1: &Tree, t2: &Tree) -> Tree {
    let (T(l, k, v, r), T(l2, k2, v2, r2)) = (t1, t2) else {
        return if matches!(t1, E) {
            t2.clone()
        } else {
            t1.clone()
        };
    };
    match m {
        // Graft without splitting.
        Mutant::Union6 => node_rc(
            l,
            *k,
            *v,
            &Rc::new(node(union(m, r, l2), *k2, *v2, (**r2).clone())),
        ),
        // No splitting; equal keys merge left with left.
        Mutant::Union7 => match k.cmp(k2) {
            Equal => node(union(m, l, l2), *k, *v, union(m, r, r2)),
            Less => node_rc(
                l,
                *k,
                *v,
                &Rc::new(node(union(m, r, l2), *k2, *v2, (**r2).clone())),
            ),
            Greater => union(m, t2, t1),
        },
        // The equal case does not split; `k < k'` splits only `l'`.
        Mutant::Union8 => match k.cmp(k2) {
            Equal => node(union(m, l, l2), *k, *v, union(m, r, r2)),
            Less => node(
                union(m, l, &below(*k, l2)),
                *k,
                *v,
                union(m, r, &node(above(*k, l2), *k2, *v2, (**r2).clone())),
            ),
            Greater => union(m, t2, t1),
        },
        _ => node(
            union(m, l, &below(*k, t2)),
            *k,
            *v,
            union(m, r, &above(*k, t2)),
        ),
    }
}

/// The part of `t` with keys below `k`.
fn below(k: Key, t: &Tree) -> Tree {
    match t {
        E => E,
        T(l, k2, _, _) if k <= *k2 => below(k, l),
        T(l, k2, v2, r) => node((**l).clone(), *k2, *v2, below(k, r)),
    }
}

/// The part of `t` with keys above `k`.
fn above(k: Key, t: &Tree) -> Tree {
    match t {
        E => E,
        T(_, k2, _, r) if k >= *k2 => above(k, r),
        T(l, k2, v2, r) => node(above(k, l), *k2, *v2, (**r).clone()),
    }
}

/// The value at `k`.
pub fn find(k: Key, t: &Tree) -> Option<Val> {
    let mut t = t;
    while let T(l, k2, v, r) = t {
        t = match k.cmp(k2) {
            Less => l,
            Greater => r,
            Equal => return Some(*v),
        };
    }
    None
}

/// The bindings in key order (in-order traversal).
pub fn to_list(t: &Tree) -> Vec<(Key, Val)> {
    fn go(t: &Tree, out: &mut Vec<(Key, Val)>) {
        if let T(l, k, v, r) = t {
            go(l, out);
            out.push((*k, *v));
            go(r, out);
        }
    }
    let mut out = Vec::new();
    go(t, &mut out);
    out
}

/// Every key of the left subtree is smaller than the node's, every key of
/// the right subtree larger, at every node (ETNA's `isBST`; repeated keys
/// are invalid).
pub fn is_bst(t: &Tree) -> bool {
    fn within(t: &Tree, lo: Option<Key>, hi: Option<Key>) -> bool {
        match t {
            E => true,
            T(l, k, _, r) => {
                lo.is_none_or(|lo| lo < *k)
                    && hi.is_none_or(|hi| *k < hi)
                    && within(l, lo, Some(*k))
                    && within(r, Some(*k), hi)
            }
        }
    }
    within(t, None, None)
}

/// The number of nodes.
pub fn size(t: &Tree) -> usize {
    match t {
        E => 0,
        T(l, _, _, r) => 1 + size(l) + size(r),
    }
}

/// The keys in order.
fn keys(t: &Tree, out: &mut Vec<Key>) {
    if let T(l, k, _, r) = t {
        keys(l, out);
        out.push(*k);
        keys(r, out);
    }
}

/// How far `t` is from a BST: the adjacent pairs of its in-order keys that
/// are not increasing (0 exactly when [`is_bst`] holds).
pub fn defects(t: &Tree) -> u64 {
    let mut ks = Vec::new();
    keys(t, &mut ks);
    ks.windows(2).filter(|w| w[0] >= w[1]).count() as u64
}

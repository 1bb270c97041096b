//! Red-black trees: Okasaki's insert and Kahrs's delete, each with its
//! injected bugs (the mutants of ETNA's RBT workload).
//!
//! Every buggy function takes the [`Mutant`] in effect; [`Mutant::Base`] is
//! the correct implementation. `delete` returns `None` when Kahrs's
//! algorithm meets a tree that breaks its invariants (`Left IE` in ETNA's
//! Haskell, `None` in its Rocq).

use super::Mutant;
use crate::common::{Key, Val};
use std::cmp::Ordering::{Equal, Greater, Less};
use std::rc::Rc;

/// A node's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    /// Red.
    R,
    /// Black.
    B,
}

use Color::{B, R};

/// `E | T(colour, l, k, v, r)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tree {
    /// The empty (black) leaf.
    E,
    /// A node: colour, left subtree, key, value, right subtree.
    T(Color, Rc<Tree>, Key, Val, Rc<Tree>),
}

use Tree::{E, T};

/// A node.
pub fn node(c: Color, l: Tree, k: Key, v: Val, r: Tree) -> Tree {
    T(c, Rc::new(l), k, v, Rc::new(r))
}

/// The tree with a black root.
fn blacken(t: Tree) -> Tree {
    match t {
        T(_, l, k, v, r) => T(B, l, k, v, r),
        E => E,
    }
}

/// A black-rooted tree with its root red.
fn redden(t: &Tree) -> Option<Tree> {
    match t {
        T(B, l, k, v, r) => Some(T(R, l.clone(), *k, *v, r.clone())),
        _ => None,
    }
}

/// Okasaki's balance (mutants `swap_cd`, `swap_bc`).
fn balance(m: Mutant, c: Color, l: Rc<Tree>, k: Key, v: Val, r: Rc<Tree>) -> Tree {
    if c == B {
        if let T(R, ll, y, vy, lr) = &*l {
            if let T(R, a, x, vx, b) = &**ll {
                let (c, d) = if m == Mutant::SwapCd {
                    (&r, lr)
                } else {
                    (lr, &r)
                };
                return red3([a, b, c, d], [(*x, *vx), (*y, *vy), (k, v)]);
            }
            if let T(R, b, y2, vy2, c) = &**lr {
                return red3([ll, b, c, &r], [(*y, *vy), (*y2, *vy2), (k, v)]);
            }
        }
        if let T(R, rl, z, vz, rr) = &*r {
            if let T(R, b, y, vy, c) = &**rl {
                let (b, c) = if m == Mutant::SwapBc { (c, b) } else { (b, c) };
                return red3([&l, b, c, rr], [(k, v), (*y, *vy), (*z, *vz)]);
            }
            if let T(R, c, z2, vz2, d) = &**rr {
                return red3([&l, rl, c, d], [(k, v), (*z, *vz), (*z2, *vz2)]);
            }
        }
    }
    T(c, l, k, v, r)
}

/// `T R (T B a x b) y (T B c z d)` from `[a, b, c, d]` and `[x, y, z]`.
fn red3([a, b, c, d]: [&Rc<Tree>; 4], [(x, vx), (y, vy), (z, vz)]: [(Key, Val); 3]) -> Tree {
    T(
        R,
        Rc::new(T(B, a.clone(), x, vx, b.clone())),
        y,
        vy,
        Rc::new(T(B, c.clone(), z, vz, d.clone())),
    )
}

/// Insert `k ↦ v` (mutants `insert_1`–`3`, `miscolor_insert`,
/// `no_balance_insert_1`/`2`).
pub fn insert(m: Mutant, k: Key, v: Val, t: &Tree) -> Tree {
    fn ins(m: Mutant, x: Key, vx: Val, s: &Tree) -> Tree {
        let T(rb, a, y, vy, b) = s else {
            let c = if m == Mutant::MiscolorInsert { B } else { R };
            return node(c, E, x, vx, E);
        };
        let (rb, y, vy) = (*rb, *y, *vy);
        match (m, x.cmp(&y)) {
            (Mutant::Insert1, _) => node(R, E, x, vx, E),
            (Mutant::Insert2, Less) => balance(m, rb, Rc::new(ins(m, x, vx, a)), y, vy, b.clone()),
            (Mutant::Insert2, _) => T(rb, a.clone(), y, vx, b.clone()),
            (Mutant::Insert3, Equal) => s.clone(),
            (Mutant::NoBalanceInsert1, Less) => T(rb, Rc::new(ins(m, x, vx, a)), y, vy, b.clone()),
            (Mutant::NoBalanceInsert2, Greater) => {
                T(rb, a.clone(), y, vy, Rc::new(insert(m, x, vx, b)))
            }
            (_, Less) => balance(m, rb, Rc::new(ins(m, x, vx, a)), y, vy, b.clone()),
            (_, Greater) => balance(m, rb, a.clone(), y, vy, Rc::new(ins(m, x, vx, b))),
            (_, Equal) => T(rb, a.clone(), y, vx, b.clone()),
        }
    }
    blacken(ins(m, k, v, t))
}

/// Delete `x` (mutants `delete_4`, `delete_5`, `miscolor_delete`, and those
/// of its helpers); `None` when the tree breaks the invariants delete relies
/// on.
pub fn delete(m: Mutant, x: Key, t: &Tree) -> Option<Tree> {
    let deleted = del(m, x, t)?;
    Some(if m == Mutant::MiscolorDelete {
        deleted
    } else {
        blacken(deleted)
    })
}

fn del(m: Mutant, x: Key, t: &Tree) -> Option<Tree> {
    let T(_, a, y, vy, b) = t else {
        return Some(E);
    };
    let (y, vy) = (*y, *vy);
    match (m, x.cmp(&y)) {
        (_, Equal) => join(m, a, b),
        (Mutant::Delete4, Less) => del(m, x, a),
        (Mutant::Delete4, Greater) => del(m, x, b),
        (Mutant::Delete5, Greater) => del_left(m, x, a, y, vy, b),
        (Mutant::Delete5, Less) => del_right(m, x, a, y, vy, b),
        (_, Less) => del_left(m, x, a, y, vy, b),
        (_, Greater) => del_right(m, x, a, y, vy, b),
    }
}

fn del_left(m: Mutant, x: Key, a: &Rc<Tree>, y: Key, vy: Val, b: &Rc<Tree>) -> Option<Tree> {
    let a2 = Rc::new(del(m, x, a)?);
    if matches!(**a, T(B, ..)) {
        bal_left(m, a2, y, vy, b.clone())
    } else {
        Some(T(R, a2, y, vy, b.clone()))
    }
}

fn del_right(m: Mutant, x: Key, a: &Rc<Tree>, y: Key, vy: Val, b: &Rc<Tree>) -> Option<Tree> {
    let b2 = Rc::new(del(m, x, b)?);
    if matches!(**b, T(B, ..)) {
        bal_right(m, a.clone(), y, vy, b2)
    } else {
        Some(T(R, a.clone(), y, vy, b2))
    }
}

/// Rebalance after the left subtree lost a black node (`miscolor_balLeft`).
fn bal_left(m: Mutant, l: Rc<Tree>, x: Key, vx: Val, r: Rc<Tree>) -> Option<Tree> {
    if let T(R, a, y, vy, b) = &*l {
        return Some(T(R, Rc::new(T(B, a.clone(), *y, *vy, b.clone())), x, vx, r));
    }
    match &*r {
        T(B, a, y, vy, b) => Some(balance(
            m,
            B,
            l,
            x,
            vx,
            Rc::new(T(R, a.clone(), *y, *vy, b.clone())),
        )),
        T(R, ra, z, vz, c) => {
            let T(B, a, y, vy, b) = &**ra else {
                return None;
            };
            let c = if m == Mutant::MiscolorBalLeft {
                (**c).clone()
            } else {
                redden(c)?
            };
            Some(T(
                R,
                Rc::new(T(B, l, x, vx, a.clone())),
                *y,
                *vy,
                Rc::new(balance(m, B, b.clone(), *z, *vz, Rc::new(c))),
            ))
        }
        E => None,
    }
}

/// Rebalance after the right subtree lost a black node (`miscolor_balRight`).
fn bal_right(m: Mutant, l: Rc<Tree>, y: Key, vy: Val, r: Rc<Tree>) -> Option<Tree> {
    if let T(R, b, z, vz, c) = &*r {
        return Some(T(R, l, y, vy, Rc::new(T(B, b.clone(), *z, *vz, c.clone()))));
    }
    match &*l {
        T(B, a, x, vx, b) => Some(balance(
            m,
            B,
            Rc::new(T(R, a.clone(), *x, *vx, b.clone())),
            y,
            vy,
            r,
        )),
        T(R, a, x, vx, lb) => {
            let T(B, b, y2, vy2, c) = &**lb else {
                return None;
            };
            let a = if m == Mutant::MiscolorBalRight {
                (**a).clone()
            } else {
                redden(a)?
            };
            Some(T(
                R,
                Rc::new(balance(m, B, Rc::new(a), *x, *vx, b.clone())),
                *y2,
                *vy2,
                Rc::new(T(B, c.clone(), y, vy, r)),
            ))
        }
        E => None,
    }
}

/// Join two trees whose keys are all smaller on the left (`miscolor_join_1`,
/// `miscolor_join_2`).
fn join(m: Mutant, l: &Rc<Tree>, r: &Rc<Tree>) -> Option<Tree> {
    match (&**l, &**r) {
        (E, t) | (t, E) => Some(t.clone()),
        (T(R, a, x, vx, b), T(R, c, y, vy, d)) => match join(m, b, c)? {
            T(R, b2, z, vz, c2) => {
                let inner = if m == Mutant::MiscolorJoin1 { B } else { R };
                Some(T(
                    R,
                    Rc::new(T(inner, a.clone(), *x, *vx, b2)),
                    z,
                    vz,
                    Rc::new(T(inner, c2, *y, *vy, d.clone())),
                ))
            }
            bc => Some(T(
                R,
                a.clone(),
                *x,
                *vx,
                Rc::new(T(R, Rc::new(bc), *y, *vy, d.clone())),
            )),
        },
        (T(B, a, x, vx, b), T(B, c, y, vy, d)) => match join(m, b, c)? {
            T(R, b2, z, vz, c2) => {
                let inner = if m == Mutant::MiscolorJoin2 { R } else { B };
                Some(T(
                    R,
                    Rc::new(T(inner, a.clone(), *x, *vx, b2)),
                    z,
                    vz,
                    Rc::new(T(inner, c2, *y, *vy, d.clone())),
                ))
            }
            bc => bal_left(
                m,
                a.clone(),
                *x,
                *vx,
                Rc::new(T(B, Rc::new(bc), *y, *vy, d.clone())),
            ),
        },
        (_, T(R, b, x, vx, c)) => Some(T(R, Rc::new(join(m, l, b)?), *x, *vx, c.clone())),
        (T(R, a, x, vx, b), _) => Some(T(R, a.clone(), *x, *vx, Rc::new(join(m, b, r)?))),
    }
}

/// The value at `k`.
pub fn find(k: Key, t: &Tree) -> Option<Val> {
    let mut t = t;
    while let T(_, l, k2, v, r) = t {
        t = match k.cmp(k2) {
            Less => l,
            Greater => r,
            Equal => return Some(*v),
        };
    }
    None
}

/// The bindings in key order.
pub fn to_list(t: &Tree) -> Vec<(Key, Val)> {
    fn go(t: &Tree, out: &mut Vec<(Key, Val)>) {
        if let T(_, l, k, v, r) = t {
            go(l, out);
            out.push((*k, *v));
            go(r, out);
        }
    }
    let mut out = Vec::new();
    go(t, &mut out);
    out
}

/// ETNA's `isRBT`: a BST (no repeated keys), the same number of black
/// nodes on every path, and no red node with a red child. (The root may
/// be red.)
pub fn is_rbt(t: &Tree) -> bool {
    is_bst(t) && black_height(t).is_some() && no_red_red(t)
}

fn is_bst(t: &Tree) -> bool {
    fn within(t: &Tree, lo: Option<Key>, hi: Option<Key>) -> bool {
        match t {
            E => true,
            T(_, l, k, _, r) => {
                lo.is_none_or(|lo| lo < *k)
                    && hi.is_none_or(|hi| *k < hi)
                    && within(l, lo, Some(*k))
                    && within(r, Some(*k), hi)
            }
        }
    }
    within(t, None, None)
}

/// The black height, when it is the same on every path.
fn black_height(t: &Tree) -> Option<u32> {
    match t {
        E => Some(1),
        T(c, l, _, _, r) => {
            let (hl, hr) = (black_height(l)?, black_height(r)?);
            (hl == hr).then_some(hl + u32::from(*c == B))
        }
    }
}

fn no_red_red(t: &Tree) -> bool {
    match t {
        E => true,
        T(B, l, _, _, r) => no_red_red(l) && no_red_red(r),
        T(R, l, _, _, r) => {
            !matches!(**l, T(R, ..)) && !matches!(**r, T(R, ..)) && no_red_red(l) && no_red_red(r)
        }
    }
}

/// The keys in order.
fn keys(t: &Tree, out: &mut Vec<Key>) {
    if let T(_, l, k, _, r) = t {
        keys(l, out);
        out.push(*k);
        keys(r, out);
    }
}

/// How far `t` is from a red-black tree: the adjacent in-order keys that
/// are not increasing, the red nodes with a red child, and at every node
/// the difference between its subtrees' (largest) black heights — 0
/// exactly when [`is_rbt`] holds.
pub fn defects(t: &Tree) -> u64 {
    /// The largest black height below `t` and the defects of colour.
    fn colour(t: &Tree) -> (u64, u64) {
        match t {
            E => (1, 0),
            T(c, l, _, _, r) => {
                let ((hl, dl), (hr, dr)) = (colour(l), colour(r));
                let red_red = *c == R
                    && (matches!(**l, T(R, ..)) as u64 + matches!(**r, T(R, ..)) as u64) > 0;
                let d = dl + dr + hl.abs_diff(hr) + u64::from(red_red);
                (hl.max(hr) + u64::from(*c == B), d)
            }
        }
    }
    let mut ks = Vec::new();
    keys(t, &mut ks);
    ks.windows(2).filter(|w| w[0] >= w[1]).count() as u64 + colour(t).1
}

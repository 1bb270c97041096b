//! The 18 properties of ETNA's BST workload (from *How to Specify It*),
//! without their precondition: the drivers check that every input tree is a
//! BST first ([`super::tree::is_bst`]).

use super::tree::{delete, find, insert, to_list, union, Tree};
use super::Mutant;
use crate::common::{Key, Val};

/// `t1 =~= t2`: the same bindings in the same order.
fn same(t1: &Tree, t2: &Tree) -> bool {
    to_list(t1) == to_list(t2)
}

/// The list without the bindings of `k`.
fn delete_key(k: Key, l: Vec<(Key, Val)>) -> Vec<(Key, Val)> {
    l.into_iter().filter(|(k2, _)| *k2 != k).collect()
}

/// Haskell's `Data.List.insert` into a sorted list.
fn list_insert(kv: (Key, Val), mut l: Vec<(Key, Val)>) -> Vec<(Key, Val)> {
    let at = l.iter().position(|x| kv <= *x).unwrap_or(l.len());
    l.insert(at, kv);
    l
}

/// InsertValid: inserting into a BST gives a BST.
pub fn insert_valid(m: Mutant, t: &Tree, k: Key, v: Val) -> bool {
    super::tree::is_bst(&insert(m, k, v, t))
}

/// DeleteValid: deleting from a BST gives a BST.
pub fn delete_valid(m: Mutant, t: &Tree, k: Key) -> bool {
    super::tree::is_bst(&delete(m, k, t))
}

/// UnionValid: the union of BSTs is a BST.
pub fn union_valid(m: Mutant, t1: &Tree, t2: &Tree) -> bool {
    super::tree::is_bst(&union(m, t1, t2))
}

/// InsertPost: after inserting `k ↦ v`, `k'` maps to `v` if `k = k'`, and to
/// what it mapped to before otherwise.
pub fn insert_post(m: Mutant, t: &Tree, k: Key, k2: Key, v: Val) -> bool {
    find(k2, &insert(m, k, v, t)) == if k == k2 { Some(v) } else { find(k2, t) }
}

/// DeletePost: after deleting `k`, `k'` is unbound if `k = k'` and unchanged
/// otherwise.
pub fn delete_post(m: Mutant, t: &Tree, k: Key, k2: Key) -> bool {
    find(k2, &delete(m, k, t)) == if k == k2 { None } else { find(k2, t) }
}

/// UnionPost: a key of a union maps to its value in the left tree, else in
/// the right one.
pub fn union_post(m: Mutant, t1: &Tree, t2: &Tree, k: Key) -> bool {
    find(k, &union(m, t1, t2)) == find(k, t1).or_else(|| find(k, t2))
}

/// InsertModel: insert behaves like inserting into the sorted list.
pub fn insert_model(m: Mutant, t: &Tree, k: Key, v: Val) -> bool {
    to_list(&insert(m, k, v, t)) == list_insert((k, v), delete_key(k, to_list(t)))
}

/// DeleteModel: delete behaves like filtering the sorted list.
pub fn delete_model(m: Mutant, t: &Tree, k: Key) -> bool {
    to_list(&delete(m, k, t)) == delete_key(k, to_list(t))
}

/// UnionModel: union behaves like the left-biased union of the lists, sorted.
pub fn union_model(m: Mutant, t1: &Tree, t2: &Tree) -> bool {
    let left = to_list(t1);
    let mut expected = left.clone();
    expected.extend(
        to_list(t2)
            .into_iter()
            .filter(|(k, _)| !left.iter().any(|(k1, _)| k1 == k)),
    );
    expected.sort();
    to_list(&union(m, t1, t2)) == expected
}

/// InsertInsert: two inserts commute, except that the later one wins on
/// equal keys.
pub fn insert_insert(m: Mutant, t: &Tree, k: Key, k2: Key, v: Val, v2: Val) -> bool {
    let lhs = insert(m, k, v, &insert(m, k2, v2, t));
    let rhs = if k == k2 {
        insert(m, k, v, t)
    } else {
        insert(m, k2, v2, &insert(m, k, v, t))
    };
    same(&lhs, &rhs)
}

/// InsertDelete: insert after delete.
pub fn insert_delete(m: Mutant, t: &Tree, k: Key, k2: Key, v: Val) -> bool {
    let lhs = insert(m, k, v, &delete(m, k2, t));
    let rhs = if k == k2 {
        insert(m, k, v, t)
    } else {
        delete(m, k2, &insert(m, k, v, t))
    };
    same(&lhs, &rhs)
}

/// InsertUnion: inserting into a union is inserting into its left tree.
pub fn insert_union(m: Mutant, t1: &Tree, t2: &Tree, k: Key, v: Val) -> bool {
    same(
        &insert(m, k, v, &union(m, t1, t2)),
        &union(m, &insert(m, k, v, t1), t2),
    )
}

/// DeleteInsert: delete after insert.
pub fn delete_insert(m: Mutant, t: &Tree, k: Key, k2: Key, v2: Val) -> bool {
    let lhs = delete(m, k, &insert(m, k2, v2, t));
    let rhs = if k == k2 {
        delete(m, k, t)
    } else {
        insert(m, k2, v2, &delete(m, k, t))
    };
    same(&lhs, &rhs)
}

/// DeleteDelete: deletes commute.
pub fn delete_delete(m: Mutant, t: &Tree, k: Key, k2: Key) -> bool {
    same(
        &delete(m, k, &delete(m, k2, t)),
        &delete(m, k2, &delete(m, k, t)),
    )
}

/// DeleteUnion: deleting from a union is deleting from both trees.
pub fn delete_union(m: Mutant, t1: &Tree, t2: &Tree, k: Key) -> bool {
    same(
        &delete(m, k, &union(m, t1, t2)),
        &union(m, &delete(m, k, t1), &delete(m, k, t2)),
    )
}

/// UnionDeleteInsert: moving a binding from the left tree to the right one
/// and inserting it into the union agree.
pub fn union_delete_insert(m: Mutant, t1: &Tree, t2: &Tree, k: Key, v: Val) -> bool {
    same(
        &union(m, &delete(m, k, t1), &insert(m, k, v, t2)),
        &insert(m, k, v, &union(m, t1, t2)),
    )
}

/// UnionUnionIdem: union with itself is the identity.
pub fn union_union_idem(m: Mutant, t: &Tree) -> bool {
    same(&union(m, t, t), t)
}

/// UnionUnionAssoc: union is associative (structurally, as in ETNA).
pub fn union_union_assoc(m: Mutant, t1: &Tree, t2: &Tree, t3: &Tree) -> bool {
    union(m, &union(m, t1, t2), t3) == union(m, t1, &union(m, t2, t3))
}

//! The 10 properties of ETNA's RBT workload, without their precondition:
//! the drivers check that the input tree is a red-black tree first
//! ([`super::tree::is_rbt`]). A `delete` that meets broken invariants
//! (`None`) falsifies the property, as in ETNA.

use super::tree::{delete, find, insert, is_rbt, to_list, Tree};
use super::Mutant;
use crate::common::{Key, Val};

/// The list without the bindings of `k`.
fn delete_key(k: Key, l: Vec<(Key, Val)>) -> Vec<(Key, Val)> {
    l.into_iter().filter(|(k2, _)| *k2 != k).collect()
}

/// Insert into a sorted list of bindings (replacing an equal key).
fn list_insert((k, v): (Key, Val), mut l: Vec<(Key, Val)>) -> Vec<(Key, Val)> {
    match l.binary_search_by(|(k2, _)| k2.cmp(&k)) {
        Ok(at) => l[at] = (k, v),
        Err(at) => l.insert(at, (k, v)),
    }
    l
}

/// InsertValid: inserting into a red-black tree gives one.
pub fn insert_valid(m: Mutant, t: &Tree, k: Key, v: Val) -> bool {
    is_rbt(&insert(m, k, v, t))
}

/// DeleteValid: deleting from a red-black tree gives one.
pub fn delete_valid(m: Mutant, t: &Tree, k: Key) -> bool {
    delete(m, k, t).is_some_and(|t| is_rbt(&t))
}

/// InsertPost: after inserting `k ↦ v`, `k'` maps to `v` if `k = k'`, and to
/// what it mapped to before otherwise.
pub fn insert_post(m: Mutant, t: &Tree, k: Key, k2: Key, v: Val) -> bool {
    find(k2, &insert(m, k, v, t)) == if k == k2 { Some(v) } else { find(k2, t) }
}

/// DeletePost: after deleting `k`, `k'` is unbound if `k = k'` and unchanged
/// otherwise.
pub fn delete_post(m: Mutant, t: &Tree, k: Key, k2: Key) -> bool {
    delete(m, k, t).is_some_and(|t2| find(k2, &t2) == if k == k2 { None } else { find(k2, t) })
}

/// InsertModel: insert behaves like inserting into the sorted list.
pub fn insert_model(m: Mutant, t: &Tree, k: Key, v: Val) -> bool {
    to_list(&insert(m, k, v, t)) == list_insert((k, v), delete_key(k, to_list(t)))
}

/// DeleteModel: delete behaves like filtering the sorted list.
pub fn delete_model(m: Mutant, t: &Tree, k: Key) -> bool {
    delete(m, k, t).is_some_and(|t2| to_list(&t2) == delete_key(k, to_list(t)))
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
    to_list(&lhs) == to_list(&rhs)
}

/// InsertDelete: insert after delete.
pub fn insert_delete(m: Mutant, t: &Tree, k: Key, k2: Key, v: Val) -> bool {
    let (Some(t1), Some(t2)) = (delete(m, k2, t), delete(m, k2, &insert(m, k, v, t))) else {
        return false;
    };
    let rhs = if k == k2 { insert(m, k, v, t) } else { t2 };
    to_list(&insert(m, k, v, &t1)) == to_list(&rhs)
}

/// DeleteInsert: delete after insert.
pub fn delete_insert(m: Mutant, t: &Tree, k: Key, k2: Key, v2: Val) -> bool {
    let (Some(t1), Some(t2)) = (delete(m, k, &insert(m, k2, v2, t)), delete(m, k, t)) else {
        return false;
    };
    let rhs = if k == k2 { t2 } else { insert(m, k2, v2, &t2) };
    to_list(&t1) == to_list(&rhs)
}

/// DeleteDelete: deletes commute.
pub fn delete_delete(m: Mutant, t: &Tree, k: Key, k2: Key) -> bool {
    let lhs = delete(m, k2, t).and_then(|t1| delete(m, k, &t1));
    let rhs = delete(m, k, t).and_then(|t1| delete(m, k2, &t1));
    match (lhs, rhs) {
        (Some(a), Some(b)) => to_list(&a) == to_list(&b),
        _ => false,
    }
}

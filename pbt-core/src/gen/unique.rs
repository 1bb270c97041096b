//! Collections without duplicates: sets, maps and [`vec_unique`].
//!
//! Each draws a target length from its length range (one draw, as [`vec`](super::vec)
//! does), then draws elements (for maps: keys, and a value for each new key)
//! until it holds that many. An element already present is dropped and
//! drawn again; after [`UNIQUE_TRIES`] such duplicates **in a row** the
//! collection stops growing. It is then kept if it reaches the range's
//! minimum, and otherwise [`Rejected`](super::Rejected) (the runner counts a discard).
//!
//! Shrinking the choices makes elements equal (all-zero choices give the
//! same element), so a shrunk collection is shorter rather than rejected.

use super::{Gen, Generated, Int, Length};
use crate::source::Source;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::Hash;

/// How many duplicates in a row a unique collection draws before it stops
/// growing (see the module docs).
pub const UNIQUE_TRIES: usize = 16;

/// Draw a target length, then call `step` (which adds at most one element
/// and says whether it did) until `out` has that many, or [`UNIQUE_TRIES`]
/// steps in a row add nothing.
fn grow<S, C>(
    len: &Int<usize>,
    src: &mut S,
    size: usize,
    out: &mut C,
    count: impl Fn(&C) -> usize,
    mut step: impl FnMut(&mut S, &mut C) -> Generated<bool>,
) -> Generated<()>
where
    S: Source + ?Sized,
{
    let target = len.generate(src, size)?;
    let mut misses = 0;
    while count(out) < target && misses < UNIQUE_TRIES {
        if step(src, out)? {
            misses = 0;
        } else {
            misses += 1;
        }
    }
    if count(out) < len.lo {
        return Err(crate::rejection::rejected(
            crate::rejection::Rejection::MinimumLength {
                min: len.lo,
                reached: count(out),
            },
        ));
    }
    Ok(())
}

macro_rules! set_gen {
    ($(#[$doc:meta])* $fun:ident, $ty:ident, $set:ident, $($bound:path),+) => {
        $(#[$doc])*
        pub fn $fun<G: Gen>(elem: G, len: impl Length) -> $ty<G>
        where
            G::Value: $($bound +)+,
        {
            $ty { elem, len: len.lengths() }
        }

        #[doc = concat!("See [`", stringify!($fun), "`].")]
        #[derive(Clone, Copy, Debug)]
        pub struct $ty<G> {
            elem: G,
            len: Int<usize>,
        }

        impl<G: Gen> Gen for $ty<G>
        where
            G::Value: $($bound +)+,
        {
            type Value = $set<G::Value>;
            fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<Self::Value> {
                let mut out = $set::new();
                grow(&self.len, src, size, &mut out, $set::len, |src, out| {
                    Ok(out.insert(self.elem.generate(src, size)?))
                })?;
                Ok(out)
            }
        }
    };
}

set_gen!(
    /// Hash sets with a length in `len`, elements from `elem`
    /// (duplicates are drawn again, see the module docs).
    ///
    /// ```
    /// use pbt_core::{gen::{hash_set, int, Gen}, Rng};
    /// let s = hash_set(int(0..100u8), 3..=5).generate(&mut Rng::from_seed(2), 10).unwrap();
    /// assert!((3..=5).contains(&s.len()));
    /// ```
    hash_set, HashSetOf, HashSet, Eq, Hash
);

set_gen!(
    /// Ordered sets with a length in `len`, elements from `elem`
    /// (duplicates are drawn again, see the module docs).
    ///
    /// ```
    /// use pbt_core::{gen::{btree_set, char, Gen}, Rng};
    /// let s = btree_set(char('a'..='z'), 0..=4).generate(&mut Rng::from_seed(2), 10).unwrap();
    /// assert!(s.len() <= 4);
    /// ```
    btree_set, BTreeSetOf, BTreeSet, Ord
);

macro_rules! map_gen {
    ($(#[$doc:meta])* $fun:ident, $ty:ident, $map:ident, $($bound:path),+) => {
        $(#[$doc])*
        pub fn $fun<K: Gen, V: Gen>(key: K, value: V, len: impl Length) -> $ty<K, V>
        where
            K::Value: $($bound +)+,
        {
            $ty { key, value, len: len.lengths() }
        }

        #[doc = concat!("See [`", stringify!($fun), "`].")]
        #[derive(Clone, Copy, Debug)]
        pub struct $ty<K, V> {
            key: K,
            value: V,
            len: Int<usize>,
        }

        impl<K: Gen, V: Gen> Gen for $ty<K, V>
        where
            K::Value: $($bound +)+,
        {
            type Value = $map<K::Value, V::Value>;
            fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<Self::Value> {
                let mut out = $map::new();
                grow(&self.len, src, size, &mut out, $map::len, |src, out| {
                    let k = self.key.generate(src, size)?;
                    if out.contains_key(&k) {
                        return Ok(false);
                    }
                    let v = self.value.generate(src, size)?;
                    out.insert(k, v);
                    Ok(true)
                })?;
                Ok(out)
            }
        }
    };
}

map_gen!(
    /// Hash maps with a length in `len`: a key from `key`, then (for a new
    /// key only) a value from `value`; a duplicate key is drawn again, see
    /// the module docs.
    ///
    /// ```
    /// use pbt_core::{gen::{bool, hash_map, int, Gen}, Rng};
    /// let m = hash_map(int(0..50u32), bool(), 1..=3).generate(&mut Rng::from_seed(1), 10).unwrap();
    /// assert!((1..=3).contains(&m.len()));
    /// ```
    hash_map, HashMapOf, HashMap, Eq, Hash
);

map_gen!(
    /// Ordered maps with a length in `len`: a key from `key`, then (for a new
    /// key only) a value from `value`; a duplicate key is drawn again, see
    /// the module docs.
    ///
    /// ```
    /// use pbt_core::{gen::{btree_map, int, string, Gen}, Rng};
    /// let m = btree_map(string("abc", 1..=2), int(0..9i8), 0..=5)
    ///     .generate(&mut Rng::from_seed(1), 10)
    ///     .unwrap();
    /// assert!(m.len() <= 5);
    /// ```
    btree_map, BTreeMapOf, BTreeMap, Ord
);

/// Vectors of distinct elements (by `==`) with a length in `len`, in the
/// order drawn; a duplicate is drawn again, see the module docs.
///
/// ```
/// use pbt_core::{gen::{int, vec_unique, Gen}, Rng};
/// let v = vec_unique(int(0..10u8), 4..=4).generate(&mut Rng::from_seed(3), 10).unwrap();
/// assert_eq!(v.len(), 4);
/// assert!(v.iter().enumerate().all(|(i, x)| !v[..i].contains(x)));
/// ```
pub fn vec_unique<G: Gen>(elem: G, len: impl Length) -> VecUnique<G>
where
    G::Value: PartialEq,
{
    VecUnique {
        elem,
        len: len.lengths(),
    }
}

/// See [`vec_unique`].
#[derive(Clone, Copy, Debug)]
pub struct VecUnique<G> {
    elem: G,
    len: Int<usize>,
}

impl<G: Gen> Gen for VecUnique<G>
where
    G::Value: PartialEq,
{
    type Value = Vec<G::Value>;
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<Self::Value> {
        let mut out = Vec::new();
        grow(&self.len, src, size, &mut out, Vec::len, |src, out| {
            let x = self.elem.generate(src, size)?;
            if out.contains(&x) {
                return Ok(false);
            }
            out.push(x);
            Ok(true)
        })?;
        Ok(out)
    }
}

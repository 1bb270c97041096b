//! The BST workload: binary search trees with insert, delete and union,
//! 8 mutants and 18 properties (ETNA, from *How to Specify It*).
//!
//! Generators (the same recipe in every library):
//! - **bespoke**: `n` uniform in `0..=20`, then `n` uniform `(key, value)`
//!   pairs inserted into `E` with the correct insert (ETNA's `Correct`
//!   strategy). Valid by construction.
//! - **type-based**: the structure of `Tree`: `E` at size 0, otherwise `E`
//!   or `T(l, k, v, r)` with equal weight and both subtrees at half the size
//!   (ETNA's `genericArbitraryRec (1 % 1 % ())` with base case `E`). The
//!   size is the library's: pbt's schedule (`0..=100`, cycling), quickcheck's
//!   fixed default 100, and 100 for proptest (which has no size).

pub mod spec;
pub mod tree;

use crate::common::{qc_below, Key, Val, TYPED_SIZE};
use crate::drivers::{Check, TreeWorkload};
use pbt::shrink::Candidates;
use pbt::Source;
use proptest::prelude::{any, Just, Strategy as _};
use proptest::strategy::BoxedStrategy;
pub use tree::Tree;

crate::named_enum! {
    /// The injected bugs of the BST workload ([`Mutant::Base`]: none).
    Mutant {
        /// The correct implementation.
        Base = "base",
        /// insert: a non-empty tree is replaced by a singleton.
        Insert1 = "insert_1",
        /// insert: the `k > k'` branch is missing.
        Insert2 = "insert_2",
        /// insert: an equal key keeps the old value.
        Insert3 = "insert_3",
        /// delete: recursing drops the root and the other subtree.
        Delete4 = "delete_4",
        /// delete: the comparison is flipped.
        Delete5 = "delete_5",
        /// union: graft without splitting.
        Union6 = "union_6",
        /// union: no splitting; equal keys merge left with left.
        Union7 = "union_7",
        /// union: the equal case does not split; `k < k'` splits only `l'`.
        Union8 = "union_8",
    }
}

crate::named_enum! {
    /// The properties of the BST workload.
    Property {
        /// See [`spec::insert_valid`].
        InsertValid = "InsertValid",
        /// See [`spec::delete_valid`].
        DeleteValid = "DeleteValid",
        /// See [`spec::union_valid`].
        UnionValid = "UnionValid",
        /// See [`spec::insert_post`].
        InsertPost = "InsertPost",
        /// See [`spec::delete_post`].
        DeletePost = "DeletePost",
        /// See [`spec::union_post`].
        UnionPost = "UnionPost",
        /// See [`spec::insert_model`].
        InsertModel = "InsertModel",
        /// See [`spec::delete_model`].
        DeleteModel = "DeleteModel",
        /// See [`spec::union_model`].
        UnionModel = "UnionModel",
        /// See [`spec::insert_insert`].
        InsertInsert = "InsertInsert",
        /// See [`spec::insert_delete`].
        InsertDelete = "InsertDelete",
        /// See [`spec::insert_union`].
        InsertUnion = "InsertUnion",
        /// See [`spec::delete_insert`].
        DeleteInsert = "DeleteInsert",
        /// See [`spec::delete_delete`].
        DeleteDelete = "DeleteDelete",
        /// See [`spec::delete_union`].
        DeleteUnion = "DeleteUnion",
        /// See [`spec::union_delete_insert`].
        UnionDeleteInsert = "UnionDeleteInsert",
        /// See [`spec::union_union_idem`].
        UnionUnionIdem = "UnionUnionIdem",
        /// See [`spec::union_union_assoc`].
        UnionUnionAssoc = "UnionUnionAssoc",
    }
}

/// The tasks: each mutant with the properties it falsifies — ETNA's 53
/// BST tasks.
pub fn tasks() -> Vec<(Mutant, Property)> {
    use Property::*;
    let table: [(Mutant, &[Property]); 8] = [
        (
            Mutant::Insert1,
            &[
                InsertPost,
                InsertModel,
                InsertInsert,
                InsertUnion,
                DeleteInsert,
                UnionDeleteInsert,
            ],
        ),
        (
            Mutant::Insert2,
            &[
                InsertPost,
                InsertModel,
                InsertInsert,
                InsertDelete,
                InsertUnion,
                DeleteInsert,
                UnionDeleteInsert,
            ],
        ),
        (
            Mutant::Insert3,
            &[
                InsertPost,
                InsertModel,
                InsertInsert,
                InsertDelete,
                InsertUnion,
                UnionDeleteInsert,
            ],
        ),
        (
            Mutant::Delete4,
            &[
                DeletePost,
                DeleteModel,
                InsertDelete,
                DeleteInsert,
                DeleteDelete,
                DeleteUnion,
                UnionDeleteInsert,
            ],
        ),
        (
            Mutant::Delete5,
            &[
                DeletePost,
                DeleteModel,
                DeleteInsert,
                DeleteDelete,
                DeleteUnion,
                UnionDeleteInsert,
            ],
        ),
        (
            Mutant::Union6,
            &[
                UnionValid,
                UnionPost,
                UnionModel,
                InsertUnion,
                DeleteUnion,
                UnionDeleteInsert,
                UnionUnionIdem,
                UnionUnionAssoc,
            ],
        ),
        (
            Mutant::Union7,
            &[
                UnionValid,
                UnionPost,
                UnionModel,
                InsertUnion,
                DeleteUnion,
                UnionDeleteInsert,
                UnionUnionAssoc,
            ],
        ),
        (
            Mutant::Union8,
            &[
                UnionPost,
                UnionModel,
                InsertUnion,
                DeleteUnion,
                UnionDeleteInsert,
                UnionUnionAssoc,
            ],
        ),
    ];
    table
        .iter()
        .flat_map(|(m, props)| props.iter().map(move |p| (*m, *p)))
        .collect()
}

/// The check of property `p`, by the shape of its inputs.
pub fn check(p: Property) -> Check<Bst> {
    use spec::*;
    match p {
        Property::InsertValid => Check::Tkv(insert_valid),
        Property::DeleteValid => Check::Tk(delete_valid),
        Property::UnionValid => Check::Tt(union_valid),
        Property::InsertPost => Check::Tkkv(insert_post),
        Property::DeletePost => Check::Tkk(delete_post),
        Property::UnionPost => Check::Ttk(union_post),
        Property::InsertModel => Check::Tkv(insert_model),
        Property::DeleteModel => Check::Tk(delete_model),
        Property::UnionModel => Check::Tt(union_model),
        Property::InsertInsert => Check::Tkkvv(insert_insert),
        Property::InsertDelete => Check::Tkkv(insert_delete),
        Property::InsertUnion => Check::Ttkv(insert_union),
        Property::DeleteInsert => Check::Tkkv(delete_insert),
        Property::DeleteDelete => Check::Tkk(delete_delete),
        Property::DeleteUnion => Check::Ttk(delete_union),
        Property::UnionDeleteInsert => Check::Ttkv(union_delete_insert),
        Property::UnionUnionIdem => Check::T(union_union_idem),
        Property::UnionUnionAssoc => Check::Ttt(union_union_assoc),
    }
}

/// The most bindings the bespoke generator inserts.
pub const BESPOKE_MAX: usize = 20;

/// The tree of `pairs` inserted right to left into `E` by the correct
/// insert (ETNA's `foldr (uncurry insert) E`).
pub fn from_pairs(pairs: Vec<(Key, Val)>) -> Tree {
    pairs
        .into_iter()
        .rev()
        .fold(Tree::E, |t, (k, v)| tree::insert(Mutant::Base, k, v, &t))
}

/// The BST workload, for the drivers.
pub struct Bst;

impl TreeWorkload for Bst {
    type Tree = Tree;
    type Mutant = Mutant;

    #[inline(never)] // counted apart by `etna --cost` (a call per input, in every library)
    fn valid(t: &Tree) -> bool {
        tree::is_bst(t)
    }

    fn defects(t: &Tree) -> u64 {
        tree::defects(t)
    }

    fn pbt_bespoke() -> impl pbt::Gen<Value = Tree> + Send + Sync {
        pbt::generator!(map(
            vec(
                (
                    map(int(crate::common::KEY_MIN..=crate::common::KEY_MAX), Key),
                    map(bool(), Val)
                ),
                0..=BESPOKE_MAX
            ),
            from_pairs
        ))
    }

    fn proptest_bespoke() -> BoxedStrategy<Tree> {
        proptest::collection::vec((any::<Key>(), any::<Val>()), 0..=BESPOKE_MAX)
            .prop_map(from_pairs)
            .boxed()
    }

    fn proptest_typed() -> BoxedStrategy<Tree> {
        fn sized(size: usize) -> BoxedStrategy<Tree> {
            if size == 0 {
                return Just(Tree::E).boxed();
            }
            let sub = sized(size / 2);
            proptest::prop_oneof![
                Just(Tree::E),
                (sub.clone(), any::<Key>(), any::<Val>(), sub)
                    .prop_map(|(l, k, v, r)| tree::node(l, k, v, r)),
            ]
            .boxed()
        }
        sized(TYPED_SIZE)
    }

    fn quickcheck_bespoke(g: &mut quickcheck::Gen) -> Tree {
        use quickcheck::Arbitrary;
        let n = qc_below(g, BESPOKE_MAX + 1);
        from_pairs(
            (0..n)
                .map(|_| (Key::arbitrary(g), Val::arbitrary(g)))
                .collect(),
        )
    }
}

/// pbt's type-based generator for `Tree`, written by hand in the shape
/// `#[derive(Arbitrary)]` gives (see the module docs for the recipe).
impl pbt::Arbitrary for Tree {
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        if size == 0 || src.draw(1) == 0 {
            return Tree::E;
        }
        let l = Tree::arbitrary(src, size / 2);
        let k = <Key as pbt::Arbitrary>::arbitrary(src, size);
        let v = <Val as pbt::Arbitrary>::arbitrary(src, size);
        let r = Tree::arbitrary(src, size / 2);
        tree::node(l, k, v, r)
    }
}

/// The fuzzer's mutation by value (FuzzChick's way): down a random path,
/// replace a subtree with a fresh one, or change a key or a value.
impl pbt::Mutate for Tree {
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        let Tree::T(l, k, v, r) = self else {
            return <Tree as pbt::Arbitrary>::arbitrary(src, size.max(1));
        };
        match src.draw(4) {
            0 => <Tree as pbt::Arbitrary>::arbitrary(src, size / 2),
            1 => tree::node((**l).mutate(src, size / 2), *k, *v, (**r).clone()),
            2 => tree::node((**l).clone(), *k, *v, (**r).mutate(src, size / 2)),
            3 => tree::node((**l).clone(), k.mutate(src, size), *v, (**r).clone()),
            _ => tree::node((**l).clone(), *k, v.mutate(src, size), (**r).clone()),
        }
    }
}

/// Not shrunk: the benchmark times the first failure.
impl pbt::Shrink for Tree {
    fn shrink(&self) -> Candidates<'_, Self> {
        Box::new(std::iter::empty())
    }
}

/// quickcheck's type-based generator for `Tree`: the same recipe at
/// quickcheck's size.
impl quickcheck::Arbitrary for Tree {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        fn sized(g: &mut quickcheck::Gen, size: usize) -> Tree {
            if size == 0 || !bool::arbitrary(g) {
                return Tree::E;
            }
            let l = sized(g, size / 2);
            let k = Key::arbitrary(g);
            let v = Val::arbitrary(g);
            let r = sized(g, size / 2);
            tree::node(l, k, v, r)
        }
        sized(g, g.size())
    }
}

/// Run one trial of property `p` under mutant `m` with `strategy`.
pub fn run(
    strategy: crate::strategy::Strategy,
    m: Mutant,
    p: Property,
    probe: &std::sync::Arc<crate::probe::Probe>,
    seed: u64,
) -> Result<(), String> {
    crate::drivers::run::<Bst>(strategy, m, check(p), probe, seed)
}

//! How each library's runner is driven on the workloads (BST, RBT, and
//! STLC, whose "trees" are terms).
//!
//! A property of a tree workload takes some trees, keys and values — one
//! of ten shapes, a [`Check`] — and has the precondition that every tree is
//! valid. Each library's driver turns a `Check` into a property in that
//! library's own idiom (a `property!` with `implies`, a proptest strategy
//! and `TestRunner::run` with rejections, a quickcheck `fn` returning
//! `TestResult::discard()`), generates the trees with the workload's bespoke
//! or type-based generator, and runs the library's runner until the
//! [`crate::probe::Probe`] ends the trial.

pub mod pbt;
pub mod proptest;
pub mod quickcheck;

use crate::common::{Key, Val};
use crate::probe::Probe;
use crate::strategy::{Library, Strategy};
use std::fmt::Debug;
use std::sync::Arc;

/// Run one trial of `check` under mutant `m` with `strategy`; `Err` says why
/// the library's runner stopped without a failing test.
pub fn run<W: TreeWorkload>(
    strategy: Strategy,
    m: W::Mutant,
    check: Check<W>,
    probe: &Arc<Probe>,
    seed: u64,
) -> Result<(), String> {
    match strategy.library {
        Library::Pbt => pbt::run(strategy.kind, strategy.runner, m, check, probe, seed),
        Library::Proptest => proptest::run(strategy.kind, m, check, probe, seed),
        Library::Quickcheck => quickcheck::run(strategy.kind, m, check, Arc::clone(probe), seed),
    }
}

/// What a tree workload provides to the drivers.
pub trait TreeWorkload: 'static + Sized {
    /// The trees (valid or not).
    type Tree: Clone
        + Debug
        + 'static
        + ::pbt::Arbitrary
        + ::pbt::Shrink
        + ::pbt::Mutate
        + ::quickcheck::Arbitrary;
    /// The injected bugs.
    type Mutant: Copy + Debug + PartialEq + Send + Sync + 'static;

    /// The precondition every input tree must meet.
    fn valid(t: &Self::Tree) -> bool;

    /// How far `t` is from meeting the precondition: 0 exactly when
    /// [`TreeWorkload::valid`] holds, more the more of the invariant it
    /// breaks. The targeted runner climbs towards 0 (its precondition is
    /// written `defects == 0`, from which `property!` derives the utility).
    fn defects(t: &Self::Tree) -> u64;

    /// pbt's bespoke generator: valid trees by construction.
    fn pbt_bespoke() -> impl ::pbt::Gen<Value = Self::Tree> + Send + Sync;

    /// proptest's bespoke strategy: the same recipe with proptest combinators.
    fn proptest_bespoke() -> ::proptest::strategy::BoxedStrategy<Self::Tree>;

    /// proptest's type-based strategy: the structural recipe.
    fn proptest_typed() -> ::proptest::strategy::BoxedStrategy<Self::Tree>;

    /// quickcheck's bespoke generator: the same recipe over `quickcheck::Gen`.
    fn quickcheck_bespoke(g: &mut ::quickcheck::Gen) -> Self::Tree;
}

/// The check of a property, by the shape of its inputs: `T` a tree, `K` a
/// key, `V` a value, in that order.
// The fn-pointer types spell each shape out; aliases would hide it.
#[allow(clippy::type_complexity)]
pub enum Check<W: TreeWorkload> {
    /// `(t)`
    T(fn(W::Mutant, &W::Tree) -> bool),
    /// `(t, k)`
    Tk(fn(W::Mutant, &W::Tree, Key) -> bool),
    /// `(t, k, v)`
    Tkv(fn(W::Mutant, &W::Tree, Key, Val) -> bool),
    /// `(t, k, k')`
    Tkk(fn(W::Mutant, &W::Tree, Key, Key) -> bool),
    /// `(t, k, k', v)`
    Tkkv(fn(W::Mutant, &W::Tree, Key, Key, Val) -> bool),
    /// `(t, k, k', v, v')`
    Tkkvv(fn(W::Mutant, &W::Tree, Key, Key, Val, Val) -> bool),
    /// `(t, t')`
    Tt(fn(W::Mutant, &W::Tree, &W::Tree) -> bool),
    /// `(t, t', k)`
    Ttk(fn(W::Mutant, &W::Tree, &W::Tree, Key) -> bool),
    /// `(t, t', k, v)`
    Ttkv(fn(W::Mutant, &W::Tree, &W::Tree, Key, Val) -> bool),
    /// `(t, t', t'')`
    Ttt(fn(W::Mutant, &W::Tree, &W::Tree, &W::Tree) -> bool),
}

impl<W: TreeWorkload> Clone for Check<W> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<W: TreeWorkload> Copy for Check<W> {}

/// Match `$check` and expand `$go!(Variant, f; [trees] [others])` for its
/// shape: the variant's name, its check function bound to `f`, the tree
/// variables and the key and value variables with their types. Every driver
/// matches on a `Check` through this one list.
macro_rules! for_each_shape {
    ($check:expr, $go:ident) => {
        match $check {
            $crate::drivers::Check::T(f) => $go!(T, f; [t] []),
            $crate::drivers::Check::Tk(f) => $go!(Tk, f; [t] [k: Key]),
            $crate::drivers::Check::Tkv(f) => $go!(Tkv, f; [t] [k: Key, v: Val]),
            $crate::drivers::Check::Tkk(f) => $go!(Tkk, f; [t] [k: Key, k2: Key]),
            $crate::drivers::Check::Tkkv(f) => $go!(Tkkv, f; [t] [k: Key, k2: Key, v: Val]),
            $crate::drivers::Check::Tkkvv(f) => $go!(Tkkvv, f; [t] [k: Key, k2: Key, v: Val, v2: Val]),
            $crate::drivers::Check::Tt(f) => $go!(Tt, f; [t, t2] []),
            $crate::drivers::Check::Ttk(f) => $go!(Ttk, f; [t, t2] [k: Key]),
            $crate::drivers::Check::Ttkv(f) => $go!(Ttkv, f; [t, t2] [k: Key, v: Val]),
            $crate::drivers::Check::Ttt(f) => $go!(Ttt, f; [t, t2, t3] []),
        }
    };
}
pub(crate) use for_each_shape;

/// The second argument, once per first argument (to repeat an expression
/// once per variable of a shape).
macro_rules! each {
    ($_var:tt, $($e:tt)*) => {
        $($e)*
    };
}
pub(crate) use each;

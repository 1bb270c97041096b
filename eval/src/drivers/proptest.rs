//! proptest's driver: each shape is a tuple strategy — trees from the
//! workload's bespoke or type-based strategy, keys and values from
//! `any::<Key>()` / `any::<Val>()` — run by `TestRunner::run`, the
//! precondition a rejection (`TestCaseError::reject`, as `prop_assume!`).

use super::{each, for_each_shape, Check, TreeWorkload};
use crate::common::{proptest_config, proptest_outcome, proptest_verdict, Key, Val};
use crate::probe::Probe;
use crate::strategy::Kind;
use proptest::prelude::any;
use proptest::strategy::{NewTree, Strategy, ValueTree};
use proptest::test_runner::TestRunner;

/// A tree strategy whose `new_tree` is never inlined, so that
/// `valgrind --tool=callgrind` counts generation apart from the runner
/// (`etna --cost`), as in the other libraries' drivers.
#[derive(Clone, Debug)]
pub struct Trees<S>(pub S);

impl<S: Strategy> Strategy for Trees<S> {
    type Tree = TreeValue<S::Tree>;
    type Value = S::Value;

    #[inline(never)]
    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        self.0.new_tree(runner).map(TreeValue)
    }
}

/// The value tree of [`Trees`]: `current` (where a mapped strategy such as
/// the bespoke trees' builds its value) is never inlined either.
#[derive(Clone, Debug)]
pub struct TreeValue<T>(pub T);

impl<T: ValueTree> ValueTree for TreeValue<T> {
    type Value = T::Value;

    #[inline(never)]
    fn current(&self) -> T::Value {
        self.0.current()
    }

    fn simplify(&mut self) -> bool {
        self.0.simplify()
    }

    fn complicate(&mut self) -> bool {
        self.0.complicate()
    }
}

/// Run one trial of `check` under mutant `m` with proptest's strategy of `kind`.
pub fn run<W: TreeWorkload>(
    kind: Kind,
    m: W::Mutant,
    check: Check<W>,
    probe: &Probe,
    seed: u64,
) -> Result<(), String> {
    let tree = Trees(match kind {
        Kind::Bespoke => W::proptest_bespoke(),
        Kind::TypeBased => W::proptest_typed(),
        Kind::Variational => return Err("proptest has no variational strategy".into()),
    });
    let mut runner = TestRunner::new(proptest_config(seed));
    macro_rules! go {
        ($_variant:ident, $f:ident; [$($t:ident),*] [$($x:ident : $xt:ident),*]) => {
            proptest_outcome(runner.run(
                &($(each!($t, tree.clone()),)* $(any::<$xt>(),)*),
                |($($t,)* $($x,)*)| {
                    proptest_verdict(probe, true $(&& W::valid(&$t))*, || $f(m, $(&$t,)* $($x),*))
                },
            ))
        };
    }
    for_each_shape!(check, go)
}

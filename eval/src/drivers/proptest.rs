//! proptest's driver: each shape is a tuple strategy — trees from the
//! workload's bespoke or type-based strategy, keys and values from
//! `any::<Key>()` / `any::<Val>()` — run by `TestRunner::run`, the
//! precondition a rejection (`TestCaseError::reject`, as `prop_assume!`).

use super::{each, for_each_shape, Check, TreeWorkload};
use crate::common::{proptest_config, proptest_outcome, proptest_verdict, Key, Val};
use crate::probe::Probe;
use crate::strategy::Kind;
use proptest::prelude::any;
use proptest::test_runner::TestRunner;

/// Run one trial of `check` under mutant `m` with proptest's strategy of `kind`.
pub fn run<W: TreeWorkload>(
    kind: Kind,
    m: W::Mutant,
    check: Check<W>,
    probe: &Probe,
    seed: u64,
) -> Result<(), String> {
    let tree = match kind {
        Kind::Bespoke => W::proptest_bespoke(),
        Kind::TypeBased => W::proptest_typed(),
    };
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

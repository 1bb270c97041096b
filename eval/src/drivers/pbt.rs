//! pbt's driver: each shape is a `property!` — trees from the bespoke
//! generator (`#[gen = …]`) or from `Arbitrary` (type-based), keys and
//! values from `Arbitrary`, `implies` the validity of every tree, `check` the
//! property — run by the generational runner.

use super::{for_each_shape, Check, TreeWorkload};
use crate::common::{pbt_config, pbt_outcome, Key, Val};
use crate::probe::Probe;
use crate::strategy::Kind;
use pbt::runners::generational;

/// Run one trial of `check` under mutant `m` with pbt's strategy of `kind`.
pub fn run<W: TreeWorkload>(
    kind: Kind,
    m: W::Mutant,
    check: Check<W>,
    probe: &Probe,
    seed: u64,
) -> Result<(), String> {
    let config = pbt_config(seed);
    macro_rules! go {
        ($_variant:ident, $f:ident; [$($t:ident),*] [$($x:ident : $xt:ident),*]) => {
            match kind {
                Kind::Bespoke => pbt_outcome(generational(
                    &pbt::property! {
                        $(forall $t: W::Tree, #[gen = W::pbt_bespoke()];)*
                        $(forall $x: $xt;)*
                        implies probe.admit(true $(&& W::valid($t))*);
                        check probe.check(|| $f(m, $($t,)* $($x),*))
                    },
                    config,
                )),
                Kind::TypeBased => pbt_outcome(generational(
                    &pbt::property! {
                        $(forall $t: W::Tree;)*
                        $(forall $x: $xt;)*
                        implies probe.admit(true $(&& W::valid($t))*);
                        check probe.check(|| $f(m, $($t,)* $($x),*))
                    },
                    config,
                )),
            }
        };
    }
    for_each_shape!(check, go)
}

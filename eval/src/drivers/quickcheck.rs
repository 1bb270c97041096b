//! quickcheck's driver: each shape is a plain `fn` over `Arbitrary`
//! arguments (quickcheck's properties cannot capture), reading the trial's
//! mutant, probe and check from a thread-local, returning
//! `TestResult::discard()` when the precondition fails; run by
//! `QuickCheck::quicktest` from a seeded `Gen` of quickcheck's default size.

use super::{each, for_each_shape, Check, TreeWorkload};
use crate::common::{
    qc_verdict, quickcheck_context, quickcheck_run, with_quickcheck_context, Key, QcContext, Val,
};
use crate::probe::Probe;
use crate::strategy::Kind;
use quickcheck::{Arbitrary, Gen, TestResult};
use std::fmt;
use std::sync::Arc;

/// A tree argument of a quickcheck property.
pub trait TreeInput<W: TreeWorkload>: Arbitrary + fmt::Debug {
    /// The tree.
    fn tree(&self) -> &W::Tree;
}

/// A tree from the workload's bespoke generator.
pub struct Bespoke<W: TreeWorkload>(pub W::Tree);

/// A tree from the tree type's `quickcheck::Arbitrary` (type-based).
pub struct Typed<W: TreeWorkload>(pub W::Tree);

macro_rules! tree_input {
    ($name:ident, |$g:ident| $gen:expr) => {
        impl<W: TreeWorkload> Clone for $name<W> {
            fn clone(&self) -> Self {
                $name(self.0.clone())
            }
        }

        impl<W: TreeWorkload> fmt::Debug for $name<W> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        /// Not shrunk: the benchmark times the first failure.
        impl<W: TreeWorkload> Arbitrary for $name<W> {
            // Counted apart by `etna --cost`, as in the other drivers.
            #[inline(never)]
            fn arbitrary($g: &mut Gen) -> Self {
                $name($gen)
            }
        }

        impl<W: TreeWorkload> TreeInput<W> for $name<W> {
            fn tree(&self) -> &W::Tree {
                &self.0
            }
        }
    };
}

tree_input!(Bespoke, |g| W::quickcheck_bespoke(g));
tree_input!(Typed, |g| <W::Tree as Arbitrary>::arbitrary(g));

/// Run one trial of `check` under mutant `m` with quickcheck's strategy of `kind`.
pub fn run<W: TreeWorkload>(
    kind: Kind,
    m: W::Mutant,
    check: Check<W>,
    probe: Arc<Probe>,
    seed: u64,
) -> Result<(), String> {
    match kind {
        Kind::Bespoke => drive::<W, Bespoke<W>>(m, check, probe, seed),
        Kind::TypeBased => drive::<W, Typed<W>>(m, check, probe, seed),
        Kind::Variational => Err("quickcheck has no variational strategy".into()),
    }
}

/// Run `check` with trees of type `I`.
fn drive<W: TreeWorkload, I: TreeInput<W>>(
    m: W::Mutant,
    check: Check<W>,
    probe: Arc<Probe>,
    seed: u64,
) -> Result<(), String> {
    let context = QcContext {
        mutant: m,
        probe,
        check,
    };
    with_quickcheck_context(context, || {
        macro_rules! go {
            ($variant:ident, $f:ident; [$($t:ident),*] [$($x:ident : $xt:ident),*]) => {{
                let _ = $f;
                /// The property: a plain `fn`, as quickcheck requires.
                fn property<W: TreeWorkload, I: TreeInput<W>>($($t: I,)* $($x: $xt),*) -> TestResult {
                    quickcheck_context(|c: &QcContext<W::Mutant, Check<W>>| {
                        let f = match c.check {
                            Check::$variant(f) => f,
                            _ => unreachable!("the context holds the check being run"),
                        };
                        qc_verdict(&c.probe, true $(&& W::valid($t.tree()))*, || {
                            f(c.mutant, $($t.tree(),)* $($x),*)
                        })
                    })
                }
                quickcheck_run(seed, property::<W, I> as fn($(each!($t, I),)* $($xt),*) -> TestResult)
            }};
        }
        for_each_shape!(check, go)
    })
}

//! pbt's driver: each shape is a `property!` — trees from the bespoke
//! generator (`#[gen = …]`) or from `Arbitrary` (type-based), keys and
//! values from `Arbitrary`, `implies` the validity of every tree, `check` the
//! property — run by the strategy's runner.
//!
//! Under the targeted runner the precondition is written
//! `defects(t) + … == 0`, from which `property!` derives a graded utility
//! (the automatic precondition targeting of *Flexible and Automatic
//! Targeted Property-Based Testing*); under every other runner it is the
//! plain `valid(t) && …`, which gives no utility.

use super::{for_each_shape, Check, TreeWorkload};
use crate::common::{pbt_config, pbt_outcome, Key, Val};
use crate::probe::Probe;
use crate::strategy::{Kind, PoolConfig, Runner};
use pbt::runners::components::seed_pool::{Energy, Pool};
use pbt::runners::{fuzz, generational, integrated, parallel, targeted, Config, Mutation, Report};
use pbt::Property;
use pbt_exhaustive::{exhaustive_prefix_to, exhaustive_to, Bound, PREFIX};

/// The exhaustive runner's bound: choice sequences of up to 64 draws, at
/// most a million inputs (the breadth-first levels it keeps stay within
/// about 100 MB). A trial that exhausts it without a failure is unsolved.
pub const EXHAUSTIVE_BOUND: Bound = Bound {
    depth: 64,
    count: 1_000_000,
};

/// A tree generator whose `generate` is never inlined, so that
/// `valgrind --tool=callgrind` counts generation apart from the runner
/// (`etna --cost`); the other libraries' tree generators are wrapped alike
/// (a call per tree, about a nanosecond).
pub struct Trees<G>(pub G);

impl<G: pbt::Gen> pbt::Gen for Trees<G> {
    type Value = G::Value;

    #[inline(never)]
    fn generate<S: pbt::Source + ?Sized>(
        &self,
        src: &mut S,
        size: usize,
    ) -> pbt::Generated<G::Value> {
        self.0.generate(src, size)
    }
}

/// Run `prop` under `runner`.
pub fn run_with<P: Property + Sync>(runner: Runner, prop: &P, config: Config) -> Report {
    match runner {
        Runner::FuzzPool(p) => fuzz(prop, config.pool(pool(p))),
        Runner::Generational => generational(prop, config),
        Runner::Parallel => parallel(prop, config),
        Runner::FuzzChoices => fuzz(prop, config.mutation(Mutation::Choices)),
        Runner::FuzzValues => fuzz(prop, config.mutation(Mutation::Values)),
        Runner::Targeted => targeted(prop, config),
        Runner::Integrated => integrated(prop, config),
        Runner::Exhaustive => exhaustive_to(prop, config, EXHAUSTIVE_BOUND),
        Runner::ExhaustivePrefix => exhaustive_prefix_to(prop, config, PREFIX),
    }
}

/// The seed pool of a [`PoolConfig`], every energy fixed (*Programmable
/// Property-Based Testing* §6.3.1).
pub fn pool(p: PoolConfig) -> Pool {
    let e = |n: u16| Energy::Fixed(u64::from(n));
    match p {
        PoolConfig::Fifo(n) => Pool::FifoQueue(e(n)),
        PoolConfig::Filo(n) => Pool::FiloQueue(e(n)),
        PoolConfig::Heap(n) => Pool::Heap(e(n)),
        PoolConfig::DynamicMonotonic(n) => Pool::DynamicMonotonicSingleton(e(n)),
        PoolConfig::DynamicResetting(n) => Pool::DynamicResettingSingleton(e(n)),
        PoolConfig::Static => Pool::StaticSingleton,
    }
}

/// Run one trial of `check` under mutant `m` with pbt's strategy of `kind`
/// under `runner`.
pub fn run<W: TreeWorkload>(
    kind: Kind,
    runner: Runner,
    m: W::Mutant,
    check: Check<W>,
    probe: &Probe,
    seed: u64,
) -> Result<(), String> {
    // A pool strategy mutates type-based inputs by value (the paper's
    // type-based mutator) and bespoke ones by choices (a `#[gen]` variable
    // has no by-value mutator).
    let config = match (runner, kind) {
        (Runner::FuzzPool(_), Kind::Bespoke) => pbt_config(seed).mutation(Mutation::Choices),
        (Runner::FuzzPool(_), _) => pbt_config(seed).mutation(Mutation::Values),
        _ => pbt_config(seed),
    };
    let graded = runner == Runner::Targeted;
    macro_rules! go {
        ($_variant:ident, $f:ident; [$($t:ident),*] [$($x:ident : $xt:ident),*]) => {
            match (kind, graded) {
                (Kind::Bespoke, false) => pbt_outcome(run_with(
                    runner,
                    &pbt::property! {
                        $(forall $t: W::Tree, #[gen = Trees(W::pbt_bespoke())];)*
                        $(forall $x: $xt;)*
                        implies probe.admit(true $(&& W::valid($t))*);
                        check probe.check(|| $f(m, $($t,)* $($x),*))
                    },
                    config,
                )),
                (Kind::TypeBased, false) => pbt_outcome(run_with(
                    runner,
                    &pbt::property! {
                        $(forall $t: W::Tree;)*
                        $(forall $x: $xt;)*
                        implies probe.admit(true $(&& W::valid($t))*);
                        check probe.check(|| $f(m, $($t,)* $($x),*))
                    },
                    config,
                )),
                (Kind::Bespoke, true) => pbt_outcome(run_with(
                    runner,
                    &pbt::property! {
                        $(forall $t: W::Tree, #[gen = Trees(W::pbt_bespoke())];)*
                        $(forall $x: $xt;)*
                        implies probe.graded(0 $(+ W::defects($t))*) == 0;
                        check probe.check(|| $f(m, $($t,)* $($x),*))
                    },
                    config,
                )),
                (Kind::Variational, _) => Err("no variational strategy for this workload".into()),
                (Kind::TypeBased, true) => pbt_outcome(run_with(
                    runner,
                    &pbt::property! {
                        $(forall $t: W::Tree;)*
                        $(forall $x: $xt;)*
                        implies probe.graded(0 $(+ W::defects($t))*) == 0;
                        check probe.check(|| $f(m, $($t,)* $($x),*))
                    },
                    config,
                )),
            }
        };
    }
    for_each_shape!(check, go)
}

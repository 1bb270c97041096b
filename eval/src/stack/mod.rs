//! The stack-machine workload: *Testing Noninterference, Quickly*'s
//! information-flow stack machine with its 14 bugs, as *Flexible and
//! Automatic Targeted Property-Based Testing* §5.1 tests it: end-to-end
//! noninterference (EENI) over pairs of initial machines that differ only
//! in secret data, the baseline generator, and Table 1's diversity-weighted
//! execution length as the target.
//!
//! EENI: run both machines for at most [`STEPS`] steps; when both end at a
//! `Halt` with a public pc (the precondition: otherwise the pair is
//! discarded, as QuickCheck's `False ==> True` in the Haskell property),
//! the final machines must be indistinguishable.

pub mod gen;
pub mod machine;
mod targets;

use crate::common::qc_below;
use crate::drivers::{Check, TreeWorkload};
use crate::ifc::Recipe;
use crate::stlc::gen::{Draw, FromSource};
pub use machine::Bug;
use machine::{halted_low, indist, trace, Machine};
use pbt::shrink::Candidates;
use pbt::{Gen, Generated, Source};
use proptest::strategy::{BoxedStrategy, Strategy as _};
pub use targets::{high_pc_stores, secret_returns, secret_stores, Target};

/// The steps each machine runs (the Haskell driver's `step_no`).
pub const STEPS: usize = 50;

crate::named_enum! {
    /// The property of the stack-machine workload.
    Property {
        /// End-to-end noninterference.
        Eeni = "EENI",
    }
}

/// A pair of machines that differ only in secret data (a `Variation`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pair(pub Machine, pub Machine);

/// The tasks: every bug with EENI.
pub fn tasks() -> Vec<(Bug, Property)> {
    Bug::ALL
        .iter()
        .filter(|b| **b != Bug::Base)
        .map(|b| (*b, Property::Eeni))
        .collect()
}

/// The mutant under which the precondition runs the machines, set by
/// [`run`] for the trial (the drivers' precondition takes no mutant).
static BUG: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The bug of the trial running now.
fn current_bug() -> Bug {
    Bug::ALL[BUG.load(std::sync::atomic::Ordering::Relaxed)]
}

/// Set the bug the precondition runs the machines under.
pub fn set_bug(b: Bug) {
    let i = Bug::ALL.iter().position(|x| *x == b).unwrap_or(0);
    BUG.store(i, std::sync::atomic::Ordering::Relaxed);
}

/// EENI's precondition under `bug`: both machines halt with a public pc
/// within [`STEPS`] steps. Reports the [`Target`] set for the trials
/// (Table 1's by default) with `target(x)`, and a rule target's level
/// with `cover(id)` (both are no-ops outside the feedback runners).
pub fn both_halt_low(bug: Bug, p: &Pair) -> bool {
    let runs = runs(bug, p);
    pbt::prelude::target(runs.target);
    if let Some(level) = runs.level {
        pbt::prelude::cover(level);
    }
    runs.halted_low
}

/// EENI under `bug` for a pair whose machines both halt low.
pub fn eeni(bug: Bug, p: &Pair) -> bool {
    runs(bug, p).eeni
}

/// What the runs of a pair's two machines came to: each test runs them
/// once, though the precondition, the check and the targeted runner's
/// utility (the precondition again) all ask.
#[derive(Clone, Copy, Debug)]
struct Runs {
    /// Both machines halted with a public pc.
    halted_low: bool,
    /// EENI holds: not both halted low, or their final states are
    /// indistinguishable.
    eeni: bool,
    /// The value of the trials' [`Target`].
    target: f64,
    /// The coverage point of a rule target's value ([`Target::level`]).
    level: Option<u64>,
}

thread_local! {
    /// The last pair run on this thread, under which bug and target, and
    /// its [`Runs`].
    static LAST: std::cell::RefCell<Option<(Bug, Target, Pair, Runs)>> =
        const { std::cell::RefCell::new(None) };
}

/// The runs of `p` under `bug`: the last pair's when it is `p` again
/// (the check after the precondition), else run now.
fn runs(bug: Bug, p: &Pair) -> Runs {
    let target = target();
    let hit = LAST.with(|last| match &*last.borrow() {
        Some((b, t, q, runs)) if *b == bug && *t == target && q == p => Some(*runs),
        _ => None,
    });
    if let Some(runs) = hit {
        return runs;
    }
    let (t1, t2) = (trace(bug, &p.0, STEPS), trace(bug, &p.1, STEPS));
    let (a, b) = (
        t1.last().expect("a trace is never empty"),
        t2.last().expect("a trace is never empty"),
    );
    let halted_low = halted_low(a) && halted_low(b);
    let runs = Runs {
        halted_low,
        eeni: !halted_low || indist(a, b),
        target: target.value(&t1, &t2, halted_low),
        level: target.level(&t1, &t2, halted_low),
    };
    LAST.with(|last| *last.borrow_mut() = Some((bug, target, p.clone(), runs)));
    runs
}

/// The target of the trials running now (set by `etna --stack-target`).
static TARGET: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Set the target the precondition reports.
pub fn set_target(t: Target) {
    let i = Target::ALL.iter().position(|x| *x == t).unwrap_or(0);
    TARGET.store(i as u8, std::sync::atomic::Ordering::Relaxed);
}

fn target() -> Target {
    let i = usize::from(TARGET.load(std::sync::atomic::Ordering::Relaxed));
    Target::ALL.get(i).copied().unwrap_or(Target::Diversity)
}

/// The check of property `p`.
pub fn check(p: Property) -> Check<Stack> {
    match p {
        Property::Eeni => Check::T(eeni),
    }
}

/// The stack-machine workload, for the drivers (its "tree" is a [`Pair`]).
pub struct Stack;

impl TreeWorkload for Stack {
    type Tree = Pair;
    type Mutant = Bug;

    #[inline(never)]
    fn valid(p: &Pair) -> bool {
        both_halt_low(current_bug(), p)
    }

    fn defects(p: &Pair) -> u64 {
        u64::from(!both_halt_low(current_bug(), p))
    }

    fn pbt_bespoke() -> impl Gen<Value = Pair> + Send + Sync {
        Baseline
    }

    fn proptest_bespoke() -> BoxedStrategy<Pair> {
        Recipe(|rng| {
            let size = rng.below(gen::MAX_SIZE as u64 + 1) as usize;
            let (a, b) = gen::baseline(rng, size);
            Pair(a, b)
        })
        .boxed()
    }

    fn proptest_typed() -> BoxedStrategy<Pair> {
        Recipe(|rng| {
            let size = rng.below(gen::MAX_SIZE as u64 + 1) as usize;
            let (a, b) = gen::naive(rng, size);
            Pair(a, b)
        })
        .boxed()
    }

    fn quickcheck_bespoke(g: &mut quickcheck::Gen) -> Pair {
        let size = qc_below(g, gen::MAX_SIZE + 1);
        let (a, b) = gen::baseline(g, size);
        Pair(a, b)
    }
}

/// pbt's baseline generator, at the runner's size (capped at 99).
#[derive(Clone, Copy, Debug)]
pub struct Baseline;

impl Gen for Baseline {
    type Value = Pair;

    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<Pair> {
        let (a, b) = gen::baseline(&mut FromSource(src), size);
        Ok(Pair(a, b))
    }
}

/// The type-based strategy: the naive generator.
impl pbt::Arbitrary for Pair {
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        let (a, b) = gen::naive(&mut FromSource(src), size);
        Pair(a, b)
    }
}

/// Mutation by value: one instruction of the program replaced by a fresh
/// one (the same in both machines, a secret push varied again), then the
/// variation redrawn.
impl pbt::Mutate for Pair {
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        let mut d = FromSource(src);
        let (fresh, _) = gen::baseline(&mut d, size);
        let mut m = self.0.clone();
        if !m.imem.is_empty() && !fresh.imem.is_empty() {
            let at = d.below(m.imem.len() as u64) as usize;
            let from = d.below(fresh.imem.len() as u64) as usize;
            m.imem[at] = fresh.imem[from];
        }
        let m2 = gen::vary(&mut d, &m);
        Pair(m, m2)
    }
}

impl pbt::Shrink for Pair {
    fn shrink(&self) -> Candidates<'_, Self> {
        Box::new(std::iter::empty())
    }
}

impl quickcheck::Arbitrary for Pair {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        let size = qc_below(g, gen::MAX_SIZE + 1);
        let (a, b) = gen::naive(g, size);
        Pair(a, b)
    }
}

/// Run one trial of property `p` under bug `b` with `strategy`.
pub fn run(
    strategy: crate::strategy::Strategy,
    b: Bug,
    p: Property,
    probe: &std::sync::Arc<crate::probe::Probe>,
    seed: u64,
) -> Result<(), String> {
    set_bug(b);
    crate::drivers::run::<Stack>(strategy, b, check(p), probe, seed)
}

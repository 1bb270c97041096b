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

use crate::common::qc_below;
use crate::drivers::{Check, TreeWorkload};
use crate::ifc::Recipe;
use crate::stlc::gen::{Draw, FromSource};
pub use machine::Bug;
use machine::{diversity, halted_low, indist, trace, Machine};
use pbt::shrink::Candidates;
use pbt::{Gen, Generated, Source};
use proptest::strategy::{BoxedStrategy, Strategy as _};

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
/// (Table 1's by default; `target` is a no-op outside the feedback
/// runners).
pub fn both_halt_low(bug: Bug, p: &Pair) -> bool {
    let t1 = trace(bug, &p.0, STEPS);
    let low1 = halted_low(t1.last().expect("a trace is never empty"));
    let low2 = |t2: &[Machine]| halted_low(t2.last().expect("never empty"));
    match target() {
        Target::Diversity => {
            pbt::prelude::target(diversity(&t1));
            low1 && low2(&trace(bug, &p.1, STEPS))
        }
        Target::SecretStores => {
            let t2 = trace(bug, &p.1, STEPS);
            pbt::prelude::target(secret_stores(&t1) + secret_stores(&t2) + 0.1 * diversity(&t1));
            low1 && low2(&t2)
        }
    }
}

/// The target the precondition reports to the targeted runner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Table 1 of *Flexible and Automatic TPBT*: the first machine's
    /// diversity-weighted count of executed instructions ([`diversity`]).
    Diversity,
    /// A target a user testing the store rule would write:
    /// [`secret_stores`] of both runs, with a tenth of Table 1's as a
    /// tie-breaker.
    SecretStores,
}

/// The target of the trials running now (set by `etna --stack-target`).
static TARGET: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Set the target the precondition reports.
pub fn set_target(t: Target) {
    TARGET.store(t as u8, std::sync::atomic::Ordering::Relaxed);
}

fn target() -> Target {
    match TARGET.load(std::sync::atomic::Ordering::Relaxed) {
        0 => Target::Diversity,
        _ => Target::SecretStores,
    }
}

/// How close a run comes to a store through a secret address: each store
/// executed scores by its address's label (4 through a secret address,
/// which may only store into a secret cell, the no-sensitive-upgrade
/// check; ½ through a public one; a refused store does not run and scores
/// nothing), and each secret cell the run leaves in memory scores 1 (the
/// cells such a store needs). A target for the store rule: STORE*A
/// (the store forgets the address's label) is a store through a secret
/// address that differs between the two runs, into cells both made secret.
pub fn secret_stores(trace: &[Machine]) -> f64 {
    use machine::{Instr, Label, StkElt};
    let mut score = 0.0;
    for m in &trace[..trace.len().saturating_sub(1)] {
        let Some(Instr::Store) = usize::try_from(m.pc.v).ok().and_then(|i| m.imem.get(i)) else {
            continue;
        };
        if let Some(StkElt::Data(a)) = m.stk.first() {
            let cell = usize::try_from(a.v).ok().and_then(|p| m.mem.get(p));
            if let Some(cell) = cell {
                score += match (a.l, cell.l) {
                    (Label::H, Label::H) => 4.0,
                    // Refused (stuck): the trace's last state, never here.
                    (Label::H, Label::L) => 0.0,
                    (Label::L, _) => 0.5,
                };
            }
        }
    }
    let last = trace.last().expect("a trace is never empty");
    score + last.mem.iter().filter(|c| c.l == Label::H).count() as f64
}

/// EENI under `bug` for a pair whose machines both halt low.
pub fn eeni(bug: Bug, p: &Pair) -> bool {
    let a = trace(bug, &p.0, STEPS);
    let b = trace(bug, &p.1, STEPS);
    let (a, b) = (
        a.last().expect("never empty"),
        b.last().expect("never empty"),
    );
    !(halted_low(a) && halted_low(b)) || indist(a, b)
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

//! The IFC workload: ETNA's information-flow register machine
//! (`workloads/Coq/IFC`), single-step noninterference (SSNI) over pairs of
//! indistinguishable states, and one task per mutant of the rule table.
//!
//! - [`machine`]: labels, values, memory, the rule table with its 70
//!   mutants, and `fstep`;
//! - [`spec`]: indistinguishability, well-formedness (reachability), SSNI,
//!   and a graded distance to SSNI's precondition for the targeted runner;
//! - [`gen`]: ETNA's bespoke generator of indistinguishable pairs, the
//!   derived (type-based) generator and mutator, and the variational
//!   fuzzer's copy generator — one recipe each, fed by every library's
//!   randomness.
//!
//! The property's precondition — the pair is indistinguishable and both
//! states are well-formed — is an `implies` in every library (a discard
//! when it fails); SSNI's own `None` (a machine is stuck, which ETNA's
//! QuickChick property also discards) passes.

pub mod gen;
pub mod machine;
pub mod spec;

use crate::common::qc_below;
use crate::drivers::{Check, TreeWorkload};
use crate::stlc::gen::{Draw, FromSource};
use gen::{arbitrary_variation, fuzz_variation, qc_size, variation, MAX_SIZE};
pub use machine::Mutant;
use machine::{fstep, Instr, OpCode, State};
use pbt::shrink::Candidates;
use pbt::{Gen, Generated, Source};
use proptest::strategy::{BoxedStrategy, NewTree, Strategy as _, ValueTree};
use proptest::test_runner::TestRunner;
pub use spec::Variation;

crate::named_enum! {
    /// The property of the IFC workload.
    Property {
        /// Single-step noninterference (ETNA's `propSSNI_smart`).
        Ssni = "SSNI",
    }
}

/// The mutants ETNA's IFC experiments leave out (its `CollectIFC.py`
/// skips them).
pub const ETNA_SKIPPED: [&str; 4] = ["OpBRet_8", "OpBRet_9", "OpWrite_8", "OpWrite_9"];

/// The tasks: every mutant of the rule table with SSNI but the four ETNA
/// leaves out ([`ETNA_SKIPPED`]) — 66. `etna --all-pairs` runs all 70:
/// the bespoke generator falsifies SSNI for exactly these 66 (each within
/// 2 s, `docs/etna.md`), and for none of the four skipped ones.
pub fn tasks() -> Vec<(Mutant, Property)> {
    Mutant::ALL
        .iter()
        .filter(|m| **m != Mutant::Base && !ETNA_SKIPPED.contains(&m.name()))
        .map(|m| (*m, Property::Ssni))
        .collect()
}

/// A coverage point: a branch of the precondition or of the step.
fn point(id: u64) {
    pbt::prelude::cover(0x1fc0_0000 | id);
}

/// The opcode number of the instruction at `st`'s pc (19 for `Halt`, 20
/// for none).
fn opcode_at(st: &State) -> u64 {
    let i = usize::try_from(st.pc.addr)
        .ok()
        .and_then(|i| st.imem.get(i));
    match i {
        None => 20,
        Some(Instr::Halt) => 19,
        Some(i) => {
            let op = i.opcode().expect("not Halt");
            OpCode::ALL.iter().position(|o| *o == op).unwrap_or(0) as u64
        }
    }
}

/// SSNI's precondition ([`spec::precondition`]), reporting which of its
/// branches the pair took as coverage points (what a coverage-guided
/// fuzzer's instrumentation of `indist` and `well_formed` would see; a
/// no-op outside the feedback runners).
pub fn covered_precondition(v: &Variation) -> bool {
    let (obs, s1, s2) = (v.obs, &v.st1, &v.st2);
    let step = |id: u64, ok: bool| {
        point(2 * id + u64::from(ok));
        ok
    };
    step(0, s1.imem == s2.imem)
        && step(1, spec::memory(obs, &s1.mem, &s2.mem))
        && if step(2, s1.pc.l.flows(obs) || s2.pc.l.flows(obs)) {
            step(3, s1.pc == s2.pc) && step(4, spec::state(obs, s1, s2))
        } else {
            step(5, spec::state(obs, s1, s2))
        }
        && step(6, spec::well_formed(s1))
        && step(7, spec::well_formed(s2))
}

/// SSNI under mutant `m` for an input that meets the precondition
/// (a stuck machine passes), reporting the opcode each machine runs and
/// the branch of the property as coverage points.
pub fn ssni(m: Mutant, v: &Variation) -> bool {
    let op1 = opcode_at(&v.st1);
    let stepped = fstep(m, &v.st1).is_some();
    point(100 + 2 * op1 + u64::from(stepped));
    let low = v.st1.pc.l.flows(v.obs);
    point(200 + u64::from(low));
    spec::ssni(m, v).is_none_or(|ok| ok)
}

/// The check of property `p`.
pub fn check(p: Property) -> Check<Ifc> {
    match p {
        Property::Ssni => Check::T(ssni),
    }
}

/// The IFC workload, for the drivers (its "tree" is a [`Variation`]).
pub struct Ifc;

impl TreeWorkload for Ifc {
    type Tree = Variation;
    type Mutant = Mutant;

    #[inline(never)] // counted apart by `etna --cost`
    fn valid(v: &Variation) -> bool {
        covered_precondition(v)
    }

    fn defects(v: &Variation) -> u64 {
        spec::defects(v)
    }

    fn pbt_bespoke() -> impl Gen<Value = Variation> + Send + Sync {
        Bespoke
    }

    fn proptest_bespoke() -> BoxedStrategy<Variation> {
        Recipe(|rng| {
            let size = rng.below(MAX_SIZE as u64 + 1) as usize;
            variation(rng, size)
        })
        .boxed()
    }

    fn proptest_typed() -> BoxedStrategy<Variation> {
        Recipe(|rng| {
            let size = rng.below(MAX_SIZE as u64 + 1) as usize;
            arbitrary_variation(rng, size)
        })
        .boxed()
    }

    fn quickcheck_bespoke(g: &mut quickcheck::Gen) -> Variation {
        let size = qc_below(g, MAX_SIZE + 1);
        variation(g, size)
    }
}

/// pbt's bespoke generator: ETNA's recipe over the source at the
/// runner's size scaled to QuickChick's `0..=7`.
#[derive(Clone, Copy, Debug)]
pub struct Bespoke;

impl Gen for Bespoke {
    type Value = Variation;

    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<Variation> {
        Ok(variation(&mut FromSource(src), qc_size(size)))
    }
}

/// A proptest strategy from a recipe over its `TestRng` (not shrunk: the
/// benchmark times the first failure).
#[derive(Clone, Copy)]
pub struct Recipe<T>(pub fn(&mut proptest::test_runner::TestRng) -> T);

impl<T> std::fmt::Debug for Recipe<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Recipe")
    }
}

/// A generated value that does not shrink.
#[derive(Clone, Debug)]
pub struct Unshrunk<T>(pub T);

impl<T: Clone + std::fmt::Debug> ValueTree for Unshrunk<T> {
    type Value = T;

    fn current(&self) -> T {
        self.0.clone()
    }

    fn simplify(&mut self) -> bool {
        false
    }

    fn complicate(&mut self) -> bool {
        false
    }
}

impl<T: Clone + std::fmt::Debug> proptest::strategy::Strategy for Recipe<T> {
    type Tree = Unshrunk<T>;
    type Value = T;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        Ok(Unshrunk((self.0)(runner.rng())))
    }
}

/// pbt's type-based generator: QuickChick's derived recipe at the
/// runner's size scaled to `0..=7`.
impl pbt::Arbitrary for Variation {
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        arbitrary_variation(&mut FromSource(src), qc_size(size))
    }
}

/// The type-based mutator (QuickChick's derived `Fuzzy`, ETNA's `FuzzyZ`).
impl pbt::Mutate for Variation {
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        fuzz_variation(&mut FromSource(src), self, qc_size(size))
    }
}

/// Not shrunk: the benchmark times the first failure.
impl pbt::Shrink for Variation {
    fn shrink(&self) -> Candidates<'_, Self> {
        Box::new(std::iter::empty())
    }
}

/// quickcheck's type-based generator: the derived recipe at a size
/// uniform in `0..=7`.
impl quickcheck::Arbitrary for Variation {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        let size = qc_below(g, MAX_SIZE + 1);
        arbitrary_variation(g, size)
    }
}

/// ETNA's variational fuzzer's input: a derived state paired with itself
/// (`gen_variation_copy`), mutated by the type-based mutator, which pulls
/// the two states apart.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Copied(pub Variation);

impl pbt::Arbitrary for Copied {
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        Copied(gen::copied_variation(&mut FromSource(src), qc_size(size)))
    }
}

impl pbt::Mutate for Copied {
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        Copied(fuzz_variation(&mut FromSource(src), &self.0, qc_size(size)))
    }
}

impl pbt::Shrink for Copied {
    fn shrink(&self) -> Candidates<'_, Self> {
        Box::new(std::iter::empty())
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
    use crate::common::{pbt_config, pbt_outcome};
    use crate::strategy::{Kind, Library};
    if strategy.kind != Kind::Variational || strategy.library != Library::Pbt {
        return crate::drivers::run::<Ifc>(strategy, m, check(p), probe, seed);
    }
    let config = pbt_config(seed).mutation(pbt::runners::Mutation::Values);
    let prop = pbt::property! {
        forall v: Copied;
        implies probe.admit(covered_precondition(&v.0));
        check probe.check(|| ssni(m, &v.0))
    };
    pbt_outcome(crate::drivers::pbt::run_with(
        strategy.runner,
        &prop,
        config,
    ))
}

//! The IFC and stack-machine workloads: the correct machines satisfy their
//! noninterference properties on many generated inputs, the bespoke
//! generators meet the preconditions by construction, and every mutant is
//! told apart from the correct machine.

use pbt_eval::ifc::machine::{default_rule, Mutant};
use pbt_eval::ifc::{gen, spec, tasks};
use pbt_eval::stack::machine::{step, Atom, Bug, Instr, Label, Machine, StkElt};
use pbt_eval::stack::{self, Pair};
use pbt_eval::stlc::gen::Draw;

/// SplitMix64: a seeded source of draws for the recipes.
struct Mix(u64);

impl Draw for Mix {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        ((u128::from(z) * u128::from(n)) >> 64) as u64
    }
}

#[test]
fn bespoke_pairs_are_indistinguishable_and_well_formed() {
    let mut d = Mix(1);
    for i in 0..3_000 {
        let v = gen::variation(&mut d, i % 8);
        assert!(
            spec::precondition(&v),
            "pair {i} breaks the precondition: {v:?}"
        );
        assert_eq!(spec::defects(&v), 0, "pair {i}");
    }
}

#[test]
fn the_correct_table_satisfies_ssni_on_generated_pairs() {
    let mut d = Mix(2);
    let mut stepped = 0;
    for i in 0..20_000 {
        let v = gen::variation(&mut d, i % 8);
        if let Some(ok) = spec::ssni(Mutant::Base, &v) {
            stepped += 1;
            assert!(ok, "SSNI fails for the correct table on {v:?}");
        }
    }
    assert!(stepped > 10_000, "only {stepped} pairs stepped");
}

#[test]
fn every_mutant_changes_one_rule_of_the_table() {
    for m in Mutant::ALL.iter().filter(|m| **m != Mutant::Base) {
        let (op, rule) = m.rule().expect("a mutant has a rule");
        assert_ne!(rule, default_rule(op), "{} is the correct rule", m.name());
        assert_eq!(m.table(op), rule);
    }
    assert_eq!(Mutant::ALL.len(), 71, "70 mutants and the correct table");
    assert_eq!(tasks().len(), 66, "ETNA's 66 IFC tasks");
}

#[test]
fn the_bespoke_generator_falsifies_ssni_for_every_task() {
    for (m, _) in tasks() {
        let mut d = Mix(0x1fc ^ m as u64);
        let found = (0..200_000).find(|i| {
            let v = gen::variation(&mut d, i % 8);
            spec::ssni(m, &v) == Some(false)
        });
        let i = found.unwrap_or_else(|| panic!("{}: no counterexample in 200 000 pairs", m.name()));
        assert!(i < 200_000);
    }
}

#[test]
fn type_based_pairs_rarely_meet_the_precondition_and_copies_always_do() {
    let mut d = Mix(3);
    let typed = (0..2_000)
        .filter(|i| spec::precondition(&gen::arbitrary_variation(&mut d, i % 8)))
        .count();
    assert!(
        typed < 400,
        "{typed} of 2 000 type-based pairs met the precondition"
    );
    for i in 0..2_000 {
        let v = gen::copied_variation(&mut d, i % 8);
        assert!(
            spec::state(v.obs, &v.st1, &v.st2),
            "a copy is indistinguishable"
        );
    }
}

#[test]
fn the_correct_stack_machine_satisfies_eeni_on_generated_pairs() {
    let mut d = Mix(4);
    let mut halted = 0;
    for i in 0..5_000 {
        let (a, b) = stack::gen::baseline(&mut d, i % 100);
        let p = Pair(a, b);
        if stack::both_halt_low(Bug::Base, &p) {
            halted += 1;
            assert!(
                stack::eeni(Bug::Base, &p),
                "EENI fails for the correct machine on {p:?}"
            );
        }
    }
    assert!(halted > 500, "only {halted} pairs both halted low");
}

/// A machine about to run `i` with stack `stk` (top first), memory `mem`
/// and pc label `pc`.
fn at(i: Instr, stk: Vec<StkElt>, mem: Vec<Atom>, pc: Label) -> Machine {
    Machine {
        mem,
        imem: vec![i, Instr::Halt, Instr::Halt],
        stk,
        pc: Atom { v: 0, l: pc },
    }
}

fn d(v: i64, l: Label) -> StkElt {
    StkElt::Data(Atom { v, l })
}

fn a(v: i64, l: Label) -> Atom {
    Atom { v, l }
}

#[test]
fn every_stack_bug_changes_a_step() {
    use Label::{H, L};
    let ret = |returns| StkElt::Ret {
        addr: 2,
        returns,
        l: L,
    };
    let cases = [
        (Bug::Add, at(Instr::Add, vec![d(1, H), d(2, L)], vec![], L)),
        (Bug::Push, at(Instr::Push(a(1, H)), vec![], vec![], L)),
        (Bug::Load, at(Instr::Load, vec![d(0, H)], vec![a(5, L)], L)),
        (
            Bug::StoreA,
            at(Instr::Store, vec![d(0, H), d(3, L)], vec![a(0, H)], L),
        ),
        (
            Bug::StoreB,
            at(Instr::Store, vec![d(0, L), d(3, H)], vec![a(0, H)], L),
        ),
        (
            Bug::StoreC,
            at(Instr::Store, vec![d(0, H), d(3, L)], vec![a(0, L)], L),
        ),
        (Bug::JumpA, at(Instr::Jump, vec![d(1, H)], vec![], L)),
        (Bug::JumpB, at(Instr::Jump, vec![d(1, L)], vec![], H)),
        (
            Bug::StoreD,
            at(Instr::Store, vec![d(0, L), d(3, L)], vec![a(0, H)], H),
        ),
        (
            Bug::StoreE,
            at(Instr::Store, vec![d(0, L), d(3, L)], vec![a(0, L)], H),
        ),
        (
            Bug::CallA1,
            at(Instr::Call(0, false), vec![d(1, L)], vec![], H),
        ),
        (
            Bug::CallA2,
            at(Instr::Return(true), vec![d(5, L), ret(true)], vec![], H),
        ),
        (
            Bug::ReturnA,
            at(Instr::Return(true), vec![d(5, L), ret(false)], vec![], L),
        ),
        (Bug::Pop, at(Instr::Pop, vec![ret(false)], vec![], L)),
    ];
    assert_eq!(cases.len(), Bug::ALL.len() - 1, "one case per bug");
    for (bug, m) in cases {
        assert_ne!(
            step(bug, &m),
            step(Bug::Base, &m),
            "{} steps like the correct machine",
            bug.name()
        );
    }
}

#[test]
fn every_library_and_the_pools_find_an_easy_bug_of_each_machine() {
    use pbt_eval::harness::{self, Task};
    use pbt_eval::probe::Probe;
    use pbt_eval::strategy::Strategy;
    use std::sync::Arc;
    use std::time::Duration;
    let names = [
        "pbt-bespoke",
        "pbt-bespoke-parallel",
        "pbt-bespoke-fuzz-heap-100",
        "pbt-bespoke-fuzz-monotonic-100",
        "proptest-bespoke",
        "quickcheck-bespoke",
    ];
    let tasks = [
        Task::Ifc(Mutant::OpLab1, pbt_eval::ifc::Property::Ssni),
        Task::Stack(Bug::Add, stack::Property::Eeni),
    ];
    for task in tasks {
        for name in names {
            let s = Strategy::from_name(name).expect("a strategy");
            let probe = Arc::new(Probe::with_budget(Duration::from_secs(3600), 20_000));
            let t = harness::trial_with(s, task, 1, probe);
            assert!(t.solved, "{name} on {task:?}: {t:?}");
        }
    }
}

#[test]
fn the_secret_stores_target_ranks_a_store_through_a_secret_address_first() {
    use stack::machine::trace;
    // Push a value, push an address, store: labels of the address and of
    // the cell decide the score; a secret cell left in memory adds one.
    let run = |addr: Label, cell: Label| {
        let m = Machine {
            mem: vec![a(0, cell), a(0, Label::L)],
            imem: vec![
                Instr::Push(a(7, Label::L)),
                Instr::Push(a(0, addr)),
                Instr::Store,
                Instr::Halt,
            ],
            stk: Vec::new(),
            pc: a(0, Label::L),
        };
        stack::secret_stores(&trace(Bug::Base, &m, stack::STEPS))
    };
    let (secret_into_secret, public, refused) = (
        run(Label::H, Label::H),
        run(Label::L, Label::L),
        run(Label::H, Label::L),
    );
    assert!(
        secret_into_secret > public && public > refused,
        "{secret_into_secret} {public} {refused}"
    );
    // A secret address at a public cell is refused: the machine is stuck
    // before the store, which never ran.
    assert_eq!(refused, 0.0);
    // A secret address may store into a secret cell: the store ran, and
    // the cell it wrote stays secret.
    assert_eq!(secret_into_secret, 4.0 + 1.0);
}

/// A pair whose programs call a secret address (3 in the first machine, 5
/// in the second) with a call that returns a value; each procedure pushes
/// a public value and returns it: under CALL*A-2 the two values come back
/// public and differ.
fn secret_call_pair(returns: bool, flag: bool) -> Pair {
    let m = |addr: i64| Machine {
        mem: vec![a(0, Label::L)],
        imem: vec![
            Instr::Push(a(addr, Label::H)),
            Instr::Call(0, returns),
            Instr::Halt,
            Instr::Push(a(1, Label::L)),
            Instr::Return(flag),
            Instr::Push(a(2, Label::L)),
            Instr::Return(flag),
        ],
        stk: Vec::new(),
        pc: a(0, Label::L),
    };
    Pair(m(3), m(5))
}

#[test]
fn the_secret_returns_target_ranks_a_public_value_returned_from_a_secret_call_first() {
    use stack::machine::trace;
    let score = |p: &Pair| stack::secret_returns(&trace(Bug::Base, &p.0, stack::STEPS));
    let leaking = secret_call_pair(true, true);
    // The same programs calling a public address: no secret context.
    let mut public = leaking.clone();
    public.0.imem[0] = Instr::Push(a(3, Label::L));
    // A call through a secret address from a public context (1), a return
    // from the secret context to a public one (4) with a value (2) that is
    // public on top (2).
    assert_eq!(score(&leaking), 1.0 + 4.0 + 2.0 + 2.0);
    assert_eq!(score(&public), 0.0);
    // RETURN*A's case: the return's flag disagrees with the call's.
    let disagreeing = secret_call_pair(false, true);
    assert_eq!(score(&disagreeing), 1.0 + 4.0 + 2.0 + 2.0);
    assert!(score(&secret_call_pair(false, false)) < score(&disagreeing));
    // And the pair is the bug's: CALL*A-2 leaks it, the correct machine does not.
    assert!(stack::both_halt_low(Bug::CallA2, &leaking));
    assert!(!stack::eeni(Bug::CallA2, &leaking));
    assert!(stack::eeni(Bug::Base, &leaking));
}

#[test]
fn the_runs_of_a_pair_are_remembered_per_pair_and_bug() {
    // The precondition's runs serve the check of the same pair under the
    // same bug only.
    let leaking = secret_call_pair(true, true);
    let mut other = leaking.clone();
    other.0.imem[5] = Instr::Push(a(1, Label::L));
    other.1.imem[5] = Instr::Push(a(1, Label::L));
    for _ in 0..2 {
        assert!(stack::both_halt_low(Bug::CallA2, &leaking));
        assert!(!stack::eeni(Bug::CallA2, &leaking), "CALL*A-2 leaks it");
        assert!(
            stack::eeni(Bug::Base, &leaking),
            "the correct machine does not"
        );
        assert!(
            stack::eeni(Bug::CallA2, &other),
            "both return 1: nothing leaks"
        );
    }
}

#[test]
fn the_high_pc_stores_target_scores_a_store_in_a_secret_context_only_where_it_runs() {
    use stack::machine::trace;
    // Call a secret address; there store 7 into the public cell 0, return.
    let m = Machine {
        mem: vec![a(0, Label::L)],
        imem: vec![
            Instr::Push(a(3, Label::H)),
            Instr::Call(0, false),
            Instr::Halt,
            Instr::Push(a(7, Label::L)),
            Instr::Push(a(0, Label::L)),
            Instr::Store,
            Instr::Return(false),
        ],
        stk: Vec::new(),
        pc: a(0, Label::L),
    };
    let score = |bug| stack::high_pc_stores(&trace(bug, &m, stack::STEPS));
    // STORE*E runs the store into a public cell (4) and returns to the
    // public context (1); the correct machine refuses the store and is
    // stuck there.
    assert_eq!(score(Bug::StoreE), 4.0 + 1.0);
    assert_eq!(score(Bug::Base), 0.0);
}

#[test]
fn a_rule_target_counts_twice_on_a_pair_that_halts_low_and_reports_its_level() {
    use stack::machine::trace;
    use stack::Target;
    let p = secret_call_pair(true, true);
    let (t1, t2) = (
        trace(Bug::Base, &p.0, stack::STEPS),
        trace(Bug::Base, &p.1, stack::STEPS),
    );
    let t = Target::SecretReturns;
    assert_eq!(t.value(&t1, &t2, true), 2.0 * t.value(&t1, &t2, false));
    assert_eq!(t.level(&t1, &t2, true), Some(18));
    assert_eq!(t.level(&t1, &t2, false), None);
    assert_eq!(Target::Diversity.level(&t1, &t2, true), None);
    assert_eq!(
        Target::Diversity.value(&t1, &t2, true),
        Target::Diversity.value(&t1, &t2, false),
        "Table 1's target is the paper's"
    );
}

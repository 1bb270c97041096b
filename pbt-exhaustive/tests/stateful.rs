//! The exhaustive runner on a state machine: a stateful property is an
//! ordinary property, so enumerating choice sequences in shortlex order
//! enumerates programs shortest first. It finds a planted bug's minimal
//! program without shrinking, and proves a correct machine on every
//! program up to a bound.

use pbt::generators::{int, map, one_of, BoxedGen, Gen};
use pbt::runners::{Config, Regressions};
use pbt::stateful::StateMachine;
use pbt_exhaustive::{exhaustive_to, Bound};
use std::collections::BTreeMap;

/// A key-value store over a small scope (keys and values 0 or 1, programs
/// of at most [`SCOPE`] commands) whose `remove`, when `leaky`, forgets the key
/// once it has seen an insert.
#[derive(Debug)]
struct SmallKv {
    leaky: bool,
}

#[derive(Clone, Debug)]
enum Cmd {
    Insert(u8, u8),
    Get(u8),
    Remove(u8),
}

#[derive(Default)]
struct Store {
    map: BTreeMap<u8, u8>,
    inserts: usize,
}

impl StateMachine for SmallKv {
    type Model = BTreeMap<u8, u8>;
    type System = Store;
    type Command = Cmd;
    type Output = Option<u8>;

    fn init_model(&self) -> Self::Model {
        BTreeMap::new()
    }
    fn init_system(&self) -> Store {
        Store::default()
    }
    fn commands<'a>(&'a self, model: &'a Self::Model) -> impl Gen<Value = Cmd> + 'a {
        let mut alternatives: Vec<BoxedGen<'a, Cmd>> = vec![
            map((int(0..2u8), int(0..2u8)), |(k, v)| Cmd::Insert(k, v)).boxed(),
            map(int(0..2u8), Cmd::Get).boxed(),
        ];
        if !model.is_empty() {
            let keys: Vec<u8> = model.keys().copied().collect();
            let n = keys.len();
            alternatives.push(map(int(0..n), move |i| Cmd::Remove(keys[i])).boxed());
        }
        one_of(alternatives)
    }
    fn precondition(&self, model: &Self::Model, cmd: &Cmd) -> bool {
        !matches!(cmd, Cmd::Remove(k) if !model.contains_key(k))
    }
    fn apply_model(&self, model: &mut Self::Model, cmd: &Cmd) -> Option<u8> {
        match *cmd {
            Cmd::Insert(k, v) => model.insert(k, v),
            Cmd::Get(k) => model.get(&k).copied(),
            Cmd::Remove(k) => model.remove(&k),
        }
    }
    fn max_steps(&self) -> usize {
        SCOPE
    }
    fn apply_system(&self, s: &mut Store, cmd: &Cmd) -> Option<u8> {
        match *cmd {
            Cmd::Insert(k, v) => {
                s.inserts += 1;
                s.map.insert(k, v)
            }
            Cmd::Get(k) => s.map.get(&k).copied(),
            Cmd::Remove(k) => {
                let old = s.map.remove(&k);
                if self.leaky && s.inserts >= 1 {
                    None
                } else {
                    old
                }
            }
        }
    }
}

/// The number of programs of at most `steps` commands, from `model`, whose
/// every precondition holds.
fn valid_programs(model: &BTreeMap<u8, u8>, steps: usize) -> u64 {
    let machine = SmallKv { leaky: false };
    let mut all = vec![Cmd::Get(0), Cmd::Get(1), Cmd::Remove(0), Cmd::Remove(1)];
    all.extend((0..4).map(|kv| Cmd::Insert(kv / 2, kv % 2)));
    let longer: u64 = if steps == 0 {
        0
    } else {
        all.iter()
            .filter(|c| machine.precondition(model, c))
            .map(|c| {
                let mut next = model.clone();
                machine.apply_model(&mut next, c);
                valid_programs(&next, steps - 1)
            })
            .sum()
    };
    1 + longer
}

/// The most commands in a program.
const SCOPE: usize = 2;

fn quiet() -> Config {
    Config::default().ignore_env().regressions(Regressions::Off)
}

/// The first failing program in shortlex order is the minimal one:
/// insert, then remove that key. Found as it is, not shrunk to it.
#[test]
fn finds_the_minimal_program_of_a_planted_bug() {
    let report = exhaustive_to(
        &SmallKv { leaky: true }.property(),
        quiet(),
        Bound::depth(6),
    );
    let failure = report
        .failure
        .as_ref()
        .unwrap_or_else(|| panic!("{report}"));
    let program = "  1. Insert(0, 0)  // model: None, system: None
  2. Remove(0)  // model: Some(0), system: None   <-- fails here
";
    assert!(failure.original[0].value.contains(program), "{report}");
    assert!(
        failure.counterexample[0].value.contains(program),
        "{report}"
    );
}

/// Every program of the correct store in the small scope (at most
/// [`SCOPE`] commands, keys and values 0 or 1) passes. A taken step draws at
/// most 4 choices, so depth `4 * SCOPE` reaches every program; each one is
/// tested once (equal programs from other choices, such as skipped steps,
/// are skipped), so there are as many tests as valid programs.
#[test]
fn proves_a_correct_machine_up_to_a_bound() {
    let depth = 4 * SCOPE;
    let bound = Bound::depth(depth).count(1_000_000);
    let report = exhaustive_to(&SmallKv { leaky: false }.property(), quiet(), bound);
    assert!(report.passed(), "{report}");
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains(&format!("inputs up to depth {depth} passed"))),
        "{report}"
    );
    // Each valid program tested exactly once: as many tests as there are
    // valid programs of at most SCOPE commands, counted here by brute force.
    assert_eq!(
        report.tests,
        valid_programs(&BTreeMap::new(), SCOPE),
        "{report}"
    );
}

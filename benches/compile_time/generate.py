"""Write one scratch crate of the compile-time benchmark: the same property
suite, written idiomatically with one library.

    python3 generate.py DIR LIBRARY COUNT PBT_ROOT

LIBRARY is pbt, proptest or quickcheck; COUNT is how many properties the
suite has (COUNT - 1 instances of the kinds below, then one state machine).

The suite is modelled on a published crate's quickcheck suite, indexmap's
`tests/quick.rs`: an insertion-ordered map checked against `HashMap` and
`HashSet` — membership, removal, insertion order, popping, capacity,
retain over larger vectors, and sequences of operations (a derived `Op`
enum, with string keys from a custom generator). Each kind is instantiated
for eleven integer key types, as indexmap has `operations_i8` and
`operations_string`. Every library writes it as its users do:

- pbt: `#[property_test]`, type-based parameters, `#[with = …]` DSL
  generators, `#[derive(Arbitrary)]`, a `StateMachine`;
- proptest: `proptest!` with `in` strategies, `proptest-derive`,
  `proptest-state-machine`;
- quickcheck: `#[quickcheck]`, hand-written `Arbitrary` impls (as indexmap's
  `Large` and `Alpha`), the state machine as a `Vec` of commands.

The first property holds the line `let _edit = 0;`, which the benchmark
changes to time an incremental rebuild after editing one property.
"""
import pathlib
import sys

TYPES = ["u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128"]

# Each kind: (name, parameters by library, setup statements, checked expression).
# Parameters: a list of (name, pbt, proptest, quickcheck) where pbt is the
# parameter as written in the signature, proptest the `in` strategy and
# quickcheck the parameter type plus an optional line that adapts it.
KINDS = [
    (
        "contains",
        [("insert", "insert: Vec<{t}>", "insert in any::<Vec<{t}>>()", ("insert: Vec<{t}>", None))],
        ["let mut map = VecMap::new();", "for &key in &insert { map.insert(key, ()); }"],
        "insert.iter().all(|key| map.get(key).is_some())",
    ),
    (
        "contains_not",
        [
            ("insert", "insert: Vec<{t}>", "insert in any::<Vec<{t}>>()", ("insert: Vec<{t}>", None)),
            ("not", "not: Vec<{t}>", "not in any::<Vec<{t}>>()", ("not: Vec<{t}>", None)),
        ],
        [
            "let mut map = VecMap::new();",
            "for &key in &insert { map.insert(key, ()); }",
            "let nots = &set(&not) - &set(&insert);",
        ],
        "nots.iter().all(|key| map.get(key).is_none())",
    ),
    (
        "insert_remove",
        [
            ("insert", "insert: Vec<{t}>", "insert in any::<Vec<{t}>>()", ("insert: Vec<{t}>", None)),
            ("remove", "remove: Vec<{t}>", "remove in any::<Vec<{t}>>()", ("remove: Vec<{t}>", None)),
        ],
        [
            "let mut map = VecMap::new();",
            "for &key in &insert { map.insert(key, ()); }",
            "for key in &remove { map.swap_remove(key); }",
            "let elements = &set(&insert) - &set(&remove);",
        ],
        "map.len() == elements.len() && elements.iter().all(|k| map.get(k).is_some())",
    ),
    (
        "insertion_order",
        [("insert", "insert: Vec<{t}>", "insert in any::<Vec<{t}>>()", ("insert: Vec<{t}>", None))],
        ["let mut map = VecMap::new();", "for &key in &insert { map.insert(key, ()); }"],
        "unique(&insert) == map.keys().copied().collect::<Vec<_>>()",
    ),
    (
        "pop",
        [("insert", "insert: Vec<{t}>", "insert in any::<Vec<{t}>>()", ("insert: Vec<{t}>", None))],
        [
            "let mut map = VecMap::new();",
            "for &key in &insert { map.insert(key, ()); }",
            "let mut pops = Vec::new();",
            "while let Some((key, ())) = map.pop() { pops.push(key); }",
            "pops.reverse();",
        ],
        "unique(&insert) == pops",
    ),
    (
        "with_cap",
        [("cap", "#[with = int(0..1000usize)] cap: usize", "cap in 0..1000usize", ("cap: usize", "let cap = cap % 1000;"))],
        ["let map: VecMap<{t}, u8> = VecMap::with_capacity(cap);"],
        "map.capacity() >= cap",
    ),
    (
        "retain",
        [
            ("keys", "#[with = vec(any::<{t}>(), 0..200)] keys: Vec<{t}>",
             "keys in proptest::collection::vec(any::<{t}>(), 0..200)",
             ("keys: Large<Vec<{t}>>", "let keys = keys.0;")),
            ("remove", "#[with = vec(any::<{t}>(), 0..200)] remove: Vec<{t}>",
             "remove in proptest::collection::vec(any::<{t}>(), 0..200)",
             ("remove: Large<Vec<{t}>>", "let remove = remove.0;")),
        ],
        [
            "let mut map = VecMap::new();",
            "for &key in &keys { map.insert(key, ()); }",
            "let answer = &set(&keys) - &set(&remove);",
            "map.retain(|k, _| !remove.contains(k));",
        ],
        "map.len() == answer.len() && answer.iter().all(|k| map.contains_key(k))",
    ),
    (
        "operations",
        [("ops", "ops: Vec<Op<{t}, u8>>", "ops in any::<Vec<Op<{t}, u8>>>()", ("ops: Vec<Op<{t}, u8>>", None))],
        [
            "let mut map = VecMap::new();",
            "let mut reference = HashMap::new();",
            "do_ops(&ops, &mut map, &mut reference);",
        ],
        "maps_equivalent(&map, &reference)",
    ),
    (
        "operations_alpha",
        [("ops", "ops: Vec<Op<Alpha, {t}>>", "ops in any::<Vec<Op<Alpha, {t}>>>()", ("ops: Vec<Op<Alpha, {t}>>", None))],
        [
            "let mut map = VecMap::new();",
            "let mut reference = HashMap::new();",
            "do_ops(&ops, &mut map, &mut reference);",
        ],
        "maps_equivalent(&map, &reference)",
    ),
]

SUBJECT = '''//! The subject: an insertion-ordered map over a `Vec`, as indexmap's map is
//! over a hash table, with the helpers the suite shares.
use std::collections::{HashMap, HashSet};
use std::hash::Hash;

#[derive(Clone, Debug, Default)]
pub struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K: PartialEq, V> VecMap<K, V> {
    pub fn new() -> Self {
        VecMap { entries: Vec::new() }
    }
    pub fn with_capacity(n: usize) -> Self {
        VecMap { entries: Vec::with_capacity(n) }
    }
    pub fn capacity(&self) -> usize {
        self.entries.capacity()
    }
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    pub fn insert(&mut self, k: K, v: V) -> Option<V> {
        match self.entries.iter_mut().find(|e| e.0 == k) {
            Some(e) => Some(std::mem::replace(&mut e.1, v)),
            None => {
                self.entries.push((k, v));
                None
            }
        }
    }
    pub fn get(&self, k: &K) -> Option<&V> {
        self.entries.iter().find(|e| e.0 == *k).map(|e| &e.1)
    }
    pub fn contains_key(&self, k: &K) -> bool {
        self.get(k).is_some()
    }
    pub fn swap_remove(&mut self, k: &K) -> Option<V> {
        let i = self.entries.iter().position(|e| e.0 == *k)?;
        Some(self.entries.swap_remove(i).1)
    }
    pub fn or_insert(&mut self, k: K, v: V) -> &mut V {
        let i = match self.entries.iter().position(|e| e.0 == k) {
            Some(i) => i,
            None => {
                self.entries.push((k, v));
                self.entries.len() - 1
            }
        };
        &mut self.entries[i].1
    }
    pub fn pop(&mut self) -> Option<(K, V)> {
        self.entries.pop()
    }
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.entries.iter().map(|e| &e.0)
    }
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }
}

pub fn set<T: Copy + Hash + Eq>(xs: &[T]) -> HashSet<T> {
    xs.iter().copied().collect()
}

pub fn unique<T: Copy + Hash + Eq>(xs: &[T]) -> Vec<T> {
    let mut seen = HashSet::new();
    xs.iter().copied().filter(|x| seen.insert(*x)).collect()
}

pub fn maps_equivalent<K: Hash + Eq, V: PartialEq>(a: &VecMap<K, V>, b: &HashMap<K, V>) -> bool {
    a.len() == b.len() && b.iter().all(|(k, v)| a.get(k) == Some(v))
}

/// A bounded queue of four, for the state machine.
#[derive(Debug, Default)]
pub struct Ring {
    buf: [u8; 4],
    head: usize,
    len: usize,
}

impl Ring {
    pub fn push(&mut self, x: u8) -> bool {
        if self.len == 4 {
            return false;
        }
        self.buf[(self.head + self.len) % 4] = x;
        self.len += 1;
        true
    }
    pub fn pop(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        let x = self.buf[self.head];
        self.head = (self.head + 1) % 4;
        self.len -= 1;
        Some(x)
    }
    pub fn len(&self) -> usize {
        self.len
    }
}
'''

DO_OPS = '''
fn do_ops<K: Hash + Eq + Clone, V: Clone>(ops: &[Op<K, V>], a: &mut VecMap<K, V>, b: &mut HashMap<K, V>) {
    for op in ops {
        match op {
            Op::Add(k, v) => {
                a.insert(k.clone(), v.clone());
                b.insert(k.clone(), v.clone());
            }
            Op::AddEntry(k, v) => {
                a.or_insert(k.clone(), v.clone());
                b.entry(k.clone()).or_insert(v.clone());
            }
            Op::Remove(k) | Op::RemoveEntry(k) => {
                a.swap_remove(k);
                b.remove(k);
            }
        }
    }
}
'''

OP_ENUM = '''pub enum Op<K, V> {
    Add(K, V),
    Remove(K),
    AddEntry(K, V),
    RemoveEntry(K),
}
'''

HEADERS = {
    "pbt": '''use pbt::prelude::*;
use pbt::stateful::{check, Program, StateMachine};
use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use suite::*;

#[derive(Clone, Debug, Arbitrary)]
''' + OP_ENUM + '''
#[derive(Clone, Debug, Hash, PartialEq, Eq, Arbitrary)]
pub struct Alpha(#[pbt(with = string('a'..='z', 0..16))] String);
''' + DO_OPS,
    "proptest": '''use proptest::prelude::*;
use proptest_derive::Arbitrary;
use proptest_state_machine::{prop_state_machine, ReferenceStateMachine, StateMachineTest};
use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use suite::*;

#[derive(Clone, Debug, Arbitrary)]
''' + OP_ENUM + '''
#[derive(Clone, Debug, Hash, PartialEq, Eq, Arbitrary)]
pub struct Alpha(#[proptest(regex = "[a-z]{0,16}")] String);
''' + DO_OPS,
    "quickcheck": '''use quickcheck::{Arbitrary, Gen};
use quickcheck_macros::quickcheck;
use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use suite::*;

#[derive(Clone, Debug)]
''' + OP_ENUM + '''
impl<K: Arbitrary, V: Arbitrary> Arbitrary for Op<K, V> {
    fn arbitrary(g: &mut Gen) -> Self {
        match u8::arbitrary(g) % 4 {
            0 => Op::Add(K::arbitrary(g), V::arbitrary(g)),
            1 => Op::AddEntry(K::arbitrary(g), V::arbitrary(g)),
            2 => Op::Remove(K::arbitrary(g)),
            _ => Op::RemoveEntry(K::arbitrary(g)),
        }
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub struct Alpha(String);

const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz";

impl Arbitrary for Alpha {
    fn arbitrary(g: &mut Gen) -> Self {
        let len = usize::arbitrary(g) % 16;
        Alpha((0..len).map(|_| *g.choose(ALPHABET).unwrap() as char).collect())
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(Alpha))
    }
}

/// A larger vector than quickcheck's default, as indexmap's `Large`.
#[derive(Clone, Debug)]
pub struct Large<T>(T);

impl<T: Arbitrary> Arbitrary for Large<Vec<T>> {
    fn arbitrary(g: &mut Gen) -> Self {
        let len = usize::arbitrary(g) % 200;
        Large((0..len).map(|_| T::arbitrary(g)).collect())
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(Large))
    }
}
''' + DO_OPS,
}

# The state machine: a bounded queue of four against a VecDeque model.
MACHINES = {
    "pbt": '''
#[derive(Clone, Debug)]
pub enum Cmd {
    Push(u8),
    Pop,
}

#[derive(Debug)]
pub struct Queue;

impl StateMachine for Queue {
    type Model = VecDeque<u8>;
    type System = Ring;
    type Command = Cmd;
    type Output = Option<u8>;
    fn init_model(&self) -> VecDeque<u8> {
        VecDeque::new()
    }
    fn init_system(&self) -> Ring {
        Ring::default()
    }
    fn commands<'a>(&'a self, _: &'a VecDeque<u8>) -> impl Gen<Value = Cmd> + 'a {
        generator!(one_of[map(int(1..=9u8), Cmd::Push), just(Cmd::Pop)])
    }
    fn precondition(&self, model: &VecDeque<u8>, cmd: &Cmd) -> bool {
        match cmd {
            Cmd::Push(_) => model.len() < 4,
            Cmd::Pop => !model.is_empty(),
        }
    }
    fn apply_model(&self, q: &mut VecDeque<u8>, cmd: &Cmd) -> Option<u8> {
        match *cmd {
            Cmd::Push(x) => {
                q.push_back(x);
                None
            }
            Cmd::Pop => q.pop_front(),
        }
    }
    fn apply_system(&self, r: &mut Ring, cmd: &Cmd) -> Option<u8> {
        match *cmd {
            Cmd::Push(x) => {
                r.push(x);
                None
            }
            Cmd::Pop => r.pop(),
        }
    }
}

#[property_test]
fn queue_agrees_with_its_model(
    #[with = Queue.programs()]
    #[shrink = Queue.programs().shrinker()]
    #[print = Queue.programs().printer()]
    program: Program<Queue>,
) -> Outcome {
    check(&Queue, &program)
}
''',
    "proptest": '''
#[derive(Clone, Debug)]
pub enum Cmd {
    Push(u8),
    Pop,
}

pub struct QueueReference;

impl ReferenceStateMachine for QueueReference {
    type State = VecDeque<u8>;
    type Transition = Cmd;
    fn init_state() -> BoxedStrategy<Self::State> {
        Just(VecDeque::new()).boxed()
    }
    fn transitions(_: &Self::State) -> BoxedStrategy<Cmd> {
        prop_oneof![(1..=9u8).prop_map(Cmd::Push), Just(Cmd::Pop)].boxed()
    }
    fn apply(mut state: Self::State, cmd: &Cmd) -> Self::State {
        match *cmd {
            Cmd::Push(x) => state.push_back(x),
            Cmd::Pop => {
                state.pop_front();
            }
        }
        state
    }
    fn preconditions(state: &Self::State, cmd: &Cmd) -> bool {
        match cmd {
            Cmd::Push(_) => state.len() < 4,
            Cmd::Pop => !state.is_empty(),
        }
    }
}

pub struct QueueTest;

impl StateMachineTest for QueueTest {
    type SystemUnderTest = (Ring, VecDeque<u8>);
    type Reference = QueueReference;
    fn init_test(model: &VecDeque<u8>) -> Self::SystemUnderTest {
        (Ring::default(), model.clone())
    }
    fn apply((mut ring, mut before): Self::SystemUnderTest, _: &VecDeque<u8>, cmd: Cmd) -> Self::SystemUnderTest {
        let (expected, actual) = match cmd {
            Cmd::Push(x) => {
                before.push_back(x);
                ring.push(x);
                (None, None)
            }
            Cmd::Pop => (before.pop_front(), ring.pop()),
        };
        assert_eq!(actual, expected);
        (ring, before)
    }
}

prop_state_machine! {
    #[test]
    fn queue_agrees_with_its_model(sequential 1..32 => QueueTest);
}
''',
    "quickcheck": '''
#[derive(Clone, Debug)]
pub enum Cmd {
    Push(u8),
    Pop,
}

impl Arbitrary for Cmd {
    fn arbitrary(g: &mut Gen) -> Self {
        if bool::arbitrary(g) {
            Cmd::Push(u8::arbitrary(g) % 9 + 1)
        } else {
            Cmd::Pop
        }
    }
}

#[quickcheck]
fn queue_agrees_with_its_model(cmds: Vec<Cmd>) -> bool {
    let mut model = VecDeque::new();
    let mut ring = Ring::default();
    for cmd in cmds {
        let ok = match cmd {
            Cmd::Push(_) if model.len() == 4 => continue,
            Cmd::Pop if model.is_empty() => continue,
            Cmd::Push(x) => {
                model.push_back(x);
                ring.push(x)
            }
            Cmd::Pop => model.pop_front() == ring.pop(),
        };
        if !ok || model.len() != ring.len() {
            return false;
        }
    }
    true
}
''',
}


def instances(count):
    """The first `count` (kind, type) pairs, type-major, so that any prefix
    mixes every kind."""
    pairs = [(kind, t) for t in TYPES for kind in KINDS]
    if count > len(pairs):
        sys.exit(f"at most {len(pairs) + 1} properties")
    return pairs[:count]


def property(library, kind, t, first):
    name, params, setup, check = kind
    fmt = lambda s: s.replace("{t}", t)
    setup = [fmt(s) for s in setup]
    if first:
        setup = ["let _edit = 0;"] + setup
    check = fmt(check)
    fname = f"{name}_{t}"
    if library == "pbt":
        sig = ", ".join(fmt(p[1]) for p in params)
        body = "\n".join("    " + s for s in setup + [check])
        return f"#[property_test]\nfn {fname}({sig}) -> bool {{\n{body}\n}}\n"
    if library == "proptest":
        sig = ", ".join(fmt(p[2]) for p in params)
        body = "\n".join("        " + s for s in setup + [f"prop_assert!({check});"])
        return f"    #[test]\n    fn {fname}({sig}) {{\n{body}\n    }}\n"
    sig = ", ".join(fmt(p[3][0]) for p in params)
    adapt = [fmt(p[3][1]) for p in params if p[3][1]]
    body = "\n".join("    " + s for s in adapt + setup + [check])
    return f"#[quickcheck]\nfn {fname}({sig}) -> bool {{\n{body}\n}}\n"


def suite(library, count):
    props = [property(library, k, t, i == 0) for i, (k, t) in enumerate(instances(count - 1))]
    out = [HEADERS[library]]
    if library == "proptest":
        out.append("proptest! {")
        out.append("\n".join(props))
        out.append("}")
    else:
        out.append("\n".join(props))
    out.append(MACHINES[library])
    return "\n".join(out)


DEPENDENCIES = {
    "pbt": 'pbtest = {{ path = "{root}" }}',
    "proptest": 'proptest = "1"\nproptest-derive = "0.8"\nproptest-state-machine = "0.9"',
    "quickcheck": 'quickcheck = "1"\nquickcheck_macros = "1"',
}


def main():
    out, library, count, root = pathlib.Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
    (out / "src").mkdir(parents=True, exist_ok=True)
    (out / "tests").mkdir(exist_ok=True)
    (out / "Cargo.toml").write_text(
        "[package]\nname = \"suite\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n"
        "[workspace]\n\n[dev-dependencies]\n" + DEPENDENCIES[library].format(root=root) + "\n"
    )
    (out / "src" / "lib.rs").write_text(SUBJECT)
    (out / "tests" / "suite.rs").write_text(suite(library, count))


main()

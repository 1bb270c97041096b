//! Model-based testing with `pbt::stateful`: two planted bugs found and
//! shrunk to their shortest programs.
//!
//! - a key-value store against a `BTreeMap`, whose `remove` forgets the key
//!   once it has seen 3 inserts;
//! - a bounded queue (a ring buffer of capacity 3) against a `VecDeque`,
//!   whose `push` overwrites the oldest element when full instead of
//!   refusing;
//! - and, concurrently, a registry whose `insert` checks and inserts under
//!   two separate locks: sequential testing passes it, concurrent
//!   (linearizability) testing finds the race.
//!
//! `cargo run --example state_machine` prints the three reports.

use pbt::generators::{int, just, map, one_of, BoxedGen, Gen};
use pbt::runners::{Config, Regressions};
use pbt::stateful::{ConcurrentMachine, StateMachine};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Mutex;

/// The store under test.
#[derive(Default)]
struct Store {
    map: BTreeMap<u8, u8>,
    inserts: usize,
}

#[derive(Clone, Debug)]
enum KvCmd {
    Insert(u8, u8),
    Get(u8),
    Remove(u8),
}

#[derive(Debug)]
struct KvMachine;

impl StateMachine for KvMachine {
    type Model = BTreeMap<u8, u8>;
    type System = Store;
    type Command = KvCmd;
    type Output = Option<u8>;

    fn init_model(&self) -> Self::Model {
        BTreeMap::new()
    }
    fn init_system(&self) -> Store {
        Store::default()
    }
    fn commands<'a>(&'a self, model: &'a Self::Model) -> impl Gen<Value = KvCmd> + 'a {
        let mut cmds: Vec<BoxedGen<'a, KvCmd>> = vec![
            map((int(0..10u8), int(0..=255u8)), |(k, v)| KvCmd::Insert(k, v)).boxed(),
            map(int(0..10u8), KvCmd::Get).boxed(),
        ];
        if !model.is_empty() {
            let keys: Vec<u8> = model.keys().copied().collect();
            cmds.push(map(int(0..keys.len()), move |i| KvCmd::Remove(keys[i])).boxed());
        }
        one_of(cmds)
    }
    fn precondition(&self, model: &Self::Model, cmd: &KvCmd) -> bool {
        !matches!(cmd, KvCmd::Remove(k) if !model.contains_key(k))
    }
    fn apply_model(&self, model: &mut Self::Model, cmd: &KvCmd) -> Option<u8> {
        match *cmd {
            KvCmd::Insert(k, v) => model.insert(k, v),
            KvCmd::Get(k) => model.get(&k).copied(),
            KvCmd::Remove(k) => model.remove(&k),
        }
    }
    fn apply_system(&self, s: &mut Store, cmd: &KvCmd) -> Option<u8> {
        match *cmd {
            KvCmd::Insert(k, v) => {
                s.inserts += 1;
                s.map.insert(k, v)
            }
            KvCmd::Get(k) => s.map.get(&k).copied(),
            KvCmd::Remove(k) => {
                let old = s.map.remove(&k);
                // The planted bug.
                if s.inserts >= 3 {
                    None
                } else {
                    old
                }
            }
        }
    }
}

const CAPACITY: usize = 3;

/// A ring buffer of capacity [`CAPACITY`].
#[derive(Default)]
struct Ring {
    slots: [u8; CAPACITY],
    head: usize,
    len: usize,
}

impl Ring {
    fn push(&mut self, x: u8) -> Result<(), u8> {
        let tail = (self.head + self.len) % CAPACITY;
        self.slots[tail] = x;
        if self.len == CAPACITY {
            // The planted bug: overwrite the oldest element instead of
            // returning `Err(x)`.
            self.head = (self.head + 1) % CAPACITY;
        } else {
            self.len += 1;
        }
        Ok(())
    }
    fn pop(&mut self) -> Option<u8> {
        (self.len > 0).then(|| {
            let x = self.slots[self.head];
            self.head = (self.head + 1) % CAPACITY;
            self.len -= 1;
            x
        })
    }
}

#[derive(Clone, Debug)]
enum QueueCmd {
    Push(u8),
    Pop,
}

#[derive(Debug)]
struct QueueMachine;

impl StateMachine for QueueMachine {
    type Model = VecDeque<u8>;
    type System = Ring;
    type Command = QueueCmd;
    type Output = Result<Option<u8>, u8>;

    fn init_model(&self) -> VecDeque<u8> {
        VecDeque::new()
    }
    fn init_system(&self) -> Ring {
        Ring::default()
    }
    fn commands<'a>(&'a self, model: &'a VecDeque<u8>) -> impl Gen<Value = QueueCmd> + 'a {
        let push = map(int(0..=255u8), QueueCmd::Push).boxed();
        if model.is_empty() {
            one_of(vec![push])
        } else {
            one_of(vec![push, just(QueueCmd::Pop).boxed()])
        }
    }
    fn precondition(&self, model: &VecDeque<u8>, cmd: &QueueCmd) -> bool {
        !matches!(cmd, QueueCmd::Pop if model.is_empty())
    }
    fn apply_model(&self, q: &mut VecDeque<u8>, cmd: &QueueCmd) -> Result<Option<u8>, u8> {
        match *cmd {
            QueueCmd::Push(x) if q.len() == CAPACITY => Err(x),
            QueueCmd::Push(x) => {
                q.push_back(x);
                Ok(None)
            }
            QueueCmd::Pop => Ok(q.pop_front()),
        }
    }
    fn apply_system(&self, ring: &mut Ring, cmd: &QueueCmd) -> Result<Option<u8>, u8> {
        match *cmd {
            QueueCmd::Push(x) => ring.push(x).map(|()| None),
            QueueCmd::Pop => Ok(ring.pop()),
        }
    }
    fn invariant(&self, model: &VecDeque<u8>, ring: &Ring) -> Result<(), String> {
        if model.len() == ring.len {
            Ok(())
        } else {
            Err(format!(
                "the ring holds {}, the model {}",
                ring.len,
                model.len()
            ))
        }
    }
}

/// A set of registered names (here: small numbers); `register` answers
/// whether the name was new.
#[derive(Debug)]
struct Registry;

impl StateMachine for Registry {
    type Model = BTreeSet<u8>;
    type System = Mutex<BTreeSet<u8>>;
    type Command = u8;
    type Output = bool;

    fn init_model(&self) -> BTreeSet<u8> {
        BTreeSet::new()
    }
    fn init_system(&self) -> Mutex<BTreeSet<u8>> {
        Mutex::new(BTreeSet::new())
    }
    fn commands<'a>(&'a self, _: &'a BTreeSet<u8>) -> impl Gen<Value = u8> + 'a {
        int(0..4u8)
    }
    fn apply_model(&self, set: &mut BTreeSet<u8>, name: &u8) -> bool {
        set.insert(*name)
    }
    fn apply_system(&self, set: &mut Mutex<BTreeSet<u8>>, name: &u8) -> bool {
        self.apply_shared(set, name)
    }
}

impl ConcurrentMachine for Registry {
    fn apply_shared(&self, set: &Mutex<BTreeSet<u8>>, name: &u8) -> bool {
        let lock = || set.lock().unwrap_or_else(|e| e.into_inner());
        let new = !lock().contains(name);
        if new {
            // The planted race: another thread may register `name` here.
            std::thread::yield_now();
            lock().insert(*name);
        }
        new
    }
}

fn main() {
    let config = || Config::default().seed(1).regressions(Regressions::Off);

    let kv = pbt::runners::generational(&KvMachine.property(), config());
    println!("{kv}\n");
    let shown = &kv
        .failure
        .as_ref()
        .expect("the store bug is found")
        .counterexample[0]
        .value;
    assert!(shown.contains("4. Remove(0)  // model: Some(0), system: None   <-- fails here"));

    let queue = pbt::runners::generational(&QueueMachine.property(), config());
    println!("{queue}");
    let shown = &queue
        .failure
        .as_ref()
        .expect("the queue bug is found")
        .counterexample[0]
        .value;
    assert!(shown.contains("4. Push(0)  // model: Err(0), system: Ok(None)   <-- fails here"));

    let sequential = pbt::runners::generational(&Registry.property(), config());
    assert!(sequential.passed(), "one thread cannot see the race");
    let registry = pbt::runners::generational(&Registry.concurrent_property(), config());
    println!("\n{registry}");
    let failure = registry.failure.as_ref().expect("the race is found");
    assert!(failure
        .reason
        .contains("no order of the concurrent commands"));
}

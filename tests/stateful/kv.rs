// The key-value store with a planted bug, shared by tests/stateful.rs and
// the reproducer it builds (`include!`d there, so no inner attributes).

use pbt::generators::{int, map, one_of, BoxedGen, Gen};
use pbt::stateful::StateMachine;
use std::collections::BTreeMap;

/// A key-value store whose `remove` forgets the key (returns `None`, keeps
/// nothing) once it has seen 3 inserts.
#[derive(Default)]
pub struct LeakyKv {
    map: BTreeMap<u8, u8>,
    inserts: usize,
}

impl LeakyKv {
    pub fn insert(&mut self, k: u8, v: u8) -> Option<u8> {
        self.inserts += 1;
        self.map.insert(k, v)
    }
    pub fn get(&self, k: u8) -> Option<u8> {
        self.map.get(&k).copied()
    }
    pub fn remove(&mut self, k: u8) -> Option<u8> {
        let old = self.map.remove(&k);
        if self.inserts >= 3 {
            None
        } else {
            old
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Cmd {
    Insert(u8, u8),
    Get(u8),
    Remove(u8),
}

#[derive(Debug)]
pub struct KvMachine;

impl StateMachine for KvMachine {
    type Model = BTreeMap<u8, u8>;
    type System = LeakyKv;
    type Command = Cmd;
    type Output = Option<u8>;

    fn init_model(&self) -> Self::Model {
        BTreeMap::new()
    }
    fn init_system(&self) -> LeakyKv {
        LeakyKv::default()
    }
    fn commands<'a>(&'a self, model: &'a Self::Model) -> impl Gen<Value = Cmd> + 'a {
        let mut alternatives: Vec<BoxedGen<'a, Cmd>> = vec![
            map((int(0..10u8), int(0..=255u8)), |(k, v)| Cmd::Insert(k, v)).boxed(),
            map(int(0..10u8), Cmd::Get).boxed(),
        ];
        if !model.is_empty() {
            // Remove a key that exists.
            let keys: Vec<u8> = model.keys().copied().collect();
            let n = keys.len();
            alternatives.push(map(int(0..n), move |i| Cmd::Remove(keys[i])).boxed());
        }
        one_of(alternatives)
    }
    fn precondition(&self, model: &Self::Model, cmd: &Cmd) -> bool {
        match cmd {
            Cmd::Remove(k) => model.contains_key(k),
            _ => true,
        }
    }
    fn apply_model(&self, model: &mut Self::Model, cmd: &Cmd) -> Option<u8> {
        match *cmd {
            Cmd::Insert(k, v) => model.insert(k, v),
            Cmd::Get(k) => model.get(&k).copied(),
            Cmd::Remove(k) => model.remove(&k),
        }
    }
    fn apply_system(&self, kv: &mut LeakyKv, cmd: &Cmd) -> Option<u8> {
        match *cmd {
            Cmd::Insert(k, v) => kv.insert(k, v),
            Cmd::Get(k) => kv.get(k),
            Cmd::Remove(k) => kv.remove(k),
        }
    }
}

// Concurrent systems for tests/stateful.rs: a counter with a planted race
// and its correct twin, and a map with a check-then-act race whose
// commands have preconditions.

use pbt::generators::{int, just, map, one_of, BoxedGen, Gen};
use pbt::stateful::{ConcurrentMachine, StateMachine};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::sync::Mutex;

#[derive(Clone, Debug, PartialEq)]
pub enum CounterCmd {
    Incr,
    Get,
}

/// A counter; `racy` increments by a load, a yield, and a store (another
/// thread's increment in between is lost), the correct one under a mutex.
#[derive(Debug)]
pub struct Counter {
    pub racy: bool,
}

pub enum CounterSystem {
    Racy(AtomicU64),
    Locked(Mutex<u64>),
}

impl StateMachine for Counter {
    type Model = u64;
    type System = CounterSystem;
    type Command = CounterCmd;
    type Output = u64;

    fn init_model(&self) -> u64 {
        0
    }
    fn init_system(&self) -> CounterSystem {
        if self.racy {
            CounterSystem::Racy(AtomicU64::new(0))
        } else {
            CounterSystem::Locked(Mutex::new(0))
        }
    }
    fn commands<'a>(&'a self, _: &'a u64) -> impl Gen<Value = CounterCmd> + 'a {
        one_of(vec![
            just(CounterCmd::Incr).boxed(),
            just(CounterCmd::Get).boxed(),
        ])
    }
    fn apply_model(&self, n: &mut u64, cmd: &CounterCmd) -> u64 {
        if *cmd == CounterCmd::Incr {
            *n += 1;
        }
        *n
    }
    fn apply_system(&self, system: &mut CounterSystem, cmd: &CounterCmd) -> u64 {
        self.apply_shared(system, cmd)
    }
    fn print_machine(&self) -> String {
        format!("Counter {{ racy: {} }}", self.racy)
    }
}

impl ConcurrentMachine for Counter {
    fn apply_shared(&self, system: &CounterSystem, cmd: &CounterCmd) -> u64 {
        match (system, cmd) {
            (CounterSystem::Racy(n), CounterCmd::Incr) => {
                let read = n.load(SeqCst);
                // The planted race: an increment on another thread here is lost.
                std::thread::yield_now();
                n.store(read + 1, SeqCst);
                read + 1
            }
            (CounterSystem::Racy(n), CounterCmd::Get) => n.load(SeqCst),
            (CounterSystem::Locked(n), cmd) => {
                let mut n = n.lock().unwrap_or_else(|e| e.into_inner());
                if *cmd == CounterCmd::Incr {
                    *n += 1;
                }
                *n
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum MapCmd {
    /// Insert unless present; whether it inserted.
    PutIfAbsent(u8),
    /// Remove a key that exists (a precondition); whether it was there.
    Remove(u8),
}

/// A set of keys behind a mutex; `racy` checks for a key and inserts it
/// under two separate locks, so two threads may both insert it.
#[derive(Debug)]
pub struct Registry {
    pub racy: bool,
}

impl StateMachine for Registry {
    type Model = BTreeMap<u8, ()>;
    type System = Mutex<BTreeMap<u8, ()>>;
    type Command = MapCmd;
    type Output = bool;

    fn init_model(&self) -> Self::Model {
        BTreeMap::new()
    }
    fn init_system(&self) -> Self::System {
        Mutex::new(BTreeMap::new())
    }
    fn commands<'a>(&'a self, model: &'a Self::Model) -> impl Gen<Value = MapCmd> + 'a {
        let mut alternatives: Vec<BoxedGen<'a, MapCmd>> =
            vec![map(int(0..4u8), MapCmd::PutIfAbsent).boxed()];
        if !model.is_empty() {
            let keys: Vec<u8> = model.keys().copied().collect();
            let n = keys.len();
            alternatives.push(map(int(0..n), move |i| MapCmd::Remove(keys[i])).boxed());
        }
        one_of(alternatives)
    }
    fn precondition(&self, model: &Self::Model, cmd: &MapCmd) -> bool {
        match cmd {
            MapCmd::Remove(k) => model.contains_key(k),
            MapCmd::PutIfAbsent(_) => true,
        }
    }
    fn apply_model(&self, model: &mut Self::Model, cmd: &MapCmd) -> bool {
        match *cmd {
            MapCmd::PutIfAbsent(k) => model.insert(k, ()).is_none(),
            MapCmd::Remove(k) => model.remove(&k).is_some(),
        }
    }
    fn apply_system(&self, system: &mut Self::System, cmd: &MapCmd) -> bool {
        self.apply_shared(system, cmd)
    }
}

impl ConcurrentMachine for Registry {
    fn apply_shared(&self, system: &Self::System, cmd: &MapCmd) -> bool {
        let lock = || system.lock().unwrap_or_else(|e| e.into_inner());
        match *cmd {
            MapCmd::PutIfAbsent(k) if self.racy => {
                let absent = !lock().contains_key(&k);
                if absent {
                    // The planted race: check, then act under another lock.
                    std::thread::yield_now();
                    lock().insert(k, ());
                }
                absent
            }
            MapCmd::PutIfAbsent(k) => lock().insert(k, ()).is_none(),
            MapCmd::Remove(k) => lock().remove(&k).is_some(),
        }
    }
}

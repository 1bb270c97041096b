// The bounded queue with a planted bug, shared by tests/stateful.rs and
// benches/state_machine.rs (the same machine as examples/state_machine.rs).

use pbt::generators::{int, just, map, one_of, Gen};
use pbt::stateful::StateMachine;
use std::collections::VecDeque;

/// The queue's capacity.
pub const CAPACITY: usize = 3;

/// A ring buffer of capacity [`CAPACITY`] whose `push` overwrites the
/// oldest element when full instead of refusing with `Err(x)`.
#[derive(Default)]
pub struct Ring {
    slots: [u8; CAPACITY],
    head: usize,
    len: usize,
}

impl Ring {
    pub fn push(&mut self, x: u8) -> Result<(), u8> {
        let tail = (self.head + self.len) % CAPACITY;
        self.slots[tail] = x;
        if self.len == CAPACITY {
            // The planted bug.
            self.head = (self.head + 1) % CAPACITY;
        } else {
            self.len += 1;
        }
        Ok(())
    }
    pub fn pop(&mut self) -> Option<u8> {
        (self.len > 0).then(|| {
            let x = self.slots[self.head];
            self.head = (self.head + 1) % CAPACITY;
            self.len -= 1;
            x
        })
    }
    pub fn len(&self) -> usize {
        self.len
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum QueueCmd {
    Push(u8),
    Pop,
}

/// What a command returns: `Err(x)` when a push is refused.
pub type QueueOutput = Result<Option<u8>, u8>;

/// The model's transition, shared with the proptest-state-machine baseline.
pub fn queue_model(q: &mut VecDeque<u8>, cmd: &QueueCmd) -> QueueOutput {
    match *cmd {
        QueueCmd::Push(x) if q.len() == CAPACITY => Err(x),
        QueueCmd::Push(x) => {
            q.push_back(x);
            Ok(None)
        }
        QueueCmd::Pop => Ok(q.pop_front()),
    }
}

/// The system's step, shared with the proptest-state-machine baseline.
pub fn queue_system(ring: &mut Ring, cmd: &QueueCmd) -> QueueOutput {
    match *cmd {
        QueueCmd::Push(x) => ring.push(x).map(|()| None),
        QueueCmd::Pop => Ok(ring.pop()),
    }
}

#[derive(Debug)]
pub struct QueueMachine;

impl StateMachine for QueueMachine {
    type Model = VecDeque<u8>;
    type System = Ring;
    type Command = QueueCmd;
    type Output = QueueOutput;

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
    fn apply_model(&self, q: &mut VecDeque<u8>, cmd: &QueueCmd) -> QueueOutput {
        queue_model(q, cmd)
    }
    fn apply_system(&self, ring: &mut Ring, cmd: &QueueCmd) -> QueueOutput {
        queue_system(ring, cmd)
    }
    fn invariant(&self, model: &VecDeque<u8>, ring: &Ring) -> Result<(), String> {
        if model.len() == ring.len() {
            Ok(())
        } else {
            let (r, m) = (ring.len(), model.len());
            Err(format!("the ring holds {r}, the model {m}"))
        }
    }
}

//! The baseline: the same planted bugs, the same model and system code,
//! under proptest-state-machine, run in this process by proptest's own
//! `TestRunner` (seeded, no persistence).
//!
//! proptest-state-machine's `apply` sees the reference state *after* the
//! transition, so to compare each command's result with the model's (the
//! planted bugs are in results, not in states) the system under test is
//! kept beside a copy of the model before the step — the usual way to check
//! return values there.

use super::kv::{Cmd, KvMachine, LeakyKv};
use super::queue::{queue_model, queue_system, QueueCmd, Ring};
use pbt::stateful::StateMachine;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};
use std::cell::Cell;
use std::collections::{BTreeMap, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The key-value store's reference machine: the commands of
/// `KvMachine::commands` written as proptest strategies.
pub struct KvReference;

impl ReferenceStateMachine for KvReference {
    type State = BTreeMap<u8, u8>;
    type Transition = Cmd;

    fn init_state() -> BoxedStrategy<Self::State> {
        Just(BTreeMap::new()).boxed()
    }
    fn transitions(state: &Self::State) -> BoxedStrategy<Cmd> {
        let insert = (0..10u8, any::<u8>()).prop_map(|(k, v)| Cmd::Insert(k, v));
        let get = (0..10u8).prop_map(Cmd::Get);
        if state.is_empty() {
            prop_oneof![insert, get].boxed()
        } else {
            let keys: Vec<u8> = state.keys().copied().collect();
            let remove = proptest::sample::select(keys).prop_map(Cmd::Remove);
            prop_oneof![insert, get, remove].boxed()
        }
    }
    fn apply(mut state: Self::State, cmd: &Cmd) -> Self::State {
        KvMachine.apply_model(&mut state, cmd);
        state
    }
    fn preconditions(state: &Self::State, cmd: &Cmd) -> bool {
        KvMachine.precondition(state, cmd)
    }
}

/// The key-value store under test, beside the model before each step.
pub struct KvTest;

impl StateMachineTest for KvTest {
    type SystemUnderTest = (LeakyKv, BTreeMap<u8, u8>);
    type Reference = KvReference;

    fn init_test(model: &BTreeMap<u8, u8>) -> Self::SystemUnderTest {
        (LeakyKv::default(), model.clone())
    }
    fn apply(
        (mut kv, mut before): Self::SystemUnderTest,
        _after: &BTreeMap<u8, u8>,
        cmd: Cmd,
    ) -> Self::SystemUnderTest {
        let expected = KvMachine.apply_model(&mut before, &cmd);
        let actual = KvMachine.apply_system(&mut kv, &cmd);
        assert_eq!(actual, expected, "{cmd:?}");
        (kv, before)
    }
}

/// The bounded queue's reference machine.
pub struct QueueReference;

impl ReferenceStateMachine for QueueReference {
    type State = VecDeque<u8>;
    type Transition = QueueCmd;

    fn init_state() -> BoxedStrategy<Self::State> {
        Just(VecDeque::new()).boxed()
    }
    fn transitions(state: &Self::State) -> BoxedStrategy<QueueCmd> {
        let push = any::<u8>().prop_map(QueueCmd::Push);
        if state.is_empty() {
            push.boxed()
        } else {
            prop_oneof![push, Just(QueueCmd::Pop)].boxed()
        }
    }
    fn apply(mut state: Self::State, cmd: &QueueCmd) -> Self::State {
        let _ = queue_model(&mut state, cmd);
        state
    }
    fn preconditions(state: &Self::State, cmd: &QueueCmd) -> bool {
        !matches!(cmd, QueueCmd::Pop if state.is_empty())
    }
}

/// The ring buffer under test, beside the model before each step.
pub struct QueueTest;

impl StateMachineTest for QueueTest {
    type SystemUnderTest = (Ring, VecDeque<u8>);
    type Reference = QueueReference;

    fn init_test(model: &VecDeque<u8>) -> Self::SystemUnderTest {
        (Ring::default(), model.clone())
    }
    fn apply(
        (mut ring, mut before): Self::SystemUnderTest,
        _after: &VecDeque<u8>,
        cmd: QueueCmd,
    ) -> Self::SystemUnderTest {
        let expected = queue_model(&mut before, &cmd);
        let actual = queue_system(&mut ring, &cmd);
        assert_eq!(actual, expected, "{cmd:?}");
        (ring, before)
    }
}

/// What one proptest-state-machine run found.
pub struct Found {
    /// Test cases run up to and including the first failing one.
    pub tests: usize,
    /// The number of transitions of the shrunk program.
    pub shrunk: usize,
}

/// Run `T` with proptest's runner from `seed`, programs of 1 to
/// `max_steps` transitions, at most `cases` cases. `None` if it passed.
pub fn run<T: StateMachineTest>(seed: u64, cases: u32, max_steps: usize) -> Option<Found> {
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut runner = TestRunner::new_with_rng(config.clone(), rng);
    let strategy = T::Reference::sequential_strategy(1..=max_steps);
    let calls = Cell::new(0usize);
    let first_failure = Cell::new(None);
    let result = runner.run(&strategy, |(initial, transitions, seen)| {
        calls.set(calls.get() + 1);
        let run = || T::test_sequential(config.clone(), initial, transitions, seen);
        match catch_unwind(AssertUnwindSafe(run)) {
            Ok(()) => Ok(()),
            Err(_) => {
                first_failure.set(first_failure.get().or(Some(calls.get())));
                Err(TestCaseError::fail("a postcondition failed"))
            }
        }
    });
    match result {
        Err(TestError::Fail(_, (_, transitions, _))) => Some(Found {
            tests: first_failure.get().expect("a failing case was run"),
            shrunk: transitions.len(),
        }),
        _ => None,
    }
}

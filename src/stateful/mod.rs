//! Stateful and model-based testing as properties.
//!
//! A [`StateMachine`] pairs a reference *model* with the *system under
//! test*. A [`Program`] is a sequence of commands, each generated from the
//! model state it will run in ([`StateMachine::commands`], any `Gen` value,
//! so "remove a key that exists" is `choose` over the model's keys) and kept
//! only when its [`StateMachine::precondition`] holds. Running a program
//! applies every command to both sides, compares the results
//! ([`StateMachine::postcondition`]) and checks the
//! [`StateMachine::invariant`] after every step.
//!
//! [`property`] compiles a machine to an ordinary DBAS property with one
//! variable, `program`; so every runner (`generational`, `integrated`,
//! `fuzz`, `targeted`, `parallel`, user-written ones) applies to it, and
//! `property!` can quantify over [`Programs`] like over any generator. A
//! failing program is printed numbered, each step with the model's and the
//! system's result, followed by Rust statements that replay it.
//!
//! [`compare`] is the one-line form of "Property Based Testing in
//! MIT-Scheme" (§2.3): the same generated command sequence runs on two
//! implementations of one interface, failing on the first difference.
//!
//! # What was taken, and what differs
//!
//! From proptest-state-machine: the split of a *reference state machine*
//! (model, transitions, preconditions) from the *system under test*, and
//! shrinking by deleting transitions and re-checking preconditions. From
//! Hypothesis's rule-based state machines: commands drawn from the current
//! model state (its bundles and `@precondition`), invariants after every
//! step, and programs as a function of one choice sequence, so simplifying
//! choices always regenerates a valid program. Different here: the
//! machine is not a test harness but a [`pbt::Property`](crate::Property), so
//! coverage-guided fuzzing, targeted search and the parallel runner work on
//! command sequences unchanged; the shrinker both deletes steps *and*
//! simplifies one step's recorded choices in its own model state (proptest
//! shrinks arguments by value, blind to the state; Hypothesis only through
//! the whole sequence); a mutator regrows a program's tail from the model
//! state at a cut point, for the mutation-based runners; and the
//! counterexample prints as a Rust reproducer, not as Python.

mod compare;
mod concurrent;
mod concurrent_program;
mod execute;
mod linearize;
mod machine;
mod program;
mod property;

pub use compare::{compare, Compare};
pub use concurrent::{
    check_concurrent, concurrent, run_concurrent, ConcurrentCase, ConcurrentMachine, RunVerdict,
};
pub use concurrent_program::{ConcurrentProgram, ConcurrentPrograms};
pub use execute::{check, execute, print, reproducer, StepVerdict, Trace};
pub use linearize::{interleavings_valid, linearize, Event, History, Linearization};
pub use machine::StateMachine;
pub use program::{Program, Programs, Step, COMMAND_TRIES};
pub use property::{property, ProgramCase};

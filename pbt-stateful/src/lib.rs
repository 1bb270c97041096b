//! Stateful and model-based testing as properties.
//!
//! Users reach this crate through the facade, as `pbt::stateful` (as
//! proptest-state-machine sits beside proptest); it needs only pbt-core.
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
//! # Shrinking
//!
//! Every program pbt hands out is valid, and every shrinker reaches the
//! minimal program on the planted bugs of `examples/state_machine.rs`:
//! [`Programs::shrink`] (the external shrinker) deletes runs of steps and
//! simplifies one step's recorded choices in its own model state, keeping
//! or regenerating the later steps; the integrated shrinker, which sees only
//! the choice sequence, deletes a step by lowering its continuation choice
//! to "skip" (one choice, not a span of exactly the step's length).
//!
//! # Concurrent testing
//!
//! A [`ConcurrentMachine`] runs commands on a system shared between threads
//! ([`ConcurrentMachine::apply_shared`]). [`concurrent`] generates a
//! sequential prefix and then one short command list per thread, such that
//! every interleaving meets only valid commands; it runs the prefix, starts
//! the threads together, stamps every command with a shared clock before
//! and after, and passes when some order of the threads' commands that
//! keeps each thread's order and real-time order is explained by the model
//! ([`linearize`]; quickcheck-state-machine's parallel property). A race
//! shows only in some schedules, so each test runs its program
//! [`ConcurrentMachine::repetitions`] times. A failure prints the prefix,
//! each thread's commands, a failing run's history and a Rust reproducer
//! ([`ConcurrentProgram::from_commands`], then [`run_concurrent`] in a
//! loop). Shrinking keeps concurrent
//! programs valid too: it empties a thread, deletes steps, shrinks the
//! prefix, moves a thread's first command into the prefix and simplifies
//! one step's choices.
//!
//! # No derive for the command enum
//!
//! A `#[derive]` that turned variants into commands (a generator per field,
//! a precondition per variant) was considered and left out: it would not
//! make the common case clearly shorter. State-independent commands are
//! already one line, `any::<Cmd>()` over `#[derive(Arbitrary)]`. The
//! state-dependent ones ("remove a key that exists") need expressions over
//! the model, which the staged DSL already takes — weights may read the
//! model, so an alternative is off while it cannot apply:
//!
//! ```
//! # use pbt::generators::Gen;
//! # use std::collections::BTreeMap;
//! # #[derive(Clone, Debug)] enum Cmd { Insert(u8, u8), Get(u8), Remove(u8) }
//! # fn choose_key(m: &BTreeMap<u8, u8>) -> impl Gen<Value = u8> + '_ {
//! #     pbt::generators::map(pbt::generators::int(0..m.len()), move |i| *m.keys().nth(i).unwrap())
//! # }
//! fn commands(model: &BTreeMap<u8, u8>) -> impl Gen<Value = Cmd> + '_ {
//!     pbt::generator!(frequency[
//!         1 => map((int(0..10u8), any::<u8>()), |(k, v)| Cmd::Insert(k, v)),
//!         1 => map(int(0..10u8), Cmd::Get),
//!         model.len().min(1) => map(choose_key(model), Cmd::Remove),
//!     ])
//! }
//! # let _ = commands(&BTreeMap::new());
//! ```
//!
//! Moved into attributes, the same expressions would lose the compiler's
//! type errors at their own spans and the editor's help, to save three or
//! four lines of a forty-line machine.
//!
//! # What was taken, and what pbt does better
//!
//! From proptest-state-machine: the split of a *reference state machine*
//! (model, transitions, preconditions) from the *system under test*, and
//! shrinking by deleting transitions and re-checking preconditions. From
//! Hypothesis's rule-based state machines: commands drawn from the current
//! model state (its bundles and `@precondition`), invariants after every
//! step, and programs as a function of one choice sequence, so simplifying
//! choices always regenerates a valid program.
//!
//! Better here:
//! - the machine is not a test harness but a
//!   [`pbt::Property`](pbt_core::Property): coverage-guided fuzzing, targeted
//!   search, the parallel runner and the exhaustive small-scope runner
//!   (pbt-exhaustive, which proves a machine on every program up to a
//!   bound) work on command sequences unchanged;
//! - each step returns a result and the postcondition compares it with the
//!   model's (proptest-state-machine's `apply` sees only the state after
//!   the step, so checking return values means keeping a second model);
//! - the shrinker deletes steps *and* simplifies one step's recorded choices
//!   in its own model state (proptest shrinks arguments by value, blind to
//!   the state; Hypothesis only through the whole sequence), and the
//!   integrated shrinker deletes any step with one choice;
//! - concurrent programs are checked for linearizability, which neither
//!   proptest-state-machine nor Hypothesis offers;
//! - a mutator regrows a program's tail from the model state at a cut point,
//!   for the mutation-based runners;
//! - the counterexample prints as a numbered program with both results per
//!   step and as a Rust reproducer, not as Python or a `Debug` dump.

#![forbid(unsafe_code)]

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
    check_concurrent, concurrent, run_concurrent, ConcurrentCase, ConcurrentMachine,
    ConcurrentVerdict,
};
pub use concurrent_program::{ConcurrentProgram, ConcurrentPrograms, REPRODUCER_RUNS};
pub use execute::{check, execute, print, reproducer, StepVerdict, Trace};
pub use linearize::{interleavings_valid, linearize, Event, History, Linearization};
pub use machine::StateMachine;
pub use program::{Program, ProgramStep, Programs, COMMAND_TRIES};
pub use property::{property, ProgramCase};

//! The components runners are built from (*Programmable Property-Based Testing* §6.1): a generator
//! step, a run step ([`RunStep`]: [`InProcess`], or [`isolation::Isolated`]
//! in a child process), a shrinker, a printer, plus the bookkeeping every
//! runner shares (seeds and sizes, the watchdog, the regressions file). Two of them
//! carry the promise that a found bug is never lost: the inputs stream
//! ([`replay_saved`]: every saved case first, whatever `cases` is) and the
//! failure path ([`report_failure`]: save and announce the failing input
//! before shrinking it; faults in user code on the way become notes, not
//! lost cases).
//!
//! They are public so that a runner in another crate can reuse them; nothing
//! here knows about any particular runner.

// The modules are layered, lowest first, and a module names only those
// before it: the order is listed in docs/architecture.md ("Component
// layers"), and tests/layers.rs checks every path against it. A new
// component goes on the line of the lowest layer that has what it names.
//
// Private modules, each item re-exported below (its one path is
// `components::Item`).
mod cases;
mod crash;
mod deadline;
mod drops;
mod erased;
mod examples;
mod execute;
mod explain;
mod failure;
mod found;
mod integrated;
mod narration;
mod observe;
mod run_step;
mod shrink_failure;
mod shrinker;
mod supervise;
mod tested;
mod watch;
mod watchdog;
mod workers;
// Families of related items, reached by their module's name
// (`components::seed_pool::Pool`, `components::utility::Maximize`, …).
pub mod distinct;
pub mod feedback_loop;
pub mod isolation;
pub mod observations;
pub mod regressions;
pub mod seed_pool;
pub mod statistics;
pub mod utility;

pub use cases::{Cases, Plan};
pub use crash::guard_thread;
pub use drops::{drop_quietly, take_drop_panics};
pub(crate) use erased::held as held_inputs;
pub use erased::{AnyInputs, DynProperty, Traced};
pub use examples::run_examples;
pub use execute::{
    catch_quietly, generate_and_run, generate_and_run_batch, over_time, quietly, run, Batch, Panic,
    MAX_STACK,
};
pub use explain::{explain, EXPLAIN_TIME, EXPLAIN_TRIES};
pub(crate) use failure::to_stderr;
pub use failure::{report_failure, Discovery};
pub use found::{CaseSeed, Found, MAX_SAVED_SIZE};
pub use integrated::{shrink_choices, Start};
pub use observe::{observe_run, observed_test, test_observing, How, ObservedTest};
pub use run_step::{replay_saved, replay_saved_distinct, replay_saved_with, InProcess, RunStep};
pub use shrink_failure::{shrink_failure, ShrunkFailure, ORIGINAL_SHOWN};
pub use shrinker::{descend, shrink, Budget, Descent, ShrinkLimits, Shrunk};
pub use supervise::{abandonable, supervise, supervise_all};
pub use tested::{Fault, NotGenerated, Tested};
pub use watch::Watch;
pub use workers::{on_workers, KEPT_WORKERS};

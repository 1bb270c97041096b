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

// The bottom layer proper: private modules, each item re-exported below
// (its one path is `components::Item`).
mod cases;
mod crash;
mod deadline;
mod drops;
mod erased;
mod examples;
mod execute;
mod failure;
mod integrated;
mod run_step;
mod shrinker;
mod watchdog;
mod workers;
// Families of related items, reached by their module's name
// (`components::seed_pool::Pool`, `components::utility::Maximize`, …).
pub mod feedback_loop;
pub mod isolation;
pub mod regressions;
pub mod seed_pool;
pub mod statistics;
pub mod utility;

pub use cases::{replay_saved, CaseSeed, Cases, Found, Plan, MAX_SAVED_SIZE};
pub use crash::guard_thread;
pub use drops::{drop_quietly, take_drop_panics};
pub(crate) use erased::held as held_inputs;
pub use erased::{AnyInputs, Checked, DynProperty, Generation, Traced};
pub use examples::run_examples;
pub use execute::{
    catch_quietly, generate_and_run, generate_and_run_batch, over_time, quietly, run, Batch, Panic,
    Step, MAX_STACK,
};
pub(crate) use failure::to_stderr;
pub use failure::{report_failure, Discovery, Fault};
pub use integrated::{shrink_choices, Start};
pub use run_step::{replay_saved_with, InProcess, RunStep};
pub use shrinker::{
    descend, minimize, shrink, Budget, Descent, Minimized, ShrinkLimits, Shrunk, ORIGINAL_SHOWN,
};
pub use watchdog::{supervise, supervise_all, Watch};
pub use workers::{on_workers, KEPT_WORKERS};

//! The components runners are built from (papers/000 §6.1): a generator
//! step, a run step, a shrinker, a printer, plus the bookkeeping every runner
//! shares (seeds and sizes, the watchdog, the regressions file). Two of them
//! carry the promise that a found bug is never lost: the inputs stream
//! ([`replay_saved`]: every saved case first, whatever `cases` is) and the
//! failure path ([`report_failure`]: save and announce the failing input
//! before shrinking it; faults in user code on the way become notes, not
//! lost cases).
//!
//! They are public so that a runner in another crate can reuse them; nothing
//! here knows about any particular runner.

pub mod cases;
mod crash;
pub mod erased;
pub mod execute;
pub mod failure;
pub mod feedback_loop;
pub mod integrated;
pub mod isolation;
pub mod regressions;
pub mod seed_pool;
pub mod shrinker;
pub mod statistics;
pub mod utility;
pub mod watchdog;

pub use cases::{replay_saved, CaseSeed, Found, Plan};
pub use erased::{AnyInputs, DynProperty, Generation, Traced};
pub use execute::{generate_and_run, run, Step};
pub use failure::{report_failure, Discovery, Fault};
pub use integrated::{shrink_choices, ShrunkChoices};
pub use shrinker::{descend, minimize, shrink, Budget, Minimized, ShrinkLimits, Shrunk};
pub use watchdog::{supervise, supervise_all, Watch};

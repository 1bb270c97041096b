//! The components runners are built from (papers/000 §6.1): a generator
//! step, a run step, a shrinker, a printer, plus the bookkeeping every runner
//! shares (seeds and sizes, the watchdog, the regressions file).
//!
//! They are public so that a runner in another crate can reuse them; nothing
//! here knows about any particular runner.

pub mod cases;
mod crash;
pub mod erased;
pub mod execute;
pub mod feedback_loop;
pub mod integrated;
pub mod isolation;
pub mod regressions;
pub mod seed_pool;
pub mod shrinker;
pub mod utility;
pub mod watchdog;

pub use cases::{Case, Found, Plan};
pub use erased::{AnyInputs, DynProperty, Step, Traced};
pub use execute::{generate_and_run, run, Verdict as RunVerdict};
pub use integrated::{shrink_choices, ShrunkChoices};
pub use shrinker::{descend, minimize, shrink, Budget, Minimized, ShrinkLimits, Shrunk};
pub use watchdog::{supervise, supervise_all, Watch};

//! pbt runners: short loops over the public [`pbt_core::Property`] trait.
//!
//! Every runner is `(&prop, Config) -> Report` and is built from the shared
//! [`components`]; a runner of your own can use them too (see
//! `docs/architecture.md`, the `pbt-exhaustive` crate and
//! `examples/demo/hand_runner.rs` in the pbt repository).
// Unsafe code is denied, and allowed in three small modules: the crash
// handler (components::crash), which installs signal handlers, the
// thread-bound value that makes a report's typed counterexample `Send`
// (report::bound), and the shrinkers' coarse clock (one `clock_gettime`,
// components::deadline::coarse).
#![deny(unsafe_code)]

mod combinatorial;
pub mod components;
mod config;
pub mod engine;
mod fuzz;
mod generational;
mod integrated;
mod parallel;
mod profile;
mod report;
mod targeted;
mod verbosity;

pub use combinatorial::{combinatorial, constructor_features};
pub use config::{Config, FeatureFn, Mutation, Regressions, Shrinker, Sizes, MAX_WORKERS};
pub use fuzz::fuzz;
pub use generational::generational;
pub use integrated::integrated;
pub use parallel::parallel;
pub use report::{Failure, Report, SavedAt, SavedFrom, TypedInputs, Variables, Verdict};
pub use targeted::{generalized, targeted};
pub use verbosity::Verbosity;

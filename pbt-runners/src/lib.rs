//! pbt runners: short loops over the public [`pbt_core::Property`] trait.
//!
//! Every runner is `(&prop, Config) -> Report` and is built from the shared
//! [`components`]; a runner of your own can use them too (see the
//! `custom_runner` example of the `pbt` crate).
#![forbid(unsafe_code)]

pub mod components;
mod config;
mod generational;
mod report;

pub use config::{Config, Regressions, Sizes};
pub use generational::generational;
pub use report::{Failure, Report, Verdict};

//! The pbt runtime: sources of randomness, generators, type-based defaults,
//! and properties as data.
//!
//! Most users depend on the `pbt` facade crate instead, which re-exports this
//! crate together with the runners and the macros.
//!
//! - [`Source`] / [`Rng`]: where every choice comes from ([`source`], [`choices`]).
//! - [`gen`]: the runtime generator combinators ([`Gen`]).
//! - [`Arbitrary`] / [`Shrink`]: type-based generation and shrinking.
//! - [`property`]: the DBAS nodes `Forall` / `Implies` / `Check` and the
//!   [`Property`] trait every runner is written against.
#![forbid(unsafe_code)]

pub mod arbitrary;
pub mod choices;
pub mod gen;
pub mod property;
pub mod shrink;
pub mod source;

#[doc(hidden)]
pub mod macro_support;

pub use arbitrary::Arbitrary;
pub use gen::{Gen, Generated, Rejected};
pub use property::{Binding, Case, Discarded, Outcome, Property, Structure};
pub use shrink::Shrink;
pub use source::{Rng, Source};

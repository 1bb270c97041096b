//! The pbt runtime: sources of randomness, generators, type-based defaults,
//! and properties as data.
//!
//! Most users depend on the `pbt` facade crate instead, which re-exports this
//! crate together with the runners and the macros.
//!
//! - [`Source`] / [`Rng`]: where every choice comes from ([`source`], [`choices`]).
//! - [`gen`]: the runtime generator combinators ([`Gen`]).
//! - [`Arbitrary`] / [`Shrink`] / [`Mutate`]: type-based generation,
//!   shrinking and mutation; [`Constructors`]: the constructor view of a
//!   value for combinatorial coverage.
//! - [`property`]: the DBAS nodes `Forall` / `Implies` / `Check` and the
//!   [`Property`] trait every runner is written against.
//! - [`statistics`] / [`notes`]: what a check reports about its tests
//!   ([`label!`], [`classify!`], [`require_cover!`], …) and notes for the
//!   final counterexample ([`note!`]).
#![deny(unsafe_code)]

pub mod arbitrary;
pub mod choices;
pub mod constructors;
pub mod coverage;
pub mod feedback;
pub mod gen;
pub mod mutate;
pub mod notes;
pub mod overrun;
pub mod property;
pub mod shrink;
pub mod source;
pub mod statistics;
pub mod utility;

#[doc(hidden)]
pub mod macro_support;

pub use arbitrary::Arbitrary;
pub use constructors::{Constructor, Constructors};
pub use gen::{Gen, Generated, Rejected};
pub use mutate::Mutate;
pub use property::{Binding, Case, Discarded, Outcome, Property, Structure};
pub use shrink::Shrink;
pub use source::{Rng, Source};

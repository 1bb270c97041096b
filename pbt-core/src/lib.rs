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
//! - [`Data`]: draws inside the test, recorded in the test's choices.
//! - [`assume!`]: discard a test whose inputs do not meet a condition, from
//!   inside the check or a function it calls.
#![deny(unsafe_code)]

/// Calls `$m!` with every `NonZero*` type and its integer type
/// (`NonZeroU8: u8, …`): the one list the `Arbitrary`, `Shrink` and
/// `Mutate` impls for them are generated from.
macro_rules! for_each_nonzero {
    ($m:ident) => {
        $m!(
            NonZeroU8: u8, NonZeroU16: u16, NonZeroU32: u32, NonZeroU64: u64,
            NonZeroU128: u128, NonZeroUsize: usize, NonZeroI8: i8, NonZeroI16: i16,
            NonZeroI32: i32, NonZeroI64: i64, NonZeroI128: i128, NonZeroIsize: isize
        );
    };
}

pub mod arbitrary;
mod assume;
pub mod choices;
pub mod constructors;
pub mod coverage;
pub mod data;
pub mod feedback;
pub mod gen;
pub mod mutate;
pub mod notes;
pub mod overrun;
pub mod property;
pub mod rejection;
pub mod shrink;
pub mod source;
pub mod statistics;
pub mod utility;

#[doc(hidden)]
pub mod macro_support;

pub use arbitrary::Arbitrary;
pub use constructors::{Constructor, Constructors};
pub use data::Data;
pub use gen::{Gen, Generated, Rejected};
pub use mutate::Mutate;
pub use property::{Binding, Case, Discarded, Outcome, Property, Structure};
pub use shrink::Shrink;
pub use source::{Rng, Source};

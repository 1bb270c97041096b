//! An ETNA-style bug-finding benchmark (Shi et al., ICFP 2023; *Programmable Property-Based Testing*
//! §6.2) for pbt, proptest and quickcheck.
//!
//! Three workloads — binary search trees ([`bst`]), red-black trees
//! ([`rbt`]) and the simply-typed lambda calculus ([`stlc`], also run
//! without integers as `STLC-bool`) — each carry
//! injected bugs (mutants, chosen at run time: every buggy function takes
//! the mutant in effect) and properties. A *task* is a mutant with a
//! property it falsifies; a *strategy* ([`strategy::Strategy`]) is a library
//! with a bespoke or a type-based generator and, for pbt, one of its runners. The harness ([`harness`]) runs
//! every strategy on every task for several trials and measures the time and
//! the number of tests to the first failure with a [`probe::Probe`] inside
//! the property, the same way for every library; [`results`] buckets and
//! prints them and writes the JSON, and [`chart`] draws the bucket charts.
//!
//! `cargo run --release -p pbt-eval --bin etna -- --help` runs it;
//! `docs/etna.md` has the results.

#![forbid(unsafe_code)]

pub mod bst;
pub mod chart;
pub mod common;
pub mod drivers;
pub mod effort;
pub mod harness;
pub mod ifc;
pub mod probe;
pub mod rbt;
pub mod results;
pub mod stack;
pub mod stlc;
pub mod strategy;

/// An enum of named, unit variants with `ALL`, `name` and `from_name`.
#[macro_export]
#[doc(hidden)]
macro_rules! named_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)*
        }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The variant's name (ETNA's spelling).
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }

            /// The variant called `name`.
            pub fn from_name(name: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|v| v.name() == name)
            }
        }
    };
}

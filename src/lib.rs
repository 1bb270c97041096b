//! Property-based testing where properties are data.
//!
//! A property says what must hold for every input. pbt generates inputs,
//! runs your check on each, and when one fails it shrinks it to a small
//! counterexample, saves it so the next run tries it first, and reports it
//! with the seed that replays it.
//!
//! # Install
//!
//! ```toml
//! [dev-dependencies]
//! pbtest = "0.1"
//! ```
//!
//! The package is `pbtest`; the library it brings is `pbt`, so code writes
//! `use pbt::prelude::*;`. (The name `pbt` on crates.io belongs to another
//! project.)
//!
//! # A first property
//!
//! In a test file, a property is a function whose parameters are the
//! inputs; `cargo test` runs it:
//!
//! ```
//! use pbt::prelude::*;
//!
//! #[property_test]
//! fn reverse_twice_is_identity(xs: Vec<u8>) -> bool {
//!     let mut ys = xs.clone();
//!     ys.reverse();
//!     ys.reverse();
//!     ys == xs
//! }
//! ```
//!
//! The same property can be a value, which any runner can test and whose
//! report you can inspect:
//!
//! ```
//! use pbt::prelude::*;
//!
//! let prop = property! {
//!     forall xs: Vec<u32>;
//!     check xs.iter().all(|&x| x < 1000) // false: pbt finds a counterexample
//! };
//! let config = Config::default().seed(7).regressions(pbt::runners::Regressions::Off);
//! let report = pbt::runners::generational(&prop, config);
//! // Shrunk to the simplest failing input.
//! assert_eq!(report.counterexample::<(Vec<u32>,)>(), Some((vec![1000],)));
//! ```
//!
//! # What you get
//!
//! - Generators for every std type, `#[derive(Arbitrary, Mutate)]` for
//!   yours, and a generator DSL (`#[with = vec(int(0..10u8), 1..5)]`)
//!   that the macros compile into plain Rust: [`generators`].
//! - Shrinking that keeps inputs valid, failures saved the moment they are
//!   found, and faults in your code (a panic, a hang, a crash) reported
//!   with the input that caused them: [`runners`].
//! - Runners for every strategy: random generation, coverage-guided
//!   fuzzing, targeted search, exhaustive enumeration, parallel; and your
//!   own, written over the public [`Property`] trait.
//! - Stateful testing of state machines and concurrent code: [`stateful`].
//!
//! # Where next
//!
//! The [guide] goes from here to a runner of your own:
//!
//! - [Your first property](crate::guide::ch01_first_property), then
//!   [generators](crate::guide::ch02_generators),
//!   [deriving](crate::guide::ch03_deriving),
//!   [preconditions](crate::guide::ch04_preconditions) and
//!   [failures](crate::guide::ch05_failures);
//! - [choosing a runner](crate::guide::ch06_runners) and
//!   [configuration](crate::guide::ch13_configuration);
//! - coming from [proptest](crate::guide::ch14_from_proptest),
//!   [quickcheck](crate::guide::ch15_from_quickcheck) or
//!   [Hypothesis](crate::guide::ch16_from_hypothesis).
#![forbid(unsafe_code)]

/// The repository's README, whose examples are doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// `docs/architecture.md`, whose runner example is a doctest.
#[cfg(doctest)]
#[doc = include_str!("../docs/architecture.md")]
pub struct ArchitectureDoc;
mod fuzz_target;
pub mod guide;
#[doc(hidden)]
pub use fuzz_target::__engines as __fuzz_engines;
#[doc(inline)]
pub use pbt_stateful as stateful;

/// Explicit examples, run before any generated test (the component
/// `runners::components::run_examples`, at the path users write).
pub use pbt_runners::components::run_examples;

pub use pbt_core::{
    arbitrary, choices, constructors, coverage, data, feedback, mutate, notes, rejection, shrink,
    source, statistics, utility,
};

/// Properties as data (deferred binding abstract syntax): the node types of
/// a property chain and their annotations, for building one by hand or
/// inspecting its structure. The trait every runner uses ([`Property`]) and
/// the per-test types ([`Outcome`], [`Case`], [`Binding`], [`Discarded`],
/// [`Structure`]) are at the crate root, their one path.
///
/// ```
/// use pbt::dbas::{Check, Forall, Prop};
/// // forall x: u8; check x < 200   (what property! writes for you)
/// let prop = Prop::new(Forall::new("x", "u8", Check::new(|&(x, ()): &(u8, ())| x < 200)));
/// let config = pbt::runners::Config::default().regressions(pbt::runners::Regressions::Off);
/// assert!(!pbt::runners::generational(&prop, config).passed());
/// ```
pub mod dbas {
    pub use pbt_core::property::{
        Check, ConstructorView, Forall, GenAnnotation, GenByType, GenData, GenStaged, GenWith,
        Implies, IntoOutcome, MutateAnnotation, MutateByGen, MutateByType, MutateWith, NoUtility,
        Node, NodeView, Origin, PrintAnnotation, PrintDebug, PrintWith, Prop, ShrinkAnnotation,
        ShrinkByChoices, ShrinkByType, ShrinkWith, Target, UtilityAnnotation, UtilityWith,
    };
}
/// What a check reports about its tests ([`statistics`]) and notes for the
/// final counterexample ([`notes`]).
pub use pbt_core::{classify, collect, label, note, require_cover, tabulate};
pub use pbt_core::{
    Arbitrary, Binding, Case, Data, Discarded, Gen, Generated, Outcome, Property, Rejected, Rng,
    Shrink, Source, Structure,
};
pub use pbt_core::{Constructor, Constructors, Mutate};
/// The derives: `Arbitrary` (generator, shrinker, constructor view) and
/// `Mutate` (mutator). See `docs/derive.md`.
pub use pbt_derive::{Arbitrary, Mutate};
/// `assume!(cond)`: discard a test whose inputs do not meet `cond`.
///
/// A comparison (`==`, `<`, …, combined with `&&`, `||`, `!`) gets the
/// utility an `implies` gets, so when the assumptions reject most inputs the
/// run targets them instead of giving up:
///
/// ```
/// use pbt::prelude::*;
/// // Two u32s are equal about once in a hundred draws.
/// let prop = property! { forall a: u32; forall b: u32; check { assume!(a == b); a == b } };
/// let report = pbt::runners::generational(&prop, Config::default().seed(3));
/// assert!(report.passed(), "{report}");
/// ```
pub use pbt_macros::assume;
pub use pbt_macros::{generator, property, property_test};

/// The generators: the runtime combinators (every DSL combinator as a
/// [`Gen`] value) and the DSL's names. Its one path in this crate: `gen` is a
/// keyword in edition 2024, `generators` is not.
pub use pbt_core::gen as generators;

/// The runners: short loops over [`Property`], each `(&prop, Config) -> Report`.
pub mod runners {
    pub use pbt_runners::*;
}

/// What most test files need: `use pbt::prelude::*;`.
///
/// The derives `Arbitrary` and `Mutate` are here, but not the traits
/// [`Arbitrary`], [`Shrink`] and [`Mutate`]: their methods (`T::arbitrary`,
/// `x.shrink()`, `x.mutate(…)`) share names with quickcheck's and proptest's, and a trait
/// in scope, even as `_`, makes such calls ambiguous (E0034) in a module
/// that also uses those crates. Import the traits by name where you call
/// them: `use pbt::{Arbitrary, Shrink};`.
///
/// With `use quickcheck::*` next to it, `Gen` names two items (pbt's
/// generator trait, quickcheck's `Gen` struct), and rustc picks one with a
/// warning; import the one you mean by name (`use quickcheck::Gen;`), which
/// wins over both globs.
///
/// ```
/// use pbt::prelude::*;
/// use pbt::Shrink;
///
/// #[derive(Clone, Debug, Arbitrary, Mutate)]
/// enum Coin { Heads, Tails }
///
/// let smaller: Vec<u8> = 10u8.shrink().collect();
/// assert_eq!(smaller.first(), Some(&0));
/// let prop = property! { forall c: Coin; check matches!(c, Coin::Heads | Coin::Tails) };
/// assert!(pbt::runners::generational(&prop, Config::default()).passed());
/// ```
pub mod prelude {
    pub use crate::generators::Gen;
    pub use crate::runners::{Config, Report};
    /// Draws inside the test: a `data: &mut Data` parameter.
    pub use crate::Data;
    pub use crate::{assume, generator, property, property_test, Constructors, Outcome, Property};
    /// Statistics of the generated tests (`label!`, `collect!`, `classify!`,
    /// `tabulate!`), coverage requirements (`require_cover!`) and notes for
    /// the final counterexample (`note!`).
    pub use crate::{classify, collect, label, note, require_cover, tabulate};
    /// Feedback for the feedback-guided runners (`target` to maximise,
    /// `cover` to report a point reached, `observe` for generalized targeting).
    pub use pbt_core::feedback::{cover, observe, target};
    /// The derives only (the macro namespace); see the module's docs.
    pub use pbt_derive::{Arbitrary, Mutate};
}

/// Paths the macros expand to. Not a public API: it may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use core::time::Duration;
    pub use pbt_core::macro_support::{
        assumption_failed, assumption_failed_graded, assumption_held, body, check, holds,
        Assumption, Example,
    };
    pub use pbt_runners::components::{abandonable, run_examples};
    // The DSL's names, glob-imported into every annotation; the staging
    // helpers stay here, out of the annotations' scope.
    pub use pbt_core::gen::dsl;
    pub use pbt_core::gen::{
        threshold, Length, Prepaid, Staged, FILTER_TRIES, MAX_RESERVE, UNIQUE_TRIES, UNIT,
    };
    pub use pbt_core::macro_support::{
        weight, Bind, BindCopy, BindRef, GenAvailable, GenMissing, MutatorByGen, MutatorByType,
        NoView, PickByType, PickMutator, PickView, PrintAvailable, PrintMissing, Produces,
        ShrinkAvailable, ShrinkMissing, ViewByType,
    };
    // `Data` parameters: lent for the run, misuse named.
    pub use pbt_core::macro_support::{
        data_not_annotated, data_taken_as_mut_ref, DataParam, DataParamOther, Lend, LendClone,
    };
    pub use pbt_core::property::{Check, Forall, Implies, IntoOutcome, Origin, Prop, Target};
    pub use pbt_core::rejection::{rejected, Rejection};
    pub use pbt_core::source::BlockKind;
    pub use pbt_core::utility;
    pub use pbt_core::{Arbitrary, Gen, Generated, Rejected, Rng, Source};
    // #[derive(Arbitrary, Mutate)]
    pub use pbt_core::choices::Replay;
    pub use pbt_core::constructors::support::{Visit, VisitConstructors, VisitNothing};
    pub use pbt_core::mutate::support::{Differ, DifferEq, DifferUnknown, FIELD_TRIES};
    pub use pbt_core::shrink::{boxed as boxed_candidates, Candidates};
    pub use pbt_core::{Constructor, Constructors, Mutate, Shrink};
    pub use pbt_runners::{generational, Config, Mutation, Report, Shrinker};
}

#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub use pbt_core::{
    arbitrary, choices, constructors, coverage, feedback, gen, mutate, notes, property as dbas,
    shrink, source, statistics, utility,
};
/// What a check reports about its tests ([`statistics`]) and notes for the
/// final counterexample ([`notes`]).
pub use pbt_core::{classify, collect, label, note, require_cover, tabulate};
pub use pbt_core::{
    Arbitrary, Binding, Case, Discarded, Gen, Generated, Outcome, Property, Rejected, Rng, Shrink,
    Source, Structure,
};
pub use pbt_core::{Constructor, Constructors, Mutate};
/// The derives: `Arbitrary` (generator, shrinker, constructor view) and
/// `Mutate` (mutator). See `docs/derive.md`.
pub use pbt_derive::{Arbitrary, Mutate};
pub use pbt_macros::{generator, property, property_test};

/// [`gen`] under a name that is not a keyword in edition 2024 (where the
/// module must otherwise be written `pbt::r#gen`).
pub use pbt_core::gen as generators;
pub use pbt_runners::{Config, Report};

/// The runners: short loops over [`Property`], each `(&prop, Config) -> Report`.
pub mod runners {
    pub use pbt_runners::*;
}

/// What most test files need: `use pbt::prelude::*;`.
pub mod prelude {
    pub use crate::gen::Gen;
    pub use crate::runners::{Config, Report};
    /// Statistics of the generated tests (`label!`, `collect!`, `classify!`,
    /// `tabulate!`), coverage requirements (`require_cover!`) and notes for
    /// the final counterexample (`note!`).
    pub use crate::{classify, collect, label, note, require_cover, tabulate};
    pub use crate::{generator, property, property_test, Arbitrary, Outcome, Property, Shrink};
    pub use crate::{Constructors, Mutate};
    /// Feedback for the feedback-guided runners (`target` to maximise,
    /// `cover` to report a point reached, `observe` for generalized targeting).
    pub use pbt_core::feedback::{cover, observe, target};
}

/// Paths the macros expand to. Not a public API: it may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use core::time::Duration;
    pub use pbt_core::gen;
    pub use pbt_core::macro_support::{
        weight, Bind, BindCopy, BindRef, MutatorByGen, MutatorByType, NoView, PickMutator,
        PickView, ViewByType,
    };
    pub use pbt_core::property::{Check, Forall, Implies, IntoOutcome, Origin, Prop, Target};
    pub use pbt_core::utility;
    pub use pbt_core::{Arbitrary, Gen, Generated, Rejected, Rng, Source};
    // #[derive(Arbitrary, Mutate)]
    pub use pbt_core::choices::Replay;
    pub use pbt_core::constructors::support::{Visit, VisitConstructors, VisitNothing};
    pub use pbt_core::mutate::support::{Differ, DifferEq, DifferUnknown, FIELD_TRIES};
    pub use pbt_core::shrink::Candidates;
    pub use pbt_core::{Constructor, Constructors, Mutate, Shrink};
    pub use pbt_runners::{generational, Config, Mutation, Report, Shrinker};
}

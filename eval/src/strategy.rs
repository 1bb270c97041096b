//! The strategies under comparison: a library and a kind of generator.

use serde::Serialize;
use std::fmt;

/// The property-based testing library whose runner and generators a
/// strategy uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Library {
    /// pbt: `property!`, staged generators, the generational runner.
    Pbt,
    /// proptest 1.x: strategies and `TestRunner`.
    Proptest,
    /// quickcheck 1.x: `Arbitrary` and `QuickCheck::quicktest`.
    Quickcheck,
}

/// How the inputs are generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Kind {
    /// A hand-written generator of valid inputs only (trees built by the
    /// correct insert, well-typed terms by construction).
    Bespoke,
    /// A generator that follows the type's structure; invalid inputs are
    /// discarded by the property's precondition.
    TypeBased,
}

/// Which of pbt's runners drives a pbt strategy (proptest and quickcheck
/// have one runner each: [`Runner::Generational`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Runner {
    /// `runners::generational`: generate, test, repeat.
    Generational,
    /// `runners::parallel`: the generational loop on every core.
    Parallel,
    /// `runners::fuzz` mutating the choice sequences of kept inputs.
    FuzzChoices,
    /// `runners::fuzz` mutating kept inputs by value (`Mutate`).
    FuzzValues,
    /// `runners::targeted`, climbing the utility `property!` derives from
    /// the precondition (automatic precondition targeting).
    Targeted,
    /// `runners::integrated`: generational with integrated shrinking.
    Integrated,
    /// `pbt_exhaustive::exhaustive_to`: every choice sequence, shortest first.
    Exhaustive,
    /// `pbt_exhaustive::exhaustive_prefix`: the first 1 000 choice
    /// sequences shortest first, then generational.
    ExhaustivePrefix,
}

impl Runner {
    /// Every runner, the default first.
    pub const ALL: [Runner; 8] = [
        Runner::Generational,
        Runner::Parallel,
        Runner::FuzzChoices,
        Runner::FuzzValues,
        Runner::Targeted,
        Runner::Integrated,
        Runner::Exhaustive,
        Runner::ExhaustivePrefix,
    ];

    /// Its suffix in a strategy's name (empty for the generational runner).
    pub fn suffix(self) -> &'static str {
        match self {
            Runner::Generational => "",
            Runner::Parallel => "-parallel",
            Runner::FuzzChoices => "-fuzz-choices",
            Runner::FuzzValues => "-fuzz-values",
            Runner::Targeted => "-targeted",
            Runner::Integrated => "-integrated",
            Runner::Exhaustive => "-exhaustive",
            Runner::ExhaustivePrefix => "-exhaustive-prefix",
        }
    }
}

/// A library, a kind of generator and (for pbt) a runner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Strategy {
    /// Whose runner and combinators.
    pub library: Library,
    /// Which generator.
    pub kind: Kind,
    /// Which of pbt's runners ([`Runner::Generational`] for the others).
    pub runner: Runner,
}

/// The names of every strategy, in [`Strategy::ALL`] order.
const NAMES: [&str; 20] = [
    "pbt-bespoke",
    "pbt-type",
    "proptest-bespoke",
    "proptest-type",
    "quickcheck-bespoke",
    "quickcheck-type",
    "pbt-bespoke-parallel",
    "pbt-type-parallel",
    "pbt-bespoke-fuzz-choices",
    "pbt-type-fuzz-choices",
    "pbt-bespoke-fuzz-values",
    "pbt-type-fuzz-values",
    "pbt-bespoke-targeted",
    "pbt-type-targeted",
    "pbt-bespoke-integrated",
    "pbt-type-integrated",
    "pbt-bespoke-exhaustive",
    "pbt-type-exhaustive",
    "pbt-bespoke-exhaustive-prefix",
    "pbt-type-exhaustive-prefix",
];

impl Strategy {
    /// The headline strategies: each library's bespoke and type-based
    /// generators under its default runner, pbt's first.
    pub const HEADLINE: [Strategy; 6] = [
        Strategy::new(Library::Pbt, Kind::Bespoke),
        Strategy::new(Library::Pbt, Kind::TypeBased),
        Strategy::new(Library::Proptest, Kind::Bespoke),
        Strategy::new(Library::Proptest, Kind::TypeBased),
        Strategy::new(Library::Quickcheck, Kind::Bespoke),
        Strategy::new(Library::Quickcheck, Kind::TypeBased),
    ];

    /// Every strategy: the headline ones, then pbt's other runners, each
    /// with the bespoke and the type-based generators.
    pub const ALL: [Strategy; 20] = [
        Strategy::HEADLINE[0],
        Strategy::HEADLINE[1],
        Strategy::HEADLINE[2],
        Strategy::HEADLINE[3],
        Strategy::HEADLINE[4],
        Strategy::HEADLINE[5],
        Strategy::pbt(Kind::Bespoke, Runner::Parallel),
        Strategy::pbt(Kind::TypeBased, Runner::Parallel),
        Strategy::pbt(Kind::Bespoke, Runner::FuzzChoices),
        Strategy::pbt(Kind::TypeBased, Runner::FuzzChoices),
        Strategy::pbt(Kind::Bespoke, Runner::FuzzValues),
        Strategy::pbt(Kind::TypeBased, Runner::FuzzValues),
        Strategy::pbt(Kind::Bespoke, Runner::Targeted),
        Strategy::pbt(Kind::TypeBased, Runner::Targeted),
        Strategy::pbt(Kind::Bespoke, Runner::Integrated),
        Strategy::pbt(Kind::TypeBased, Runner::Integrated),
        Strategy::pbt(Kind::Bespoke, Runner::Exhaustive),
        Strategy::pbt(Kind::TypeBased, Runner::Exhaustive),
        Strategy::pbt(Kind::Bespoke, Runner::ExhaustivePrefix),
        Strategy::pbt(Kind::TypeBased, Runner::ExhaustivePrefix),
    ];

    /// The strategy of `library` with generators of `kind` and the
    /// library's default runner.
    pub const fn new(library: Library, kind: Kind) -> Strategy {
        Strategy {
            library,
            kind,
            runner: Runner::Generational,
        }
    }

    /// pbt with generators of `kind` under `runner`.
    pub const fn pbt(kind: Kind, runner: Runner) -> Strategy {
        Strategy {
            library: Library::Pbt,
            kind,
            runner,
        }
    }

    /// Whether this is one of the [`Strategy::HEADLINE`] ones.
    pub fn is_headline(self) -> bool {
        self.runner == Runner::Generational
    }

    /// Its name on the command line, in tables and in the JSON:
    /// `pbt-bespoke`, `proptest-type`, `pbt-type-fuzz-values`, ….
    ///
    /// ```
    /// use pbt_eval::strategy::{Kind, Runner, Strategy};
    /// assert_eq!(Strategy::pbt(Kind::TypeBased, Runner::Targeted).name(), "pbt-type-targeted");
    /// assert_eq!(Strategy::from_name("pbt-bespoke-parallel"), Some(Strategy::pbt(Kind::Bespoke, Runner::Parallel)));
    /// ```
    pub fn name(self) -> &'static str {
        let i = Strategy::ALL
            .iter()
            .position(|s| *s == self)
            .expect("every strategy is in Strategy::ALL");
        NAMES[i]
    }

    /// The strategy called `name`.
    pub fn from_name(name: &str) -> Option<Strategy> {
        NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Strategy::ALL[i])
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Library {
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Library::Pbt => "pbt",
            Library::Proptest => "proptest",
            Library::Quickcheck => "quickcheck",
        }
    }
}

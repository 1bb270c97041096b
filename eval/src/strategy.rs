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
    /// IFC only: ETNA's variational fuzzer's input, a type-based state
    /// paired with itself (`gen_variation_copy`), which the type-based
    /// mutator pulls apart.
    Variational,
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
    /// `runners::fuzz` with one of the 21 seed-pool × energy configurations
    /// of *Programmable Property-Based Testing* §6.3.1, mutating by value
    /// (type-based and variational inputs) or by choices (bespoke ones).
    FuzzPool(PoolConfig),
}

/// A seed pool of *Programmable Property-Based Testing* §6.3.1 with the
/// energy of a new seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum PoolConfig {
    /// A FIFO queue (FuzzChick's default).
    Fifo(u16),
    /// A FILO queue.
    Filo(u16),
    /// A heap: the most interesting seed first.
    Heap(u16),
    /// One seed with energy; when spent, generate until a better one.
    DynamicMonotonic(u16),
    /// One seed with energy; when spent, dropped for the next useful input.
    DynamicResetting(u16),
    /// One seed, never exhausted (hill climbing).
    Static,
}

impl PoolConfig {
    /// The 21 configurations: every pool at energies 1, 10, 100 and 1000,
    /// and the static singleton.
    pub const ALL: [PoolConfig; 21] = [
        PoolConfig::Fifo(1),
        PoolConfig::Fifo(10),
        PoolConfig::Fifo(100),
        PoolConfig::Fifo(1000),
        PoolConfig::Filo(1),
        PoolConfig::Filo(10),
        PoolConfig::Filo(100),
        PoolConfig::Filo(1000),
        PoolConfig::Heap(1),
        PoolConfig::Heap(10),
        PoolConfig::Heap(100),
        PoolConfig::Heap(1000),
        PoolConfig::DynamicMonotonic(1),
        PoolConfig::DynamicMonotonic(10),
        PoolConfig::DynamicMonotonic(100),
        PoolConfig::DynamicMonotonic(1000),
        PoolConfig::DynamicResetting(1),
        PoolConfig::DynamicResetting(10),
        PoolConfig::DynamicResetting(100),
        PoolConfig::DynamicResetting(1000),
        PoolConfig::Static,
    ];
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
            Runner::FuzzPool(_) => "-fuzz-pool",
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

/// The names of the [`Strategy::POOLS`] strategies, in order.
const POOL_NAMES: [&str; 21] = [
    "pbt-type-fuzz-fifo-1",
    "pbt-type-fuzz-fifo-10",
    "pbt-type-fuzz-fifo-100",
    "pbt-type-fuzz-fifo-1000",
    "pbt-type-fuzz-filo-1",
    "pbt-type-fuzz-filo-10",
    "pbt-type-fuzz-filo-100",
    "pbt-type-fuzz-filo-1000",
    "pbt-type-fuzz-heap-1",
    "pbt-type-fuzz-heap-10",
    "pbt-type-fuzz-heap-100",
    "pbt-type-fuzz-heap-1000",
    "pbt-type-fuzz-monotonic-1",
    "pbt-type-fuzz-monotonic-10",
    "pbt-type-fuzz-monotonic-100",
    "pbt-type-fuzz-monotonic-1000",
    "pbt-type-fuzz-resetting-1",
    "pbt-type-fuzz-resetting-10",
    "pbt-type-fuzz-resetting-100",
    "pbt-type-fuzz-resetting-1000",
    "pbt-type-fuzz-static",
];

/// The names of the [`Strategy::VARIATIONAL_POOLS`] strategies, in order.
const VARIATIONAL_POOL_NAMES: [&str; 21] = [
    "pbt-variational-fuzz-fifo-1",
    "pbt-variational-fuzz-fifo-10",
    "pbt-variational-fuzz-fifo-100",
    "pbt-variational-fuzz-fifo-1000",
    "pbt-variational-fuzz-filo-1",
    "pbt-variational-fuzz-filo-10",
    "pbt-variational-fuzz-filo-100",
    "pbt-variational-fuzz-filo-1000",
    "pbt-variational-fuzz-heap-1",
    "pbt-variational-fuzz-heap-10",
    "pbt-variational-fuzz-heap-100",
    "pbt-variational-fuzz-heap-1000",
    "pbt-variational-fuzz-monotonic-1",
    "pbt-variational-fuzz-monotonic-10",
    "pbt-variational-fuzz-monotonic-100",
    "pbt-variational-fuzz-monotonic-1000",
    "pbt-variational-fuzz-resetting-1",
    "pbt-variational-fuzz-resetting-10",
    "pbt-variational-fuzz-resetting-100",
    "pbt-variational-fuzz-resetting-1000",
    "pbt-variational-fuzz-static",
];

/// The names of the [`Strategy::MORE`] strategies, in order.
const MORE_NAMES: [&str; 6] = [
    "pbt-variational-fuzz-values",
    "pbt-variational-fuzz-heap-100",
    "pbt-bespoke-fuzz-heap-100",
    "pbt-bespoke-fuzz-heap-1000",
    "pbt-bespoke-fuzz-fifo-100",
    "pbt-bespoke-fuzz-monotonic-100",
];

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

    /// The 21 seed-pool configurations of *Programmable Property-Based
    /// Testing* §6.3.1 on the fuzz runner, type-based generator and
    /// mutator (the paper's setting; IFC's coverage points from the
    /// property, see `ifc`).
    pub const POOLS: [Strategy; 21] = {
        let mut out = [Strategy::pbt(Kind::TypeBased, Runner::Generational); 21];
        let mut i = 0;
        while i < 21 {
            out[i].runner = Runner::FuzzPool(PoolConfig::ALL[i]);
            i += 1;
        }
        out
    };

    /// The same 21 configurations with ETNA's variational input (IFC only).
    pub const VARIATIONAL_POOLS: [Strategy; 21] = {
        let mut out = [Strategy::pbt(Kind::Variational, Runner::Generational); 21];
        let mut i = 0;
        while i < 21 {
            out[i].runner = Runner::FuzzPool(PoolConfig::ALL[i]);
            i += 1;
        }
        out
    };

    /// More feedback strategies: ETNA's variational fuzzer (the fuzz
    /// runner's default pool, and a heap), and the bespoke generator
    /// mutated by choices under a few pools.
    pub const MORE: [Strategy; 6] = [
        Strategy::pbt(Kind::Variational, Runner::FuzzValues),
        Strategy::pbt(Kind::Variational, Runner::FuzzPool(PoolConfig::Heap(100))),
        Strategy::pbt(Kind::Bespoke, Runner::FuzzPool(PoolConfig::Heap(100))),
        Strategy::pbt(Kind::Bespoke, Runner::FuzzPool(PoolConfig::Heap(1000))),
        Strategy::pbt(Kind::Bespoke, Runner::FuzzPool(PoolConfig::Fifo(100))),
        Strategy::pbt(
            Kind::Bespoke,
            Runner::FuzzPool(PoolConfig::DynamicMonotonic(100)),
        ),
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
        Strategy::every()
            .find(|(s, _)| *s == self)
            .map(|(_, n)| n)
            .expect("every strategy is in Strategy::ALL, POOLS or MORE")
    }

    /// The strategy called `name`.
    pub fn from_name(name: &str) -> Option<Strategy> {
        Strategy::every().find(|(_, n)| *n == name).map(|(s, _)| s)
    }

    /// Every strategy with its name: [`Strategy::ALL`], then
    /// [`Strategy::POOLS`] and [`Strategy::MORE`].
    fn every() -> impl Iterator<Item = (Strategy, &'static str)> {
        Strategy::ALL
            .into_iter()
            .zip(NAMES)
            .chain(Strategy::POOLS.into_iter().zip(POOL_NAMES))
            .chain(Strategy::MORE.into_iter().zip(MORE_NAMES))
            .chain(
                Strategy::VARIATIONAL_POOLS
                    .into_iter()
                    .zip(VARIATIONAL_POOL_NAMES),
            )
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

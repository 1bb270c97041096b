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

/// A library and a kind of generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Strategy {
    /// Whose runner and combinators.
    pub library: Library,
    /// Which generator.
    pub kind: Kind,
}

impl Strategy {
    /// Every strategy, pbt's first.
    pub const ALL: [Strategy; 6] = [
        Strategy::new(Library::Pbt, Kind::Bespoke),
        Strategy::new(Library::Pbt, Kind::TypeBased),
        Strategy::new(Library::Proptest, Kind::Bespoke),
        Strategy::new(Library::Proptest, Kind::TypeBased),
        Strategy::new(Library::Quickcheck, Kind::Bespoke),
        Strategy::new(Library::Quickcheck, Kind::TypeBased),
    ];

    /// The strategy of `library` with generators of `kind`.
    pub const fn new(library: Library, kind: Kind) -> Strategy {
        Strategy { library, kind }
    }

    /// Its name on the command line, in tables and in the JSON:
    /// `pbt-bespoke`, `proptest-type`, ….
    pub fn name(self) -> &'static str {
        match (self.library, self.kind) {
            (Library::Pbt, Kind::Bespoke) => "pbt-bespoke",
            (Library::Pbt, Kind::TypeBased) => "pbt-type",
            (Library::Proptest, Kind::Bespoke) => "proptest-bespoke",
            (Library::Proptest, Kind::TypeBased) => "proptest-type",
            (Library::Quickcheck, Kind::Bespoke) => "quickcheck-bespoke",
            (Library::Quickcheck, Kind::TypeBased) => "quickcheck-type",
        }
    }

    /// The strategy called `name`.
    pub fn from_name(name: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.name() == name)
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

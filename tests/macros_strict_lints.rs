//! What the macros and derives emit passes every lint a strict crate
//! turns on: rustc's allow-by-default lints and clippy's pedantic and
//! nursery groups (CI runs `cargo clippy --all-targets -D warnings`, so a
//! lint that fires inside an expansion fails the build here), and
//! `clippy::min_ident_chars`, which fired on the staged code's `v` at the
//! user's `int(…)`, and `clippy::integer_division`, which fired on the
//! derives' and `recursive`'s halving of the size. The code around the macros is written to pass them too.
#![deny(warnings)]
#![deny(
    clippy::all,
    clippy::pedantic,
    clippy::nursery,
    clippy::min_ident_chars,
    clippy::integer_division,
    clippy::integer_division_remainder_used
)]
#![forbid(unsafe_code)]
#![deny(
    rust_2018_idioms,
    missing_docs,
    unused_qualifications,
    unreachable_pub,
    elided_lifetimes_in_paths,
    unused_results,
    trivial_casts,
    trivial_numeric_casts,
    single_use_lifetimes,
    unused_lifetimes,
    missing_debug_implementations,
    missing_copy_implementations,
    variant_size_differences,
    let_underscore_drop,
    unit_bindings,
    redundant_lifetimes,
    non_ascii_idents,
    keyword_idents,
    macro_use_extern_crate,
    meta_variable_misuse,
    explicit_outlives_requirements,
    redundant_imports,
    unused_import_braces,
    unused_macro_rules
)]

use pbt::prelude::*;

/// Derived types in a public module with documented items.
pub mod types {
    use pbt::prelude::*;

    /// A binary tree.
    #[derive(Clone, Debug, PartialEq, Eq, Arbitrary, Mutate)]
    pub enum Tree<T> {
        /// A leaf.
        Leaf,
        /// A node.
        Node(Box<Self>, T, Box<Self>),
        /// A named node.
        Named {
            /// Its child.
            left: Box<Self>,
            /// Its value.
            value: T,
        },
    }

    /// A struct with dependent field generators.
    #[derive(Clone, Debug, PartialEq, Eq, Arbitrary, Mutate)]
    pub struct Window {
        /// The start.
        #[pbt(with = int(-50..50i32))]
        pub start: i32,
        /// The end.
        #[pbt(with = int(start..=start + 20))]
        pub end: i32,
        /// Marks between them.
        #[pbt(with = vec(int(start..=end), 0..=size))]
        pub marks: Vec<i32>,
    }

    /// A borrowed field with a generator.
    #[derive(Clone, Debug, PartialEq, Eq, Arbitrary, Mutate)]
    pub struct Labelled<'label> {
        /// The label.
        #[pbt(with = just("label"))]
        pub label: &'label str,
        /// A number.
        pub number: u8,
    }

    /// A const-generic array.
    #[derive(Clone, Debug, PartialEq, Eq, Arbitrary, Mutate)]
    pub struct Row<const N: usize> {
        /// The cells.
        pub cells: [u8; N],
    }

    /// A non-exhaustive enum.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Arbitrary, Mutate)]
    #[non_exhaustive]
    pub enum Mode {
        /// Fast.
        Fast,
        /// Slow, with a level.
        Slow(u8),
        /// Custom.
        Custom {
            /// Its level.
            level: u16,
        },
    }

    /// A non-exhaustive struct.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Arbitrary, Mutate)]
    #[non_exhaustive]
    pub struct Options {
        /// Verbose.
        pub verbose: bool,
    }
}

use types::{Labelled, Mode, Options, Row, Tree, Window};

fn nodes<T>(tree: &Tree<T>) -> usize {
    match tree {
        Tree::Leaf => 0,
        Tree::Node(left, _, right) => 1 + nodes(left) + nodes(right),
        Tree::Named { left, .. } => 1 + nodes(left),
    }
}

#[property_test]
fn trees_are_finite(tree: Tree<u8>) -> bool {
    nodes(&tree) < 100_000
}

#[property_test(cases = 30)]
fn derived_types(
    window: Window,
    labelled: Labelled<'static>,
    row: Row<3>,
    mode: Mode,
    options: Options,
) -> Result<(), String> {
    let fine = window.start <= window.end
        && labelled.label == "label"
        && row.cells.len() == 3
        && mode == mode
        && options == options;
    if fine {
        Ok(())
    } else {
        Err(format!("{window:?}"))
    }
}

#[property_test(cases = 30, seed = 3)]
fn annotations_and_unit_return(
    #[with = int(0..10u8)] bound: u8,
    #[with = vec(int(0..=bound), 0..3)] below: Vec<u8>,
    #[shrink = |num: &u8| vec![num.div_euclid(2)]]
    #[print = |num: &u8| format!("{num}")]
    halved: u8,
) {
    assert!(below.iter().all(|&item| item <= bound) && halved == halved);
}

#[property_test(cases = 30, runner = fuzz, shrink = "both")]
fn fuzzed(tree: Tree<bool>, (left, right): (u8, u8), _: u16) -> bool {
    nodes(&tree) < 100_000 && u16::from(left) + u16::from(right) < 512
}

/// Other attributes stay on the test (doc comments, `#[cfg_attr]`).
#[property_test]
#[cfg_attr(miri, ignore = "slow under miri")]
fn with_attributes(number: u32) -> bool {
    number.checked_add(0).is_some()
}

#[property_test(cases = 30)]
fn borrowed(text: &str, bytes: &[u16], tree: &Tree<u8>) -> bool {
    assume!(text.len() < 10_000);
    bytes.len() < 10_000 && nodes(tree) < 100_000
}

#[test]
fn property_values() {
    let prop = property! {
        forall low: u32, #[with = int(0..100u32)];
        forall high: u32, #[with = int(low..=100)];
        implies low < high;
        forall tree: Tree<bool>;
        implies nodes(tree) < 50 || low == 0;
        check low < high
    };
    let report = pbt::runners::generational(
        &prop,
        Config::default().regressions(pbt::runners::Regressions::Off),
    );
    assert!(report.passed(), "{report}");
    let depth = pbt::generator!(recursive::<u32>(
        |rec| frequency![1 => just(0u32), size => map(rec, |inner: u32| inner.saturating_add(1))]
    ));
    assert!(depth
        .generate(&mut pbt::Rng::from_seed(2), 50)
        .is_ok_and(|levels| levels < 64));
    let pair = pbt::generator!({
        let first = int(0..10u8);
        let second = int(0..=first);
        (first, second)
    });
    let drawn = pair.generate(&mut pbt::Rng::from_seed(1), 5);
    assert!(drawn.is_ok_and(|(first, second)| second <= first));
}

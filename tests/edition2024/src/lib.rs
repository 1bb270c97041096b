//! Every form of pbt's generator DSL on edition 2024, where `gen` is a
//! reserved word: parameter annotations (`#[with = …]`), `property!`,
//! `pbt::generator!` and derive field generators, with `recursive`,
//! `frequency`, `one_of`, `map`, `filter`, `either`, `bind`, `resize`,
//! let-blocks with `ensure`, the primitives, `regex`, `chars`, the map,
//! set, option and result forms; the statistics macros, `note!` and
//! `assume!` in a check; and the options of
//! `#[property_test]` (`examples`, `config`, `runner`), `assume!` and
//! borrowed parameters. Built and run by `cargo test --workspace`.

use pbt::prelude::*;

/// The README's snippets, doctested on edition 2024 too (the facade crate,
/// edition 2021, doctests them as its crate docs).
#[doc = include_str!("../../../README.md")]
mod readme {}

/// The guide's chapters and the other pages with Rust examples, doctested
/// on edition 2024 (the facade doctests the guide on edition 2021; the
/// derive, feedback and fuzzing pages are doctested only here). Their
/// `#[property_test]` functions compile away in a doctest: `tests/guide.rs`
/// runs them, and a new user's edition-2024 crate ran every one.
macro_rules! pages {
    ($($name:ident: $path:literal,)*) => {$(
        #[doc = include_str!($path)]
        // The pages show test files as users write them, `#[test]` included
        // (docs/fuzzing.md's test that imports an engine's crash files).
        #[allow(clippy::test_attr_in_doctest)]
        mod $name {}
    )*};
}

pages! {
    guide_01: "../../../docs/guide/01-first-property.md",
    guide_02: "../../../docs/guide/02-generators.md",
    guide_03: "../../../docs/guide/03-deriving.md",
    guide_04: "../../../docs/guide/04-preconditions.md",
    guide_05: "../../../docs/guide/05-failures.md",
    guide_06: "../../../docs/guide/06-runners.md",
    guide_07: "../../../docs/guide/07-statistics.md",
    guide_08: "../../../docs/guide/08-stateful.md",
    guide_09: "../../../docs/guide/09-fuzzing.md",
    guide_10: "../../../docs/guide/10-targeted.md",
    guide_11: "../../../docs/guide/11-own-runner.md",
    guide_12: "../../../docs/guide/12-async.md",
    guide_13: "../../../docs/guide/13-configuration.md",
    guide_14: "../../../docs/guide/14-from-proptest.md",
    guide_15: "../../../docs/guide/15-from-quickcheck.md",
    guide_16: "../../../docs/guide/16-from-hypothesis.md",
    derive: "../../../docs/derive.md",
    feedback: "../../../docs/feedback.md",
    fuzzing: "../../../docs/fuzzing.md",
}

/// A tree whose leaves come from a field generator.
#[derive(Clone, Debug, PartialEq, Arbitrary, Mutate)]
pub enum Tree {
    /// A leaf, `0..100`.
    Leaf(#[pbt(with = int(0..100u32))] u32),
    /// Two subtrees.
    Node(Box<Tree>, Box<Tree>),
}

/// A point with dependent fields: `y` is even and at most `x`.
#[derive(Clone, Debug, Arbitrary)]
pub struct Point {
    /// `0..=50`.
    #[pbt(with = int(0..=50u8))]
    pub x: u8,
    /// An even number at most `x`, through a let-block with `ensure`.
    #[pbt(with = { let y = int(0..=x); ensure y % 2 == 0; y })]
    pub y: u8,
    /// A short lowercase name.
    #[pbt(with = string('a'..='z', 1..=4))]
    pub name: String,
}

/// The sum of a tree's leaves.
pub fn total(t: &Tree) -> u64 {
    match t {
        Tree::Leaf(n) => u64::from(*n),
        Tree::Node(l, r) => total(l) + total(r),
    }
}

/// The number of leaves.
pub fn leaves(t: &Tree) -> u64 {
    match t {
        Tree::Leaf(_) => 1,
        Tree::Node(l, r) => leaves(l) + leaves(r),
    }
}

/// `Tree::Node` of two trees.
pub fn node((l, r): (Tree, Tree)) -> Tree {
    Tree::Node(Box::new(l), Box::new(r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pbt::runners::{Regressions, generational};

    fn config() -> Config {
        Config::default().cases(200).regressions(Regressions::Off)
    }

    #[property_test(cases = 200)]
    fn parameter_annotations(
        #[with = int(1..10u32)] n: u32,
        #[with = vec(int(0..n), 0..5)] xs: Vec<u32>,
        #[with = one_of![just(0u8), int(10..20u8)]] pick: u8,
        #[with = frequency![1 => just(Tree::Leaf(0)), size => map((any::<Tree>(), any::<Tree>()), node)]]
        tree: Tree,
        #[with = filter(int(0..100i32), |x| x % 2 == 0)] even: i32,
        // What rustc suggests for `#[gen = …]`, reserved on this edition.
        #[r#gen = int(0..3u8)] raw: u8,
        #[with = { let a = int(0..10u8); let b = int(0..10u8); ensure!(a < b); (a, b) }] pair: (
            u8,
            u8,
        ),
    ) -> bool {
        xs.iter().all(|&x| x < n)
            && (pick == 0 || (10..20).contains(&pick))
            && total(&tree) <= 100 * leaves(&tree)
            && even % 2 == 0
            && pair.0 < pair.1
            && raw < 3
    }

    #[property_test(
        examples = [("", 0), ("abc", 3)],
        config = config(),
        runner = integrated
    )]
    fn test_options_and_borrowed_parameters(
        #[with = string('a'..='z', 0..10)] s: &str,
        #[with = int(0..10usize)] n: usize,
    ) -> bool {
        assume!(n <= s.len());
        s.starts_with(&s[..n])
    }

    #[property_test]
    fn derived_field_generators(t: Tree, p: Point) -> bool {
        total(&t) < 100 * leaves(&t)
            && p.y <= p.x
            && p.y % 2 == 0
            && (1..=4).contains(&p.name.len())
    }

    #[test]
    fn property_with_every_form() {
        let prop = property! {
            forall n: usize, #[with = int(0..=20usize)];
            forall t: Tree, #[gen = recursive(|rec| frequency[2 => map(int(0..100u32), Tree::Leaf), 1 => map((rec, rec), node)])];
            forall s: String, #[with = string("ab", 0..=n)];
            forall c: char, #[with = char('a'..='f')];
            forall f: f64, #[with = float(0.0..1.0)];
            forall b: bool, #[with = either(just(true), bool(), 0.5)];
            forall w: bool, #[with = weighted_bool(0.25)];
            forall k: u8, #[with = choose(&[1u8, 2, 3])];
            forall sub: Vec<u8>, #[with = subset(&[1u8, 2, 3, 4], 2)];
            forall m: usize, #[with = resize(7, map(size, |s| s))];
            forall d: (u8, u16), #[with = bind(int(0..10u8), |x| map(int(0..=u16::from(x)), move |y| (x, y)))];
            forall v: Vec<u16>, #[with = vec(int(0..5u16), 0..=3)];
            implies s.len() <= n;
            check {
                let _ = (b, w);
                s.chars().all(|c| c == 'a' || c == 'b')
                    && ('a'..='f').contains(&c)
                    && (0.0..1.0).contains(&f)
                    && [1, 2, 3].contains(&k)
                    && sub.len() == 2
                    && m == 7
                    && u16::from(d.0) >= d.1
                    && v.len() <= 3
                    && total(&t) < 100 * leaves(&t)
            }
        };
        let report = generational(&prop, config());
        assert!(report.passed(), "{report}");
    }

    /// The string and collection forms, with the statistics and notes a
    /// check may record.
    #[test]
    fn strings_collections_and_statistics() {
        let prop = property! {
            forall id: String, #[with = regex("[a-z]{2,4}-(x|yz)?[0-9]+")];
            forall c: char, #[with = chars(['a'..='c', 'X'..='Z'])];
            forall m: std::collections::HashMap<u8, bool>, #[with = hash_map(int(0..50u8), bool(), 0..=4)];
            forall s: std::collections::BTreeSet<u16>, #[with = btree_set(int(0..1000u16), 1..=3)];
            forall o: Option<u8>, #[with = option(int(1..=9u8))];
            forall r: Result<u8, String>, #[with = result(just(1u8), string("e", 1..=2))];
            forall u: Vec<u8>, #[with = vec_unique(int(0..20u8), 0..=5)];
            check {
                assume!(!u.contains(&19));
                label!("{} entries", m.len());
                classify!(o.is_none(), "none");
                tabulate!("set size", s.len());
                require_cover!(10.0, o.is_some(), "some");
                note!("id = {id}");
                let digits = id.trim_start_matches(|c: char| c.is_ascii_lowercase() || c == '-' || c == 'x' || c == 'y' || c == 'z');
                !digits.is_empty()
                    && digits.chars().all(|c| c.is_ascii_digit())
                    && (('a'..='c').contains(&c) || ('X'..='Z').contains(&c))
                    && m.len() <= 4
                    && (1..=3).contains(&s.len())
                    && o != Some(0)
                    && r.as_ref().map_or_else(|e| !e.is_empty(), |&v| v == 1)
                    && u.iter().collect::<std::collections::BTreeSet<_>>().len() == u.len()
            }
        };
        let report = generational(&prop, config().check_coverage(true));
        assert!(report.passed(), "{report}");
        assert!(
            report.discards > 0 && !report.statistics.labels.is_empty(),
            "{report}"
        );
    }

    #[test]
    fn staged_generator_values() {
        let pair = pbt::generator!({
            let x = int(0..1000u32);
            let y = int(0..=x);
            (x, y)
        });
        // The recursive case weighs `size` (which halves at each level), so
        // trees stay shallow; an even `one_of` would make their depth
        // unbounded in expectation.
        let trees = pbt::generator!(recursive::<Tree>(|rec| frequency[
            1 => map(int(0..100u32), Tree::Leaf),
            size => map((rec, rec), node)
        ]));
        let prop = property! {
            forall p: (u32, u32), #[with = pair];
            forall t: Tree, #[with = &trees];
            check p.1 <= p.0 && total(&t) < 100 * leaves(&t)
        };
        let report = generational(&prop, config());
        assert!(report.passed(), "{report}");
    }
}

//! A derived type that recurses through an array or a tuple of optional
//! children (a quadtree's `[Option<Box<Self>>; 4]`) stops by size, as one
//! that recurses through a field or a `Vec` does: the derive takes arrays
//! and tuples apart, so each `Option` is `None` at size 0, and an array's
//! elements share its size as a collection's do. Through `Arbitrary` for
//! arrays and tuples the `Option`s stayed `Some` three times in four at
//! every depth, and generation overran the stack guard ("data too large")
//! on most runs.

use pbt::prelude::*;
use pbt::runners::{generational, Regressions};
use pbt::{Arbitrary, Rng};

fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

#[derive(Clone, Debug, PartialEq, Arbitrary, Mutate)]
struct Quad {
    weight: u8,
    children: [Option<Box<Quad>>; 4],
}

#[derive(Clone, Debug, PartialEq, Arbitrary, Mutate)]
enum Pair {
    Leaf(u8),
    Split((Option<Box<Pair>>, Option<Box<Pair>>)),
}

fn quad_nodes(q: &Quad) -> usize {
    1 + q
        .children
        .iter()
        .flatten()
        .map(|c| quad_nodes(c))
        .sum::<usize>()
}

fn pair_nodes(p: &Pair) -> usize {
    match p {
        Pair::Leaf(_) => 1,
        Pair::Split((l, r)) => {
            1 + [l, r]
                .into_iter()
                .flatten()
                .map(|c| pair_nodes(c))
                .sum::<usize>()
        }
    }
}

#[test]
fn arrays_and_tuples_of_children_stop_by_size() {
    for size in [0, 1, 10, 100, 1_000] {
        let (mut quads, mut pairs) = (0, 0);
        for seed in 0..200 {
            let mut rng = Rng::from_seed(seed);
            quads += quad_nodes(&Quad::arbitrary(&mut rng, size));
            pairs += pair_nodes(&Pair::arbitrary(&mut rng, size));
        }
        // Mean nodes per value: 1 at size 0, and small at every size.
        if size == 0 {
            assert_eq!((quads, pairs), (200, 200));
        }
        assert!(
            quads / 200 < 200 && pairs / 200 < 200,
            "size {size}: {quads} {pairs}"
        );
    }
}

#[property_test(cases = 300)]
fn a_quadtree_is_generated(quad: Quad, pair: Pair) -> bool {
    quad_nodes(&quad) < 10_000 && pair_nodes(&pair) < 10_000
}

#[test]
fn a_quadtree_shrinks_to_the_smallest_failing_one() {
    let prop = property! {
        forall quad: Quad;
        check quad_nodes(quad) < 3
    };
    let report = generational(&prop, quiet().seed(4));
    let failure = report
        .failure
        .as_ref()
        .expect("a quadtree of three nodes exists");
    let shown = &failure.counterexample[0].value;
    assert_eq!(shown.matches("weight: 0").count(), 3, "{report}");
}

/// Recursive and generic, with the parameter in the simpler variant: its
/// `Shrink` states `Self: Clone` and `T: Arbitrary` both (the second was
/// once appended without a comma, and the derive emitted unparsable code).
#[derive(Clone, Debug, PartialEq, Arbitrary, Mutate)]
enum Rose<T> {
    Leaf(T),
    Node(Vec<Rose<T>>),
}

fn rose_nodes<T>(r: &Rose<T>) -> usize {
    match r {
        Rose::Leaf(_) => 1,
        Rose::Node(kids) => 1 + kids.iter().map(rose_nodes).sum::<usize>(),
    }
}

#[test]
fn a_generic_rose_tree_shrinks_to_a_generated_leaf() {
    use pbt::Shrink;
    let rose = Rose::Node(vec![Rose::Leaf(3u8), Rose::Leaf(4)]);
    let candidates: Vec<Rose<u8>> = rose.shrink().collect();
    assert!(candidates.contains(&Rose::Leaf(0)), "{candidates:?}");
    let prop = property! { forall rose: Rose<u8>; check rose_nodes(rose) < 3 };
    let report = generational(&prop, quiet().seed(5));
    assert!(!report.passed(), "{report}");
}

//! Minima that need a step across variables: an index drawn after a list
//! (or a length drawn before it) moves with the list's deletions, and value
//! moves from one integer into another drawn in a smaller kind.

use pbt::generators as gen;
use pbt::prelude::*;
use pbt::runners::{generational, Regressions};

fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

/// A length drawn by an earlier variable, and an index drawn after the
/// list (`n`, then `n` elements, then `i < n`): the minimum is one element
/// at index 0. Deleting an element must lower `n` with it, and the index,
/// past its new bound, must keep pointing at the failing element (the last
/// one) rather than fall back to 0. Before, most seeds ended at a list of
/// zeros with the failing element last (`n = 22, i = 21`).
#[test]
fn a_list_whose_length_an_earlier_variable_drew_shrinks_with_its_index() {
    use pbt::runners::Shrinker;
    let prop = property! {
        forall n: usize, #[with = gen::int(1..=50usize)];
        forall xs: Vec<u8>, #[with = gen::vec(gen::any::<u8>(), n..=n)];
        forall i: usize, #[with = gen::int(0..n)];
        check xs[i] < 200
    };
    for shrinker in [Shrinker::Integrated, Shrinker::Both] {
        for seed in 0..10 {
            let report = generational(&prop, quiet().seed(seed).shrinker(shrinker).cases(10_000));
            assert_eq!(
                report.counterexample::<(usize, Vec<u8>, usize)>(),
                Some((1, vec![200], 0)),
                "{shrinker:?}, seed {seed}: {report}"
            );
        }
    }
}

/// The commonest form of the above: a list, then an index into it (or
/// two). The minimum is the failing element alone (the two failing
/// elements). Before, 7 of 10 seeds ended at a list of zeros with the
/// failing element last and the index on it (35 elements on one seed):
/// deleting an element put the index past its bound, where it read as 0,
/// or (two indices) onto another element.
#[test]
fn an_index_drawn_after_a_list_shrinks_with_the_list() {
    use pbt::runners::Shrinker;
    let prop = property! {
        forall xs: Vec<u8>, #[with = gen::vec(gen::any::<u8>(), 1..=50)];
        forall i: usize, #[with = gen::int(0..xs.len())];
        check xs[i] < 200
    };
    for shrinker in [Shrinker::Integrated, Shrinker::Both] {
        for seed in 0..10 {
            let report = generational(&prop, quiet().seed(seed).shrinker(shrinker).cases(10_000));
            assert_eq!(
                report.counterexample::<(Vec<u8>, usize)>(),
                Some((vec![200], 0)),
                "{shrinker:?}, seed {seed}: {report}"
            );
        }
    }
    let two = property! {
        forall xs: Vec<u8>, #[with = gen::vec(gen::any::<u8>(), 2..=50)];
        forall i: usize, #[with = gen::int(0..xs.len())];
        forall j: usize, #[with = gen::int(0..xs.len())];
        check i == j || xs[i] < 200 || xs[j] < 200
    };
    for seed in 0..10 {
        let report = generational(&two, quiet().seed(seed).cases(10_000));
        let (xs, i, j) = report
            .counterexample::<(Vec<u8>, usize, usize)>()
            .expect("a counterexample");
        assert_eq!(
            (xs, i.min(j), i.max(j)),
            (vec![200, 200], 0, 1),
            "seed {seed}: {report}"
        );
    }
}

/// The overflow of a sum ends at the smallest first operand, `1`, and
/// `u32::MAX`. Before, 31 seeds in 100 ended at `4294957296 + 10000`: the
/// second operand was drawn in the small kind, whose largest value is
/// 10 000 at this size, so value could not move into it from the first.
#[test]
fn an_overflowing_sum_shrinks_to_one_and_the_largest_value() {
    let prop = property! {
        forall a: u32, b: u32;
        check a.checked_add(b).is_some()
    };
    let missed: Vec<(u64, u32, u32)> = (0..40)
        .filter_map(|seed| {
            let report = generational(&prop, quiet().seed(seed));
            let (a, b) = report.counterexample::<(u32, u32)>().expect("overflows");
            ((a, b) != (1, u32::MAX)).then_some((seed, a, b))
        })
        .collect();
    assert!(missed.is_empty(), "not at (1, u32::MAX): {missed:?}");
}

/// The overflow of a product ends at the smallest factor that can
/// overflow, `2`, and the smallest other factor with it, `2^31`. Before, 28
/// seeds in 40 ended at another point of the boundary (`3 × 1431655766`,
/// `618 × 6949786`): lowering one factor alone passes, so the first had to
/// go down while the second went up.
#[test]
fn an_overflowing_product_shrinks_to_two_and_half_the_range() {
    let prop = property! {
        forall a: u32, b: u32;
        check a.checked_mul(b).is_some()
    };
    let missed: Vec<(u64, u32, u32)> = (0..40)
        .filter_map(|seed| {
            let report = generational(&prop, quiet().seed(seed));
            let (a, b) = report.counterexample::<(u32, u32)>().expect("overflows");
            ((a, b) != (2, 1 << 31)).then_some((seed, a, b))
        })
        .collect();
    assert!(missed.is_empty(), "not at (2, 2^31): {missed:?}");
}

/// Two lists whose total length fails end with every element in the last
/// list: `([], [0, 0, 0])`, the shortlex minimum. Before, half the seeds
/// ended at `([0], [0, 0])`: no pass moved an element from one list to
/// the next.
#[test]
fn elements_move_to_the_later_of_two_lists() {
    let prop = property! {
        forall xs: Vec<u32>, ys: Vec<u32>;
        check xs.len() + ys.len() < 3
    };
    let missed: Vec<(u64, Vec<u32>, Vec<u32>)> = (0..20)
        .filter_map(|seed| {
            let report = generational(&prop, quiet().seed(seed));
            let (xs, ys) = report
                .counterexample::<(Vec<u32>, Vec<u32>)>()
                .expect("fails");
            (!xs.is_empty() || ys != [0, 0, 0]).then_some((seed, xs, ys))
        })
        .collect();
    assert!(missed.is_empty(), "not at ([], [0, 0, 0]): {missed:?}");
}

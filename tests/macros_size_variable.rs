//! A variable named `size` is the user's in every later annotation, and
//! the generators after it still draw at the runner's size: the generated
//! code reads the size through a name of its own. It used to read the
//! size through the name `size`, so `int(0..=size)` after a `u32` named
//! `size` was a type error at `int` ("expected `usize`, found `u32`"), and a
//! `usize` named `size` silently replaced the runner's size.
#![deny(warnings)]

use pbt::prelude::*;
use pbt::runners::{generational, Regressions};

fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

#[property_test(cases = 50, seed = 1)]
fn a_parameter_named_size_is_the_users(
    #[with = int(1..=8u32)] size: u32,
    #[with = int(0..=size)] n: u32,
    #[with = vec(int(0..=size), 0..3)] xs: Vec<u32>,
) -> bool {
    n <= size && xs.iter().all(|&x| x <= size)
}

#[test]
fn a_variable_named_size_does_not_change_the_generation_size() {
    let prop = property! {
        forall size: usize, #[with = just(1000usize)];
        // The runner's size (at most `max_size`, 100), not the variable.
        forall seen: usize, #[with = sized(just)];
        forall xs: Vec<usize>, #[with = vec(sized(just), size..=size)];
        forall ys: Vec<usize>, #[with = resize(7, vec(sized(just), 1..2))];
        check seen <= 100 && xs.iter().all(|&x| x <= 100) && *ys == [7] && size == 1000
            && xs.len() == 1000
    };
    let report = generational(&prop, quiet().cases(20));
    assert!(report.passed(), "{report}");
}

#[test]
fn a_let_named_size_in_a_generator_is_the_users_too() {
    let prop = property! {
        forall pair: (usize, usize), #[with = { let size = int(500..600usize); let seen = sized(just); (size, seen) }];
        check pair.0 >= 500 && pair.1 <= 100
    };
    let report = generational(&prop, quiet().cases(20));
    assert!(report.passed(), "{report}");
}

#[test]
fn the_dsl_size_is_still_the_runners() {
    let prop = property! {
        forall n: usize, #[with = just(size)];
        forall xs: Vec<usize>, #[with = vec(just(size), 0..=size)];
        forall m: usize, #[with = resize(size + 3, just(size))];
        check n <= 100 && xs.len() <= 100 && xs.iter().all(|&x| x == n) && m == n + 3
    };
    let report = generational(&prop, quiet().cases(30));
    assert!(report.passed(), "{report}");
}

/// A derive's field named `size` is that field in a later field's
/// generator, as a variable is in `property!` (it used to be invisible
/// there: `data` was as long as the size generated at, whatever `size`).
#[derive(Clone, Debug, Arbitrary, Mutate)]
struct Buffer {
    #[pbt(with = int(0..5usize))]
    size: usize,
    #[pbt(with = vec(int(0..=9u8), size..=size))]
    data: Vec<u8>,
    #[pbt(with = sized(just))]
    generated_at: usize,
}

#[property_test(cases = 100, seed = 2)]
fn a_field_named_size_is_the_field(buffer: Buffer) -> bool {
    buffer.data.len() == buffer.size && buffer.generated_at <= 100
}

#[test]
fn a_mutated_field_named_size_regenerates_what_reads_it() {
    use pbt::Mutate;
    let mut rng = pbt::Rng::from_seed(9);
    let mut buffer = Buffer {
        size: 2,
        data: vec![1, 2],
        generated_at: 0,
    };
    for _ in 0..200 {
        buffer = buffer.mutate(&mut rng, 20);
        assert_eq!(buffer.data.len(), buffer.size, "{buffer:?}");
    }
}

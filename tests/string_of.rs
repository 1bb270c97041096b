//! `string_of(g, len)`: a string of the characters a generator makes. It
//! makes the choices of `vec(g, len)` and collects them, staged or not, and
//! shrinks as that list does.

use pbt::generators::{any, string_of, vec, Gen};
use pbt::prelude::*;
use pbt::runners::{generational, Regressions};
use pbt::Rng;

fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

#[test]
fn string_of_is_the_list_of_its_characters_collected() {
    for seed in 0..200 {
        for size in [0, 3, 30, 100] {
            let s = string_of(any::<char>(), 0..20).generate(&mut Rng::from_seed(seed), size);
            let cs = vec(any::<char>(), 0..20).generate(&mut Rng::from_seed(seed), size);
            assert_eq!(
                s.unwrap(),
                cs.unwrap().into_iter().collect::<String>(),
                "seed {seed}, size {size}"
            );
        }
    }
}

#[test]
fn string_of_in_an_annotation_shrinks_to_the_shortest_failing_string() {
    let prop = property! {
        forall s: String, #[with = string_of(one_of[char('a'..='z'), just('_')], 0..30)];
        check s.chars().count() < 4
    };
    let report = generational(&prop, quiet().seed(3));
    let failure = report.failure.as_ref().expect("a long string fails");
    // Four characters, each the simplest (`_` is one choice, `a` two).
    assert_eq!(failure.counterexample[0].value, "\"____\"", "{report}");
}

#[property_test(cases = 50)]
fn string_of_as_a_parameter_generator(
    #[with = string_of(char('0'..='9'), 1..=6)] digits: String,
) -> bool {
    (1..=6).contains(&digits.len()) && digits.parse::<u32>().is_ok()
}

#[test]
fn staged_string_of_makes_the_runtime_choices() {
    let staged = pbt::generator!(string_of(one_of[char('a'..='z'), just('_')], 0..12));
    let runtime = string_of(
        pbt::generators::one_of(vec![
            pbt::generators::char('a'..='z').boxed(),
            pbt::generators::just('_').boxed(),
        ]),
        0..12,
    );
    for seed in 0..200 {
        for size in [0, 5, 50] {
            assert_eq!(
                staged.generate(&mut Rng::from_seed(seed), size).unwrap(),
                runtime.generate(&mut Rng::from_seed(seed), size).unwrap(),
                "seed {seed}, size {size}"
            );
        }
    }
}

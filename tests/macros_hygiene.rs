//! The macros' output names nothing the user could shadow: everything is
//! reached through `::pbt::__private` and `::core`, and no lint fires on it.
//! Here the prelude's names, the primitive types the expansion uses, and the
//! crate names themselves are shadowed by local items (serde's
//! `test_suite/tests/test_gen.rs` does the same).
#![deny(warnings)]
#![allow(non_camel_case_types, non_upper_case_globals, dead_code)]

// The shadows. `dead_code` is allowed above: they exist only to be in scope.
struct Result;
struct Option;
struct Vec;
struct Box;
struct String;
struct Some;
struct None;
struct Ok;
struct Err;
struct bool;
struct usize;
trait Clone {}
trait Fn {}
trait Display {}
trait Iterator {}
trait IntoIterator {}
trait Gen {}
trait Source {}
mod core {}
mod std {}
mod pbt {}
mod __private {}

fn int() {}
fn vec() {}
fn map() {}

use ::pbt::runners::Config;
use ::pbt::runners::{generational, Regressions};

fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

#[test]
fn property_macro_is_hygienic() {
    let prop = ::pbt::property! {
        forall n: u32, #[gen = int(1..10)];
        forall xs: ::std::vec::Vec<u32>,
            #[gen = vec(int(0..n), 0..5)],
            #[shrink = |xs| xs.split_last().map(|(_, init)| init.to_vec())],
            #[print = |xs| ::std::format!("{xs:?}")],
            #[mutate = |xs, _source, _size| xs.clone()];
        implies n > 0;
        check xs.iter().all(|&x| x < n)
    };
    let report = generational(&prop, quiet());
    assert!(report.passed(), "{report}");
}

#[test]
fn a_result_check_is_hygienic() {
    let prop = ::pbt::property! {
        forall x: u8;
        check ::core::result::Result::<(), u8>::Ok(())
    };
    assert!(generational(&prop, quiet()).passed());
}

#[::pbt::property_test(cases = 20, seed = 1, timeout_ms = 10_000, runner = generational)]
fn property_test_is_hygienic(
    #[gen = int(1..10)] n: u32,
    #[gen = vec(int(0..n), 0..5)] xs: ::std::vec::Vec<u32>,
) -> ::core::primitive::bool {
    xs.iter().all(|&x| x < n)
}

#[::pbt::property_test]
fn property_test_returning_result_is_hygienic(
    x: u8,
) -> ::core::result::Result<(), ::std::string::String> {
    if x.is_multiple_of(2) || x % 2 == 1 {
        ::core::result::Result::Ok(())
    } else {
        ::core::result::Result::Err(::std::format!("{x}"))
    }
}

fn base() -> Config {
    quiet().cases(30)
}

#[::pbt::property_test(
    config = base(),
    examples = [(3, "ab", ::std::vec![1u8]), (4, "", [2u8, 3])],
    runner = generalized(::std::collections::HashSet::new(), |seen: &mut ::std::collections::HashSet<u8>, r: &u8| seen.insert(*r))
)]
fn property_test_options_are_hygienic(
    #[with = int(1..10)] n: u32,
    s: &str,
    bytes: &[u8],
) -> ::core::primitive::bool {
    ::pbt::assume!(n > 1);
    ::pbt::feedback::observe(bytes.len() as u8);
    s.len() < ::core::primitive::usize::MAX && n < 10
}

#[test]
fn a_staged_generator_is_hygienic() {
    let g =
        ::pbt::generator!({ let x = int(0..10u8); ensure x > 0; (x, one_of[just(x), int(0..=x)]) });
    let prop = ::pbt::property! {
        forall p: (u8, u8), #[with = &g];
        check p.1 <= p.0 && p.0 > 0
    };
    assert!(generational(&prop, quiet()).passed());
}

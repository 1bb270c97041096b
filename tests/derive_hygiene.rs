//! The derives' output names nothing the user could shadow: everything is
//! reached through `::pbt::__private`, `::core` and `::std`, and no lint
//! fires on it. Here the prelude's names, the traits the expansion uses and
//! the crate names are shadowed by local items (serde's
//! `test_suite/tests/test_gen.rs` does the same); field types are written
//! with absolute paths, as such a user would.
#![deny(warnings)]
#![allow(non_camel_case_types, dead_code)]

// The shadows.
struct Result;
struct Option;
struct Vec;
struct Box;
struct String;
struct Some;
struct None;
struct Ok;
struct Err;
struct usize;
struct u64;
trait Clone {}
trait Iterator {}
trait IntoIterator {}
trait FromIterator {}
trait From {}
trait Arbitrary {}
trait Shrink {}
trait Mutate {}
trait Source {}
mod core {}
mod std {}
mod pbt {}
mod __private {}

fn int() {}
fn vec() {}
fn once() {}
fn size() {}

#[derive(
    ::core::clone::Clone,
    ::core::fmt::Debug,
    ::core::cmp::PartialEq,
    ::pbt::Arbitrary,
    ::pbt::Mutate,
)]
enum Expr {
    Lit(i64),
    Neg(::std::boxed::Box<Expr>),
    #[pbt(weight = 2)]
    Add(::std::boxed::Box<Expr>, ::std::boxed::Box<Expr>),
    Many(::std::vec::Vec<Expr>),
    Maybe(::core::option::Option<::std::boxed::Box<Expr>>),
    #[pbt(skip)]
    Hidden,
}

#[derive(
    ::core::clone::Clone,
    ::core::fmt::Debug,
    ::core::cmp::PartialEq,
    ::pbt::Arbitrary,
    ::pbt::Mutate,
)]
struct Window<T> {
    #[pbt(gen = int(0..10u32))]
    lo: u32,
    #[pbt(gen = int(lo..=lo + size as u32))]
    hi: u32,
    #[pbt(gen = vec(int(lo..=hi), 0..3))]
    marks: ::std::vec::Vec<u32>,
    label: ::std::string::String,
    item: T,
    #[pbt(shrink = halves)]
    weight: u8,
}

fn halves(x: &u8) -> ::std::vec::Vec<u8> {
    ::std::vec![x / 2]
}

#[derive(::core::clone::Clone, ::core::fmt::Debug, ::pbt::Arbitrary, ::pbt::Mutate)]
struct Unit;

#[derive(::core::clone::Clone, ::core::fmt::Debug, ::pbt::Arbitrary, ::pbt::Mutate)]
struct Tuple(u8, ::std::string::String);

#[test]
fn derived_code_is_hygienic() {
    use ::pbt::{Arbitrary as _, Constructors as _, Mutate as _, Shrink as _};
    let mut rng = ::pbt::Rng::from_seed(1);
    for n in 0..20 {
        let e = <Expr as ::pbt::Arbitrary>::arbitrary(&mut rng, n);
        let _ = e.shrink().count();
        ::core::assert!(e.mutate(&mut rng, n) != e);
        let mut out = ::std::vec::Vec::new();
        e.constructors(&mut out);
        let w = <Window<bool> as ::pbt::Arbitrary>::arbitrary(&mut rng, n);
        ::core::assert!(w.lo <= w.hi && w.marks.iter().all(|m| (w.lo..=w.hi).contains(m)));
        let _ = w.shrink().count();
        let _ = w.mutate(&mut rng, n);
        let _ = (Unit::arbitrary(&mut rng, n), Tuple::arbitrary(&mut rng, n));
    }
}

#[test]
fn derived_types_in_a_hygienic_property() {
    let prop = ::pbt::property! {
        forall e: Expr;
        forall w: Window<u8>;
        check w.lo <= w.hi && *e == e.clone()
    };
    let config = ::pbt::runners::Config::default()
        .regressions(::pbt::runners::Regressions::Off)
        .ignore_env();
    let report = ::pbt::runners::generational(&prop, config);
    ::core::assert!(report.passed(), "{report}");
}

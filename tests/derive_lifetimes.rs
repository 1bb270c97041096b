//! `#[derive(Arbitrary, Mutate)]` on types with lifetime parameters: a
//! field such as `Cow<'a, str>` has values (and a shrinker and a mutator)
//! only for `'a = 'static`, so the derived impls state that of the field's
//! type, and hold for `Labelled<'static>`. They used to require it of every
//! `'a`: "lifetime may not live long enough" at the field.
#![deny(warnings)]

use pbt::prelude::*;
use pbt::runners::{generational, Regressions};
use pbt::{Mutate, Rng, Shrink};
use std::borrow::Cow;

fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

#[derive(Clone, Debug, PartialEq, Arbitrary, Mutate)]
struct Labelled<'a> {
    label: Cow<'a, str>,
    number: u8,
    #[pbt(with = just("fixed"))]
    fixed: &'a str,
}

/// The simpler variants hold borrowing fields too (shrinking a `Named`
/// generates a `Bytes`).
#[derive(Clone, Debug, PartialEq, Arbitrary, Mutate)]
enum Field<'a, T> {
    Empty,
    Bytes(Cow<'a, [u8]>),
    Named { name: Cow<'a, str>, value: T },
}

#[property_test(cases = 50)]
fn borrowing_types_are_generated(labelled: Labelled<'static>, field: Field<'static, u16>) -> bool {
    labelled.fixed == "fixed" && field == field.clone()
}

#[test]
fn a_borrowing_field_shrinks() {
    let prop = property! {
        forall labelled: Labelled<'static>;
        check labelled.label.chars().count() < 3
    };
    let report = generational(&prop, quiet().seed(1));
    let failure = report.failure.as_ref().expect("a long label fails");
    let shown = &failure.counterexample[0].value;
    assert_eq!(
        shown, "Labelled { label: \"aaa\", number: 0, fixed: \"fixed\" }",
        "{report}"
    );
    let named: Field<'static, u8> = Field::Named {
        name: Cow::Borrowed("ab"),
        value: 3,
    };
    let candidates: Vec<Field<'static, u8>> = named.shrink().collect();
    assert!(candidates.contains(&Field::Empty), "{candidates:?}");
    assert!(
        candidates.contains(&Field::Bytes(Cow::Borrowed(&[]))),
        "{candidates:?}"
    );
}

#[test]
fn a_borrowing_type_mutates() {
    let labelled = Labelled {
        label: Cow::Borrowed("abc"),
        number: 7,
        fixed: "fixed",
    };
    let mut rng = Rng::from_seed(4);
    let changed = (0..20).any(|_| labelled.mutate(&mut rng, 10) != labelled);
    assert!(changed);
}

/// Recursive through a field that names the lifetime: the impls state the
/// traits of the borrowing fields only, not of `Box<Self>` (which made the
/// trait solver overflow: "overflow evaluating the requirement").
#[derive(Clone, Debug, PartialEq, Arbitrary, Mutate)]
enum Chain<'a, T> {
    End(Cow<'a, str>, T),
    Link(Box<Chain<'a, T>>, Cow<'a, [u8]>),
}

#[property_test(cases = 50)]
fn a_recursive_borrowing_type_is_generated(chain: Chain<'static, bool>) -> bool {
    fn links(chain: &Chain<'_, bool>) -> usize {
        match chain {
            Chain::End(..) => 0,
            Chain::Link(next, _) => 1 + links(next),
        }
    }
    links(&chain) < 1_000
}

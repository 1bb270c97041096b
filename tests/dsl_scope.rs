//! Inside a generator annotation only the DSL's own names are in scope
//! (`pbt::generators::dsl`): the user's items named like pbt's staging
//! helpers or generator types (`threshold`, `UNIT`, `FILTER_TRIES`, `Map`,
//! `Filter`, `Int`, …) keep their meaning there, in every macro.
#![deny(warnings)]
#![allow(non_upper_case_globals, dead_code)]

use pbt::prelude::*;
use pbt::runners::{generational, Regressions};

// Names pbt uses for staging helpers and generator types, defined here with
// other meanings and types than pbt's.
fn threshold(x: u8) -> u8 {
    x / 2
}
const UNIT: u8 = 7;
const FILTER_TRIES: &str = "the user's";
struct Map(u8);
struct Filter;
struct Int;
struct Bool;
struct Staged;
struct Weight;
struct Rejected;
struct Any;
struct Just;
struct OneOf;
struct Chars;
struct Str;
type Generated = u8;
static FIELD_TRIES: u8 = 3;
// More names the staged code reaches through `::pbt::__private` (the
// unique collections' retry bound, the frequency weight, the block marks,
// the source, replay and binding helpers).
const UNIQUE_TRIES: usize = 2;
fn weight(w: u8) -> u32 {
    u32::from(w) * 3
}
#[derive(Clone, Copy)]
enum BlockKind {
    Element = 4,
}
trait Source {
    fn draw(&self) -> u8;
}
impl Source for u8 {
    fn draw(&self) -> u8 {
        *self + 1
    }
}
struct Replay(u8);
struct Bind;
struct Candidates;
struct Differ;
struct Visit;

fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).cases(100)
}

#[test]
fn property_annotations_see_the_users_items() {
    let prop = property! {
        forall a: u8, #[with = just(threshold(UNIT))];
        forall b: usize, #[with = just(FILTER_TRIES.len())];
        forall c: u8, #[with = map(int(0..3u8), |x| Map(x + FIELD_TRIES).0)];
        forall d: u8, #[with = just({ let _unit_types = (Filter, Int, Bool, Staged, Weight, Rejected, Any, Just, OneOf, Chars, Str); 1 as Generated })];
        check a == 3 && b == 10 && (3..6).contains(&c) && d == 1
    };
    let report = generational(&prop, quiet());
    assert!(report.passed(), "{report}");
}

#[property_test(cases = 50)]
fn test_parameters_see_the_users_items(
    #[with = just(threshold(UNIT))] a: u8,
    #[with = filter(int(0..10u8), |x| *x != UNIT)] b: u8,
) -> bool {
    a == 3 && b != 7
}

#[test]
fn generator_values_see_the_users_items() {
    let g = pbt::generator!({
        let x = int(0..=UNIT);
        ensure x != threshold(UNIT);
        Map(x)
    });
    let prop = property! {
        forall m: u8, #[with = map(&g, |m| m.0)];
        check m <= 7 && m != 3
    };
    let report = generational(&prop, quiet());
    assert!(report.passed(), "{report}");
}

#[derive(Clone, Debug, Arbitrary)]
struct Fields {
    #[pbt(with = just(threshold(UNIT)))]
    half: u8,
    #[pbt(with = just(FILTER_TRIES.to_string()))]
    label: String,
}

#[property_test(cases = 20)]
fn derive_field_generators_see_the_users_items(f: Fields) -> bool {
    f.half == 3 && f.label == "the user's"
}

/// No `use` of pbt at all: the DSL's names, and `Gen`'s methods (imported
/// as `_`), are in scope inside an annotation anyway.
mod without_imports {
    #[test]
    fn gen_methods_work_inside_annotations() {
        let prop = pbt::property! {
            forall x: u8, #[with = int(0..3u8).map(|x| x + 1).boxed()];
            check (1..4).contains(&x)
        };
        let config = pbt::runners::Config::default()
            .regressions(pbt::runners::Regressions::Off)
            .cases(50);
        let report = pbt::runners::generational(&prop, config);
        assert!(report.passed(), "{report}");
    }
}

/// The forms whose staged code uses those helpers (`hash_set` and
/// `vec_unique` the retry bound, `frequency` the weights, `vec` the block
/// marks and the source, `weighted_bool` the unit draw, `filter` its retry
/// bound), with the user's items of the same names inside them.
#[test]
fn staged_forms_that_use_helpers_see_the_users_items() {
    let prop = property! {
        forall s: std::collections::HashSet<usize>, #[with = hash_set(int(0..=UNIQUE_TRIES * 50), UNIQUE_TRIES..=UNIQUE_TRIES)];
        forall u: Vec<u8>, #[with = vec_unique(int(0..10u8), 0..=usize::from(UNIT))];
        forall f: u32, #[with = frequency[weight(1) => just(weight(2)), 1 => just(6u32)]];
        forall v: Vec<u8>, #[with = vec(just(BlockKind::Element as u8 + 3u8.draw()), 1..=2)];
        forall w: bool, #[with = weighted_bool(f64::from(threshold(UNIT)) / 10.0)];
        forall k: u8, #[with = filter(just(Replay(5).0), |x| *x < UNIT)];
        check {
            let _unit_types = (Bind, Candidates, Differ, Visit);
            let _ = w;
            s.len() == 2 && u.len() <= 7 && f == 6 && v.iter().all(|&x| x == 8) && k == 5
        }
    };
    let report = generational(&prop, quiet());
    assert!(report.passed(), "{report}");
}

/// The staged DSL (pbt-stage's table of forms, what the macros parse and
/// stage) and the runtime DSL (`pbt_core::gen::dsl`, the names in scope
/// inside an annotation) agree: every staged form has a runtime combinator
/// of its name, and the runtime names without a staged form are the ones
/// listed here, which always run as runtime generators.
#[test]
fn the_staged_forms_and_the_runtime_dsl_name_the_same_combinators() {
    const RUNTIME_ONLY: [&str; 2] = ["from_fn", "sized"];
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/pbt-core/src/gen/dsl.rs");
    let source = std::fs::read_to_string(path).expect("pbt-core/src/gen/dsl.rs");
    // Its one list: `pub use super::{any, bind, …};`.
    let list = "pub use super::{";
    let start = source.find(list).expect("the list of the DSL's names") + list.len();
    let end = start + source[start..].find('}').expect("the list's end");
    let runtime: std::collections::BTreeSet<&str> = source[start..end]
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .collect();
    let staged: std::collections::BTreeSet<&str> = pbt_stage::form_names().into_iter().collect();
    let unstaged: Vec<&str> = staged.difference(&runtime).copied().collect();
    assert!(
        unstaged.is_empty(),
        "staged forms without a runtime combinator in pbt_core::gen::dsl: {unstaged:?}"
    );
    let runtime_only: Vec<&str> = runtime.difference(&staged).copied().collect();
    assert_eq!(
        runtime_only, RUNTIME_ONLY,
        "the runtime DSL's names that pbt-stage does not stage"
    );
}

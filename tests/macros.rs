//! What `property!` and `#[property_test]` expand to, observed by running it:
//! dependent annotations, implications, the annotations a runner uses,
//! binding modes, captures, and the test functions of `#[property_test]`.

use pbt::dbas::NodeView;
use pbt::prelude::*;
use pbt::runners::{generational, Regressions};
use pbt::Rng;
use std::sync::atomic::{AtomicU64, Ordering};

/// No regressions file, no `PBT_*` overrides: these tests are about the
/// macros, not about replay.
fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

/// A runner for `#[property_test(runner = …)]` that does not write a
/// regressions file next to this source (the failing tests below fail on
/// purpose).
fn quiet_runner<P: Property + Sync>(prop: &P, config: Config) -> Report {
    generational(prop, config.regressions(Regressions::Off).ignore_env())
}

fn variable(view: &NodeView) -> (&'static str, &'static str, bool, bool) {
    match view {
        NodeView::Forall {
            name,
            ty,
            gen,
            dependent,
            ..
        } => (name, ty, *gen, *dependent),
        other => panic!("expected a variable, found {other:?}"),
    }
}

#[test]
fn a_generator_may_read_an_earlier_variable() {
    let prop = property! {
        forall n: u32, #[gen = int(1..10u32)];
        forall xs: Vec<u32>, #[gen = vec(int(0..n), 0..5)];
        check xs.iter().all(|&x| x < n)
    };
    let report = generational(&prop, quiet());
    assert!(report.passed(), "{report}");

    let structure = prop.structure();
    let vars: Vec<_> = structure.variables().map(variable).collect();
    assert_eq!(
        vars,
        [("n", "u32", true, false), ("xs", "Vec<u32>", true, true)]
    );
    let origin = structure.origin.expect("property! records its origin");
    assert!(origin.file.ends_with("macros.rs"), "{}", origin.file);
    assert_eq!(origin.module, module_path!());
    assert_eq!(origin.name, None);
}

/// `forall a: A, b: B;` is `forall a: A; forall b: B;`: each variable keeps
/// its own annotations, and a later one may read an earlier one.
#[test]
fn one_forall_may_quantify_several_variables() {
    let prop = property! {
        forall n: u32, #[with = int(1..10u32)], xs: Vec<u32>, #[with = vec(int(0..n), 0..5)], flag: bool;
        check xs.iter().all(|&x| x < n) || flag
    };
    assert!(generational(&prop, quiet()).passed());
    let structure = prop.structure();
    let vars: Vec<_> = structure.variables().map(variable).collect();
    assert_eq!(
        vars,
        [
            ("n", "u32", true, false),
            ("xs", "Vec<u32>", true, true),
            ("flag", "bool", false, false)
        ]
    );
    let failing = property! { forall a: i32, b: i32; check a.saturating_add(b) < 100 };
    let report = generational(&failing, quiet());
    let (a, b): (i32, i32) = report.counterexample().expect("a typed counterexample");
    assert_eq!(a.saturating_add(b), 100, "{report}");
}

#[test]
fn a_variable_without_gen_uses_arbitrary_and_literals_take_the_variable_type() {
    let prop = property! {
        forall small: u8, #[gen = int(0..10)];
        forall any: u64;
        check small < 10 && any == any
    };
    assert!(generational(&prop, quiet()).passed());
    let vars: Vec<_> = prop.structure().variables().map(variable).collect();
    assert_eq!(
        vars,
        [("small", "u8", true, false), ("any", "u64", false, false)]
    );
}

#[test]
fn a_variable_named_like_a_combinator_shadows_it() {
    let prop = property! {
        forall map: u8, #[gen = int(1..=3)];
        forall v: Vec<u8>, #[gen = vec(just(map), 1..4)];
        check v.iter().all(|&x| x == map)
    };
    assert!(generational(&prop, quiet()).passed());
}

#[test]
fn implies_discards_the_tests_where_it_does_not_hold() {
    let prop = property! {
        forall a: u8;
        forall b: u8;
        implies a < b;
        check b - a > 0
    };
    let report = generational(&prop, quiet().seed(3));
    assert!(report.passed(), "{report}");
    assert!(report.discards > 0, "{report}");
    assert!(prop.structure().has_preconditions());
}

#[test]
fn a_later_generator_may_rely_on_an_implication() {
    let prop = property! {
        forall lo: u16, #[gen = int(0..100)];
        forall hi: u16, #[gen = int(0..100)];
        implies lo < hi;
        forall x: u16, #[gen = int(lo..hi)];
        check lo <= x && x < hi
    };
    assert!(generational(&prop, quiet()).passed());
}

#[test]
fn print_and_shrink_annotations_are_what_the_property_uses() {
    let prop = property! {
        forall base: u32, #[gen = int(0..10)];
        forall x: u32,
            #[gen = int(base..base + 1000)],
            #[shrink = move |x| if *x > base { vec![base, x - 1] } else { vec![] }],
            #[print = move |x| format!("base+{}", x - base)];
        check x < base + 500
    };
    let mut rng = Rng::from_seed(11);
    let case = (0..100)
        .filter_map(|_| prop.generate(&mut rng, 10).ok())
        .find(|case| case.env.0 > case.env.1 .0)
        .expect("a case with x above base");
    let (x, (base, ())) = case.env;
    let printed = prop.print(&case);
    assert_eq!(printed[0].value, base.to_string());
    assert_eq!(printed[1].value, format!("base+{}", x - base));
    let candidates: Vec<u32> = prop
        .shrink(&case)
        .filter(|c| c.env.1 .0 == base)
        .map(|c| c.env.0)
        .collect();
    assert_eq!(candidates, [base, x - 1]);

    let report = generational(&prop, quiet().seed(5));
    let failure = report.failure.expect("x reaches base + 500");
    assert_eq!(failure.counterexample[1].value, "base+500");
}

#[test]
fn a_mutate_annotation_is_what_the_property_uses() {
    let prop = property! {
        forall step: u8, #[gen = int(1..5)];
        forall x: u32, #[gen = int(0..100)], #[mutate = move |x, _source, _size| x + 1000 * u32::from(step)];
        check x < 5000
    };
    let mut rng = Rng::from_seed(2);
    let case = prop.generate(&mut rng, 10).unwrap();
    let (x, (step, ())) = case.env;
    // Mutating `step` regenerates it and keeps `x` (whose generator does not
    // read it); mutating `x` applies the annotation under the current `step`.
    let mutated_x: Vec<_> = (0..50)
        .filter_map(|_| prop.mutate(&case, &mut rng, 10))
        .filter(|m| m.env.0 != x)
        .collect();
    assert!(!mutated_x.is_empty());
    for m in mutated_x {
        assert_eq!(m.env, (x + 1000 * u32::from(step), (step, ())));
    }
}

#[test]
fn copy_variables_are_bound_by_value_and_others_by_reference() {
    let prop = property! {
        forall n: u8;
        forall xs: Vec<u8>;
        forall s: String;
        check {
            let by_value: u8 = n;
            let by_reference: &Vec<u8> = xs;
            let text: &String = s;
            usize::from(by_value) + by_reference.len() + text.len() >= xs.len()
        }
    };
    assert!(generational(&prop, quiet()).passed());
}

#[test]
fn a_property_captures_locals_by_reference() {
    let table: Vec<u32> = [3, 5, 7].into(); // not `Copy`: captured by reference
    let checks = AtomicU64::new(0);
    let prop = property! {
        forall i: usize, #[gen = int(0..table.len())];
        check {
            checks.fetch_add(1, Ordering::Relaxed);
            table[i] % 2 == 1
        }
    };
    let report = generational(&prop, quiet().cases(40));
    assert!(report.passed(), "{report}");
    assert!(checks.into_inner() >= 40);
    assert_eq!(table.len(), 3, "still ours");
}

#[test]
fn a_check_may_return_unit_or_result_and_fails_by_err() {
    let unit = property! { forall x: u8; check assert!(u16::from(x) < 256) };
    assert!(generational(&unit, quiet()).passed());

    let result = property! {
        forall x: u8;
        check if x < 200 { Ok(()) } else { Err(format!("{x} is too big")) };
    };
    let report = generational(&result, quiet().seed(1));
    let failure = report.failure.expect("x reaches 200");
    assert!(
        failure.reason.contains("200 is too big"),
        "{}",
        failure.reason
    );
}

#[test]
fn a_property_without_variables_is_a_single_check() {
    let prop = property! { check 1 + 1 == 2 };
    assert_eq!(prop.structure().variables().count(), 0);
    assert!(generational(&prop, quiet()).passed());
}

#[property_test]
fn returning_bool(xs: Vec<u8>) -> bool {
    let mut ys = xs.clone();
    ys.reverse();
    ys.reverse();
    ys == xs
}

#[property_test(cases = 50)]
fn returning_unit(a: u16, b: u16) {
    assert_eq!(u32::from(a) + u32::from(b), u32::from(b) + u32::from(a));
}

#[property_test]
fn returning_result_with_the_question_mark(x: u32) -> Result<(), std::num::ParseIntError> {
    let y: u32 = x.to_string().parse()?;
    if y != x {
        return Ok(()); // an early return is the user's, not the macro's
    }
    assert_eq!(x, y);
    Ok(())
}

#[property_test]
fn a_parameter_annotation_may_read_an_earlier_parameter(
    #[gen = int(1..10)] n: usize,
    #[gen = vec(int(0..n), 0..5)] xs: Vec<usize>,
    #[print = |s| format!("{s:?}")] mut s: String,
) -> bool {
    s.push('!');
    xs.iter().all(|&x| x < n) && s.ends_with('!')
}

/// Edition 2024 reserves `gen`; the raw identifier works in every edition.
#[property_test(cases = 20)]
fn a_raw_gen_annotation(#[r#gen = int(0..3)] x: u8) -> bool {
    x < 3
}

#[property_test(cases = 10)]
fn a_lint_attribute_on_a_parameter_is_kept(#[allow(unused_variables)] unused: u8) {}

/// Doc comments and other attributes stay on the test.
#[property_test(runner = quiet_runner, seed = 9)]
#[should_panic(expected = "property failed")]
fn a_failing_property_test_panics_with_the_report(x: u8) -> bool {
    x < 100
}

#[property_test(runner = quiet_runner)]
#[ignore = "shows that #[ignore] is kept: this would fail"]
fn an_ignored_property_test_is_not_run(x: u8) -> bool {
    x < 10
}

static CONFIGS_SEEN: AtomicU64 = AtomicU64::new(0);

/// Checks what `#[property_test]` hands to its runner, then runs it.
fn inspecting_runner<P: Property + Sync>(prop: &P, config: Config) -> Report {
    let origin = prop.structure().origin.expect("an origin");
    assert_eq!(origin.name, Some("options_reach_the_runner"));
    assert!(origin.file.ends_with("macros.rs"));
    assert_eq!(config.cases, 7);
    assert_eq!(config.seed, Some(42));
    assert_eq!(config.timeout, Some(std::time::Duration::from_secs(5)));
    CONFIGS_SEEN.fetch_add(1, Ordering::Relaxed);
    quiet_runner(prop, config)
}

#[property_test(cases = 7, seed = 42, timeout_ms = 5_000, runner = inspecting_runner)]
fn options_reach_the_runner(x: u8) -> bool {
    CONFIGS_SEEN.load(Ordering::Relaxed) > 0 && u16::from(x) < 256
}

/// A `&'static str` parameter is generated as it is (here from a static
/// list), not as a `String` lent to the function.
#[property_test(cases = 50)]
fn a_static_str_parameter_takes_its_generator_as_is(
    #[with = choose(&["GET", "POST"])] verb: &'static str,
    #[with = option(choose(&["a", "b"]))] tag: Option<&'static str>,
) -> bool {
    ["GET", "POST"].contains(&verb) && tag.is_none_or(|t| t == "a" || t == "b")
}

/// What `tests/ui/property/proptest_strategy_in.stderr` suggests for
/// proptest's `x in 0..10u8`, `x in -1.0..=1.0f64` and `s in "[a-z]+"`,
/// pasted as it is, compiles and holds.
#[test]
fn the_suggestions_for_a_proptest_strategy_compile() {
    let quiet = || Config::default().regressions(pbt::runners::Regressions::Off);
    let range = property! { forall x: u8, #[with = int(0..10u8)]; check x < 10 };
    let float = property! { forall x: f64, #[with = float(-1.0..=1.0f64)]; check x.abs() <= 1.0 };
    let regex = property! { forall s: String, #[with = regex("[a-z]+")]; check !s.is_empty() };
    assert!(pbt::runners::generational(&range, quiet()).passed());
    assert!(pbt::runners::generational(&float, quiet()).passed());
    assert!(pbt::runners::generational(&regex, quiet()).passed());
}

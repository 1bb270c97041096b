//! The everyday options of `#[property_test]`, observed by running them:
//! `assume!`, explicit `examples`, `config = …`, every built-in runner by
//! name (with `generalized(state, update)`), and borrowed parameters.

use pbt::prelude::*;
use pbt::runners::Report as RunReport;
use pbt::runners::{generational, Regressions};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};

fn quiet(config: Config) -> Config {
    config.regressions(Regressions::Off).ignore_env()
}

/// Runs generationally and insists that some tests were discarded and none
/// failed.
fn expect_discards<P: Property + Sync>(prop: &P, config: Config) -> RunReport {
    let report = generational(prop, quiet(config));
    assert!(report.passed(), "{report}");
    assert!(report.discards > 0, "no test was discarded: {report}");
    report
}

// --- assume! ---------------------------------------------------------------

#[property_test(runner = expect_discards, cases = 200)]
fn assume_discards_whatever_the_body_returns_bool(a: u8, b: u8) -> bool {
    assume!(b != 0);
    assume!(a % 2 == 0);
    a % 2 == 0 && a / b <= a
}

#[property_test(runner = expect_discards, cases = 200)]
fn assume_discards_in_a_unit_body(x: u8) {
    assume!(x < 128,);
    assert!(x < 128);
}

#[property_test(runner = expect_discards, cases = 200)]
fn assume_discards_in_a_result_body(x: u8) -> Result<(), String> {
    assume!(x % 3 != 0);
    if x % 3 == 0 {
        return Err(format!("{x} is a multiple of 3"));
    }
    Ok(())
}

/// A helper function called by the check may assume too.
fn nonzero_divisor(b: i32) -> i32 {
    assume!(b != 0);
    b
}

#[test]
fn assume_in_a_property_check_and_in_functions_it_calls() {
    let prop = property! {
        forall a: i32;
        forall b: i32;
        check {
            let b = nonzero_divisor(b);
            assume!(a.checked_rem(b).is_some());
            (a / b) * b + a % b == a
        }
    };
    let report = generational(&prop, quiet(Config::default().cases(300)));
    assert!(report.passed(), "{report}");
    assert!(report.discards > 0, "{report}");
}

/// `assume!`'s example as its doc showed it when the macro lived in the
/// facade (pbt-core's doctest cannot run a `property!`).
#[test]
fn assume_in_a_function_the_check_calls_discards() {
    fn divides(a: i32, b: i32) -> bool {
        assume!(b != 0);
        assume!(a.checked_rem(b).is_some());
        (a / b) * b + a % b == a
    }
    let prop = property! {
        forall a: i32;
        forall b: i32, #[with = int(-3..=3)];
        check divides(a, b)
    };
    let report = pbt::runners::generational(&prop, Config::default());
    assert!(report.passed(), "{report}");
    assert!(report.discards > 0);
}

/// `run_examples`' example as its doc showed it when it lived in the facade
/// (pbt-runners' doctest builds the property by hand).
#[test]
fn run_examples_stops_at_the_first_failing_example() {
    let prop = property! { forall x: u8; check x < 200 };
    pbt::run_examples(&prop, [(3, ()), (199, ())]);
    let failed = std::panic::catch_unwind(|| pbt::run_examples(&prop, [(7, ()), (250, ())]));
    let message = *failed.unwrap_err().downcast::<String>().unwrap();
    assert!(
        message.contains("explicit example 2 of 2 failed"),
        "{message}"
    );
    assert!(message.contains("x = 250"), "{message}");
}

#[test]
fn a_panic_next_to_an_assume_is_still_a_failure() {
    let prop = property! {
        forall x: u8;
        check {
            assume!(x != 1);
            assert!(x < 100, "too big: {x}");
            true
        }
    };
    let report = generational(&prop, quiet(Config::default().cases(500)));
    assert!(!report.passed(), "{report}");
    let text = report.to_string();
    assert!(text.contains("too big: 100"), "{text}");
}

#[test]
fn a_property_that_assumes_everything_away_does_not_pass() {
    let prop = property! { forall x: u8; check { assume!(x.count_ones() > 8); true } };
    let report = generational(&prop, quiet(Config::default().cases(50)));
    assert!(!report.passed(), "{report}");
    assert!(report.discards > 0, "{report}");
}

#[test]
#[should_panic(expected = "outside a pbt check")]
fn assume_outside_a_check_says_where_it_belongs() {
    let x = 3;
    assume!(x > 5);
}

// --- examples ---------------------------------------------------------------

static EXAMPLES_RUN: AtomicU64 = AtomicU64::new(0);

fn counting_check(n: u32, xs: &[u8]) -> bool {
    EXAMPLES_RUN.fetch_add(1, Ordering::Relaxed);
    n.checked_add(0) == Some(n) && xs.iter().all(|&x| u16::from(x) < 256)
}

/// Fails the test unless the examples ran before it was called.
fn after_examples<P: Property + Sync>(prop: &P, config: Config) -> RunReport {
    assert_eq!(
        EXAMPLES_RUN.load(Ordering::Relaxed),
        2,
        "the two examples run first, and only they"
    );
    generational(prop, quiet(config))
}

#[property_test(examples = [(0, vec![]), (3, vec![1, 2, 3])], runner = after_examples, cases = 20)]
fn examples_run_before_generation(n: u32, xs: Vec<u8>) -> bool {
    counting_check(n, &xs)
}

#[property_test(examples = [255, 0], cases = 20)]
fn a_one_parameter_example_is_the_value_itself(x: u8) -> bool {
    u16::from(x) <= 255
}

/// A runner that must never be reached.
fn unreachable_runner<P: Property + Sync>(_: &P, _: Config) -> RunReport {
    panic!("the runner ran although an example failed")
}

#[property_test(examples = [(1, vec![]), (0, vec![5])], runner = unreachable_runner)]
#[should_panic(
    expected = "explicit example 2 of 2 failed (before any generated test):\n    n = 0\n    xs = [5]\nreason: the check returned false"
)]
fn a_failing_example_is_reported_with_its_values(n: u32, xs: Vec<u8>) -> bool {
    n > 0 || xs.is_empty()
}

#[property_test(examples = [7], runner = unreachable_runner)]
#[should_panic(expected = "rejected it, so it tests nothing")]
fn an_example_that_a_precondition_rejects_is_an_error(x: u8) -> bool {
    assume!(x % 2 == 0);
    true
}

#[property_test(examples = [(3, 4)], runner = unreachable_runner)]
#[should_panic(expected = "panicked: 3 + 4")]
fn a_panicking_example_is_reported(a: u8, b: u8) {
    panic!("{a} + {b}");
}

// --- config = … -------------------------------------------------------------

static CONFIGS_SEEN: AtomicU64 = AtomicU64::new(0);

fn check_config<P: Property + Sync>(prop: &P, config: Config) -> RunReport {
    assert_eq!(config.cases, 9, "`cases = 9` overrides the config's 5");
    assert_eq!(config.seed, Some(42), "the config's seed is kept");
    assert_eq!(config.max_discard_ratio, 3);
    CONFIGS_SEEN.fetch_add(1, Ordering::Relaxed);
    generational(prop, quiet(config))
}

fn base_config() -> Config {
    Config::default().cases(5).seed(42).max_discard_ratio(3)
}

#[property_test(config = base_config(), cases = 9, runner = check_config)]
fn config_is_the_base_the_other_options_override(x: u8) -> bool {
    CONFIGS_SEEN.load(Ordering::Relaxed) > 0 && u16::from(x) < 256
}

// --- every built-in runner by name ------------------------------------------

#[property_test(runner = generational, cases = 30)]
fn by_name_generational(x: u8) -> bool {
    x.checked_add(0) == Some(x)
}

#[property_test(runner = integrated, cases = 30)]
fn by_name_integrated(x: u8) -> bool {
    x.checked_add(0) == Some(x)
}

#[property_test(runner = parallel, cases = 30)]
fn by_name_parallel(x: u8) -> bool {
    x.checked_add(0) == Some(x)
}

#[property_test(runner = combinatorial, cases = 30)]
fn by_name_combinatorial(x: Option<bool>) -> bool {
    x.is_none() || x.is_some()
}

#[property_test(runner = fuzz, cases = 30)]
fn by_name_fuzz(x: u8) -> bool {
    x.checked_add(0) == Some(x)
}

#[property_test(runner = targeted, cases = 30)]
fn by_name_targeted(x: u8) -> bool {
    pbt::feedback::target(f64::from(x));
    x.checked_add(0) == Some(x)
}

#[property_test(
    runner = generalized(HashSet::new(), |seen: &mut HashSet<u8>, r: &u8| seen.insert(*r)),
    cases = 30
)]
fn by_name_generalized(x: u8) -> bool {
    observe(x % 7);
    x.checked_add(0) == Some(x)
}

#[property_test(runner = pbt::runners::integrated, cases = 10)]
fn by_path(x: u8) -> bool {
    x.checked_add(0) == Some(x)
}

/// A runner of the user's whose name is one edit from a built-in one.
fn parallel4<P: Property + Sync>(prop: &P, config: Config) -> RunReport {
    generational(prop, quiet(config))
}

#[property_test(runner = self::parallel4, cases = 10)]
fn an_own_runner_named_like_a_built_in_one(x: u8) -> bool {
    x.checked_add(0) == Some(x)
}

// --- borrowed parameters ----------------------------------------------------

#[property_test(cases = 100)]
fn borrowed_parameters_are_generated_owned(
    #[with = string("ab", 0..5)] s: &str,
    bytes: &[u8],
    n: &u32,
    v: &mut Vec<u8>,
    t: &mut String,
) -> bool {
    let before = v.len();
    v.push(1);
    t.push('!');
    s.chars().all(|c| c == 'a' || c == 'b')
        && s.len() < 5
        && bytes.iter().all(|&b| u16::from(b) < 256)
        && n.checked_add(0) == Some(*n)
        && v.len() == before + 1
        && t.ends_with('!')
}

static BORROWED_EXAMPLES: AtomicU64 = AtomicU64::new(0);

#[property_test(
    examples = [
        ("ab".to_string(), vec![1, 2], 7),
        ("ab", &[1, 2], 7),
        ("ab", [1, 2], 7),
        ("ab", &[1u8, 2][..], 7),
    ],
    runner = unreachable_runner
)]
#[should_panic(expected = "explicit example 4 of 4 failed")]
fn borrowed_parameters_take_owned_or_borrowed_examples(s: &str, xs: &[u8], n: &u32) -> bool {
    assert!(s == "ab" && xs == [1, 2] && *n == 7);
    // The first three pass; the fourth fails on purpose, to stop before
    // the runner.
    BORROWED_EXAMPLES.fetch_add(1, Ordering::Relaxed) < 3
}

/// `return` in a `property!` check returns the check's value (a `bool`
/// here), as it does in a `#[property_test]` body: the check is a closure
/// of its own, not the one that builds the `Outcome`.
#[test]
fn return_in_a_property_check_returns_its_value() {
    let prop = pbt::property! {
        forall x: u8;
        forall xs: Vec<u8>;
        check {
            if x == 0 {
                return true;
            }
            if xs.is_empty() {
                return x > 0;
            }
            xs.len() + usize::from(x) > 0
        }
    };
    let report = generational(&prop, quiet(Config::default()));
    assert!(report.passed(), "{report}");
    let fails = pbt::property! {
        forall x: u8;
        check {
            if x >= 10 {
                return false;
            }
            true
        }
    };
    let report = generational(&fails, quiet(Config::default()));
    assert_eq!(
        report.failure.expect("x >= 10 fails").counterexample[0].value,
        "10"
    );
}

#[property_test(cases = 50)]
fn return_in_a_property_test_body(x: u8) -> bool {
    if x == 0 {
        return true;
    }
    x > 0
}

/// Every sequential runner takes a property that is not `Sync`: a check that
/// bumps a local `Cell` counter (only `parallel`, whose workers share the
/// property, needs `Sync`; `tests/ui/runners/parallel_needs_sync.rs`).
#[test]
fn sequential_runners_take_a_property_that_is_not_sync() {
    use pbt::runners::{combinatorial, fuzz, generalized, integrated, targeted};
    use std::cell::Cell;
    let runs = Cell::new(0u64);
    let prop = pbt::property! {
        forall x: u8;
        check {
            runs.set(runs.get() + 1);
            x.checked_add(0) == Some(x)
        }
    };
    let config = || quiet(Config::default()).cases(40);
    let reports = [
        ("generational", generational(&prop, config())),
        ("integrated", integrated(&prop, config())),
        ("combinatorial", combinatorial(&prop, config())),
        ("fuzz", fuzz(&prop, config())),
        ("targeted", targeted(&prop, config())),
        (
            "generalized",
            generalized(&prop, config(), 0u64, |n: &mut u64, _: &u8| {
                *n += 1;
                true
            }),
        ),
    ];
    let mut tests = 0;
    for (name, report) in reports {
        assert!(report.passed(), "{name}: {report}");
        assert!(report.tests > 0, "{name}: {report}");
        tests += report.tests;
    }
    // Every counted test ran the check once, through the `Cell`.
    assert!(runs.get() >= tests, "{} runs for {tests} tests", runs.get());
}

#[property_test(cases = 30)]
fn a_property_test_body_may_use_a_cell(x: u8) -> bool {
    let seen = std::cell::Cell::new(0u8);
    seen.set(x);
    seen.get() == x
}

// --- the macros' option tables ----------------------------------------------

/// The first one or two string literals of each row of the table `name` in
/// pbt-macros' options (`("external", "External"),`).
fn option_table(name: &str) -> Vec<Vec<String>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/pbt-macros/src/options.rs");
    let source = std::fs::read_to_string(path).expect("pbt-macros/src/options.rs");
    let start = source
        .find(&format!("const {name}:"))
        .unwrap_or_else(|| panic!("no table {name}"));
    let body = &source[start..];
    let body = &body[body.find("= [").expect("the table") + 3..body.find("];").expect("its end")];
    body.lines()
        .map(str::trim)
        .filter(|row| row.starts_with("(\""))
        .map(|row| {
            row.split('"')
                .skip(1)
                .step_by(2)
                .take(2)
                .map(str::to_string)
                .collect()
        })
        .collect()
}

/// pbt-macros (a proc-macro crate, which cannot import the runners)
/// restates the names `shrink = "…"`, `mutation = "…"` and `runner = …`
/// accept; they must be the runners' own: `Shrinker::from_name`,
/// `Mutation::from_name`, the runner functions of `pbt::runners`.
#[test]
fn the_macros_option_names_are_the_runners_names() {
    use pbt::runners::{Mutation, Shrinker};
    let shrinkers = option_table("SHRINKERS");
    for row in &shrinkers {
        let shrinker = Shrinker::from_name(&row[0])
            .unwrap_or_else(|| panic!("Shrinker::from_name({:?}) is None", row[0]));
        assert_eq!(format!("{shrinker:?}"), row[1], "shrink = {:?}", row[0]);
    }
    // Every variant (a new one fails to compile here until it is listed).
    let _every = |s: Shrinker| match s {
        Shrinker::External | Shrinker::Integrated | Shrinker::Both => (),
    };
    for shrinker in [Shrinker::External, Shrinker::Integrated, Shrinker::Both] {
        assert!(
            shrinkers
                .iter()
                .any(|row| row[1] == format!("{shrinker:?}")),
            "pbt-macros names no shrinker for {shrinker:?}"
        );
    }
    let mutations = option_table("MUTATIONS");
    for row in &mutations {
        let mutation = Mutation::from_name(&row[0])
            .unwrap_or_else(|| panic!("Mutation::from_name({:?}) is None", row[0]));
        assert_eq!(format!("{mutation:?}"), row[1], "mutation = {:?}", row[0]);
    }
    let _every = |m: Mutation| match m {
        Mutation::Choices | Mutation::Values | Mutation::Both => (),
    };
    for mutation in [Mutation::Choices, Mutation::Values, Mutation::Both] {
        assert!(
            mutations
                .iter()
                .any(|row| row[1] == format!("{mutation:?}")),
            "pbt-macros names no mutation for {mutation:?}"
        );
    }
    // Each runner name is a function that pbt-runners' root re-exports.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/pbt-runners/src/lib.rs");
    let runners_lib = std::fs::read_to_string(path).expect("pbt-runners/src/lib.rs");
    let exported: HashSet<&str> = runners_lib
        .lines()
        .filter_map(|line| line.trim().strip_prefix("pub use "))
        .flat_map(|stmt| {
            let stmt = stmt.trim_end_matches(';');
            match stmt.split_once('{') {
                Some((_, list)) => list.trim_end_matches('}').split(',').collect(),
                None => vec![stmt.rsplit("::").next().unwrap_or(stmt)],
            }
        })
        .map(str::trim)
        .collect();
    let runners = option_table("RUNNERS");
    assert!(!runners.is_empty());
    for row in &runners {
        assert!(
            exported.contains(row[0].as_str()),
            "runner = {} is not a runner of pbt::runners",
            row[0]
        );
    }
}

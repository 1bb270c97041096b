//! Draws inside the test: a `Data` variable (`data: &mut Data` in a
//! `#[property_test]`, `forall data: Data` in `property!`) draws as the
//! check goes, and its draws are part of the test's choice sequence: the
//! integrated shrinker shrinks them, a saved case and a choice sequence
//! replay them, the fuzzing runner mutates them.

use pbt::generators::{int, vec};
use pbt::prelude::*;
use pbt::runners::components::{CaseSeed, DynProperty, Found, Tested, Watch};
use pbt::runners::{fuzz, generational, integrated, Mutation, Regressions, Shrinker};
use std::path::PathBuf;

fn config() -> Config {
    Config::default()
        .ignore_env()
        .seed(7)
        .regressions(Regressions::Off)
}

/// Draw `n`, then up to ten numbers up to `n`: fails when they sum to 50
/// or more. Its smallest failure is `n = 50` and one `50`.
fn sums() -> impl Property + Sync {
    property! {
        forall data: Data;
        check {
            let n = data.draw(int(0..=1000i64));
            let v = data.draw(vec(int(0..=n), 0..=10));
            v.iter().sum::<i64>() < 50
        }
    }
}

const SMALLEST: &str = "draw 1: 50; draw 2: [50]";

#[test]
fn a_failure_found_through_draws_shrinks_to_the_smallest() {
    let report = generational(&sums(), config());
    let failure = report.failure.as_ref().expect("fails");
    assert_eq!(failure.counterexample[0].name, "data");
    assert_eq!(failure.counterexample[0].value, SMALLEST, "{report}");
    assert!(!failure.flaky, "{report}");
    // The report shows the shrunk run's draws, and the input as found.
    let shown = report.to_string();
    assert!(shown.contains(&format!("data = {SMALLEST}")), "{shown}");
    assert!(shown.contains("first found as: data = draw 1: "), "{shown}");
}

#[test]
fn the_integrated_shrinker_alone_reaches_it_too() {
    let report = integrated(&sums(), config());
    assert_eq!(report.failure.unwrap().counterexample[0].value, SMALLEST);
}

#[test]
fn the_external_shrinker_says_it_leaves_the_draws_as_found() {
    let report = generational(&sums(), config().shrinker(Shrinker::External));
    let failure = report.failure.as_ref().expect("fails");
    assert!(!failure.flaky, "{report}");
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("the draws of the `Data` are as found")),
        "{report}"
    );
}

#[test]
fn draws_mix_with_generated_variables_and_read_them() {
    // A variable generated before the check, and draws that depend on it
    // and on each other; labels name draws in the report.
    let prop = property! {
        forall len: usize, #[with = int(1..=5usize)];
        forall data: Data;
        check {
            let i = data.draw_named("i", int(0..len));
            let xs = data.draw_named("xs", vec(int(0..=100u32), len..=len));
            xs[i] < 90
        }
    };
    let report = generational(&prop, config().cases(2000));
    let failure = report.failure.expect("fails");
    assert_eq!(failure.counterexample[0].value, "1");
    assert_eq!(failure.counterexample[1].value, "i: 0; xs: [90]");
}

#[test]
fn a_staged_generator_draws_as_its_runtime_twin() {
    let staged = pbt::generator!(vec(int(0..10u8), 0..=4));
    let runtime = vec(int(0..10u8), 0..=4);
    for seed in 0..50 {
        let (a, b) = (
            pbt::Data::standalone(pbt::Rng::from_seed(seed), 10),
            pbt::Data::standalone(pbt::Rng::from_seed(seed), 10),
        );
        assert_eq!(a.draw(&staged), b.draw(&runtime));
    }
}

#[pbt::property_test(config = Config::default().regressions(Regressions::Off))]
fn draws_stay_in_their_generators_range(#[with = int(1..=20u8)] bound: u8, data: &mut Data) {
    let k = data.draw(int(0..bound));
    assert!(k < bound);
    let xs = data.draw_named("xs", pbt::generator!(vec(int(0..10u8), 0..=3)));
    assert!(xs.len() <= 3 && xs.iter().all(|&x| x < 10));
}

#[pbt::property_test(config = Config::default().seed(7).regressions(Regressions::Off))]
#[should_panic(expected = "data = draw 1: 50; draw 2: [50]")]
fn a_property_test_reports_its_shrunk_draws(data: &mut Data) {
    let n = data.draw(int(0..=1000i64));
    let v = data.draw(vec(int(0..=n), 0..=10));
    assert!(v.iter().sum::<i64>() < 50);
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pbt-data-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_saved_case_replays_the_same_draws() {
    let dir = scratch("saved");
    let path = dir.join("sums.pbt-regressions");
    let config = || config().regressions(Regressions::File(path.clone()));
    let first = generational(&sums(), config());
    let found = first.failure.expect("fails");
    assert_eq!(found.counterexample[0].value, SMALLEST);
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.lines().any(|l| l.starts_with("cx ")), "{saved}");
    // Another seed: the saved case is replayed first, with the same draws.
    let again = generational(&sums(), config().seed(99));
    let replayed = again.failure.expect("fails again");
    assert!(replayed.replayed_from.is_some(), "replayed from the file");
    assert_eq!(replayed.counterexample[0].value, SMALLEST);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_traced_input_has_the_checks_choices_and_they_replay() {
    let prop = sums();
    let prop: &dyn DynProperty = &prop;
    let case = Found::Case(CaseSeed { seed: 3, size: 10 });
    let traced = prop.trace_unwatched(&case, 1 << 20).unwrap();
    // No variable is generated: every choice is the check's.
    assert!(!traced.choices.is_empty());
    assert_eq!(traced.choices.len(), traced.bounds.len());
    assert_eq!(traced.bounds[0], 1000);
    // The choices replay the same draws, and edited ones other draws.
    let watch = Watch::new(None);
    let replayed = Found::Choices {
        choices: traced.choices.clone(),
        size: 10,
    };
    let again = prop.trace_unwatched(&replayed, 1 << 20).unwrap();
    assert_eq!(
        prop.print_any(&*again.inputs),
        prop.print_any(&*traced.inputs)
    );
    let smallest = Found::Choices {
        choices: vec![50, 1, 50],
        size: 10,
    };
    assert!(matches!(
        prop.test_found(&smallest, &watch),
        Tested::Failed(_)
    ));
    let passing = Found::Choices {
        choices: vec![49, 1, 49],
        size: 10,
    };
    assert!(matches!(prop.test_found(&passing, &watch), Tested::Passed));
}

#[test]
fn the_fuzzing_runner_mutating_choices_finds_and_shrinks_it() {
    let report = fuzz(&sums(), config().mutation(Mutation::Choices).cases(2000));
    let failure = report.failure.expect("fails");
    assert_eq!(failure.counterexample[0].value, SMALLEST);
}

/// A type of one's own called `Data` is a type like any other: taken by
/// value, annotated, it is no `pbt::Data` mistake.
mod own_type {
    use pbt::prelude::*;

    #[derive(Clone, Debug, Arbitrary)]
    pub struct Data {
        pub bytes: Vec<u8>,
    }

    #[pbt::property_test(config = Config::default().regressions(pbt::runners::Regressions::Off))]
    fn an_own_data_is_generated_as_usual(data: Data, #[print = |d| format!("{d:?}")] again: Data) {
        assert!(data.bytes.len() < 1000 && again.bytes.len() < 1000);
    }
}

#[test]
fn a_fuzz_run_mutating_values_reports_a_failure_that_replays() {
    // `xs` mutates by value (its type's `Mutate`); a `Data` picked for
    // mutation is drawn afresh from the mutation's seed.
    let prop = property! {
        forall xs: Vec<u8>;
        forall data: Data;
        check {
            let i = data.draw(int(0..=xs.len()));
            let k = data.draw(int(0..=255u8));
            i < 3 || xs.get(i - 1).is_none_or(|&x| x != k)
        }
    };
    let report = fuzz(&prop, config().mutation(Mutation::Values).cases(5000));
    let failure = report.failure.as_ref().expect("fails");
    assert!(!failure.flaky, "{report}");
    assert_eq!(
        failure.counterexample[1].value, "draw 1: 3; draw 2: 0",
        "{report}"
    );
}

#[test]
fn the_parallel_runner_shrinks_draws_too() {
    let report = pbt::runners::parallel(&sums(), config());
    assert_eq!(report.failure.unwrap().counterexample[0].value, SMALLEST);
}

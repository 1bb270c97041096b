//! Feedback-guided runners: the seed pools behave as *Programmable Property-Based Testing*
//! §6.3.1 describes; the fuzzing, targeted and generalized runners find what
//! generation does not; automatic precondition targeting raises the accept
//! rate.

use pbt::feedback::{cover, observe, target};
use pbt::prelude::*;
use pbt::runners::components::seed_pool::{Directive, Energy, Pool, Seed, SeedPool};
use pbt::runners::components::Found;
use pbt::runners::{fuzz, generalized, generational, targeted, Mutation, Regressions};
use std::collections::HashSet;

fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

fn seed(feedback: f64) -> Seed {
    Seed {
        inputs: Box::new(feedback),
        found: Found::Choices {
            choices: vec![feedback as u64],
            size: 0,
        },
        choices: vec![feedback as u64],
        bounds: vec![u64::MAX],
        size: 0,
        feedback,
        energy: 0,
    }
}

/// The feedback of the seed the pool would mutate next, if any.
fn next(pool: &mut dyn SeedPool) -> Option<f64> {
    match pool.sample() {
        Directive::Generate => None,
        Directive::Mutate(s) => Some(s.feedback),
    }
}

#[test]
fn queues_mutate_in_order_and_retire_spent_seeds() {
    let mut fifo = Pool::FifoQueue(Energy::Fixed(2)).build();
    assert_eq!(next(&mut *fifo), None, "an empty pool generates");
    fifo.invest(seed(1.0));
    fifo.invest(seed(2.0));
    assert_eq!(next(&mut *fifo), Some(1.0), "FIFO: the oldest first");
    fifo.revise();
    fifo.revise(); // seed 1 spent: retired
    assert_eq!(next(&mut *fifo), Some(2.0));
    assert_eq!(fifo.best().map(|s| s.feedback), Some(2.0));

    let mut filo = Pool::FiloQueue(Energy::Fixed(1)).build();
    filo.invest(seed(1.0));
    filo.invest(seed(2.0));
    assert_eq!(
        next(&mut *filo),
        Some(1.0),
        "FILO: the current seed is kept on top"
    );
    filo.revise();
    assert_eq!(next(&mut *filo), Some(2.0));

    let mut heap = Pool::Heap(Energy::Fixed(5)).build();
    for f in [3.0, 9.0, 1.0] {
        heap.invest(seed(f));
    }
    assert_eq!(
        next(&mut *heap),
        Some(9.0),
        "heap: the most interesting first"
    );
}

#[test]
fn singletons_keep_the_best_and_spend_energy_as_documented() {
    let mut climb = Pool::StaticSingleton.build();
    climb.invest(seed(1.0));
    climb.invest(seed(0.5));
    assert_eq!(
        next(&mut *climb),
        Some(1.0),
        "hill climbing keeps the better seed"
    );
    for _ in 0..1000 {
        climb.revise();
    }
    assert_eq!(
        next(&mut *climb),
        Some(1.0),
        "a static singleton never runs out"
    );

    let mut monotonic = Pool::DynamicMonotonicSingleton(Energy::Fixed(3)).build();
    monotonic.invest(seed(1.0));
    for _ in 0..3 {
        monotonic.revise();
    }
    assert_eq!(next(&mut *monotonic), None, "spent: generate");
    monotonic.invest(seed(0.5));
    assert_eq!(
        monotonic.best().map(|s| s.feedback),
        Some(1.0),
        "only a better seed replaces it"
    );

    let mut resetting = Pool::DynamicResettingSingleton(Energy::Fixed(3)).build();
    resetting.invest(seed(1.0));
    for _ in 0..3 {
        resetting.revise();
    }
    assert_eq!(next(&mut *resetting), None);
    resetting.invest(seed(0.5));
    assert_eq!(
        next(&mut *resetting),
        Some(0.5),
        "spent seeds are dropped for the next one"
    );
}

#[test]
fn doubling_energy_rewards_productive_seeds() {
    assert_eq!(Energy::Doubling(5_000).initial(), 5_000);
    assert_eq!(Energy::Doubling(5_000).reward(5_000), 10_000);
    assert_eq!(Energy::Fixed(100).reward(100), 100);
}

fn buggy(s: &[u8]) -> bool {
    if s.first() == Some(&b'b') {
        cover(1);
        if s.get(1) == Some(&b'u') {
            cover(2);
            if s.get(2) == Some(&b'g') {
                return false;
            }
        }
    }
    true
}

#[test]
fn fuzzing_finds_the_nested_branch_bug_that_generation_misses() {
    let prop = property! {
        forall s: Vec<u8>, #[gen = vec(int(0..=255u8), 0..8)];
        check buggy(&s)
    };
    let budget = || quiet().cases(300_000).seed(3);
    assert!(generational(&prop, budget()).passed());
    let report = fuzz(&prop, budget());
    let failure = report.failure.expect("the fuzzer reaches b-u-g");
    assert_eq!(failure.counterexample[0].value, "[98, 117, 103]");
}

#[test]
fn a_failing_mutant_is_saved_as_choices_and_replayed() {
    let dir = std::env::temp_dir().join(format!("pbt-feedback-{}", std::process::id()));
    let file = dir.join("fuzz.pbt-regressions");
    let prop = property! {
        forall s: Vec<u8>, #[gen = vec(int(0..=255u8), 0..8)];
        check buggy(&s)
    };
    let config = || quiet().regressions(Regressions::File(file.clone()));
    let found = fuzz(&prop, config().cases(300_000).seed(3));
    assert!(found.failure.expect("found").choices.is_some());
    assert!(std::fs::read_to_string(&file).unwrap().contains("\ncx "));
    let replayed = generational(&prop, config().cases(1).seed(99));
    assert_eq!(
        replayed.failure.expect("replayed first").counterexample[0].value,
        "[98, 117, 103]"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn targeted_search_climbs_to_a_rare_failure() {
    let prop = property! {
        forall x: u32, #[gen = int(0..1_000_000u32)];
        check {
            target(-(f64::from(x) - 777_777.0).abs());
            x.abs_diff(777_777) > 2
        }
    };
    assert!(generational(&prop, quiet().cases(20_000).seed(5)).passed());
    let report = targeted(&prop, quiet().cases(20_000).seed(5));
    assert!(!report.passed(), "{report}");
}

#[test]
fn generalized_targeting_folds_observations_into_a_state() {
    let prop = property! {
        forall s: Vec<u8>, #[gen = vec(int(0..=255u8), 0..8)];
        check {
            let depth = s.iter().zip(b"bug").take_while(|(a, b)| a == b).count();
            observe(depth);
            depth < 3
        }
    };
    let report = generalized(
        &prop,
        quiet().cases(300_000).seed(3),
        HashSet::new(),
        |seen: &mut HashSet<usize>, d: &usize| seen.insert(*d),
    );
    assert!(!report.passed(), "{report}");
}

#[test]
fn targeting_preconditions_raises_the_accept_rate() {
    let prop = property! {
        forall a: i64, #[gen = int(0..1000i64)];
        forall b: i64, #[gen = int(0..1000i64)];
        forall c: i64, #[gen = int(0..1000i64)];
        implies a + b < c && c - a < 300;
        check a + b < c
    };
    let run = |auto| {
        generational(
            &prop,
            quiet()
                .cases(500)
                .seed(11)
                .max_discard_ratio(100)
                .auto_target(auto),
        )
    };
    let (plain, targeted) = (run(false), run(true));
    assert!(plain.passed() && targeted.passed());
    assert!(
        targeted.discards * 2 < plain.discards,
        "discards: targeted {}, plain {}",
        targeted.discards,
        plain.discards
    );
    assert!(targeted.notes.iter().any(|n| n.contains("targeted them")));
}

#[property_test(runner = targeted, cases = 200)]
fn feedback_runners_are_selectable_by_name(#[gen = int(0..100u32)] x: u32) -> bool {
    x < 100
}

#[property_test(runner = fuzz, cases = 200)]
fn fuzz_is_selectable_by_name(xs: Vec<u8>) -> bool {
    xs.len() <= 100
}

/// Insertion sort's comparisons.
fn comparisons(xs: &[u16]) -> u64 {
    let mut ys = xs.to_vec();
    let mut count = 0;
    for i in 1..ys.len() {
        let mut j = i;
        while j > 0 {
            count += 1;
            if ys[j - 1] <= ys[j] {
                break;
            }
            ys.swap(j - 1, j);
            j -= 1;
        }
    }
    count
}

/// `targeted` without a regressions file (the test below fails on purpose)
/// and with little shrinking.
fn quiet_targeted<P: Property + Sync>(prop: &P, config: Config) -> pbt::runners::Report {
    targeted(prop, config.regressions(Regressions::Off).max_shrinks(10))
}

/// `#[target = …]` computes the value to maximise from the inputs alone: the
/// check does not call `target`.
#[test]
fn a_target_annotation_steers_the_targeted_runner() {
    let prop = property! {
        forall xs: Vec<u16>, #[gen = vec(int(0..1000u16), 30..=30)], #[target = comparisons(xs) as f64];
        check comparisons(xs) <= 420
    };
    assert!(generational(&prop, quiet().cases(3_000).seed(4)).passed());
    // Shrinking 30 sorted-or-not values is slow in a debug build, and not
    // what this test is about.
    let report = targeted(&prop, quiet().cases(3_000).seed(4).max_shrinks(10));
    assert!(!report.passed(), "{report}");
    assert!(prop
        .structure()
        .nodes
        .iter()
        .any(|n| matches!(n, pbt::dbas::NodeView::Target)));
}

#[property_test(runner = quiet_targeted, cases = 3_000)]
#[should_panic(expected = "property failed")]
fn target_annotations_work_on_parameters(
    #[gen = vec(int(0..1000u16), 30..=30)]
    #[target = comparisons(&xs) as f64]
    xs: Vec<u16>,
) -> bool {
    comparisons(&xs) <= 420
}

/// A stack machine: the bug needs the stack to start with "bug".
#[derive(Clone, Debug, Arbitrary, Mutate)]
enum Op {
    Push(u8),
    Pop,
    Clear,
}

fn machine(ops: &[Op]) -> bool {
    let mut stack = Vec::new();
    for op in ops {
        match op {
            Op::Push(x) => stack.push(*x),
            Op::Pop => {
                stack.pop();
            }
            Op::Clear => stack.clear(),
        }
    }
    buggy(&stack)
}

/// A type generated by `Arbitrary` and nothing else (no `Mutate`).
#[derive(Clone, Debug, Arbitrary)]
struct Plain(u8);

#[test]
fn variables_generated_by_type_mutate_by_their_types_mutator() {
    use pbt::dbas::NodeView;
    let prop = property! {
        forall ops: Vec<Op>;
        forall plain: Plain;
        forall n: u8, #[gen = int(0..10u8)];
        forall m: u8, #[mutate = |x: &u8, _, _| x.wrapping_add(1)];
        check { let _ = (ops, plain, n, m); true }
    };
    let by_value: Vec<bool> = prop
        .structure()
        .variables()
        .map(|v| matches!(v, NodeView::Forall { by_value: true, .. }))
        .collect();
    // Derived `Mutate`; no `Mutate` (regenerated); a generator (mutated
    // through it); a `#[mutate]` annotation.
    assert_eq!(by_value, [true, false, false, true]);
    assert!(prop.structure().mutates_by_value());
}

#[test]
fn fuzzing_by_value_finds_the_bug_and_saves_the_mutant_for_replay() {
    let dir = std::env::temp_dir().join(format!("pbt-feedback-values-{}", std::process::id()));
    let file = dir.join("fuzz.pbt-regressions");
    let prop = property! {
        forall ops: Vec<Op>;
        check machine(&ops)
    };
    let config = || quiet().regressions(Regressions::File(file.clone()));
    let report = fuzz(
        &prop,
        config().cases(1_000_000).seed(7).mutation(Mutation::Values),
    );
    let failure = report
        .failure
        .clone()
        .unwrap_or_else(|| panic!("value mutation reaches b-u-g: {report}"));
    assert!(!failure.mutations.is_empty(), "{report}");
    eprintln!("{report}");
    assert_eq!(
        failure.counterexample[0].value,
        "[Push(98), Push(117), Push(103)]"
    );
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.contains("\ncm "), "{saved}");
    // The shrunk input joins it: the external shrinker's steps from the
    // mutant.
    assert!(saved.contains("\ncs ") && saved.contains(" cm "), "{saved}");
    // The next run, by any runner, replays the test's newest saved case
    // first: the shrunk one (its steps from the mutant), which fails as is.
    let replayed = generational(&prop, config().cases(1).seed(99));
    assert_eq!(replayed.replayed, 2, "{replayed}");
    let again = replayed.failure.expect("the saved mutant still fails");
    assert_eq!(again.original, failure.counterexample);
    assert_eq!(again.counterexample, failure.counterexample);
    // The fuzzer itself replays saved inputs before searching, whatever its
    // seed: the saved mutant fails before any fresh test (saved cases do
    // not count as tests).
    let refuzzed = fuzz(&prop, config().cases(1_000_000).seed(7));
    assert_eq!((refuzzed.replayed, refuzzed.tests), (2, 0), "{refuzzed}");
    let again = refuzzed.failure.expect("the fuzzer replays the mutant");
    assert_eq!(again.original, failure.counterexample);
    let targeted = targeted(&prop, config().seed(7));
    assert_eq!((targeted.replayed, targeted.tests), (2, 0), "{targeted}");
    assert!(!targeted.passed(), "{targeted}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[property_test(runner = fuzz, mutation = "values", cases = 2_000)]
fn mutation_is_an_option_of_property_test(ops: Vec<Op>) -> bool {
    ops.len() < 10_000
}

/// Once hill climbing on a precondition reaches a valid input, every valid
/// input is as good as another: the climber walks among them instead of
/// mutating its first valid input for ever. Here the valid inputs are the 64
/// triples below 4. A climber that stays on its first valid triple tests
/// only those its mutations reach from there (18 to 34 of them on these
/// seeds) and never reached a triple of 3s; walking, it tests 48 to 59 and
/// finds `[3, 3, 3]` on about half the seeds.
#[test]
fn targeted_search_walks_among_valid_inputs_once_the_precondition_holds() {
    use std::sync::Mutex;
    static TESTED: Mutex<Option<HashSet<Vec<u8>>>> = Mutex::new(None);
    let prop = property! {
        forall xs: Vec<u8>, #[gen = vec(int(0..=255u8), 3..=3)];
        implies xs.iter().all(|&x| x < 4);
        check {
            TESTED.lock().unwrap().get_or_insert_with(HashSet::new).insert(xs.clone());
            *xs != [3, 3, 3]
        }
    };
    let mut found = 0;
    for s in 0..10u64 {
        *TESTED.lock().unwrap() = None;
        found +=
            usize::from(!targeted(&prop, quiet().cases(20_000).seed(s).max_shrinks(10)).passed());
        let tested = TESTED.lock().unwrap().take().map_or(0, |t| t.len());
        assert!(
            tested >= 30,
            "seed {s}: {tested} of the 64 valid triples tested"
        );
    }
    assert!(found >= 3, "[3, 3, 3] found on {found} of 10 seeds");
}

/// A failure that needs a large size: hill climbing on a precondition that
/// every input satisfies walks a plateau. Before, the climber's only seed
/// was the first input (size 0, so `n = 0`) and its mutants replayed at that
/// size, where `n` can only be 0: it walked among zeros for ever and passed
/// every seed below. Mutants replayed at other sizes of the schedule (and
/// restarts from fresh inputs) reach the large `n`.
#[test]
fn targeted_search_reaches_failures_that_need_a_large_size() {
    let prop = property! {
        forall n: usize, #[gen = sized(|s| int(0..=s))];
        implies n <= 1_000;
        check n < 90
    };
    for s in 0..5u64 {
        let report = targeted(&prop, quiet().cases(20_000).seed(s).max_shrinks(0));
        assert!(!report.passed(), "seed {s}: {report}");
    }
}

/// Hill climbing with restarts drops a seed that has gone `restart`
/// mutants without a strictly better input (a plateau walk is no
/// improvement), then generates; a better input resets the count.
#[test]
fn hill_climbing_restarts_after_a_stall() {
    let mut climb = Pool::HillClimbing { restart: 3 }.build();
    assert_eq!(next(&mut *climb), None, "an empty pool generates");
    climb.invest(seed(1.0));
    for _ in 0..2 {
        assert_eq!(next(&mut *climb), Some(1.0));
        climb.invest(seed(1.0)); // a sideways step: walked, not an improvement
    }
    assert_eq!(next(&mut *climb), Some(1.0));
    climb.revise();
    assert_eq!(
        next(&mut *climb),
        None,
        "three mutants without a better one: restart"
    );
    climb.invest(seed(0.5));
    assert_eq!(
        next(&mut *climb),
        Some(0.5),
        "the climb starts again from the fresh input"
    );
    climb.invest(seed(0.7));
    climb.revise();
    assert_eq!(next(&mut *climb), Some(0.7));
    climb.invest(seed(0.9)); // better: the count starts again
    assert_eq!(next(&mut *climb), Some(0.9));
    assert_eq!(next(&mut *climb), Some(0.9));
    assert_eq!(next(&mut *climb), Some(0.9));
    assert_eq!(next(&mut *climb), None);
}

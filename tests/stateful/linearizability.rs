//! Concurrent (linearizability) testing: a sequential prefix, then a
//! command list per thread run at once; the run passes when some order of
//! the threads' commands that keeps real-time order is explained by the
//! model.

use super::concurrent_systems::{Counter, CounterCmd, MapCmd, Registry};
use super::{config, printed};
use pbt::generators::Gen;
use pbt::runners::Shrinker;
use pbt::stateful::{self, ConcurrentMachine, ConcurrentProgram, StateMachine};

const RACY: Counter = Counter { racy: true };
const LOCKED: Counter = Counter { racy: false };

fn assert_race_found(report: &pbt::runners::Report) -> String {
    let failure = report
        .failure
        .as_ref()
        .unwrap_or_else(|| panic!("the race is not found: {report}"));
    assert!(
        failure
            .reason
            .contains("no order of the concurrent commands"),
        "{report}"
    );
    printed(report)
}

#[test]
fn sequential_testing_misses_the_planted_race() {
    let report = pbt::runners::generational(&RACY.property(), config(1).cases(500));
    assert!(report.passed(), "{report}");
}

/// The shrunk program is the smallest race: nothing before, one
/// increment on each thread (each returns 1; no order explains that).
#[test]
fn concurrent_testing_finds_the_planted_race_and_shrinks_it() {
    let report = pbt::runners::generational(&RACY.concurrent_property(), config(1));
    let shown = assert_race_found(&report);
    assert!(
        shown.starts_with("\n  prefix:\n  thread 1:\n    1. Incr\n  thread 2:\n    1. Incr\n"),
        "{report}"
    );
    let reproducer = "    #[allow(unused_imports)]
    use CounterCmd::*;
    use pbt::stateful::{run_concurrent, ConcurrentProgram, ConcurrentVerdict};
    let machine = Counter { racy: true };
    let program = ConcurrentProgram::from_commands(
        vec![],
        vec![vec![Incr], vec![Incr]],
    );
    for _ in 0..1000 {
        assert_eq!(run_concurrent(&machine, &program), ConcurrentVerdict::Linearizable);
    }
";
    assert!(shown.contains(reproducer), "{report}");
}

/// The reproducer printed above, pasted: it fails as the report said.
#[test]
#[should_panic(expected = "NotLinearizable")]
fn the_pasted_concurrent_reproducer_fails() {
    use pbt::stateful::{run_concurrent, ConcurrentProgram, ConcurrentVerdict};
    #[allow(unused_imports)]
    use CounterCmd::*;
    let machine = Counter { racy: true };
    let program = ConcurrentProgram::from_commands(vec![], vec![vec![Incr], vec![Incr]]);
    for _ in 0..1000 {
        assert_eq!(
            run_concurrent(&machine, &program),
            ConcurrentVerdict::Linearizable
        );
    }
}

/// The same program on the locked counter: every run is linearizable.
#[test]
fn the_concurrent_reproducer_passes_on_the_locked_counter() {
    use pbt::stateful::{run_concurrent, ConcurrentProgram, ConcurrentVerdict};
    let program =
        ConcurrentProgram::from_commands(vec![CounterCmd::Incr], vec![vec![CounterCmd::Incr]; 2]);
    for _ in 0..200 {
        assert_eq!(
            run_concurrent(&LOCKED, &program),
            ConcurrentVerdict::Linearizable
        );
    }
}

#[test]
fn a_locked_counter_is_linearizable() {
    let report = pbt::runners::generational(&LOCKED.concurrent_property(), config(2).cases(300));
    assert!(report.passed(), "{report}");
}

#[test]
fn a_check_then_act_race_is_found_and_its_locked_twin_passes() {
    let racy = Registry { racy: true }.concurrent_property();
    let report = pbt::runners::generational(&racy, config(3));
    let shown = assert_race_found(&report);
    assert!(shown.contains("PutIfAbsent"), "{report}");
    let locked = Registry { racy: false }.concurrent_property();
    let report = pbt::runners::generational(&locked, config(3).cases(300));
    assert!(report.passed(), "{report}");
}

#[test]
fn every_runner_finds_the_race() {
    let prop = RACY.concurrent_property();
    let reports = [
        pbt::runners::integrated(&prop, config(4)),
        pbt::runners::integrated(&prop, config(4).shrinker(Shrinker::Both)),
        pbt::runners::fuzz(&prop, config(5)),
        pbt::runners::targeted(&prop, config(6)),
        pbt::runners::parallel(&prop, config(7).workers(2)),
    ];
    for report in &reports {
        assert_race_found(report);
    }
}

/// Every generated concurrent program, and every shrink candidate, is
/// valid: in every interleaving of the threads, each `Remove(k)` meets
/// a model that holds `k`.
#[test]
fn generated_and_shrunk_concurrent_programs_are_valid() {
    let machine = Registry { racy: true };
    let programs = machine.concurrent_programs();
    let machine = programs.machine().clone();
    let mut rng = pbt::Rng::from_seed(12);
    let mut concurrent_removes = 0;
    for _ in 0..200 {
        let program: ConcurrentProgram<Registry> = programs.generate(&mut rng, 20).unwrap();
        assert!(program.is_valid(&machine), "{program:?}");
        assert!(program.threads().iter().all(|t| t.len() <= 4));
        concurrent_removes += program
            .threads()
            .iter()
            .flatten()
            .filter(|s| matches!(s.command, MapCmd::Remove(_)))
            .count();
        for candidate in programs.shrink(&program).take(300) {
            assert!(
                candidate.is_valid(&machine),
                "{candidate:?} from {program:?}"
            );
            assert!(candidate.len() <= program.len());
        }
    }
    assert!(
        concurrent_removes > 20,
        "state-dependent commands run on the threads: {concurrent_removes}"
    );
}

/// No thread removes a key another thread may remove first.
#[test]
fn a_program_with_a_contested_remove_is_invalid() {
    let machine = Registry { racy: false };
    let programs = machine.concurrent_programs();
    let mut rng = pbt::Rng::from_seed(5);
    let found = std::iter::repeat_with(|| programs.generate(&mut rng, 20).unwrap())
        .take(2_000)
        .any(|p| {
            let removes = |t: usize| {
                p.threads()[t]
                    .iter()
                    .filter_map(|s| match s.command {
                        MapCmd::Remove(k) => Some(k),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
            };
            removes(0).iter().any(|k| removes(1).contains(k))
        });
    assert!(!found, "two threads remove the same key");
}

#[test]
fn a_linearizable_run_is_explained_and_the_prefix_is_checked_sequentially() {
    let programs = LOCKED.concurrent_programs();
    let mut rng = pbt::Rng::from_seed(8);
    for _ in 0..50 {
        let program = programs.generate(&mut rng, 10).unwrap();
        assert_eq!(
            stateful::run_concurrent(&LOCKED, &program),
            stateful::ConcurrentVerdict::Linearizable
        );
        assert!(program
            .threads()
            .iter()
            .flatten()
            .all(|s| matches!(s.command, CounterCmd::Incr | CounterCmd::Get)));
    }
}

/// Real-time order: a read that starts after an increment returned must
/// see it. Reading 0 is explained only by ordering the read first, which
/// real time forbids; the same results with overlapping calls are fine.
#[test]
fn linearizability_respects_real_time_order() {
    use pbt::stateful::{linearize, Event, ProgramStep};
    let threads = vec![
        vec![ProgramStep::<Counter>::new(CounterCmd::Incr)],
        vec![ProgramStep::<Counter>::new(CounterCmd::Get)],
    ];
    let system = LOCKED.init_system();
    let event = |invoked, returned, output| Event {
        invoked,
        returned,
        output,
    };
    let stale = vec![vec![event(0, 1, 1)], vec![event(2, 3, 0)]];
    assert_eq!(linearize(&LOCKED, &0, &threads, &stale, &system), None);
    let overlapping = vec![vec![event(0, 2, 1)], vec![event(1, 3, 0)]];
    assert_eq!(
        linearize(&LOCKED, &0, &threads, &overlapping, &system),
        Some(vec![(1, 0), (0, 0)])
    );
    // Each thread's own order holds as well: a thread's second command
    // never comes before its first.
    let one_thread = vec![vec![
        ProgramStep::<Counter>::new(CounterCmd::Incr),
        ProgramStep::<Counter>::new(CounterCmd::Get),
    ]];
    let read_first = vec![vec![event(0, 1, 1), event(2, 3, 0)]];
    assert_eq!(
        linearize(&LOCKED, &0, &one_thread, &read_first, &system),
        None
    );
}

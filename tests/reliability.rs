//! Never lose a counterexample (faults inside the test process): one test per
//! scenario of `docs/reliability.md`. Every fault in user code (generator,
//! shrinker, mutator, printer, `Debug`, target, check) must end in a report
//! with the seed and a saved case; saved cases are replayed whatever
//! `cases` is; resource guards turn runaway generators into reports.
//!
//! Every test here ignores the environment (one test runs another in a
//! child process with `PBT_SEED` or `PBT_CASES` set, and checks the errors
//! they give).

use pbt::dbas::{Check, Forall, Prop};
use pbt::prelude::*;
use pbt::runners::{
    combinatorial, fuzz, generalized, generational, integrated, parallel, targeted, Mutation,
    Regressions, Shrinker,
};
use pbt::{Generated, Source};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::SeqCst};
use std::time::Duration;

#[path = "reliability/adversarial.rs"]
mod adversarial;

/// A fresh regressions file in a directory of its own.
fn temp_file(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pbt-reliability-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("cases.pbt-regressions")
}

/// A configuration saving to `file`, blind to the environment.
fn saving_to(file: &Path) -> Config {
    Config::default()
        .ignore_env()
        .seed(7)
        .regressions(Regressions::File(file.to_path_buf()))
}

/// The case lines of a regressions file.
fn saved_lines(file: &Path) -> Vec<String> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// Runs `prop` under each of the seven built-in runners, each with a fresh
/// configuration from `config`, and hands every report to `judge`.
fn each_runner<P: Property + Sync>(
    prop: &P,
    config: impl Fn(&str) -> Config,
    mut judge: impl FnMut(&str, Report),
) {
    judge("generational", generational(prop, config("generational")));
    judge("integrated", integrated(prop, config("integrated")));
    judge("parallel", parallel(prop, config("parallel").workers(2)));
    judge(
        "combinatorial",
        combinatorial(prop, config("combinatorial")),
    );
    judge("fuzz", fuzz(prop, config("fuzz")));
    judge("targeted", targeted(prop, config("targeted")));
    let update = |_: &mut (), _: &()| false;
    judge(
        "generalized",
        generalized(prop, config("generalized"), (), update),
    );
}

// ---------------------------------------------------------------------------
// 1. Save on discovery
// ---------------------------------------------------------------------------

#[test]
fn every_runner_saves_the_case_before_shrinking_it() {
    static DISCOVERED: AtomicBool = AtomicBool::new(false);
    static SAVED_WHILE_SHRINKING: AtomicBool = AtomicBool::new(false);
    static FILE: std::sync::Mutex<Option<PathBuf>> = std::sync::Mutex::new(None);
    let prop = property! {
        forall x: u32, #[gen = int(0..1000)];
        check {
            if DISCOVERED.load(SeqCst) {
                let file = FILE.lock().unwrap().clone().unwrap();
                if !saved_lines(&file).is_empty() {
                    SAVED_WHILE_SHRINKING.store(true, SeqCst);
                }
            }
            if x >= 10 {
                DISCOVERED.store(true, SeqCst);
            }
            x < 10
        }
    };
    let base = temp_file("discovery");
    each_runner(
        &prop,
        |runner| {
            let file = base.with_file_name(format!("{runner}.pbt-regressions"));
            *FILE.lock().unwrap() = Some(file.clone());
            DISCOVERED.store(false, SeqCst);
            SAVED_WHILE_SHRINKING.store(false, SeqCst);
            saving_to(&file).max_shrinks(50)
        },
        |runner, report| {
            assert!(!report.passed(), "{runner}: {report}");
            assert!(
                SAVED_WHILE_SHRINKING.load(SeqCst),
                "{runner}: the case was not in the file while shrinking"
            );
            let file = FILE.lock().unwrap().clone().unwrap();
            assert!(!saved_lines(&file).is_empty(), "{runner}: nothing saved");
        },
    );
}

#[test]
fn a_panicking_shrink_annotation_still_saves_and_reports_the_case() {
    let file = temp_file("shrink-panic");
    let prop = property! {
        forall x: u32, #[gen = int(0..1000)], #[shrink = |_: &u32| -> Vec<u32> { panic!("the shrinker broke") }];
        check x < 10
    };
    // The external shrinker is the one that calls the `#[shrink]`.
    let report = generational(&prop, saving_to(&file).shrinker(Shrinker::External));
    let failure = report.failure.clone().expect("a report, not a panic");
    assert_eq!(failure.reason, "the check returned false");
    assert!(
        report.to_string().contains("the shrinker broke"),
        "{report}"
    );
    assert!(report.to_string().contains("seed"), "{report}");
    let value: u32 = failure.counterexample[0].value.parse().unwrap();
    assert!(value >= 10);
    assert_eq!(saved_lines(&file).len(), 1, "{:?}", saved_lines(&file));
}

#[test]
fn a_panicking_print_annotation_prints_a_placeholder() {
    let file = temp_file("print-panic");
    let prop = property! {
        forall x: u32, #[gen = int(0..1000)], #[print = |_: &u32| -> String { panic!("the printer broke") }];
        forall y: u8;
        check x < 10
    };
    let report = generational(&prop, saving_to(&file));
    let failure = report.failure.clone().expect("a report, not a panic");
    assert!(
        failure.counterexample[0]
            .value
            .contains("the printer broke"),
        "{report}"
    );
    assert_eq!(failure.counterexample[1].name, "y", "{report}");
    // The case as found, and the shrunk one the integrated shrinker saves.
    assert!((1..=2).contains(&saved_lines(&file).len()));
}

/// A type whose `Debug` panics on values above 5.
#[derive(Clone, PartialEq)]
struct Touchy(u32);

impl std::fmt::Debug for Touchy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        assert!(self.0 <= 5, "Debug cannot print {}", self.0);
        write!(f, "Touchy({})", self.0)
    }
}

#[test]
fn a_panicking_debug_impl_prints_a_placeholder() {
    let file = temp_file("debug-panic");
    let prop = property! {
        forall t: Touchy, #[gen = map(int(0..1000u32), Touchy)];
        check t.0 < 10
    };
    let report = generational(&prop, saving_to(&file));
    let failure = report.failure.clone().expect("a report, not a panic");
    assert!(
        failure.counterexample[0]
            .value
            .contains("<Debug panicked: Debug cannot print"),
        "{report}"
    );
    assert!((1..=2).contains(&saved_lines(&file).len()));
}

#[test]
fn panics_in_shrink_print_and_debug_are_reports_in_every_runner() {
    let shrink = property! {
        forall x: u32, #[gen = int(0..1000)], #[shrink = |_: &u32| -> Vec<u32> { panic!("the shrinker broke") }];
        check x < 10
    };
    let print = property! {
        forall x: u32, #[gen = int(0..1000)], #[print = |_: &u32| -> String { panic!("the printer broke") }];
        check x < 10
    };
    let debug = property! {
        forall t: Touchy, #[gen = map(int(0..1000u32), Touchy)];
        check t.0 < 10
    };
    let base = temp_file("annotation-panics");
    let file_of =
        |what: &str, runner: &str| base.with_file_name(format!("{what}-{runner}.pbt-regressions"));
    let judge = |what: &str, shown: &str, runner: &str, report: &Report| {
        let failure = report
            .failure
            .clone()
            .unwrap_or_else(|| panic!("{what}, {runner}: {report}"));
        assert_eq!(
            failure.reason, "the check returned false",
            "{what}, {runner}: {report}"
        );
        // The integrated runner shrinks choices only: no `#[shrink]` runs.
        if (what, runner) != ("shrink", "integrated") {
            assert!(
                report.to_string().contains(shown),
                "{what}, {runner}: {report}"
            );
        }
        assert!(
            report.to_string().contains("seed"),
            "{what}, {runner}: {report}"
        );
        let file = file_of(what, runner);
        assert!(
            !saved_lines(&file).is_empty(),
            "{what}, {runner}: nothing saved"
        );
    };
    // The external shrinker is the one that calls `#[shrink]`.
    let external = |what: &'static str| {
        move |runner: &str| saving_to(&file_of(what, runner)).shrinker(Shrinker::External)
    };
    each_runner(&shrink, external("shrink"), |runner, report| {
        judge("shrink", "the shrinker broke", runner, &report)
    });
    each_runner(&print, external("print"), |runner, report| {
        judge(
            "print",
            "<#[print] panicked: the printer broke",
            runner,
            &report,
        )
    });
    each_runner(&debug, external("debug"), |runner, report| {
        judge(
            "debug",
            "<Debug panicked: Debug cannot print",
            runner,
            &report,
        )
    });
    // The next run replays the saved case first, whatever its seed.
    for (what, runner) in [
        ("shrink", "fuzz"),
        ("print", "parallel"),
        ("debug", "targeted"),
    ] {
        let config = external(what)(runner).seed(4321).cases(0);
        let again = match what {
            "shrink" => fuzz(&shrink, config),
            "print" => parallel(&print, config),
            _ => targeted(&debug, config),
        };
        let failure = again.failure.expect("the saved case fails again");
        assert_eq!(
            failure.replayed_from.map(|at| at.entry),
            Some(1),
            "{what}, {runner}"
        );
    }
}

#[test]
fn a_panicking_target_annotation_is_a_report() {
    let file = temp_file("target-panic");
    let prop = property! {
        forall x: u32, #[gen = int(0..100)], #[target = if x == 42 { panic!("no target for 42") } else { f64::from(x) }];
        check true
    };
    let report = targeted(&prop, saving_to(&file).cases(5_000));
    let failure = report.failure.clone().expect("a report, not a panic");
    assert!(failure.reason.contains("no target for 42"), "{report}");
    assert_eq!(failure.counterexample[0].value, "42", "{report}");
    assert_eq!(saved_lines(&file).len(), 1);
}

// ---------------------------------------------------------------------------
// 2. Faults in user code are reports, never discards
// ---------------------------------------------------------------------------

#[test]
fn a_generator_panic_is_a_failure_in_every_runner() {
    let prop = property! {
        forall x: u32, #[gen = map(int(0..10u32), |x| if x == 7 { panic!("seven is not allowed") } else { x })];
        check x < 100
    };
    let base = temp_file("generator-panic");
    each_runner(
        &prop,
        |runner| saving_to(&base.with_file_name(format!("{runner}.pbt-regressions"))),
        |runner, report| {
            let failure = report
                .failure
                .clone()
                .unwrap_or_else(|| panic!("{runner}: {report}"));
            assert!(
                failure.reason.contains("generator") && failure.reason.contains("seven"),
                "{runner}: {report}"
            );
            assert_eq!(report.discards, 0, "{runner}: a panic is not a discard");
            assert!(!failure.flaky, "{runner}: it panics every time");
            let file = base.with_file_name(format!("{runner}.pbt-regressions"));
            assert_eq!(saved_lines(&file).len(), 1, "{runner}: {report}");
        },
    );
}

#[test]
fn a_saved_generator_panic_is_replayed_first() {
    let file = temp_file("generator-panic-replay");
    let prop = property! {
        forall x: u32, #[gen = map(int(0..10u32), |x| if x == 7 { panic!("seven") } else { x })];
        check true
    };
    let first = fuzz(&prop, saving_to(&file));
    assert!(!first.passed());
    let second = fuzz(&prop, saving_to(&file).seed(12345).cases(0));
    assert!(!second.passed(), "{second}");
    assert!(second.to_string().contains("replayed from"), "{second}");
}

#[test]
fn a_panicking_mutator_is_a_failure_report() {
    let file = temp_file("mutator-panic");
    let prop = property! {
        forall x: u32, #[gen = int(0..1000)], #[mutate = |_: &u32, _: &mut dyn pbt::Source, _: usize| -> u32 { panic!("the mutator broke") }];
        check { cover(1); true }
    };
    let report = fuzz(&prop, saving_to(&file).mutation(Mutation::Values));
    let failure = report.failure.clone().expect("a report");
    assert!(failure.reason.contains("the mutator broke"), "{report}");
    assert_eq!(saved_lines(&file).len(), 1);
    // The saved mutant replays the panic.
    let again = fuzz(&prop, saving_to(&file).cases(0));
    assert!(!again.passed(), "{again}");
}

#[test]
fn shrink_candidates_that_panic_in_the_generator_are_skipped() {
    // Shrinking toward 0 passes through inputs the generator refuses (it
    // panics on values below 100): those candidates are skipped.
    let prop = property! {
        forall x: u32, #[gen = map(int(0..10_000u32), |x| { assert!(x == 0 || x >= 100, "small"); x })];
        check x < 500
    };
    for shrinker in [Shrinker::External, Shrinker::Integrated] {
        let report = generational(
            &prop,
            Config::default()
                .ignore_env()
                .regressions(Regressions::Off)
                .seed(3)
                .shrinker(shrinker),
        );
        let failure = report.failure.expect("fails");
        assert_eq!(failure.reason, "the check returned false", "{shrinker:?}");
        assert_eq!(failure.counterexample[0].value, "500", "{shrinker:?}");
    }
}

// ---------------------------------------------------------------------------
// 3. Generation and shrinking are watched
// ---------------------------------------------------------------------------

#[test]
fn a_slow_generator_fails_the_time_limit_in_the_feedback_runners() {
    let prop = property! {
        forall x: u32, #[gen = map(int(0..10u32), |x| { if x == 3 { std::thread::sleep(Duration::from_millis(300)) } x })];
        check true
    };
    let file = temp_file("slow-generator");
    let report = fuzz(
        &prop,
        saving_to(&file)
            .timeout(Duration::from_millis(50))
            .cases(200),
    );
    let failure = report
        .failure
        .clone()
        .expect("the time limit applies to generation");
    assert!(failure.reason.contains("time limit"), "{report}");
    assert!(!failure.flaky, "it is slow every time: {report}");
}

#[test]
fn shrinking_stops_at_max_shrink_time_between_candidates() {
    // Each failing run takes at least 40 ms; with 200 ms to shrink, at most
    // 200 / 40 + 1 candidates fit (fewer on a slow machine, never more).
    let prop = property! {
        forall x: u64, #[gen = int(0..1_000_000_000u64)];
        check {
            std::thread::sleep(Duration::from_millis(40));
            x < 10
        }
    };
    let report = generational(
        &prop,
        Config::default()
            .ignore_env()
            .regressions(Regressions::Off)
            .seed(1)
            // One check per candidate: the integrated shrinker also counts
            // replays it rejects without running the check.
            .shrinker(Shrinker::External)
            .max_shrink_time(Duration::from_millis(200)),
    );
    assert!(!report.passed());
    assert!(
        report.shrink_attempts <= 6,
        "{} candidates tried",
        report.shrink_attempts
    );
    assert!(report.to_string().contains("max_shrink_time"), "{report}");
}

#[test]
fn every_shrinker_stops_at_max_shrink_time_counting_checks() {
    // The checks run after the failure is found: each takes at least 40 ms,
    // so within 200 ms of shrinking at most 200 / 40 + 1 fit, whichever
    // shrinker (and both in turn share the one limit), plus the one re-run
    // that tells a flaky failure. No clock is read by the test.
    static FOUND: AtomicBool = AtomicBool::new(false);
    static AFTER: AtomicU64 = AtomicU64::new(0);
    let prop = property! {
        forall x: u64, #[gen = int(0..1_000_000_000u64)];
        check {
            if FOUND.load(SeqCst) {
                AFTER.fetch_add(1, SeqCst);
                std::thread::sleep(Duration::from_millis(40));
            }
            let fails = x >= 10;
            FOUND.fetch_or(fails, SeqCst);
            !fails
        }
    };
    for shrinker in [Shrinker::External, Shrinker::Integrated, Shrinker::Both] {
        FOUND.store(false, SeqCst);
        AFTER.store(0, SeqCst);
        let report = generational(
            &prop,
            Config::default()
                .ignore_env()
                .regressions(Regressions::Off)
                .seed(1)
                .shrinker(shrinker)
                .max_shrink_time(Duration::from_millis(200)),
        );
        assert!(!report.passed());
        let checks = AFTER.load(SeqCst);
        assert!(
            checks <= 200 / 40 + 1 + 1,
            "{shrinker:?}: {checks} checks: {report}"
        );
        assert!(
            report.to_string().contains("max_shrink_time"),
            "{shrinker:?}: {report}"
        );
    }
}

// ---------------------------------------------------------------------------
// 4. Replayed choice sequences are bounded
// ---------------------------------------------------------------------------

/// A hand-written generator that retries until it draws a non-zero choice:
/// fed zeros forever, it would never return.
struct NonZero;

impl Gen for NonZero {
    type Value = u64;
    fn generate<S: Source + ?Sized>(&self, src: &mut S, _size: usize) -> Generated<u64> {
        loop {
            let x = src.draw(9);
            if x != 0 {
                return Ok(x);
            }
        }
    }
}

#[test]
fn a_replay_that_runs_out_of_choices_is_rejected_not_spun_forever() {
    let prop = Prop::new(
        Forall::new("x", "u64", Check::new(|&(x, ()): &(u64, ())| x < 5)).gen(|_: &()| NonZero),
    );
    for shrinker in [Shrinker::External, Shrinker::Integrated, Shrinker::Both] {
        let report = generational(
            &prop,
            Config::default()
                .ignore_env()
                .regressions(Regressions::Off)
                .seed(2)
                .shrinker(shrinker),
        );
        let failure = report.failure.expect("fails");
        assert_eq!(failure.counterexample[0].value, "5", "{shrinker:?}");
    }
}

// ---------------------------------------------------------------------------
// 5. Shrink candidates are consumed lazily
// ---------------------------------------------------------------------------

#[test]
fn a_lazy_shrink_annotation_is_not_collected_up_front() {
    // `0..x` for x near 4e9 is 16 GB if collected; taken lazily, the
    // shrinker stops at the first failing candidate.
    let prop = property! {
        forall x: u32, #[gen = int(4_000_000_000..=u32::MAX)], #[shrink = |x: &u32| 0..*x];
        check x < 10
    };
    let report = generational(
        &prop,
        Config::default()
            .ignore_env()
            .regressions(Regressions::Off)
            .seed(5),
    );
    assert_eq!(report.failure.expect("fails").counterexample[0].value, "10");
}

// ---------------------------------------------------------------------------
// 6, 7. Saved cases: all replayed, not counted, correct replay hint
// ---------------------------------------------------------------------------

/// Finds the seed of a case that makes `prop` fail and returns its line.
fn failing_line<P: Property + Sync>(prop: &P, test: &str) -> String {
    let file = temp_file(test);
    let report = generational(prop, saving_to(&file).cases(100_000).max_shrinks(0));
    assert!(!report.passed(), "{report}");
    let lines = saved_lines(&file);
    lines[0].clone()
}

/// `passing` lines of cases that pass, then `failing`.
fn write_saved(file: &Path, passing: u64, failing: &str) {
    let mut text = String::new();
    for seed in 0..passing {
        text.push_str(&format!("cc {:#x} 0 # t: passes\n", 1_000_000 + seed));
    }
    text.push_str(failing);
    text.push('\n');
    std::fs::write(file, text).unwrap();
}

#[test]
fn every_saved_case_is_replayed_whatever_cases_is() {
    let prop = property! {
        forall x: u32, #[gen = int(0..100_000u32)];
        check x != 4242 && x % 1000 != 999
    };
    let failing = failing_line(&prop, "saved-source");
    let file = temp_file("saved-all");
    write_saved(&file, 10, &failing);
    for cases in [0, 5] {
        each_runner(
            &prop,
            // No shrinking: a shrunk case saved by one runner would be
            // one more to replay for the next.
            |_| saving_to(&file).cases(cases).seed(99).max_shrinks(0),
            |runner, report| {
                assert!(!report.passed(), "{runner}, cases {cases}: {report}");
                assert_eq!(report.replayed, 11, "{runner}, cases {cases}");
            },
        );
    }
}

#[test]
fn saved_cases_do_not_count_toward_cases() {
    let prop = property! {
        forall x: u32, #[gen = int(0..100u32)];
        check x < 1000
    };
    let file = temp_file("saved-not-counted");
    write_saved(&file, 150, "cc 0x2 0 # t: passes too");
    each_runner(
        &prop,
        |_| saving_to(&file).cases(20),
        |runner, report| {
            assert!(report.passed(), "{runner}: {report}");
            assert_eq!(report.replayed, 151, "{runner}");
            assert_eq!(report.tests, 20, "{runner}: fresh tests");
        },
    );
}

#[test]
fn the_replay_hint_names_the_file_after_a_replayed_case() {
    let prop = property! {
        forall x: u32, #[gen = int(0..100_000u32)];
        check x % 1000 != 999
    };
    let failing = failing_line(&prop, "hint-source");
    let file = temp_file("hint");
    write_saved(&file, 3, &failing);
    let report = generational(&prop, saving_to(&file).cases(0).seed(0xabc));
    let text = report.to_string();
    let failure = report.failure.clone().expect("replayed");
    let saved = failure.replayed_from.clone().expect("from the file");
    // The test's own case comes before the lines that name no test.
    assert_eq!(saved.entry, 1, "{text}");
    assert!(text.contains("replayed from"), "{text}");
    assert!(
        text.contains("property failed on its saved case 1 (run seed 0xabc)"),
        "{text}"
    );
    assert!(
        !text.contains("PBT_SEED=0xabc"),
        "a seed that passes without the file: {text}"
    );
}

// ---------------------------------------------------------------------------
// 8, 9. Flaky failures; panic messages belong to their input
// ---------------------------------------------------------------------------

#[test]
fn a_failure_that_passes_when_rerun_is_reported_as_flaky() {
    static FAILED: AtomicBool = AtomicBool::new(false);
    let prop = property! {
        forall x: u32;
        check x < 50 || FAILED.swap(true, SeqCst)
    };
    let report = generational(
        &prop,
        Config::default()
            .ignore_env()
            .regressions(Regressions::Off)
            .seed(4),
    );
    let failure = report.failure.clone().expect("fails once");
    assert!(failure.flaky, "{report}");
    assert!(report.to_string().contains("flaky"), "{report}");
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    assert_eq!(json["failure"]["flaky"], true);
}

#[test]
fn a_steady_failure_is_not_flaky() {
    let prop = property! {
        forall x: u32;
        check x < 50
    };
    let report = generational(
        &prop,
        Config::default()
            .ignore_env()
            .regressions(Regressions::Off)
            .seed(4),
    );
    assert!(!report.failure.expect("fails").flaky);
}

#[test]
fn a_panic_message_belongs_to_the_input_that_raised_it() {
    // Small inputs catch a panic of their own and pass; the rare large ones
    // (found after many small ones) raise a payload without a panic, so no
    // hook runs: the report must show the large input's message, not the
    // last one caught on another input.
    let prop = property! {
        forall x: u32, #[gen = int(0..1000u32)];
        check {
            if x < 500 {
                let _ = std::panic::catch_unwind(|| panic!("stale message from {x}"));
            } else if x >= 990 {
                std::panic::resume_unwind(Box::new(format!("fresh message from {x}")));
            }
            true
        }
    };
    let report = generational(
        &prop,
        Config::default()
            .ignore_env()
            .regressions(Regressions::Off)
            .seed(8)
            .cases(100_000)
            .max_shrinks(0),
    );
    let failure = report.failure.expect("fails");
    assert!(
        failure.reason.contains("fresh message from"),
        "{}",
        failure.reason
    );
}

// ---------------------------------------------------------------------------
// 10. Configuration errors and extreme values
// ---------------------------------------------------------------------------

/// Run one test of this binary again, in a child process with `vars` set
/// (the PBT_* variables of this process removed): whether it passed, and
/// its stdout and stderr. Runs read the environment once per process, and
/// the tests of a binary share it, so a test of the environment runs in a
/// child of its own.
fn rerun_with(test: &str, vars: &[(&str, &str)]) -> (bool, String) {
    let exe = std::env::current_exe().expect("the test binary");
    let mut command = std::process::Command::new(exe);
    command.args(["--exact", test, "--nocapture", "--test-threads=1"]);
    for var in ["PBT_SEED", "PBT_CASES", "PBT_STATS", "PBT_CHECK_COVERAGE"] {
        command.env_remove(var);
    }
    command.env("PBT_RELIABILITY_CHILD", "1");
    for (k, v) in vars {
        command.env(k, v);
    }
    let out = command.output().expect("the test binary runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// What [`malformed_environment_values_fail_naming_the_variable_and_value`]
/// runs in a child process: a run that reads the environment.
#[test]
fn environment_child() {
    let prop = property! { forall x: u8; check x == x };
    let mut config = Config::default().regressions(Regressions::Off);
    if std::env::var_os("PBT_RELIABILITY_CHILD").is_none() {
        config = config.ignore_env();
    }
    let report = generational(&prop, config);
    assert!(report.passed(), "{report}");
    println!("tests run: {}", report.tests);
}

#[test]
fn malformed_environment_values_fail_naming_the_variable_and_value() {
    for (var, value) in [
        ("PBT_SEED", "0xnope"),
        ("PBT_CASES", "many"),
        ("PBT_CASES", "-3"),
        ("PBT_STATS", "sometimes"),
    ] {
        let (passed, out) = rerun_with("environment_child", &[(var, value)]);
        assert!(!passed, "a malformed value is an error: {out}");
        assert!(
            out.contains(&format!("{var}=\"{value}\"")),
            "the message names the variable and the value: {out}"
        );
    }
    let (passed, out) = rerun_with("environment_child", &[("PBT_CASES", "0")]);
    assert!(passed, "{out}");
    assert!(
        out.contains("tests run: 0"),
        "PBT_CASES=0 runs saved cases only: {out}"
    );
}

#[test]
fn extreme_configuration_values_have_a_meaning() {
    let failing = property! { forall x: u32; check x < 1000 };
    let passing = property! { forall x: u8; check x == x };
    let base = || {
        Config::default()
            .ignore_env()
            .regressions(Regressions::Off)
            .seed(1)
    };
    // No overflow: the run stops at the first failure.
    assert!(!generational(&failing, base().cases(u64::MAX)).passed());
    assert!(!generational(&failing, base().max_size(usize::MAX)).passed());
    assert!(!fuzz(&failing, base().cases(u64::MAX).max_size(usize::MAX)).passed());
    // timeout(0) is no time limit.
    assert!(generational(&passing, base().timeout(Duration::ZERO)).passed());
    // workers(0) is one worker; an absurd count is clamped.
    assert_eq!(Config::default().workers(0).workers, 1);
    assert!(Config::default().workers(usize::MAX).workers <= 1024);
    assert!(parallel(&passing, base().workers(usize::MAX)).passed());
    // cases(0) runs the saved cases only.
    assert_eq!(generational(&passing, base().cases(0)).tests, 0);
}

// ---------------------------------------------------------------------------
// 11. Resource guards
// ---------------------------------------------------------------------------

/// A tree whose generator never reduces the size: two subtrees in two of
/// three draws, so it never stops growing.
#[derive(Clone, Debug)]
#[allow(dead_code)] // The subtrees are only ever built, never read.
enum Tree {
    Leaf,
    Node(Box<Tree>, Box<Tree>),
}

struct Runaway;

impl Gen for Runaway {
    type Value = Tree;
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<Tree> {
        Ok(match src.draw(2) {
            0 => Tree::Leaf,
            _ => Tree::Node(
                Box::new(self.generate(src, size)?),
                Box::new(self.generate(src, size)?),
            ),
        })
    }
}

#[test]
fn a_runaway_recursive_generator_is_a_data_too_large_report() {
    let file = temp_file("runaway");
    let prop = Prop::new(
        Forall::new("t", "Tree", Check::new(|(_, ()): &(Tree, ())| true)).gen(|_: &()| Runaway),
    );
    let report = generational(&prop, saving_to(&file).seed(1));
    let failure = report.failure.clone().expect("a report, not a crash");
    assert!(failure.reason.contains("too large"), "{report}");
    assert_eq!(saved_lines(&file).len(), 1);
}

#[test]
fn the_draw_limit_is_configurable() {
    let prop = property! {
        forall xs: Vec<u64>, #[gen = vec(int(0..10u64), 500..=500)];
        check xs.len() == 500
    };
    let base = || {
        Config::default()
            .ignore_env()
            .regressions(Regressions::Off)
            .seed(1)
    };
    assert!(generational(&prop, base()).passed());
    let report = generational(&prop, base().max_draws(100));
    let failure = report.failure.clone().expect("over the limit");
    assert!(failure.reason.contains("more than 100 choices"), "{report}");
}

#[test]
fn the_targeted_runner_does_not_grow_values_without_bound() {
    // Maximising the length: value mutation duplicates blocks, so without a
    // bound the vector doubles until allocation fails.
    static LONGEST: AtomicU64 = AtomicU64::new(0);
    let prop = property! {
        forall xs: Vec<u8>;
        check { LONGEST.fetch_max(xs.len() as u64, SeqCst); target(xs.len() as f64); true }
    };
    let bound = Config::default().max_size.max(64) as u64;
    for mutation in [Mutation::Values, Mutation::Both] {
        let config = Config::default()
            .ignore_env()
            .regressions(Regressions::Off)
            .seed(1)
            .cases(3_000)
            .mutation(mutation);
        let update = |best: &mut f64, x: &f64| {
            let better = *x > *best;
            *best = best.max(*x);
            better
        };
        let prop_observing = property! {
            forall xs: Vec<u8>;
            check { LONGEST.fetch_max(xs.len() as u64, SeqCst); observe(xs.len() as f64); true }
        };
        let judge = |runner: &str, report: Report| {
            // Either it passes with bounded inputs or it reports the limit;
            // no input is ever longer than a value mutant may grow
            // (`max(size, 64)`).
            if let Some(failure) = &report.failure {
                assert!(failure.reason.contains("too large"), "{report}");
            }
            let longest = LONGEST.swap(0, SeqCst);
            assert!(
                longest <= bound,
                "{runner}, {mutation:?}: {longest} > {bound}"
            );
            assert!(
                longest > 0,
                "{runner}, {mutation:?}: the run grew the vector at all"
            );
        };
        judge("targeted", targeted(&prop, config.clone()));
        judge(
            "generalized",
            generalized(&prop_observing, config, 0.0, update),
        );
    }
}

#[test]
fn a_saved_huge_size_does_not_allocate_it() {
    static LONGEST: AtomicU64 = AtomicU64::new(0);
    let file = temp_file("huge-size");
    std::fs::write(&file, "cc 0x1 1000000000000 # t: a size nobody generates\n").unwrap();
    let prop = property! {
        forall xs: Vec<u64>;
        check { LONGEST.fetch_max(xs.len() as u64, SeqCst); true }
    };
    let report = generational(&prop, saving_to(&file).cases(1));
    assert!(report.passed(), "{report}");
    assert_eq!(report.replayed, 1);
    assert!(LONGEST.load(SeqCst) <= 1_000_000);
}

#[test]
fn a_long_string_is_shrunk_without_materialising_every_candidate() {
    // About 10 000 chars: its candidates, made up front, would take
    // gigabytes (quadratic); taken one at a time they take one string.
    let prop = property! {
        forall s: String;
        check s.chars().count() < 5
    };
    let report = generational(
        &prop,
        Config::default()
            .ignore_env()
            .regressions(Regressions::Off)
            .seed(1)
            .max_size(20_000)
            .sizes(pbt::runners::Sizes::Fixed(20_000)),
    );
    let failure = report.failure.expect("fails");
    // Five chars, printed with quotes and escapes.
    let printed = &failure.counterexample[0].value;
    assert!(printed.len() < 64, "{printed}");
}

#[test]
fn a_panicking_feature_function_is_a_report() {
    let file = temp_file("features-panic");
    let prop = property! {
        forall x: u32, #[gen = int(0..1000)];
        check x < 2000
    };
    let features: pbt::runners::FeatureFn = |_| panic!("no features today");
    let report = combinatorial(&prop, saving_to(&file).features(features));
    let failure = report.failure.clone().expect("a report, not a panic");
    assert!(failure.reason.contains("no features today"), "{report}");
    assert_eq!(saved_lines(&file).len(), 1);
}

#[test]
fn the_shrunk_case_joins_the_found_one_when_choices_generate_it() {
    let file = temp_file("shrunk-joins");
    let prop = property! {
        forall x: u32, #[gen = int(0..100_000u32)];
        check x < 1000
    };
    let report = integrated(&prop, saving_to(&file));
    let failure = report.failure.clone().expect("fails");
    assert_eq!(failure.counterexample[0].value, "1000", "{report}");
    let lines = saved_lines(&file);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("cc "), "found first: {lines:?}");
    assert!(
        lines[1].starts_with("cx ") && lines[1].ends_with("x = 1000"),
        "{lines:?}"
    );
    // The next run replays both, the found one first.
    let again = integrated(&prop, saving_to(&file).cases(0));
    assert_eq!(again.replayed, 2);
    assert_eq!(
        again
            .failure
            .expect("replayed")
            .replayed_from
            .unwrap()
            .entry,
        1
    );
}

/// Runs `prop` with only the last line of `file` kept and no shrinking:
/// what that saved line alone replays to.
fn replay_last_line<P: Property + Sync>(prop: &P, file: &Path) -> Report {
    let last = saved_lines(file).pop().expect("a saved line");
    std::fs::write(file, format!("{last}\n")).unwrap();
    generational(prop, saving_to(file).cases(0).max_shrinks(0))
}

#[test]
fn the_shrunk_case_joins_the_found_one_for_every_shrinker() {
    // Halving, then counting down: the external shrinker takes hundreds of
    // steps that no choice sequence records.
    let prop = property! {
        forall x: u32, #[gen = int(0..100_000u32)], #[shrink = |x: &u32| vec![x / 2, x.saturating_sub(1)]];
        forall ys: Vec<u8>;
        check x < 1000 || ys.len() > 3
    };
    for shrinker in [Shrinker::External, Shrinker::Integrated, Shrinker::Both] {
        let file = temp_file(&format!("shrunk-joins-{shrinker:?}"));
        let report = generational(&prop, saving_to(&file).shrinker(shrinker));
        let failure = report.failure.clone().expect("fails");
        assert_eq!(failure.counterexample[0].value, "1000", "{report}");
        let lines = saved_lines(&file);
        assert_eq!(
            lines.len(),
            2,
            "{shrinker:?}: found, then shrunk: {lines:?}"
        );
        assert!(lines[0].starts_with("cc "), "{shrinker:?}: {lines:?}");
        if shrinker == Shrinker::External {
            assert!(lines[1].starts_with("cs "), "the shrink path: {lines:?}");
        }
        // The shrunk line alone replays the shrunk input, unshrunk.
        let again = replay_last_line(&prop, &file);
        let replayed = again.failure.expect("the shrunk case fails");
        assert_eq!(
            replayed.counterexample, failure.counterexample,
            "{shrinker:?}"
        );
        assert!(replayed.replayed_from.is_some());
    }
}

/// A type-based list shrinks at a wider size than it was found at (the
/// integrated shrinker widens the size so that a long list's length can be
/// kept while its elements shrink): its choices replay the shrunk value only
/// at that size, and they are saved with it.
#[test]
fn a_case_shrunk_at_another_size_is_saved_at_that_size() {
    let prop = property! { forall xs: Vec<u32>; check xs.iter().all(|&x| x < 1000) };
    for shrinker in [Shrinker::Integrated, Shrinker::Both] {
        let file = temp_file(&format!("shrunk-resized-{shrinker:?}"));
        let report = generational(&prop, saving_to(&file).shrinker(shrinker));
        let failure = report.failure.clone().expect("fails");
        assert_eq!(failure.counterexample[0].value, "[1000]", "{report}");
        let lines = saved_lines(&file);
        assert_eq!(
            lines.len(),
            2,
            "{shrinker:?}: found, then shrunk: {lines:?}"
        );
        assert!(lines[1].starts_with("cx "), "{shrinker:?}: {lines:?}");
        let again = replay_last_line(&prop, &file);
        let replayed = again.failure.expect("the shrunk case fails");
        assert_eq!(
            replayed.counterexample, failure.counterexample,
            "{shrinker:?}"
        );
    }
}

#[test]
fn every_runner_saves_the_shrunk_case_and_it_replays() {
    let prop = property! {
        forall x: u32, #[gen = int(0..100_000u32)];
        forall s: String;
        check x < 1000 || s.len() > 1000
    };
    let base = temp_file("shrunk-every-runner");
    let file_of = |runner: &str| base.with_file_name(format!("{runner}.pbt-regressions"));
    each_runner(
        &prop,
        |runner| saving_to(&file_of(runner)).shrinker(Shrinker::External),
        |runner, report| {
            let failure = report
                .failure
                .clone()
                .unwrap_or_else(|| panic!("{runner}: {report}"));
            let lines = saved_lines(&file_of(runner));
            assert_eq!(lines.len(), 2, "{runner}: found, then shrunk: {lines:?}");
            let again = replay_last_line(&prop, &file_of(runner));
            let replayed = again
                .failure
                .clone()
                .unwrap_or_else(|| panic!("{runner}: {again}"));
            assert_eq!(replayed.counterexample, failure.counterexample, "{runner}");
        },
    );
}

#[test]
fn a_value_mutant_shrunk_by_value_is_saved_and_replays() {
    // Generated values are even; only a value mutation makes an odd one,
    // and the external shrinker takes it down two at a time: the saved
    // line is a shrink path over the mutant.
    let prop = property! {
        forall x: u32, #[gen = map(int(0..1000u32), |x| x * 2)], #[mutate = |x: &u32, _, _| x + 1],
            #[shrink = |x: &u32| vec![x.saturating_sub(2)]];
        check { cover(u64::from(x % 64)); x % 2 == 0 || x < 100 }
    };
    let file = temp_file("mutant-shrunk");
    let config = saving_to(&file).mutation(Mutation::Values).cases(100_000);
    let report = fuzz(&prop, config);
    let failure = report.failure.clone().expect("fails");
    assert_eq!(failure.counterexample[0].value, "101", "{report}");
    assert!(!failure.mutations.is_empty(), "found by mutation: {report}");
    let lines = saved_lines(&file);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("cm "), "{lines:?}");
    assert!(
        lines[1].starts_with("cs ") && lines[1].contains(" cm "),
        "{lines:?}"
    );
    let again = replay_last_line(&prop, &file);
    let replayed = again.failure.expect("the shrunk case fails");
    assert_eq!(replayed.counterexample, failure.counterexample);
}

/// `max_shrinks(n)` is at most `n` steps in all: `both` gave its external
/// phase `n` steps of its own after the integrated phase's, so
/// `max_shrinks(1)` reported "shrunk in 2 steps" (found from a scratch
/// crate). The steps that make a long list short are far more than 3.
#[test]
fn max_shrinks_bounds_the_steps_of_both_phases_together() {
    let prop = property! {
        forall xs: Vec<u32>;
        check xs.iter().all(|&x| x < 1000)
    };
    for n in [1, 2, 3] {
        for shrinker in [Shrinker::Both, Shrinker::Integrated, Shrinker::External] {
            for seed in 0..5 {
                let config = Config::default()
                    .ignore_env()
                    .seed(seed)
                    .regressions(Regressions::Off)
                    .shrinker(shrinker)
                    .max_shrinks(n);
                let report = generational(&prop, config);
                assert!(
                    report.shrinks <= n,
                    "{shrinker:?}, max_shrinks({n}), seed {seed}: {report}"
                );
                let failure = report.failure.as_ref().expect("fails");
                let (xs,) = report.counterexample::<(Vec<u32>,)>().expect("typed");
                assert!(xs.iter().any(|&x| x >= 1000), "still fails: {failure:?}");
            }
        }
    }
}

#[test]
fn max_shrinks_zero_reports_the_input_as_found_and_claims_no_shrink_attempt() {
    // With no shrink step allowed, no shrinker runs: the report said
    // "shrunk in 0 steps (2 tried) by the integrated shrinker" (the
    // integrated shrinker's first probes ran before it looked at the limit).
    let prop = property! { forall x: u32; check x < 1000 };
    for shrinker in [Shrinker::Both, Shrinker::Integrated, Shrinker::External] {
        let config = Config::default()
            .ignore_env()
            .seed(1)
            .regressions(Regressions::Off)
            .shrinker(shrinker)
            .max_shrinks(0);
        let report = generational(&prop, config);
        let text = report.to_string();
        assert_eq!((report.shrinks, report.shrink_attempts), (0, 0), "{text}");
        let failure = report.failure.as_ref().expect("fails");
        assert_eq!(failure.shrinker, None, "{text}");
        assert_eq!(failure.counterexample, failure.original, "{text}");
        assert!(!failure.flaky, "{text}");
        let (x,) = report.counterexample::<(u32,)>().expect("the input, typed");
        assert!(
            x >= 1000 && report.original::<(u32,)>() == Some((x,)),
            "{text}"
        );
        assert!(text.contains("; not shrunk.\n"), "{text}");
        assert!(
            text.contains("note: not shrunk: max_shrinks is 0"),
            "{text}"
        );
        assert!(!text.contains("tried"), "{text}");
    }
}

#[test]
fn a_report_goes_to_another_thread_and_its_typed_input_stays_on_its_own() {
    fn send<T: Send + Sync>(t: T) -> T {
        t
    }
    // Inputs that are neither Send nor Sync: an Rc.
    let prop = Prop::new(
        Forall::new(
            "x",
            "Rc<u32>",
            Check::new(|(x, ()): &(std::rc::Rc<u32>, ())| **x < 1000),
        )
        .gen(|_: &()| pbt::generators::map(pbt::generators::int(0..=5000u32), std::rc::Rc::new)),
    );
    let report = send(generational(
        &prop,
        Config::default()
            .ignore_env()
            .seed(1)
            .regressions(Regressions::Off),
    ));
    let typed = |r: &Report| r.counterexample::<(std::rc::Rc<u32>,)>().map(|(x,)| *x);
    assert_eq!(typed(&report), Some(1000), "{report}");
    let kept = report.clone();
    let (text, elsewhere) = std::thread::spawn(move || {
        let elsewhere = typed(&report);
        (report.to_string(), elsewhere)
    })
    .join()
    .expect("the other thread reads the report");
    // The printed counterexample on any thread; the value only on this one
    // (the other thread dropped its clone without dropping the Rc).
    assert!(text.contains("x = 1000"), "{text}");
    assert_eq!(elsewhere, None);
    assert_eq!(typed(&kept), Some(1000));
}

//! Faults that end the process: the crash handler, the watchdog's hang
//! path, and the process-isolated mode.
//!
//! Scenarios that end a process are `scenario_*` tests that do nothing
//! unless `PBT_SCENARIO` names them; the driver tests run this binary again
//! as a child with it set and judge the child's exit, output and files. The
//! isolated-mode tests call the isolated runner directly: its children
//! re-run the same test and serve as workers.

use pbt::prelude::*;
use pbt::runners::components::regressions::RegressionsFile;
use pbt::runners::components::Found;
use pbt::runners::Report;
use pbt::runners::{generational, Regressions};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

/// The scenario's regressions file when `PBT_SCENARIO` names it.
fn scenario(name: &str) -> Option<PathBuf> {
    (std::env::var("PBT_SCENARIO").ok()? == name)
        .then(|| PathBuf::from(std::env::var("PBT_SCENARIO_FILE").unwrap()))
}

/// A fresh regressions file path for one driver.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pbt-iso-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("r.pbt-regressions")
}

/// Run the scenario tests matching `filter` in a child.
fn run(filter: &str, name: &str, file: &Path, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args([filter, "--test-threads=1", "--nocapture"])
        .env("PBT_SCENARIO", name)
        .env("PBT_SCENARIO_FILE", file)
        .env_remove("PBT_SEED")
        .env_remove("PBT_CASES")
        .env_remove("PBT_ISOLATE");
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "status: {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// An infinite loop the optimiser keeps.
fn hang_forever() -> ! {
    loop {
        std::hint::black_box(0);
    }
}

fn config(file: &Path) -> Config {
    Config::default()
        .seed(7)
        .regressions(Regressions::File(file.to_path_buf()))
}

/// Tests run so far by a scenario's check (to see which test crashed).
static TESTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn count() -> u64 {
    TESTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1
}

/// Whether this thread is one of the parallel runner's workers.
fn on_a_worker() -> bool {
    std::thread::current()
        .name()
        .is_some_and(|n| n.starts_with("pbt-worker"))
}

// ---- the crash handler: the case in flight is saved when the process dies

fn crash_scenario(name: &str, fault: fn()) {
    let Some(file) = scenario(name) else { return };
    let prop = property! {
        forall x: u32, #[gen = int(0..1000u32)];
        check {
            let n = count();
            if x >= 500 {
                eprintln!("faulting at test {n}");
                fault();
            }
            true
        }
    };
    let _ = generational(&prop, config(&file));
}

#[test]
fn scenario_abort() {
    crash_scenario("abort", || std::process::abort());
}

#[allow(unconditional_recursion)]
fn recurse(depth: u64) -> u64 {
    std::hint::black_box(recurse(std::hint::black_box(depth + 1))) + 1
}

#[test]
fn scenario_stack_overflow() {
    crash_scenario("stack_overflow", || {
        recurse(0);
    });
}

#[test]
fn scenario_exit() {
    crash_scenario("exit", || std::process::exit(3));
}

#[test]
fn scenario_exit_zero() {
    crash_scenario("exit_zero", || std::process::exit(0));
}

struct PanicOnDrop;
impl Drop for PanicOnDrop {
    fn drop(&mut self) {
        panic!("second panic, while unwinding");
    }
}

#[test]
fn scenario_double_panic() {
    crash_scenario("double_panic", || {
        let _guard = PanicOnDrop;
        panic!("first panic");
    });
}

#[test]
fn scenario_out_of_memory() {
    crash_scenario("out_of_memory", || {
        let v = vec![1u8; 1 << 46];
        std::hint::black_box(v);
    });
}

/// The fault ends the child; the case in flight is in the file; the next
/// run replays it first (its first test faults).
fn the_case_in_flight_is_saved(name: &str, dying: &str) {
    let file = scratch(name);
    let first = run(&format!("scenario_{name}"), name, &file, &[]);
    let first_text = text(&first);
    assert!(!first.status.success(), "{first_text}");
    assert!(
        first_text.contains("the process is dying") || first_text.contains("exit() was called"),
        "{first_text}"
    );
    assert!(first_text.contains("PBT_SEED=0x7"), "{first_text}");
    let saved = RegressionsFile::at(&file).read();
    assert_eq!(saved.cases.len(), 1, "{saved:?}\n{first_text}");
    assert!(saved.warnings.is_empty(), "{saved:?}");
    let line = std::fs::read_to_string(&file).unwrap();
    assert!(line.contains(dying), "{line}");
    if name == "abort_on_a_mutant" {
        assert!(line.starts_with("cm "), "saved as the mutant: {line}");
    }
    let second = run(&format!("scenario_{name}"), name, &file, &[]);
    let second_text = text(&second);
    assert!(
        second_text.contains("faulting at test 1\n"),
        "the saved case is not replayed first:\n{second_text}"
    );
    // A crash on the replayed case does not save it a second time, and
    // says where it came from.
    assert!(
        second_text.contains("(a saved case: it was replayed from"),
        "{second_text}"
    );
    let again = RegressionsFile::at(&file).read();
    assert_eq!(again.cases.len(), 1, "{again:?}\n{second_text}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn an_abort_leaves_the_case_behind() {
    the_case_in_flight_is_saved("abort", "SIGABRT");
}

#[test]
fn a_stack_overflow_leaves_the_case_behind() {
    the_case_in_flight_is_saved("stack_overflow", "SIGSEGV");
}

#[test]
fn exit_in_the_check_leaves_the_case_behind() {
    the_case_in_flight_is_saved("exit", "exit() was called");
}

/// `exit(0)` in the check would end the test binary "successfully" (cargo
/// test reports no failure, and skips the tests not yet run), and so would
/// every later run, replaying the saved case first: the exit status is a
/// failure's instead (glibc, where the handler sees the status).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn exit_zero_in_the_check_is_a_failing_exit_status() {
    the_case_in_flight_is_saved("exit_zero", "exit() was called");
    let file = scratch("exit_zero_status");
    let out = run("scenario_exit_zero", "exit_zero", &file, &[]);
    assert_eq!(out.status.code(), Some(101), "{}", text(&out));
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn a_double_panic_leaves_the_case_behind() {
    the_case_in_flight_is_saved("double_panic", "SIGABRT");
}

#[test]
fn an_allocation_failure_leaves_the_case_behind() {
    the_case_in_flight_is_saved("out_of_memory", "SIGABRT");
}

// ---- the isolated mode: each fault is a failure, shrunk like any other

/// A property over `x` that faults from `x >= 10` on, run isolated.
fn isolated_fault(file: &Path, fault: fn()) -> Report {
    let prop = property! {
        forall x: u32, #[gen = int(0..1000u32)];
        check {
            if x >= 10 {
                fault();
            }
            true
        }
    };
    generational(
        &prop,
        config(file)
            .isolated(true)
            // Generous: on a loaded machine a passing test must not look hung.
            .timeout(Duration::from_millis(1000))
            .max_shrink_time(Duration::from_secs(60)),
    )
}

fn shrunk_to_ten(report: &Report, reason: &str) {
    assert!(!report.passed(), "{report}");
    let failure = report.failure.as_ref().unwrap();
    assert_eq!(failure.counterexample[0].value, "10", "{report}");
    assert!(failure.reason.contains(reason), "{report}");
    assert_eq!(failure.shrinker, Some(pbt::runners::Shrinker::Integrated));
    assert!(!failure.flaky, "it fails every time: {report}");
}

#[test]
fn isolated_a_failure_that_passes_when_rerun_is_reported_as_flaky() {
    // Fails once across all the processes of this run (a marker file named
    // after the test process, which its children find through their
    // parent's id), then passes.
    let owner = match std::env::var_os("PBT_ISOLATE_CHILD") {
        Some(_) => std::os::unix::process::parent_id(),
        None => std::process::id(),
    };
    let marker = std::env::temp_dir().join(format!("pbt-iso-flaky-{owner}"));
    let file = match std::env::var_os("PBT_ISOLATE_CHILD") {
        Some(_) => std::env::temp_dir().join("unused.pbt-regressions"),
        None => {
            let _ = std::fs::remove_file(&marker);
            scratch("iso-flaky")
        }
    };
    let prop = property! {
        forall x: u32, #[gen = int(0..1000u32)];
        check x < 10 || marker.exists() || std::fs::write(&marker, b"failed once").is_err()
    };
    let report = generational(
        &prop,
        config(&file)
            .isolated(true)
            .timeout(Duration::from_millis(1000)),
    );
    let failure = report.failure.clone().expect("fails once");
    assert!(failure.flaky, "{report}");
    assert!(report.to_string().contains("flaky"), "{report}");
    let _ = std::fs::remove_file(&marker);
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn isolated_a_hang_is_killed_at_the_time_limit_and_shrunk() {
    let file = scratch("iso-hang");
    let report = isolated_fault(&file, || hang_forever());
    shrunk_to_ten(&report, "time limit");
    // Saved on discovery, and the shrunk input too.
    let saved = RegressionsFile::at(&file).read().cases;
    assert!(saved.len() >= 2, "{saved:?}");
    assert!(matches!(saved[0], Found::Case(_)), "{saved:?}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn isolated_an_abort_is_a_failure_and_shrunk() {
    let file = scratch("iso-abort");
    let report = isolated_fault(&file, || std::process::abort());
    shrunk_to_ten(&report, "SIGABRT");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn isolated_a_stack_overflow_is_a_failure_and_shrunk() {
    let file = scratch("iso-overflow");
    let report = isolated_fault(&file, || {
        recurse(0);
    });
    shrunk_to_ten(&report, "stack overflow");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn isolated_shrinking_reaches_the_minimum_of_a_type_based_integer() {
    // An `Arbitrary` integer is two choices, a kind then a value. Smaller
    // choices for the same value (a lower kind) must be taken silently, as
    // in process: refused, the passes moved from `[5, 301]` to `[4, 302]`
    // (smaller choices that print differently) and every seed ended at 302.
    let prop = property! {
        forall x: u16;
        check {
            if x > 300 {
                std::process::abort();
            }
            true
        }
    };
    for seed in 1..=3 {
        let file = scratch(&format!("iso-by-type-{seed}"));
        let report = generational(
            &prop,
            config(&file)
                .seed(seed)
                .isolated(true)
                .timeout(Duration::from_millis(1000))
                .max_shrink_time(Duration::from_secs(60)),
        );
        assert!(!report.passed(), "{report}");
        let failure = report.failure.as_ref().unwrap();
        assert_eq!(
            failure.counterexample[0].value, "301",
            "seed {seed}: {report}"
        );
        let _ = std::fs::remove_dir_all(file.parent().unwrap());
    }
}

#[test]
fn isolated_exit_is_a_failure_and_shrunk() {
    let file = scratch("iso-exit");
    let report = isolated_fault(&file, || std::process::exit(3));
    shrunk_to_ten(&report, "exited with code 3");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn isolated_the_saved_case_is_replayed_first() {
    let file = scratch("iso-replay");
    let first = isolated_fault(&file, || std::process::abort());
    assert!(!first.passed());
    let second = isolated_fault(&file, || std::process::abort());
    assert!(second.replayed >= 1, "{second}");
    // As in process: the saved case fails before any fresh test, and saved
    // cases do not count toward `cases`.
    assert_eq!(
        second.tests, 0,
        "the first saved case fails first: {second}"
    );
    let failure = second.failure.unwrap();
    assert_eq!(failure.counterexample[0].value, "10");
    assert_eq!(
        failure.replayed_from.map(|at| at.entry),
        Some(1),
        "the report names the saved case"
    );
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn isolated_a_passing_property_passes_with_every_test_counted() {
    let file = scratch("iso-pass");
    let prop = property! {
        forall xs: Vec<u8>;
        check xs.len() < 1000
    };
    let report = generational(&prop, config(&file).isolated(true).cases(50));
    assert!(report.passed(), "{report}");
    assert_eq!(report.tests, 50);
    assert!(!file.exists(), "nothing to save");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn isolated_a_generator_that_hangs_is_reported() {
    let file = scratch("iso-gen");
    let prop = property! {
        forall x: u32, #[gen = map(int(0..100u32), |x| { if x >= 50 { hang_forever() } x })];
        check x < 1000
    };
    let report = generational(
        &prop,
        config(&file)
            .isolated(true)
            // Generous: on a loaded machine a passing test must not look hung.
            .timeout(Duration::from_millis(1000)),
    );
    assert!(!report.passed(), "{report}");
    let failure = report.failure.unwrap();
    assert!(
        failure.reason.contains("while generating"),
        "{}",
        failure.reason
    );
    assert!(failure.reason.contains("time limit"), "{}", failure.reason);
    assert_eq!(RegressionsFile::at(&file).read().cases.len(), 1);
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn isolated_and_in_process_runs_are_one_loop_with_the_same_report() {
    // One inputs stream and one loop, two run steps: the same seed visits
    // the same cases, counts the same tests and discards, and finds the
    // same first failing case in and out of process.
    let prop = property! {
        forall x: u32, #[gen = int(0..2000u32)];
        implies x % 3 != 0;
        check x < 1500
    };
    let (in_file, out_file) = (scratch("one-loop-in"), scratch("one-loop-out"));
    let base = |file: &Path| config(file).max_shrink_time(Duration::from_secs(60));
    let inside = generational(&prop, base(&in_file));
    let outside = generational(&prop, base(&out_file).isolated(true));
    assert!(!inside.passed() && !outside.passed(), "{inside}\n{outside}");
    assert_eq!(
        (inside.tests, inside.discards),
        (outside.tests, outside.discards),
        "{inside}\n{outside}"
    );
    let (a, b) = (inside.failure.unwrap(), outside.failure.unwrap());
    assert_eq!(a.case_seed, b.case_seed, "the same first failing case");
    assert_eq!(a.original, b.original, "printed the same");
    for failure in [&a, &b] {
        let x: u32 = failure.counterexample[0].value.parse().unwrap();
        assert!(x >= 1500 && x % 3 != 0, "{failure:?}");
    }
    // Both saved the failing case on discovery, first.
    let first = |file: &Path| RegressionsFile::at(file).read().cases.first().cloned();
    assert_eq!(first(&in_file), first(&out_file));
    for file in [in_file, out_file] {
        let _ = std::fs::remove_dir_all(file.parent().unwrap());
    }
}

#[test]
fn isolated_a_generator_panic_is_a_failure_with_its_message() {
    let file = scratch("iso-gen-panic");
    let prop = property! {
        forall x: u32, #[gen = map(int(0..100u32), |x| { assert!(x < 50, "too big: {x}"); x })];
        check x < 1000
    };
    let report = generational(&prop, config(&file).isolated(true));
    assert!(!report.passed(), "{report}");
    let failure = report.failure.unwrap();
    assert!(
        failure.reason.contains("the generator panicked") && failure.reason.contains("too big"),
        "{}",
        failure.reason
    );
    assert_eq!(report.tests, 0, "a generator fault is no test");
    assert_eq!(RegressionsFile::at(&file).read().cases.len(), 1);
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

/// Two tests of one binary: an isolated one that hangs, and another.
#[test]
fn scenario_two_tests_isolated_hang() {
    let Some(file) = scenario("two_tests") else {
        return;
    };
    let report = isolated_fault(&file, || hang_forever());
    report.assert_passed();
}

#[test]
fn scenario_two_tests_other() {
    if scenario("two_tests").is_none() {
        return;
    }
    println!("the other test ran");
}

#[test]
fn isolated_other_tests_in_the_binary_still_run_and_report() {
    let file = scratch("two-tests");
    let out = run("scenario_two_tests", "two_tests", &file, &[]);
    let all = text(&out);
    assert!(all.contains("the other test ran"), "{all}");
    assert!(
        all.contains("test scenario_two_tests_isolated_hang ... FAILED"),
        "{all}"
    );
    assert!(all.contains("counterexample:\n    x = 10"), "{all}");
    assert!(all.contains("1 passed; 1 failed"), "{all}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn scenario_pbt_isolate_value() {
    if scenario("isolate_value").is_none() {
        return;
    }
    match pbt::runners::components::isolation::requested(&Config::default()) {
        Ok(on) => println!("isolated: {on}"),
        Err(e) => println!("error: {e}"),
    }
}

#[test]
fn pbt_isolate_is_read_and_a_malformed_value_is_an_error_naming_it() {
    let file = scratch("isolate-value");
    let ask = |value: &str| {
        let out = run(
            "scenario_pbt_isolate_value",
            "isolate_value",
            &file,
            &[("PBT_ISOLATE", value)],
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(ask("1").contains("isolated: true"));
    assert!(ask("0").contains("isolated: false"));
    let bad = ask("sometimes");
    assert!(bad.contains("error: PBT_ISOLATE=\"sometimes\""), "{bad}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

// ---- the hang path without isolation: save, print, shrink in a child, exit

fn hang_config(file: &Path) -> Config {
    config(file)
        .timeout(Duration::from_millis(500))
        .max_shrink_time(Duration::from_secs(60))
}

#[test]
fn scenario_hang_in_check() {
    let Some(file) = scenario("hang_in_check") else {
        return;
    };
    let prop = property! {
        forall x: u32, #[gen = int(0..1000u32)];
        check {
            if x >= 10 {
                hang_forever();
            }
            true
        }
    };
    let _ = generational(&prop, hang_config(&file));
}

#[test]
fn a_hang_without_isolation_is_saved_printed_and_shrunk_in_a_child() {
    let file = scratch("hang-check");
    let out = run("scenario_hang_in_check", "hang_in_check", &file, &[]);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(101), "{all}");
    assert!(all.contains("PBT_SEED=0x7"), "{all}");
    assert!(all.contains("saved to"), "{all}");
    assert!(all.contains("shrunk in"), "{all}");
    assert!(
        all.contains("did not return within the time limit"),
        "{all}"
    );
    assert!(all.contains(": 10\n"), "shrunk to 10:\n{all}");
    assert!(all.contains("PBT_ISOLATE=1"), "{all}");
    let saved = RegressionsFile::at(&file).read().cases;
    // The hung case, then its shrunk form.
    assert_eq!(saved.len(), 2, "{saved:?}\n{all}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn scenario_generator_loops_under_fuzz() {
    let Some(file) = scenario("generator_loops") else {
        return;
    };
    let prop = property! {
        forall x: u32, #[gen = map(int(0..20u32), |x| { if x == 7 { hang_forever() } x })];
        check x < 1000
    };
    let _ = pbt::runners::fuzz(&prop, hang_config(&file).cases(10_000));
}

#[test]
fn a_generator_that_loops_forever_under_fuzz_is_reported_and_saved() {
    let file = scratch("gen-loops");
    let out = run(
        "scenario_generator_loops_under_fuzz",
        "generator_loops",
        &file,
        &[],
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(101), "{all}");
    assert!(all.contains("does not return"), "{all}");
    assert!(all.contains("PBT_SEED=0x7"), "{all}");
    assert!(all.contains("while generating the input"), "{all}");
    assert!(all.contains("the fault is in a generator"), "{all}");
    assert_eq!(RegressionsFile::at(&file).read().cases.len(), 1, "{all}");
    // The next run hangs on the saved case first, and says so rather than
    // hint at a run seed that does not replay it.
    let second = run(
        "scenario_generator_loops_under_fuzz",
        "generator_loops",
        &file,
        &[("PBT_SEED", "0x5eed")],
    );
    let again = text(&second);
    assert_eq!(second.status.code(), Some(101), "{again}");
    assert!(again.contains("a saved case, replayed from"), "{again}");
    assert!(!again.contains("PBT_SEED=0x5eed"), "{again}");
    assert_eq!(RegressionsFile::at(&file).read().cases.len(), 1, "{again}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

/// A type whose `Debug` never returns.
#[derive(Clone, Arbitrary)]
struct Endless(u8);

impl std::fmt::Debug for Endless {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        loop {
            std::hint::black_box(self.0);
        }
    }
}

#[test]
fn scenario_debug_never_returns() {
    let Some(file) = scenario("debug_never_returns") else {
        return;
    };
    let prop = property! {
        forall e: Endless;
        check e.0 < 5
    };
    let _ = generational(&prop, hang_config(&file));
}

#[test]
fn a_debug_impl_that_never_returns_is_reported_and_saved() {
    let file = scratch("debug-loops");
    let out = run(
        "scenario_debug_never_returns",
        "debug_never_returns",
        &file,
        &[],
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(101), "{all}");
    assert!(all.contains("made no progress"), "{all}");
    assert!(all.contains("PBT_SEED=0x7"), "{all}");
    assert!(!RegressionsFile::at(&file).read().cases.is_empty(), "{all}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

// ---- the sequential runners take properties that are not `Sync`

#[test]
fn the_sequential_runners_accept_a_property_that_is_not_sync() {
    use pbt::runners::{combinatorial, fuzz, integrated, targeted};
    let runs = std::cell::Cell::new(0u64);
    let prop = property! {
        forall x: u8;
        check { runs.set(runs.get() + 1); x == x }
    };
    let quiet = || {
        Config::default()
            .cases(20)
            .seed(1)
            .regressions(Regressions::Off)
    };
    for runner in [generational, integrated, fuzz, targeted, combinatorial] {
        let before = runs.get();
        let report = runner(&prop, quiet());
        assert!(report.passed(), "{report}");
        assert_eq!(runs.get() - before, report.tests, "{report}");
    }
}

// ---- `#[property_test(isolated)]`

/// A runner that checks the macro asked for isolation, then runs isolated.
fn must_be_isolated<P: Property>(prop: &P, config: Config) -> Report {
    assert!(
        config.isolated,
        "#[property_test(isolated)] sets Config::isolated"
    );
    generational(prop, config)
}

#[property_test(isolated, cases = 20, runner = must_be_isolated)]
fn property_test_isolated_runs_in_a_child(xs: Vec<u8>) -> bool {
    // In the worker, the test's body runs in a process of its own.
    std::env::var_os("PBT_ISOLATE_CHILD").is_some() && xs.len() <= 100
}

#[property_test(isolated = false, cases = 5)]
fn property_test_isolated_false_runs_in_process(x: u8) -> bool {
    std::env::var_os("PBT_ISOLATE_CHILD").is_none() && x == x
}

#[test]
fn isolated_a_slow_setup_before_the_runner_call_is_not_a_hang() {
    // The worker re-runs this setup too before it reaches the property:
    // starting is not the test's time.
    std::thread::sleep(Duration::from_millis(1000));
    let prop = property! {
        forall x: u8;
        check x == x
    };
    let config = Config::default()
        .cases(5)
        .regressions(Regressions::Off)
        .isolated(true)
        .timeout(Duration::from_millis(300));
    let report = generational(&prop, config);
    assert!(report.passed(), "{report}");
}

#[test]
fn scenario_fuzz_asked_to_isolate() {
    if scenario("fuzz_isolated").is_none() {
        return;
    }
    let prop = property! {
        forall x: u8;
        check x == x
    };
    let config = Config::default()
        .cases(10)
        .regressions(Regressions::Off)
        .isolated(true);
    pbt::runners::fuzz(&prop, config).assert_passed();
}

#[test]
fn a_runner_without_isolation_says_so() {
    let file = scratch("fuzz-isolated");
    let out = run(
        "scenario_fuzz_asked_to_isolate",
        "fuzz_isolated",
        &file,
        &[],
    );
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    assert!(all.contains("this runner does not run isolated"), "{all}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn scenario_hang_while_shrinking() {
    let Some(file) = scenario("hang_while_shrinking") else {
        return;
    };
    // Fails from 100 on; the values 10..100 hang, so shrinking reaches a
    // hanging candidate.
    let prop = property! {
        forall x: u32, #[gen = int(0..1000u32)];
        check {
            if (10..100).contains(&x) {
                hang_forever();
            }
            x < 100
        }
    };
    let _ = generational(&prop, hang_config(&file));
}

#[test]
fn a_hang_while_shrinking_is_saved_and_shrunk_in_a_child() {
    let file = scratch("hang-shrinking");
    let out = run(
        "scenario_hang_while_shrinking",
        "hang_while_shrinking",
        &file,
        &[],
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(101), "{all}");
    assert!(all.contains("it hung while shrinking"), "{all}");
    assert!(all.contains("PBT_SEED=0x7"), "{all}");
    // The hang is the smaller failure: 10.
    assert!(all.contains(": 10\n"), "{all}");
    assert!(RegressionsFile::at(&file).read().cases.len() >= 2, "{all}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn scenario_hang_in_check_under_fuzz() {
    let Some(file) = scenario("hang_in_check_fuzz") else {
        return;
    };
    let prop = property! {
        forall x: u32, #[gen = int(0..1000u32)];
        check {
            if x >= 10 {
                hang_forever();
            }
            true
        }
    };
    let _ = pbt::runners::fuzz(&prop, hang_config(&file));
}

#[test]
fn a_hang_under_fuzz_is_shrunk_in_a_child_too() {
    // Any runner's test can be re-run as a worker (it serves from
    // `supervise`), so the watchdog shrinks hangs whatever the runner.
    let file = scratch("hang-fuzz");
    let out = run(
        "scenario_hang_in_check_under_fuzz",
        "hang_in_check_fuzz",
        &file,
        &[],
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(101), "{all}");
    assert!(all.contains("shrunk in"), "{all}");
    assert!(all.contains(": 10\n"), "{all}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

/// A generator that overflows the stack from x = 500 on (a recursive
/// generator whose size never shrinks does this).
fn overflowing(x: u32) -> u32 {
    if x >= 500 {
        eprintln!("faulting at test {}", count());
        recurse(0);
    }
    count();
    x
}

#[test]
fn scenario_generator_overflow() {
    let Some(file) = scenario("generator_overflow") else {
        return;
    };
    let prop = property! {
        forall x: u32, #[gen = map(int(0..1000u32), overflowing)];
        check x < 1000
    };
    let _ = generational(&prop, config(&file));
}

#[test]
fn a_generator_that_overflows_the_stack_leaves_the_case_behind() {
    the_case_in_flight_is_saved("generator_overflow", "SIGSEGV");
}

#[test]
fn scenario_abort_on_a_mutant() {
    let Some(file) = scenario("abort_on_a_mutant") else {
        return;
    };
    // Generated values are even; only a value mutation makes an odd one.
    let prop = property! {
        forall x: u32, #[gen = map(int(0..1000u32), |x| x * 2)], #[mutate = |x: &u32, _, _| x + 1];
        check {
            let n = count();
            pbt::feedback::cover(u64::from(x % 64));
            if x % 2 == 1 {
                eprintln!("faulting at test {n}");
                std::process::abort();
            }
            true
        }
    };
    let config = config(&file)
        .cases(100_000)
        .mutation(pbt::runners::Mutation::Values);
    let _ = pbt::runners::fuzz(&prop, config);
}

#[test]
fn an_abort_on_a_value_mutant_leaves_the_mutant_behind() {
    the_case_in_flight_is_saved("abort_on_a_mutant", "SIGABRT");
}

#[test]
fn scenario_abort_parallel() {
    let Some(file) = scenario("abort_parallel") else {
        return;
    };
    // The first run faults on a worker thread only (the runner tests on
    // its own thread for its first 200 µs); the second, which replays the
    // saved case on the runner's thread, faults there too.
    let replaying = file.exists();
    let prop = property! {
        forall x: u32, #[gen = int(0..1000u32)];
        check {
            let n = count();
            if x >= 500 && (replaying || on_a_worker()) {
                eprintln!("faulting at test {n}");
                std::process::abort();
            }
            true
        }
    };
    // One worker thread, so that exactly one test is running when it aborts
    // (with more, every running test's case is saved).
    let _ = pbt::runners::parallel(&prop, config(&file).workers(1).cases(1_000_000));
}

#[test]
fn an_abort_on_a_parallel_worker_leaves_its_case_behind() {
    // The fault is on a worker thread, not the one that armed the run: the
    // handler writes the case of the watch whose test is running.
    the_case_in_flight_is_saved("abort_parallel", "SIGABRT");
}

#[test]
fn scenario_stack_overflow_parallel() {
    let Some(file) = scenario("stack_overflow_parallel") else {
        return;
    };
    // The first run faults on a worker thread only (the runner tests on
    // its own thread for its first 200 µs); the second, which replays the
    // saved case on the runner's thread, faults there too.
    let replaying = file.exists();
    let prop = property! {
        forall x: u32, #[gen = int(0..1000u32)];
        check {
            let n = count();
            if x >= 500 && (replaying || on_a_worker()) {
                eprintln!("faulting at test {n}");
                recurse(0);
            }
            true
        }
    };
    let _ = pbt::runners::parallel(&prop, config(&file).workers(1).cases(1_000_000));
}

#[test]
fn a_stack_overflow_on_a_parallel_worker_leaves_its_case_behind() {
    // The worker threads are rayon's: without an alternate signal stack
    // large enough for the handler, the handler itself overflowed and the
    // process died of SIGSEGV with nothing saved and no message.
    the_case_in_flight_is_saved("stack_overflow_parallel", "SIGSEGV");
}

/// Set by the worker that starts to hang (scenario `failure_while_a_worker_hangs`).
static HANGING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[test]
fn scenario_failure_while_a_worker_hangs() {
    let Some(file) = scenario("failure_while_a_worker_hangs") else {
        return;
    };
    use std::sync::atomic::Ordering::Relaxed;
    // One worker hangs; the other then finds a failure and stops (its
    // later numbers are above it). The run never ends: the watchdog ends
    // the process while the failure waits for the hung worker.
    let prop = property! {
        forall x: u32, #[gen = int(0..1000u32)];
        check {
            if on_a_worker() && x % 7 == 3 && !HANGING.swap(true, Relaxed) {
                hang_forever();
            }
            !(HANGING.load(Relaxed) && x % 7 == 5)
        }
    };
    let config = hang_config(&file).workers(2).cases(1_000_000);
    let _ = pbt::runners::parallel(&prop, config);
}

#[test]
fn a_failure_found_while_another_worker_hangs_is_saved_before_the_process_ends() {
    // The failure path runs once every worker is back, which a hung one
    // never is: the worker that found the failure saved it at once.
    let file = scratch("failure-while-hanging");
    let out = run(
        "scenario_failure_while_a_worker_hangs",
        "failure_while_a_worker_hangs",
        &file,
        &[],
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(101), "{all}");
    let saved = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(saved.contains("the check returned false"), "{saved}\n{all}");
    assert!(saved.contains("hangs"), "{saved}\n{all}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn scenario_debug_never_returns_parallel() {
    let Some(file) = scenario("debug_never_returns_parallel") else {
        return;
    };
    let prop = property! {
        forall e: Endless;
        check e.0 < 5
    };
    let _ = pbt::runners::parallel(&prop, hang_config(&file).workers(2));
}

#[test]
fn a_debug_impl_that_never_returns_under_parallel_is_reported_and_saved() {
    // The failure path runs on the runner's thread while the workers are
    // idle: the watchdog skipped idle watches, and the run hung silently.
    let file = scratch("debug-loops-parallel");
    let out = run(
        "scenario_debug_never_returns_parallel",
        "debug_never_returns_parallel",
        &file,
        &[],
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(101), "{all}");
    assert!(all.contains("made no progress"), "{all}");
    assert!(all.contains("PBT_SEED=0x7"), "{all}");
    // The input in flight is the failing one a worker found, not a case
    // the runner's thread never ran (it was `cc 0x0 0`).
    let saved = RegressionsFile::at(&file).read().cases;
    let found = saved.first().expect("saved on discovery").clone();
    assert!(
        saved
            .iter()
            .all(|c| !matches!(c, Found::Case(c) if c.seed == 0)),
        "{saved:?}\n{all}"
    );
    assert!(matches!(found, Found::Case(_)), "{saved:?}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn scenario_killed_while_shrinking() {
    let Some(file) = scenario("killed_while_shrinking") else {
        return;
    };
    // Every failing check takes a second: shrinking would take minutes.
    let prop = property! {
        forall x: u32, #[gen = int(0..1000u32)];
        check {
            let n = count();
            if x >= 500 {
                eprintln!("failing at test {n}");
                std::thread::sleep(Duration::from_secs(1));
            }
            x < 500
        }
    };
    let _ = pbt::runners::fuzz(
        &prop,
        config(&file).max_shrink_time(Duration::from_secs(600)),
    );
}

/// Run the scenario `name` in a child, read its stderr until it says it is
/// shrinking, and kill it there: what it printed until then.
fn kill_when_shrinking(name: &str, file: &Path, env: &[(&str, &str)]) -> String {
    use std::io::{BufRead, BufReader};
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args([
            &format!("scenario_{name}"),
            "--test-threads=1",
            "--nocapture",
        ])
        .env("PBT_SCENARIO", name)
        .env("PBT_SCENARIO_FILE", file)
        .env_remove("PBT_SEED")
        .env_remove("PBT_CASES")
        .env_remove("PBT_ISOLATE")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    while !seen.contains("Shrinking it.") {
        let mut line = String::new();
        if stderr.read_line(&mut line).unwrap() == 0 {
            let _ = child.kill();
            panic!("the child ended before shrinking:\n{seen}");
        }
        seen.push_str(&line);
    }
    child.kill().unwrap();
    let _ = child.wait();
    seen
}

#[test]
fn a_run_killed_while_shrinking_leaves_the_case_behind() {
    // Ctrl-C, SIGTERM or SIGKILL during a long shrink: the case is in the
    // file from the moment it was found, with its seed on stderr, and the
    // next run, whatever its seed, fails on it first.
    let file = scratch("killed-while-shrinking");
    let first = kill_when_shrinking("killed_while_shrinking", &file, &[]);
    assert!(first.contains("run seed 0x7"), "{first}");
    let saved = RegressionsFile::at(&file).read();
    assert_eq!(saved.cases.len(), 1, "{saved:?}\n{first}");
    let second = kill_when_shrinking("killed_while_shrinking", &file, &[("PBT_SEED", "0x5eed")]);
    assert!(
        second.contains("failing at test 1\n") && second.contains("its saved case 1 ("),
        "the saved case is not replayed first:\n{second}"
    );
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn scenario_target_never_returns() {
    let Some(file) = scenario("target_never_returns") else {
        return;
    };
    let prop = property! {
        forall x: u32, #[gen = int(0..100u32)], #[target = if x == 42 { hang_forever() } else { f64::from(x) }];
        check true
    };
    let _ = pbt::runners::targeted(&prop, hang_config(&file).cases(100_000));
}

#[test]
fn a_target_that_never_returns_is_reported_and_saved() {
    let file = scratch("target-loops");
    let out = run(
        "scenario_target_never_returns",
        "target_never_returns",
        &file,
        &[],
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(101), "{all}");
    assert!(all.contains("made no progress"), "{all}");
    assert!(all.contains("PBT_SEED=0x7"), "{all}");
    // The child that re-runs it only generates and checks: it says where
    // the hang is rather than calling the input flaky.
    assert!(all.contains("the input (42) does not hang"), "{all}");
    assert!(all.contains("#[target]"), "{all}");
    assert_eq!(RegressionsFile::at(&file).read().cases.len(), 1, "{all}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn isolated_a_saved_shrunk_case_replays_and_is_not_flaky() {
    // In process, the external shrinker's result is saved as a shrink path
    // (`cs …`); isolated, a worker replays that line alone: the same input,
    // failing, and not called flaky (it has no choices of its own to re-run).
    let child = std::env::var_os("PBT_ISOLATE_CHILD").is_some();
    let file = match child {
        true => std::env::temp_dir().join("unused.pbt-regressions"),
        false => scratch("iso-shrunk-line"),
    };
    let prop = property! {
        forall x: u32, #[gen = int(0..1000u32)], #[shrink = |x: &u32| vec![x / 2, x.saturating_sub(1)]];
        check x < 10
    };
    if !child {
        let found = generational(
            &prop,
            config(&file).shrinker(pbt::runners::Shrinker::External),
        );
        let shrunk = found.failure.expect("fails").counterexample;
        let text = std::fs::read_to_string(&file).unwrap();
        let line = text
            .lines()
            .find(|l| l.starts_with("cs "))
            .expect("a cs line");
        std::fs::write(&file, format!("{line}\n")).unwrap();
        let report = generational(
            &prop,
            config(&file)
                .isolated(true)
                .cases(0)
                .timeout(Duration::from_millis(1000)),
        );
        let failure = report.failure.clone().expect("the saved line fails");
        assert_eq!(failure.counterexample, shrunk, "{report}");
        assert!(!failure.flaky, "{report}");
        assert!(failure.replayed_from.is_some(), "{report}");
        let _ = std::fs::remove_dir_all(file.parent().unwrap());
    } else {
        let _ = generational(&prop, config(&file).isolated(true));
    }
}

#[test]
fn scenario_shrinker_never_returns() {
    let Some(file) = scenario("shrinker_never_returns") else {
        return;
    };
    let prop = property! {
        forall x: u32, #[gen = int(0..1000u32)], #[shrink = |x: &u32| -> Vec<u32> { if *x < 300 { hang_forever() } vec![x / 2] }];
        check x < 50
    };
    let config = hang_config(&file).shrinker(pbt::runners::Shrinker::External);
    let _ = pbt::runners::fuzz(&prop, config);
}

#[test]
fn a_shrinker_that_never_returns_is_reported_and_saved() {
    // The `#[shrink]` hangs once shrinking has halved the input below 300:
    // the case is saved on discovery, the watchdog reports the smallest
    // failing input so far, and the child processes shrink on (they do
    // not call the `#[shrink]`).
    let file = scratch("shrinker-loops");
    let out = run(
        "scenario_shrinker_never_returns",
        "shrinker_never_returns",
        &file,
        &[],
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(101), "{all}");
    assert!(all.contains("made no progress"), "{all}");
    assert!(all.contains("PBT_SEED=0x7"), "{all}");
    assert!(
        all.contains("it hung while shrinking; the smallest failing input so far"),
        "{all}"
    );
    assert!(all.contains("shrunk in"), "{all}");
    let saved = RegressionsFile::at(&file).read().cases;
    assert!(!saved.is_empty(), "{all}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

/// The announcement of a found failure says "Shrinking it." only when the
/// input will be shrunk: not with `max_shrinks(0)`, in process or isolated.
#[test]
fn the_announcement_promises_shrinking_only_when_it_shrinks() {
    for (name, shrinks) in [
        ("announce_shrinking", true),
        ("announce_no_shrinking", false),
        ("announce_no_shrinking_isolated", false),
    ] {
        let file = scratch(name);
        let out = run(&format!("scenario_{name}"), name, &file, &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let announced = stderr
            .lines()
            .find(|l| l.contains("found a failing input"))
            .unwrap_or_else(|| panic!("{name}: no announcement:\n{}", text(&out)));
        assert_eq!(
            announced.contains("Shrinking it."),
            shrinks,
            "{name}: {announced}"
        );
    }
}

fn announce_scenario(name: &str, shrinks: u64, isolated: bool) {
    let Some(file) = scenario(name) else { return };
    let prop = property! { forall x: u32, #[with = int(0..100_000u32)]; check x < 1000 };
    let report = generational(&prop, config(&file).max_shrinks(shrinks).isolated(isolated));
    assert!(!report.passed());
}

#[test]
fn scenario_announce_shrinking() {
    announce_scenario("announce_shrinking", 100, false);
}

#[test]
fn scenario_announce_no_shrinking() {
    announce_scenario("announce_no_shrinking", 0, false);
}

#[test]
fn scenario_announce_no_shrinking_isolated() {
    announce_scenario("announce_no_shrinking_isolated", 0, true);
}

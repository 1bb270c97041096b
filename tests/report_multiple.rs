//! Several distinct failures in one run (`Config::report_multiple`,
//! `PBT_REPORT_MULTIPLE=1`): every failure of a distinct origin is shrunk
//! on that origin, saved and reported on its own; the default stops at the
//! first.

use pbt::prelude::*;
use pbt::runners::components::distinct::FailureOrigin;
use pbt::runners::{generational, integrated, parallel, Regressions, Verdict};
use std::path::PathBuf;
use std::process::Command;

fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

fn temp_file(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pbt-multiple-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = dir.join("regressions.txt");
    let _ = std::fs::remove_file(&file);
    file
}

/// Two bugs in one check: a panic on odd `x`, another on `x >= 1000`. The
/// smallest input of the second is 1000, which is even: shrinking it
/// through the odd numbers below would land on the first bug's 1.
fn two_bugs(x: u32) {
    assert!(x % 2 == 0, "odd");
    assert!(x < 1000, "large");
}

/// The shrunk values of each failure, sorted.
fn shrunk(report: &Report) -> Vec<String> {
    let mut values: Vec<String> = report
        .failures()
        .map(|f| f.counterexample[0].value.clone())
        .collect();
    values.sort();
    values
}

#[test]
fn two_bugs_are_two_distinct_failures_each_shrunk_on_its_own_origin() {
    let prop = property! { forall x: u32; check two_bugs(x) };
    for seed in 0..5 {
        let report = generational(&prop, quiet().seed(seed).cases(1000).report_multiple(true));
        assert_eq!(report.verdict, Verdict::Failed);
        assert_eq!(shrunk(&report), ["1", "1000"], "seed {seed}: {report}");
        // Each is the smallest of its own bug, with its own reason.
        for failure in report.failures() {
            let expected = match failure.counterexample[0].value.as_str() {
                "1" => "panicked: odd",
                _ => "panicked: large",
            };
            assert!(failure.reason.starts_with(expected), "{}", failure.reason);
            assert!(failure.shrinker.is_some());
        }
        let text = report.to_string();
        assert!(
            text.contains("2 distinct failures after 1000 tests"),
            "{text}"
        );
        assert!(text.contains("failure 1 of 2: ") && text.contains("failure 2 of 2: "));
        // The first is still the report's counterexample.
        let first = report.failure.as_ref().unwrap();
        let (x,) = report.counterexample::<(u32,)>().unwrap();
        assert_eq!(x.to_string(), first.counterexample[0].value);
        assert_eq!(report.more_failures.len(), 1);
        assert_eq!(report.tests, 1000, "the run goes on to its budget");
    }
}

#[test]
fn the_default_stops_at_the_first_failure() {
    let prop = property! { forall x: u32; check two_bugs(x) };
    for seed in 0..5 {
        let report = generational(&prop, quiet().seed(seed).cases(1000));
        assert_eq!(report.failures().count(), 1);
        assert!(report.more_failures.is_empty());
        assert!(report.tests < 1000, "{report}");
        assert!(!report.to_string().contains("distinct failures"));
    }
}

/// The integrated runner is the generational loop with the integrated
/// shrinker: it reports both bugs too, and its choice shrinker stays on
/// each one's origin.
#[test]
fn the_integrated_runner_reports_both_bugs() {
    let prop = property! { forall x: u32; check two_bugs(x) };
    let report = integrated(&prop, quiet().seed(3).cases(1000).report_multiple(true));
    assert_eq!(shrunk(&report), ["1", "1000"], "{report}");
}

/// A failure of an origin already reported is not reported again: one bug
/// that every input hits is one failure, however often it is found.
#[test]
fn one_bug_found_many_times_is_one_failure() {
    let prop = property! { forall x: u32; check x > u32::MAX / 2 };
    let report = generational(&prop, quiet().seed(1).cases(300).report_multiple(true));
    assert_eq!(report.failures().count(), 1, "{report}");
    assert_eq!(report.counterexample::<(u32,)>(), Some((0,)));
    assert!(!report.to_string().contains("distinct failures"));
}

/// A check that returns `Err` with a value in its reason: the numbers are
/// masked, so each distinct message is one origin, whatever the values.
#[test]
fn err_reasons_with_numbers_are_one_origin_per_message() {
    let prop = property! {
        forall x: u32;
        check {
            if x % 2 == 1 {
                return Err(format!("{x} is odd"));
            }
            if x >= 1000 {
                return Err(format!("{x} is too large"));
            }
            Ok(())
        }
    };
    let report = generational(&prop, quiet().seed(2).cases(1000).report_multiple(true));
    assert_eq!(shrunk(&report), ["1", "1000"], "{report}");
    assert_eq!(
        FailureOrigin::of("the check returned Err(\"1 is odd\")"),
        FailureOrigin::of("the check returned Err(\"12345 is odd\")")
    );
}

/// Two panics on one line are two origins: the place is `file:line:col`.
#[test]
fn two_panics_on_one_line_are_two_origins() {
    #[rustfmt::skip]
    fn one_line(x: u32) { assert!(x % 2 == 0, "odd"); assert!(x < 1000, "large"); }
    let prop = property! { forall x: u32; check one_line(x) };
    let report = generational(&prop, quiet().seed(4).cases(1000).report_multiple(true));
    assert_eq!(shrunk(&report), ["1", "1000"], "{report}");
    let reason = &report.failure.as_ref().unwrap().reason;
    let at = reason.rsplit_once(" at ").expect("the place").1;
    assert_eq!(at.split(':').count(), 3, "file:line:col: {reason}");
}

/// Each distinct failure is saved, as found and shrunk; the next run
/// replays every saved case and reports both again from the file, before
/// any fresh case.
#[test]
fn each_failure_is_saved_and_the_next_run_replays_them_all() {
    let file = temp_file("saved");
    let prop = property! { forall x: u32; check two_bugs(x) };
    let config = Config::default()
        .ignore_env()
        .regressions(Regressions::File(file.clone()))
        .report_multiple(true)
        .cases(1000);
    let first = generational(&prop, config.clone().seed(7));
    assert_eq!(shrunk(&first), ["1", "1000"], "{first}");
    let saved = std::fs::read_to_string(&file).expect("the regressions file");
    let lines = saved.lines().filter(|l| l.starts_with("c")).count();
    assert_eq!(lines, 4, "each failure as found and shrunk:\n{saved}");
    // Replayed with no fresh case: both come back from the file.
    let again = generational(&prop, config.clone().seed(8).cases(0));
    assert_eq!(shrunk(&again), ["1", "1000"], "{again}");
    assert!(again.failures().all(|f| f.replayed_from.is_some()));
    // Without the switch, the replay stops at the first saved failure.
    let once = generational(&prop, config.report_multiple(false).cases(0));
    assert_eq!(once.failures().count(), 1);
    let _ = std::fs::remove_file(&file);
}

/// A runner that does not support it stops at the first failure, saved
/// cases included: the switch never hides a failure from it.
#[test]
fn other_runners_stop_at_the_first_failure() {
    let file = temp_file("others");
    let prop = property! { forall x: u32; check two_bugs(x) };
    let config = Config::default()
        .ignore_env()
        .regressions(Regressions::File(file.clone()))
        .report_multiple(true)
        .cases(1000);
    let found = generational(&prop, config.clone().seed(9));
    assert_eq!(found.failures().count(), 2, "{found}");
    // Saved cases only, replayed by the parallel runner: it fails on the
    // first and says nothing of distinct failures.
    let replayed = parallel(&prop, config.clone().cases(0).workers(2));
    assert!(!replayed.passed(), "{replayed}");
    assert_eq!(replayed.failures().count(), 1, "{replayed}");
    // Fresh cases too.
    let _ = std::fs::remove_file(&file);
    let fresh = parallel(&prop, config.seed(9).workers(2));
    assert_eq!(fresh.failures().count(), 1, "{fresh}");
    assert!(!fresh.to_string().contains("distinct failures"));
    let _ = std::fs::remove_file(&file);
}

/// Through `#[property_test]`: two bugs, reported as two distinct failures
/// when `PBT_REPORT_MULTIPLE=1` asks; the test fails. Ignored: it fails on
/// purpose, and runs only from the tests below.
#[property_test(config = Config::default().regressions(Regressions::Off).cases(1000))]
#[ignore = "fails on purpose: run by the tests of PBT_REPORT_MULTIPLE"]
fn two_bugs_test(x: u32) {
    two_bugs(x);
}

/// The same two bugs, isolated: the isolated mode stops at the first
/// failure, and its report says why.
#[property_test(
    isolated,
    config = Config::default().regressions(Regressions::Off).cases(1000).report_multiple(true)
)]
#[ignore = "fails on purpose: run by isolated_runs_stop_at_the_first_failure"]
fn two_bugs_isolated(x: u32) {
    two_bugs(x);
}

#[test]
fn isolated_runs_stop_at_the_first_failure() {
    let (passed, out) = run_ignored("two_bugs_isolated", None);
    assert!(!passed, "{out}");
    assert!(
        out.contains("report_multiple is not supported isolated"),
        "{out}"
    );
    assert!(!out.contains("distinct failures"), "{out}");
}

/// Run the ignored `two_bugs_test` of this binary with `PBT_REPORT_MULTIPLE`
/// set to `value`: (passed, its output).
fn run_two_bugs_test(value: Option<&str>) -> (bool, String) {
    run_ignored("two_bugs_test", value)
}

/// Run the ignored test `test` of this binary with `PBT_REPORT_MULTIPLE`
/// set to `value`: (passed, its output).
fn run_ignored(test: &str, value: Option<&str>) -> (bool, String) {
    let exe = std::env::current_exe().expect("the test binary");
    let mut command = Command::new(exe);
    command
        .args(["--exact", test, "--ignored", "--nocapture"])
        .args(["--test-threads=1"])
        .env_remove("PBT_SEED")
        .env_remove("PBT_CASES")
        .env_remove("PBT_REPORT_MULTIPLE");
    if let Some(value) = value {
        command.env("PBT_REPORT_MULTIPLE", value);
    }
    let out = command.output().expect("the test binary runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn pbt_report_multiple_reports_both_bugs_of_a_property_test() {
    let (passed, out) = run_two_bugs_test(Some("1"));
    assert!(!passed, "{out}");
    assert!(out.contains("2 distinct failures"), "{out}");
    assert!(
        out.contains("    x = 1\n") && out.contains("    x = 1000\n"),
        "{out}"
    );
    let (passed, out) = run_two_bugs_test(None);
    assert!(!passed, "{out}");
    assert!(!out.contains("distinct failures"), "{out}");
}

#[test]
fn a_malformed_pbt_report_multiple_is_an_error_naming_the_value() {
    let (passed, out) = run_two_bugs_test(Some("sometimes"));
    assert!(!passed, "{out}");
    assert!(
        out.contains("PBT_REPORT_MULTIPLE=\"sometimes\" is not a switch"),
        "{out}"
    );
}

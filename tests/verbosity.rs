//! `PBT_VERBOSITY=quiet|normal|verbose|debug` and `Config::verbosity`,
//! through `#[property_test]`. Each test runs one of the ignored tests of
//! this binary again in a child process with the variables it needs (a
//! test binary of its own: they would reach every test of a shared one).

use pbt::prelude::*;
use pbt::runners::{Regressions, Verbosity};
use std::process::Command;

/// Passes, with statistics to show.
#[property_test]
#[ignore = "run by the tests below, in a child process"]
fn passes(x: u8) {
    classify!(x < 128, "low half");
}

/// Fails for `x >= 1000`: found large, shrunk in steps.
#[property_test(config = Config::default().regressions(Regressions::Off))]
#[ignore = "run by the tests below, in a child process"]
fn fails(x: u32) {
    assert!(x < 1000);
}

/// Fails for `x >= 1000`, each test in a child process.
#[property_test(isolated, config = Config::default().regressions(Regressions::Off))]
#[ignore = "run by the tests below, in a child process"]
fn fails_isolated(x: u32) {
    assert!(x < 1000);
}

/// Passes, verbose in code.
#[property_test(config = Config::default().verbosity(Verbosity::Verbose))]
#[ignore = "run by the tests below, in a child process"]
fn verbose_in_code(x: u8) {
    let _ = x;
}

/// Run the ignored test `test` of this binary with `vars`: (passed, output).
fn child(test: &str, vars: &[(&str, &str)]) -> (bool, String) {
    let exe = std::env::current_exe().expect("the test binary");
    let mut command = Command::new(exe);
    command.args([
        "--exact",
        test,
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ]);
    for var in [
        "PBT_VERBOSITY",
        "PBT_STATS",
        "PBT_SHRINK_STATS",
        "PBT_SEED",
        "PBT_CASES",
        "PBT_PROFILE",
        "CI",
    ] {
        command.env_remove(var);
    }
    command.envs(vars.iter().copied());
    let out = command.output().expect("the test binary runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

fn count(out: &str, needle: &str) -> usize {
    out.matches(needle).count()
}

#[test]
fn quiet_prints_nothing_for_a_pass() {
    // Normal shows the statistics asked for; quiet shows nothing.
    let (passed, normal) = child("passes", &[("PBT_STATS", "1")]);
    assert!(passed, "{normal}");
    assert!(normal.contains("passed 100 tests"), "{normal}");
    let (passed, quiet) = child("passes", &[("PBT_STATS", "1"), ("PBT_VERBOSITY", "quiet")]);
    assert!(passed, "{quiet}");
    assert!(!quiet.contains("pbt"), "{quiet}");
    // Nothing ran (PBT_CASES=0) is a warning at normal, silent when quiet.
    let (_, normal) = child("passes", &[("PBT_CASES", "0")]);
    assert!(normal.contains("nothing ran"), "{normal}");
    let (_, quiet) = child("passes", &[("PBT_CASES", "0"), ("PBT_VERBOSITY", "QUIET")]);
    assert!(!quiet.contains("nothing ran"), "{quiet}");
}

#[test]
fn quiet_prints_the_failure_report_alone() {
    let (passed, normal) = child("fails", &[]);
    assert!(!passed, "{normal}");
    assert!(normal.contains("found a failing input"), "{normal}");
    let (passed, quiet) = child("fails", &[("PBT_VERBOSITY", "quiet")]);
    assert!(!passed, "{quiet}");
    assert!(!quiet.contains("found a failing input"), "{quiet}");
    assert!(quiet.contains("property failed"), "{quiet}");
    assert!(quiet.contains("    x = 1000"), "{quiet}");
    assert!(
        quiet.contains("replay this case alone: PBT_REPLAY="),
        "{quiet}"
    );
}

#[test]
fn verbose_prints_the_failing_input_and_each_shrink_step() {
    let (_, normal) = child("fails", &[]);
    assert!(!normal.contains("failing input found"), "{normal}");
    assert!(!normal.contains("shrink step"), "{normal}");
    let (passed, out) = child("fails", &[("PBT_VERBOSITY", "verbose")]);
    assert!(!passed, "{out}");
    assert_eq!(
        count(&out, "pbt: verbosity::fails: failing input found: x = "),
        1,
        "{out}"
    );
    let steps: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("pbt: verbosity::fails: shrink step "))
        .collect();
    assert!(!steps.is_empty(), "{out}");
    // Numbered from 1, one per step the report counts, the last one the
    // counterexample.
    assert!(steps[0].starts_with("1: x = "), "{out}");
    assert!(steps.last().unwrap().ends_with(": x = 1000"), "{out}");
    assert!(
        out.contains(&format!("shrunk in {} steps", steps.len())),
        "{out}"
    );
    // No generated input at verbose.
    assert!(!out.contains("generated (size"), "{out}");
}

#[test]
fn verbose_prints_the_summary_of_a_pass_and_config_sets_it_in_code() {
    let (passed, out) = child("passes", &[("PBT_VERBOSITY", "verbose")]);
    assert!(passed, "{out}");
    assert!(out.contains("passed 100 tests"), "{out}");
    assert!(!out.contains("classes:"), "{out}");
    let (passed, out) = child("verbose_in_code", &[]);
    assert!(passed, "{out}");
    assert!(out.contains("passed 100 tests"), "{out}");
    // The variable wins over the code.
    let (_, out) = child("verbose_in_code", &[("PBT_VERBOSITY", "normal")]);
    assert!(!out.contains("passed 100 tests"), "{out}");
}

#[test]
fn debug_adds_every_generated_input_and_the_shrinkers_pass_table() {
    let (passed, out) = child("passes", &[("PBT_VERBOSITY", "debug")]);
    assert!(passed, "{out}");
    assert_eq!(
        count(&out, "pbt: verbosity::passes: generated (size "),
        100,
        "{out}"
    );
    // And the statistics table.
    assert!(out.contains("low half"), "{out}");
    let (passed, out) = child("fails", &[("PBT_VERBOSITY", "debug")]);
    assert!(!passed, "{out}");
    assert!(
        out.contains("pbt: verbosity::fails: generated (size "),
        "{out}"
    );
    assert!(out.contains("shrink step 1: x = "), "{out}");
    assert_eq!(count(&out, "integrated shrinking, per pass"), 1, "{out}");
    assert!(out.contains("total"), "{out}");
    // PBT_SHRINK_STATS still prints the table, at any level, once.
    let (_, out) = child("fails", &[("PBT_SHRINK_STATS", "1")]);
    assert_eq!(count(&out, "integrated shrinking, per pass"), 1, "{out}");
    let (_, out) = child(
        "fails",
        &[("PBT_SHRINK_STATS", "1"), ("PBT_VERBOSITY", "debug")],
    );
    assert_eq!(count(&out, "integrated shrinking, per pass"), 1, "{out}");
}

#[test]
fn a_malformed_verbosity_is_an_error_naming_the_value() {
    let (passed, out) = child("passes", &[("PBT_VERBOSITY", "loud")]);
    assert!(!passed, "{out}");
    assert!(
        out.contains(
            "PBT_VERBOSITY=\"loud\" is not a verbosity: expected quiet, normal, verbose or debug"
        ),
        "{out}"
    );
}

#[test]
fn the_isolated_mode_narrates_what_its_children_print() {
    let (passed, out) = child("fails_isolated", &[("PBT_VERBOSITY", "verbose")]);
    assert!(!passed, "{out}");
    let name = "pbt: verbosity::fails_isolated:";
    assert_eq!(
        count(&out, &format!("{name} failing input found: x = ")),
        1,
        "{out}"
    );
    assert!(
        out.contains(&format!("{name} shrink step 1: x = ")),
        "{out}"
    );
    assert!(out.contains("    x = 1000"), "{out}");
    assert!(!out.contains("generated (size"), "{out}");
    let (_, out) = child("fails_isolated", &[("PBT_VERBOSITY", "debug")]);
    assert!(out.contains(&format!("{name} generated (size ")), "{out}");
    let (_, out) = child("fails_isolated", &[]);
    assert!(!out.contains("shrink step"), "{out}");
}

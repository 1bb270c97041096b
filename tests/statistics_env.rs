//! `PBT_STATS` and `PBT_CHECK_COVERAGE` from the environment, through
//! `#[property_test]`: each test runs this test binary again with the
//! variable set (a test binary of its own: the variables would reach every
//! test of a shared one).

use pbt::prelude::*;
use std::process::Command;

/// Passes quietly unless `PBT_STATS` asks for its statistics.
#[property_test]
fn classified(x: u8) {
    classify!(x < 128, "low half");
}

/// Passes unless `PBT_CHECK_COVERAGE` checks its (unreachable) requirement.
#[property_test]
fn never_covered(x: u8) {
    require_cover!(50, x == 7 && x == 8, "impossible");
}

/// Run one test of this binary with `var=value`: (passed, its output).
fn run_with(test: &str, var: &str, value: &str) -> (bool, String) {
    let exe = std::env::current_exe().expect("the test binary");
    let out = Command::new(exe)
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(var, value)
        .env_remove("PBT_SEED")
        .env_remove("PBT_CASES")
        .output()
        .expect("the test binary runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn pbt_stats_prints_the_table_of_a_passing_property_test() {
    let (passed, out) = run_with("classified", "PBT_STATS", "1");
    assert!(passed, "{out}");
    assert!(out.contains("passed 100 tests"), "{out}");
    assert!(
        out.contains("classes:") && out.contains("low half"),
        "{out}"
    );
    assert!(out.contains("sizes: min 0"), "{out}");

    let (passed, out) = run_with("classified", "PBT_STATS", "0");
    assert!(passed, "{out}");
    assert!(!out.contains("classes:"), "{out}");
}

#[test]
fn a_malformed_switch_is_an_error_naming_the_value() {
    let (passed, out) = run_with("classified", "PBT_STATS", "sometimes");
    assert!(!passed, "{out}");
    assert!(
        out.contains("PBT_STATS=\"sometimes\" is not a switch"),
        "{out}"
    );
    let (passed, out) = run_with("never_covered", "PBT_CHECK_COVERAGE", "2");
    assert!(!passed, "{out}");
    assert!(out.contains("PBT_CHECK_COVERAGE=\"2\""), "{out}");
}

#[test]
fn pbt_check_coverage_checks_the_requirements_of_a_property_test() {
    let (passed, out) = run_with("never_covered", "PBT_CHECK_COVERAGE", "1");
    assert!(!passed, "{out}");
    assert!(out.contains("insufficient coverage"), "{out}");
    assert!(out.contains("`impossible` held in 0.0% of tests"), "{out}");
    // Unchecked, the unmet requirement is a warning printed by a passing test.
    let (passed, out) = run_with("never_covered", "PBT_CHECK_COVERAGE", "off");
    assert!(passed, "{out}");
    assert!(out.contains("but 50% are required"), "{out}");
}

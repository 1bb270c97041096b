//! A hang never costs another test its report, in the default mode: a
//! binary with one `#[property_test]` that hangs and one that fails, run
//! under plain `cargo test` (captured output, tests in parallel) as a
//! child, reports both: the hang shrunk to its minimum and saved, the
//! failure with its counterexample.
//!
//! The `scenario_*` tests do nothing unless `PBT_SCENARIO` is set; the
//! driver runs this binary again as a child with it set.

use libtest_output::{report_of, text};
use pbt::prelude::*;
use pbt::runners::components::regressions::RegressionsFile;
use pbt::runners::Regressions;
use std::process::{Command, Output};

mod libtest_output;

fn in_scenario() -> bool {
    std::env::var_os("PBT_SCENARIO").is_some_and(|s| s == "hang_neighbours")
}

/// The scenario's regressions file (none outside the scenario).
fn scenario_config() -> Config {
    let file = std::env::var_os("PBT_SCENARIO_FILE").map(std::path::PathBuf::from);
    Config::default().regressions(match file {
        Some(file) => Regressions::File(file),
        None => Regressions::Off,
    })
}

/// Hangs from 3 up: the smallest hanging input is 3.
#[property_test(config = scenario_config(), timeout_ms = 300, seed = 7)]
fn scenario_hangs_from_three(x: u8) -> bool {
    if in_scenario() && x >= 3 {
        loop {
            std::hint::black_box(0);
        }
    }
    true
}

/// Hangs (asleep, not to take a core from the other tests) from 3 up,
/// under a time limit of 1.5 s and six seconds of shrinking: at the full
/// limit per candidate, four hanging candidates would end the shrinking far
/// above 3 (73 and 37 on two runs).
#[property_test(
    config = scenario_config().max_shrink_time(std::time::Duration::from_secs(6)),
    timeout_ms = 1500,
    seed = 7
)]
fn long_limit_hangs_from_three(x: u8) -> bool {
    if in_scenario() && x >= 3 {
        loop {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
    true
}

/// Hangs from 100 up, and takes 0.4 s from 3 up: longer than the short
/// limit a hang's candidates get first (0.15 s), within the run's (1.5 s).
#[property_test(
    config = scenario_config().max_shrink_time(std::time::Duration::from_secs(4)),
    timeout_ms = 1500,
    seed = 7
)]
fn slow_below_a_hang(x: u8) -> bool {
    if in_scenario() && x >= 3 {
        std::thread::sleep(std::time::Duration::from_millis(400));
        if x >= 100 {
            loop {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
    }
    true
}

/// Fails from 10 up.
#[property_test(config = scenario_config(), seed = 7)]
fn scenario_fails_from_ten(x: u8) -> bool {
    !in_scenario() || x < 10
}

fn run(file: &std::path::Path, env: &[(&str, &str)]) -> Output {
    run_only("scenario_", file, env)
}

/// This binary again, running the tests whose names contain `filter`.
fn run_only(filter: &str, file: &std::path::Path, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args([filter])
        .env("PBT_SCENARIO", "hang_neighbours")
        .env("PBT_SCENARIO_FILE", file)
        .env_remove("PBT_SEED")
        .env_remove("PBT_CASES")
        .env_remove("PBT_ISOLATE");
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().unwrap()
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pbt-hang-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("r.txt")
}

#[test]
fn a_hang_under_plain_cargo_test_costs_no_other_test_its_report() {
    // Plain `cargo test`: captured output, the tests in parallel, one process.
    let file = scratch("default");
    let out = run(&file, &[]);
    let all = text(&out);
    assert!(all.contains("0 passed; 2 failed"), "{all}");
    let failing = report_of(&all, "scenario_fails_from_ten");
    assert!(
        failing.contains("counterexample:\n    x = 10\n"),
        "{failing}"
    );
    let hang = report_of(&all, "scenario_hangs_from_three");
    // Shrunk to the minimum, with its seed, saved.
    assert!(hang.contains("counterexample:\n    x = 3\n"), "{hang}");
    assert!(
        hang.contains("did not return within the time limit"),
        "{hang}"
    );
    assert!(hang.contains("PBT_SEED=0x7"), "{hang}");
    assert!(hang.contains("the other tests went on"), "{hang}");
    let saved = RegressionsFile::at(&file).load_for("hang_neighbours::scenario_hangs_from_three");
    assert_eq!(
        saved.len(),
        2,
        "the hang and its shrunk form: {saved:?}\n{all}"
    );

    // The next run replays the shrunk hang first: nothing left to shrink.
    let again = text(&run(&file, &[]));
    let hang = report_of(&again, "scenario_hangs_from_three");
    assert!(hang.contains("on its saved case 1"), "{hang}");
    assert!(hang.contains("counterexample:\n    x = 3\n"), "{hang}");
    assert!(again.contains("0 passed; 2 failed"), "{again}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());

    // The isolated mode reaches the same minimum.
    let file = scratch("isolated");
    let isolated = text(&run(&file, &[("PBT_ISOLATE", "1")]));
    let hang = report_of(&isolated, "scenario_hangs_from_three");
    assert!(hang.contains("counterexample:\n    x = 3\n"), "{hang}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn a_hang_is_shrunk_to_its_minimum_with_short_limits_per_candidate() {
    let file = scratch("long-limit");
    let all = text(&run_only("long_limit_hangs_from_three", &file, &[]));
    let hang = report_of(&all, "long_limit_hangs_from_three");
    assert!(hang.contains("counterexample:\n    x = 3\n"), "{hang}");
    assert!(!hang.contains("shrinking stopped at a limit"), "{hang}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn a_slow_input_is_not_taken_for_a_hang_by_the_short_limits() {
    // The short limits take 3 for a hang; run at the full limit it returns,
    // so the hang is shrunk again at the full limit: never below 100.
    let file = scratch("slow");
    let all = text(&run_only("slow_below_a_hang", &file, &[]));
    let hang = report_of(&all, "slow_below_a_hang");
    let x: u8 = hang
        .split("counterexample:\n    x = ")
        .nth(1)
        .and_then(|rest| rest.lines().next())
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("{hang}"));
    assert!(x >= 100, "{hang}");
    assert!(
        hang.contains("did not return within the time limit"),
        "{hang}"
    );
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

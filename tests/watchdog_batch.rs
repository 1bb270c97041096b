//! A test deep inside a batch of fresh cases announces itself to the
//! watchdog with its ticket alone (one store); the watch works its case
//! out from the ticket. These check that a hang and a crash on the 77th
//! test of a batch still save and print exactly that test's case.
//!
//! The scenarios end their process: `scenario_*` tests do nothing unless
//! `PBT_SCENARIO` names them; the drivers run this binary again as a child
//! with it set and judge the child's exit, output and regressions file.

use pbt::prelude::*;
use pbt::runners::components::regressions::RegressionsFile;
use pbt::runners::components::{Found, Plan};
use pbt::runners::{generational, Regressions};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// The test (counting from 1) on which the scenarios fault.
const FAULTING_TEST: u64 = 77;

/// Tests run so far by a scenario's check.
static TESTS: AtomicU64 = AtomicU64::new(0);

fn scenario(name: &str) -> Option<PathBuf> {
    (std::env::var("PBT_SCENARIO").ok()? == name)
        .then(|| PathBuf::from(std::env::var("PBT_SCENARIO_FILE").unwrap()))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pbt-batch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("r.pbt-regressions")
}

fn run(filter: &str, file: &Path) -> Output {
    Command::new(std::env::current_exe().unwrap())
        .args([filter, "--exact", "--test-threads=1", "--nocapture"])
        .env("PBT_SCENARIO", filter)
        .env("PBT_SCENARIO_FILE", file)
        .env_remove("PBT_SEED")
        .env_remove("PBT_CASES")
        .env_remove("PBT_ISOLATE")
        .output()
        .unwrap()
}

fn config(file: &Path) -> Config {
    Config::default()
        .seed(7)
        .timeout(Duration::from_millis(300))
        .max_shrinks(0)
        .regressions(Regressions::File(file.to_path_buf()))
}

/// Fault on the `FAULTING_TEST`th test, whatever its input.
fn scenario_faulting(name: &str, fault: fn()) {
    let Some(file) = scenario(name) else { return };
    let prop = property! {
        forall x: u64;
        check {
            if TESTS.fetch_add(1, Relaxed) + 1 == FAULTING_TEST {
                fault();
            }
            std::hint::black_box(x) == x
        }
    };
    let _ = generational(&prop, config(&file));
}

#[test]
fn scenario_hang_on_the_77th_test() {
    scenario_faulting("scenario_hang_on_the_77th_test", || loop {
        std::hint::black_box(0);
    });
}

#[test]
fn scenario_abort_on_the_77th_test() {
    scenario_faulting("scenario_abort_on_the_77th_test", || std::process::abort());
}

/// What the child said, for a failed assertion.
fn text(out: &Output) -> String {
    format!(
        "status: {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The case of the faulting test: fresh case `FAULTING_TEST - 1` of seed 7.
fn faulting_case() -> Found {
    let plan = Plan::new(&Config::default().seed(7).ignore_env(), &Default::default());
    Found::Case(plan.case(FAULTING_TEST - 1))
}

fn the_case_in_flight_is_saved(scenario: &str, what: &str) {
    let file = scratch(scenario);
    let out = run(scenario, &file);
    let all = text(&out);
    assert!(!out.status.success(), "{all}");
    assert!(all.contains(what), "{all}");
    let saved = RegressionsFile::at(&file).read().cases;
    assert_eq!(saved.first(), Some(&faulting_case()), "{all}");
    let Found::Case(case) = faulting_case() else {
        unreachable!()
    };
    assert!(all.contains(&format!("{:#x}", case.seed)), "{all}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn a_hang_deep_in_a_batch_saves_and_prints_the_hanging_case() {
    the_case_in_flight_is_saved("scenario_hang_on_the_77th_test", "does not return");
}

#[test]
fn a_crash_deep_in_a_batch_saves_the_case_in_flight() {
    the_case_in_flight_is_saved("scenario_abort_on_the_77th_test", "abort");
}

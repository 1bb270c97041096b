//! Saved cases belong to their test, and one printed command replays one
//! case.
//!
//! The `scenario_*` tests fail on purpose, each on its own inputs, and do
//! nothing unless `PBT_SCENARIO` is set: the drivers run this binary again
//! as a child — in parallel, as plain `cargo test` does — with a fresh
//! regressions file, and read each test's report.

use libtest_output::{report_of, text};
use pbt::prelude::*;
use pbt::runners::components::regressions::RegressionsFile;
use pbt::runners::{generational, Regressions, SavedFrom};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod libtest_output;

fn in_scenario() -> bool {
    std::env::var_os("PBT_SCENARIO").is_some_and(|s| s == "saved_per_test")
}

/// The scenario's regressions file (none outside the scenario).
fn scenario_config() -> Config {
    let file = std::env::var_os("PBT_SCENARIO_FILE").map(PathBuf::from);
    Config::default().seed(7).regressions(match file {
        Some(file) => Regressions::File(file),
        None => Regressions::Off,
    })
}

/// Five tests of one file, each failing from its own threshold on: a test
/// that replayed another's case would report another minimum.
macro_rules! failing_from {
    ($($name:ident: $min:literal),*) => {$(
        #[property_test(config = scenario_config())]
        fn $name(x: u8) -> bool {
            !in_scenario() || x < $min
        }
    )*};
}

failing_from!(
    scenario_from_11: 11,
    scenario_from_22: 22,
    scenario_from_33: 33,
    scenario_from_44: 44,
    scenario_from_55: 55
);

const TESTS: [(&str, u8); 5] = [
    ("scenario_from_11", 11),
    ("scenario_from_22", 22),
    ("scenario_from_33", 33),
    ("scenario_from_44", 44),
    ("scenario_from_55", 55),
];

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pbt-per-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("r.txt")
}

fn run(args: &[&str], file: &Path, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args(args)
        .env("PBT_SCENARIO", "saved_per_test")
        .env("PBT_SCENARIO_FILE", file)
        .env_remove("PBT_SEED")
        .env_remove("PBT_CASES")
        .env_remove("PBT_ISOLATE")
        .env_remove("PBT_REPLAY");
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().unwrap()
}

/// The command the report prints to replay its case alone.
fn replay_command(report: &str) -> &str {
    let line = report
        .lines()
        .find_map(|l| l.strip_prefix("replay this case alone: "))
        .unwrap_or_else(|| panic!("no replay command:\n{report}"));
    line.trim()
}

/// `PBT_REPLAY='<case>' cargo test -p <package> --tests -- <test> --exact`
/// as the environment and the arguments of the test binary.
fn split_command(command: &str) -> (String, Vec<String>) {
    let rest = command.strip_prefix("PBT_REPLAY='").expect(command);
    let (case, rest) = rest.split_once('\'').expect(command);
    let (cargo, args) = rest.split_once(" -- ").expect(command);
    assert!(cargo.trim_start().starts_with("cargo test"), "{command}");
    (
        case.to_string(),
        args.split_whitespace().map(str::to_string).collect(),
    )
}

#[test]
fn each_test_of_a_file_run_in_parallel_reports_and_replays_its_own_case() {
    let file = scratch("parallel");
    // A fresh run, tests in parallel as under plain `cargo test`.
    let fresh = run(&["scenario_", "--test-threads=5"], &file, &[]);
    let fresh_text = text(&fresh);
    println!("{fresh_text}");
    assert!(fresh_text.contains("0 passed; 5 failed"), "{fresh_text}");
    for (name, min) in TESTS {
        let report = report_of(&fresh_text, name);
        assert!(report.contains("property failed after"), "{name}: {report}");
        assert!(
            report.contains(&format!("    x = {min}\n")),
            "{name}: {report}"
        );
    }
    // No line lost: each test's case as found and its shrunk case, keyed.
    let saved = RegressionsFile::at(&file).read();
    for (name, _) in TESTS {
        let own = saved
            .tests
            .iter()
            .filter(|t| t.as_deref().is_some_and(|t| t.ends_with(name)));
        assert_eq!(own.count(), 2, "{name}: {saved:?}");
    }

    // The next run: each test fails on its own saved case, the shrunk one
    // first (nothing left to shrink), with the run seed.
    let again = run(&["scenario_", "--test-threads=5"], &file, &[]);
    let again_text = text(&again);
    for (name, min) in TESTS {
        let report = report_of(&again_text, name);
        assert!(
            report.contains("property failed on its saved case 1 (run seed 0x7)"),
            "{name}: {report}"
        );
        assert!(
            report.contains(&format!("    x = {min}\n")),
            "{name}: {report}"
        );
        assert!(report.contains("shrunk in 0 steps"), "{name}: {report}");
    }

    // The printed command replays exactly that case, without the file:
    // after the fresh run and after the run on the saved case.
    for (name, min) in TESTS {
        for report in [report_of(&fresh_text, name), report_of(&again_text, name)] {
            let command = replay_command(report);
            assert!(
                command.ends_with(&format!(" -- {name} --exact")),
                "{command}"
            );
            let (case, args) = split_command(command);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let no_file = scratch("no-file");
            let replayed = run(&args, &no_file, &[("PBT_REPLAY", &case)]);
            let replayed_text = text(&replayed);
            assert!(replayed_text.contains("1 failed"), "{replayed_text}");
            let report = report_of(&replayed_text, name);
            assert!(report.contains("on the case PBT_REPLAY names"), "{report}");
            assert!(report.contains(&format!("    x = {min}\n")), "{report}");
            assert!(!no_file.exists(), "PBT_REPLAY reads and writes no file");
        }
    }
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn lines_without_a_test_are_replayed_by_every_test_and_others_lines_by_none() {
    let file = scratch("old-lines");
    let config = || {
        Config::default()
            .ignore_env()
            .seed(3)
            .regressions(Regressions::File(file.clone()))
    };
    let failing = property! { forall x: u8; check x < 100 };
    let found = generational(&failing, config());
    assert!(!found.passed());
    let written = std::fs::read_to_string(&file).unwrap();
    // This test's lines, keyed by its name under libtest.
    let key = " @ lines_without_a_test_are_replayed_by_every_test_and_others_lines_by_none";
    assert!(written.contains(key), "{written}");

    // Keyed to another test: this test does not replay them.
    std::fs::write(&file, written.replace(key, " @ other::test")).unwrap();
    let passing_on_fresh = generational(&failing, config().cases(0));
    assert!(passing_on_fresh.passed(), "{passing_on_fresh}");
    assert_eq!(passing_on_fresh.replayed, 0);

    // Without a key, as older versions wrote them: replayed by every test.
    std::fs::write(&file, written.replace(key, "")).unwrap();
    let replayed = generational(&failing, config().cases(0));
    let failure = replayed.failure.as_ref().expect("replayed");
    assert_eq!(
        failure.replayed_from.as_ref().map(|s| s.from),
        Some(SavedFrom::Shared)
    );
    assert_eq!(failure.counterexample[0].value, "100");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn concurrent_writers_of_one_file_lose_no_line() {
    let file = scratch("writers");
    let file = &file;
    std::thread::scope(|s| {
        for t in 0..8 {
            s.spawn(move || {
                let f = RegressionsFile::at(file);
                for n in 0..25u64 {
                    let found =
                        pbt::runners::components::Found::Case(pbt::runners::components::CaseSeed {
                            seed: n,
                            size: t,
                        });
                    f.save(&found, &format!("m::t{t}"), "x").unwrap();
                }
            });
        }
    });
    let saved = RegressionsFile::at(file).read();
    assert!(saved.warnings.is_empty(), "{:?}", saved.warnings);
    assert_eq!(saved.cases.len(), 200);
    for t in 0..8 {
        let own = RegressionsFile::at(file).load_for(&format!("m::t{t}"));
        assert_eq!(own.len(), 25);
        assert!(own.iter().all(|s| s.own));
    }
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

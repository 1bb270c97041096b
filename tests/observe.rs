//! The observations file (`Config::observe`, `PBT_OBSERVE=dir`): one JSON
//! line per test case in Hypothesis's observability format, which the
//! Tyche extension reads. Each line is checked against the test-case schema
//! Hypothesis publishes (`schema_observations.json`: every required field,
//! its type, no other field) and against what Tyche's reader accepts (an
//! information line's `content` is a string); then what the lines say is
//! checked against the run: one line per test, statuses, arguments by
//! name, features from the check's labels and tables, and how each input
//! came about (generated, replayed, shrinking).

use pbt::prelude::*;
use pbt::runners::{fuzz, generational, integrated, parallel, Regressions, Verdict};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// No regressions file, no `PBT_*` overrides, observed into `dir`.
fn observed(dir: &Path) -> Config {
    Config::default()
        .regressions(Regressions::Off)
        .ignore_env()
        .observe(dir)
}

/// A fresh directory for one test's observations.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pbt-observe-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The lines of every `*_<kind>.jsonl` file in `dir`, parsed.
fn lines(dir: &Path, kind: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("the observations directory") {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.ends_with(&format!("_{kind}.jsonl")) {
            continue;
        }
        // Named as Hypothesis names them: `YYYY-MM-DD_<kind>.jsonl`.
        let day = &name[..name.len() - kind.len() - 7];
        assert!(
            day.len() == 10 && day.chars().filter(|&c| c == '-').count() == 2,
            "{name}"
        );
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines() {
            out.push(serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")));
        }
    }
    out
}

/// A test-case line as Hypothesis's schema requires it (all twelve fields,
/// each of its type, no other) and as Tyche's reader parses it.
fn check_test_case(line: &Value) {
    let object = line
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {line}"));
    let required = [
        "type",
        "status",
        "status_reason",
        "representation",
        "arguments",
        "how_generated",
        "features",
        "coverage",
        "timing",
        "metadata",
        "property",
        "run_start",
    ];
    for key in required {
        assert!(object.contains_key(key), "no {key}: {line}");
    }
    for key in object.keys() {
        assert!(
            required.contains(&key.as_str()),
            "{key} is not in the schema: {line}"
        );
    }
    assert_eq!(line["type"], "test_case");
    let status = line["status"].as_str().unwrap();
    assert!(["passed", "failed", "gave_up"].contains(&status), "{line}");
    assert!(line["status_reason"].is_string(), "{line}");
    assert!(line["representation"].is_string(), "{line}");
    assert!(line["arguments"].is_object(), "{line}");
    assert!(line["how_generated"].is_string() || line["how_generated"].is_null());
    assert!(line["features"].is_object(), "{line}");
    match &line["coverage"] {
        Value::Null => {}
        Value::Object(files) => {
            for lines in files.values() {
                let lines = lines.as_array().unwrap();
                assert!(lines.iter().all(|l| l.as_u64().is_some_and(|l| l >= 1)));
            }
        }
        other => panic!("coverage is {other}"),
    }
    let timing = line["timing"].as_object().unwrap();
    assert!(timing
        .values()
        .all(|t| t.as_f64().is_some_and(|t| t >= 0.0)));
    assert!(line["metadata"].is_object(), "{line}");
    assert!(line["property"].is_string(), "{line}");
    assert!(line["run_start"].is_number(), "{line}");
    // Passing and discarded inputs explain nothing; a failing one says why.
    let reason = line["status_reason"].as_str().unwrap();
    assert_eq!(status == "passed", reason.is_empty(), "{line}");
}

/// An information line as Hypothesis's schema and Tyche's reader require.
fn check_info(line: &Value) {
    let object = line.as_object().unwrap();
    let keys: Vec<&str> = object.keys().map(String::as_str).collect();
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        ["content", "property", "run_start", "title", "type"],
        "{line}"
    );
    assert!(["info", "alert", "error"].contains(&line["type"].as_str().unwrap()));
    assert!(
        line["title"].is_string() && line["content"].is_string(),
        "{line}"
    );
    assert!(
        line["property"].is_string() && line["run_start"].is_number(),
        "{line}"
    );
}

#[test]
fn a_passing_run_writes_one_line_per_test_with_its_arguments_and_features() {
    let dir = scratch("passing");
    let prop = property! {
        forall x: u8, ys: Vec<bool>;
        check {
            label!("length {}", ys.len().min(2));
            tabulate!("parity", x % 2);
            classify!(x < 128, "low half");
            true
        }
    };
    let report = generational(&prop, observed(&dir).seed(7).cases(60));
    assert_eq!(report.verdict, Verdict::Passed, "{report}");
    let cases = lines(&dir, "testcases");
    assert_eq!(cases.len(), 60, "one line per test");
    let run_start = &cases[0]["run_start"];
    for line in &cases {
        check_test_case(line);
        assert_eq!(line["status"], "passed");
        assert_eq!(line["how_generated"], "generated");
        assert_eq!(&line["run_start"], run_start, "one run");
        let x = line["arguments"]["x"].as_u64().expect("x, a number");
        assert!(line["arguments"]["ys"].is_array(), "{line}");
        assert_eq!(
            line["representation"].as_str().unwrap(),
            format!(
                "x = {x}, ys = {}",
                line["arguments"]["ys"].to_string().replace(',', ", ")
            ),
        );
        assert_eq!(line["features"]["parity"], x % 2, "a number: {line}");
        let label = line["features"]["label"].as_str().unwrap();
        assert!(label.starts_with("length "), "{line}");
        assert_eq!(line["features"]["classes"] == "low half", x < 128, "{line}");
        assert!(line["timing"]["execute:test"].is_number(), "{line}");
        assert!(line["metadata"]["replay"]
            .as_str()
            .unwrap()
            .starts_with("cc 0x"));
    }
    // The statistics are counted as without the observations.
    let counted: u64 = report.statistics.labels.iter().map(|r| r.count).sum();
    assert_eq!(counted, 60, "{report}");
    let info = lines(&dir, "info");
    assert_eq!(info.len(), 1, "{info:?}");
    check_info(&info[0]);
    assert_eq!(info[0]["run_start"], *run_start);
    assert!(info[0]["content"]
        .as_str()
        .unwrap()
        .contains("passed 60 tests"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failing_run_writes_the_failure_and_each_shrink_step() {
    let dir = scratch("failing");
    let prop = property! {
        forall xs: Vec<u32>;
        check xs.iter().sum::<u32>() < 1000
    };
    for (run, shrinker) in [("generational", true), ("integrated", false)] {
        let config = observed(&dir.join(run)).seed(3).cases(500);
        let report = match shrinker {
            true => generational(&prop, config),
            false => integrated(&prop, config),
        };
        assert_eq!(report.verdict, Verdict::Failed, "{report}");
        let cases = lines(&dir.join(run), "testcases");
        cases.iter().for_each(check_test_case);
        let generated: Vec<&Value> = (cases.iter())
            .filter(|l| l["how_generated"] == "generated")
            .collect();
        // Every test up to the failure, the failing one last.
        assert_eq!(generated.len() as u64, report.tests, "{report}");
        let (last, passed) = generated.split_last().unwrap();
        assert_eq!(last["status"], "failed");
        assert!(passed.iter().all(|l| l["status"] == "passed"));
        let steps: Vec<&Value> = (cases.iter())
            .filter(|l| l["how_generated"] == "shrinking")
            .collect();
        assert!(!steps.is_empty(), "{report}");
        assert!(steps.iter().all(|l| l["status"] == "failed"));
        assert!((steps.iter()).all(|l| l["status_reason"] == last["status_reason"]));
        // The shrink lines come after the failure, and the last is the
        // counterexample reported.
        let first_step = cases.iter().position(|l| l["how_generated"] == "shrinking");
        assert!(first_step > cases.iter().position(|l| l["status"] == "failed"));
        let failure = report.failure.as_ref().unwrap();
        let shown = format!("xs = {}", failure.counterexample[0].value);
        assert_eq!(steps.last().unwrap()["representation"], shown.as_str());
        let ordered = (steps.iter()).map(|l| l["metadata"]["shrink_step"].as_u64().unwrap());
        assert!(ordered.eq(1..=steps.len() as u64));
        let info = lines(&dir.join(run), "info");
        assert!(info[0]["content"].as_str().unwrap().contains("failed"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn replayed_and_discarded_inputs_say_so() {
    let dir = scratch("replayed");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("regressions.txt");
    std::fs::write(&file, "cc 0x1 0 # a saved case\ncc 0x2 5 # another\n").unwrap();
    let prop = property! {
        forall x: u8;
        implies x % 4 == 0;
        check x < 255
    };
    let config = observed(&dir.join("observed"))
        .regressions(Regressions::File(file))
        .seed(1)
        .cases(40);
    let report = generational(&prop, config);
    assert_eq!(report.verdict, Verdict::Passed, "{report}");
    let cases = lines(&dir.join("observed"), "testcases");
    cases.iter().for_each(check_test_case);
    // The saved cases first, then the fresh ones.
    let how: Vec<&str> = cases
        .iter()
        .map(|l| l["how_generated"].as_str().unwrap())
        .collect();
    assert_eq!(how[..2], ["replayed from the regressions file"; 2]);
    // Rejected by most inputs, the preconditions are targeted: the rest of
    // the run mutates the inputs closest to them.
    assert!(
        report.notes.iter().any(|n| n.contains("targeted")),
        "{report}"
    );
    let fresh = &how[2..];
    assert!((fresh.iter()).all(|&h| h == "generated" || h == "fuzzed (mutated)"));
    assert!(fresh.contains(&"generated") && fresh.contains(&"fuzzed (mutated)"));
    assert_eq!(cases[0]["metadata"]["replay"], "cc 0x1 0");
    let gave_up = cases[2..]
        .iter()
        .filter(|l| l["status"] == "gave_up")
        .count() as u64;
    let fresh = cases.len() as u64 - 2;
    assert_eq!(gave_up, report.discards, "{report}");
    assert_eq!(fresh, report.tests + report.discards, "{report}");
    let discarded = cases.iter().find(|l| l["status"] == "gave_up").unwrap();
    assert_eq!(discarded["status_reason"], "a precondition did not hold");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn inputs_a_generator_rejected_are_told_apart() {
    let dir = scratch("rejected");
    let prop = property! {
        forall x: u32, #[gen = filter(int(0..1_000_000u32), |x| x % 1000 == 0)];
        check x % 1000 == 0
    };
    let report = generational(&prop, observed(&dir).seed(5).cases(30).auto_target(false));
    assert!(report.discards > 0, "{report}");
    let cases = lines(&dir, "testcases");
    cases.iter().for_each(check_test_case);
    let rejected: Vec<&Value> = cases.iter().filter(|l| l["status"] == "gave_up").collect();
    assert_eq!(rejected.len() as u64, report.discards, "{report}");
    for line in &rejected {
        assert_eq!(line["status_reason"], "a generator rejected the input");
        assert_eq!(
            line["arguments"],
            serde_json::json!({}),
            "nothing was generated"
        );
        // Told apart by how they replay: Tyche counts inputs that print
        // the same as duplicates.
        let replay = line["metadata"]["replay"].as_str().unwrap();
        assert_eq!(line["representation"], format!("<not generated: {replay}>"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_fuzzer_writes_each_input_it_generated_or_mutated() {
    let dir = scratch("fuzz");
    let prop = property! {
        forall xs: Vec<u8>;
        check {
            pbt::feedback::cover(xs.len() as u64 % 5);
            collect!(xs.len());
            true
        }
    };
    let report = fuzz(&prop, observed(&dir).seed(2).cases(300));
    assert_eq!(report.verdict, Verdict::Passed, "{report}");
    let cases = lines(&dir, "testcases");
    cases.iter().for_each(check_test_case);
    assert_eq!(
        cases.len() as u64,
        report.tests + report.discards,
        "{report}"
    );
    let how = |h: &str| cases.iter().filter(|l| l["how_generated"] == h).count();
    assert!(
        how("generated") > 0 && how("fuzzed (mutated)") > 0,
        "{cases:?}"
    );
    assert_eq!(how("generated") + how("fuzzed (mutated)"), cases.len());
    for line in &cases {
        // The feedback the pool saw: the coverage points the input
        // reached; and the check's labels.
        assert!(line["features"]["coverage points"].as_u64() >= Some(1));
        let xs = line["arguments"]["xs"].as_array().unwrap();
        assert_eq!(line["features"]["label"], xs.len(), "{line}");
    }
    // Counted in the statistics as without the observations.
    let counted: u64 = report.statistics.labels.iter().map(|r| r.count).sum();
    assert_eq!(counted, report.tests, "{report}");
    // A mutant replays as its choices (`cx`) or as its base and the
    // seeds of its value mutations (`cm`), never as a fresh case.
    for line in cases
        .iter()
        .filter(|l| l["how_generated"] == "fuzzed (mutated)")
    {
        let replay = line["metadata"]["replay"].as_str().unwrap();
        assert!(
            replay.starts_with("cx ") || replay.starts_with("cm "),
            "{line}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_parallel_runner_observed_runs_on_one_thread_with_a_line_per_test() {
    let dir = scratch("parallel");
    let prop = property! {
        forall x: u32;
        check { tabulate!("low bits", x % 4); true }
    };
    let report = parallel(&prop, observed(&dir).seed(4).cases(80).workers(4));
    assert_eq!(report.verdict, Verdict::Passed, "{report}");
    let cases = lines(&dir, "testcases");
    assert_eq!(cases.len(), 80);
    for line in &cases {
        check_test_case(line);
        let x = line["arguments"]["x"].as_u64().unwrap();
        assert_eq!(line["features"]["low bits"], x % 4, "{line}");
    }
    // In the order of the run's cases: the sizes cycle from 0.
    let sizes: Vec<u64> = (cases.iter())
        .map(|l| l["metadata"]["size"].as_u64().unwrap())
        .collect();
    assert_eq!(sizes[..5], [0, 1, 2, 3, 4]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_directory_that_cannot_be_created_is_an_error_naming_it() {
    let dir = scratch("blocked");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a-file"), "not a directory").unwrap();
    let blocked = dir.join("a-file").join("observed");
    let prop = property! { forall x: u8; check x < 255 };
    let config = observed(&blocked);
    let panic = std::panic::catch_unwind(|| generational(&prop, config)).unwrap_err();
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("cannot write observations"), "{message}");
    assert!(
        message.contains(&blocked.display().to_string()),
        "{message}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Observed through `PBT_OBSERVE` by `the_environment_turns_observation_on`.
#[property_test(cases = 30)]
fn observed_from_the_environment(x: u16) {
    collect!(x % 3);
}

/// Run `observed_from_the_environment` alone with `PBT_OBSERVE=dir` (and
/// `PBT_REPLAY=case` when given): (passed, its output).
fn run_observed_into(dir: &Path, replay: Option<&str>) -> (bool, String) {
    let exe = std::env::current_exe().expect("the test binary");
    let mut command = Command::new(exe);
    if let Some(case) = replay {
        command.env("PBT_REPLAY", case);
    }
    let out = command
        .args([
            "--exact",
            "observed_from_the_environment",
            "--test-threads=1",
        ])
        .env("PBT_OBSERVE", dir)
        .env_remove("PBT_SEED")
        .env_remove("PBT_CASES")
        .output()
        .expect("the test binary runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn the_environment_turns_observation_on() {
    let dir = scratch("environment");
    let (passed, out) = run_observed_into(&dir, None);
    assert!(passed, "{out}");
    let cases = lines(&dir, "testcases");
    assert_eq!(cases.len(), 30);
    for line in &cases {
        check_test_case(line);
        assert_eq!(line["property"], "observe::observed_from_the_environment");
        let x = line["arguments"]["x"].as_u64().unwrap();
        assert_eq!(line["features"]["label"], x % 3, "{line}");
    }
    // The one case PBT_REPLAY names, and nothing else.
    let replayed = dir.join("replayed");
    let (passed, out) = run_observed_into(&replayed, Some("cc 0x2a 7"));
    assert!(passed, "{out}");
    let cases = lines(&replayed, "testcases");
    assert_eq!(cases.len(), 1, "{cases:?}");
    check_test_case(&cases[0]);
    assert_eq!(cases[0]["how_generated"], "replayed from PBT_REPLAY");
    assert_eq!(cases[0]["metadata"]["replay"], "cc 0x2a 7");
    // A directory that cannot be created fails the test, naming it.
    let blocked = dir.join(cases_file_name(&dir)).join("observed");
    let (passed, out) = run_observed_into(&blocked, None);
    assert!(!passed, "{out}");
    assert!(out.contains("pbt: cannot write observations"), "{out}");
    assert!(out.contains(&blocked.display().to_string()), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The name of the test-case file in `dir`.
fn cases_file_name(dir: &Path) -> String {
    (std::fs::read_dir(dir).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .find(|name| name.ends_with("_testcases.jsonl"))
        .expect("a test-case file")
}

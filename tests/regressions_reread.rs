//! The regressions file is read once per process and again only when it
//! changed (`RegressionsFile::load` asks for the file's stamp, one `stat`,
//! instead of opening and reading it every run). What must still hold: a
//! case saved by another process between two runs of this one is replayed
//! first by the second; a file edited, replaced or deleted between runs is
//! replayed as it is now; a malformed line written between runs is warned
//! about, naming the file and the line; and the cases this process saves
//! are replayed by its next run.
//!
//! The child process of the first scenario is this test binary run again,
//! selected by `PBT_REREAD_CHILD`; without it that entry point returns.

use pbt::prelude::*;
use pbt::runners::components::regressions::RegressionsFile;
use pbt::runners::components::{CaseSeed, Found};
use pbt::runners::{generational, Regressions, Report};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pbt-reread-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn case(seed: u64, size: usize) -> Found {
    Found::Case(CaseSeed { seed, size })
}

/// Let a file's last modification age past the window in which its stamp
/// is not trusted, so that the next load keeps it in memory (the case the
/// stamp check is for).
fn settle() {
    std::thread::sleep(Duration::from_millis(150));
}

/// The test every [`run`] belongs to, whichever test calls it: the key its
/// cases are saved under, and replayed by.
const TEST: &str = "reread";

/// `x` below 1000 from 20 fresh cases of seed 1; fails on exactly 777. Run
/// on a thread named [`TEST`] (a `property!` run's cases are its test's,
/// named as its thread).
fn run(path: &Path) -> Report {
    let path = path.to_path_buf();
    let run = move || {
        let prop = property! {
            forall x: u32, #[gen = int(0..1000u32)];
            check x != 777
        };
        generational(
            &prop,
            Config::default()
                .ignore_env()
                .seed(1)
                .cases(20)
                .max_shrinks(0)
                .regressions(Regressions::File(path)),
        )
    };
    let thread = std::thread::Builder::new().name(TEST.into());
    thread.spawn(run).unwrap().join().unwrap()
}

/// The case of [`run`]'s property that fails: the choice that gives 777.
fn failing_choices() -> Found {
    Found::Choices {
        choices: vec![777],
        size: 10,
    }
}

/// The child side of [`a_case_another_process_saves_between_runs_is_replayed_first`].
#[test]
fn child_saves_a_failing_case() {
    let Ok(path) = std::env::var("PBT_REREAD_CHILD") else {
        return;
    };
    RegressionsFile::at(path)
        .save(&failing_choices(), TEST, "x = 777")
        .unwrap();
}

#[test]
fn a_case_another_process_saves_between_runs_is_replayed_first() {
    let dir = scratch("other-process");
    let path = dir.join("p.pbt-regressions");
    // A passing case saved and settled, so this process keeps the file in
    // memory after the first run.
    RegressionsFile::at(&path)
        .save(&case(5, 3), TEST, "x = 1")
        .unwrap();
    settle();
    let first = run(&path);
    assert!(first.passed(), "{first}");
    assert_eq!(first.replayed, 1, "{first}");
    let status = Command::new(std::env::current_exe().unwrap())
        .args(["child_saves_a_failing_case", "--exact", "--quiet"])
        .env("PBT_REREAD_CHILD", &path)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let second = run(&path);
    let failure = second.failure.clone().expect("the other process's case");
    assert!(failure.replayed_from.is_some(), "{second}");
    // Printed: the typed value stays on the thread that ran it.
    assert_eq!(failure.counterexample[0].value, "777", "{second}");
    assert_eq!(second.tests, 0, "replayed before any fresh case: {second}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_edited_between_runs_is_replayed_as_it_is_now() {
    let dir = scratch("edited");
    let path = dir.join("e.pbt-regressions");
    let file = RegressionsFile::at(&path);
    std::fs::write(&path, "cc 0x1 3 # t: x\ncc 0x2 4 # t: y\n").unwrap();
    assert_eq!(file.load(), vec![case(1, 3), case(2, 4)]);
    // Edited at once, to the same length: the stamp may not change within
    // the file system's time granularity, so a fresh file is re-read.
    std::fs::write(&path, "cc 0x9 3 # t: x\ncc 0x2 4 # t: y\n").unwrap();
    assert_eq!(file.load(), vec![case(9, 3), case(2, 4)]);
    settle();
    assert_eq!(file.load(), vec![case(9, 3), case(2, 4)]);
    // Kept in memory now; an edit (by hand, here to one line) is seen.
    std::fs::write(&path, "cc 0x7 5 # t: z\n").unwrap();
    assert_eq!(file.load(), vec![case(7, 5)]);
    settle();
    assert_eq!(file.load(), vec![case(7, 5)]);
    // Replaced by a rename, as an editor or `git checkout` does, with the
    // same length and contents but one case.
    let other = dir.join("replacement");
    std::fs::write(&other, "cc 0x8 5 # t: z\n").unwrap();
    std::fs::rename(&other, &path).unwrap();
    assert_eq!(file.load(), vec![case(8, 5)]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_deleted_between_runs_replays_nothing() {
    let dir = scratch("deleted");
    let path = dir.join("d.pbt-regressions");
    std::fs::write(&path, "cc 0x1 3 # t: x\n").unwrap();
    settle();
    let file = RegressionsFile::at(&path);
    assert_eq!(file.load(), vec![case(1, 3)]);
    assert_eq!(file.load(), vec![case(1, 3)]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(file.load(), Vec::<Found>::new());
    // And written again: read again.
    std::fs::write(&path, "cc 0x2 3 # t: x\n").unwrap();
    assert_eq!(file.load(), vec![case(2, 3)]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_cases_this_process_saves_are_replayed_by_its_next_run() {
    let dir = scratch("saved");
    let path = dir.join("s.pbt-regressions");
    let file = RegressionsFile::at(&path);
    assert!(file.load().is_empty());
    file.save(&failing_choices(), TEST, "x = 777").unwrap();
    let report = run(&path);
    assert!(report.failure.expect("fails").replayed_from.is_some());
    settle();
    // Once settled and kept in memory, a case saved by this process joins.
    assert_eq!(file.load(), vec![failing_choices()]);
    file.save(&case(3, 3), "t", "x = 3").unwrap();
    assert_eq!(file.load(), vec![failing_choices(), case(3, 3)]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The child side of [`a_bad_line_written_between_runs_is_warned_about_with_its_line`]:
/// loads the file, waits for the parent to append a bad line, loads again.
#[test]
fn child_loads_before_and_after_a_bad_line() {
    let Ok(spec) = std::env::var("PBT_REREAD_BAD") else {
        return;
    };
    let (path, go) = spec.split_once('|').unwrap();
    let file = RegressionsFile::at(path);
    assert_eq!(file.load(), vec![case(1, 2)]);
    std::fs::write(format!("{go}.ready"), b"").unwrap();
    while !Path::new(go).exists() {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(file.load(), vec![case(1, 2), case(3, 4)]);
    assert_eq!(file.load(), vec![case(1, 2), case(3, 4)]);
}

#[test]
fn a_bad_line_written_between_runs_is_warned_about_with_its_line() {
    let dir = scratch("bad-line");
    let path = dir.join("b.pbt-regressions");
    let go = dir.join("go");
    std::fs::write(&path, "cc 0x1 2 # good\n").unwrap();
    settle();
    let child = Command::new(std::env::current_exe().unwrap())
        .args([
            "child_loads_before_and_after_a_bad_line",
            "--exact",
            "--nocapture",
        ])
        .env(
            "PBT_REREAD_BAD",
            format!("{}|{}", path.display(), go.display()),
        )
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let ready = dir.join("go.ready");
    while !ready.exists() {
        std::thread::sleep(Duration::from_millis(5));
    }
    std::fs::write(&path, "cc 0x1 2 # good\nnonsense\ncc 0x3 4 # good too\n").unwrap();
    std::fs::write(&go, b"").unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stderr.matches("pbt: warning:").count(), 1, "{stderr}");
    assert!(
        stderr.contains(&format!("{}:2:", path.display())),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_case_removed_by_hand_since_it_was_read_is_saved_again() {
    let dir = scratch("removed");
    let path = dir.join("r.pbt-regressions");
    let file = RegressionsFile::at(&path);
    std::fs::write(&path, "cc 0x1 3 # t: x\ncc 0x2 4 # t: y\n").unwrap();
    settle();
    assert_eq!(file.load(), vec![case(1, 3), case(2, 4)]);
    // Held in memory and in the file: saving it adds nothing.
    file.save(&case(2, 4), "t", "y").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 2);
    // Removed by hand: the copy in memory no longer answers for the file.
    std::fs::write(&path, "cc 0x1 3 # t: x\n").unwrap();
    file.save(&case(2, 4), "t", "y").unwrap();
    assert_eq!(file.read().cases, vec![case(1, 3), case(2, 4)]);
    let _ = std::fs::remove_dir_all(&dir);
}

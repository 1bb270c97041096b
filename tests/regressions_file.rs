//! The regressions file against what happens to files: concurrent writers
//! (threads, and processes as under nextest), a last line without a newline,
//! bytes that are not UTF-8, cut and malformed lines, absurd sizes, and test
//! binaries run from another directory.
//!
//! The scenarios that need a process of their own run this test binary
//! again as a child, selected by `PBT_REGRESSIONS_CHILD`; without it those
//! entry points return at once.

use pbt::prelude::*;
use pbt::runners::components::regressions::{self, RegressionsFile};
use pbt::runners::components::MAX_SAVED_SIZE;
use pbt::runners::components::{CaseSeed, Found};
use pbt::runners::{generational, Regressions};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pbt-regr-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn case(seed: u64) -> Found {
    Found::Case(CaseSeed {
        seed,
        size: (seed % 50) as usize,
    })
}

/// Every saved line of `path` (comments and blank lines left out).
fn saved_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

#[test]
fn sixteen_threads_appending_lose_no_line() {
    let dir = scratch("threads");
    let file = RegressionsFile::at(dir.join("t.pbt-regressions"));
    std::thread::scope(|s| {
        for t in 0..16u64 {
            let file = &file;
            s.spawn(move || {
                for i in 0..100u64 {
                    let note = "x".repeat(200);
                    file.save(&case(t * 1000 + i + 1), "threads", &note)
                        .unwrap();
                }
            });
        }
    });
    let lines = saved_lines(file.path());
    assert_eq!(lines.len(), 1600, "lines lost or torn");
    let loaded = file.read();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let mut seeds: Vec<u64> = loaded
        .cases
        .iter()
        .map(|f| match f {
            Found::Case(c) => c.seed,
            other => panic!("{other:?}"),
        })
        .collect();
    seeds.sort_unstable();
    seeds.dedup();
    assert_eq!(seeds.len(), 1600);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The child side of [`eight_processes_appending_lose_no_line`].
#[test]
fn child_appends_two_hundred_lines() {
    let Ok(spec) = std::env::var("PBT_REGRESSIONS_CHILD") else {
        return;
    };
    let Some(("append", rest)) = spec.split_once(':') else {
        return;
    };
    let (k, path) = rest.split_once(':').unwrap();
    let k: u64 = k.parse().unwrap();
    let file = RegressionsFile::at(path);
    for i in 0..200u64 {
        file.save(&case(k * 10_000 + i + 1), "processes", &"y".repeat(150))
            .unwrap();
    }
}

#[test]
fn eight_processes_appending_lose_no_line() {
    let dir = scratch("processes");
    let path = dir.join("p.pbt-regressions");
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..8)
        .map(|k| {
            Command::new(&exe)
                .args(["child_appends_two_hundred_lines", "--exact", "--quiet"])
                .env(
                    "PBT_REGRESSIONS_CHILD",
                    format!("append:{k}:{}", path.display()),
                )
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    assert_eq!(saved_lines(&path).len(), 1600, "lines lost or torn");
    let loaded = RegressionsFile::at(&path).read();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.cases.len(), 1600);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_last_line_without_newline_does_not_swallow_the_next_case() {
    let dir = scratch("newline");
    let path = dir.join("n.pbt-regressions");
    std::fs::write(&path, "cc 0x1 3 # a hand-edited note without a newline").unwrap();
    let file = RegressionsFile::at(&path);
    file.save(&case(2), "t", "second").unwrap();
    assert_eq!(file.read().cases, vec![case_at(1, 3), case(2)]);
    assert!(file.read().warnings.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

fn case_at(seed: u64, size: usize) -> Found {
    Found::Case(CaseSeed { seed, size })
}

#[test]
fn bad_lines_get_one_warning_each_naming_the_line_and_good_lines_still_load() {
    let dir = scratch("bad");
    let path = dir.join("b.pbt-regressions");
    let mut bytes = Vec::new();
    bytes.extend_from_slice(b"# header\n");
    bytes.extend_from_slice(b"cc 0x10 4 # good\n"); // 2
    bytes.extend_from_slice(b"cc 0x\xff\xfe 4 # not utf-8\n"); // 3
    bytes.extend_from_slice(b"cc 0x11\n"); // 4: cut short
    bytes.extend_from_slice(b"hello world\n"); // 5: malformed
    bytes.extend_from_slice(b"cx 3 1,zz,2 # bad choice\n"); // 6
    bytes.extend_from_slice(b"\n");
    bytes.extend_from_slice(b"cx 2 5,6 # good\r\n"); // 8 (CRLF)
    bytes.extend_from_slice(b"cm 1 cm 2 cc 0x1 1 # nested\n"); // 9
    bytes.extend_from_slice(b"cc 0x12 5"); // 10, no newline
    std::fs::write(&path, &bytes).unwrap();
    let loaded = RegressionsFile::at(&path).read();
    assert_eq!(
        loaded.cases,
        vec![
            case_at(0x10, 4),
            Found::Choices {
                choices: vec![5, 6],
                size: 2
            },
            case_at(0x12, 5)
        ]
    );
    let lines: Vec<String> = loaded
        .warnings
        .iter()
        .map(|w| w.split(':').nth(1).unwrap_or("").to_string())
        .collect();
    assert_eq!(lines, ["3", "4", "5", "6", "9"], "{:#?}", loaded.warnings);
    for warning in &loaded.warnings {
        assert!(
            warning.starts_with(&path.display().to_string()),
            "{warning}"
        );
    }
    assert!(
        loaded.warnings[0].contains("UTF-8"),
        "{}",
        loaded.warnings[0]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_saved_size_of_ten_to_the_twelve_is_clamped_and_the_case_replays() {
    let dir = scratch("size");
    let path = dir.join("s.pbt-regressions");
    std::fs::write(&path, "cc 0x5 1000000000000 # absurd\n").unwrap();
    let loaded = RegressionsFile::at(&path).read();
    assert_eq!(loaded.cases, vec![case_at(5, MAX_SAVED_SIZE)]);
    assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
    // Replaying it generates a vector of at most the clamped size: no abort.
    let prop = property! {
        forall xs: Vec<u8>;
        check xs.len() <= MAX_SAVED_SIZE
    };
    let report = generational(
        &prop,
        Config::default()
            .cases(5)
            .seed(1)
            .ignore_env()
            .regressions(Regressions::File(path)),
    );
    assert!(report.passed(), "{report}");
    assert_eq!(report.replayed, 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn encoded_cases_parse_back() {
    let founds = [
        case_at(0xdead_beef, 0),
        Found::Choices {
            choices: vec![0, u64::MAX, 7],
            size: 9,
        },
        case_at(3, 4).mutated(5).mutated(6),
    ];
    for found in founds {
        let line = regressions::encode(&found);
        assert_eq!(regressions::parse_line(&line), Some(found), "{line}");
    }
}

/// The child side of [`the_file_is_found_from_another_working_directory`]:
/// prints where the regressions file of this source file is.
#[test]
fn child_prints_where_the_file_is() {
    if std::env::var("PBT_REGRESSIONS_CHILD").as_deref() != Ok("locate") {
        return;
    }
    let origin = pbt::__private::Origin {
        file: file!(),
        line: line!(),
        module: module_path!(),
        name: None,
        manifest_dir: option_env!("CARGO_MANIFEST_DIR"),
    };
    match RegressionsFile::locate(&Regressions::Beside, Some(&origin)) {
        Some(file) => println!("located: {}", file.path().display()),
        None => println!("not located"),
    }
}

#[test]
fn the_file_is_found_from_another_working_directory() {
    let exe = std::env::current_exe().unwrap();
    let expected =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("pbt-regressions/tests/regressions_file.txt");
    let run = |cwd: &Path| {
        let out = Command::new(&exe)
            .args(["child_prints_where_the_file_is", "--exact", "--nocapture"])
            .env("PBT_REGRESSIONS_CHILD", "locate")
            .env_remove("CARGO_MANIFEST_DIR")
            .current_dir(cwd)
            .output()
            .unwrap();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // From a subdirectory of the package, without CARGO_MANIFEST_DIR: the
    // parents of the working directory are searched.
    let (stdout, _) = run(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui"));
    assert!(
        stdout.contains(&format!("located: {}", expected.display())),
        "{stdout}"
    );
    // From an unrelated directory, the binary run directly (no
    // CARGO_MANIFEST_DIR in its environment, and the target directory may
    // be anywhere): through the package directory recorded when the
    // property was compiled.
    let (stdout, stderr) = run(&std::env::temp_dir());
    assert!(
        stdout.contains(&format!("located: {}", expected.display())),
        "{stdout}\n{stderr}"
    );
}

/// The child side of [`an_unlocatable_source_file_gets_a_warning`].
#[test]
fn child_runs_a_property_whose_source_is_nowhere() {
    if std::env::var("PBT_REGRESSIONS_CHILD").as_deref() != Ok("nowhere") {
        return;
    }
    let origin = pbt::__private::Origin {
        file: "no/such/dir/gone.rs",
        line: 1,
        module: module_path!(),
        name: None,
        manifest_dir: None,
    };
    match RegressionsFile::locate(&Regressions::Beside, Some(&origin)) {
        Some(file) => println!("located: {}", file.path().display()),
        None => println!("not located"),
    }
}

#[test]
fn an_unlocatable_source_file_gets_a_warning() {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "child_runs_a_property_whose_source_is_nowhere",
            "--exact",
            "--nocapture",
        ])
        .env("PBT_REGRESSIONS_CHILD", "nowhere")
        .env_remove("CARGO_MANIFEST_DIR")
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(stdout.contains("not located"), "{stdout}");
    assert!(
        stderr.contains("cannot find the source file no/such/dir/gone.rs"),
        "{stderr}"
    );
}

/// The child side of [`a_bad_line_is_warned_about_once_per_run`].
#[test]
fn child_fuzzes_over_a_file_with_a_bad_line() {
    let Ok(spec) = std::env::var("PBT_REGRESSIONS_CHILD") else {
        return;
    };
    let Some(("fuzz", path)) = spec.split_once(':') else {
        return;
    };
    let prop = property! {
        forall x: u8;
        check x == x
    };
    let config = Config::default()
        .cases(20)
        .regressions(Regressions::File(PathBuf::from(path)));
    pbt::runners::fuzz(&prop, config).assert_passed();
    generational(
        &prop,
        Config::default()
            .cases(20)
            .regressions(Regressions::File(PathBuf::from(path))),
    )
    .assert_passed();
}

#[test]
fn a_bad_line_is_warned_about_once_per_run() {
    let dir = scratch("once");
    let path = dir.join("o.pbt-regressions");
    std::fs::write(&path, "cc 0x1 2 # good\nnonsense\n").unwrap();
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "child_fuzzes_over_a_file_with_a_bad_line",
            "--exact",
            "--nocapture",
        ])
        .env("PBT_REGRESSIONS_CHILD", format!("fuzz:{}", path.display()))
        .output()
        .unwrap();
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
fn a_failing_property_saves_each_case_once_however_often_it_runs() {
    // Its shrunk case is saved at a size above the clamp a reader applied
    // to hand-edited sizes (1 000 before): read back clamped, it never
    // equalled the case to save, so every run appended it again (and
    // warned about pbt's own line).
    let dir = scratch("saved-once");
    let path = dir.join("saved-once.pbt-regressions");
    let prop = property! { forall x: u32; check x < 1000 };
    let config = || {
        Config::default()
            .ignore_env()
            .seed(1)
            .regressions(Regressions::File(path.clone()))
    };
    let first = generational(&prop, config());
    assert_eq!(first.counterexample::<(u32,)>(), Some((1000,)), "{first}");
    let after_first = saved_lines(&path);
    assert!(
        after_first.len() >= 2,
        "found and shrunk: {}",
        std::fs::read_to_string(&path).unwrap()
    );
    for _ in 0..3 {
        let again = generational(&prop, config());
        assert_eq!(again.counterexample::<(u32,)>(), Some((1000,)), "{again}");
    }
    let after_more = saved_lines(&path);
    assert_eq!(after_first, after_more, "no line saved twice");
    let loaded = RegressionsFile::at(&path).read();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_case_is_saved_once_into_a_file_that_does_not_end_in_a_newline() {
    let dir = scratch("save-once");
    let path = dir.join("s.pbt-regressions");
    // Hand-edited: the last line has no newline, and spells the seed in
    // upper case.
    std::fs::write(&path, "# mine\ncc 0X2A 7 # kept").unwrap();
    let file = RegressionsFile::at(&path);
    file.save(&case_at(0x2a, 7), "t", "same case").unwrap();
    assert_eq!(saved_lines(&path), ["cc 0X2A 7 # kept"]);
    file.save(&case_at(3, 4), "t", "another").unwrap();
    file.save(&case_at(3, 4), "t", "another").unwrap();
    // Sizes up to the ceiling of replayed sizes read back as written.
    let large = Found::Choices {
        choices: vec![0, 1],
        size: MAX_SAVED_SIZE,
    };
    file.save(&large, "t", "large").unwrap();
    file.save(&large, "t", "large").unwrap();
    assert_eq!(
        saved_lines(&path),
        [
            "cc 0X2A 7 # kept".to_string(),
            "cc 0x3 4 @ t # another".to_string(),
            format!("cx {MAX_SAVED_SIZE} 0,1 @ t # large"),
        ]
    );
    assert!(
        file.read().warnings.is_empty(),
        "{:?}",
        file.read().warnings
    );
    // A file that does not exist yet (nor its directory) gets the header.
    let fresh = RegressionsFile::at(dir.join("new/dir/f.pbt-regressions"));
    fresh.save(&case_at(1, 2), "t", "first").unwrap();
    let text = std::fs::read_to_string(fresh.path()).unwrap();
    assert!(text.starts_with("# pbt regressions"), "{text}");
    assert!(text.ends_with("cc 0x1 2 @ t # first\n"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A package in a scratch directory: `Cargo.toml` and `src/lib.rs`.
fn package(name: &str) -> PathBuf {
    let root = scratch(name);
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("Cargo.toml"), "[package]\nname = \"p\"\n").unwrap();
    std::fs::write(root.join("src/lib.rs"), "").unwrap();
    root
}

/// What a `#[property_test]` in `<root>/src/lib.rs` records of where it is.
fn origin_in(root: &Path) -> pbt::dbas::Origin {
    let file: &'static str = Box::leak(
        root.join("src/lib.rs")
            .to_string_lossy()
            .into_owned()
            .into_boxed_str(),
    );
    pbt::dbas::Origin {
        file,
        line: 1,
        module: "p",
        name: None,
        manifest_dir: None,
    }
}

#[test]
fn a_unit_test_saves_beside_the_package_never_inside_src() {
    let root = package("outside-src");
    let file = RegressionsFile::locate(&Regressions::Beside, Some(&origin_in(&root))).unwrap();
    assert_eq!(file.path(), root.join("pbt-regressions/src/lib.txt"));
    assert_eq!(file.legacy(), None);
    file.save(&case(7), "p::t", "x = 7").unwrap();
    assert_eq!(saved_lines(file.path()).len(), 1);
    let in_src: Vec<_> = std::fs::read_dir(root.join("src"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(in_src, ["lib.rs"], "nothing is written inside src/");
    assert_eq!(file.load(), vec![case(7)]);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_file_at_the_old_place_is_still_replayed_and_new_cases_go_to_the_new_one() {
    let root = package("old-place");
    let old = root.join("src/lib.pbt-regressions");
    std::fs::write(&old, "cc 0x1 1 # p::t: x = 1\n").unwrap();
    let file = RegressionsFile::locate(&Regressions::Beside, Some(&origin_in(&root))).unwrap();
    assert_eq!(file.legacy(), Some(old.as_path()));
    assert_eq!(file.load(), vec![case(1)]);
    file.save(&case(2), "p::t", "x = 2").unwrap();
    assert_eq!(
        saved_lines(file.path()).len(),
        1,
        "the new case is in the new file"
    );
    assert_eq!(saved_lines(&old).len(), 1, "the old file is left as it was");
    assert_eq!(file.load(), vec![case(2), case(1)]);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn child_loads_a_file_at_the_old_place() {
    let Ok(root) = std::env::var("PBT_REGRESSIONS_CHILD_OLD_PLACE") else {
        return;
    };
    let root = PathBuf::from(root);
    let file = RegressionsFile::locate(&Regressions::Beside, Some(&origin_in(&root))).unwrap();
    file.load();
    file.load();
}

#[test]
fn a_file_at_the_old_place_gets_one_note_naming_both_places() {
    let root = package("old-place-note");
    std::fs::write(root.join("src/lib.pbt-regressions"), "cc 0x1 1\n").unwrap();
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "child_loads_a_file_at_the_old_place",
            "--exact",
            "--nocapture",
        ])
        .env("PBT_REGRESSIONS_CHILD_OLD_PLACE", &root)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let notes: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("pbt: note:"))
        .collect();
    assert_eq!(notes.len(), 1, "{stderr}");
    assert!(notes[0].contains("src/lib.pbt-regressions"), "{stderr}");
    assert!(notes[0].contains("pbt-regressions/src/lib.txt"), "{stderr}");
    std::fs::remove_dir_all(&root).unwrap();
}

//! Named profiles (`pbt.toml`, `PBT_PROFILE`) and the built-in `ci`
//! profile, chosen when a CI service is detected. Each test runs one of the
//! ignored tests of this binary again in a child process, with the
//! variables it needs (they would reach every test of a shared binary, and
//! runs read them once per process), and a crate root of its own for a
//! `pbt.toml` when it needs one.

use pbt::dbas::Origin;
use pbt::prelude::*;
use pbt::runners::components::Plan;
use pbt::runners::{generational, Regressions};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

#[allow(dead_code, reason = "this binary reads lines, not reports")]
mod libtest_output;
use libtest_output::lines_starting as lines;

/// The variables that choose a profile, removed from every child's
/// environment unless a test sets them.
const CHOOSING: [&str; 16] = [
    "CI",
    "GITHUB_ACTIONS",
    "GITLAB_CI",
    "BUILDKITE",
    "CIRCLECI",
    "CIRRUS_CI",
    "TF_BUILD",
    "JENKINS_URL",
    "CODEBUILD_BUILD_ID",
    "HEROKU_TEST_RUN_ID",
    "TEAMCITY_VERSION",
    "PBT_PROFILE",
    "PBT_SEED",
    "PBT_CASES",
    "PBT_VERBOSITY",
    "PBT_REPLAY",
];

/// Run the ignored test `test` of this binary with `vars` set (and the
/// variables that choose a profile removed otherwise): (passed, output).
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
    for var in CHOOSING {
        command.env_remove(var);
    }
    command.envs(vars.iter().copied());
    let out = command.output().expect("the test binary runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// A crate root of its own with `pbt.toml` holding `text`.
fn crate_root(name: &str, text: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("pbt-profiles-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&root).expect("a temporary directory");
    std::fs::write(root.join("pbt.toml"), text).expect("pbt.toml written");
    root
}

/// Prints each input it tests.
#[property_test]
#[ignore = "run by the tests below, in a child process"]
fn prints_its_inputs(x: u64, ys: Vec<u8>) {
    println!("input {x} {ys:?}");
}

/// A `property!` in a plain test: its path is the test thread's name.
#[test]
#[ignore = "run by the tests below, in a child process"]
fn a_property_in_a_plain_test() {
    let prop = property! {
        forall x: u64;
        check {
            println!("input {x}");
            true
        }
    };
    generational(&prop, Config::default().regressions(Regressions::Off)).assert_passed();
}

/// One `property!`, written once, run by two tests: its seed under `ci`.
fn print_the_seed_of_a_shared_property() {
    let prop = property! { forall x: u8; check x.count_ones() <= 8 };
    let plan = Plan::new(&Config::default(), &pbt::Property::structure(&prop));
    println!("plan seed {:#x}", plan.seed);
}

#[test]
#[ignore = "run by the tests below, in a child process"]
fn shared_by_one_test() {
    print_the_seed_of_a_shared_property();
}

#[test]
#[ignore = "run by the tests below, in a child process"]
fn shared_by_another_test() {
    print_the_seed_of_a_shared_property();
}

/// Fails for large `x`: the report under the `ci` profile.
#[property_test(config = Config::default().regressions(Regressions::Off))]
#[ignore = "run by the tests below, in a child process"]
fn fails_for_large_x(x: u32) {
    assert!(x < 1000);
}

/// The plan of a run whose crate root is `PBT_TEST_ROOT`, with the
/// settings of `PBT_TEST_CODE` made in code, printed one per line.
#[test]
#[ignore = "run by the tests below, in a child process"]
fn prints_its_plan() {
    let root = std::env::var("PBT_TEST_ROOT").ok();
    let root: Option<&'static str> = root.map(|r| &*Box::leak(r.into_boxed_str()));
    let prop = property! { forall x: u8; check x == x }.with_origin(Origin {
        file: file!(),
        line: line!(),
        module: module_path!(),
        name: Some("prints_its_plan"),
        manifest_dir: root,
    });
    let mut config = Config::default();
    match std::env::var("PBT_TEST_CODE").as_deref() {
        Ok("cases") => config = config.cases(50),
        Ok("field") => config.max_size = 20,
        Ok("timeout") => config = config.timeout(Duration::from_millis(300)),
        _ => {}
    }
    let plan = Plan::new(&config, &pbt::Property::structure(&prop));
    let c = &plan.config;
    println!("plan cases {}", c.cases);
    println!("plan seed {:#x}", plan.seed);
    println!("plan max_size {}", c.max_size);
    println!("plan timeout {:?}", c.timeout);
    println!("plan max_shrink_time {:?}", c.max_shrink_time);
    println!("plan derandomize {}", c.derandomize);
    println!("plan verbosity {}", c.verbosity);
}

/// The plan line `key` of a child's output.
fn plan_line<'a>(out: &'a str, key: &str) -> &'a str {
    let prefix = format!("plan {key} ");
    let line = lines(out, &prefix).first().copied();
    line.unwrap_or_else(|| panic!("no `{prefix}` line in {out}"))
        .strip_prefix(&prefix)
        .unwrap()
}

#[test]
fn under_ci_two_runs_test_the_same_inputs() {
    for ci in [("CI", "1"), ("GITHUB_ACTIONS", "true"), ("GITLAB_CI", "x")] {
        let (passed, first) = child("prints_its_inputs", &[ci]);
        assert!(passed, "{first}");
        let (passed, second) = child("prints_its_inputs", &[ci]);
        assert!(passed, "{second}");
        let (a, b) = (lines(&first, "input "), lines(&second, "input "));
        assert_eq!(a.len(), 100, "{first}");
        assert_eq!(a, b, "under {ci:?}");
    }
    // Outside CI, each run has a seed of its own.
    let (_, first) = child("prints_its_inputs", &[]);
    let (_, second) = child("prints_its_inputs", &[]);
    assert_ne!(lines(&first, "input "), lines(&second, "input "));
}

#[test]
fn a_property_in_a_plain_test_is_derandomized_by_its_test_path() {
    let (passed, first) = child("a_property_in_a_plain_test", &[("CI", "true")]);
    assert!(passed, "{first}");
    let (_, second) = child("a_property_in_a_plain_test", &[("CI", "true")]);
    assert_eq!(lines(&first, "input "), lines(&second, "input "));
    assert_eq!(lines(&first, "input ").len(), 100, "{first}");
    // The same `property!` (one file and line) in two tests: the test's
    // path, libtest's name for its thread, tells their seeds apart.
    let seed = |test: &str| {
        let (passed, out) = child(test, &[("CI", "true")]);
        assert!(passed, "{out}");
        plan_line(&out, "seed").to_string()
    };
    let (one, another) = (seed("shared_by_one_test"), seed("shared_by_another_test"));
    assert_ne!(one, another);
    assert_eq!(one, seed("shared_by_one_test"));
    assert_eq!(another, seed("shared_by_another_test"));
}

#[test]
fn ci_false_or_pbt_profile_default_is_not_the_ci_profile() {
    for vars in [
        &[("CI", "false")][..],
        &[("CI", "0")],
        &[("CI", "")],
        &[("CI", "1"), ("PBT_PROFILE", "default")],
        &[("GITHUB_ACTIONS", "false")],
    ] {
        let (passed, out) = child("prints_its_plan", vars);
        assert!(passed, "{out}");
        assert_eq!(plan_line(&out, "derandomize"), "false", "{vars:?}");
        assert_eq!(plan_line(&out, "timeout"), "Some(10s)", "{vars:?}");
    }
}

#[test]
fn the_ci_profile_has_no_wall_clock_limit_and_prints_the_replay() {
    let (passed, out) = child("prints_its_plan", &[("CI", "1")]);
    assert!(passed, "{out}");
    assert_eq!(plan_line(&out, "derandomize"), "true");
    assert_eq!(plan_line(&out, "timeout"), "None");
    assert_eq!(
        plan_line(&out, "max_shrink_time"),
        format!("{:?}", Duration::MAX)
    );
    // Chosen by name outside CI too.
    let (_, named) = child("prints_its_plan", &[("PBT_PROFILE", "ci")]);
    assert_eq!(plan_line(&named, "derandomize"), "true");
    // A failure under CI says how to replay it, the same in both runs.
    let (passed, first) = child("fails_for_large_x", &[("CI", "1")]);
    assert!(!passed, "{first}");
    let replay = lines(&first, "replay this case alone: PBT_REPLAY=");
    assert_eq!(replay.len(), 1, "{first}");
    assert!(
        replay[0].ends_with("-- fails_for_large_x --exact"),
        "{first}"
    );
    let (_, second) = child("fails_for_large_x", &[("CI", "1")]);
    assert_eq!(
        lines(&second, "replay this case alone: PBT_REPLAY="),
        replay
    );
    assert_eq!(lines(&second, "seed: "), lines(&first, "seed: "));
}

#[test]
fn a_profile_of_pbt_toml_is_chosen_by_name() {
    let root = crate_root(
        "named",
        "# settings for a quick look\n\
         [profile.quick]\n\
         cases = 7\n\
         PBT_SEED = 0x2a   # a variable's name works too\n\
         timeout = \"2s\"\n\
         verbosity = \"verbose\"\n",
    );
    let root = root.to_str().unwrap();
    let (passed, out) = child(
        "prints_its_plan",
        &[("PBT_TEST_ROOT", root), ("PBT_PROFILE", "quick")],
    );
    assert!(passed, "{out}");
    assert_eq!(plan_line(&out, "cases"), "7");
    assert_eq!(plan_line(&out, "seed"), "0x2a");
    assert_eq!(plan_line(&out, "timeout"), "Some(2s)");
    assert_eq!(plan_line(&out, "verbosity"), "verbose");
    // Not chosen, it changes nothing.
    let (_, out) = child("prints_its_plan", &[("PBT_TEST_ROOT", root)]);
    assert_eq!(plan_line(&out, "cases"), "100");
}

#[test]
fn the_environment_beats_the_code_which_beats_the_profile() {
    let root = crate_root("order", "[p]\ncases = 7\nmax_size = 5\ntimeout = \"1s\"\n");
    let root = root.to_str().unwrap();
    let with = |extra: &[(&str, &str)]| {
        let mut vars = vec![("PBT_TEST_ROOT", root), ("PBT_PROFILE", "p")];
        vars.extend_from_slice(extra);
        let (passed, out) = child("prints_its_plan", &vars);
        assert!(passed, "{out}");
        out
    };
    let out = with(&[]);
    assert_eq!(
        (plan_line(&out, "cases"), plan_line(&out, "max_size")),
        ("7", "5")
    );
    // A builder in code wins over the profile; a field written in code too.
    let out = with(&[("PBT_TEST_CODE", "cases")]);
    assert_eq!(plan_line(&out, "cases"), "50");
    let out = with(&[("PBT_TEST_CODE", "field")]);
    assert_eq!(
        (plan_line(&out, "max_size"), plan_line(&out, "cases")),
        ("20", "7")
    );
    let out = with(&[("PBT_TEST_CODE", "timeout")]);
    assert_eq!(plan_line(&out, "timeout"), "Some(300ms)");
    // A variable wins over both.
    let out = with(&[("PBT_TEST_CODE", "cases"), ("PBT_CASES", "3")]);
    assert_eq!(plan_line(&out, "cases"), "3");
}

#[test]
fn pbt_toml_may_redefine_ci_key_by_key() {
    let root = crate_root("ci", "[ci]\ncases = 11\n\n[profile.default]\ncases = 12\n");
    let root = root.to_str().unwrap();
    let (passed, out) = child("prints_its_plan", &[("PBT_TEST_ROOT", root), ("CI", "1")]);
    assert!(passed, "{out}");
    assert_eq!(plan_line(&out, "cases"), "11");
    // What it does not name stays the built-in ci's.
    assert_eq!(plan_line(&out, "derandomize"), "true");
    assert_eq!(plan_line(&out, "timeout"), "None");
    let (_, out) = child("prints_its_plan", &[("PBT_TEST_ROOT", root)]);
    assert_eq!(plan_line(&out, "cases"), "12");
    let root = crate_root("ci-random", "[ci]\nderandomize = false\n");
    let (_, out) = child(
        "prints_its_plan",
        &[("PBT_TEST_ROOT", root.to_str().unwrap()), ("CI", "1")],
    );
    assert_eq!(plan_line(&out, "derandomize"), "false");
}

#[test]
fn a_malformed_profile_file_is_an_error_naming_file_line_and_key() {
    let root = crate_root("malformed", "[profile.p]\ncases = 10\n\ntimeout = 5\n");
    let (passed, out) = child(
        "prints_its_plan",
        &[("PBT_TEST_ROOT", root.to_str().unwrap())],
    );
    assert!(!passed, "{out}");
    let file = Path::new(&root).join("pbt.toml");
    let expected = format!("pbt: {}:4: `timeout`: 5 is not a duration", file.display());
    assert!(out.contains(&expected), "{out}");
}

#[test]
fn an_unknown_profile_is_an_error_listing_the_defined_ones() {
    let root = crate_root("unknown", "[fast]\ncases = 10\n");
    let (passed, out) = child(
        "prints_its_plan",
        &[
            ("PBT_TEST_ROOT", root.to_str().unwrap()),
            ("PBT_PROFILE", "fsat"),
        ],
    );
    assert!(!passed, "{out}");
    assert!(
        out.contains(
            "PBT_PROFILE=\"fsat\" names no profile: the defined ones are `default`, `ci`, `fast`"
        ),
        "{out}"
    );
    // Without a pbt.toml, the built-in ones.
    let (passed, out) = child("prints_its_plan", &[("PBT_PROFILE", "fsat")]);
    assert!(!passed, "{out}");
    assert!(
        out.contains("the defined ones are `default`, `ci` (no pbt.toml in "),
        "{out}"
    );
}

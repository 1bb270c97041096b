//! Named profiles (Hypothesis's `register_profile`/`load_profile`, hegel's
//! `hegel.toml`): settings by name in `pbt.toml` at the root of the crate
//! under test, one chosen per process with `PBT_PROFILE=name`, or `ci`
//! when a CI service is detected.
//!
//! ```toml
//! # pbt.toml, beside Cargo.toml
//! [profile.ci]            # or just [ci]
//! cases = 1000
//!
//! [profile.thorough]
//! PBT_CASES = 100_000     # a PBT_* variable's name works too
//! timeout = "2s"
//! max_shrink_time = "off"
//! verbosity = "verbose"
//! ```
//!
//! Precedence, highest first: a `PBT_*` variable, then a setting made in
//! code ([`Config`]'s builders, `#[property_test(cases = …)]`), then the
//! profile, then pbt's defaults. It is Hypothesis's order (a profile is the
//! default that `@settings(…)` on a test overrides) and hegel's (`CI`
//! changes the defaults of `Settings::new()`, the builders override them,
//! `HEGEL_TEST_CASES` overrides all). A run that ignores the environment
//! ([`Config::ignore_env`]) ignores the profiles too.
//!
//! The file is a small subset of TOML, read without a TOML library:
//! `[profile.NAME]` or `[NAME]` headers, `key = value` lines with an
//! integer (`500`, `100_000`, `0x2a`), a string (`"2s"`, `"verbose"`) or
//! a boolean, and `#` comments. Anything else is an error naming the file,
//! the line and the key.

mod file;
mod settings;
#[cfg(test)]
mod tests;

pub(crate) use settings::{Key, Keys};

use crate::config::{parse_switch, with_environment, Config};
use file::{parse, Entry, Table};
use settings::{is_default, set};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The profiles pbt defines, in the file's own language: `default`
/// changes nothing; `ci` is derandomized (the run seed derives from the
/// test's path) and has no wall-clock limit that could change a verdict or
/// the counterexample (shrinking stops at `max_shrinks` steps instead). A
/// `pbt.toml` table of the same name adds to these, key by key.
pub(crate) const BUILT_IN: &str = "\
[default]

[ci]
derandomize = true
timeout = \"off\"
max_shrink_time = \"off\"
";

/// The variables that say a CI service runs the tests (hegel's list, after
/// Hypothesis's `is_in_ci`, with Jenkins): each with the value it must
/// have, or `None` when being set is enough. `CI` counts unless it is
/// empty or `0`, `false`, `no`, `off`.
const CI_VARIABLES: [(&str, Option<&str>); 12] = [
    ("CI", None),
    ("GITHUB_ACTIONS", Some("true")),
    ("GITLAB_CI", None),
    ("BUILDKITE", Some("true")),
    ("CIRCLECI", Some("true")),
    ("CIRRUS_CI", Some("true")),
    ("TF_BUILD", Some("true")),
    ("JENKINS_URL", None),
    ("CODEBUILD_BUILD_ID", None),
    ("HEROKU_TEST_RUN_ID", None),
    ("TEAMCITY_VERSION", None),
    ("bamboo.buildKey", None),
];

/// The variable that says the tests run under CI, if one does.
pub(crate) fn ci_detected() -> Option<&'static str> {
    CI_VARIABLES.iter().find_map(|&(name, expected)| {
        let value = std::env::var(name).ok()?;
        let on = match (name, expected) {
            ("CI", _) => parse_switch(&value) != Ok(Some(false)) && !value.trim().is_empty(),
            (_, Some(expected)) => value.trim().eq_ignore_ascii_case(expected),
            (_, None) => true,
        };
        on.then_some(name)
    })
}

/// Apply `entries`, in order, to the settings of `config` not made in
/// code (a builder called, or a field written).
fn overlay(config: &mut Config, entries: &[Entry]) {
    // Copied at the first entry: an empty profile (`default`, most often)
    // costs no copy.
    let mut code: Option<Config> = None;
    for entry in entries {
        let code = code.get_or_insert_with(|| config.clone());
        if !code.set.contains(entry.key) && is_default(code, entry.key) {
            set(config, entry.key, &entry.value).expect("checked when the file was read");
        }
    }
}

/// The settings of the selected profile for the crate at a root, the
/// built-in table's then the file's, or why there are none (a malformed
/// file, an unknown name).
type Selected = Arc<Result<Vec<Entry>, String>>;

/// [`Selected`] by crate root (the empty path: no root), worked out once
/// per process (until [`forget`]): the selection and the files change only
/// with the environment.
static SELECTED: Mutex<Vec<(PathBuf, Selected)>> = Mutex::new(Vec::new());

/// The name of the profile file at a crate's root.
pub(crate) const FILE: &str = "pbt.toml";

/// Read the profiles again on the next run ([`Config::reread_env`]).
pub(crate) fn forget() {
    SELECTED.lock().unwrap_or_else(|e| e.into_inner()).clear();
}

/// The profile in force: `PBT_PROFILE`, else `ci` when a CI service is
/// detected, else `default`.
fn selected() -> String {
    with_environment(|env| match (&env.profile, env.ci) {
        (Some(name), _) => name.clone(),
        (None, Some(_)) => "ci".to_string(),
        (None, None) => "default".to_string(),
    })
}

/// The selected profile's settings for the crate at `root`, cached.
fn selected_at(root: Option<&Path>) -> Selected {
    let key = root.map_or(std::ffi::OsStr::new(""), Path::as_os_str);
    let mut cache = SELECTED.lock().unwrap_or_else(|e| e.into_inner());
    // By bytes: `Path`'s `==` compares component by component, several
    // times the cost of the rest of a run's lookup.
    if let Some((_, selected)) = cache.iter().find(|(r, _)| r.as_os_str() == key) {
        return selected.clone();
    }
    let selected = Arc::new(select(root));
    cache.push((PathBuf::from(key), selected.clone()));
    selected
}

/// Read `pbt.toml` at `root` and gather the settings of the selected
/// profile, the built-in table's first.
fn select(root: Option<&Path>) -> Result<Vec<Entry>, String> {
    let name = selected();
    let file = match root {
        Some(root) => {
            let path = root.join(FILE);
            match std::fs::read_to_string(&path) {
                Ok(text) => Some(parse(&path, &text)?),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(format!("{}: cannot be read: {e}", path.display())),
            }
        }
        None => None,
    };
    let built_in = parse(Path::new("(built in)"), BUILT_IN).expect("the built-in profiles parse");
    let tables: Vec<&Table> = (built_in.tables.iter())
        .chain(file.iter().flat_map(|f| f.tables.iter()))
        .collect();
    if tables.iter().any(|t| t.name == name) {
        let chosen = tables.iter().filter(|t| t.name == name);
        return Ok(chosen.flat_map(|t| t.entries.iter().cloned()).collect());
    }
    let mut defined: Vec<&str> = Vec::new();
    for table in &tables {
        if !defined.contains(&table.name.as_str()) {
            defined.push(&table.name);
        }
    }
    let place = match (&file, root) {
        (Some(f), _) => format!("{}", f.path.display()),
        (None, Some(root)) => format!("no {} in {}", FILE, root.display()),
        (None, None) => "no crate root to find pbt.toml in".to_string(),
    };
    Err(format!(
        "PBT_PROFILE={name:?} names no profile: the defined ones are {} ({place})",
        defined
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// `config` with the selected profile applied to the settings not made in
/// code, for a crate whose root is `root` (the property's
/// `Origin::manifest_dir`; `None`: `CARGO_MANIFEST_DIR` of the running
/// process, which cargo sets for tests). Nothing when `config` ignores the
/// environment.
///
/// # Panics
///
/// When the profile file is malformed (naming the file, the line and the
/// key), or `PBT_PROFILE` names a profile neither pbt nor the file defines
/// (naming it and the defined ones).
pub(crate) fn apply(config: &mut Config, root: Option<&str>) {
    if !config.read_env {
        return;
    }
    let runtime;
    let root = match root {
        Some(root) => Some(Path::new(root)),
        None => {
            runtime = std::env::var_os("CARGO_MANIFEST_DIR");
            runtime.as_deref().map(Path::new)
        }
    };
    match &*selected_at(root) {
        Ok(entries) => overlay(config, entries),
        Err(message) => panic!("pbt: {message}"),
    }
}

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

use crate::config::{parse_switch, parse_u64, with_environment, Config, Regressions, Shrinker};
use crate::verbosity::Verbosity;
use crate::Mutation;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A setting a profile can make: a field of [`Config`] taken as a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Key {
    Cases,
    Seed,
    Timeout,
    MaxShrinks,
    MaxShrinkTime,
    MaxDiscardRatio,
    MaxSize,
    MaxDraws,
    Shrinker,
    Mutation,
    Workers,
    Candidates,
    AutoTarget,
    CheckCoverage,
    ShowStatistics,
    Isolated,
    Derandomize,
    Verbosity,
    Regressions,
}

/// Each key by its field's name, and by the `PBT_*` variable that sets it
/// when there is one.
const KEYS: [(&str, Option<&str>, Key); 19] = [
    ("cases", Some("PBT_CASES"), Key::Cases),
    ("seed", Some("PBT_SEED"), Key::Seed),
    ("timeout", None, Key::Timeout),
    ("max_shrinks", None, Key::MaxShrinks),
    ("max_shrink_time", None, Key::MaxShrinkTime),
    ("max_discard_ratio", None, Key::MaxDiscardRatio),
    ("max_size", None, Key::MaxSize),
    ("max_draws", None, Key::MaxDraws),
    ("shrinker", None, Key::Shrinker),
    ("mutation", None, Key::Mutation),
    ("workers", None, Key::Workers),
    ("candidates", None, Key::Candidates),
    ("auto_target", None, Key::AutoTarget),
    (
        "check_coverage",
        Some("PBT_CHECK_COVERAGE"),
        Key::CheckCoverage,
    ),
    ("show_statistics", Some("PBT_STATS"), Key::ShowStatistics),
    ("isolated", Some("PBT_ISOLATE"), Key::Isolated),
    ("derandomize", None, Key::Derandomize),
    ("verbosity", Some("PBT_VERBOSITY"), Key::Verbosity),
    ("regressions", None, Key::Regressions),
];

/// The keys set in code, which a profile leaves alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Keys(u32);

impl Keys {
    /// With `key` too.
    pub(crate) fn with(self, key: Key) -> Keys {
        Keys(self.0 | 1 << key as u8)
    }

    fn contains(self, key: Key) -> bool {
        self.0 & 1 << key as u8 != 0
    }
}

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

/// A value as written in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Value {
    Integer(u64),
    Text(String),
    Boolean(bool),
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Integer(n) => write!(f, "{n}"),
            Value::Text(s) => write!(f, "{s:?}"),
            Value::Boolean(b) => write!(f, "{b}"),
        }
    }
}

/// One `key = value` line.
#[derive(Clone, Debug)]
struct Entry {
    key: Key,
    value: Value,
}

/// One `[profile.NAME]` table.
#[derive(Clone, Debug)]
struct Table {
    name: String,
    entries: Vec<Entry>,
}

/// A profile file, read and checked: every value is valid for its key.
#[derive(Clone, Debug)]
struct Profiles {
    path: PathBuf,
    tables: Vec<Table>,
}

/// Parse `text`, the profile file at `path`; the error names the file, the
/// line and, past the header, the key.
fn parse(path: &Path, text: &str) -> Result<Profiles, String> {
    let mut tables: Vec<Table> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = |what: String| format!("{}:{}: {what}", path.display(), n + 1);
        let line = without_comment(line).trim();
        if line.is_empty() {
            continue;
        }
        if let Some(header) = line.strip_prefix('[') {
            let name = header
                .strip_suffix(']')
                .map(str::trim)
                .map(|h| h.strip_prefix("profile.").unwrap_or(h).trim())
                .filter(|name| is_name(name))
                .ok_or_else(|| {
                    at(format!(
                        "`{line}` is not a profile header: expected `[profile.NAME]` or `[NAME]`, \
                         NAME made of letters, digits, `-` and `_`"
                    ))
                })?;
            if tables.iter().any(|t| t.name == name) {
                return Err(at(format!("profile `{name}` is defined twice")));
            }
            tables.push(Table {
                name: name.to_string(),
                entries: Vec::new(),
            });
            continue;
        }
        let Some((key, raw)) = line.split_once('=') else {
            return Err(at(format!(
                "`{line}` is neither a `[profile.NAME]` header nor a `key = value` setting"
            )));
        };
        let key = key.trim();
        let Some(table) = tables.last_mut() else {
            return Err(at(format!(
                "`{key}` comes before any profile: put it under a `[profile.NAME]` header"
            )));
        };
        let Some(&(_, _, k)) = KEYS
            .iter()
            .find(|(name, alias, _)| *name == key || *alias == Some(key))
        else {
            return Err(at(format!(
                "`{key}` is not a setting of a profile: expected one of {}",
                KEYS.iter()
                    .map(|(name, _, _)| format!("`{name}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        let value = value(raw.trim()).map_err(|why| at(format!("`{key}`: {why}")))?;
        set(&mut Config::default(), k, &value).map_err(|why| at(format!("`{key}`: {why}")))?;
        if table.entries.iter().any(|e| e.key == k) {
            return Err(at(format!(
                "`{key}` is set twice in profile `{}`",
                table.name
            )));
        }
        table.entries.push(Entry { key: k, value });
    }
    Ok(Profiles {
        path: path.to_path_buf(),
        tables,
    })
}

/// `line` up to a `#` that is not inside a string.
fn without_comment(line: &str) -> &str {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return &line[..i],
            _ => {}
        }
    }
    line
}

fn is_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// A value: an integer, a `"string"` (no escapes) or a boolean.
fn value(raw: &str) -> Result<Value, String> {
    if let Some(inner) = raw.strip_prefix('"') {
        return match inner.strip_suffix('"') {
            Some(s) if !s.contains(['"', '\\']) => Ok(Value::Text(s.to_string())),
            _ => Err(format!(
                "{raw} is not a string this file reads: one `\"…\"` without escapes"
            )),
        };
    }
    match raw {
        "true" => return Ok(Value::Boolean(true)),
        "false" => return Ok(Value::Boolean(false)),
        _ => {}
    }
    match parse_u64(raw) {
        Some(n) if !raw.is_empty() && !raw.starts_with('+') => Ok(Value::Integer(n)),
        _ => Err(format!(
            "`{raw}` is not a value: expected a non-negative integer, a \"string\" or true/false"
        )),
    }
}

/// Set `key` of `config` to `value`, or say why it does not fit.
fn set(config: &mut Config, key: Key, value: &Value) -> Result<(), String> {
    let count = || match value {
        Value::Integer(n) => Ok(*n),
        _ => Err(format!(
            "{value} is not a count: expected a non-negative integer"
        )),
    };
    let switch = || match value {
        Value::Boolean(b) => Ok(*b),
        _ => Err(format!("{value} is not a switch: expected true or false")),
    };
    let text = |what: &str| match value {
        Value::Text(s) => Ok(s.as_str()),
        _ => Err(format!("{value} is not {what}")),
    };
    let duration =
        || text(DURATION).and_then(|s| duration(s).ok_or(format!("{value} is not {DURATION}")));
    match key {
        Key::Cases => config.cases = count()?,
        Key::Seed => config.seed = Some(count()?),
        Key::Timeout => config.timeout = duration()?,
        Key::MaxShrinks => config.max_shrinks = count()?,
        Key::MaxShrinkTime => config.max_shrink_time = duration()?.unwrap_or(Duration::MAX),
        Key::MaxDiscardRatio => config.max_discard_ratio = count()?,
        Key::MaxSize => config.max_size = usize::try_from(count()?).unwrap_or(usize::MAX),
        Key::MaxDraws => config.max_draws = count()?,
        Key::Workers => {
            let n = usize::try_from(count()?).unwrap_or(usize::MAX);
            config.workers = n.clamp(1, crate::MAX_WORKERS);
        }
        Key::Candidates => config.candidates = usize::try_from(count()?).unwrap_or(usize::MAX),
        Key::AutoTarget => config.auto_target = switch()?,
        Key::CheckCoverage => {
            config.check_coverage = switch()?.then(Default::default);
        }
        Key::ShowStatistics => config.show_statistics = switch()?,
        Key::Isolated => config.isolated = switch()?,
        Key::Derandomize => config.derandomize = switch()?,
        Key::Shrinker => {
            let name = text("a shrinker: expected \"integrated\", \"external\" or \"both\"")?;
            config.shrinker = Shrinker::from_name(name).ok_or(format!(
                "{value} is not a shrinker: expected \"integrated\", \"external\" or \"both\""
            ))?;
        }
        Key::Mutation => {
            let name = text("a mutation: expected \"choices\", \"values\" or \"both\"")?;
            config.mutation = Mutation::from_name(name).ok_or(format!(
                "{value} is not a mutation: expected \"choices\", \"values\" or \"both\""
            ))?;
        }
        Key::Verbosity => {
            let name = text("a verbosity: expected quiet, normal, verbose or debug")?;
            config.verbosity = Verbosity::from_name(name).ok_or(Verbosity::malformed(&name))?;
        }
        Key::Regressions => {
            config.regressions =
                match text("a regressions file: expected \"beside\", \"off\" or a path")? {
                    "beside" => Regressions::Beside,
                    "off" => Regressions::Off,
                    "" => return Err(
                        "\"\" is not a regressions file: expected \"beside\", \"off\" or a path"
                            .into(),
                    ),
                    path => Regressions::File(PathBuf::from(path)),
                }
        }
    }
    Ok(())
}

const DURATION: &str =
    "a duration: expected a string with a unit, like \"2s\", \"500ms\" or \"1m\", or \"off\"";

/// `"2s"`, `"500ms"`, `"1m"`, `"1h"`, `"250us"`; `"off"`, `"none"` and
/// `"0"` are no limit (`None`).
fn duration(text: &str) -> Option<Option<Duration>> {
    let text = text.trim();
    if matches!(text, "off" | "none" | "0") {
        return Some(None);
    }
    let split = text.find(|c: char| !c.is_ascii_digit() && c != '_')?;
    let (number, unit) = text.split_at(split);
    let n: u64 = number.replace('_', "").parse().ok()?;
    let d = match unit.trim() {
        "ms" => Duration::from_millis(n),
        "us" | "µs" => Duration::from_micros(n),
        "s" => Duration::from_secs(n),
        "m" | "min" => Duration::from_secs(n.checked_mul(60)?),
        "h" => Duration::from_secs(n.checked_mul(3600)?),
        _ => return None,
    };
    Some((!d.is_zero()).then_some(d))
}

/// Whether `key` of `config` still has pbt's default value: what a field
/// written directly, without a builder, is told apart by.
fn is_default(config: &Config, key: Key) -> bool {
    let d = Config::default();
    match key {
        Key::Cases => config.cases == d.cases,
        Key::Seed => config.seed == d.seed,
        Key::Timeout => config.timeout == d.timeout,
        Key::MaxShrinks => config.max_shrinks == d.max_shrinks,
        Key::MaxShrinkTime => config.max_shrink_time == d.max_shrink_time,
        Key::MaxDiscardRatio => config.max_discard_ratio == d.max_discard_ratio,
        Key::MaxSize => config.max_size == d.max_size,
        Key::MaxDraws => config.max_draws == d.max_draws,
        Key::Shrinker => config.shrinker == d.shrinker,
        Key::Mutation => config.mutation == d.mutation,
        Key::Workers => config.workers == d.workers,
        Key::Candidates => config.candidates == d.candidates,
        Key::AutoTarget => config.auto_target == d.auto_target,
        Key::CheckCoverage => config.check_coverage == d.check_coverage,
        Key::ShowStatistics => config.show_statistics == d.show_statistics,
        Key::Isolated => config.isolated == d.isolated,
        Key::Derandomize => config.derandomize == d.derandomize,
        Key::Verbosity => config.verbosity == d.verbosity,
        Key::Regressions => config.regressions == d.regressions,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Profiles, String> {
        parse(Path::new("/crate/pbt.toml"), text)
    }

    /// The profile `name` of `text` applied to `config`.
    fn applied(text: &str, name: &str, config: Config) -> Config {
        let profiles = read(text).unwrap();
        let entries: Vec<Entry> = (profiles.tables.iter())
            .filter(|t| t.name == name)
            .flat_map(|t| t.entries.iter().cloned())
            .collect();
        let mut config = config;
        overlay(&mut config, &entries);
        config
    }

    #[test]
    fn the_subset_reads_headers_values_comments_and_aliases() {
        let text = "# settings\n\
            [profile.fast]  # a comment\n\
            cases = 1_000\n\
            PBT_SEED = 0x2a\n\
            timeout = \"2s\"\n\
            max_shrink_time = \"off\"\n\
            shrinker = \"integrated\" # after a value\n\
            isolated = true\n\
            verbosity = \"verbose\"\n\
            \n\
            [slow]\n\
            max_shrinks = 5\n\
            regressions = \"off\"\n";
        let profiles = read(text).unwrap();
        let names: Vec<_> = profiles.tables.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["fast", "slow"]);
        let c = applied(text, "fast", Config::default());
        assert_eq!((c.cases, c.seed), (1000, Some(42)));
        assert_eq!(c.timeout, Some(Duration::from_secs(2)));
        assert_eq!(c.max_shrink_time, Duration::MAX);
        assert_eq!(c.shrinker, Shrinker::Integrated);
        assert!(c.isolated);
        assert_eq!(c.verbosity, Verbosity::Verbose);
        let c = applied(text, "slow", Config::default());
        assert_eq!((c.max_shrinks, c.cases), (5, 100));
        assert_eq!(c.regressions, Regressions::Off);
    }

    #[test]
    #[allow(
        clippy::field_reassign_with_default,
        reason = "a field written after `default()` is what is tested"
    )]
    fn a_setting_made_in_code_wins_over_the_profile() {
        let text = "[p]\ncases = 7\nmax_size = 3\ntimeout = \"1s\"\n";
        // A builder, even to the default value.
        let c = applied(text, "p", Config::default().cases(100));
        assert_eq!((c.cases, c.max_size), (100, 3));
        // A field written directly.
        let mut code = Config::default();
        code.max_size = 50;
        let c = applied(text, "p", code);
        assert_eq!((c.cases, c.max_size), (7, 50));
        // `no_timeout` is a setting of the timeout.
        let c = applied(text, "p", Config::default().no_timeout());
        assert_eq!(c.timeout, None);
    }

    #[test]
    fn the_built_in_ci_profile_is_derandomized_without_time_limits() {
        let c = applied(BUILT_IN, "ci", Config::default());
        assert!(c.derandomize);
        assert_eq!(c.timeout, None);
        assert_eq!(c.max_shrink_time, Duration::MAX);
        assert_eq!(c.cases, 100);
        let d = applied(BUILT_IN, "default", Config::default());
        assert!(!d.derandomize && d.timeout.is_some());
    }

    #[test]
    fn a_malformed_file_names_the_file_the_line_and_the_key() {
        let cases = [
            (
                "cases = 5\n",
                "pbt.toml:1: `cases` comes before any profile",
            ),
            (
                "[p]\ncases = \"many\"\n",
                "pbt.toml:2: `cases`: \"many\" is not a count",
            ),
            (
                "[p]\n\ntimeout = 2\n",
                "pbt.toml:3: `timeout`: 2 is not a duration",
            ),
            (
                "[p]\ntimeout = \"2 weeks\"\n",
                "pbt.toml:2: `timeout`: \"2 weeks\" is not a duration",
            ),
            (
                "[p]\nisolated = 1\n",
                "pbt.toml:2: `isolated`: 1 is not a switch",
            ),
            (
                "[p]\nverbosity = \"loud\"\n",
                "pbt.toml:2: `verbosity`: \"loud\" is not a verbosity",
            ),
            (
                "[p]\nshrinker = \"best\"\n",
                "pbt.toml:2: `shrinker`: \"best\" is not a shrinker",
            ),
            (
                "[p]\ncasse = 5\n",
                "pbt.toml:2: `casse` is not a setting of a profile: expected one of `cases`",
            ),
            (
                "[p]\ncases = [1, 2]\n",
                "pbt.toml:2: `cases`: `[1, 2]` is not a value",
            ),
            (
                "[p]\ncases = -1\n",
                "pbt.toml:2: `cases`: `-1` is not a value",
            ),
            (
                "[p]\nseed = \"a\\\"b\"\n",
                "pbt.toml:2: `seed`: \"a\\\"b\" is not a string this file reads",
            ),
            (
                "[p]\ncases = 1\ncases = 2\n",
                "pbt.toml:3: `cases` is set twice in profile `p`",
            ),
            (
                "[p]\nPBT_CASES = 1\ncases = 2\n",
                "pbt.toml:3: `cases` is set twice in profile `p`",
            ),
            ("[p]\n[p]\n", "pbt.toml:2: profile `p` is defined twice"),
            (
                "[profile.a b]\n",
                "pbt.toml:1: `[profile.a b]` is not a profile header",
            ),
            ("[p]\njust words\n", "pbt.toml:2: `just words` is neither"),
            (
                "[p]\nPBT_REPLAY = \"cc 1 2\"\n",
                "pbt.toml:2: `PBT_REPLAY` is not a setting",
            ),
        ];
        for (text, expected) in cases {
            let error = read(text).unwrap_err();
            assert!(error.starts_with("/crate/"), "{error}");
            assert!(error.contains(expected), "{text:?}: {error}");
        }
    }

    #[test]
    fn durations_have_units_and_off_is_no_limit() {
        let ms = |n| Some(Some(Duration::from_millis(n)));
        assert_eq!(duration("500ms"), ms(500));
        assert_eq!(duration("2s"), ms(2000));
        assert_eq!(duration("1m"), ms(60_000));
        assert_eq!(duration("1_000us"), ms(1));
        assert_eq!(duration("off"), Some(None));
        assert_eq!(duration("0s"), Some(None));
        assert_eq!(duration("2"), None);
        assert_eq!(duration("s"), None);
        assert_eq!(duration("2 fortnights"), None);
    }
}

//! The profile file's subset, the settings, the order of precedence.

use super::file::{parse, Entry, Profiles};
use super::settings::duration;
use super::*;
use crate::config::{Regressions, Shrinker};
use crate::verbosity::Verbosity;
use std::time::Duration;

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
        regressions = \"off\"\n\
        PBT_REPORT_MULTIPLE = true\n\
        observe = \"target/observed\"\n";
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
    assert!(c.report_multiple);
    assert_eq!(c.observe, Some(std::path::PathBuf::from("target/observed")));
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

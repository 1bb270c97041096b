//! The settings a profile can make: the fields of [`Config`] that are
//! values, by their names and their variables' names, and how a value is
//! set on a `Config`.

use super::file::Value;
use crate::config::{Config, Regressions, Shrinker};
use crate::verbosity::Verbosity;
use crate::Mutation;
use std::path::PathBuf;
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
    ReportMultiple,
    Observe,
}

/// Each key by its field's name, and by the `PBT_*` variable that sets it
/// when there is one.
pub(super) const KEYS: [(&str, Option<&str>, Key); 21] = [
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
    (
        "report_multiple",
        Some("PBT_REPORT_MULTIPLE"),
        Key::ReportMultiple,
    ),
    ("observe", Some("PBT_OBSERVE"), Key::Observe),
];

/// The keys set in code, which a profile leaves alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Keys(u32);

impl Keys {
    /// With `key` too.
    pub(crate) fn with(self, key: Key) -> Keys {
        Keys(self.0 | 1 << key as u8)
    }

    pub(super) fn contains(self, key: Key) -> bool {
        self.0 & 1 << key as u8 != 0
    }
}

/// Set `key` of `config` to `value`, or say why it does not fit.
pub(super) fn set(config: &mut Config, key: Key, value: &Value) -> Result<(), String> {
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
        Key::ReportMultiple => config.report_multiple = switch()?,
        Key::Observe => {
            let dir = text("a directory: expected a path")?;
            if dir.is_empty() {
                return Err("\"\" is not a directory: expected a path".into());
            }
            config.observe = Some(PathBuf::from(dir));
        }
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
pub(super) fn duration(text: &str) -> Option<Option<Duration>> {
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
pub(super) fn is_default(config: &Config, key: Key) -> bool {
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
        Key::ReportMultiple => config.report_multiple == d.report_multiple,
        Key::Observe => config.observe == d.observe,
    }
}

//! [`Verbosity`]: how much a run prints (Hypothesis's and hegel's
//! `verbosity` setting), set with [`crate::Config::verbosity`] or
//! `PBT_VERBOSITY=quiet|normal|verbose|debug`.

use serde::Serialize;

/// How much a run prints to stderr, beyond the failure report a failing
/// `#[property_test]` panics with.
///
/// | level | a pass | a failure |
/// |---|---|---|
/// | `Quiet` | nothing, not even statistics (`PBT_STATS`) or an unmet coverage warning | the report alone: no announcement when the input is found |
/// | `Normal` (the default) | nothing, unless statistics are asked for, a coverage requirement is unmet, or nothing ran | the announcement (`found a failing input … saved to …`), then the report |
/// | `Verbose` | the one-line summary (tests, seed) | as normal, plus the failing input as found and each shrink step taken |
/// | `Debug` | as verbose, plus every generated input and the statistics table | as verbose, plus every generated input and the integrated shrinker's table of what each pass did |
///
/// `Debug` turns [`crate::Config::show_statistics`] on and `Quiet` turns it
/// off; `PBT_SHRINK_STATS=1` prints the shrinker's table at any level, as
/// before. Every generated input is printed by the runners whose loop is
/// a [`crate::components::RunStep`] (the generational and integrated
/// runners, the default ones, in process and isolated); the other runners
/// narrate failures and shrink steps alone.
///
/// ```
/// use pbt_runners::Verbosity;
/// assert_eq!(Verbosity::from_name("verbose"), Some(Verbosity::Verbose));
/// assert!(Verbosity::Debug > Verbosity::Verbose && Verbosity::Quiet < Verbosity::Normal);
/// assert_eq!(Verbosity::Quiet.to_string(), "quiet");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verbosity {
    /// Nothing for a pass; the failure report alone for a failure.
    Quiet,
    /// What pbt always printed (the default).
    #[default]
    Normal,
    /// Also each failing input found and each shrink step taken.
    Verbose,
    /// Also every generated input and the shrinker's per-pass statistics.
    Debug,
}

impl Verbosity {
    /// The levels, least first, by name.
    pub const NAMES: [(&'static str, Verbosity); 4] = [
        ("quiet", Verbosity::Quiet),
        ("normal", Verbosity::Normal),
        ("verbose", Verbosity::Verbose),
        ("debug", Verbosity::Debug),
    ];

    /// The level named `name` (`quiet`, `normal`, `verbose`, `debug`, in
    /// any case).
    pub fn from_name(name: &str) -> Option<Verbosity> {
        let name = name.trim().to_ascii_lowercase();
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, level)| level)
    }

    /// Why `raw` is not a level: what a malformed `PBT_VERBOSITY` or
    /// profile value says.
    pub(crate) fn malformed(raw: &dyn std::fmt::Debug) -> String {
        format!("{raw:?} is not a verbosity: expected quiet, normal, verbose or debug")
    }
}

impl std::fmt::Display for Verbosity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = Self::NAMES.iter().find(|(_, l)| l == self).map(|(n, _)| *n);
        f.write_str(name.unwrap_or("normal"))
    }
}

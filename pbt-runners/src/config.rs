//! [`Config`]: how long to test, from which seed, with which limits.

use crate::components::statistics::CoverageCheck;
use crate::profile::{Key, Keys};
use crate::verbosity::Verbosity;
use std::path::PathBuf;
use std::time::Duration;

/// How the size handed to generators grows with the test number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sizes {
    /// QuickCheck's schedule (the default): test `n` runs at `n % (max + 1)`,
    /// so small and large inputs alternate through a long run.
    Cycle,
    /// The papers' schedule (*Programmable Property-Based Testing* Fig. 12): `log2(n)`, capped at `max`.
    Log2,
    /// Always the same size.
    Fixed(usize),
}

/// A feature function for the combinatorial runner: the features of an
/// input, from its printed variables.
pub type FeatureFn = fn(&[pbt_core::Binding]) -> Vec<String>;

/// Which shrinker minimizes a counterexample (*Programmable Property-Based
/// Testing*, §2.2, §6.4): the setting, and in [`crate::Failure::shrinker`]
/// the shrinker that produced the result.
///
/// ```
/// use pbt_runners::Shrinker;
/// assert_eq!(Shrinker::from_name("both"), Some(Shrinker::Both));
/// assert_eq!(Shrinker::Both.to_string(), "integrated+external");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Shrinker {
    /// Type-based shrinking of each variable (`Shrink`, or the variable's
    /// own generator choices when it has a `#[gen]`): QuickCheck's way.
    External,
    /// Shrink the choice sequence the whole input was generated from and
    /// regenerate through the property's generators: Hypothesis's way.
    Integrated,
    /// Integrated, then external on its result (as a result: both took
    /// steps). The external phase is skipped when every variable shrinks
    /// through its generator's choices (or is of a type whose value
    /// shrinker those choices subsume, `Shrink::SUBSUMED_BY_CHOICES`:
    /// integers and their `Vec`s) and the integrated shrinker reached its
    /// fixed point: it would only try again what the choices tried. The
    /// default: on the shrinking challenge it reaches the documented
    /// minimum most often (see `tests/shrinking_challenge.rs`).
    #[default]
    Both,
}

impl std::fmt::Display for Shrinker {
    /// The shrinker as a report names it: `external`, `integrated`,
    /// `integrated+external`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Shrinker::External => "external",
            Shrinker::Integrated => "integrated",
            Shrinker::Both => "integrated+external",
        })
    }
}

impl Shrinker {
    /// The shrinker named `name` (`"external"`, `"integrated"`, `"both"`).
    pub fn from_name(name: &str) -> Option<Shrinker> {
        match name {
            "external" => Some(Shrinker::External),
            "integrated" => Some(Shrinker::Integrated),
            "both" => Some(Shrinker::Both),
            _ => None,
        }
    }
}

/// How the feedback-guided runners (`fuzz`, `targeted`) mutate a seed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mutation {
    /// Edit the seed's choice sequence and regenerate through the
    /// property's generators (works for any generator; every mutant is a
    /// value the generators can produce).
    Choices,
    /// Mutate the seed's value with [`pbt_core::Property::mutate`]: a
    /// variable's `#[mutate]` annotation or its type's `Mutate` (derived
    /// with `#[derive(Mutate)]`), FuzzChick's way.
    Values,
    /// Half of each, when some variable mutates by value; choices only
    /// otherwise (the default).
    #[default]
    Both,
}

impl Mutation {
    /// The mutation named `name` (`"choices"`, `"values"`, `"both"`).
    pub fn from_name(name: &str) -> Option<Mutation> {
        match name {
            "choices" => Some(Mutation::Choices),
            "values" => Some(Mutation::Values),
            "both" => Some(Mutation::Both),
            _ => None,
        }
    }
}

/// Where failing seeds are saved and replayed from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Regressions {
    /// In the `pbt-regressions/` folder at the root of the package that
    /// holds the property's source file, at the source's path there
    /// (`tests/foo.rs` → `pbt-regressions/tests/foo.txt`, `src/lib.rs` →
    /// `pbt-regressions/src/lib.txt`), when the macros recorded where the
    /// source is. A file at the old place beside the source
    /// (`tests/foo.pbt-regressions`) is still replayed, with a note.
    Beside,
    /// This file.
    File(PathBuf),
    /// Neither saved nor replayed.
    Off,
}

/// The settings of a run. Builders consume and return it.
///
/// The environment overrides the code, so a failure can be replayed and CI
/// can test longer without editing tests: `PBT_SEED` (decimal or `0x…` hex)
/// fixes the seed, `PBT_CASES` the number of tests, `PBT_STATS=1` shows the
/// statistics of passing runs, `PBT_CHECK_COVERAGE=1` checks the coverage
/// requirements, `PBT_ISOLATE=1` (or `0`) turns the isolated mode on (or
/// off), `PBT_VERBOSITY` sets the [`Verbosity`], `PBT_OBSERVE=dir` writes
/// each test case to `dir` for Tyche, `PBT_REPORT_MULTIPLE=1` reports every
/// distinct failure. A malformed value is an
/// error: the run panics with a message naming the variable and the value
/// (a typo must not pass as a random seed). The variables are read once
/// per process, by the first run (see [`Config::reread_env`] to read them
/// again).
///
/// Below the code come the profiles: `PBT_PROFILE=name` (or `ci`, when a
/// CI service is detected) applies a named set of settings, from
/// `pbt.toml` at the crate's root or built in, to every setting the code
/// did not make. The order, highest first: a `PBT_*` variable, the code,
/// the profile, pbt's defaults (the guide's configuration chapter shows
/// the file).
///
/// Extreme values have a meaning, never an overflow:
///
/// - `cases(0)` replays the saved cases only (they never count toward
///   `cases`); `cases(u64::MAX)` runs until a failure.
/// - `timeout(Duration::ZERO)` is no time limit, like [`Config::no_timeout`].
/// - `workers(0)` is one worker; more than [`MAX_WORKERS`] are clamped to it;
///   `candidates` is clamped to `1..=1024` the same way.
/// - `max_discard_ratio(u64::MAX)` never gives up; with `cases(u64::MAX)`
///   a run gives up once it discards more than `max_discard_ratio` per
///   passed test past its first `1000 × max_discard_ratio` discards.
/// - `timeout(Duration::MAX)` and `max_shrink_time(Duration::MAX)` are no
///   limit in effect; `max_shrinks(u64::MAX)` shrinks to a fixed point.
/// - `max_size(usize::MAX)` is allowed (the default size schedule reaches a
///   size only after that many tests); saved cases replay at most at size
///   `max(max_size, 10 000)`.
/// - `max_draws` bounds the choices one input may draw (default
///   1 000 000): past it, generation stops with a "data too large" failure.
///
/// ```
/// use pbt_runners::Config;
/// use std::time::Duration;
/// let c = Config::default().cases(500).seed(42).timeout(Duration::from_millis(200)).max_shrinks(100);
/// assert_eq!(c.cases, 500);
/// ```
///
/// The fields are public to read; build a `Config` with the methods (it is
/// `#[non_exhaustive]`, so a new setting is not a breaking change).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Config {
    /// Tests that must pass (discarded ones do not count).
    pub cases: u64,
    /// The run seed; `None` picks a fresh one.
    pub seed: Option<u64>,
    /// Per-test time limit; a slower test fails.
    pub timeout: Option<Duration>,
    /// Shrink steps (accepted simplifications) at most.
    pub max_shrinks: u64,
    /// Time spent shrinking at most.
    pub max_shrink_time: Duration,
    /// Give up after `cases * max_discard_ratio` discards. A feedback-guided
    /// run (and the generational runner once it targets the preconditions)
    /// gives up after that many in a row without progress, and after
    /// `cases` times that many in all.
    pub max_discard_ratio: u64,
    /// The largest size handed to generators.
    pub max_size: usize,
    /// How size grows with the test number.
    pub sizes: Sizes,
    /// Where failures are saved and replayed from.
    pub regressions: Regressions,
    /// Whether the `PBT_*` variables and the profiles (`PBT_PROFILE`, `CI`,
    /// `pbt.toml`) are read.
    pub read_env: bool,
    /// Which shrinker minimizes a counterexample.
    pub shrinker: Shrinker,
    /// Worker threads of the parallel runner (default: the machine's cores).
    pub workers: usize,
    /// Candidates generated per test by the combinatorial runner.
    pub candidates: usize,
    /// The features the combinatorial runner counts, from the printed
    /// variables (default: constructor names and nesting pairs read off the
    /// `Debug` output).
    pub features: Option<FeatureFn>,
    /// The seed pool of the feedback-guided runners (`None`: each runner's
    /// default).
    pub pool: Option<crate::components::seed_pool::Pool>,
    /// How the feedback-guided runners mutate seeds.
    pub mutation: Mutation,
    /// Whether the generational runner steers towards the preconditions
    /// (*Flexible and Automatic Targeted Property-Based Testing* §3) when they reject most inputs.
    pub auto_target: bool,
    /// The choices one generated (or mutated) input may draw; past it the
    /// generator is stopped and the run fails with "data too large"
    /// (Hypothesis's health check of the same name).
    pub max_draws: u64,
    /// Test coverage requirements ([`pbt_core::require_cover!`])
    /// statistically, testing beyond `cases` until each is decided
    /// (`None`: an unmet requirement is only a warning).
    pub check_coverage: Option<CoverageCheck>,
    /// Show the statistics table for passing runs too.
    pub show_statistics: bool,
    /// Whether each test runs in a child process (`PBT_ISOLATE=1` sets it
    /// too): see [`Config::isolated`].
    pub isolated: bool,
    /// Whether the run seed, when none is given, derives from the test's
    /// path instead of the clock: see [`Config::derandomize`].
    pub derandomize: bool,
    /// How much a run prints (`PBT_VERBOSITY` sets it too): see
    /// [`Verbosity`].
    pub verbosity: Verbosity,
    /// The settings made with a builder, which a profile leaves alone.
    pub(crate) set: Keys,
    /// The directory each test case is written to as a JSON line, for
    /// Tyche (`PBT_OBSERVE=dir` sets it too): see [`Config::observe`].
    pub observe: Option<PathBuf>,
    /// Whether a run goes on after its first failure and reports every
    /// failure of a distinct origin (`PBT_REPORT_MULTIPLE=1` sets it too):
    /// see [`Config::report_multiple`].
    pub report_multiple: bool,
}

/// The most worker threads the parallel runner starts.
pub const MAX_WORKERS: usize = 1024;

/// The most candidates per test the combinatorial runner generates.
const MAX_CANDIDATES: usize = 1024;

impl Default for Config {
    fn default() -> Self {
        Config {
            cases: 100,
            seed: None,
            timeout: Some(Duration::from_secs(10)),
            max_shrinks: 10_000,
            max_shrink_time: Duration::from_secs(30),
            max_discard_ratio: 10,
            max_size: 100,
            sizes: Sizes::Cycle,
            regressions: Regressions::Beside,
            read_env: true,
            shrinker: Shrinker::Both,
            workers: cores(),
            candidates: 8,
            features: None,
            pool: None,
            mutation: Mutation::Both,
            auto_target: true,
            max_draws: pbt_core::overrun::DEFAULT_MAX_DRAWS,
            check_coverage: None,
            show_statistics: false,
            isolated: false,
            derandomize: false,
            verbosity: Verbosity::Normal,
            set: Keys::default(),
            observe: None,
            report_multiple: false,
        }
    }
}

impl Config {
    /// Run `n` passing tests.
    pub fn cases(mut self, n: u64) -> Self {
        self.set = self.set.with(Key::Cases);
        self.cases = n;
        self
    }

    /// Use this run seed (a failure report prints the seed to use here).
    pub fn seed(mut self, seed: u64) -> Self {
        self.set = self.set.with(Key::Seed);
        self.seed = Some(seed);
        self
    }

    /// Fail any test that runs longer than `limit`; `Duration::ZERO` means
    /// no limit.
    ///
    /// ```
    /// use pbt_runners::Config;
    /// use std::time::Duration;
    /// assert_eq!(Config::default().timeout(Duration::ZERO).timeout, None);
    /// ```
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.set = self.set.with(Key::Timeout);
        self.timeout = (!limit.is_zero()).then_some(limit);
        self
    }

    /// At most `n` choices drawn per generated input (see
    /// [`Config::max_draws`](Config#structfield.max_draws)).
    ///
    /// ```
    /// use pbt_runners::Config;
    /// assert_eq!(Config::default().max_draws(5_000).max_draws, 5_000);
    /// ```
    pub fn max_draws(mut self, n: u64) -> Self {
        self.set = self.set.with(Key::MaxDraws);
        self.max_draws = n;
        self
    }

    /// No per-test time limit.
    pub fn no_timeout(mut self) -> Self {
        self.set = self.set.with(Key::Timeout);
        self.timeout = None;
        self
    }

    /// At most `n` shrink steps.
    pub fn max_shrinks(mut self, n: u64) -> Self {
        self.set = self.set.with(Key::MaxShrinks);
        self.max_shrinks = n;
        self
    }

    /// At most `limit` of shrinking.
    pub fn max_shrink_time(mut self, limit: Duration) -> Self {
        self.set = self.set.with(Key::MaxShrinkTime);
        self.max_shrink_time = limit;
        self
    }

    /// Give up after `ratio` discards per requested test.
    pub fn max_discard_ratio(mut self, ratio: u64) -> Self {
        self.set = self.set.with(Key::MaxDiscardRatio);
        self.max_discard_ratio = ratio;
        self
    }

    /// The largest size handed to generators.
    pub fn max_size(mut self, n: usize) -> Self {
        self.set = self.set.with(Key::MaxSize);
        self.max_size = n;
        self
    }

    /// The size schedule.
    pub fn sizes(mut self, sizes: Sizes) -> Self {
        self.sizes = sizes;
        self
    }

    /// Where failures are saved and replayed from.
    pub fn regressions(mut self, r: Regressions) -> Self {
        self.set = self.set.with(Key::Regressions);
        self.regressions = r;
        self
    }

    /// Minimize counterexamples with `shrinker`.
    pub fn shrinker(mut self, shrinker: Shrinker) -> Self {
        self.set = self.set.with(Key::Shrinker);
        self.shrinker = shrinker;
        self
    }

    /// Run the parallel runner on `n` worker threads (at least 1, at most
    /// [`MAX_WORKERS`]).
    ///
    /// ```
    /// use pbt_runners::Config;
    /// assert_eq!(Config::default().workers(0).workers, 1);
    /// assert_eq!(Config::default().workers(usize::MAX).workers, pbt_runners::MAX_WORKERS);
    /// ```
    pub fn workers(mut self, n: usize) -> Self {
        self.set = self.set.with(Key::Workers);
        self.workers = n.clamp(1, MAX_WORKERS);
        self
    }

    /// Let the combinatorial runner choose among `k` candidates per test
    /// (within `1..=1024`: each candidate is generated, so an absurd `k`
    /// would never end a test).
    pub fn candidates(mut self, k: usize) -> Self {
        self.set = self.set.with(Key::Candidates);
        self.candidates = k.clamp(1, MAX_CANDIDATES);
        self
    }

    /// The features the combinatorial runner counts, from the printed variables.
    pub fn features(mut self, f: FeatureFn) -> Self {
        self.features = Some(f);
        self
    }

    /// The seed pool (search strategy and power schedule) of the
    /// feedback-guided runners.
    pub fn pool(mut self, pool: crate::components::seed_pool::Pool) -> Self {
        self.pool = Some(pool);
        self
    }

    /// How the feedback-guided runners mutate seeds: by choices, by value,
    /// or both (the default).
    ///
    /// ```
    /// use pbt_runners::{Config, Mutation};
    /// let config = Config::default().mutation(Mutation::Values);
    /// assert_eq!(config.mutation, Mutation::Values);
    /// ```
    pub fn mutation(mut self, mutation: Mutation) -> Self {
        self.set = self.set.with(Key::Mutation);
        self.mutation = mutation;
        self
    }

    /// Let (or stop) the generational runner target the preconditions when
    /// they reject most inputs.
    pub fn auto_target(mut self, on: bool) -> Self {
        self.set = self.set.with(Key::AutoTarget);
        self.auto_target = on;
        self
    }

    /// Test the coverage requirements ([`pbt_core::require_cover!`])
    /// statistically (QuickCheck's `checkCoverage`): after `cases` tests,
    /// keep testing until each requirement is shown met or unmet with the
    /// [`CoverageCheck::default`] certainty, and fail the property if one
    /// is unmet. `PBT_CHECK_COVERAGE=1` turns it on from the environment.
    ///
    /// ```
    /// use pbt_core::property::{Check, Forall, Prop};
    /// use pbt_runners::{generational, Config, Regressions, Verdict};
    /// // About 1 in 256 bytes is 0, far from the 10% required.
    /// let prop = Prop::new(Forall::new("x", "u8", Check::new(|&(x, ()): &(u8, ())| {
    ///     pbt_core::require_cover!(10.0, x == 0, "zero");
    ///     true
    /// })));
    /// let config = Config::default().regressions(Regressions::Off).check_coverage(true);
    /// let report = generational(&prop, config);
    /// assert_eq!(report.verdict, Verdict::InsufficientCoverage, "{report}");
    /// ```
    pub fn check_coverage(mut self, on: bool) -> Self {
        self.set = self.set.with(Key::CheckCoverage);
        self.check_coverage = on.then(CoverageCheck::default);
        self
    }

    /// [`Config::check_coverage`] with this certainty, tolerance and cap
    /// (QuickCheck's `checkCoverageWith`).
    pub fn check_coverage_with(mut self, check: CoverageCheck) -> Self {
        self.set = self.set.with(Key::CheckCoverage);
        self.check_coverage = Some(check);
        self
    }

    /// Show the statistics table (labels, classes, tables, coverage, sizes,
    /// discard rate) for passing runs too; `#[property_test]` then prints
    /// it to stderr. `PBT_STATS=1` turns it on from the environment.
    ///
    /// ```
    /// use pbt_runners::Config;
    /// assert!(Config::default().show_statistics(true).show_statistics);
    /// ```
    pub fn show_statistics(mut self, on: bool) -> Self {
        self.set = self.set.with(Key::ShowStatistics);
        self.show_statistics = on;
        self
    }

    /// Run every test in a child process (the generational and integrated
    /// runners; `PBT_ISOLATE=1` does the same from the environment): a
    /// hang is killed at the time limit, and an abort, a stack overflow, an
    /// allocation failure or `exit` ends only the child. Each is a failure
    /// like any other, saved, reported with its input and shrunk (on its
    /// choice sequence, each candidate in a child); the other tests of the
    /// binary go on. It costs a process per failing candidate and a round
    /// trip per test (see `benches/isolation.rs`).
    ///
    /// ```
    /// use pbt_runners::Config;
    /// assert!(Config::default().isolated(true).isolated);
    /// ```
    pub fn isolated(mut self, on: bool) -> Self {
        self.set = self.set.with(Key::Isolated);
        self.isolated = on;
        self
    }

    /// Derive the run seed from the test's path (its module path and name)
    /// when no seed is given, instead of from the clock: every run of the
    /// same code tests the same inputs (Hypothesis's and hegel's
    /// `derandomize`). The `ci` profile turns it on. An explicit seed
    /// (`Config::seed`, `PBT_SEED`) still wins.
    ///
    /// ```
    /// use pbt_core::property::{Check, Forall, Prop};
    /// use pbt_runners::{generational, Config, Regressions};
    /// let prop = Prop::new(Forall::new("x", "u32", Check::new(|_: &(u32, ())| true)));
    /// let config = Config::default().ignore_env().regressions(Regressions::Off).derandomize(true);
    /// let (a, b) = (generational(&prop, config.clone()), generational(&prop, config));
    /// assert_eq!(a.seed, b.seed);
    /// ```
    pub fn derandomize(mut self, on: bool) -> Self {
        self.set = self.set.with(Key::Derandomize);
        self.derandomize = on;
        self
    }

    /// Print this much (see [`Verbosity`]; `PBT_VERBOSITY` overrides it).
    ///
    /// ```
    /// use pbt_runners::{Config, Verbosity};
    /// assert_eq!(Config::default().verbosity(Verbosity::Quiet).verbosity, Verbosity::Quiet);
    /// ```
    pub fn verbosity(mut self, level: Verbosity) -> Self {
        self.set = self.set.with(Key::Verbosity);
        self.verbosity = level;
        self
    }

    /// Write one JSON line per test case to today's
    /// `<dir>/<YYYY-MM-DD>_testcases.jsonl` (created when missing), in
    /// Hypothesis's observability format, which the Tyche extension for VS
    /// Code charts: each input's status, its variables, what the check
    /// reported (`label!`, `collect!`, `classify!`, `tabulate!`), timing,
    /// and how it came about (generated, mutated, replayed, shrinking).
    /// `PBT_OBSERVE=dir` does the same from the environment. A directory
    /// that cannot be created is an error naming it: the run panics. See
    /// [`crate::components::observations`].
    ///
    /// ```
    /// use pbt_runners::Config;
    /// let config = Config::default().observe("target/pbt-observed");
    /// assert_eq!(config.observe.unwrap(), std::path::Path::new("target/pbt-observed"));
    /// ```
    pub fn observe(mut self, dir: impl Into<PathBuf>) -> Self {
        self.set = self.set.with(Key::Observe);
        self.observe = Some(dir.into());
        self
    }

    /// Go on after the first failure, up to `cases` tests, and report
    /// every failure of a distinct origin — a panic's place
    /// (`file:line:col`), or the reason a check gave, numbers masked — each
    /// shrunk without leaving its origin, saved and printed on its own
    /// (Hypothesis's `report_multiple_bugs`). `PBT_REPORT_MULTIPLE=1` turns
    /// it on from the environment. The generational and integrated
    /// runners support it in process; the other runners, and an isolated
    /// run, stop at the first failure. [`crate::Report::failures`] gives
    /// them all.
    ///
    /// ```
    /// use pbt_runners::Config;
    /// assert!(Config::default().report_multiple(true).report_multiple);
    /// ```
    pub fn report_multiple(mut self, on: bool) -> Self {
        self.set = self.set.with(Key::ReportMultiple);
        self.report_multiple = on;
        self
    }

    /// Ignore the environment (`PBT_SEED`, `PBT_CASES`, `PBT_ISOLATE`,
    /// `PBT_STATS`, `PBT_CHECK_COVERAGE`, `PBT_VERBOSITY`, `PBT_REPORT_MULTIPLE`,
    /// `PBT_REPLAY`, `PBT_OBSERVE`) and the profiles (`PBT_PROFILE`, `CI`,
    /// `pbt.toml`).
    pub fn ignore_env(mut self) -> Self {
        self.read_env = false;
        self
    }

    /// This configuration with the profile and the environment applied
    /// (and the fields set directly brought into range: `timeout` of zero
    /// is none, `workers` within `1..=MAX_WORKERS`, `candidates` within
    /// `1..=1024`). The profile is read from the `pbt.toml` of the crate
    /// cargo runs (`CARGO_MANIFEST_DIR`); a run reads the one of the crate
    /// its property was written in.
    ///
    /// The environment is read once per process, by the first run that
    /// reads it, as proptest does (each variable would otherwise cost every
    /// run a lock and a scan of the environment); a program that changes a
    /// `PBT_*` variable while it runs calls [`Config::reread_env`] after.
    ///
    /// # Panics
    ///
    /// When `PBT_SEED` or `PBT_CASES` is set to something other than a
    /// decimal or `0x`-hex `u64`, `PBT_STATS`, `PBT_CHECK_COVERAGE` or
    /// `PBT_REPORT_MULTIPLE` to something other than a switch, or
    /// `PBT_VERBOSITY` to something other than a level: the message names
    /// the variable and the value (every run panics again while it is set).
    /// When the profile file is malformed (the message names the file, the
    /// line and the key), or `PBT_PROFILE` names no profile.
    pub fn resolved(&self) -> Config {
        self.resolved_for(None)
    }

    /// [`Config::resolved`] for a property of the crate at `root` (its
    /// `Origin::manifest_dir`): the profile is read from its `pbt.toml`.
    pub(crate) fn resolved_for(&self, root: Option<&str>) -> Config {
        let mut c = self.clone();
        crate::profile::apply(&mut c, root);
        if c.read_env {
            with_environment(|env| {
                if let Some(seed) = env.seed.get("PBT_SEED") {
                    c.seed = Some(seed);
                }
                if let Some(cases) = env.cases.get("PBT_CASES") {
                    c.cases = cases;
                }
                if let Some(on) = env.stats.get("PBT_STATS") {
                    c.show_statistics = on;
                }
                if let Some(level) = env.verbosity.get("PBT_VERBOSITY") {
                    c.verbosity = level;
                }
                if let Some(on) = env.report_multiple.get("PBT_REPORT_MULTIPLE") {
                    c.report_multiple = on;
                }
                if let Some(on) = env.check_coverage.get("PBT_CHECK_COVERAGE") {
                    c.check_coverage = match (on, c.check_coverage) {
                        (true, Some(check)) => Some(check),
                        (true, None) => Some(CoverageCheck::default()),
                        (false, _) => None,
                    };
                }
                if let Some(dir) = &env.observe {
                    c.observe = Some(dir.clone());
                }
            });
        }
        // Debug shows the statistics table of a pass; quiet shows nothing.
        match c.verbosity {
            Verbosity::Debug => c.show_statistics = true,
            Verbosity::Quiet => c.show_statistics = false,
            _ => {}
        }
        c.timeout = c.timeout.filter(|t| !t.is_zero());
        c.workers = c.workers.clamp(1, MAX_WORKERS);
        c.candidates = c.candidates.clamp(1, MAX_CANDIDATES);
        c
    }

    /// Read the `PBT_*` environment again, for the runs that follow.
    ///
    /// Runs read `PBT_SEED`, `PBT_CASES`, `PBT_STATS`,
    /// `PBT_CHECK_COVERAGE` and `PBT_ISOLATE` once per process, by the
    /// first run that reads the environment; a program (or test) that sets
    /// one with [`std::env::set_var`] while it runs calls this after, from
    /// one thread while no other thread starts a run.
    ///
    /// ```
    /// use pbt_runners::Config;
    /// // Nothing else in this program reads or writes the environment.
    /// std::env::set_var("PBT_CASES", "7");
    /// Config::reread_env();
    /// assert_eq!(Config::default().resolved().cases, 7);
    /// std::env::remove_var("PBT_CASES");
    /// Config::reread_env();
    /// assert_eq!(Config::default().resolved().cases, 100);
    /// ```
    pub fn reread_env() {
        let env = Environment::read();
        *ENVIRONMENT.write().unwrap_or_else(|e| e.into_inner()) = Some(env);
        crate::profile::forget();
    }

    /// The size for test number `n` (counting from 0).
    pub fn size_of(&self, n: u64) -> usize {
        match self.sizes {
            Sizes::Cycle => match (self.max_size as u64).checked_add(1) {
                Some(period) => (n % period) as usize,
                None => n as usize,
            },
            Sizes::Log2 => (u64::BITS - n.leading_zeros()) as usize,
            Sizes::Fixed(s) => s,
        }
        .min(self.max_size)
    }
}

/// The machine's cores, asked once (the question costs tens of microseconds,
/// more than many whole runs).
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// One `PBT_*` variable as read from the environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Setting<T> {
    /// Not set (or set to the empty string, for most variables).
    Unset,
    /// Set to this value.
    Set(T),
    /// Set to something that does not parse: the message a run panics with.
    Malformed(String),
}

impl<T: Copy> Setting<T> {
    /// The value, if set.
    ///
    /// # Panics
    ///
    /// When it is malformed, with its message (naming `name` and the value).
    fn get(&self, name: &str) -> Option<T> {
        match self {
            Setting::Unset => None,
            Setting::Set(value) => Some(*value),
            Setting::Malformed(message) => panic!("pbt: {name}={message}"),
        }
    }
}

/// The `PBT_*` variables a run reads, parsed.
#[derive(Clone, Debug)]
pub(crate) struct Environment {
    seed: Setting<u64>,
    cases: Setting<u64>,
    stats: Setting<bool>,
    check_coverage: Setting<bool>,
    verbosity: Setting<Verbosity>,
    /// `PBT_PROFILE`, as written (unset or empty: `None`).
    pub(crate) profile: Option<String>,
    /// The variable that says a CI service runs the tests, if one does.
    pub(crate) ci: Option<&'static str>,
    report_multiple: Setting<bool>,
    /// `PBT_ISOLATE` (set but empty is off): what
    /// [`crate::components::isolation::requested`] reads.
    pub(crate) isolate: Setting<bool>,
    /// `PBT_REPLAY`, as written (unset or empty: `None`): the one input a
    /// run replays, instead of its saved and fresh cases (what
    /// [`crate::components::Plan::new`] reads).
    pub(crate) replay: Option<String>,
    /// `PBT_OBSERVE`, the directory of the observations file (unset or
    /// empty: `None`).
    observe: Option<PathBuf>,
}

impl Environment {
    /// Read the variables from the process environment now.
    fn read() -> Environment {
        Environment {
            seed: env_u64("PBT_SEED"),
            cases: env_u64("PBT_CASES"),
            stats: env_switch("PBT_STATS"),
            check_coverage: env_switch("PBT_CHECK_COVERAGE"),
            verbosity: match std::env::var_os("PBT_VERBOSITY") {
                None => Setting::Unset,
                Some(raw) => match raw.to_str().map(str::trim) {
                    Some("") => Setting::Unset,
                    Some(name) => Verbosity::from_name(name).map_or_else(
                        || Setting::Malformed(Verbosity::malformed(&raw)),
                        Setting::Set,
                    ),
                    None => Setting::Malformed(Verbosity::malformed(&raw)),
                },
            },
            profile: std::env::var("PBT_PROFILE")
                .ok()
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty()),
            ci: crate::profile::ci_detected(),
            report_multiple: env_switch("PBT_REPORT_MULTIPLE"),
            isolate: match env_switch("PBT_ISOLATE") {
                Setting::Malformed(_) => Setting::Malformed(format!(
                    "{:?} is not a switch: expected 1 (run tests isolated) or 0",
                    std::env::var_os("PBT_ISOLATE").unwrap_or_default()
                )),
                Setting::Unset if std::env::var_os("PBT_ISOLATE").is_some() => Setting::Set(false),
                read => read,
            },
            replay: std::env::var("PBT_REPLAY")
                .ok()
                .map(|r| r.trim().to_string())
                .filter(|r| !r.is_empty()),
            observe: std::env::var_os("PBT_OBSERVE")
                .filter(|dir| !dir.is_empty())
                .map(PathBuf::from),
        }
    }
}

/// The environment as last read (`None` until the first run reads it).
static ENVIRONMENT: std::sync::RwLock<Option<Environment>> = std::sync::RwLock::new(None);

/// Call `f` with the `PBT_*` environment, read once per process (see
/// [`Config::reread_env`]).
pub(crate) fn with_environment<R>(f: impl FnOnce(&Environment) -> R) -> R {
    {
        let env = ENVIRONMENT.read().unwrap_or_else(|e| e.into_inner());
        if let Some(env) = &*env {
            return f(env);
        }
    }
    let mut env = ENVIRONMENT.write().unwrap_or_else(|e| e.into_inner());
    f(env.get_or_insert_with(Environment::read))
}

/// An environment variable as decimal or `0x` hex; unset or empty is
/// [`Setting::Unset`].
fn env_u64(name: &str) -> Setting<u64> {
    let malformed = |raw: &dyn std::fmt::Debug| {
        Setting::Malformed(format!(
            "{raw:?} is not a number: expected a decimal or 0x-hex u64"
        ))
    };
    let raw = match std::env::var(name) {
        Ok(raw) => raw,
        Err(std::env::VarError::NotPresent) => return Setting::Unset,
        Err(std::env::VarError::NotUnicode(raw)) => return malformed(&raw),
    };
    if raw.trim().is_empty() {
        return Setting::Unset;
    }
    match parse_u64(raw.trim()) {
        Some(n) => Setting::Set(n),
        None => malformed(&raw),
    }
}

/// An on/off environment variable: `1`/`true`/`yes`/`on` or
/// `0`/`false`/`no`/`off` (any case); unset or empty is [`Setting::Unset`].
fn env_switch(name: &str) -> Setting<bool> {
    let raw = match std::env::var_os(name) {
        Some(raw) => raw,
        None => return Setting::Unset,
    };
    match raw.to_str().map(parse_switch) {
        Some(Ok(Some(on))) => Setting::Set(on),
        Some(Ok(None)) => Setting::Unset,
        _ => Setting::Malformed(format!(
            "{raw:?} is not a switch: expected 1, 0, true, false, yes, no, on or off"
        )),
    }
}

/// `Ok(None)` for an empty value, `Ok(Some(on))` for a switch, `Err` otherwise.
pub(crate) fn parse_switch(raw: &str) -> Result<Option<bool>, ()> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "" => Ok(None),
        "1" | "true" | "yes" | "on" => Ok(Some(true)),
        "0" | "false" | "no" | "off" => Ok(Some(false)),
        _ => Err(()),
    }
}

/// Decimal or `0x` hex.
pub(crate) fn parse_u64(s: &str) -> Option<u64> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => s.replace('_', "").parse().ok(),
    }
}

//! The statistics of a run (the printer of *Programmable Property-Based
//! Testing*, extended with QuickCheck's labels, classes, tables and coverage
//! requirements): what the counted tests reported, how large they were, how
//! many were discarded.
//!
//! A runner counts a test by watching it with a
//! [`pbt_core::statistics::Observer`] and handing what it saw to
//! [`Statistics::record`] with the verdict and the size. Only the tests a
//! runner counts are watched: the runs of shrinking and the final replay of
//! the counterexample are not, so the table's total is the number of tests.
//!
//! ```
//! use pbt_core::statistics::Observer;
//! use pbt_core::Outcome;
//! use pbt_runners::components::statistics::Statistics;
//! use pbt_runners::Config;
//! let mut stats = Statistics::new(&Config::default());
//! for x in 0..10u32 {
//!     let observer = Observer::start();
//!     pbt_core::classify!(x % 2 == 0, "even");
//!     stats.record(observer, &Outcome::Pass, x as usize);
//! }
//! stats.conclude(0);
//! assert_eq!(stats.tests, 10);
//! assert_eq!((stats.classes[0].label.as_str(), stats.classes[0].count), ("even", 5));
//! assert_eq!(stats.sizes.unwrap().median, 4); // the lower median of 0..10
//! ```

mod requirements;
mod table;

pub use requirements::{is_look, judge, Coverage, CoverageCheck, CoverageOutcome};

use super::cases::Plan;
use crate::config::Config;
use pbt_core::statistics::{Observations, Observer};
use pbt_core::Outcome;
use serde::Serialize;
use std::collections::BTreeMap;

/// One row of a distribution table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The label, class or value.
    pub label: String,
    /// How many tests (or table entries) had it.
    pub count: u64,
    /// `count` as a share of the tests (or of the table's entries), in percent.
    pub percent: f64,
}

/// A named table of values ([`pbt_core::tabulate!`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table {
    /// The table's name.
    pub name: String,
    /// Entries counted in it.
    pub total: u64,
    /// Its values, most frequent first.
    pub rows: Vec<Row>,
}

/// The five-number summary of the sizes the counted tests were generated at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SizeDistribution {
    /// The smallest size.
    pub min: usize,
    /// The lower quartile.
    pub lower_quartile: usize,
    /// The median.
    pub median: usize,
    /// The upper quartile.
    pub upper_quartile: usize,
    /// The largest size.
    pub max: usize,
}

/// The statistics of a run, in every [`crate::Report`]: the distribution
/// tables (filled in when the run ends), the coverage requirements with
/// their outcome, the size distribution and the discard rate.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Statistics {
    /// Tests counted: the generated (and replayed saved) tests that ran to
    /// a verdict; neither discards nor shrinking runs. Equal to
    /// `Report::tests`, except that a failing run of the parallel runner
    /// also counts the failing tests of other workers (at most one each).
    pub tests: u64,
    /// The labels of each test together ([`pbt_core::label!`],
    /// [`pbt_core::collect!`]), most frequent first; a share of `tests`.
    pub labels: Vec<Row>,
    /// The classes ([`pbt_core::classify!`] and the labels of
    /// [`pbt_core::require_cover!`]), most frequent first.
    pub classes: Vec<Row>,
    /// The named tables ([`pbt_core::tabulate!`]), by name.
    pub tables: Vec<Table>,
    /// The coverage requirements ([`pbt_core::require_cover!`]), by label.
    pub coverage: Vec<Coverage>,
    /// The sizes of the counted tests (`None` when none was counted).
    pub sizes: Option<SizeDistribution>,
    /// Tests discarded (by preconditions, `assume!` or rejecting generators).
    pub discards: u64,
    /// Discarded tests as a share of all tests tried (passed, failed and
    /// discarded), in percent.
    pub discard_rate: f64,
    /// Whether the table is shown for a passing run (`Config::show_statistics`).
    pub shown: bool,
    /// The coverage check, when the run was asked for one.
    pub check: Option<CoverageCheck>,
    #[serde(skip)]
    tally: Tally,
}

/// The counts while the run goes on. Ordered maps: an empty one costs
/// nothing to make or drop (a run whose tests report nothing, most runs,
/// pays for none), and the rows are sorted when the run ends anyway.
#[derive(Clone, Debug, Default)]
struct Tally {
    cases: u64,
    labels: BTreeMap<String, u64>,
    classes: BTreeMap<String, u64>,
    tables: BTreeMap<String, BTreeMap<String, u64>>,
    /// label → (required percent, covered tests), in first-seen order.
    requirements: Vec<(String, f64, u64)>,
    /// Tests per size, for sizes below `SMALL`.
    small_sizes: Vec<u64>,
    large_sizes: BTreeMap<usize, u64>,
}

/// Sizes below this are counted in a vector, larger ones in a map.
const SMALL: usize = 1024;

impl Tally {
    /// Count a test of a size the vector does not reach yet.
    #[cold]
    fn count_size(&mut self, size: usize) {
        if size < SMALL {
            self.small_sizes.resize(size + 1, 0);
            self.small_sizes[size] = 1;
        } else {
            *self.large_sizes.entry(size).or_insert(0) += 1;
        }
    }
}

impl Statistics {
    /// Empty statistics for a run under `config` (resolved: the environment
    /// applied).
    pub fn new(config: &Config) -> Statistics {
        Statistics {
            shown: config.show_statistics,
            check: config.check_coverage,
            tally: Tally {
                cases: config.cases,
                ..Tally::default()
            },
            ..Statistics::default()
        }
    }

    /// Count one test: what its check reported while `observer` watched,
    /// its verdict and its size. A discarded test is not counted (its
    /// observations are dropped).
    // Always inlined: it runs once per test in every runner's loop, and a
    // call costs as much as its fast path (measured with callgrind).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn record(&mut self, observer: Observer, verdict: &Outcome, size: usize) {
        self.count(observer, !matches!(verdict, Outcome::Discard), size);
    }

    /// [`Statistics::record`] of what a test's observer saw, finished
    /// already ([`Observer::finish`], by a runner that keeps the
    /// observations too): count one test unless `verdict` is a discard.
    ///
    /// ```
    /// use pbt_core::statistics::Observer;
    /// use pbt_core::Outcome;
    /// use pbt_runners::components::statistics::Statistics;
    /// use pbt_runners::Config;
    /// let mut stats = Statistics::new(&Config::default());
    /// let observer = Observer::start();
    /// pbt_core::label!("short");
    /// let seen = observer.finish();
    /// stats.record_seen(seen.as_ref(), &Outcome::Pass, 3);
    /// stats.conclude(0);
    /// assert_eq!((stats.tests, stats.labels[0].label.as_str()), (1, "short"));
    /// ```
    pub fn record_seen(&mut self, seen: Option<&Observations>, verdict: &Outcome, size: usize) {
        if matches!(verdict, Outcome::Discard) {
            return;
        }
        self.record_pass(size);
        if let Some(seen) = seen {
            self.tally_observations(seen.clone());
        }
    }

    /// Count one test when `counted`, with what `observer` saw; drop the
    /// observations otherwise.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn count(&mut self, observer: Observer, counted: bool, size: usize) {
        let observed = observer.finish();
        if !counted {
            return;
        }
        self.record_pass(size);
        if let Some(observed) = observed {
            self.tally_observations(observed);
        }
    }

    /// Count one passing test that reported nothing: [`Statistics::record`]
    /// of a pass whose observer saw nothing, without an observer of its own
    /// (a batch of tests is watched by one, see
    /// [`crate::components::generate_and_run_batch`]).
    ///
    /// ```
    /// use pbt_runners::components::statistics::Statistics;
    /// use pbt_runners::Config;
    /// let mut stats = Statistics::new(&Config::default());
    /// stats.record_pass(3);
    /// stats.conclude(0);
    /// assert_eq!((stats.tests, stats.sizes.unwrap().median), (1, 3));
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn record_pass(&mut self, size: usize) {
        self.tests += 1;
        match self.tally.small_sizes.get_mut(size) {
            Some(n) => *n += 1,
            None => self.tally.count_size(size),
        }
    }

    /// [`Statistics::record`] for what a test came to: a test counts when
    /// it passed or its check failed ([`super::Fault::counts`]); a
    /// discarded one, or one whose generator failed, does not.
    #[inline]
    pub fn record_tested(&mut self, observer: Observer, tested: &super::Tested, size: usize) {
        let counted = match tested {
            super::Tested::Passed => true,
            super::Tested::Failed(fault) => fault.counts(),
            super::Tested::Discarded(_) => false,
        };
        self.count(observer, counted, size);
    }

    #[cold]
    fn tally_observations(&mut self, observed: Observations) {
        let t = &mut self.tally;
        if !observed.labels.is_empty() {
            *t.labels.entry(observed.labels.join(", ")).or_insert(0) += 1;
        }
        for class in observed.classes {
            *t.classes.entry(class).or_insert(0) += 1;
        }
        for (table, value) in observed.tables {
            *t.tables.entry(table).or_default().entry(value).or_insert(0) += 1;
        }
        for r in observed.requirements {
            let at = match t.requirements.iter().position(|(l, _, _)| *l == r.label) {
                Some(at) => at,
                None => {
                    t.requirements.push((r.label.clone(), r.percent, 0));
                    t.requirements.len() - 1
                }
            };
            if r.covered {
                t.requirements[at].2 += 1;
                *t.classes.entry(r.label).or_insert(0) += 1;
            }
        }
    }

    /// Add another worker's counts (the parallel runner).
    pub fn merge(&mut self, other: Statistics) {
        self.tests += other.tests;
        let (t, o) = (&mut self.tally, other.tally);
        for (k, n) in o.labels {
            *t.labels.entry(k).or_insert(0) += n;
        }
        for (k, n) in o.classes {
            *t.classes.entry(k).or_insert(0) += n;
        }
        for (name, values) in o.tables {
            let table = t.tables.entry(name).or_default();
            for (k, n) in values {
                *table.entry(k).or_insert(0) += n;
            }
        }
        for (label, percent, covered) in o.requirements {
            match t.requirements.iter_mut().find(|(l, _, _)| *l == label) {
                Some(r) => r.2 += covered,
                None => t.requirements.push((label, percent, covered)),
            }
        }
        if t.small_sizes.len() < o.small_sizes.len() {
            t.small_sizes.resize(o.small_sizes.len(), 0);
        }
        for (size, n) in o.small_sizes.into_iter().enumerate() {
            t.small_sizes[size] += n;
        }
        for (size, n) in o.large_sizes {
            *t.large_sizes.entry(size).or_insert(0) += n;
        }
    }

    /// Whether a run that has done its `cases` tests should go on: with a
    /// coverage check, until every requirement is decided (looking only at
    /// the points [`is_look`] names) or the cap is reached.
    pub fn keep_testing(&self) -> bool {
        let Some(check) = self.check else {
            return false;
        };
        let t = &self.tally;
        if t.requirements.is_empty() || self.tests >= check.max_tests {
            return false;
        }
        if !is_look(self.tests, t.cases) {
            return true;
        }
        let outcomes = t
            .requirements
            .iter()
            .map(|(_, required, covered)| judge(*covered, self.tests, *required, Some(check)));
        let mut decided = true;
        for outcome in outcomes {
            match outcome {
                CoverageOutcome::Insufficient => return false,
                CoverageOutcome::Undecided => decided = false,
                _ => {}
            }
        }
        !decided
    }

    /// Whether a run has discarded too many tests to go on:
    /// [`Plan::too_many_discards`], except that a run the coverage check
    /// keeps going beyond `cases` may discard `max_discard_ratio` per test
    /// run so far (QuickCheck's rule under `checkCoverage`).
    pub fn too_many_discards(&self, plan: &Plan, discards: u64) -> bool {
        let extended = self.check.is_some()
            && discards <= self.tests.saturating_mul(plan.config.max_discard_ratio);
        plan.too_many_discards(self.tests, discards) && !extended
    }

    /// Fill in the tables, the coverage outcomes, the sizes and the discard
    /// rate from the counts (when the run ends; `discards` from the report).
    pub fn conclude(&mut self, discards: u64) {
        let tests = self.tests;
        let share = |n: u64, of: u64| {
            if of == 0 {
                0.0
            } else {
                100.0 * n as f64 / of as f64
            }
        };
        let rows = |map: &BTreeMap<String, u64>, of: u64| {
            let mut rows: Vec<Row> = map
                .iter()
                .map(|(label, &count)| Row {
                    label: label.clone(),
                    count,
                    percent: share(count, of),
                })
                .collect();
            rows.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.label.cmp(&b.label)));
            rows
        };
        let t = &self.tally;
        self.sizes = size_distribution(&t.small_sizes, &t.large_sizes, tests);
        self.discards = discards;
        self.discard_rate = share(discards, tests + discards);
        let reported = !(t.labels.is_empty()
            && t.classes.is_empty()
            && t.tables.is_empty()
            && t.requirements.is_empty());
        if !reported {
            return;
        }
        self.labels = rows(&t.labels, tests);
        self.classes = rows(&t.classes, tests);
        let mut tables: Vec<Table> = t
            .tables
            .iter()
            .map(|(name, values)| {
                let total = values.values().sum();
                Table {
                    name: name.clone(),
                    total,
                    rows: rows(values, total),
                }
            })
            .collect();
        tables.sort_by(|a, b| a.name.cmp(&b.name));
        self.tables = tables;
        self.coverage = t
            .requirements
            .iter()
            .map(|(label, required, covered)| Coverage {
                label: label.clone(),
                required: *required,
                covered: *covered,
                tests,
                observed: share(*covered, tests),
                outcome: judge(*covered, tests, *required, self.check),
            })
            .collect();
    }

    /// Whether the report should show the table: when shown is asked for,
    /// or the run did not pass and the checks reported something.
    pub fn worth_showing(&self, passed: bool) -> bool {
        let reported = !self.labels.is_empty()
            || !self.classes.is_empty()
            || !self.tables.is_empty()
            || !self.coverage.is_empty();
        self.shown || (!passed && reported)
    }

    /// The requirements that fail the property (with a coverage check).
    pub fn failed_requirements(&self) -> impl Iterator<Item = &Coverage> {
        self.coverage.iter().filter(|c| c.outcome.fails())
    }
}

/// The five-number summary of a histogram of `total` sizes.
fn size_distribution(
    small: &[u64],
    large: &BTreeMap<usize, u64>,
    total: u64,
) -> Option<SizeDistribution> {
    if total == 0 {
        return None;
    }
    let counts = || {
        let small = small.iter().enumerate().map(|(size, &n)| (size, n));
        let large = large.iter().map(|(&size, &n)| (size, n));
        small.chain(large).filter(|&(_, n)| n > 0)
    };
    // The size of the test at rank ceil(q/4 · total) (1-based).
    let quantile = |q: u64| {
        let rank = (q * total).div_ceil(4).max(1);
        let mut seen = 0;
        counts()
            .find(|&(_, n)| {
                seen += n;
                seen >= rank
            })
            .map_or(0, |(size, _)| size)
    };
    let min = counts().next().map_or(0, |(size, _)| size);
    Some(SizeDistribution {
        min,
        lower_quartile: quantile(1),
        median: quantile(2),
        upper_quartile: quantile(3),
        max: quantile(4),
    })
}

/// Conclude the statistics of a finished run: fill in the tables and turn a
/// passing run whose coverage check failed into
/// [`crate::Verdict::InsufficientCoverage`]; in a passing run, an unchecked
/// requirement below its share becomes a note (QuickCheck's "only 3% …, but
/// expected 10%").
pub fn conclude(report: &mut crate::Report) {
    let stats = &mut report.statistics;
    stats.conclude(report.discards);
    let passed = report.verdict == crate::Verdict::Passed;
    for c in &stats.coverage {
        if passed && c.outcome == CoverageOutcome::Below {
            report.notes.push(format!(
                "only {:.1}% of tests were `{}` ({} of {}), but {}% are required \
                 (Config::check_coverage tests this statistically)",
                c.observed, c.label, c.covered, c.tests, c.required
            ));
        }
    }
    if passed && stats.failed_requirements().next().is_some() {
        report.verdict = crate::Verdict::InsufficientCoverage;
    }
}

//! Bounded-exhaustive first, random after: the smallest inputs (every
//! choice sequence up to a bound, shortest first, as [`crate::exhaustive_to`]
//! enumerates them), then pbt's generational runner for the rest of the
//! budget. The small scope hypothesis costs at most the prefix's tests on a
//! property whose failures are all large, and finds a small structured
//! failure (a particular short list, a tiny well-typed term) that random
//! generation draws rarely.

use crate::{exhaustive_to, Bound};
use pbt::runners::{generational, Config, Report};
use pbt::Property;
use std::time::Instant;

/// The default prefix: the first 1 000 inputs, smallest first (choice
/// sequences up to 64 draws).
pub const PREFIX: Bound = Bound {
    depth: 64,
    count: 1_000,
};

/// [`exhaustive_prefix_to`] with the default [`PREFIX`].
///
/// ```
/// use pbt::prelude::*;
/// // [0, 0, 0] is one input in about 1.7 billion for random generation,
/// // and among the first few of the enumeration.
/// let prop = property! {
///     forall xs: Vec<u8>, #[gen = vec(int(0..=255u8), 0..=100)];
///     check *xs != [0, 0, 0]
/// };
/// let config = Config::default().ignore_env().regressions(pbt::runners::Regressions::Off);
/// let report = pbt_exhaustive::exhaustive_prefix(&prop, config);
/// assert!(report.tests < 10, "{report}");
/// ```
pub fn exhaustive_prefix<P: Property>(prop: &P, config: Config) -> Report {
    exhaustive_prefix_to(prop, config, PREFIX)
}

/// Test the inputs up to `prefix` smallest first, then generate the rest of
/// `config.cases` at random with the generational runner. A failure in the
/// prefix is reported (saved, shrunk) as by [`crate::exhaustive_to`]; the
/// final report counts the tests and discards of both phases and keeps the
/// prefix's note. The run's statistics are the random phase's.
pub fn exhaustive_prefix_to<P: Property>(prop: &P, config: Config, prefix: Bound) -> Report {
    let started = Instant::now();
    let small = exhaustive_to(prop, config.clone(), prefix);
    if small.failure.is_some() {
        return named(small, started);
    }
    let rest = config.cases.saturating_sub(small.tests);
    let mut report = generational(prop, config.cases(rest));
    report.tests += small.tests;
    report.discards += small.discards;
    report.notes.splice(0..0, small.notes);
    named(report, started)
}

/// The report under this runner's name, timed from `started`.
fn named(mut report: Report, started: Instant) -> Report {
    report.runner = "exhaustive-prefix";
    report.elapsed = started.elapsed();
    report
}

//! Several distinct failures in one run (`Config::report_multiple`,
//! `PBT_REPORT_MULTIPLE=1`; Hypothesis's `report_multiple_bugs`): the run
//! goes on after its first failure, up to its budget, and reports every
//! failure of a distinct origin, each shrunk (staying on its origin),
//! saved and printed on its own.
//!
//! ```text
//! a test fails → its origin: where it panicked (file:line:col), or the
//!                reason a check gave (numbers masked)
//!   seen before?  count the test, go on
//!   new?          the failure path (save, shrink on this origin, print),
//!                 then keep the failure ([`keep`]) and go on
//! end of run    → [`finish`]: the first failure is `Report::failure`, the
//!                 others `Report::more_failures`
//! ```
//!
//! A runner that supports it asks [`is_new`] of each failing test and
//! [`keep`]s what its failure path returns; the loops of the generational
//! and integrated runners do (in process), and so does the replay of the
//! saved cases they start with ([`super::replay_saved_distinct`]).

use super::tested::Fault;
use crate::report::{Report, Verdict};
use serde::Serialize;
use std::fmt;

/// Where a failure comes from: two failures of one origin are one bug
/// (Hypothesis's "interesting origin").
///
/// ```
/// use pbt_runners::components::distinct::FailureOrigin;
/// // A panic, by where it was raised, whatever its message says.
/// let a = FailureOrigin::of("panicked: x was 7 at src/lib.rs:10:5");
/// let b = FailureOrigin::of("panicked: x was 9 at src/lib.rs:10:5");
/// assert_eq!(a, b);
/// assert_eq!(a, FailureOrigin::Panic("src/lib.rs:10:5".into()));
/// assert_ne!(a, FailureOrigin::of("panicked: x was 7 at src/lib.rs:12:5"));
/// // A check's reason, with the numbers in it masked.
/// let c = FailureOrigin::of("the check returned Err(\"17 is odd\")");
/// assert_eq!(c, FailureOrigin::of("the check returned Err(\"3 is odd\")"));
/// assert_ne!(c, FailureOrigin::of("the check returned Err(\"3 is negative\")"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum FailureOrigin {
    /// A panic (of the check, or of a generator), by where it was raised:
    /// `file:line:col`.
    Panic(String),
    /// A check that returned `false` or `Err` (or another failure with no
    /// place: a time limit), by its reason with each run of digits
    /// replaced by `#`, so that `Err(format!("{x} is too big"))` is one
    /// origin whatever `x` is.
    Reason(String),
}

impl FailureOrigin {
    /// The origin of a failure that fails for `reason` (a
    /// [`Fault::reason`], or a shrunk [`Failure::reason`](crate::Failure::reason)).
    pub fn of(reason: &str) -> FailureOrigin {
        match panic_location(reason) {
            Some(at) => FailureOrigin::Panic(at.to_string()),
            None => FailureOrigin::Reason(masked(reason)),
        }
    }
}

impl fmt::Display for FailureOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FailureOrigin::Panic(at) => write!(f, "a panic at {at}"),
            FailureOrigin::Reason(reason) => write!(f, "{reason}"),
        }
    }
}

/// Where a panic's reason says it was raised: the `file:line:col` (or
/// `file:line`) a caught panic's reason ends with (` at file:line:col`,
/// as the runners' panic hook writes it).
fn panic_location(reason: &str) -> Option<&str> {
    if !reason.contains("panicked: ") {
        return None;
    }
    let (_, at) = reason.rsplit_once(" at ")?;
    let mut parts = at.rsplitn(3, ':');
    let numbers = [parts.next()?, parts.next()?];
    let file = parts.next();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match (numbers, file) {
        ([col, line], Some(file)) if digits(col) && digits(line) && !file.is_empty() => Some(at),
        ([line, file], None) if digits(line) && !file.is_empty() => Some(at),
        _ => None,
    }
}

/// `reason` with each run of ASCII digits replaced by `#`.
fn masked(reason: &str) -> String {
    let mut out = String::with_capacity(reason.len());
    let mut in_number = false;
    for c in reason.chars() {
        match c.is_ascii_digit() {
            true if in_number => {}
            true => {
                out.push('#');
                in_number = true;
            }
            false => {
                out.push(c);
                in_number = false;
            }
        }
    }
    out
}

/// Whether a test failing with `fault` is a failure of an origin the run
/// has not reported yet (its kept failures are in `report`: see [`keep`]).
///
/// ```
/// use pbt_runners::components::{distinct, Fault, Plan};
/// use pbt_runners::{Config, Report};
/// let plan = Plan::new(&Config::default().ignore_env(), &Default::default());
/// let report = Report::empty("mine", &plan);
/// assert!(distinct::is_new(&report, &Fault::Check("the check returned false".into())));
/// ```
pub fn is_new(report: &Report, fault: &Fault) -> bool {
    let origin = FailureOrigin::of(fault.reason());
    !(report.failure.iter().chain(&report.more_failures)).any(|f| f.origin == origin)
}

/// Keep the failure that `failed` (what a failure path returned) ends
/// with, and hand back the report to go on with: the failure joins
/// `more_failures` (with the shrink steps it took), and the verdict and
/// the shrink counts are those of a run still going.
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::components::{distinct, report_failure, supervise, Discovery, DynProperty, Found, Plan, Tested};
/// use pbt_runners::{Config, Regressions, Report, Verdict};
/// // Two bugs: an odd x, and an x of 100 or more.
/// let prop = Prop::new(Forall::new("x", "u32", Check::new(|&(x, ()): &(u32, ())| {
///     assert!(x % 2 == 0, "odd");
///     assert!(x < 100, "large");
/// })));
/// let config = Config::default().ignore_env().regressions(Regressions::Off).report_multiple(true);
/// let plan = Plan::new(&config, &DynProperty::structure(&prop));
/// let report = supervise(&prop, &plan, |watch| {
///     let mut report = Report::empty("mine", &plan);
///     for n in 0..200 {
///         let case = plan.case(n);
///         match prop.test(&case, watch) {
///             Tested::Failed(fault) if distinct::is_new(&report, &fault) => {
///                 let discovery = Discovery::fresh(Found::Case(case), fault);
///                 let failed = report_failure(&prop, &plan, watch, discovery, report);
///                 report = distinct::keep(failed);
///             }
///             _ => report.tests += 1,
///         }
///     }
///     distinct::finish(report)
/// });
/// assert_eq!(report.verdict, Verdict::Failed);
/// let mut shrunk: Vec<_> = report.failures().map(|f| f.counterexample[0].value.clone()).collect();
/// shrunk.sort();
/// assert_eq!(shrunk, ["1", "100"]);
/// ```
pub fn keep(mut failed: Report) -> Report {
    if let Some(mut failure) = failed.failure.take() {
        failure.shrinks = failed.shrinks;
        failure.shrink_attempts = failed.shrink_attempts;
        failed.more_failures.push(failure);
    }
    (failed.shrinks, failed.shrink_attempts) = (0, 0);
    if failed.verdict == Verdict::Failed {
        failed.verdict = Verdict::Passed;
    }
    failed
}

/// The report of a run that kept its failures ([`keep`]): the first is
/// [`Report::failure`] (with its shrink counts as the report's), the
/// others [`Report::more_failures`], and the verdict is
/// [`Verdict::Failed`] when there is one. A failure the report already
/// ends with (a runner's own failure path, after the loop) stays, and
/// comes after the kept ones when its origin is new.
pub fn finish(mut report: Report) -> Report {
    let mut kept = std::mem::take(&mut report.more_failures);
    if let Some(last) = report.failure.take() {
        if !kept.iter().any(|f| f.origin == last.origin) {
            let mut last = last;
            (last.shrinks, last.shrink_attempts) = (report.shrinks, report.shrink_attempts);
            kept.push(last);
        }
    }
    // Where each failure was saved is said once.
    let mut seen = std::collections::HashSet::new();
    report.notes.retain(|note| seen.insert(note.clone()));
    let mut kept = kept.into_iter();
    let Some(first) = kept.next() else {
        return report;
    };
    (report.shrinks, report.shrink_attempts) = (first.shrinks, first.shrink_attempts);
    report.failure = Some(first);
    report.more_failures = kept.collect();
    report.verdict = Verdict::Failed;
    report
}

//! The per-test-case hook of the observations file ([`super::observations`],
//! `Config::observe`, `PBT_OBSERVE=dir`): test one input as a runner's loop
//! does and write its line — its status, its input printed and by
//! variable, what the check reported, how long each part took and how the
//! input came about ([`How`]).
//!
//! A runner's loop calls [`observed_test`] in place of its usual test when
//! the plan has a log ([`super::Plan::observations`]); the shrinker's steps
//! are written by the failure path. Beneath it, [`test_observing`] tests
//! an input and keeps what any per-test report needs (the input printed,
//! the check's statistics, the timings), for other reports to share. Which runners write what is said in
//! the guide's chapter on statistics.

use super::cases::Plan;
use super::erased::{AnyInputs, DynProperty};
use super::execute::{over_time, MAX_STACK};
use super::found::Found;
use super::observations::{ObservationLog, TestCase};
use super::regressions::encode;
use super::tested::{NotGenerated, Tested};
use super::watch::Watch;
use crate::report::Report;
use pbt_core::statistics::{Observations, Observer};
use pbt_core::{Binding, Discarded};
use std::time::Instant;

/// How an observed input came about: its line's `how_generated`.
///
/// ```
/// use pbt_runners::components::How;
/// assert_eq!(How::Mutated.as_str(), "fuzzed (mutated)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// A fresh case from the run seed: `"generated"`.
    Generated,
    /// A feedback-guided runner's mutant of an input it kept:
    /// `"fuzzed (mutated)"`.
    Mutated,
    /// A saved case replayed before the fresh ones:
    /// `"replayed from the regressions file"`.
    Replayed,
    /// The input `PBT_REPLAY` names: `"replayed from PBT_REPLAY"`.
    ReplayedFromEnv,
    /// A step the shrinker took (a smaller input that still fails):
    /// `"shrinking"`.
    Shrinking,
}

impl How {
    /// The words of the line's `how_generated`.
    pub fn as_str(self) -> &'static str {
        match self {
            How::Generated => "generated",
            How::Mutated => "fuzzed (mutated)",
            How::Replayed => "replayed from the regressions file",
            How::ReplayedFromEnv => "replayed from PBT_REPLAY",
            How::Shrinking => "shrinking",
        }
    }
}

/// Generate `found` and run the check on it, as a runner's test does
/// ([`DynProperty::test`]: the watch's time and draw limits, panics caught),
/// and write the test's line to `log`. The input is printed before the
/// check runs; the time limit applies to generating it and to checking
/// it, each on its own. What the check reports with `label!`, `collect!`,
/// `classify!`, `tabulate!` and `require_cover!` goes into the line's
/// `features` and on to the runner's own observer, as if this hook were
/// not there.
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::components::observations::ObservationLog;
/// use pbt_runners::components::{observed_test, supervise, DynProperty, Found, How, Plan, Tested};
/// use pbt_runners::{Config, Regressions};
/// let prop = Prop::new(Forall::new("x", "u8", Check::new(|&(x, ()): &(u8, ())| {
///     pbt_core::tabulate!("parity", x % 2);
///     x < 200
/// })));
/// let config = Config::default().ignore_env().regressions(Regressions::Off);
/// let plan = Plan::new(&config, &DynProperty::structure(&prop));
/// let dir = std::env::temp_dir().join(format!("pbt-doc-observed-{}", std::process::id()));
/// let log = ObservationLog::open(&dir, &plan.name).unwrap();
/// let tested = supervise(&prop, &plan, |watch| {
///     observed_test(&prop, &Found::Case(plan.case(0)), watch, &log, How::Generated)
/// });
/// let file = log.test_cases_path().to_path_buf();
/// drop(log);
/// let line = std::fs::read_to_string(&file).unwrap();
/// assert_eq!(line.contains(r#""status":"passed""#), tested == Tested::Passed);
/// assert!(line.contains(r#""how_generated":"generated""#) && line.contains(r#""parity":"#));
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn observed_test(
    prop: &dyn DynProperty,
    found: &Found,
    watch: &Watch,
    log: &ObservationLog,
    how: How,
) -> Tested {
    let test = test_observing(prop, found, watch);
    let features = features(&test.seen);
    let features: Vec<(&str, &str)> = (features.iter())
        .map(|(name, value)| (*name, value.as_str()))
        .collect();
    let timing = [
        ("generate:inputs", test.generating),
        ("execute:test", test.checking.unwrap_or(0.0)),
    ];
    let timing = &timing[..1 + usize::from(test.checking.is_some())];
    let printed = test.printed.as_deref();
    write_test(log, found, printed, &test.tested, how, &features, timing);
    test.tested
}

/// One test as an observer sees it ([`test_observing`]): what it came to,
/// the input printed, what the check reported, and how long each part
/// took.
#[derive(Clone, Debug, PartialEq)]
pub struct ObservedTest {
    /// What the test came to.
    pub tested: Tested,
    /// The input, printed before the check ran; `None` when it was not
    /// generated.
    pub printed: Option<Vec<Binding>>,
    /// What the check reported (`label!`, `classify!`, `tabulate!`,
    /// `require_cover!`), also passed on to the runner's own observer.
    pub seen: Observations,
    /// Seconds spent generating the input.
    pub generating: f64,
    /// Seconds spent checking it; `None` when it was not generated.
    pub checking: Option<f64>,
}

/// Generate `found` and run the check on it, as a runner's test does
/// ([`DynProperty::test`]: the watch's time and draw limits, panics
/// caught), keeping what an observer wants to know of it (see
/// [`ObservedTest`]): the hook behind [`observed_test`], for any other
/// per-test report (a verbose run printing each input).
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::components::{supervise, test_observing, DynProperty, Found, Plan, Tested};
/// use pbt_runners::{Config, Regressions};
/// let prop = Prop::new(Forall::new("x", "u8", Check::new(|&(x, ()): &(u8, ())| {
///     pbt_core::label!("x is {}", if x < 128 { "low" } else { "high" });
///     true
/// })));
/// let config = Config::default().ignore_env().regressions(Regressions::Off);
/// let plan = Plan::new(&config, &DynProperty::structure(&prop));
/// let test = supervise(&prop, &plan, |watch| test_observing(&prop, &Found::Case(plan.case(7)), watch));
/// assert_eq!(test.tested, Tested::Passed);
/// let printed = test.printed.unwrap();
/// assert_eq!(printed[0].name, "x");
/// let low = printed[0].value.parse::<u8>().unwrap() < 128;
/// assert_eq!(test.seen.labels, [if low { "x is low" } else { "x is high" }]);
/// ```
pub fn test_observing(prop: &dyn DynProperty, found: &Found, watch: &Watch) -> ObservedTest {
    let observer = Observer::start();
    let began = Instant::now();
    let generated = generate(prop, found, watch);
    let generating = began.elapsed().as_secs_f64();
    let (tested, printed, checking) = match &generated {
        Ok(inputs) => {
            let printed = prop.print_any(&**inputs);
            let began = Instant::now();
            let tested = Tested::from(prop.run_any(&**inputs, watch));
            (tested, Some(printed), Some(began.elapsed().as_secs_f64()))
        }
        Err(not) => (Tested::from(not.clone()), None, None),
    };
    drop(generated);
    let seen = observer.finish().unwrap_or_default();
    pass_on(&seen);
    ObservedTest {
        tested,
        printed,
        seen,
        generating,
        checking,
    }
}

/// `found`'s inputs, generated under the watch's time and draw limits: a
/// fresh case on its `Rng` (no choice recorded), any other as
/// [`generate_traced`](DynProperty#method.generate_traced) makes it.
fn generate(
    prop: &dyn DynProperty,
    found: &Found,
    watch: &Watch,
) -> Result<AnyInputs, NotGenerated> {
    let Found::Case(case) = found else {
        return prop
            .generate_traced(found, watch)
            .map(|traced| traced.inputs);
    };
    let mut rng = case.rng().limited(watch.max_draws(), MAX_STACK);
    let ticket = watch.start();
    let generated = prop.generate_from(&mut rng, case.size);
    match watch.finish(ticket) {
        true => Err(NotGenerated::Failed(over_time(watch))),
        false => generated,
    }
}

/// Write the line of a test a runner ran itself: `found`, printed as
/// `printed` (`None` when it did not generate), came to `tested`, with
/// these features and timings.
pub(crate) fn write_test(
    log: &ObservationLog,
    found: &Found,
    printed: Option<&[Binding]>,
    tested: &Tested,
    how: How,
    features: &[(&str, &str)],
    timing: &[(&str, f64)],
) {
    let (status, status_reason) = status(tested);
    let replay = encode(found);
    let size = found.size().to_string();
    let unprinted = printed
        .is_none()
        .then(|| format!("<not generated: {replay}>"));
    log.test_case(&TestCase {
        status,
        status_reason,
        printed: printed.unwrap_or_default(),
        unprinted: unprinted.as_deref(),
        how_generated: how.as_str(),
        features,
        timing,
        metadata: &[("replay", &replay), ("size", &size)],
    });
}

/// Write the line of a step the shrinker took: the smaller input, printed,
/// that still fails (its reason, the failure's as found, is in
/// `status_reason`). `step` counts the steps from 1.
pub(crate) fn observed_shrink_step(
    log: &ObservationLog,
    printed: &[Binding],
    reason: &str,
    step: u64,
) {
    let step = step.to_string();
    log.test_case(&TestCase {
        status: "failed",
        status_reason: reason,
        printed,
        unprinted: None,
        how_generated: How::Shrinking.as_str(),
        features: &[],
        timing: &[],
        metadata: &[("shrink_step", &step)],
    });
}

/// The line's status and its reason.
fn status(tested: &Tested) -> (&'static str, &str) {
    match tested {
        Tested::Passed => ("passed", ""),
        Tested::Failed(fault) => ("failed", fault.reason()),
        Tested::Discarded(Discarded::Precondition) => ("gave_up", "a precondition did not hold"),
        Tested::Discarded(Discarded::Rejected) => ("gave_up", "a generator rejected the input"),
    }
}

/// Record `seen` again for the observer that watched around the hook's own
/// (a runner counting this test in its statistics): observers nest, and
/// the inner one took what the check reported.
fn pass_on(seen: &Observations) {
    if !pbt_core::statistics::watched() {
        return;
    }
    for label in &seen.labels {
        pbt_core::statistics::label(format_args!("{label}"));
    }
    for class in &seen.classes {
        pbt_core::statistics::classify(true, class);
    }
    for (table, value) in &seen.tables {
        pbt_core::statistics::tabulate(table, value);
    }
    for r in &seen.requirements {
        pbt_core::statistics::require_cover(r.percent, r.covered, &r.label);
    }
}

/// The features of a test: its labels as one value (`label`, as they form
/// one row of the distribution table), its classes likewise (`classes`,
/// with the requirements that held), and each table's value under the
/// table's name.
pub(crate) fn features(seen: &Observations) -> Vec<(&str, String)> {
    let mut features = Vec::new();
    if !seen.labels.is_empty() {
        features.push(("label", seen.labels.join(", ")));
    }
    let held = (seen.requirements.iter()).filter(|r| r.covered && !seen.classes.contains(&r.label));
    let classes: Vec<&str> = (seen.classes.iter().map(String::as_str))
        .chain(held.map(|r| r.label.as_str()))
        .collect();
    if !classes.is_empty() {
        features.push(("classes", classes.join(", ")));
    }
    for (table, value) in &seen.tables {
        features.push((table.as_str(), value.clone()));
    }
    features
}

/// Write the run's information line, when `plan` is observed: the report
/// as `#[property_test]` prints it (verdict, failure, statistics), which
/// Tyche shows beside the run's charts. A runner calls it with its
/// finished report.
///
/// ```
/// use pbt_runners::components::{observe_run, Plan};
/// use pbt_runners::{Config, Report};
/// let dir = std::env::temp_dir().join(format!("pbt-doc-observe-run-{}", std::process::id()));
/// let plan = Plan::new(&Config::default().ignore_env().observe(&dir), &Default::default());
/// observe_run(&plan, &Report::empty("mine", &plan));
/// let info = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path())
///     .find(|p| p.to_string_lossy().ends_with("_info.jsonl")).unwrap();
/// assert!(std::fs::read_to_string(info).unwrap().starts_with(r#"{"type":"info""#));
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn observe_run(plan: &Plan, report: &Report) {
    if let Some(log) = &plan.observations {
        log.info(
            &format!("pbt: {} runner", report.runner),
            &report.to_string(),
        );
    }
}

//! The per-test-case hook of the observations file ([`super::observations`],
//! `Config::observe`, `PBT_OBSERVE=dir`): test one input as a runner's loop
//! does and write its line — its status, its input printed and by
//! variable, what the check reported, how long each part took and how the
//! input came about ([`How`]).
//!
//! A runner's loop calls [`observed_test`] in place of its usual test when
//! the plan has a log ([`super::Plan::observations`]); the shrinker's steps
//! are written by the failure path. Which runners write what is said in
//! the guide's chapter on statistics.

use super::cases::Plan;
use super::erased::DynProperty;
use super::found::Found;
use super::observations::{ObservationLog, TestCase};
use super::regressions::encode;
use super::tested::Tested;
use super::watch::Watch;
use crate::report::Report;
use pbt_core::statistics::{Observations, Observer};
use pbt_core::{Binding, Discarded};
use serde_json::{Map, Value};
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
/// check runs. What the check reports with `label!`, `collect!`,
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
    let observer = Observer::start();
    let began = Instant::now();
    let generated = prop.generate_traced(found, watch);
    let generating = began.elapsed().as_secs_f64();
    let mut timing = Map::new();
    timing.insert("generate:inputs".into(), generating.into());
    let (tested, printed) = match &generated {
        Ok(traced) => {
            let printed = prop.print_any(&*traced.inputs);
            let began = Instant::now();
            let tested = Tested::from(prop.run_any(&*traced.inputs, watch));
            let executing = began.elapsed().as_secs_f64();
            timing.insert("execute:test".into(), executing.into());
            (tested, printed)
        }
        Err(not) => (Tested::from(not.clone()), Vec::new()),
    };
    drop(generated);
    let seen = observer.finish().unwrap_or_default();
    pass_on(&seen);
    write_test(log, found, &printed, &tested, how, features(&seen), timing);
    tested
}

/// Write the line of a test a runner ran itself: `found`, printed as
/// `printed` (nothing when it did not generate), came to `tested`, with
/// these features and timings.
pub(crate) fn write_test(
    log: &ObservationLog,
    found: &Found,
    printed: &[Binding],
    tested: &Tested,
    how: How,
    features: Map<String, Value>,
    timing: Map<String, Value>,
) {
    let (status, status_reason) = status(tested);
    let mut metadata = Map::new();
    metadata.insert("replay".into(), encode(found).into());
    metadata.insert("size".into(), found.size().into());
    log.test_case(&TestCase {
        status,
        status_reason,
        representation: representation(printed),
        arguments: arguments(printed),
        how_generated: how.as_str(),
        features,
        timing,
        metadata,
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
    let mut metadata = Map::new();
    metadata.insert("shrink_step".into(), step.into());
    log.test_case(&TestCase {
        status: "failed",
        status_reason: reason.to_string(),
        representation: representation(printed),
        arguments: arguments(printed),
        how_generated: How::Shrinking.as_str(),
        features: Map::new(),
        timing: Map::new(),
        metadata,
    });
}

/// The line's status and its reason.
fn status(tested: &Tested) -> (&'static str, String) {
    match tested {
        Tested::Passed => ("passed", String::new()),
        Tested::Failed(fault) => ("failed", fault.reason().to_string()),
        Tested::Discarded(Discarded::Precondition) => {
            ("gave_up", "a precondition did not hold".to_string())
        }
        Tested::Discarded(Discarded::Rejected) => {
            ("gave_up", "a generator rejected the input".to_string())
        }
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

/// The input printed as the report prints it: `x = 1, ys = [2]`.
fn representation(printed: &[Binding]) -> String {
    let parts: Vec<String> = printed.iter().map(Binding::to_string).collect();
    parts.join(", ")
}

/// Each variable by name: its printed value as JSON when it is JSON, else
/// as a string.
fn arguments(printed: &[Binding]) -> Map<String, Value> {
    (printed.iter())
        .map(|b| (b.name.to_string(), json_or_string(&b.value)))
        .collect()
}

/// `text` as the JSON it is (a number, a list of numbers, `true`, a quoted
/// string), or as a string when it is not JSON.
fn json_or_string(text: &str) -> Value {
    match serde_json::from_str::<Value>(text) {
        Ok(value) => value,
        Err(_) => Value::String(text.to_string()),
    }
}

/// The features of a test: its labels as one value (`label`, as they form
/// one row of the distribution table), its classes likewise (`classes`,
/// with the requirements that held), and each table's value under the
/// table's name. A value that is a number is written as one, so that Tyche
/// charts it as ordinal; any other as a string (nominal).
fn features(seen: &Observations) -> Map<String, Value> {
    let mut features = Map::new();
    let scalar = |text: &str| match json_or_string(text) {
        number @ Value::Number(_) => number,
        _ => Value::String(text.to_string()),
    };
    if !seen.labels.is_empty() {
        features.insert("label".into(), scalar(&seen.labels.join(", ")));
    }
    let held = (seen.requirements.iter()).filter(|r| r.covered && !seen.classes.contains(&r.label));
    let classes: Vec<&str> = (seen.classes.iter().map(String::as_str))
        .chain(held.map(|r| r.label.as_str()))
        .collect();
    if !classes.is_empty() {
        features.insert("classes".into(), classes.join(", ").into());
    }
    for (table, value) in &seen.tables {
        features.insert(table.clone(), scalar(value));
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

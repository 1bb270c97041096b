//! Statistics of the generated tests: labels, classes, tables and coverage
//! requirements, reported by the check and counted by the runner
//! (QuickCheck's `label`/`collect`/`classify`/`tabulate`/`cover`,
//! Hypothesis's `event`).
//!
//! A check calls the macros [`label!`](crate::label),
//! [`collect!`](crate::collect), [`classify!`](crate::classify),
//! [`tabulate!`](crate::tabulate) and [`require_cover!`](crate::require_cover).
//! They record into a thread-local buffer only while a runner [`Observer`]
//! is watching the test: a runner watches the tests it counts (the generated
//! ones), never the runs of shrinking or the replay of the final
//! counterexample, so those leave the counts alone. Unwatched, a call costs
//! one thread-local flag check and formats nothing.
//!
//! ```
//! use pbt_core::statistics::Observer;
//! use pbt_core::{classify, collect, label, require_cover, tabulate};
//! let xs = vec![3, 1, 2];
//! let observer = Observer::start();
//! label!("length {}", xs.len());
//! collect!(xs.first());
//! classify!(xs.is_empty(), "empty");
//! tabulate!("elements", xs[0]);
//! require_cover!(10.0, xs.len() > 2, "long");
//! let seen = observer.finish().expect("the test reported something");
//! assert_eq!(seen.labels, ["length 3", "Some(3)"]);
//! assert!(seen.classes.is_empty());
//! assert_eq!(seen.tables, [("elements".to_string(), "3".to_string())]);
//! assert_eq!(seen.requirements[0].label, "long");
//! assert!(seen.requirements[0].covered);
//!
//! // Not watched: nothing is recorded.
//! label!("ignored");
//! assert_eq!(Observer::start().finish(), None);
//! ```

use std::cell::{Cell, RefCell};
use std::fmt;

/// A coverage requirement as one test saw it: `label` must hold in at
/// least `percent` % of the tests; `covered` says whether it held in this one.
#[derive(Clone, Debug, PartialEq)]
pub struct Requirement {
    /// What the requirement is called.
    pub label: String,
    /// The share of tests it must hold in, in percent.
    pub percent: f64,
    /// Whether it held in this test.
    pub covered: bool,
}

/// What one test reported (each list in call order, without repeats).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Observations {
    /// Labels ([`label!`](crate::label), [`collect!`](crate::collect)). A
    /// test's labels together make one row of the distribution table.
    pub labels: Vec<String>,
    /// The classes that held ([`classify!`](crate::classify)).
    pub classes: Vec<String>,
    /// `(table, value)` pairs ([`tabulate!`](crate::tabulate)).
    pub tables: Vec<(String, String)>,
    /// Coverage requirements ([`require_cover!`](crate::require_cover)).
    pub requirements: Vec<Requirement>,
}

impl Observations {
    /// Whether the test reported nothing.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
            && self.classes.is_empty()
            && self.tables.is_empty()
            && self.requirements.is_empty()
    }
}

/// The state of this thread's watch: whether a test is watched, and whether
/// anything was recorded since the buffer was last emptied (so that a test
/// that reports nothing never touches the buffer).
const WATCHING: u8 = 1;
const RECORDED: u8 = 2;

thread_local! {
    static STATE: Cell<u8> = const { Cell::new(0) };
    /// The observations of enclosing watched tests (a check running a
    /// property of its own), innermost last.
    static OUTER: RefCell<Vec<Observations>> = const { RefCell::new(Vec::new()) };
    static OBSERVED: RefCell<Observations> = const {
        RefCell::new(Observations {
            labels: Vec::new(),
            classes: Vec::new(),
            tables: Vec::new(),
            requirements: Vec::new(),
        })
    };
}

/// A runner watching one test: what the check reports between
/// [`Observer::start`] and [`Observer::finish`] on this thread is recorded.
/// Dropped without `finish` (a runner that returned early), it stops
/// watching and throws away what it saw. Observers nest: a check that runs
/// a property of its own keeps its own observations.
#[derive(Debug)]
#[must_use = "observations are recorded only until the observer is finished or dropped"]
pub struct Observer {
    was_watching: u8,
    /// Whether an enclosing watched test's observations wait in `OUTER`.
    nested: bool,
}

impl Observer {
    /// Start watching a test on this thread.
    #[inline]
    pub fn start() -> Observer {
        let state = STATE.with(|s| s.replace(WATCHING));
        let was_watching = state & WATCHING;
        let nested = state & RECORDED != 0 && stash(was_watching != 0);
        Observer {
            was_watching,
            nested,
        }
    }

    /// Stop watching; what the test reported, `None` when it reported
    /// nothing (then the buffer is not touched).
    #[inline]
    pub fn finish(self) -> Option<Observations> {
        let state = STATE.with(|s| s.replace(self.was_watching));
        let nested = self.nested;
        std::mem::forget(self);
        if state & RECORDED == 0 && !nested {
            return None;
        }
        finished(state, nested)
    }
}

/// The rest of [`Observer::finish`] when the test recorded something or an
/// enclosing test's observations wait.
#[cold]
fn finished(state: u8, nested: bool) -> Option<Observations> {
    let observed = if state & RECORDED != 0 {
        Some(take()).filter(|o| !o.is_empty())
    } else {
        None
    };
    if nested {
        restore();
    }
    observed
}

impl Drop for Observer {
    fn drop(&mut self) {
        // What this test recorded is thrown away at the next start, unless
        // an enclosing test's observations take its place now.
        STATE.with(|s| s.set(self.was_watching | (s.get() & RECORDED)));
        if self.nested {
            restore();
        }
    }
}

#[cold]
fn take() -> Observations {
    OBSERVED.with(|o| {
        o.try_borrow_mut()
            .map(|mut o| std::mem::take(&mut *o))
            .unwrap_or_default()
    })
}

/// Empty the buffer at the start of a test: keep what it holds in `OUTER`
/// when an enclosing test is being watched (`nested`, the result), drop it
/// otherwise (left by an observer that was dropped).
#[cold]
fn stash(nested: bool) -> bool {
    let held = take();
    STATE.with(|s| s.set(s.get() & !RECORDED));
    if nested {
        OUTER.with(|o| o.borrow_mut().push(held));
    }
    nested
}

/// Put the enclosing test's observations back.
#[cold]
fn restore() {
    let outer = OUTER.with(|o| o.borrow_mut().pop()).unwrap_or_default();
    OBSERVED.with(|o| {
        if let Ok(mut o) = o.try_borrow_mut() {
            *o = outer;
        }
    });
    STATE.with(|s| s.set(s.get() | RECORDED));
}

/// Whether a runner is watching the current test on this thread.
#[inline]
pub fn watched() -> bool {
    STATE.with(|s| s.get() & WATCHING != 0)
}

/// Whether the test watched on this thread has recorded anything since its
/// [`Observer`] started. A runner that watches a run of tests with one
/// observer stops at the first test that recorded, so that what the
/// observer saw belongs to that test alone.
///
/// ```
/// use pbt_core::statistics::{recorded, Observer};
/// let observer = Observer::start();
/// assert!(!recorded());
/// pbt_core::label!("small");
/// assert!(recorded());
/// assert_eq!(observer.finish().unwrap().labels, ["small"]);
/// ```
#[inline]
pub fn recorded() -> bool {
    STATE.with(|s| s.get() & RECORDED != 0)
}

fn record(f: impl FnOnce(&mut Observations)) {
    STATE.with(|s| s.set(s.get() | RECORDED));
    OBSERVED.with(|o| {
        if let Ok(mut o) = o.try_borrow_mut() {
            f(&mut o);
        }
    });
}

fn push_new(list: &mut Vec<String>, item: String) {
    if !list.contains(&item) {
        list.push(item);
    }
}

/// Label the current test (what [`label!`](crate::label) and
/// [`collect!`](crate::collect) call). Formats `text` only when watched.
#[inline]
pub fn label(text: fmt::Arguments<'_>) {
    if watched() {
        let text = text.to_string();
        record(|o| push_new(&mut o.labels, text));
    }
}

/// Count the current test in class `name` when `holds` (what
/// [`classify!`](crate::classify) calls).
#[inline]
pub fn classify(holds: bool, name: &dyn fmt::Display) {
    if holds && watched() {
        let name = name.to_string();
        record(|o| push_new(&mut o.classes, name));
    }
}

/// Count `value` in the table `table` (what [`tabulate!`](crate::tabulate)
/// calls).
#[inline]
pub fn tabulate(table: &dyn fmt::Display, value: &dyn fmt::Display) {
    if watched() {
        let entry = (table.to_string(), value.to_string());
        record(|o| {
            if !o.tables.contains(&entry) {
                o.tables.push(entry);
            }
        });
    }
}

/// Require `label` to hold in at least `percent` % of the tests; it holds
/// in this one when `holds` (what [`require_cover!`](crate::require_cover)
/// calls).
///
/// # Panics
///
/// When `percent` is not in `0.0..=100.0` (a mistake in the check, reported
/// as its failure).
#[inline]
pub fn require_cover(percent: f64, holds: bool, label: &dyn fmt::Display) {
    if !(0.0..=100.0).contains(&percent) {
        panic!("require_cover!: the share of tests is a percentage in 0..=100, not {percent} (for `{label}`)");
    }
    if watched() {
        let label = label.to_string();
        record(
            |o| match o.requirements.iter_mut().find(|r| r.label == label) {
                // Asked twice in one test: covered if either call held.
                Some(r) => r.covered |= holds,
                None => o.requirements.push(Requirement {
                    label,
                    percent,
                    covered: holds,
                }),
            },
        );
    }
}

/// Label the current test (QuickCheck's `label`, Hypothesis's `event`),
/// with `format!` arguments or any `Display` value. The labels of one test
/// form one row of the distribution table (`"a, b"` when it was labelled
/// twice).
///
/// ```
/// # use pbt_core::label;
/// # let xs = vec![1];
/// label!("length {}", xs.len());
/// label!("non-empty");
/// label!(if xs.is_empty() { "empty" } else { "non-empty" });
/// ```
#[macro_export]
macro_rules! label {
    ($format:literal $($arg:tt)*) => {
        $crate::statistics::label(::core::format_args!($format $($arg)*))
    };
    ($value:expr $(,)?) => {
        $crate::statistics::label(::core::format_args!("{}", $value))
    };
    () => {
        ::core::compile_error!("label! expects format! arguments, e.g. label!(\"length {}\", xs.len())")
    };
}

/// Label the current test with a value's `Debug` form (QuickCheck's
/// `collect`): the table shows the distribution of the values.
///
/// ```
/// # use pbt_core::collect;
/// # let xs = vec![1];
/// collect!(xs.len());
/// ```
#[macro_export]
macro_rules! collect {
    ($value:expr $(,)?) => {
        $crate::statistics::label(::core::format_args!("{:?}", $value))
    };
    ($($other:tt)*) => {
        ::core::compile_error!("collect! expects one value, e.g. collect!(xs.len())")
    };
}

/// Count the current test in a class when the condition holds (QuickCheck's
/// `classify`). Classes are counted independently: a test can be in several.
///
/// ```
/// # use pbt_core::classify;
/// # let xs: Vec<i32> = vec![];
/// classify!(xs.is_empty(), "empty");
/// classify!(xs.len() > 10, "long");
/// ```
#[macro_export]
macro_rules! classify {
    ($holds:expr, $name:expr $(,)?) => {
        $crate::statistics::classify($holds, &$name)
    };
    ($($other:tt)*) => {
        ::core::compile_error!(
            "classify! expects a condition and a label, e.g. classify!(xs.is_empty(), \"empty\")"
        )
    };
}

/// Count a value in a named table (QuickCheck's `tabulate`): each table is
/// shown on its own, with each value's share of the table.
///
/// ```
/// # use pbt_core::tabulate;
/// # let op = "push";
/// tabulate!("operations", op);
/// ```
#[macro_export]
macro_rules! tabulate {
    ($table:expr, $value:expr $(,)?) => {
        $crate::statistics::tabulate(&$table, &$value)
    };
    ($($other:tt)*) => {
        ::core::compile_error!(
            "tabulate! expects a table name and a value, e.g. tabulate!(\"operations\", op)"
        )
    };
}

/// Require a condition to hold in at least a share of the tests
/// (QuickCheck's `cover`): `require_cover!(10.0, xs.is_empty(), "empty")`
/// asks for at least 10% empty inputs. The label is also counted as a class.
///
/// An unmet requirement is a warning in the report; with
/// `Config::check_coverage(true)` the runner keeps testing until each
/// requirement is statistically shown met or not, and fails the property if
/// one is not. (Named apart from [`cover`](crate::feedback::cover), which
/// reports a coverage point to the fuzzer.)
///
/// ```
/// # use pbt_core::require_cover;
/// # let x = 5i32;
/// require_cover!(40.0, x > 0, "positive");
/// ```
#[macro_export]
macro_rules! require_cover {
    ($percent:expr, $holds:expr, $label:expr $(,)?) => {
        $crate::statistics::require_cover($percent as f64, $holds, &$label)
    };
    ($($other:tt)*) => {
        ::core::compile_error!("require_cover! expects a percentage, a condition and a label, e.g. require_cover!(10.0, xs.is_empty(), \"empty\")")
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_in_one_test_count_once() {
        let observer = Observer::start();
        crate::label!("a");
        crate::label!("a");
        crate::classify!(true, "c");
        crate::classify!(true, "c");
        crate::require_cover!(5, false, "r");
        crate::require_cover!(5, true, "r");
        let seen = observer.finish().unwrap();
        assert_eq!(seen.labels, ["a"]);
        assert_eq!(seen.classes, ["c"]);
        assert_eq!(seen.requirements.len(), 1);
        assert!(seen.requirements[0].covered);
    }

    #[test]
    fn a_nested_observer_keeps_the_outer_observations_apart() {
        let outer = Observer::start();
        crate::label!("outer before");
        let inner = Observer::start();
        crate::label!("inner");
        assert_eq!(inner.finish().unwrap().labels, ["inner"]);
        let dropped = Observer::start();
        crate::label!("dropped");
        drop(dropped);
        crate::label!("outer after");
        let seen = outer.finish().unwrap();
        assert_eq!(seen.labels, ["outer before", "outer after"]);
        assert!(!watched());
        assert_eq!(Observer::start().finish(), None);
    }

    #[test]
    fn a_dropped_observer_stops_watching() {
        {
            let _observer = Observer::start();
            assert!(watched());
        }
        assert!(!watched());
        crate::label!("late");
        assert_eq!(Observer::start().finish(), None);
    }
}

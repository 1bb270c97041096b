//! [`Probe`]: what a trial measures, the same way for every library.
//!
//! Every strategy's property calls the probe around its precondition
//! ([`Probe::admit`]) and its check ([`Probe::check`]). The probe counts the
//! inputs, stamps the first failure with the time since the trial started,
//! and ends the trial at its deadline by failing the next input with the
//! reason [`TIME_UP`]. So time-to-failure and tests-to-failure are measured
//! inside the property, identically for pbt, proptest and quickcheck, and
//! none of the library runners needs a time limit of its own. What the
//! runner does after the first failure (shrinking, printing) is not timed.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The failure reason a property reports when the trial's time is up.
pub const TIME_UP: &str = "etna: time limit reached";

/// How often (in inputs) the deadline is read: reading the clock costs about
/// as much as generating a small input.
const CLOCK_EVERY: u64 = 16;

/// The first failure of a trial.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Found {
    /// Time from the start of the trial to the failing check.
    pub time: Duration,
    /// Inputs checked, the failing one included.
    pub tests: u64,
    /// Inputs rejected by the precondition before it.
    pub discards: u64,
}

/// Counters and the deadline of one trial. Shared by reference (pbt,
/// proptest) or through an `Arc` in a thread-local (quickcheck, whose
/// properties are plain `fn`s).
#[derive(Debug)]
pub struct Probe {
    start: Instant,
    deadline: Instant,
    tests: AtomicU64,
    discards: AtomicU64,
    expired: AtomicBool,
    found: OnceLock<Found>,
    max_tests: u64,
}

impl Probe {
    /// A probe whose trial starts now and ends after `limit`.
    pub fn new(limit: Duration) -> Probe {
        Probe::with_budget(limit, u64::MAX)
    }

    /// A probe whose trial also ends after `max_tests` checks: a
    /// deterministic budget for tests of the harness, which must not depend
    /// on the machine's speed.
    pub fn with_budget(limit: Duration, max_tests: u64) -> Probe {
        let start = Instant::now();
        Probe {
            start,
            deadline: start + limit,
            tests: AtomicU64::new(0),
            discards: AtomicU64::new(0),
            expired: AtomicBool::new(false),
            found: OnceLock::new(),
            max_tests,
        }
    }

    /// The precondition of an input, `valid`, counted. Once the time is up
    /// every input is admitted, so that the check can end the run.
    #[inline]
    pub fn admit(&self, valid: bool) -> bool {
        if valid {
            return true;
        }
        let n = self.discards.fetch_add(1, Relaxed);
        self.expired.load(Relaxed) || (n.is_multiple_of(CLOCK_EVERY) && self.time_up())
    }

    /// The graded precondition of an input: `defects` (0 when it holds),
    /// counted as a discard when not 0. Once the time is up it is 0, so
    /// that the check can end the run. The targeted runner evaluates the
    /// precondition's utility from the same expression, so under it a
    /// rejected input may be counted twice.
    #[inline]
    pub fn graded(&self, defects: u64) -> u64 {
        if defects == 0 || self.admit(false) {
            0
        } else {
            defects
        }
    }

    /// Run the check `holds` on an admitted input: `true` when it holds.
    /// A panic is a failure. The first failure is recorded; once the time is
    /// up this returns `false` without running the check.
    #[inline]
    pub fn check(&self, holds: impl FnOnce() -> bool) -> bool {
        if self.expired.load(Relaxed) {
            return false;
        }
        let n = self.tests.fetch_add(1, Relaxed) + 1;
        if n > self.max_tests {
            self.expired.store(true, Relaxed);
        }
        if (n.is_multiple_of(CLOCK_EVERY) || n > self.max_tests) && self.time_up() {
            self.tests.fetch_sub(1, Relaxed);
            if n > self.max_tests {
                budget_spent();
            }
            return false;
        }
        let ok = the_check(holds);
        if !ok {
            let _ = self.found.set(Found {
                time: self.start.elapsed(),
                tests: n,
                discards: self.discards.load(Relaxed),
            });
        }
        ok
    }

    /// Whether the deadline has passed (and remember it).
    fn time_up(&self) -> bool {
        if self.expired.load(Relaxed) {
            return true;
        }
        let up = Instant::now() >= self.deadline;
        if up {
            self.expired.store(true, Relaxed);
        }
        up
    }

    /// The first failure, if the trial found one in time.
    pub fn found(&self) -> Option<Found> {
        self.found.get().copied()
    }

    /// The failure reason to report for a failed check: [`TIME_UP`] when the
    /// time ran out, otherwise that the property failed.
    pub fn reason(&self) -> &'static str {
        if self.found().is_some() {
            "etna: the property failed"
        } else {
            TIME_UP
        }
    }

    /// Inputs checked so far.
    pub fn tests(&self) -> u64 {
        self.tests.load(Relaxed)
    }

    /// Inputs discarded so far.
    pub fn discards(&self) -> u64 {
        self.discards.load(Relaxed)
    }

    /// Time since the trial started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// The workload's check, a panic a failure. Never inlined, in every
/// library's property alike, so that `valgrind --tool=callgrind` counts its
/// instructions apart from the runner's (`etna --cost`; a call costs about
/// a nanosecond).
#[inline(never)]
fn the_check(holds: impl FnOnce() -> bool) -> bool {
    catch_unwind(AssertUnwindSafe(holds)).unwrap_or(false)
}

/// Called once when a probe made [`Probe::with_budget`] has checked its
/// budget of inputs: the mark where `etna --cost` under callgrind
/// (`--dump-before=*budget_spent*`) stops counting, before the failure path
/// that ends the run.
#[inline(never)]
pub fn budget_spent() {
    std::hint::black_box(());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_the_first_failure_only() {
        let p = Probe::new(Duration::from_secs(60));
        assert!(p.check(|| true));
        assert!(!p.admit(false));
        assert!(!p.check(|| false));
        assert!(!p.check(|| panic!("second")));
        let found = p.found().expect("a failure");
        assert_eq!((found.tests, found.discards), (2, 1));
    }

    #[test]
    fn ends_the_trial_after_its_budget() {
        let p = Probe::with_budget(Duration::from_secs(60), 5);
        let runs = (0..10).filter(|_| p.check(|| true)).count();
        assert_eq!(runs, 5);
        assert_eq!(p.tests(), 5);
    }

    #[test]
    fn ends_the_trial_at_the_deadline() {
        let p = Probe::new(Duration::ZERO);
        let mut n = 0;
        while p.check(|| true) {
            n += 1;
            assert!(n < 1000, "the probe never expired");
        }
        assert!(p.found().is_none());
        assert_eq!(p.reason(), TIME_UP);
        assert!(p.admit(false), "expired probes admit everything");
    }
}

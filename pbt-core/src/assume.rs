//! `assume!(cond)`: a test whose inputs do not meet `cond` is discarded, not
//! failed, whatever the check returns (QuickCheck's `==>`, Hypothesis'
//! `assume`, proptest's `prop_assume!`).
//!
//! A failed assumption unwinds out of the check with an [`Assumption`]
//! payload, without running the panic hook; the check that the macros emit
//! catches exactly that payload and answers `Outcome::Discard`. Any other
//! panic goes on unwinding to the runner, which reports it as a failure.

use crate::Outcome;
use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};

/// Discard the current test unless `cond` holds.
///
/// Use it in the body of a `#[property_test]` function, in the `check` of a
/// `property!`, or in any function they call. The test counts as discarded
/// (like an `implies` that does not hold), and the runner generates another;
/// a property whose assumptions reject almost everything gives up with a
/// clear message rather than passing vacuously. Users write it as
/// `pbt::assume!` (it is in `pbt::prelude`).
///
/// ```
/// use pbt_core::assume;
///
/// fn divides(a: i32, b: i32) -> bool {
///     assume!(b != 0);
///     assume!(a.checked_rem(b).is_some());
///     (a / b) * b + a % b == a
/// }
/// // What `property!` wraps around a check: a failed assumption is a discard.
/// # use pbt_core::{macro_support::check, property::IntoOutcome, Outcome};
/// assert_eq!(check(|| divides(7, 2).into_outcome()), Outcome::Pass);
/// assert_eq!(check(|| divides(7, 0).into_outcome()), Outcome::Discard);
/// ```
#[macro_export]
macro_rules! assume {
    ($cond:expr $(,)?) => {
        if !$cond {
            $crate::macro_support::assumption_failed(::core::stringify!($cond))
        }
    };
}

/// The payload a failed `assume!` unwinds with: a discard, not a failure.
#[doc(hidden)]
pub struct Assumption(pub &'static str);

thread_local! {
    /// How many checks are running on this thread (nested runners count).
    static IN_CHECK: Cell<usize> = const { Cell::new(0) };
    /// Whether an `assume!` with a graded utility failed on this thread
    /// since the runner last asked ([`take_graded_rejection`]).
    static GRADED: Cell<bool> = const { Cell::new(false) };
}

/// `pbt::assume!`'s condition, required to be a `bool`.
#[doc(hidden)]
#[inline(always)]
pub fn holds(cond: bool) -> bool {
    cond
}

/// `pbt::assume!`'s condition held: a feedback-guided run counts the
/// assumption as satisfied (utility 0). Outside such a run, a flag check.
#[doc(hidden)]
#[inline(always)]
pub fn assumption_held() {
    crate::feedback::precondition(0.0);
}

/// `pbt::assume!`'s condition did not hold: hand its utility (`< 0`, larger
/// when closer to holding) to a feedback-guided run, then discard as
/// [`assumption_failed`] does.
#[doc(hidden)]
#[cold]
#[track_caller]
pub fn assumption_failed_graded(cond: &'static str, utility: impl FnOnce() -> f64) -> ! {
    if IN_CHECK.with(Cell::get) > 0 {
        GRADED.with(|g| g.set(true));
        // A true condition has utility >= 0; the one that failed is below.
        crate::feedback::precondition(utility().min(-f64::MIN_POSITIVE));
    }
    assumption_failed(cond)
}

/// Whether an `assume!` whose condition has a graded utility (a comparison,
/// `&&`, `||`, `!`, `all`, `any`) discarded a test on this thread since the
/// last call: the generational runner's cue to target the assumptions.
#[doc(hidden)]
pub fn take_graded_rejection() -> bool {
    GRADED.with(|g| g.replace(false))
}

/// Unwind out of the running check as a discard. Outside a check (a plain
/// `#[test]`, a generator) it panics with a message saying so.
#[doc(hidden)]
#[cold]
#[track_caller]
pub fn assumption_failed(cond: &'static str) -> ! {
    if IN_CHECK.with(Cell::get) == 0 {
        panic!("assume!({cond}) does not hold, outside a pbt check: `assume!` discards a test only in a #[property_test] body or a property!'s `check`");
    }
    crate::rejection::note(crate::rejection::Rejection::Assume(cond));
    panic::resume_unwind(Box::new(Assumption(cond)))
}

/// The value of a `property!` check's expression, run as a closure of its
/// own: a `return` in the check returns this value (a `bool`, say), not the
/// `Outcome` that [`check`] builds from it.
#[doc(hidden)]
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn body<T>(f: impl FnOnce() -> T) -> T {
    f()
}

/// The outcome of a check, or `Discard` when an `assume!` inside it did not
/// hold. Other panics keep unwinding. Always inlined (as the check closure
/// that `property!` wraps around it): in a runner's loop, a call here and
/// the verdict returned through memory cost more than a cheap check.
#[doc(hidden)]
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn check(f: impl FnOnce() -> Outcome) -> Outcome {
    IN_CHECK.with(|n| n.set(n.get() + 1));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    IN_CHECK.with(|n| n.set(n.get() - 1));
    match result {
        Ok(outcome) => outcome,
        Err(payload) if payload.is::<Assumption>() => Outcome::Discard,
        Err(payload) => panic::resume_unwind(payload),
    }
}

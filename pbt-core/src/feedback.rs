//! Feedback from a running check to a feedback-guided runner (*Programmable Property-Based Testing*
//! §2.3–2.4; *Flexible and Automatic Targeted Property-Based Testing* §4): target values, coverage points and arbitrary
//! data, collected per test.
//!
//! A check calls [`target`] (a value to maximise), [`cover`] (a point of
//! behaviour it reached) or [`observe`] (any data, for generalized
//! targeting). Outside a runner that [`collect`]s feedback these calls cost a
//! thread-local flag check and do nothing.
//!
//! ```
//! use pbt_core::feedback::{collect, target, cover};
//! let (_, fb) = collect(|| { target(3.0); target(2.0); cover(7); });
//! assert_eq!(fb.target, Some(3.0));
//! assert_eq!(fb.points, vec![7]);
//! ```

use std::any::Any;
use std::cell::{Cell, RefCell};

/// What one test reported.
#[derive(Debug, Default)]
pub struct Feedback {
    /// The largest value passed to [`target`], if any.
    pub target: Option<f64>,
    /// The points passed to [`cover`], in order.
    pub points: Vec<u64>,
    /// The last value passed to [`observe`].
    pub data: Option<Box<dyn Any>>,
    /// The utility of the `assume!`s the check evaluated (the least of
    /// them; `0` when all held), when they had one.
    pub precondition: Option<f64>,
}

thread_local! {
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    static CURRENT: RefCell<Feedback> = RefCell::new(Feedback::default());
}

/// Report a value the search should maximise (targeted PBT). Several calls
/// in one test keep the largest.
#[inline]
pub fn target(value: f64) {
    if ACTIVE.with(Cell::get) {
        CURRENT.with(|c| {
            let mut c = c.borrow_mut();
            c.target = Some(c.target.map_or(value, |t| t.max(value)));
        });
    }
}

/// Report that the test reached point `id` (manual coverage: any `u64` that
/// names a branch or state), for the coverage-guided fuzzer. To require that
/// a share of the tests covers a case, use
/// [`require_cover!`](crate::require_cover) instead.
#[inline]
pub fn cover(id: u64) {
    if ACTIVE.with(Cell::get) {
        CURRENT.with(|c| c.borrow_mut().points.push(id));
    }
}

/// Record the utility of an `assume!` the check evaluated (`pbt::assume!`
/// calls it): the least of a test's utilities is kept.
#[doc(hidden)]
#[inline]
pub fn precondition(utility: f64) {
    if ACTIVE.with(Cell::get) {
        CURRENT.with(|c| {
            let mut c = c.borrow_mut();
            c.precondition = Some(c.precondition.map_or(utility, |u| u.min(utility)));
        });
    }
}

/// Report data for a generalized-targeting update function (*Flexible and Automatic Targeted Property-Based Testing* §4).
pub fn observe<X: Any>(data: X) {
    if ACTIVE.with(Cell::get) {
        CURRENT.with(|c| c.borrow_mut().data = Some(Box::new(data)));
    }
}

/// Run `f` and collect the feedback it reports on this thread.
pub fn collect<R>(f: impl FnOnce() -> R) -> (R, Feedback) {
    let was = ACTIVE.with(|a| a.replace(true));
    CURRENT.with(|c| *c.borrow_mut() = Feedback::default());
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            ACTIVE.with(|a| a.set(self.0));
        }
    }
    let reset = Reset(was);
    let result = f();
    drop(reset);
    let feedback = CURRENT.with(|c| std::mem::take(&mut *c.borrow_mut()));
    (result, feedback)
}

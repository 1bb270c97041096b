//! Notes for the final counterexample (Hypothesis's `note`): what a check
//! writes with [`note!`](crate::note) is shown with the counterexample a
//! runner reports, and nowhere else.
//!
//! While a runner generates and shrinks, notes go nowhere (a `println!` in a
//! check prints once per test and per shrink attempt). After shrinking, the
//! runner runs the final counterexample once more inside [`capture`] and
//! puts what it noted into the report. Outside `capture` a `note!` costs one
//! thread-local flag check and formats nothing.
//!
//! ```
//! use pbt_core::{note, notes};
//! note!("not captured");
//! let ((), noted) = notes::capture(|| {
//!     let xs = vec![1, 2];
//!     note!("xs has {} elements", xs.len());
//! });
//! assert_eq!(noted, ["xs has 2 elements"]);
//! ```

use std::cell::{Cell, RefCell};
use std::fmt;

thread_local! {
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
    static NOTED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Keep a note if a [`capture`] is running on this thread (what
/// [`note!`](crate::note) calls).
#[inline]
pub fn note(text: fmt::Arguments<'_>) {
    if CAPTURING.with(Cell::get) {
        let text = text.to_string();
        NOTED.with(|n| {
            if let Ok(mut n) = n.try_borrow_mut() {
                n.push(text);
            }
        });
    }
}

/// Run `f` and return what it noted, in order. A panic in `f` propagates
/// (and the notes so far are dropped), leaving notes off again.
pub fn capture<R>(f: impl FnOnce() -> R) -> (R, Vec<String>) {
    struct Restore(bool, Vec<String>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CAPTURING.with(|c| c.set(self.0));
            let outer = std::mem::take(&mut self.1);
            NOTED.with(|n| {
                if let Ok(mut n) = n.try_borrow_mut() {
                    *n = outer;
                }
            });
        }
    }
    let outer = NOTED.with(|n| n.try_borrow_mut().map(|mut n| std::mem::take(&mut *n)));
    let restore = Restore(
        CAPTURING.with(|c| c.replace(true)),
        outer.unwrap_or_default(),
    );
    let result = f();
    let noted = NOTED.with(|n| {
        n.try_borrow_mut()
            .map(|mut n| std::mem::take(&mut *n))
            .unwrap_or_default()
    });
    drop(restore);
    (result, noted)
}

/// Write a note for the final counterexample, with `format!` arguments
/// (Hypothesis's `note`): shown under the counterexample in the failure
/// report, not printed while the runner generates or shrinks.
///
/// ```
/// # use pbt_core::note;
/// # let xs = vec![3, 1];
/// let sorted = { let mut s = xs.clone(); s.sort(); s };
/// note!("sorted: {sorted:?}");
/// ```
#[macro_export]
macro_rules! note {
    ($($arg:tt)+) => {
        $crate::notes::note(::core::format_args!($($arg)+))
    };
    () => {
        ::core::compile_error!("note! expects format! arguments, e.g. note!(\"sorted: {:?}\", ys)")
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_captures_keep_their_own_notes() {
        let ((), outer) = capture(|| {
            crate::note!("outer 1");
            let ((), inner) = capture(|| crate::note!("inner"));
            assert_eq!(inner, ["inner"]);
            crate::note!("outer 2");
        });
        assert_eq!(outer, ["outer 1", "outer 2"]);
    }

    #[test]
    fn a_panic_leaves_capturing_off() {
        let caught = std::panic::catch_unwind(|| {
            capture(|| {
                crate::note!("before");
                panic!("in the check");
            })
        });
        assert!(caught.is_err());
        assert!(!CAPTURING.with(Cell::get));
        let ((), noted) = capture(|| ());
        assert!(noted.is_empty());
    }
}

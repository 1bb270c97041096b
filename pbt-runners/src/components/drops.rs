//! Dropping generated values: a value's `Drop` is user code, and may panic
//! (a guard that must be defused before it goes out of scope, an
//! assertion in a destructor). Where the check owns the value (a
//! `#[property_test]` body takes its arguments by value), that panic is the
//! check's: a failure like any other. Where a runner owns it (a candidate
//! the shrinker let go of, the input a step replaced, a report's typed
//! counterexample), the panic would otherwise unwind out of the runner,
//! losing the report, or abort the process if the value is dropped while
//! a panic unwinds. So every value a runner holds is dropped here: the
//! panic is caught, and the first one of a failure path is noted in its
//! report ([`take_drop_panics`]).

use super::execute::drop_caught;
use std::cell::RefCell;

thread_local! {
    /// The panics of drops caught on this thread since the last
    /// [`take_drop_panics`]: how many, and the first one's message.
    static CAUGHT: RefCell<Option<(u64, String)>> = const { RefCell::new(None) };
}

/// Drop `value`, catching (and counting) a panic of its `Drop`.
///
/// ```
/// use pbt_runners::components::{drop_quietly, take_drop_panics};
/// struct Bomb;
/// impl Drop for Bomb {
///     fn drop(&mut self) { panic!("went off") }
/// }
/// take_drop_panics();
/// drop_quietly(Bomb);
/// drop_quietly(7u8);
/// let (count, first) = take_drop_panics().unwrap();
/// assert_eq!(count, 1);
/// assert!(first.starts_with("went off"), "{first}");
/// assert_eq!(take_drop_panics(), None);
/// ```
#[inline]
pub fn drop_quietly<T>(value: T) {
    if !std::mem::needs_drop::<T>() {
        return;
    }
    if let Err(panic) = drop_caught(value) {
        CAUGHT.with(|c| {
            let mut c = c.borrow_mut();
            match &mut *c {
                Some((count, _)) => *count += 1,
                None => *c = Some((1, panic.message)),
            }
        });
    }
}

/// The drop panics caught on this thread since the last call: how many,
/// and the first one's message (with where it was raised). Clears them.
pub fn take_drop_panics() -> Option<(u64, String)> {
    CAUGHT.with(|c| c.borrow_mut().take())
}

/// The message of the first drop panic [`drop_quietly`] caught while `f`
/// ran, if any; those caught before are kept, and these counted with them.
pub(crate) fn drop_panic_in(f: impl FnOnce()) -> Option<String> {
    let before = take_drop_panics();
    f();
    let during = take_drop_panics();
    let first = during.as_ref().map(|(_, m)| m.clone());
    let merged = match (before, during) {
        (Some((a, m)), Some((b, _))) => Some((a + b, m)),
        (before, during) => before.or(during),
    };
    CAUGHT.with(|c| *c.borrow_mut() = merged);
    first
}

/// The report's note for `caught` drop panics.
pub(crate) fn drop_note((count, first): (u64, String)) -> String {
    let times = match count {
        1 => "once".to_string(),
        n => format!("{n} times"),
    };
    format!(
        "a generated value's `Drop` panicked {times}, outside the check (pbt caught it and went on): {first}"
    )
}

/// A generated value as a runner holds it ([`AnyInputs`](super::AnyInputs)
/// boxes one): dropped with [`drop_quietly`], wherever that happens.
pub(crate) struct DropGuarded<I>(Option<I>);

impl<I> DropGuarded<I> {
    pub(crate) fn new(value: I) -> Self {
        DropGuarded(Some(value))
    }

    /// The value (always there: only `drop` takes it).
    pub(crate) fn get(&self) -> Option<&I> {
        self.0.as_ref()
    }
}

impl<I> Drop for DropGuarded<I> {
    fn drop(&mut self) {
        drop_quietly(self.0.take());
    }
}

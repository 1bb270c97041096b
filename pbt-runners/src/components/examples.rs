//! Explicit examples: cases written by hand, run before any generated test
//! (Hypothesis' `@example`, proptest's and quickcheck's long-requested
//! explicit cases). `#[property_test(examples = [(0, vec![]), (3, vec![1])])]`
//! runs each one first; a failing one fails the test with the example's
//! values and the reason, and generation does not start.

use pbt_core::{Case, Outcome, Property};
use pbt_runners::components::quietly;

/// Run `examples` in order, each the values of the property's variables as
/// its environment list (newest variable first: `(y, (x, ()))` for
/// `forall x; forall y`); panic with a report at the first that fails or
/// that a precondition rejects.
///
/// ```
/// use pbt::prelude::*;
/// let prop = property! { forall x: u8; check x < 200 };
/// pbt::run_examples(&prop, [(3, ()), (199, ())]);
/// let failed = std::panic::catch_unwind(|| pbt::run_examples(&prop, [(7, ()), (250, ())]));
/// let message = *failed.unwrap_err().downcast::<String>().unwrap();
/// assert!(message.contains("explicit example 2 of 2 failed"), "{message}");
/// assert!(message.contains("x = 250"), "{message}");
/// ```
#[track_caller]
pub fn run_examples<E, P>(prop: &P, examples: impl IntoIterator<Item = E>)
where
    P: Property<Inputs = Case<E>>,
{
    let variables = prop.structure().variables().count();
    let examples: Vec<Case<E>> = examples
        .into_iter()
        .map(|env| Case {
            env,
            choices: vec![None; variables],
            size: 0,
        })
        .collect();
    let total = examples.len();
    for (i, inputs) in examples.iter().enumerate() {
        let reason = match quietly(|| prop.run(inputs)) {
            Ok(Outcome::Pass) => continue,
            Ok(Outcome::Fail(reason)) => reason,
            Ok(Outcome::Discard) => {
                "a precondition (`implies` or `assume!`) rejected it, so it tests nothing".into()
            }
            Err(message) => format!("panicked: {message}"),
        };
        let values: String = match quietly(|| prop.print(inputs)) {
            Ok(bindings) => bindings.iter().map(|b| format!("    {b}\n")).collect(),
            Err(message) => format!("    (printing the values panicked: {message})\n"),
        };
        panic!(
            "pbt: explicit example {} of {total} failed (before any generated test):\n{values}reason: {reason}",
            i + 1
        );
    }
}

/// What an explicit example may be for a borrowed parameter: the owned value
/// (`String`, `Vec<T>`, `T`), or what is written naturally for it (`"abc"`
/// for `&str`, `&[1, 2]` or `[1, 2]` for `&[T]`).
#[doc(hidden)]
pub trait Example<T> {
    /// The owned value the parameter borrows.
    fn into_example(self) -> T;
}

impl<T> Example<T> for T {
    fn into_example(self) -> T {
        self
    }
}

impl Example<String> for &str {
    fn into_example(self) -> String {
        self.to_string()
    }
}

impl<T: Clone> Example<Vec<T>> for &[T] {
    fn into_example(self) -> Vec<T> {
        self.to_vec()
    }
}

impl<T: Clone, const N: usize> Example<Vec<T>> for &[T; N] {
    fn into_example(self) -> Vec<T> {
        self.to_vec()
    }
}

impl<T, const N: usize> Example<Vec<T>> for [T; N] {
    fn into_example(self) -> Vec<T> {
        self.into()
    }
}

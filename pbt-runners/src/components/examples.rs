//! Explicit examples: cases written by hand, run before any generated test
//! (Hypothesis' `@example`, proptest's and quickcheck's long-requested
//! explicit cases). `#[property_test(examples = [(0, vec![]), (3, vec![1])])]`
//! runs each one first; a failing one fails the test with the example's
//! values and the reason, and generation does not start.

use super::quietly;
use pbt_core::{Case, Outcome, Property};

/// Run `examples` in order, each the values of the property's variables as
/// its environment list (newest variable first: `(y, (x, ()))` for
/// `forall x; forall y`); panic with a report at the first that fails or
/// that a precondition rejects.
///
/// Users write it as `pbt::run_examples`; `#[property_test(examples = [...])]`
/// calls it before the runner.
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::components::run_examples;
/// // forall x: u8; check x < 200   (what property! writes for you)
/// let prop = Prop::new(Forall::new("x", "u8", Check::new(|&(x, ()): &(u8, ())| x < 200)));
/// run_examples(&prop, [(3, ()), (199, ())]);
/// let failed = std::panic::catch_unwind(|| run_examples(&prop, [(7, ()), (250, ())]));
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

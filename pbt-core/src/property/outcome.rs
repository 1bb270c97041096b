//! The verdict of running a check, and what a check may return.

use serde::Serialize;

/// The verdict of one test.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Outcome {
    /// The check held.
    Pass,
    /// The check failed, with a reason (the `Err` printed, or the panic message).
    Fail(String),
    /// An implication did not hold: the test does not count.
    Discard,
}

impl Outcome {
    /// Whether this is [`Outcome::Fail`].
    pub fn is_fail(&self) -> bool {
        matches!(self, Outcome::Fail(_))
    }
}

/// What a check may return: `bool`, `()`, `Result<(), E>` or an [`Outcome`].
///
/// ```
/// use pbt_core::property::{IntoOutcome, Outcome};
/// assert_eq!(true.into_outcome(), Outcome::Pass);
/// assert!(Err::<(), _>("boom").into_outcome().is_fail());
/// ```
pub trait IntoOutcome {
    /// The verdict.
    fn into_outcome(self) -> Outcome;
}

impl IntoOutcome for bool {
    #[inline]
    fn into_outcome(self) -> Outcome {
        if self {
            Outcome::Pass
        } else {
            Outcome::Fail("the check returned false".into())
        }
    }
}

impl IntoOutcome for () {
    #[inline]
    fn into_outcome(self) -> Outcome {
        Outcome::Pass
    }
}

impl<E: std::fmt::Debug> IntoOutcome for Result<(), E> {
    #[inline]
    fn into_outcome(self) -> Outcome {
        match self {
            Ok(()) => Outcome::Pass,
            Err(e) => Outcome::Fail(format!("the check returned Err({e:?})")),
        }
    }
}

impl IntoOutcome for Outcome {
    #[inline]
    fn into_outcome(self) -> Outcome {
        self
    }
}

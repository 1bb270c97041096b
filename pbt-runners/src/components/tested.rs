//! What one test came to, in the words every runner, the isolated mode and
//! the fuzz engines share (Hypothesis has one `Status` for this): a test
//! [`Tested::Passed`], was [`Tested::Discarded`], or [`Tested::Failed`] with
//! a [`Fault`]. Generating an input alone comes to the input or
//! [`NotGenerated`]. A check's own verdict is [`pbt_core::Outcome`], and a
//! whole run's is [`crate::Verdict`].

use pbt_core::{Discarded, Outcome};

/// What one test (generate an input, check it) came to.
///
/// ```
/// use pbt_runners::components::{Fault, Tested};
/// use pbt_core::{Discarded, Outcome};
/// assert_eq!(Tested::from(Outcome::Pass), Tested::Passed);
/// assert_eq!(Tested::from(Outcome::Discard), Tested::Discarded(Discarded::Precondition));
/// assert_eq!(
///     Tested::from(Outcome::Fail("x was 7".into())),
///     Tested::Failed(Fault::Check("x was 7".into()))
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tested {
    /// The check passed.
    Passed,
    /// The input was not tested: a generator or a precondition rejected it,
    /// a replayed choice sequence ran out, or the check discarded it
    /// ([`Discarded::Precondition`]).
    Discarded(Discarded),
    /// The test failed: the check, or user code on the way (see [`Fault`]).
    Failed(Fault),
}

impl From<Outcome> for Tested {
    /// The test whose input was generated and checked with this outcome.
    #[inline]
    fn from(outcome: Outcome) -> Tested {
        match outcome {
            Outcome::Pass => Tested::Passed,
            Outcome::Discard => Tested::Discarded(Discarded::Precondition),
            Outcome::Fail(reason) => Tested::Failed(Fault::Check(reason)),
        }
    }
}

impl From<NotGenerated> for Tested {
    /// The test whose input was not generated.
    fn from(not: NotGenerated) -> Tested {
        match not {
            NotGenerated::Discarded(why) => Tested::Discarded(why),
            NotGenerated::Failed(reason) => Tested::Failed(Fault::Generator(reason)),
        }
    }
}

/// What went wrong with a failing input.
///
/// ```
/// use pbt_runners::components::Fault;
/// let fault = Fault::Generator("the generator panicked: seven".into());
/// assert_eq!(fault.reason(), "the generator panicked: seven");
/// assert!(!fault.counts() && Fault::Check("false".into()).counts());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The check failed: it returned `false` or `Err`, panicked, or ran past
    /// the time limit. The input is shrunk.
    Check(String),
    /// Generating the input failed: a generator or mutator panicked, ran
    /// past the time limit, or drew more than its budget. Reported as found.
    Generator(String),
    /// Other user code on the input failed: a `#[target]`, a utility.
    /// Reported as found.
    Annotation(String),
    /// The process testing a generated input died or hung (the isolated
    /// mode: an abort, a stack overflow, `exit`, a kill at the time limit).
    /// Shrunk like a check failure, in child processes.
    Died(String),
}

impl Fault {
    /// Why the input fails.
    pub fn reason(&self) -> &str {
        match self {
            Fault::Check(r) | Fault::Generator(r) | Fault::Annotation(r) | Fault::Died(r) => r,
        }
    }

    /// Whether the failing test counts toward `Report::tests`: its input
    /// was generated and its check ran (and failed, or its process died).
    /// A generator's or an annotation's fault is no test.
    pub fn counts(&self) -> bool {
        matches!(self, Fault::Check(_) | Fault::Died(_))
    }
}

/// Why generating (or mutating, or replaying) an input gave no input: the
/// error of a generation's `Result<T, NotGenerated>`.
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::components::{supervise, DynProperty, Found, NotGenerated, Plan};
/// use pbt_runners::{Config, Regressions};
/// // A generator that panics on 7: generating is a failure, not a discard.
/// let prop = Prop::new(Forall::new("x", "u8", Check::new(|_: &(u8, ())| true))
///     .gen(|_: &()| pbt_core::Gen::map(pbt_core::gen::int(0..10u8), |x| { assert!(x != 7, "seven"); x })));
/// let config = Config::default().ignore_env().regressions(Regressions::Off);
/// let plan = Plan::new(&config, &DynProperty::structure(&prop));
/// let erased: &dyn DynProperty = &prop;
/// let outcomes: Vec<bool> = supervise(&prop, &plan, |watch| {
///     (0..50).map(|n| matches!(erased.generate_traced(&Found::Case(plan.case(n)), watch),
///                              Err(NotGenerated::Failed(_)))).collect()
/// });
/// assert!(outcomes.contains(&true) && outcomes.contains(&false));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotGenerated {
    /// A precondition or generator rejected it, or a replayed choice
    /// sequence ran out (see [`pbt_core::overrun::Overrun::Replay`]).
    Discarded(Discarded),
    /// User code failed while generating: a generator or mutator panicked,
    /// ran past the time limit, or drew more than its budget. The reason
    /// says which; runners report it as a [`Fault::Generator`].
    Failed(String),
}

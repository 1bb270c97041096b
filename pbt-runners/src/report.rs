//! [`Report`]: what every runner returns.

use crate::components::statistics::Statistics;
use crate::config::Shrinker;
use pbt_core::property::Case;
use pbt_core::Binding;
use serde::Serialize;
use std::any::Any;
use std::fmt;
use std::time::Duration;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Verdict {
    /// Every test passed.
    Passed,
    /// A counterexample was found.
    Failed,
    /// Too many tests were discarded to reach the requested number.
    GaveUp,
    /// Every test passed, but a coverage requirement
    /// ([`pbt_core::require_cover!`]) was shown unmet by the coverage check
    /// (`Config::check_coverage`); `statistics.coverage` says which.
    InsufficientCoverage,
}

/// A found counterexample.
#[derive(Clone, Debug, Serialize)]
pub struct Failure {
    /// Why the (shrunk) input fails: the panic message, `Err`, or `false`.
    pub reason: String,
    /// Where the failure comes from, as first found: the place of a panic,
    /// or the reason a check gave (see
    /// [`FailureOrigin`](crate::components::distinct::FailureOrigin)). Two
    /// failures of one origin are one bug; with
    /// [`crate::Config::report_multiple`] a run reports one failure per
    /// origin, each shrunk without leaving it.
    pub origin: crate::components::distinct::FailureOrigin,
    /// Each variable of the shrunk input, printed.
    pub counterexample: Vec<Binding>,
    /// The input as first found, before shrinking: each value printed up
    /// to its first [`ORIGINAL_SHOWN`](crate::components::ORIGINAL_SHOWN)
    /// bytes and then marked as cut (whole when shrinking did not change
    /// it; [`Report::original`] gives it whole, typed).
    pub original: Vec<Binding>,
    /// The seed of the failing test case alone (0 when it was found by
    /// mutation and is replayed from `choices`).
    pub case_seed: u64,
    /// The choice sequence of an input found by mutating choices.
    pub choices: Option<Vec<u64>>,
    /// The seeds of the value mutations (`Property::mutate`) that turned
    /// the case or choices above into the failing input; empty when it was
    /// generated as it is.
    pub mutations: Vec<u64>,
    /// The size it was generated at.
    pub size: usize,
    /// Which shrinker produced the result; `None` when it was not shrunk
    /// (a generator fault, a hang in isolation, no candidate accepted
    /// where no shrinker ran).
    pub shrinker: Option<Shrinker>,
    /// The counterexample passed when it was run once more after
    /// shrinking: the failure depends on something besides the input
    /// (time, global state, the order of tests).
    pub flaky: bool,
    /// The command that replays this case alone, without the regressions
    /// file (`PBT_REPLAY='<case>' cargo test … -- <test> --exact`): the
    /// shrunk case when shrinking saved one, else the case as found.
    /// `None` when the input cannot be replayed (no input was generated).
    pub replay: Option<String>,
    /// The saved case of the regressions file that failed, when the
    /// failure was a replay (no `PBT_SEED` reproduces it without the file).
    pub replayed_from: Option<SavedAt>,
    /// What the check wrote with [`pbt_core::note!`] when the shrunk input
    /// ran once more (notes are not kept while generating or shrinking).
    pub notes: Vec<String>,
    /// The (shrunk) input itself, typed: what [`Report::counterexample`]
    /// and [`Failure::inputs`] read. `None` when no input was generated (a
    /// generator fault) or it lives in another process (the isolated mode
    /// prints it there). Not serialised.
    #[serde(skip)]
    pub typed: Option<TypedInputs>,
    /// The input as first found, typed (what [`Report::original`] and
    /// [`Failure::original_inputs`] read); `None` as for `typed`.
    #[serde(skip)]
    pub typed_original: Option<TypedInputs>,
    /// The variables that the explain phase found free: with each drawn
    /// afresh many times (the others held), the input failed every time,
    /// the same way. The report marks them "or any other generated
    /// value". Empty when none is, and when the phase did not run (no
    /// shrinking, a property that cannot redraw one variable). A variable
    /// not marked may still be free: the phase tries a few values only.
    pub any_value_fails: Vec<&'static str>,
    /// Shrink steps taken for this failure, and candidates tried: filled
    /// in for each failure of a run that reports several
    /// ([`crate::Config::report_multiple`]); otherwise
    /// [`Report::shrinks`] and [`Report::shrink_attempts`] are the counts
    /// (and these are 0).
    pub shrinks: u64,
    /// See [`Failure::shrinks`].
    pub shrink_attempts: u64,
}

/// A property's inputs ([`pbt_core::Property::Inputs`]), type-erased and
/// shared: a counterexample as a value, for a test or harness to re-run,
/// measure or assert on. Cheap to clone.
///
/// It is `Send` and `Sync` whatever the inputs are (so a [`Report`] can go
/// to another thread), by belonging to the thread that made it: only there
/// does [`TypedInputs::get`] give the inputs (elsewhere `None`; the printed
/// bindings of the [`Failure`] are there on every thread), and only there
/// are they dropped: the last clone dropped on another thread leaks them
/// rather than run their `Drop` where it may not run (an `Rc` or a
/// `MutexGuard` in the inputs).
///
/// ```
/// use pbt_runners::TypedInputs;
/// let inputs = TypedInputs::new(std::rc::Rc::new(7u8));
/// assert_eq!(inputs.get::<std::rc::Rc<u8>>().map(|x| **x), Some(7));
/// let elsewhere = std::thread::spawn({
///     let inputs = inputs.clone();
///     move || inputs.get::<std::rc::Rc<u8>>().is_none()
/// });
/// assert!(elsewhere.join().unwrap());
/// ```
#[derive(Clone)]
pub struct TypedInputs(std::sync::Arc<bound::ThreadBound>);

impl TypedInputs {
    /// Erase `inputs` (a runner hands over what its property generated).
    ///
    /// ```
    /// use pbt_runners::TypedInputs;
    /// let inputs = TypedInputs::new(7u8);
    /// assert_eq!(inputs.get::<u8>(), Some(&7));
    /// assert_eq!(inputs.get::<u16>(), None);
    /// ```
    pub fn new<I: 'static>(inputs: I) -> TypedInputs {
        TypedInputs::from_any(Box::new(inputs))
    }

    /// Erased inputs as the shrinker hands them over
    /// ([`crate::components::AnyInputs`]).
    pub fn from_any(inputs: Box<dyn Any>) -> TypedInputs {
        TypedInputs(std::sync::Arc::new(bound::ThreadBound::new(inputs)))
    }

    /// The inputs, if they are an `I` and this is the thread that made
    /// them (see [`TypedInputs`]).
    pub fn get<I: 'static>(&self) -> Option<&I> {
        crate::components::held_inputs::<I>(self.0.get()?)
    }
}

impl fmt::Debug for TypedInputs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TypedInputs(..)")
    }
}

/// A value that only the thread that made it reads or drops: what makes
/// [`TypedInputs`] `Send` and `Sync` for inputs of any type. (The `fragile`
/// crate's idea, leaking rather than panicking when dropped elsewhere.)
#[allow(unsafe_code)]
mod bound {
    use std::any::Any;
    use std::mem::ManuallyDrop;
    use std::thread::{self, ThreadId};

    pub(super) struct ThreadBound {
        owner: ThreadId,
        value: ManuallyDrop<Box<dyn Any>>,
    }

    impl ThreadBound {
        pub(super) fn new(value: Box<dyn Any>) -> ThreadBound {
            ThreadBound {
                owner: thread::current().id(),
                value: ManuallyDrop::new(value),
            }
        }

        /// The value, on the thread that made it.
        pub(super) fn get(&self) -> Option<&dyn Any> {
            (thread::current().id() == self.owner).then(|| &**self.value)
        }
    }

    impl Drop for ThreadBound {
        fn drop(&mut self) {
            if thread::current().id() == self.owner {
                // SAFETY: dropped once, here, and never read again.
                unsafe { ManuallyDrop::drop(&mut self.value) }
            }
            // On another thread the value is leaked: its Drop may not run
            // there.
        }
    }

    // SAFETY: the value is read (`get`) and dropped only on the thread that
    // made it (thread ids are never reused); on any other thread the
    // struct is an id and a pointer nobody follows, and moving or sharing
    // those between threads is sound.
    unsafe impl Send for ThreadBound {}
    // SAFETY: as above: `&ThreadBound` gives the value out only on the
    // owner thread, so sharing it cannot let two threads use the value.
    unsafe impl Sync for ThreadBound {}
}

impl Failure {
    /// The counterexample as the property's own [`pbt_core::Property::Inputs`]
    /// (for a property built by `property!`, `#[property]` or
    /// [`pbt_core::property::Prop`], a [`Case`] of the variables newest
    /// first); `None` when `I` is another type or there is no typed input
    /// (see [`Failure::typed`]). [`Report::counterexample`] gives the
    /// variables as a tuple.
    ///
    /// ```
    /// use pbt_core::property::{Case, Check, Forall, Prop};
    /// use pbt_runners::{generational, Config, Regressions};
    /// let prop = Prop::new(Forall::new("x", "u32", Check::new(|&(x, ()): &(u32, ())| x < 1000)));
    /// let report = generational(&prop, Config::default().ignore_env().regressions(Regressions::Off));
    /// let case = report.failure.as_ref().unwrap().inputs::<Case<(u32, ())>>().unwrap();
    /// assert_eq!(case.env, (1000, ()));
    /// ```
    pub fn inputs<I: 'static>(&self) -> Option<&I> {
        self.typed.as_ref()?.get::<I>()
    }

    /// The input as first found, before shrinking, as the property's own
    /// `Inputs` (see [`Failure::inputs`]).
    pub fn original_inputs<I: 'static>(&self) -> Option<&I> {
        self.typed_original.as_ref()?.get::<I>()
    }
}

/// The variables of a property as one tuple, in the order they are
/// quantified: `(x,)` for one variable, `(x, y)` for `forall x; forall y`,
/// and so on up to twelve. What [`Report::counterexample`] returns; the
/// property keeps them as a cons list, newest first ([`Variables::Env`]).
///
/// ```
/// use pbt_runners::Variables;
/// // forall x: u8; forall s: String  keeps  (s, (x, ()))
/// let env = (String::from("hi"), (7u8, ()));
/// assert_eq!(<(u8, String)>::from_env(&env), (7, String::from("hi")));
/// ```
pub trait Variables: Sized + 'static {
    /// The environment of a property over these variables: `(y, (x, ()))`
    /// for `(x, y)`.
    type Env: 'static;
    /// The tuple of the variables in `env`.
    fn from_env(env: &Self::Env) -> Self;
}

/// `impl Variables` for a tuple: its type parameters with a binding name
/// each, then the environment type and pattern (newest first).
macro_rules! variables {
    ($($t:ident $v:ident),+ ; $env:ty ; $pat:pat) => {
        impl<$($t: Clone + 'static),+> Variables for ($($t,)+) {
            type Env = $env;
            fn from_env(env: &Self::Env) -> Self {
                let $pat = env;
                ($($v.clone(),)+)
            }
        }
    };
}
variables!(A a; (A, ()); (a, ()));
variables!(A a, B b; (B, (A, ())); (b, (a, ())));
variables!(A a, B b, C c; (C, (B, (A, ()))); (c, (b, (a, ()))));
variables!(A a, B b, C c, D d; (D, (C, (B, (A, ())))); (d, (c, (b, (a, ())))));
variables!(A a, B b, C c, D d, E e; (E, (D, (C, (B, (A, ()))))); (e, (d, (c, (b, (a, ()))))));
variables!(A a, B b, C c, D d, E e, F f; (F, (E, (D, (C, (B, (A, ())))))); (f, (e, (d, (c, (b, (a, ())))))));
variables!(A a, B b, C c, D d, E e, F f, G g; (G, (F, (E, (D, (C, (B, (A, ()))))))); (g, (f, (e, (d, (c, (b, (a, ()))))))));
variables!(A a, B b, C c, D d, E e, F f, G g, H h; (H, (G, (F, (E, (D, (C, (B, (A, ())))))))); (h, (g, (f, (e, (d, (c, (b, (a, ())))))))));
variables!(A a, B b, C c, D d, E e, F f, G g, H h, I i; (I, (H, (G, (F, (E, (D, (C, (B, (A, ()))))))))); (i, (h, (g, (f, (e, (d, (c, (b, (a, ()))))))))));
variables!(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j; (J, (I, (H, (G, (F, (E, (D, (C, (B, (A, ())))))))))); (j, (i, (h, (g, (f, (e, (d, (c, (b, (a, ())))))))))));
variables!(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j, K k; (K, (J, (I, (H, (G, (F, (E, (D, (C, (B, (A, ()))))))))))); (k, (j, (i, (h, (g, (f, (e, (d, (c, (b, (a, ()))))))))))));
variables!(A a, B b, C c, D d, E e, F f, G g, H h, I i, J j, K k, L l; (L, (K, (J, (I, (H, (G, (F, (E, (D, (C, (B, (A, ())))))))))))); (l, (k, (j, (i, (h, (g, (f, (e, (d, (c, (b, (a, ())))))))))))));

/// A case of a regressions file: the file and the case's number in it
/// (counting the test's saved cases from 1, in the order they are
/// replayed), and whose case it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SavedAt {
    /// The regressions file.
    pub file: String,
    /// The case's number among the test's saved cases, from 1.
    pub entry: usize,
    /// Where the case comes from.
    pub from: SavedFrom,
}

/// Where a replayed case comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SavedFrom {
    /// The test saved it (its line names the test).
    Own,
    /// A line without a test's name (as older versions wrote them), which
    /// every test of the source file replays.
    Shared,
    /// `PBT_REPLAY` named it (the file is not read).
    Env,
}

/// The serde-serialisable result of a run, the same for every runner
/// (built-in or a user's: start from [`Report::empty`], end a failure with
/// [`crate::components::report_failure`], finish with [`Report::finish`]).
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::{generational, Config, Regressions, Verdict};
/// let prop = Prop::new(Forall::new("x", "u32", Check::new(|&(x, ()): &(u32, ())| x < 1000)));
/// let config = Config::default().ignore_env().seed(1).regressions(Regressions::Off);
/// let report = generational(&prop, config);
/// assert_eq!(report.verdict, Verdict::Failed);
/// let failure = report.failure.as_ref().unwrap();
/// assert_eq!((failure.counterexample[0].name, failure.counterexample[0].value.as_str()), ("x", "1000"));
/// // Printed for people, serialised for tools.
/// assert!(report.to_string().contains("x = 1000"));
/// assert!(report.to_json().contains("\"Failed\""));
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The runner that produced it.
    pub runner: &'static str,
    /// How the run ended.
    pub verdict: Verdict,
    /// Tests run to a verdict (passed, plus the failing one).
    pub tests: u64,
    /// Tests discarded by preconditions or rejecting generators.
    pub discards: u64,
    /// Shrink steps taken (accepted simplifications).
    pub shrinks: u64,
    /// Shrink candidates tried.
    pub shrink_attempts: u64,
    /// The run seed: `PBT_SEED=<seed>` replays the run.
    pub seed: u64,
    /// Saved failures replayed before generating.
    pub replayed: u64,
    /// The counterexample, when one was found: the first failure.
    pub failure: Option<Failure>,
    /// The other failures, each of a distinct origin, of a run that goes on
    /// after its first ([`crate::Config::report_multiple`]); empty
    /// otherwise. [`Report::failures`] gives them all, the first first.
    pub more_failures: Vec<Failure>,
    /// Wall-clock time of the run.
    #[serde(serialize_with = "seconds")]
    pub elapsed: Duration,
    /// Anything else the user should know (where a failure was saved, …).
    pub notes: Vec<String>,
    /// What discarded the last test of a run that gave up: the precondition
    /// or the collection its message names.
    pub rejection: Option<pbt_core::rejection::Rejection>,
    /// What the counted tests reported (labels, classes, tables, coverage
    /// requirements), their sizes and the discard rate.
    pub statistics: Statistics,
    /// How much the run prints: what [`Report::assert_passed`] prints of a pass.
    pub verbosity: crate::Verbosity,
}

fn seconds<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl Report {
    /// Whether every test passed.
    pub fn passed(&self) -> bool {
        self.verdict == Verdict::Passed
    }

    /// Panic with the whole report unless every test passed (what
    /// `#[property_test]` ends with). A passing report is printed to
    /// stderr (which the test harness shows with `--nocapture`) when it
    /// shows statistics (`Config::show_statistics`, `PBT_STATS=1`), warns
    /// of an unmet coverage requirement, or ran nothing (`cases(0)` or
    /// `PBT_CASES=0` and no saved case: "nothing ran"), or always with
    /// [`Verbosity::Verbose`](crate::Verbosity) and above; never with
    /// [`Verbosity::Quiet`](crate::Verbosity).
    #[track_caller]
    pub fn assert_passed(&self) {
        if !self.passed() {
            panic!("{self}");
        }
        match self.verbosity {
            crate::Verbosity::Quiet => return,
            crate::Verbosity::Verbose | crate::Verbosity::Debug => {
                return crate::components::to_stderr(&format!("{self}\n"));
            }
            crate::Verbosity::Normal => {}
        }
        let warns = (self.statistics.coverage.iter())
            .any(|c| c.outcome == crate::components::statistics::CoverageOutcome::Below);
        // A pass that checked nothing (`PBT_CASES=0` and no saved case)
        // says so: silence would read as a pass.
        let nothing_ran = self.tests == 0 && self.replayed == 0 && self.discards == 0;
        if self.statistics.shown || warns || nothing_ran {
            crate::components::to_stderr(&format!("{self}\n"));
        }
    }

    /// The shrunk counterexample as values: the property's variables as a
    /// tuple in quantification order (`(x,)`, `(x, y)`, …; see
    /// [`Variables`]). `None` when the run did not fail, no input was
    /// generated, or `T` is not the tuple of the property's variable types
    /// (a property with its own `Inputs` type reads them with
    /// [`Failure::inputs`]). Every runner, and a runner of the user's that
    /// ends in [`crate::components::report_failure`], fills it in; the printed
    /// bindings stay in [`Failure::counterexample`].
    ///
    /// ```
    /// use pbt_core::property::{Check, Forall, Prop};
    /// use pbt_runners::{generational, Config, Regressions};
    /// // forall x: u32; forall ys: Vec<u8>; check ys.len() <= x as usize
    /// let prop = Prop::new(Forall::new("x", "u32", Forall::new("ys", "Vec<u8>",
    ///     Check::new(|(ys, (x, ())): &(Vec<u8>, (u32, ()))| ys.len() <= *x as usize))));
    /// let report = generational(&prop, Config::default().ignore_env().regressions(Regressions::Off));
    /// let (x, ys) = report.counterexample::<(u32, Vec<u8>)>().unwrap();
    /// assert_eq!((x, ys), (0, vec![0]));
    /// // The wrong types give `None`, not a panic.
    /// assert_eq!(report.counterexample::<(u64, Vec<u8>)>(), None);
    /// ```
    pub fn counterexample<T: Variables>(&self) -> Option<T> {
        let case = self.failure.as_ref()?.inputs::<Case<T::Env>>()?;
        Some(T::from_env(&case.env))
    }

    /// The counterexample as first found, before shrinking, as values (see
    /// [`Report::counterexample`]).
    ///
    /// ```
    /// use pbt_core::property::{Check, Forall, Prop};
    /// use pbt_runners::{generational, Config, Regressions};
    /// let prop = Prop::new(Forall::new("x", "u32", Check::new(|&(x, ()): &(u32, ())| x < 1000)));
    /// let report = generational(&prop, Config::default().ignore_env().regressions(Regressions::Off));
    /// let (found,) = report.original::<(u32,)>().unwrap();
    /// assert!(found >= 1000);
    /// ```
    pub fn original<T: Variables>(&self) -> Option<T> {
        let case = self.failure.as_ref()?.original_inputs::<Case<T::Env>>()?;
        Some(T::from_env(&case.env))
    }

    /// Every failure of the run, the first ([`Report::failure`]) first:
    /// one, or with [`crate::Config::report_multiple`] one per distinct
    /// origin. Empty when the run did not fail.
    ///
    /// ```
    /// use pbt_core::property::{Check, Forall, Prop};
    /// use pbt_runners::{generational, Config, Regressions};
    /// // Two bugs: a panic for odd x, another for x of 1000 or more.
    /// let prop = Prop::new(Forall::new("x", "u32", Check::new(|&(x, ()): &(u32, ())| {
    ///     assert!(x % 2 == 0, "odd");
    ///     assert!(x < 1000, "large");
    /// })));
    /// let config = Config::default().ignore_env().regressions(Regressions::Off).cases(500);
    /// assert_eq!(generational(&prop, config.clone()).failures().count(), 1);
    /// let report = generational(&prop, config.report_multiple(true));
    /// let mut shrunk: Vec<_> = report.failures().map(|f| f.counterexample[0].value.clone()).collect();
    /// shrunk.sort();
    /// assert_eq!(shrunk, ["1", "1000"]);
    /// assert!(report.to_string().contains("2 distinct failures"));
    /// ```
    pub fn failures(&self) -> impl Iterator<Item = &Failure> {
        self.failure.iter().chain(&self.more_failures)
    }

    /// The report as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.elapsed.as_secs_f64();
        match self.verdict {
            Verdict::Passed if self.tests == 0 && self.replayed == 0 && self.discards == 0 => {
                write!(
                    f,
                    "pbt ({}): nothing ran: 0 tests and no saved case (cases is 0; is \
                     PBT_CASES=0 set?), so nothing was checked; seed {:#x}",
                    self.runner, self.seed
                )?
            }
            Verdict::Passed => write!(
                f,
                "pbt ({}): passed {} tests ({} discarded){} in {secs:.3}s, seed {:#x}",
                self.runner,
                self.tests,
                self.discards,
                match self.replayed {
                    0 => String::new(),
                    n => format!(" and {n} saved cases"),
                },
                self.seed
            )?,
            Verdict::GaveUp => {
                write!(
                    f,
                    "pbt ({}): gave up after {} passed tests and {} discards: ",
                    self.runner, self.tests, self.discards
                )?;
                gave_up_because(f, self.rejection)?;
                write!(f, " Seed {:#x}", self.seed)?;
            }
            Verdict::InsufficientCoverage => {
                write!(
                    f,
                    "pbt ({}): insufficient coverage after {} passed tests ({} discarded):",
                    self.runner, self.tests, self.discards
                )?;
                for c in self.statistics.failed_requirements() {
                    write!(
                        f,
                        "\n    `{}` held in {:.1}% of tests ({} of {}), but {}% is required",
                        c.label, c.observed, c.covered, c.tests, c.required
                    )?;
                }
                if let Some(check) = self.statistics.check {
                    write!(
                        f,
                        "\n(checked with certainty {:e}, tolerance {}, at most {} tests; seed {:#x})",
                        check.certainty, check.tolerance, check.max_tests, self.seed
                    )?;
                }
            }
            Verdict::Failed => {
                self.failure.as_ref().ok_or(fmt::Error)?;
                // Several distinct failures (`Config::report_multiple`):
                // a line for the run, then each failure as one is shown.
                let count = self.failures().count();
                if count > 1 {
                    write!(
                        f,
                        "pbt ({}): {count} distinct failures after {} test{} ({} discarded); each \
                         is shrunk, saved and shown on its own:",
                        self.runner,
                        self.tests,
                        if self.tests == 1 { "" } else { "s" },
                        self.discards
                    )?;
                }
                for (i, fail) in self.failures().enumerate() {
                    self.write_failure(f, fail, i, count)?;
                }
            }
        }
        if self.statistics.worth_showing(self.passed()) {
            write!(f, "\n{}", self.statistics)?;
        }
        for note in &self.notes {
            write!(f, "\nnote: {note}")?;
        }
        Ok(())
    }
}

impl Report {
    /// One failure of a failed report, `index` of `count` (one, or one per
    /// distinct origin with `Config::report_multiple`): its first line,
    /// counterexample, reason, and how to replay it.
    fn write_failure(
        &self,
        f: &mut fmt::Formatter<'_>,
        fail: &Failure,
        index: usize,
        count: usize,
    ) -> fmt::Result {
        let (shrinks, shrink_attempts) = match count {
            1 => (self.shrinks, self.shrink_attempts),
            _ => (fail.shrinks, fail.shrink_attempts),
        };
        match count {
            1 => write!(f, "pbt ({}): property failed ", self.runner)?,
            _ => write!(f, "\n\nfailure {} of {count}: ", index + 1)?,
        }
        match &fail.replayed_from {
            Some(saved) => match saved.from {
                SavedFrom::Own => write!(
                    f,
                    "on its saved case {} (run seed {:#x}); ",
                    saved.entry, self.seed
                )?,
                SavedFrom::Shared => write!(
                    f,
                    "on saved case {} of its source file's regressions file, a line \
                     that names no test (run seed {:#x}); ",
                    saved.entry, self.seed
                )?,
                SavedFrom::Env => write!(
                    f,
                    "on the case PBT_REPLAY names (run seed {:#x}); ",
                    self.seed
                )?,
            },
            None if count > 1 => {}
            None => write!(
                f,
                "after {} test{} ({} discarded); ",
                self.tests,
                if self.tests == 1 { "" } else { "s" },
                self.discards
            )?,
        }
        match fail.shrinker {
            Some(shrinker) => writeln!(
                f,
                "shrunk in {shrinks} steps ({shrink_attempts} tried) by the \
                 {shrinker} shrinker."
            )?,
            // Nothing shrank it: a generator fault, `max_shrinks(0)`,
            // an input that no longer generates.
            None if shrink_attempts == 0 => writeln!(f, "not shrunk.")?,
            None => writeln!(
                f,
                "shrunk in {shrinks} steps ({shrink_attempts} tried) by no shrinker."
            )?,
        }
        writeln!(f, "counterexample:")?;
        for b in &fail.counterexample {
            // Marked by the explain phase: this variable does not
            // matter (Hypothesis's words).
            let free = match fail.any_value_fails.contains(&b.name) {
                true => "    (or any other generated value)",
                false => "",
            };
            writeln!(f, "    {} = {}{free}", b.name, b.value)?;
        }
        if fail.counterexample.is_empty() {
            writeln!(f, "    (no input: generating it failed)")?;
        }
        writeln!(f, "reason: {}", fail.reason)?;
        if !fail.notes.is_empty() {
            writeln!(f, "notes:")?;
            for note in &fail.notes {
                writeln!(f, "    {note}")?;
            }
        }
        if fail.original != fail.counterexample {
            f.write_str("first found as: ")?;
            for (i, b) in fail.original.iter().enumerate() {
                let comma = if i == 0 { "" } else { ", " };
                // A value printed on several lines (a state
                // machine's program with its reproducer) is
                // summarised: the report shows the shrunk one.
                match b.value.lines().count() {
                    0 | 1 => write!(f, "{comma}{b}")?,
                    lines => write!(
                        f,
                        "{comma}{} = <{lines} lines, not shown: the shrunk value above is the \
                         one to read; Report::original gives it>",
                        b.name
                    )?,
                }
            }
            writeln!(f)?;
        }
        if fail.flaky {
            writeln!(
                f,
                "flaky: the counterexample passed when run again; the failure depends on \
                 more than the input (time, shared state, test order)"
            )?;
        }
        match (&fail.choices, fail.mutations.len()) {
            _ if fail.replayed_from.as_ref().is_some_and(|s| s.from == SavedFrom::Env) => {
                write!(f, "replayed from PBT_REPLAY")?
            }
            _ if fail.replayed_from.is_some() => {
                let saved = fail.replayed_from.as_ref().ok_or(fmt::Error)?;
                write!(
                    f,
                    "replayed from {}, saved case {} (it fails again on every run while \
                     the file keeps it)",
                    saved.file, saved.entry
                )?
            }
            (None, 0) if fail.replay.is_some() => write!(
                f,
                "seed: {:#x} (replay the run with PBT_SEED={:#x})",
                self.seed, self.seed
            )?,
            (None, 0) => write!(
                f,
                "seed: {:#x} (replay the run with PBT_SEED={:#x}; this case alone: seed {:#x} at size {})",
                self.seed, self.seed, fail.case_seed, fail.size
            )?,
            (None, mutations) => write!(
                f,
                "seed: {:#x}; the input was found by {mutations} value mutations of the case with seed {:#x} at size {} (saved with the regressions)",
                self.seed, fail.case_seed, fail.size
            )?,
            (Some(choices), mutations) => write!(
                f,
                "seed: {:#x}; the input is replayed from {} choices{} at size {} (saved with the regressions)",
                self.seed,
                choices.len(),
                if mutations > 0 { format!(" then {mutations} value mutations") } else { String::new() },
                fail.size
            )?,
        }
        if let Some(replay) = &fail.replay {
            write!(f, "\nreplay this case alone: {replay}")?;
        }
        Ok(())
    }
}

/// Why a run gave up, and what to write instead.
fn gave_up_because(
    f: &mut fmt::Formatter<'_>,
    rejection: Option<pbt_core::rejection::Rejection>,
) -> fmt::Result {
    use pbt_core::rejection::Rejection;
    match rejection {
        Some(Rejection::MinimumLength { min, reached }) => write!(
            f,
            "a collection of distinct elements (a set, a map, `vec_unique`) could not reach \
             its minimum length of {min}: its element generator gave only {reached} distinct \
             values before repeating itself. This is not a precondition. Draw the elements \
             from a wider generator (`int(0..=u32::MAX)` is uniform over every u32, while \
             `any::<u32>()` stays small at small sizes), or lower the minimum length."
        ),
        Some(why) => write!(
            f,
            "{why} rejected almost every generated input (it discarded the last one). Generate valid inputs directly, with `#[with = …]` \
             on the parameter (or `forall x: T, #[with = …]` in `property!`), or loosen the \
             precondition."
        ),
        None => write!(
            f,
            "the preconditions (implies / assume! / filter / ensure) reject almost every \
             generated input. Generate valid inputs directly, with `#[with = …]` on the \
             parameter (or `forall x: T, #[with = …]` in `property!`), or loosen the \
             precondition."
        ),
    }
}

//! Running a [`Program`] against the model and the system, and printing it:
//! as a numbered trace with each step's results, and as Rust a user can
//! paste into a `#[test]`.

use super::machine::{as_expression, variants_import, StateMachine};
use super::program::Program;
use pbt_core::Outcome;
use std::fmt::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The message of a panic payload.
pub(super) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    match (
        payload.downcast_ref::<&str>(),
        payload.downcast_ref::<String>(),
    ) {
        (Some(s), _) => (*s).to_string(),
        (_, Some(s)) => s.clone(),
        _ => "a non-string panic payload".into(),
    }
}

/// What one step did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepVerdict {
    /// Results agreed and the invariant held.
    Agreed,
    /// The postcondition rejected the system's result.
    Disagreed,
    /// The invariant failed after the step, with its reason.
    Broke(String),
    /// User code panicked in the step (only when printing: see [`print()`]),
    /// with the panic's message.
    Panicked(String),
}

/// The record of running a program: each step's command, expected and
/// actual results (printed), and how the run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// One line per step run: `(command, model's result, system's result)`.
    pub steps: Vec<(String, String, String)>,
    /// The verdict of the last step run (the first that failed, if any).
    pub verdict: StepVerdict,
}

impl Trace {
    /// The index of the failing step, if the program failed.
    pub fn failing_step(&self) -> Option<usize> {
        (self.verdict != StepVerdict::Agreed).then(|| self.steps.len() - 1)
    }
}

/// Run `program` on a fresh model and system, stopping at the first step
/// whose postcondition or invariant fails. Panics in user code propagate
/// (runners catch them).
pub fn execute<M: StateMachine>(machine: &M, program: &Program<M>) -> Trace {
    run_steps(machine, program, Faults::Propagate)
}

/// What a panic in user code does while running a program.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Faults {
    /// Unwind to the caller (the runner reports it).
    Propagate,
    /// End the trace at that step with [`StepVerdict::Panicked`].
    Record,
}

fn run_steps<M: StateMachine>(machine: &M, program: &Program<M>, faults: Faults) -> Trace {
    let mut model = machine.init_model();
    let mut system = machine.init_system();
    let mut steps = Vec::with_capacity(program.len());
    for cmd in program.commands() {
        let mut step = || {
            let expected = machine.apply_model(&mut model, cmd);
            let actual = machine.apply_system(&mut system, cmd);
            (expected, actual)
        };
        let (expected, actual) = match faults {
            Faults::Propagate => step(),
            Faults::Record => match catch_unwind(AssertUnwindSafe(step)) {
                Ok(results) => results,
                Err(payload) => {
                    let why = panic_message(&*payload);
                    let cmd = machine.print_command(cmd);
                    steps.push((cmd, "?".into(), format!("<panicked: {why}>")));
                    return Trace {
                        steps,
                        verdict: StepVerdict::Panicked(why),
                    };
                }
            },
        };
        steps.push((
            machine.print_command(cmd),
            format!("{expected:?}"),
            format!("{actual:?}"),
        ));
        if !machine.postcondition(cmd, &expected, &actual) {
            return Trace {
                steps,
                verdict: StepVerdict::Disagreed,
            };
        }
        if let Err(why) = machine.invariant(&model, &system) {
            return Trace {
                steps,
                verdict: StepVerdict::Broke(why),
            };
        }
    }
    Trace {
        steps,
        verdict: StepVerdict::Agreed,
    }
}

/// The check of a state-machine property: [`execute`], then the verdict.
/// A failure names the step, the command, and both results.
///
/// Only the failing step is printed: a passing step's command and results
/// are never formatted (in an unoptimised build, formatting every step of
/// every candidate was a quarter of shrinking a program).
pub fn check<M: StateMachine>(machine: &M, program: &Program<M>) -> Outcome {
    if !program.is_valid(machine) {
        // Never produced by pbt's generator or shrinker; a program built or
        // edited by hand may be invalid.
        return Outcome::Discard;
    }
    let mut model = machine.init_model();
    let mut system = machine.init_system();
    for (i, c) in program.commands().enumerate() {
        let expected = machine.apply_model(&mut model, c);
        let actual = machine.apply_system(&mut system, c);
        let broke = match machine.postcondition(c, &expected, &actual) {
            false => None,
            true => match machine.invariant(&model, &system) {
                Ok(()) => continue,
                Err(why) => Some(why),
            },
        };
        let cmd = machine.print_command(c);
        let (expected, actual) = (format!("{expected:?}"), format!("{actual:?}"));
        return Outcome::Fail(match broke {
            Some(why) => format!(
                "step {}: after {cmd} the invariant failed: {why} (model returned {expected}, system returned {actual})",
                i + 1
            ),
            None => format!(
                "step {}: {cmd}: the system returned {actual}, the model expected {expected}",
                i + 1
            ),
        });
    }
    Outcome::Pass
}

/// The program as a numbered list with each step's results (running it),
/// followed by a Rust reproducer: statements that replay it on the system
/// alone, asserting the model's results, ready to paste into a `#[test]`.
///
/// A panic in user code ends the printed program at that step, marked with
/// the panic's message (the check itself lets it unwind to the runner).
/// Steps after the failing one are not run, and counted: `(3 more steps,
/// not run)`; a shrunk program has none.
pub fn print<M: StateMachine>(machine: &M, program: &Program<M>) -> String {
    let trace = run_steps(machine, program, Faults::Record);
    let mut out = String::new();
    for (i, (cmd, expected, actual)) in trace.steps.iter().enumerate() {
        let mark = if trace.failing_step() == Some(i) {
            "   <-- fails here"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  {}. {cmd}  // model: {expected}, system: {actual}{mark}",
            i + 1
        );
    }
    if let StepVerdict::Broke(why) = &trace.verdict {
        let _ = writeln!(out, "  invariant: {why}");
    }
    // Steps after the failing one are part of the value: a program that
    // prints them (as a count) prints differently without them, so the
    // shrinkers, which take only a candidate that prints differently,
    // delete them, and the counterexample is the program printed.
    match program.len() - trace.steps.len() {
        0 => {}
        1 => out.push_str("  (1 more step, not run)\n"),
        n => {
            let _ = writeln!(out, "  ({n} more steps, not run)");
        }
    }
    let _ = writeln!(out, "reproducer (paste into a #[test]):");
    out.push_str(&reproducer(machine, &trace));
    out
}

/// The Rust statements of [`print()`]'s reproducer: each step as a call of
/// [`StateMachine::apply_system`], the steps before the failing one run
/// for their effect, and the failing step asserted against the model's
/// result (or, for an invariant, run and commented).
pub fn reproducer<M: StateMachine>(machine: &M, trace: &Trace) -> String {
    let mut out = String::new();
    out.push_str(&variants_import::<M::Command>());
    let _ = writeln!(out, "    use pbt::stateful::StateMachine;");
    let _ = writeln!(out, "    let machine = {};", machine.print_machine());
    let _ = writeln!(out, "    let mut system = machine.init_system();");
    for (i, (cmd, expected, _)) in trace.steps.iter().enumerate() {
        let call = format!("machine.apply_system(&mut system, &{cmd})");
        if trace.failing_step() == Some(i) && trace.verdict == StepVerdict::Disagreed {
            let expected = as_expression::<M::Output>(expected);
            let _ = writeln!(out, "    assert_eq!({call}, {expected});");
        } else {
            let _ = writeln!(out, "    {call};");
        }
    }
    match &trace.verdict {
        StepVerdict::Broke(why) => {
            let _ = writeln!(out, "    // here the invariant fails: {why}");
        }
        StepVerdict::Panicked(why) => {
            let _ = writeln!(out, "    // the last call panics: {why}");
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::check;
    use crate::StateMachine;
    use pbt_core::gen::{int, Gen};
    use pbt_core::{Outcome, Rng};
    use std::fmt;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// How many times a [`Counted`] was formatted.
    static FORMATTED: AtomicUsize = AtomicUsize::new(0);

    /// An output that counts its formatting.
    #[derive(PartialEq)]
    struct Counted(u64);

    impl fmt::Debug for Counted {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            FORMATTED.fetch_add(1, Ordering::Relaxed);
            write!(f, "Counted({})", self.0)
        }
    }

    /// A sum, whose system is wrong once it passes `limit`.
    struct Sum {
        limit: u64,
    }

    impl StateMachine for Sum {
        type Model = u64;
        type System = u64;
        type Command = u8;
        type Output = Counted;
        fn init_model(&self) -> u64 {
            0
        }
        fn init_system(&self) -> u64 {
            0
        }
        fn commands<'a>(&'a self, _: &'a u64) -> impl Gen<Value = u8> + 'a {
            int(1..=9u8)
        }
        fn apply_model(&self, s: &mut u64, c: &u8) -> Counted {
            *s += u64::from(*c);
            Counted(*s)
        }
        fn apply_system(&self, s: &mut u64, c: &u8) -> Counted {
            *s += u64::from(*c);
            Counted((*s).min(self.limit))
        }
    }

    #[test]
    fn check_formats_only_the_failing_step() {
        let program = (Sum { limit: u64::MAX }).programs();
        let program = (0..)
            .map(|seed| program.generate(&mut Rng::from_seed(seed), 20).unwrap())
            .find(|p| p.len() >= 10)
            .unwrap();
        FORMATTED.store(0, Ordering::Relaxed);
        assert_eq!(check(&Sum { limit: u64::MAX }, &program), Outcome::Pass);
        assert_eq!(FORMATTED.load(Ordering::Relaxed), 0, "a passing step");
        let failing = Sum { limit: 9 };
        let Outcome::Fail(why) = check(&failing, &program) else {
            panic!("the sum passes 9 within 10 steps of at least 1");
        };
        // The failing step's two results, once each.
        assert_eq!(FORMATTED.load(Ordering::Relaxed), 2, "{why}");
        assert!(why.contains("the system returned Counted(9)"), "{why}");
    }
}

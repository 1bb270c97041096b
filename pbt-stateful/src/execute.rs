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
    // Never produced by pbt's generator or shrinker; a program built or
    // edited by hand may be invalid. A drawn one is valid by construction
    // (each command drawn until its precondition holds).
    if !program.drawn && !program.is_valid(machine) {
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
    let mut out = String::new();
    print_into(&mut out, machine, program, &reproducer_header(machine));
    out
}

/// [`print()`] at the end of `out`, with the reproducer's first lines
/// given ([`reproducer_header`]): a printer that prints many programs of
/// one machine (a shrinker prints each program it takes) writes them once.
pub(crate) fn print_into<M: StateMachine>(
    out: &mut String,
    machine: &M,
    program: &Program<M>,
    header: &str,
) {
    let trace = run_steps(machine, program, Faults::Record);
    // Written piece by piece into a string sized for it: a shrinker prints
    // each program it takes, and in an unoptimised build a `writeln!` per
    // step cost more than running the program (and a `push_str` costs
    // about 350 instructions, so constant pieces are pushed whole).
    let texts: usize = (trace.steps.iter())
        .map(|(cmd, expected, actual)| 2 * cmd.len() + expected.len() + actual.len())
        .sum();
    out.reserve(header.len() + texts + 96 * trace.steps.len() + 256);
    for (i, (cmd, expected, actual)) in trace.steps.iter().enumerate() {
        out.push_str("  ");
        push_number(out, i + 1);
        for part in [". ", cmd, "  // model: ", expected, ", system: ", actual] {
            out.push_str(part);
        }
        if trace.failing_step() == Some(i) {
            out.push_str("   <-- fails here");
        }
        out.push('\n');
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
    out.push_str("reproducer (paste into a #[test]):\n");
    out.push_str(header);
    reproducer_steps::<M>(out, &trace);
}

/// `n` in decimal, at the end of `out`.
fn push_number(out: &mut String, n: usize) {
    if n >= 10 {
        push_number(out, n / 10);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

/// The Rust statements of [`print()`]'s reproducer: each step as a call of
/// [`StateMachine::apply_system`], the steps before the failing one run
/// for their effect, and the failing step asserted against the model's
/// result (or, for an invariant, run and commented).
pub fn reproducer<M: StateMachine>(machine: &M, trace: &Trace) -> String {
    let mut out = reproducer_header(machine);
    reproducer_steps::<M>(&mut out, trace);
    out
}

/// The first lines of a [`reproducer`] of `machine`'s programs (the
/// imports, the machine, the system), the same for each of them.
pub(crate) fn reproducer_header<M: StateMachine>(machine: &M) -> String {
    let mut out = variants_import::<M::Command>();
    out.push_str("    use pbt::stateful::StateMachine;\n    let machine = ");
    out.push_str(&machine.print_machine());
    out.push_str(";\n    let mut system = machine.init_system();\n");
    out
}

/// The lines of a [`reproducer`] after its [header](reproducer_header):
/// the steps of `trace`, at the end of `out`.
fn reproducer_steps<M: StateMachine>(out: &mut String, trace: &Trace) {
    for (i, (cmd, expected, _)) in trace.steps.iter().enumerate() {
        let asserted = trace.failing_step() == Some(i) && trace.verdict == StepVerdict::Disagreed;
        out.push_str(match asserted {
            true => "    assert_eq!(machine.apply_system(&mut system, &",
            false => "    machine.apply_system(&mut system, &",
        });
        out.push_str(cmd);
        if asserted {
            let expected = as_expression::<M::Output>(expected);
            for part in ["), ", &expected, ");\n"] {
                out.push_str(part);
            }
        } else {
            out.push_str(");\n");
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

    thread_local! {
        /// How many steps a [`Counted`] machine's system ran, and how many
        /// preconditions it checked, on this thread.
        static COUNTS: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, 0)) };
    }

    /// A counter whose system and preconditions count their runs
    /// ([`COUNTS`]); it fails past `limit`.
    struct Counter {
        limit: u64,
    }

    impl StateMachine for Counter {
        type Model = u64;
        type System = u64;
        type Command = u8;
        type Output = u64;
        fn init_model(&self) -> u64 {
            0
        }
        fn init_system(&self) -> u64 {
            0
        }
        fn commands<'a>(&'a self, _: &'a u64) -> impl Gen<Value = u8> + 'a {
            int(1..=9u8)
        }
        fn precondition(&self, _: &u64, _: &u8) -> bool {
            COUNTS.with(|c| c.set((c.get().0, c.get().1 + 1)));
            true
        }
        fn apply_model(&self, s: &mut u64, c: &u8) -> u64 {
            *s += u64::from(*c);
            *s
        }
        fn apply_system(&self, s: &mut u64, c: &u8) -> u64 {
            COUNTS.with(|c| c.set((c.get().0 + 1, c.get().1)));
            *s += u64::from(*c);
            (*s).min(self.limit)
        }
        fn print_machine(&self) -> String {
            MACHINE_PRINTS.with(|n| n.set(n.get() + 1));
            format!("Counter {{ limit: {} }}", self.limit)
        }
    }

    thread_local! {
        /// How many times a [`Counter`] was printed as a Rust expression
        /// on this thread.
        static MACHINE_PRINTS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// What `f` adds to this thread's [`COUNTS`].
    fn counted(f: impl FnOnce()) -> (usize, usize) {
        let before = COUNTS.with(|c| c.get());
        f();
        let after = COUNTS.with(|c| c.get());
        (after.0 - before.0, after.1 - before.1)
    }

    /// A program of `machine` drawn from `seed` with at least `len` steps,
    /// and its choices.
    fn drawn(machine: Counter, len: usize) -> (crate::Programs<Counter>, Vec<u64>) {
        let programs = machine.programs();
        let choices = (0..)
            .map(|seed| {
                let mut tracer = pbt_core::choices::Tracer::new(Rng::from_seed(seed));
                let program = programs.generate(&mut tracer, 20).unwrap();
                (program.len(), tracer.into_replayed().choices)
            })
            .find(|(n, _)| *n >= len)
            .unwrap()
            .1;
        (programs, choices)
    }

    #[test]
    fn a_program_drawn_from_the_choices_printed_last_prints_without_running() {
        use pbt_core::choices::Replay;
        let (programs, choices) = drawn(Counter { limit: 30 }, 10);
        let printer = programs.printer();
        let machine = Counter { limit: 30 };
        let replay = |choices: &[u64]| programs.generate(&mut Replay::new(choices), 20).unwrap();
        let program = replay(&choices);
        let mut first = String::new();
        let (runs, _) = counted(|| first = printer(&program));
        assert!(runs > 0, "the first print runs the program");
        assert_eq!(first, format!("\n{}", super::print(&machine, &program)));
        // Drawn again from the same choices: printed as it was.
        let (runs, _) = counted(|| assert_eq!(printer(&replay(&choices)), first));
        assert_eq!(runs, 0, "printed again from the same choices");
        // Other choices, and a program the external shrinker made (not
        // drawn in place): run and printed afresh.
        let mut fewer = choices.clone();
        let last = fewer.len() - 1;
        fewer[last] = 0;
        let other = replay(&fewer);
        let (runs, _) = counted(|| {
            let printed = printer(&other);
            assert_eq!(printed, format!("\n{}", super::print(&machine, &other)));
        });
        assert!(runs > 0);
        let edited = programs.shrink(&program).find(|p| p.len() >= 2).unwrap();
        let (runs, _) = counted(|| {
            let printed = printer(&edited);
            assert_eq!(printed, format!("\n{}", super::print(&machine, &edited)));
        });
        assert!(runs > 0, "a program edited by value is run");
    }

    #[test]
    fn a_printer_writes_the_reproducers_first_lines_once() {
        use pbt_core::choices::Replay;
        let (programs, choices) = drawn(Counter { limit: 30 }, 10);
        let machine = Counter { limit: 30 };
        let printer = programs.printer();
        let before = MACHINE_PRINTS.with(|n| n.get());
        // Programs of several lengths, each printed afresh (other choices),
        // as a shrinker prints each program it takes.
        let mut printed = Vec::new();
        for end in [choices.len(), choices.len() / 2, choices.len() / 3] {
            let mut fewer = choices.clone();
            fewer.truncate(end);
            let program = programs.generate(&mut Replay::new(&fewer), 20).unwrap();
            printed.push((printer(&program), program));
        }
        assert_eq!(MACHINE_PRINTS.with(|n| n.get()) - before, 1);
        for (text, program) in &printed {
            assert!(text.contains("let machine = Counter { limit: 30 };"));
            assert_eq!(*text, format!("\n{}", super::print(&machine, program)));
        }
    }

    #[test]
    fn check_walks_a_drawn_program_once() {
        let (programs, choices) = drawn(Counter { limit: u64::MAX }, 10);
        let machine = Counter { limit: u64::MAX };
        let program = programs
            .generate(&mut pbt_core::choices::Replay::new(&choices), 20)
            .unwrap();
        let (runs, preconditions) =
            counted(|| assert_eq!(check(&machine, &program), Outcome::Pass));
        assert_eq!((runs, preconditions), (program.len(), 0));
        // Edited by value: checked valid first.
        let edited = programs.shrink(&program).find(|p| p.len() >= 2).unwrap();
        let (_, preconditions) = counted(|| assert_eq!(check(&machine, &edited), Outcome::Pass));
        assert!(preconditions >= edited.len());
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

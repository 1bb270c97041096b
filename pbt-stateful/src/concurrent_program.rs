//! [`ConcurrentProgram`]: a sequential prefix, then one command list per
//! thread; its generator [`ConcurrentPrograms`] and the edits that shrink it.
//!
//! A concurrent program is *valid* when its prefix is (every precondition
//! holds in the state it meets) and, from the model state after the prefix,
//! *every* interleaving of the threads' lists meets only commands whose
//! precondition holds — any of them may be the one that runs. Generation
//! keeps a thread's command only when that stays true; every shrink
//! candidate is checked for it.

use super::concurrent::{run_concurrent, ConcurrentMachine, ConcurrentVerdict};
use super::linearize::interleavings_valid;
use super::machine::{variants_import, StateMachine};
use super::program::{
    continuation_bound, draw_command, grow, guard, Next, Program, ProgramStep, Programs,
};
use pbt_core::choices::{shortlex_lt, Choices, Recorder, Replay};
use pbt_core::gen::{Gen, Generated};
use pbt_core::shrink::choices::simplifications;
use pbt_core::shrink::Candidates;
use pbt_core::Source;
use std::fmt::{self, Write};
use std::sync::Arc;

/// A sequential prefix, then one command list per thread, run at once.
///
/// ```
/// use pbt::generators::Gen;
/// use pbt::stateful::ConcurrentMachine;
/// # use pbt::generators::{int};
/// # use pbt::stateful::StateMachine;
/// # use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
/// # #[derive(Debug)] struct Adder;
/// # impl StateMachine for Adder {
/// #     type Model = u64; type System = AtomicU64; type Command = u8; type Output = ();
/// #     fn init_model(&self) -> u64 { 0 }
/// #     fn init_system(&self) -> AtomicU64 { AtomicU64::new(0) }
/// #     fn commands<'a>(&'a self, _: &'a u64) -> impl Gen<Value = u8> + 'a { int(0..=9u8) }
/// #     fn apply_model(&self, s: &mut u64, c: &u8) { *s += *c as u64 }
/// #     fn apply_system(&self, s: &mut AtomicU64, c: &u8) { self.apply_shared(s, c) }
/// # }
/// # impl ConcurrentMachine for Adder {
/// #     fn apply_shared(&self, s: &AtomicU64, c: &u8) { s.fetch_add(*c as u64, SeqCst); }
/// # }
/// let program = Adder.concurrent_programs().generate(&mut pbt::Rng::from_seed(3), 10).unwrap();
/// assert_eq!(program.threads().len(), 2);
/// assert!(program.threads().iter().all(|t| t.len() <= 4));
/// assert!(program.is_valid(&Adder));
/// ```
pub struct ConcurrentProgram<M: StateMachine> {
    prefix: Program<M>,
    threads: Vec<Vec<ProgramStep<M>>>,
}

impl<M: StateMachine> Clone for ConcurrentProgram<M> {
    fn clone(&self) -> Self {
        ConcurrentProgram {
            prefix: self.prefix.clone(),
            threads: self.threads.clone(),
        }
    }
}

impl<M: StateMachine> fmt::Debug for ConcurrentProgram<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let threads: Vec<Vec<&M::Command>> = self
            .threads
            .iter()
            .map(|t| t.iter().map(|s| &s.command).collect())
            .collect();
        f.debug_struct("ConcurrentProgram")
            .field("prefix", &self.prefix)
            .field("threads", &threads)
            .finish()
    }
}

impl<M: StateMachine> ConcurrentProgram<M> {
    /// A program built by hand: the `prefix` commands, then one command
    /// list per thread (what a printed reproducer calls). It is not checked:
    /// see [`ConcurrentProgram::is_valid`].
    ///
    /// ```
    /// # use pbt::stateful::{ConcurrentMachine, ConcurrentProgram, StateMachine};
    /// # use pbt::generators::{int, Gen};
    /// # use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
    /// # #[derive(Debug)] struct Adder;
    /// # impl StateMachine for Adder {
    /// #     type Model = u64; type System = AtomicU64; type Command = u8; type Output = ();
    /// #     fn init_model(&self) -> u64 { 0 }
    /// #     fn init_system(&self) -> AtomicU64 { AtomicU64::new(0) }
    /// #     fn commands<'a>(&'a self, _: &'a u64) -> impl Gen<Value = u8> + 'a { int(0..=9u8) }
    /// #     fn apply_model(&self, s: &mut u64, c: &u8) { *s += *c as u64 }
    /// #     fn apply_system(&self, s: &mut AtomicU64, c: &u8) { self.apply_shared(s, c) }
    /// # }
    /// # impl ConcurrentMachine for Adder {
    /// #     fn apply_shared(&self, s: &AtomicU64, c: &u8) { s.fetch_add(*c as u64, SeqCst); }
    /// # }
    /// let program = ConcurrentProgram::<Adder>::from_commands(vec![1], vec![vec![2, 3], vec![4]]);
    /// assert_eq!((program.len(), program.concurrent_len()), (4, 3));
    /// assert!(program.is_valid(&Adder));
    /// ```
    pub fn from_commands(prefix: Vec<M::Command>, threads: Vec<Vec<M::Command>>) -> Self {
        let steps =
            |commands: Vec<M::Command>| commands.into_iter().map(ProgramStep::new).collect();
        ConcurrentProgram {
            prefix: Program {
                steps: steps(prefix),
                size: 0,
                machine: None,
                drawn: false,
            },
            threads: threads.into_iter().map(steps).collect(),
        }
    }

    /// The sequential prefix.
    pub fn prefix(&self) -> &Program<M> {
        &self.prefix
    }

    /// The steps of each thread, in order.
    pub fn threads(&self) -> &[Vec<ProgramStep<M>>] {
        &self.threads
    }

    /// The number of commands, prefix and threads together.
    pub fn len(&self) -> usize {
        self.prefix.len() + self.concurrent_len()
    }

    /// Whether there is no command.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of commands run on the threads.
    pub fn concurrent_len(&self) -> usize {
        self.threads.iter().map(Vec::len).sum()
    }
}

impl<M: ConcurrentMachine> ConcurrentProgram<M> {
    /// Whether the prefix is valid and every interleaving of the threads
    /// meets only commands whose precondition holds (always true of the
    /// programs pbt generates and shrinks).
    pub fn is_valid(&self, machine: &M) -> bool {
        guard(|| {
            let Some(model) = model_after(machine, &self.prefix) else {
                return false;
            };
            interleavings_valid(machine, &model, &self.threads)
        })
        .unwrap_or(false)
    }
}

/// The model after `prefix`, or `None` if a precondition fails on the way.
fn model_after<M: StateMachine>(machine: &M, prefix: &Program<M>) -> Option<M::Model> {
    let mut model = machine.init_model();
    for step in &prefix.steps {
        if !machine.precondition(&model, &step.command) {
            return None;
        }
        machine.apply_model(&mut model, &step.command);
    }
    Some(model)
}

/// The generator of a machine's concurrent programs: the value of
/// [`ConcurrentMachine::concurrent_programs`].
///
/// The prefix is drawn as [`Programs`] draws a program (at most
/// [`ConcurrentMachine::prefix_steps`] commands); then each thread in turn
/// gets commands (at most [`ConcurrentMachine::thread_steps`]), each drawn
/// from the model state after the prefix and that thread's earlier
/// commands, and kept only if every interleaving stays valid. Like a
/// program, a concurrent program is a function of its choices.
pub struct ConcurrentPrograms<M> {
    machine: Arc<M>,
}

impl<M> Clone for ConcurrentPrograms<M> {
    fn clone(&self) -> Self {
        ConcurrentPrograms {
            machine: Arc::clone(&self.machine),
        }
    }
}

impl<M: ConcurrentMachine> ConcurrentPrograms<M> {
    /// The concurrent programs of `machine`.
    pub fn new(machine: M) -> Self {
        ConcurrentPrograms {
            machine: Arc::new(machine),
        }
    }

    /// The machine.
    pub fn machine(&self) -> &Arc<M> {
        &self.machine
    }

    /// Candidates simpler than `program`, each one valid: empty a thread;
    /// delete one thread step; shrink the prefix (as
    /// [`Programs::shrink`]); move a thread's first command to the end of
    /// the prefix; simplify one thread step's choices, regenerating it in
    /// its thread's model state. Every candidate has fewer commands, or as
    /// many with fewer on the threads, or one step's choices smaller, so
    /// greedy shrinking terminates.
    pub fn shrink(
        &self,
        program: &ConcurrentProgram<M>,
    ) -> Candidates<'static, ConcurrentProgram<M>> {
        let machine = Arc::clone(&self.machine);
        let program = program.clone();
        let mut edits: Vec<ConcurrentProgram<M>> = Vec::new();
        let threads = program.threads.len();
        for t in 0..threads {
            if program.threads[t].len() > 1 {
                let mut p = program.clone();
                p.threads[t].clear();
                edits.push(p);
            }
        }
        for t in 0..threads {
            for i in 0..program.threads[t].len() {
                let mut p = program.clone();
                p.threads[t].remove(i);
                edits.push(p);
            }
        }
        let valid = {
            let machine = Arc::clone(&machine);
            move |p: &ConcurrentProgram<M>| p.is_valid(&*machine)
        };
        let mut candidates: Vec<ConcurrentProgram<M>> =
            edits.into_iter().filter(|p| valid(p)).collect();
        let prefixes = Programs::shared(Arc::clone(&machine)).shrink(&program.prefix);
        let (threads_then, moved_from) = (program.threads.clone(), program.clone());
        let with_prefix = prefixes
            .map(move |prefix| ConcurrentProgram {
                // Printed as a list of commands in the concurrent program.
                prefix: Program {
                    machine: None,
                    ..prefix
                },
                threads: threads_then.clone(),
            })
            .filter({
                let valid = valid.clone();
                move |p| valid(p)
            });
        let moved = (0..threads)
            .filter_map(move |t| {
                let mut p = moved_from.clone();
                if p.threads[t].is_empty() {
                    return None;
                }
                let step = p.threads[t].remove(0);
                p.prefix.steps.push(step);
                Some(p)
            })
            .filter({
                let valid = valid.clone();
                move |p| valid(p)
            });
        let simplified = simplify_thread_steps(machine, program).filter(move |p| valid(p));
        candidates.sort_by_key(|p| (p.len(), p.concurrent_len()));
        Box::new(
            candidates
                .into_iter()
                .chain(with_prefix)
                .chain(moved)
                .chain(simplified),
        )
    }

    /// The program printed: the prefix, each thread's commands, then the
    /// history of a run that failed (running it up to
    /// [`ConcurrentMachine::repetitions`] times to find one).
    pub fn print(&self, program: &ConcurrentProgram<M>) -> String {
        let machine = &*self.machine;
        let mut out = String::new();
        let _ = writeln!(out, "  prefix:");
        for (i, step) in program.prefix.steps.iter().enumerate() {
            let _ = writeln!(
                out,
                "    {}. {}",
                i + 1,
                machine.print_command(&step.command)
            );
        }
        for (t, steps) in program.threads.iter().enumerate() {
            let _ = writeln!(out, "  thread {}:", t + 1);
            for (i, step) in steps.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "    {}. {}",
                    i + 1,
                    machine.print_command(&step.command)
                );
            }
        }
        let failing = (0..machine.repetitions().max(1)).find_map(|_| {
            match guard(|| run_concurrent(machine, program)) {
                Some(ConcurrentVerdict::Linearizable) => None,
                Some(other) => Some(other),
                None => Some(ConcurrentVerdict::Panicked("user code panicked".into())),
            }
        });
        match failing {
            Some(ConcurrentVerdict::NotLinearizable(history)) => {
                let _ = writeln!(out, "a run that no order explains:");
                out.push_str(&history);
            }
            Some(ConcurrentVerdict::PrefixFailed(why) | ConcurrentVerdict::Panicked(why)) => {
                let _ = writeln!(out, "a run failed: {why}");
            }
            _ => {
                let _ = writeln!(
                    out,
                    "(no failing run in {} repetitions while printing: the race is rare)",
                    machine.repetitions().max(1)
                );
            }
        }
        let _ = writeln!(
            out,
            "reproducer (paste into a #[test]; a race shows in some runs only, so it runs {REPRODUCER_RUNS} times):"
        );
        out.push_str(&reproducer(machine, program));
        out
    }
}

/// How many times the printed reproducer of a concurrent program runs it.
pub const REPRODUCER_RUNS: usize = 1_000;

/// Rust statements that rebuild `program` with
/// [`ConcurrentProgram::from_commands`] and run it
/// [`REPRODUCER_RUNS`] times with [`run_concurrent`], asserting every run
/// is linearizable.
fn reproducer<M: ConcurrentMachine>(machine: &M, program: &ConcurrentProgram<M>) -> String {
    let list = |steps: &[ProgramStep<M>]| {
        let commands: Vec<String> = steps
            .iter()
            .map(|s| machine.print_command(&s.command))
            .collect();
        format!("vec![{}]", commands.join(", "))
    };
    let threads: Vec<String> = program.threads.iter().map(|t| list(t)).collect();
    let mut out = String::new();
    out.push_str(&variants_import::<M::Command>());
    let _ = writeln!(
        out,
        "    use pbt::stateful::{{run_concurrent, ConcurrentProgram, ConcurrentVerdict}};"
    );
    let _ = writeln!(out, "    let machine = {};", machine.print_machine());
    let _ = writeln!(out, "    let program = ConcurrentProgram::from_commands(");
    let _ = writeln!(out, "        {},", list(&program.prefix.steps));
    let _ = writeln!(out, "        vec![{}],", threads.join(", "));
    let _ = writeln!(out, "    );");
    let _ = writeln!(out, "    for _ in 0..{REPRODUCER_RUNS} {{");
    let _ = writeln!(
        out,
        "        assert_eq!(run_concurrent(&machine, &program), ConcurrentVerdict::Linearizable);"
    );
    let _ = writeln!(out, "    }}");
    out
}

/// Each thread step regenerated from simpler choices in its thread's model
/// state (after the prefix and that thread's earlier steps); later steps of
/// the thread kept.
fn simplify_thread_steps<M: ConcurrentMachine>(
    machine: Arc<M>,
    program: ConcurrentProgram<M>,
) -> impl Iterator<Item = ConcurrentProgram<M>> {
    let places: Vec<(usize, usize)> = (0..program.threads.len())
        .flat_map(|t| (0..program.threads[t].len()).map(move |i| (t, i)))
        .collect();
    places.into_iter().flat_map(move |(t, i)| {
        let machine = Arc::clone(&machine);
        let program = program.clone();
        let recorded = program.threads[t][i].choices.clone();
        let simpler: Vec<Choices> = simplifications(&recorded).collect();
        simpler.into_iter().filter_map(move |choices| {
            let step = guard(|| {
                let mut model = model_after(&*machine, &program.prefix)?;
                for s in &program.threads[t][..i] {
                    machine.apply_model(&mut model, &s.command);
                }
                let mut replay = Replay::new(&choices);
                let command = draw_command(&*machine, &model, &mut replay, program.prefix.size)?;
                Some(ProgramStep {
                    command,
                    choices: replay.into_used(),
                })
            })??;
            if !shortlex_lt(&step.choices, &program.threads[t][i].choices) {
                return None;
            }
            let mut p = program.clone();
            p.threads[t][i] = step;
            Some(p)
        })
    })
}

impl<M: ConcurrentMachine> Gen for ConcurrentPrograms<M> {
    type Value = ConcurrentProgram<M>;

    fn generate<S: Source + ?Sized>(
        &self,
        src: &mut S,
        size: usize,
    ) -> Generated<ConcurrentProgram<M>> {
        let machine = &*self.machine;
        let mut model = machine.init_model();
        let mut steps = Vec::new();
        grow(
            machine,
            &mut model,
            &mut steps,
            src,
            size,
            machine.prefix_steps(),
        );
        let mut threads: Vec<Vec<ProgramStep<M>>> = vec![Vec::new(); machine.threads().max(1)];
        let go_on = continuation_bound(machine.thread_steps());
        for t in 0..threads.len() {
            let mut local = model.clone();
            for _ in 0..2 * machine.thread_steps() {
                let next = Next::draw(src, go_on);
                if threads[t].len() >= machine.thread_steps() || next == Next::End {
                    break;
                }
                let mut rec = Recorder::new(&mut *src);
                let Some(command) = draw_command(machine, &local, &mut rec, size) else {
                    break;
                };
                if next == Next::Skip {
                    continue;
                }
                let choices = rec.into_choices();
                threads[t].push(ProgramStep {
                    command: command.clone(),
                    choices,
                });
                if !interleavings_valid(machine, &model, &threads) {
                    threads[t].pop();
                    break;
                }
                machine.apply_model(&mut local, &command);
            }
        }
        Ok(ConcurrentProgram {
            prefix: Program {
                steps,
                size,
                machine: None,
                drawn: false,
            },
            threads,
        })
    }
}

//! Linearizability: is a concurrent history explained by the model?
//!
//! Each thread of a concurrent run records, for every command, when it was
//! invoked and when it returned (ticks of one shared logical clock) and what
//! it returned. The history is *linearizable* when some sequential order of
//! all its commands (a) keeps each thread's own order, (b) keeps real-time
//! order — a command that returned before another was invoked comes first —
//! and (c) is explained by the model: run in that order from the model state
//! after the sequential prefix, every precondition holds, every
//! postcondition accepts the result the thread observed, and the invariant
//! holds at the end (quickcheck-state-machine's parallel property).

use super::machine::StateMachine;
use super::program::ProgramStep;
use std::fmt::Write;

/// One command of a concurrent run, as a thread observed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event<O> {
    /// The clock's tick just before the command was invoked.
    pub invoked: u64,
    /// The clock's tick just after it returned.
    pub returned: u64,
    /// What it returned.
    pub output: O,
}

/// What every thread of a concurrent run observed, one list per thread (in
/// its program order).
pub type History<O> = Vec<Vec<Event<O>>>;

/// An order of the history's commands that the model explains:
/// `(thread, step)` pairs, first to last.
pub type Linearization = Vec<(usize, usize)>;

/// Search for a [`Linearization`] of `history`, the results of running
/// `branches` (one command list per thread) concurrently on `system`, from
/// the model state `model`. `None` when no order is explained by the model:
/// the system is not linearizable with respect to it.
///
/// The search is a depth-first walk over the orders that respect each
/// thread's order and real-time order, cut off at the first command whose
/// precondition or postcondition fails; with a few threads of a few
/// commands each (as [`ConcurrentMachine`](super::ConcurrentMachine)
/// generates) it is immediate.
pub fn linearize<M: StateMachine>(
    machine: &M,
    model: &M::Model,
    branches: &[Vec<ProgramStep<M>>],
    history: &History<M::Output>,
    system: &M::System,
) -> Option<Linearization>
where
    M::Model: Clone,
{
    let mut at = vec![0; branches.len()];
    let mut order = Vec::new();
    let search = Search {
        machine,
        branches,
        history,
        system,
    };
    search.walk(model, &mut at, &mut order).then_some(order)
}

struct Search<'a, M: StateMachine> {
    machine: &'a M,
    branches: &'a [Vec<ProgramStep<M>>],
    history: &'a History<M::Output>,
    system: &'a M::System,
}

impl<M: StateMachine> Search<'_, M>
where
    M::Model: Clone,
{
    /// Whether the commands from `at` on can follow `model` in some order.
    fn walk(&self, model: &M::Model, at: &mut [usize], order: &mut Linearization) -> bool {
        let pending: Vec<usize> = (0..at.len())
            .filter(|&t| at[t] < self.branches[t].len())
            .collect();
        if pending.is_empty() {
            return self.machine.invariant(model, self.system).is_ok();
        }
        for &t in &pending {
            let event = &self.history[t][at[t]];
            // Real time: a pending command that returned before this one was
            // invoked must come first. The first pending command of a thread
            // returned earliest of that thread's pending ones.
            let overtakes = pending
                .iter()
                .any(|&u| u != t && self.history[u][at[u]].returned < event.invoked);
            let cmd = &self.branches[t][at[t]].command;
            if overtakes || !self.machine.precondition(model, cmd) {
                continue;
            }
            let mut next = model.clone();
            let expected = self.machine.apply_model(&mut next, cmd);
            if !self.machine.postcondition(cmd, &expected, &event.output) {
                continue;
            }
            at[t] += 1;
            order.push((t, at[t] - 1));
            if self.walk(&next, at, order) {
                return true;
            }
            order.pop();
            at[t] -= 1;
        }
        false
    }
}

/// Whether every order of `branches` that keeps each thread's own order
/// meets only commands whose precondition holds, from `model`: a concurrent
/// program is valid only then, since any of those orders may happen.
pub fn interleavings_valid<M: StateMachine>(
    machine: &M,
    model: &M::Model,
    branches: &[Vec<ProgramStep<M>>],
) -> bool
where
    M::Model: Clone,
{
    fn all<M: StateMachine>(
        machine: &M,
        model: &M::Model,
        branches: &[Vec<ProgramStep<M>>],
        at: &mut [usize],
    ) -> bool
    where
        M::Model: Clone,
    {
        (0..at.len()).all(|t| {
            let Some(step) = branches[t].get(at[t]) else {
                return true;
            };
            if !machine.precondition(model, &step.command) {
                return false;
            }
            let mut next = model.clone();
            machine.apply_model(&mut next, &step.command);
            at[t] += 1;
            let ok = all(machine, &next, branches, at);
            at[t] -= 1;
            ok
        })
    }
    all(machine, model, branches, &mut vec![0; branches.len()])
}

/// The history as lines: each thread's commands with their results and
/// clock ticks.
pub fn print_history<M: StateMachine>(
    machine: &M,
    branches: &[Vec<ProgramStep<M>>],
    history: &History<M::Output>,
) -> String {
    let mut out = String::new();
    for (t, (steps, events)) in branches.iter().zip(history).enumerate() {
        for (i, (step, event)) in steps.iter().zip(events).enumerate() {
            let _ = writeln!(
                out,
                "  thread {}, step {}: {} returned {:?} (ticks {}..{})",
                t + 1,
                i + 1,
                machine.print_command(&step.command),
                event.output,
                event.invoked,
                event.returned
            );
        }
    }
    out
}

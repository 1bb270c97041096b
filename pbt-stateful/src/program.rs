//! [`Program`]: a sequence of commands valid in their model states, its
//! generator [`Programs`], and the edits that shrink and mutate it.
//!
//! Every program this module hands out is *settled*: walking the model from
//! its initial state, each command's precondition holds in the state it
//! meets. Generation draws commands from the current state; an edit (delete
//! steps, simplify one step's choices, cut and regrow a tail) is followed by
//! a settle that drops any command whose precondition no longer holds.

use super::machine::StateMachine;
use pbt_core::choices::{shortlex_lt, Choices, Recorder, Replay};
use pbt_core::gen::{Gen, Generated, Rejected};
use pbt_core::shrink::choices::simplifications;
use pbt_core::shrink::Candidates;
use pbt_core::source::BlockKind;
use pbt_core::Source;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, OnceLock};

/// How many times a step redraws a command whose precondition fails before
/// the program ends there.
pub const COMMAND_TRIES: usize = 8;

/// One step of a [`Program`]: the command, and the choices its generator drew
/// (replayed, simplified, when the step is shrunk).
pub struct ProgramStep<M: StateMachine> {
    /// The command.
    pub command: M::Command,
    pub(super) choices: Choices,
}

impl<M: StateMachine> ProgramStep<M> {
    /// A step of `command` with no recorded choices, for histories and
    /// programs built by hand (shrinking simplifies such a step only by
    /// deleting it).
    ///
    /// ```
    /// # use pbt::stateful::{StateMachine, ProgramStep};
    /// # use pbt::generators::{int, Gen};
    /// # struct Adder;
    /// # impl StateMachine for Adder {
    /// #     type Model = u64; type System = u64; type Command = u8; type Output = u64;
    /// #     fn init_model(&self) -> u64 { 0 }
    /// #     fn init_system(&self) -> u64 { 0 }
    /// #     fn commands<'a>(&'a self, _: &'a u64) -> impl Gen<Value = u8> + 'a { int(0..=9u8) }
    /// #     fn apply_model(&self, s: &mut u64, c: &u8) -> u64 { *s += *c as u64; *s }
    /// #     fn apply_system(&self, s: &mut u64, c: &u8) -> u64 { *s += *c as u64; *s }
    /// # }
    /// let step = ProgramStep::<Adder>::new(3);
    /// assert_eq!(step.command, 3);
    /// ```
    pub fn new(command: M::Command) -> Self {
        ProgramStep {
            command,
            choices: Choices::new(),
        }
    }
}

impl<M: StateMachine> Clone for ProgramStep<M> {
    fn clone(&self) -> Self {
        ProgramStep {
            command: self.command.clone(),
            choices: self.choices.clone(),
        }
    }
}

/// A generated sequence of commands of the machine `M`, each valid in the
/// model state it runs in.
///
/// ```
/// use pbt::generators::{int, Gen};
/// use pbt::stateful::StateMachine;
/// use pbt::Rng;
/// # struct Adder;
/// # impl StateMachine for Adder {
/// #     type Model = u64; type System = u64; type Command = u8; type Output = u64;
/// #     fn init_model(&self) -> u64 { 0 }
/// #     fn init_system(&self) -> u64 { 0 }
/// #     fn commands<'a>(&'a self, _: &'a u64) -> impl Gen<Value = u8> + 'a { int(0..=9u8) }
/// #     fn apply_model(&self, s: &mut u64, c: &u8) -> u64 { *s += *c as u64; *s }
/// #     fn apply_system(&self, s: &mut u64, c: &u8) -> u64 { *s += *c as u64; *s }
/// # }
/// let program = Adder.programs().generate(&mut Rng::from_seed(5), 10).unwrap();
/// assert!(program.len() <= 32 && program.is_valid(&Adder));
/// ```
pub struct Program<M: StateMachine> {
    pub(super) steps: Vec<ProgramStep<M>>,
    pub(super) size: usize,
    /// The machine whose [`Programs`] made it: its `Debug` runs it and
    /// prints the report's form (see `Debug`).
    pub(super) machine: Option<Arc<M>>,
    /// Whether every step's command was drawn from its recorded choices in
    /// the model state it meets, at `size` (a program [`Programs`]
    /// generated or replayed): its commands, and so its printed form, are
    /// then a function of the steps' choices and the size.
    pub(super) drawn: bool,
}

impl<M: StateMachine> Clone for Program<M> {
    fn clone(&self) -> Self {
        Program {
            steps: self.steps.clone(),
            size: self.size,
            machine: self.machine.clone(),
            drawn: self.drawn,
        }
    }
}

/// A program made by [`Programs`] (generated, shrunk or mutated) prints as
/// a report shows it: the numbered steps with the model's and the system's
/// results, then a Rust reproducer ([`print`](super::print); it runs the
/// program). So `#[with = Machine.programs()]` is the one annotation a
/// `#[property_test]` parameter needs: the generator's choices shrink it,
/// and `Debug` prints it. A program built otherwise
/// ([`ConcurrentProgram::from_commands`](super::ConcurrentProgram::from_commands)'s
/// prefix) prints its commands as a list.
impl<M: StateMachine> fmt::Debug for Program<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.machine {
            Some(machine) => write!(f, "\n{}", super::execute::print(&**machine, self)),
            None => f.debug_list().entries(self.commands()).finish(),
        }
    }
}

impl<M: StateMachine> Program<M> {
    /// The commands, in order.
    pub fn commands(&self) -> impl ExactSizeIterator<Item = &M::Command> + '_ {
        self.steps.iter().map(|s| &s.command)
    }

    /// The number of commands.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether there is no command.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Whether every command's precondition holds in the model state it
    /// meets (always true of the programs pbt generates and shrinks).
    pub fn is_valid(&self, machine: &M) -> bool {
        let mut model = machine.init_model();
        self.commands().all(|c| {
            let ok = machine.precondition(&model, c);
            if ok {
                machine.apply_model(&mut model, c);
            }
            ok
        })
    }
}

/// The generator of a machine's programs: the value of
/// [`StateMachine::programs`], for `#[gen = …]` in `property!`.
///
/// A program is drawn step by step: a continuation choice (0 ends the
/// program, so the simplest program is the empty one; 1 draws a command
/// and skips it, so that lowering one choice deletes a step; the other
/// `2·max_steps` values go on, so most programs reach
/// [`StateMachine::max_steps`]), then a command from
/// [`StateMachine::commands`] in the current model state, redrawn while its
/// precondition fails ([`COMMAND_TRIES`] times at most). Because the whole
/// program is a function of the choices, replaying simplified choices (the
/// integrated shrinker) yields another valid program.
pub struct Programs<M> {
    machine: Arc<M>,
    /// The program [`Programs::printer`] printed last, shared by the
    /// clones: a shrinker prints each program it takes to tell whether it
    /// shows, and most programs a choice shrinker takes print as the one
    /// before (a continuation choice lowered, which takes the same step).
    last_printed: Arc<Mutex<Option<Printed>>>,
    /// The first lines of every reproducer [`Programs::printer`] prints
    /// (see [`reproducer_header`](super::execute::reproducer_header)),
    /// written once.
    header: Arc<OnceLock<String>>,
}

/// A drawn program's printed form, and what it is a function of: the size
/// and each step's choices (their lengths, then the choices).
struct Printed {
    size: usize,
    key: Vec<u64>,
    text: String,
}

impl Printed {
    /// Whether `program` prints as this: it was drawn (see
    /// [`Program::drawn`]) from the same choices at the same size.
    fn is_of<M: StateMachine>(&self, program: &Program<M>) -> bool {
        let mut key = self.key.iter();
        program.drawn
            && self.size == program.size
            && program.steps.iter().all(|step| {
                key.next() == Some(&(step.choices.len() as u64))
                    && step.choices.iter().all(|c| key.next() == Some(c))
            })
            && key.next().is_none()
    }

    /// `text`, printed from `program`.
    fn of<M: StateMachine>(program: &Program<M>, text: String) -> Self {
        let mut key = Vec::with_capacity(program.steps.iter().map(|s| s.choices.len() + 1).sum());
        for step in &program.steps {
            key.push(step.choices.len() as u64);
            key.extend_from_slice(&step.choices);
        }
        Printed {
            size: program.size,
            key,
            text,
        }
    }
}

impl<M> Clone for Programs<M> {
    fn clone(&self) -> Self {
        Programs {
            machine: Arc::clone(&self.machine),
            last_printed: Arc::clone(&self.last_printed),
            header: Arc::clone(&self.header),
        }
    }
}

impl<M: StateMachine> Programs<M> {
    /// The programs of `machine`.
    pub fn new(machine: M) -> Self {
        Programs::shared(Arc::new(machine))
    }

    /// The programs of a shared machine.
    pub fn shared(machine: Arc<M>) -> Self {
        Programs {
            machine,
            last_printed: Arc::default(),
            header: Arc::default(),
        }
    }

    /// The machine.
    pub fn machine(&self) -> &Arc<M> {
        &self.machine
    }

    /// Candidates simpler than `program`, each one settled: delete runs of
    /// steps (halves first, then single steps), then simplify one step's
    /// recorded choices and regenerate that command in its model state.
    /// Then, on programs of at most 16 steps, past the local
    /// minima where no single edit still fails: delete two steps that are
    /// not adjacent (a command and the one it enabled), and swap adjacent
    /// steps where the later one's choices are smaller. (Deleting a step
    /// while another is replaced is the integrated shrinker's
    /// `delete_replacing`, which the default `Shrinker::Both` runs first:
    /// here it cost more replays than the rest of shrinking.)
    /// After each edit the later steps are tried two ways: kept as they are
    /// (dropping those whose precondition now fails), then regenerated
    /// from their own recorded choices in their new model states (so
    /// `Remove(2)` follows its `Insert(2, _)` when that becomes
    /// `Insert(0, 0)`). Every candidate is shorter, or as long with its
    /// steps' choices smaller in shortlex order, so greedy shrinking
    /// terminates.
    pub fn shrink(&self, program: &Program<M>) -> Candidates<'static, Program<M>> {
        let machine = Arc::clone(&self.machine);
        let machine2 = Arc::clone(&self.machine);
        let program = program.clone();
        let program2 = program.clone();
        let program3 = program.clone();
        let n = program.len();
        let spans =
            std::iter::successors(Some(n), |&k| (k > 1).then_some(k / 2)).filter(|&k| k > 0);
        let deletions = spans.flat_map(move |k| (0..=n - k).map(move |start| (start, k)));
        let deleted = deletions
            .flat_map(|edit| [(edit, Later::Kept), (edit, Later::Regenerated)])
            .filter_map(move |((start, k), later)| {
                let mut steps = program.steps.clone();
                steps.drain(start..start + k);
                rebuild(&*machine, steps, start, later, program.size)
            });
        let simplified = (0..n).flat_map(move |i| {
            let machine = Arc::clone(&machine2);
            let program = program2.clone();
            let recorded = program.steps[i].choices.clone();
            let simpler: Vec<Choices> = simplifications(&recorded).collect();
            simpler
                .into_iter()
                .flat_map(|c| [(c.clone(), Later::Kept), (c, Later::Regenerated)])
                .filter_map(move |(c, later)| with_step(&*machine, &program, i, &c, later))
        });
        let made_by = Arc::clone(&self.machine);
        Box::new(
            deleted
                .chain(simplified)
                .chain(past_local_minima(&self.machine, &program3))
                .map(move |mut p| {
                    p.machine = Some(Arc::clone(&made_by));
                    p
                }),
        )
    }

    /// [`Programs::shrink`] as a function, for `#[shrink = …]` in
    /// `property!` and `#[property_test]`.
    pub fn shrinker(&self) -> impl Fn(&Program<M>) -> Candidates<'static, Program<M>> {
        let programs = self.clone();
        move |p| programs.shrink(p)
    }

    /// The printed program (numbered, with results, and a Rust reproducer;
    /// see [`print`](super::print)), for `#[print = …]`.
    ///
    /// A program drawn from the same choices as the one this printer (or a
    /// clone of these `Programs`) printed last prints as that one, without
    /// running it again: a shrinker prints every program it takes, to
    /// tell whether it shows, and most of a program's shrink steps only
    /// lower a continuation choice (in an unoptimised build, printing was
    /// a quarter of shrinking a program). The reproducer's first lines
    /// (its imports, the machine, the system) are written once per
    /// printer and its clones.
    pub fn printer(&self) -> impl Fn(&Program<M>) -> String {
        let programs = self.clone();
        move |p| programs.print(p)
    }

    /// [`Programs::printer`]'s print of `program`.
    fn print(&self, program: &Program<M>) -> String {
        let cached = |last: &Option<Printed>| {
            (last.as_ref())
                .filter(|last| last.is_of(program))
                .map(|last| last.text.clone())
        };
        let lock = || self.last_printed.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(text) = cached(&lock()) {
            return text;
        }
        let machine = &*self.machine;
        let header = (self.header).get_or_init(|| super::execute::reproducer_header(machine));
        let mut text = String::from("\n");
        super::execute::print_into(&mut text, machine, program, header);
        if program.drawn {
            *lock() = Some(Printed::of(program, text.clone()));
        }
        text
    }

    /// A program near `program`: keep a prefix (its length drawn), then grow
    /// a fresh tail from the model state there. For the mutation-based
    /// runners (fuzzing, targeted search).
    pub fn mutate(&self, program: &Program<M>, src: &mut dyn Source, size: usize) -> Program<M> {
        let keep = src.draw(program.len() as u64) as usize;
        let machine = &*self.machine;
        let grown = guard(|| {
            let mut model = machine.init_model();
            let mut steps = program.steps[..keep].to_vec();
            for s in &steps {
                machine.apply_model(&mut model, &s.command);
            }
            grow(
                machine,
                &mut model,
                &mut steps,
                &mut *src,
                size,
                machine.max_steps(),
            );
            Program {
                steps,
                size,
                machine: Some(Arc::clone(&self.machine)),
                drawn: false,
            }
        });
        grown.unwrap_or_else(|| program.clone())
    }
}

impl<M: StateMachine> Gen for Programs<M> {
    type Value = Program<M>;

    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<Program<M>> {
        let machine = &*self.machine;
        let mut model = machine.init_model();
        let mut steps = Vec::new();
        grow(
            machine,
            &mut model,
            &mut steps,
            src,
            size,
            machine.max_steps(),
        );
        Ok(Program {
            steps,
            size,
            machine: Some(Arc::clone(&self.machine)),
            drawn: true,
        })
    }
}

/// Append steps drawn from `src` to `steps`, from `model`'s state, up to
/// `max_steps` in all (and at most `2·max_steps` continuation choices).
pub(super) fn grow<M: StateMachine, S: Source + ?Sized>(
    machine: &M,
    model: &mut M::Model,
    steps: &mut Vec<ProgramStep<M>>,
    src: &mut S,
    size: usize,
    max_steps: usize,
) {
    // The program is a collection whose elements are the steps, each with
    // its continuation choice (blocks for the integrated shrinker: deleting
    // one deletes a step).
    let go_on = continuation_bound(max_steps);
    src.start_block(BlockKind::Collection);
    for _ in 0..2 * max_steps {
        if steps.len() >= max_steps {
            break;
        }
        src.start_block(BlockKind::Element);
        let next = Next::draw(src, go_on);
        if next == Next::End {
            src.end_block();
            break;
        }
        let mut rec = Recorder::new(&mut *src);
        let command = draw_command(machine, model, &mut rec, size);
        let choices = rec.into_choices();
        src.end_block();
        let Some(command) = command else {
            break;
        };
        if next == Next::Skip {
            continue;
        }
        machine.apply_model(model, &command);
        steps.push(ProgramStep { command, choices });
    }
    src.end_block();
}

/// What a step's continuation choice says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Next {
    /// 0: the program ends here (the simplest program is the empty one).
    End,
    /// 1: a command is drawn but not taken. The integrated shrinker, which
    /// sees only the choice sequence, deletes any one step by lowering its
    /// continuation choice to 1: a single-choice edit, where deleting the
    /// step's choices would need a span of exactly their length.
    Skip,
    /// Anything else: the command is drawn and taken.
    Take,
}

impl Next {
    /// Draw a continuation choice with bound `go_on`
    /// ([`continuation_bound`]).
    pub(super) fn draw<S: Source + ?Sized>(src: &mut S, go_on: u64) -> Next {
        match src.draw(go_on) {
            0 => Next::End,
            1 => Next::Skip,
            _ => Next::Take,
        }
    }
}

/// The bound `k` of the continuation choice of programs of at most
/// `max_steps` commands: `k = 2·max_steps + 1`, so a program ends (and
/// skips, see [`Next`]) at each step with probability `1/(2·max_steps + 2)`
/// and about 60% of programs reach `max_steps` (long programs find more
/// bugs per test); the others spread over every shorter length. A small
/// `max_steps` makes the choice small too: small scopes enumerate fast
/// under the exhaustive runner.
pub(super) fn continuation_bound(max_steps: usize) -> u64 {
    2 * max_steps as u64 + 1
}

/// A command valid in `model`'s state, or `None` after [`COMMAND_TRIES`].
pub(super) fn draw_command<M: StateMachine, S: Source + ?Sized>(
    machine: &M,
    model: &M::Model,
    src: &mut S,
    size: usize,
) -> Option<M::Command> {
    (0..COMMAND_TRIES).find_map(|_| {
        let cmd: Result<M::Command, Rejected> = machine.commands(model).generate(src, size);
        cmd.ok().filter(|c| machine.precondition(model, c))
    })
}

/// The most steps a program may have for [`Programs::shrink`] to try the
/// edits that need two places (pairs of steps deleted, adjacent steps
/// swapped): their number grows with the square of the length, and the
/// programs stuck where only they help are short.
const PAIRS_UP_TO: usize = 16;

/// The candidates of [`Programs::shrink`] past local minima: `program`
/// without two steps that are not adjacent (each step from the last, with
/// each earlier one from the nearest), then with two adjacent steps
/// swapped where the later one's recorded choices are smaller (the
/// program's choices, read in order, get smaller).
fn past_local_minima<M: StateMachine>(
    machine: &Arc<M>,
    program: &Program<M>,
) -> Candidates<'static, Program<M>> {
    let n = program.len();
    if n > PAIRS_UP_TO {
        return Box::new(std::iter::empty());
    }
    let (m1, m2) = (Arc::clone(machine), Arc::clone(machine));
    let (p1, p2, p3) = (program.clone(), program.clone(), program.clone());
    let later = [Later::Kept, Later::Regenerated];
    let pairs = (0..n)
        .rev()
        .flat_map(|j| (0..j.saturating_sub(1)).rev().map(move |i| (i, j)))
        .flat_map(move |pair| later.map(|l| (pair, l)))
        .filter_map(move |((i, j), later)| {
            let mut steps = p1.steps.clone();
            steps.remove(j);
            steps.remove(i);
            rebuild(&*m1, steps, i, later, p1.size)
        });
    let swaps = (0..n.saturating_sub(1))
        .filter(move |&i| shortlex_lt(&p3.steps[i + 1].choices, &p3.steps[i].choices))
        .flat_map(move |i| later.map(|l| (i, l)))
        .filter_map(move |(i, later)| {
            let mut steps = p2.steps.clone();
            steps.swap(i, i + 1);
            rebuild(&*m2, steps, i, later, p2.size)
        });
    Box::new(pairs.chain(swaps))
}

/// What an edit does to the steps after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Later {
    /// Keep each command, dropping it if its precondition now fails.
    Kept,
    /// Regenerate each command from its recorded choices in its new model
    /// state, dropping it if no valid command comes out.
    Regenerated,
}

/// Walk the model through `steps`: the steps before `from` and, with
/// [`Later::Kept`], all of them, are kept unless their precondition fails;
/// with [`Later::Regenerated`] those from `from` on are regenerated from
/// their choices. `None` when user code panicked.
fn rebuild<M: StateMachine>(
    machine: &M,
    steps: Vec<ProgramStep<M>>,
    from: usize,
    later: Later,
    size: usize,
) -> Option<Program<M>> {
    guard(|| {
        let mut model = machine.init_model();
        let mut kept = Vec::with_capacity(steps.len());
        for (j, step) in steps.into_iter().enumerate() {
            let step = if j >= from && later == Later::Regenerated {
                let mut replay = Replay::new(&step.choices);
                let Some(command) = draw_command(machine, &model, &mut replay, size) else {
                    continue;
                };
                ProgramStep {
                    command,
                    choices: replay.into_used(),
                }
            } else if machine.precondition(&model, &step.command) {
                step
            } else {
                continue;
            };
            machine.apply_model(&mut model, &step.command);
            kept.push(step);
        }
        Program {
            steps: kept,
            size,
            machine: None,
            drawn: false,
        }
    })
}

/// `program` with step `i` regenerated from `choices` in its model state,
/// the later steps rebuilt as `later` says; `None` unless the step's
/// choices got simpler.
fn with_step<M: StateMachine>(
    machine: &M,
    program: &Program<M>,
    i: usize,
    choices: &[u64],
    later: Later,
) -> Option<Program<M>> {
    let step = regenerated(machine, program, i, choices)?;
    if !shortlex_lt(&step.choices, &program.steps[i].choices) {
        return None;
    }
    let mut steps = program.steps.clone();
    steps[i] = step;
    rebuild(machine, steps, i + 1, later, program.size)
}

/// Step `i` of `program` drawn again from `choices` in the model state it
/// meets; `None` when no valid command comes out, or user code panicked.
fn regenerated<M: StateMachine>(
    machine: &M,
    program: &Program<M>,
    i: usize,
    choices: &[u64],
) -> Option<ProgramStep<M>> {
    guard(|| {
        let mut model = machine.init_model();
        for s in &program.steps[..i] {
            machine.apply_model(&mut model, &s.command);
        }
        let mut replay = Replay::new(choices);
        let command = draw_command(machine, &model, &mut replay, program.size)?;
        Some(ProgramStep {
            command,
            choices: replay.into_used(),
        })
    })?
}

/// Run user code, a panic (or a replay overrun) giving `None`.
pub(super) fn guard<T>(f: impl FnOnce() -> T) -> Option<T> {
    catch_unwind(AssertUnwindSafe(f)).ok()
}

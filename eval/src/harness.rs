//! The harness: tasks, trials, and the loop over strategies × tasks ×
//! trials.
//!
//! A trial runs one strategy on one task from one seed until the first
//! failure or the time limit. Trials of a (strategy, task) stop at the first
//! unsolved one — by ETNA's rule the task is then unsolved for that
//! strategy whatever the other trials do — unless every trial is asked for.

use crate::probe::Probe;
use crate::results::{TaskResult, Trial};
use crate::strategy::Strategy;
use crate::{bst, ifc, rbt, stack, stlc};
use std::sync::Arc;
use std::time::Duration;

crate::named_enum! {
    /// The workloads.
    Workload {
        /// Binary search trees.
        Bst = "BST",
        /// Red-black trees.
        Rbt = "RBT",
        /// The simply-typed lambda calculus.
        Stlc = "STLC",
        /// The same tasks without `TInt` in any generator (ETNA's calculus).
        StlcBool = "STLC-bool",
        /// ETNA's information-flow register machine (SSNI).
        Ifc = "IFC",
        /// The information-flow stack machine of *Testing Noninterference,
        /// Quickly* (EENI), as in *Flexible and Automatic TPBT* §5.1.
        Stack = "Stack",
    }
}

/// A task: a mutant of a workload and a property it falsifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// A BST task.
    Bst(bst::Mutant, bst::Property),
    /// An RBT task.
    Rbt(rbt::Mutant, rbt::Property),
    /// An STLC task.
    Stlc(stlc::Mutant, stlc::Property),
    /// An STLC task with booleans only in the generators.
    StlcBool(stlc::Mutant, stlc::Property),
    /// An IFC task.
    Ifc(ifc::Mutant, ifc::Property),
    /// A stack-machine task.
    Stack(stack::Bug, stack::Property),
}

impl Task {
    /// Its workload.
    pub fn workload(self) -> Workload {
        match self {
            Task::Bst(..) => Workload::Bst,
            Task::Rbt(..) => Workload::Rbt,
            Task::Stlc(..) => Workload::Stlc,
            Task::StlcBool(..) => Workload::StlcBool,
            Task::Ifc(..) => Workload::Ifc,
            Task::Stack(..) => Workload::Stack,
        }
    }

    /// The mutant's name.
    pub fn mutant(self) -> &'static str {
        match self {
            Task::Bst(m, _) => m.name(),
            Task::Rbt(m, _) => m.name(),
            Task::Stlc(m, _) | Task::StlcBool(m, _) => m.name(),
            Task::Ifc(m, _) => m.name(),
            Task::Stack(m, _) => m.name(),
        }
    }

    /// The property's name.
    pub fn property(self) -> &'static str {
        match self {
            Task::Bst(_, p) => p.name(),
            Task::Rbt(_, p) => p.name(),
            Task::Stlc(_, p) | Task::StlcBool(_, p) => p.name(),
            Task::Ifc(_, p) => p.name(),
            Task::Stack(_, p) => p.name(),
        }
    }

    /// Run one trial of this task with `strategy` from `seed`; `Err` says
    /// why the runner stopped without a failing test.
    pub fn run(self, strategy: Strategy, probe: &Arc<Probe>, seed: u64) -> Result<(), String> {
        match self {
            Task::Bst(m, p) => bst::run(strategy, m, p, probe, seed),
            Task::Rbt(m, p) => rbt::run(strategy, m, p, probe, seed),
            Task::Stlc(m, p) => {
                stlc::gen::set_with_int(true);
                stlc::run(strategy, m, p, probe, seed)
            }
            Task::StlcBool(m, p) => {
                stlc::gen::set_with_int(false);
                let out = stlc::run(strategy, m, p, probe, seed);
                stlc::gen::set_with_int(true);
                out
            }
            Task::Ifc(m, p) => ifc::run(strategy, m, p, probe, seed),
            Task::Stack(m, p) => stack::run(strategy, m, p, probe, seed),
        }
    }

    /// Whether the task is in ETNA's own task list (every task but two
    /// RBT ones: see [`rbt::ETNA_EXTRA`]).
    pub fn in_etna(self) -> bool {
        match self {
            Task::Rbt(m, p) => !rbt::ETNA_EXTRA.contains(&(m, p)),
            Task::Ifc(m, _) => !ifc::ETNA_SKIPPED.contains(&m.name()),
            _ => true,
        }
    }
}

/// The tasks of `workload`.
pub fn tasks(workload: Workload) -> Vec<Task> {
    match workload {
        Workload::Bst => bst::tasks()
            .into_iter()
            .map(|(m, p)| Task::Bst(m, p))
            .collect(),
        Workload::Rbt => rbt::tasks()
            .into_iter()
            .map(|(m, p)| Task::Rbt(m, p))
            .collect(),
        Workload::Stlc => stlc::tasks()
            .into_iter()
            .map(|(m, p)| Task::Stlc(m, p))
            .collect(),
        Workload::StlcBool => stlc::tasks()
            .into_iter()
            .map(|(m, p)| Task::StlcBool(m, p))
            .collect(),
        Workload::Ifc => ifc::tasks()
            .into_iter()
            .map(|(m, p)| Task::Ifc(m, p))
            .collect(),
        Workload::Stack => stack::tasks()
            .into_iter()
            .map(|(m, p)| Task::Stack(m, p))
            .collect(),
    }
}

/// Every mutant × property pair of `workload`, the correct implementation
/// (`base`) included: what `--all-pairs` runs to find out which pairs are
/// tasks.
pub fn all_pairs(workload: Workload) -> Vec<Task> {
    fn cross<M: Copy, P: Copy, T>(ms: &[M], ps: &[P], f: impl Fn(M, P) -> T) -> Vec<T> {
        ms.iter()
            .flat_map(|m| ps.iter().map(move |p| (*m, *p)))
            .map(|(m, p)| f(m, p))
            .collect()
    }
    match workload {
        Workload::Bst => cross(bst::Mutant::ALL, bst::Property::ALL, Task::Bst),
        Workload::Rbt => cross(rbt::Mutant::ALL, rbt::Property::ALL, Task::Rbt),
        Workload::Stlc => cross(stlc::Mutant::ALL, stlc::Property::ALL, Task::Stlc),
        Workload::StlcBool => cross(stlc::Mutant::ALL, stlc::Property::ALL, Task::StlcBool),
        Workload::Ifc => cross(ifc::Mutant::ALL, ifc::Property::ALL, Task::Ifc),
        Workload::Stack => cross(stack::Bug::ALL, stack::Property::ALL, Task::Stack),
    }
}

/// The default salt of a run's seeds ([`seed`]); `etna --seed` picks
/// another, which resamples every trial.
pub const DEFAULT_SALT: u64 = 0x5eed;

/// The seed of trial `i` of `strategy` on `task` in a run salted with
/// `salt`: derived from all four, so no two tasks (nor two strategies on
/// one task) share an input stream, and a run with another salt draws
/// fresh ones. The hash is spelled out (FNV-1a over the names, then a
/// SplitMix64 finaliser), so a seed means the same on every machine and
/// Rust version.
///
/// ```
/// use pbt_eval::harness::{seed, tasks, Workload, DEFAULT_SALT};
/// use pbt_eval::strategy::Strategy;
/// let ts = tasks(Workload::Stlc);
/// let s = Strategy::ALL[0];
/// assert_ne!(seed(DEFAULT_SALT, ts[0], s, 0), seed(DEFAULT_SALT, ts[1], s, 0));
/// assert_ne!(seed(DEFAULT_SALT, ts[0], s, 0), seed(DEFAULT_SALT, ts[0], s, 1));
/// assert_ne!(seed(DEFAULT_SALT, ts[0], s, 0), seed(1, ts[0], s, 0));
/// assert_eq!(seed(DEFAULT_SALT, ts[0], s, 0), seed(DEFAULT_SALT, ts[0], s, 0));
/// ```
pub fn seed(salt: u64, task: Task, strategy: Strategy, i: u32) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let names = [
        task.workload().name(),
        task.mutant(),
        task.property(),
        strategy.name(),
    ];
    for name in names {
        for b in name.bytes().chain([0]) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    mix(mix(h ^ mix(salt)) ^ u64::from(i))
}

/// SplitMix64's finaliser.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Run one trial with a time limit.
pub fn trial(strategy: Strategy, task: Task, seed: u64, limit: Duration) -> Trial {
    trial_with(strategy, task, seed, Arc::new(Probe::new(limit)))
}

/// Run one trial measured by `probe` (which sets its limits).
#[inline(never)] // a call boundary `etna --cost` under callgrind counts from
pub fn trial_with(strategy: Strategy, task: Task, seed: u64, probe: Arc<Probe>) -> Trial {
    let stopped = task.run(strategy, &probe, seed);
    let found = probe.found();
    Trial {
        seed,
        solved: found.is_some(),
        time: found.map_or(probe.elapsed(), |f| f.time).as_secs_f64(),
        tests: found.map_or(probe.tests(), |f| f.tests),
        discards: found.map_or(probe.discards(), |f| f.discards),
        note: stopped.err(),
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The strategies, in order.
    pub strategies: Vec<Strategy>,
    /// The tasks, in order.
    pub tasks: Vec<Task>,
    /// Trials per (strategy, task) of the headline strategies
    /// ([`Strategy::is_headline`]).
    pub trials: u32,
    /// Trials per (strategy, task) of pbt's other runners.
    pub runner_trials: u32,
    /// Trials per (strategy, task) when the planned ones all found a
    /// failure but needed more than [`RARE_TESTS`] tests on average: rare
    /// failures have the widest spread, so they get more trials (no more
    /// than the planned ones when this is smaller).
    pub rare_trials: u32,
    /// Time limit of one trial.
    pub timeout: Duration,
    /// Run every trial even after an unsolved one.
    pub all_trials: bool,
    /// The salt of the trials' seeds ([`seed`]).
    pub salt: u64,
    /// A budget of tests per trial besides the time limit (*Flexible and
    /// Automatic TPBT*'s protocol: 10 000 tests per trial); `None`: time only.
    pub max_tests: Option<u64>,
}

/// A task whose failure rate is below one in this many tests gets
/// [`Plan::rare_trials`].
pub const RARE_TESTS: f64 = 10_000.0;

/// Run `plan`, calling `progress` after each (strategy, task).
pub fn run(plan: &Plan, mut progress: impl FnMut(&TaskResult)) -> Vec<TaskResult> {
    let mut out = Vec::new();
    for task in &plan.tasks {
        for strategy in &plan.strategies {
            let planned = if strategy.is_headline() {
                plan.trials
            } else {
                plan.runner_trials
            };
            let mut trials_planned = planned;
            let mut trials = Vec::new();
            let mut i = 0;
            while i < trials_planned {
                let t = trial_with(
                    *strategy,
                    *task,
                    seed(plan.salt, *task, *strategy, i),
                    Arc::new(Probe::with_budget(
                        plan.timeout,
                        plan.max_tests.unwrap_or(u64::MAX),
                    )),
                );
                let unsolved = !t.solved;
                trials.push(t);
                if unsolved && !plan.all_trials {
                    break;
                }
                i += 1;
                if i == planned && trials.iter().all(|t| t.solved) {
                    let mean = trials.iter().map(|t| t.tests as f64).sum::<f64>() / f64::from(i);
                    if mean > RARE_TESTS {
                        trials_planned = planned.max(plan.rare_trials);
                    }
                }
            }
            let result = TaskResult {
                workload: task.workload().name().to_string(),
                mutant: task.mutant().to_string(),
                property: task.property().to_string(),
                strategy: strategy.name().to_string(),
                trials_planned,
                trials,
            };
            progress(&result);
            out.push(result);
        }
    }
    out
}

//! Results: trials, their JSON, ETNA's buckets and the summary tables.
//!
//! A (strategy, task) is *solved* when every planned trial found a failure;
//! its time is then the mean time-to-failure over the trials, and its
//! bucket the first of 0.1 s, 1 s, 10 s, 60 s that the mean is within
//! (*Programmable Property-Based Testing* §6.2: "the tasks solved within a certain time limit in the
//! average of 10 trial runs", unsolved when "not solved … for at least one
//! of the trial runs").

use crate::strategy::{Kind, Library, Strategy};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// The bucket limits, in seconds.
pub const BUCKETS: [f64; 4] = [0.1, 1.0, 10.0, 60.0];

/// One trial.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Trial {
    /// Its seed.
    pub seed: u64,
    /// Whether it found a failure within the time limit.
    pub solved: bool,
    /// Seconds to the first failure (or until the time limit).
    pub time: f64,
    /// Inputs checked up to and including the failing one (or in all).
    pub tests: u64,
    /// Inputs discarded by the precondition until then.
    pub discards: u64,
    /// Why the runner stopped early without a failure, if it did.
    pub note: Option<String>,
}

/// The trials of one strategy on one task.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TaskResult {
    /// The workload (`BST`, `RBT`, `STLC`).
    pub workload: String,
    /// The mutant.
    pub mutant: String,
    /// The property.
    pub property: String,
    /// The strategy (`pbt-bespoke`, …).
    pub strategy: String,
    /// Trials planned.
    pub trials_planned: u32,
    /// Trials run (fewer than planned after an unsolved one).
    pub trials: Vec<Trial>,
}

impl TaskResult {
    /// Whether every planned trial found a failure.
    pub fn solved(&self) -> bool {
        self.trials.len() as u32 == self.trials_planned && self.trials.iter().all(|t| t.solved)
    }

    /// Whether some trial found a failure.
    pub fn found(&self) -> bool {
        self.trials.iter().any(|t| t.solved)
    }

    /// The mean time-to-failure in seconds, when solved.
    pub fn mean_time(&self) -> Option<f64> {
        self.solved()
            .then(|| self.trials.iter().map(|t| t.time).sum::<f64>() / self.trials.len() as f64)
    }

    /// The mean tests-to-failure, when solved.
    pub fn mean_tests(&self) -> Option<f64> {
        self.solved().then(|| {
            self.trials.iter().map(|t| t.tests as f64).sum::<f64>() / self.trials.len() as f64
        })
    }

    /// The mean number of generated inputs (tests and discards) to the
    /// failure, when solved.
    pub fn mean_inputs(&self) -> Option<f64> {
        self.solved().then(|| {
            let sum: u64 = self.trials.iter().map(|t| t.tests + t.discards).sum();
            sum as f64 / self.trials.len() as f64
        })
    }

    /// Its bucket: the index of the first limit in [`BUCKETS`] the mean time
    /// is within, or `BUCKETS.len()` when unsolved.
    pub fn bucket(&self) -> usize {
        self.mean_time()
            .and_then(|t| BUCKETS.iter().position(|&b| t <= b))
            .unwrap_or(BUCKETS.len())
    }

    /// The task's key: workload, mutant, property.
    pub fn task(&self) -> (String, String, String) {
        (
            self.workload.clone(),
            self.mutant.clone(),
            self.property.clone(),
        )
    }
}

/// Everything a run wrote: its command, machine, plan and results.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Results {
    /// The command line.
    pub command: String,
    /// The machine (CPU model, cores).
    pub machine: String,
    /// Trials per (strategy, task).
    pub trials: u32,
    /// Time limit of a trial, in seconds.
    pub timeout: f64,
    /// Wall-clock time of the whole run, in seconds.
    pub wall_time: f64,
    /// The results, task by task, strategy by strategy.
    pub results: Vec<TaskResult>,
}

/// The strategies present in `results`, in [`Strategy::ALL`] order.
pub fn strategies(results: &Results) -> Vec<Strategy> {
    let present: BTreeSet<&str> = results
        .results
        .iter()
        .map(|r| r.strategy.as_str())
        .collect();
    Strategy::ALL
        .into_iter()
        .filter(|s| present.contains(s.name()))
        .collect()
}

/// The workloads present in `results`, in order of appearance.
pub fn workloads(results: &Results) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in &results.results {
        if !out.contains(&r.workload) {
            out.push(r.workload.clone());
        }
    }
    out
}

/// The buckets a run with this time limit can fill (a bucket whose lower
/// end is at or past the limit stays empty), each with its label; the
/// last one is the limit itself when that is below 60 s.
pub fn visible_buckets(timeout: f64) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, b) in BUCKETS.iter().enumerate() {
        if i > 0 && BUCKETS[i - 1] >= timeout {
            break;
        }
        let label = if *b > timeout {
            format!("≤ {timeout} s (limit)")
        } else {
            format!("≤ {b} s")
        };
        out.push((i, label));
    }
    out
}

/// Bucket counts of `strategy` on `workload`: one per bucket, then unsolved.
pub fn bucket_counts(results: &Results, workload: &str, strategy: Strategy) -> [usize; 5] {
    let mut counts = [0; 5];
    for r in &results.results {
        if r.workload == workload && r.strategy == strategy.name() {
            counts[r.bucket()] += 1;
        }
    }
    counts
}

/// The bucket table of every workload, as Markdown.
pub fn bucket_table(results: &Results) -> String {
    let mut out = String::new();
    let shown = visible_buckets(results.timeout);
    for w in workloads(results) {
        let n = tasks_of(results, &w).len();
        let _ = writeln!(out, "\n{w} ({n} tasks)\n");
        let _ = write!(out, "| strategy |");
        for (_, label) in &shown {
            let _ = write!(out, " {label} |");
        }
        let _ = writeln!(out, " unsolved | mean time (solved) |");
        let _ = writeln!(out, "|---|{}---:|---:|", "---:|".repeat(shown.len()));
        for s in strategies(results) {
            let c = bucket_counts(results, &w, s);
            let times: Vec<f64> = results
                .results
                .iter()
                .filter(|r| r.workload == w && r.strategy == s.name())
                .filter_map(TaskResult::mean_time)
                .collect();
            let mean = if times.is_empty() {
                "–".to_string()
            } else {
                seconds(times.iter().sum::<f64>() / times.len() as f64)
            };
            let _ = write!(out, "| {} |", s.name());
            for (i, _) in &shown {
                let _ = write!(out, " {} |", c[*i]);
            }
            let _ = writeln!(out, " {} | {mean} |", c[BUCKETS.len()]);
        }
    }
    out
}

/// The distinct tasks of `workload`.
fn tasks_of(results: &Results, workload: &str) -> BTreeSet<(String, String, String)> {
    results
        .results
        .iter()
        .filter(|r| r.workload == workload)
        .map(TaskResult::task)
        .collect()
}

/// A duration in seconds, readably.
pub fn seconds(s: f64) -> String {
    if s < 1e-5 {
        format!("{:.2} µs", s * 1e6)
    } else if s < 1e-3 {
        format!("{:.0} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

/// Mean times over the tasks that every one of `strategies` solved.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// What is compared (e.g. "bespoke, all workloads").
    pub label: String,
    /// Tasks every strategy solved.
    pub tasks: usize,
    /// Each strategy's mean time-to-failure over them (seconds), mean
    /// tests-to-failure, and mean time per generated input (seconds).
    pub means: Vec<(String, f64, f64, f64)>,
    /// The geometric mean over those tasks of each strategy's time divided
    /// by the first strategy's.
    pub geo_ratios: Vec<(String, f64)>,
}

/// Compare `strategies` over the tasks (of `workload`, or all) they all solved.
pub fn compare(
    results: &Results,
    strategies: &[Strategy],
    workload: Option<&str>,
    label: &str,
) -> Comparison {
    // Per task, each strategy's mean time, tests and inputs.
    type Means = BTreeMap<String, (f64, f64, f64)>;
    let mut by_task: BTreeMap<(String, String, String), Means> = BTreeMap::new();
    for r in &results.results {
        if workload.is_some_and(|w| w != r.workload) {
            continue;
        }
        if let (Some(t), Some(n), Some(i)) = (r.mean_time(), r.mean_tests(), r.mean_inputs()) {
            by_task
                .entry(r.task())
                .or_default()
                .insert(r.strategy.clone(), (t, n, i));
        }
    }
    let names: Vec<&str> = strategies.iter().map(|s| s.name()).collect();
    let common: Vec<&Means> = by_task
        .values()
        .filter(|m| names.iter().all(|n| m.contains_key(*n)))
        .collect();
    let k = common.len().max(1) as f64;
    let means = names
        .iter()
        .map(|n| {
            let t = common.iter().map(|m| m[*n].0).sum::<f64>() / k;
            let c = common.iter().map(|m| m[*n].1).sum::<f64>() / k;
            let i = common.iter().map(|m| m[*n].2).sum::<f64>() / k;
            (n.to_string(), t, c, t / i.max(1.0))
        })
        .collect();
    let geo_ratios = names
        .iter()
        .map(|n| {
            let logs = common
                .iter()
                .map(|m| (m[*n].0.max(1e-9) / m[names[0]].0.max(1e-9)).ln())
                .sum::<f64>();
            (n.to_string(), (logs / k).exp())
        })
        .collect();
    Comparison {
        label: label.to_string(),
        tasks: common.len(),
        means,
        geo_ratios,
    }
}

/// The comparisons the summary prints: each kind across libraries, over all
/// workloads and per workload.
pub fn comparisons(results: &Results) -> Vec<Comparison> {
    let present = strategies(results);
    let mut out = Vec::new();
    for kind in [Kind::Bespoke, Kind::TypeBased] {
        let group: Vec<Strategy> = [Library::Pbt, Library::Proptest, Library::Quickcheck]
            .into_iter()
            .map(|l| Strategy::new(l, kind))
            .filter(|s| present.contains(s))
            .collect();
        if group.len() < 2 {
            continue;
        }
        let kind_name = match kind {
            Kind::Bespoke => "bespoke",
            Kind::TypeBased => "type-based",
        };
        out.push(compare(
            results,
            &group,
            None,
            &format!("{kind_name}, all workloads"),
        ));
        for w in workloads(results) {
            out.push(compare(
                results,
                &group,
                Some(&w),
                &format!("{kind_name}, {w}"),
            ));
        }
    }
    if present.len() > 2 {
        out.push(compare(
            results,
            &present,
            None,
            "every strategy, all workloads",
        ));
    }
    out.retain(|c| c.tasks > 0);
    out
}

/// The comparisons as Markdown.
pub fn comparison_table(comparisons: &[Comparison]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n| over the tasks all solved | tasks | strategy | mean time | mean tests | time per input | mean time / first's | geo. mean of time ratios |"
    );
    let _ = writeln!(out, "|---|---:|---|---:|---:|---:|---:|---:|");
    for c in comparisons {
        let base = c.means.first().map_or(1.0, |m| m.1).max(1e-12);
        for ((name, t, n, per), (_, g)) in c.means.iter().zip(&c.geo_ratios) {
            let _ = writeln!(
                out,
                "| {} | {} | {name} | {} | {n:.0} | {} | {:.2}× | {g:.2}× |",
                c.label,
                c.tasks,
                seconds(*t),
                seconds(*per),
                t / base
            );
        }
    }
    out
}

/// Per mutant, the strategies that found it (some trial failed some
/// property) — as Markdown, with the mutants no pbt strategy found listed
/// last.
pub fn mutant_table(results: &Results) -> (String, Vec<String>) {
    let mut found: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for r in &results.results {
        let entry = found
            .entry((r.workload.clone(), r.mutant.clone()))
            .or_default();
        if r.found() {
            entry.insert(r.strategy.clone());
        }
    }
    let present = strategies(results);
    let mut out = String::new();
    let _ = write!(out, "\n| workload | mutant |");
    for s in &present {
        let _ = write!(out, " {} |", s.name());
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "|---|---|{}", "---|".repeat(present.len()));
    let mut missed = Vec::new();
    for ((w, m), by) in &found {
        let _ = write!(out, "| {w} | {m} |");
        for s in &present {
            let _ = write!(out, " {} |", if by.contains(s.name()) { "✓" } else { "·" });
        }
        let _ = writeln!(out);
        if !by.iter().any(|s| s.starts_with("pbt")) {
            missed.push(format!("{w}/{m}"));
        }
    }
    (out, missed)
}

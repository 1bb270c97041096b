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

/// The strategies present in `results`, in [`Strategy::ALL`] order, then
/// [`Strategy::POOLS`] and [`Strategy::MORE`].
pub fn strategies(results: &Results) -> Vec<Strategy> {
    let present: BTreeSet<&str> = results
        .results
        .iter()
        .map(|r| r.strategy.as_str())
        .collect();
    Strategy::ALL
        .into_iter()
        .chain(Strategy::POOLS)
        .chain(Strategy::MORE)
        .chain(Strategy::VARIATIONAL_POOLS)
        .filter(|s| present.contains(s.name()))
        .fold(Vec::new(), |mut out, s| {
            if !out.contains(&s) {
                out.push(s);
            }
            out
        })
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

/// The geometric mean of `xs` (positive), or `None` when empty.
pub fn geo_mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty())
        .then(|| (xs.iter().map(|x| x.max(1e-9).ln()).sum::<f64>() / xs.len() as f64).exp())
}

/// The arithmetic mean of `xs`, or `None` when empty.
pub fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Whether `r` is a task of ETNA's own list (all but the two RBT tasks of
/// [`crate::rbt::ETNA_EXTRA`]).
pub fn in_etna(r: &TaskResult) -> bool {
    r.workload != "RBT"
        || !crate::rbt::ETNA_EXTRA
            .iter()
            .any(|(m, p)| m.name() == r.mutant && p.name() == r.property)
}

/// A subset of the results: a workload, or ETNA's 58 RBT tasks.
#[derive(Clone, Debug)]
pub struct Section {
    /// Its title.
    pub title: String,
    /// The workload.
    pub workload: String,
    /// Only ETNA's own tasks.
    pub etna_only: bool,
}

impl Section {
    /// Whether `r` belongs to it.
    pub fn contains(&self, r: &TaskResult) -> bool {
        r.workload == self.workload && (!self.etna_only || in_etna(r))
    }
}

/// The sections the tables show: every workload, and RBT's ETNA subset
/// beside RBT.
pub fn sections(results: &Results) -> Vec<Section> {
    let mut out = Vec::new();
    for w in workloads(results) {
        let n = tasks_of(results, &w).len();
        out.push(Section {
            title: format!("{w} ({n} tasks)"),
            workload: w.clone(),
            etna_only: false,
        });
        let etna = results
            .results
            .iter()
            .filter(|r| r.workload == w && in_etna(r))
            .map(TaskResult::task)
            .collect::<BTreeSet<_>>()
            .len();
        if etna < n {
            out.push(Section {
                title: format!("{w}, ETNA's {etna} tasks (without {})", n - etna),
                workload: w.clone(),
                etna_only: true,
            });
        }
    }
    out
}

/// The bucket table of every section, as Markdown: the bucket counts, then
/// the geometric mean and the mean of the time-to-failure over the tasks
/// the strategy solved.
pub fn bucket_table(results: &Results) -> String {
    let mut out = String::new();
    let shown = visible_buckets(results.timeout);
    for section in sections(results) {
        let _ = writeln!(out, "\n{}\n", section.title);
        let _ = write!(out, "| strategy | trials |");
        for (_, label) in &shown {
            let _ = write!(out, " {label} |");
        }
        let _ = writeln!(
            out,
            " unsolved | geo. mean time (solved) | mean time (solved) |"
        );
        let _ = writeln!(
            out,
            "|---|---:|{}---:|---:|---:|",
            "---:|".repeat(shown.len())
        );
        for s in strategies(results) {
            let rs: Vec<&TaskResult> = results
                .results
                .iter()
                .filter(|r| section.contains(r) && r.strategy == s.name())
                .collect();
            if rs.is_empty() {
                continue;
            }
            let mut c = [0usize; 5];
            for r in &rs {
                c[r.bucket()] += 1;
            }
            let times: Vec<f64> = rs.iter().filter_map(|r| r.mean_time()).collect();
            let show = |x: Option<f64>| x.map_or("–".to_string(), seconds);
            let planned: BTreeSet<u32> = rs.iter().map(|r| r.trials_planned).collect();
            let planned: Vec<String> = planned.iter().map(u32::to_string).collect();
            let _ = write!(out, "| {} | {} |", s.name(), planned.join("/"));
            for (i, _) in &shown {
                let _ = write!(out, " {} |", c[*i]);
            }
            let _ = writeln!(
                out,
                " {} | {} | {} |",
                c[BUCKETS.len()],
                show(geo_mean(&times)),
                show(mean(&times))
            );
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

/// Times over the tasks that every one of `strategies` solved.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// What is compared (e.g. "bespoke, all workloads").
    pub label: String,
    /// Tasks every strategy solved.
    pub tasks: usize,
    /// Each strategy's geometric mean and mean time-to-failure over them
    /// (seconds), mean tests-to-failure, and mean time per generated input
    /// (seconds).
    pub means: Vec<(String, f64, f64, f64, f64)>,
}

impl Comparison {
    /// The geometric mean time of `strategy`.
    pub fn geo(&self, strategy: &str) -> Option<f64> {
        self.means.iter().find(|m| m.0 == strategy).map(|m| m.1)
    }
}

/// Compare `strategies` over the tasks (those `keep` accepts) they all solved.
pub fn compare(
    results: &Results,
    strategies: &[Strategy],
    keep: &dyn Fn(&TaskResult) -> bool,
    label: &str,
) -> Comparison {
    // Per task, each strategy's mean time, tests and inputs.
    type Means = BTreeMap<String, (f64, f64, f64)>;
    let mut by_task: BTreeMap<(String, String, String), Means> = BTreeMap::new();
    for r in results.results.iter().filter(|r| keep(r)) {
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
    let means = names
        .iter()
        .map(|n| {
            let ts: Vec<f64> = common.iter().map(|m| m[*n].0).collect();
            let cs: Vec<f64> = common.iter().map(|m| m[*n].1).collect();
            let is: Vec<f64> = common.iter().map(|m| m[*n].2).collect();
            let t = mean(&ts).unwrap_or(0.0);
            let i = mean(&is).unwrap_or(0.0);
            (
                n.to_string(),
                geo_mean(&ts).unwrap_or(0.0),
                t,
                mean(&cs).unwrap_or(0.0),
                t / i.max(1.0),
            )
        })
        .collect();
    Comparison {
        label: label.to_string(),
        tasks: common.len(),
        means,
    }
}

/// The comparisons the summary prints: each kind across libraries, over all
/// workloads and per section (workload, and RBT's ETNA subset).
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
            Kind::Variational => "variational",
        };
        out.push(compare(
            results,
            &group,
            &|_| true,
            &format!("{kind_name}, all workloads"),
        ));
        for section in sections(results) {
            out.push(compare(
                results,
                &group,
                &|r| section.contains(r),
                &format!("{kind_name}, {}", section.title),
            ));
        }
    }
    out.retain(|c| c.tasks > 0);
    out
}

/// The comparisons as Markdown.
pub fn comparison_table(comparisons: &[Comparison]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n| over the tasks all solved | tasks | strategy | geo. mean time | geo. mean / first's | mean time | mean / first's | mean tests | time per input |"
    );
    let _ = writeln!(out, "|---|---:|---|---:|---:|---:|---:|---:|---:|");
    for c in comparisons {
        let (g0, m0) = c.means.first().map_or((1.0, 1.0), |m| (m.1, m.2));
        for (name, g, t, n, per) in &c.means {
            let _ = writeln!(
                out,
                "| {} | {} | {name} | {} | {:.2}× | {} | {:.2}× | {n:.0} | {} |",
                c.label,
                c.tasks,
                seconds(*g),
                g / g0.max(1e-12),
                seconds(*t),
                t / m0.max(1e-12),
                seconds(*per),
            );
        }
    }
    out
}

/// The headline: every pbt strategy against proptest's and quickcheck's
/// bespoke strategies, by geometric-mean time-to-failure over the tasks
/// all three solved, over every workload and per section; one row per pbt
/// strategy, the speed-ups `proptest / pbt` and `quickcheck / pbt`. The
/// best pbt strategy of a section is the one with the largest smaller
/// speed-up among those compared on at least as many tasks as
/// `pbt-bespoke` (so that a strategy solving only the easy tasks cannot
/// win); it is marked with `**`.
pub fn headline_table(results: &Results) -> String {
    let present = strategies(results);
    let rivals = [
        Strategy::new(Library::Proptest, Kind::Bespoke),
        Strategy::new(Library::Quickcheck, Kind::Bespoke),
    ];
    if !rivals.iter().all(|r| present.contains(r)) {
        return String::new();
    }
    /// A scope of the headline: its label and which results it keeps.
    type Scope = (String, Box<dyn Fn(&TaskResult) -> bool>);
    let mut scopes: Vec<Scope> = vec![("all workloads".to_string(), Box::new(|_| true))];
    for section in sections(results) {
        let title = section.title.clone();
        scopes.push((title, Box::new(move |r| section.contains(r))));
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n| scope | pbt strategy | tasks all three solved | pbt geo. mean | proptest-bespoke | quickcheck-bespoke | proptest / pbt | quickcheck / pbt | pbt mean | proptest mean | quickcheck mean |"
    );
    let _ = writeln!(
        out,
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for (label, keep) in &scopes {
        let rows: Vec<(Strategy, Comparison)> = present
            .iter()
            .filter(|s| s.library == Library::Pbt)
            .map(|s| {
                (
                    *s,
                    compare(results, &[*s, rivals[0], rivals[1]], &**keep, label),
                )
            })
            .filter(|(_, c)| c.tasks > 0)
            .collect();
        let floor = rows
            .iter()
            .find(|(s, _)| s.name() == "pbt-bespoke")
            .map_or(0, |(_, c)| c.tasks);
        let speedups = |c: &Comparison| {
            let g = c.means[0].1.max(1e-12);
            (c.means[1].1 / g, c.means[2].1 / g)
        };
        let best = rows
            .iter()
            .filter(|(_, c)| c.tasks >= floor)
            .max_by(|a, b| {
                let (x, y) = (speedups(&a.1), speedups(&b.1));
                x.0.min(x.1).total_cmp(&y.0.min(y.1))
            })
            .map(|(s, _)| *s);
        for (s, c) in &rows {
            let (vp, vq) = speedups(c);
            let mark = if Some(*s) == best { "**" } else { "" };
            let _ = writeln!(
                out,
                "| {label} | {mark}{}{mark} | {} | {} | {} | {} | {vp:.2}× | {vq:.2}× | {} | {} | {} |",
                s.name(),
                c.tasks,
                seconds(c.means[0].1),
                seconds(c.means[1].1),
                seconds(c.means[2].1),
                seconds(c.means[0].2),
                seconds(c.means[1].2),
                seconds(c.means[2].2),
            );
        }
    }
    out
}

/// Per mutant, the strategies that found it (some trial failed some
/// property: ✓; ran but did not: ·; not run: –) — as Markdown, with the
/// mutants no pbt strategy found listed last.
pub fn mutant_table(results: &Results) -> (String, Vec<String>) {
    let mut found: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    let mut ran: BTreeSet<(String, String, String)> = BTreeSet::new();
    for r in &results.results {
        ran.insert((r.workload.clone(), r.mutant.clone(), r.strategy.clone()));
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
            let mark = if by.contains(s.name()) {
                "✓"
            } else if ran.contains(&(w.clone(), m.clone(), s.name().to_string())) {
                "·"
            } else {
                "–"
            };
            let _ = write!(out, " {mark} |");
        }
        let _ = writeln!(out);
        if !by.iter().any(|s| s.starts_with("pbt")) {
            missed.push(format!("{w}/{m}"));
        }
    }
    (out, missed)
}

//! Tests to failure: each of pbt's other runners against the generational
//! runner with the same generators (`pbt-bespoke` or `pbt-type`), over the
//! tasks both solved. A runner that changes what is tested — mutation,
//! climbing, enumeration — shows here as fewer or more tests; one that
//! changes only how fast tests run (parallel) shows the same count. Unlike
//! time, the count does not depend on the machine's load, so strategies
//! measured in different runs compare.

use crate::results::{geo_mean, sections, strategies, Results};
use crate::strategy::{Library, Runner, Strategy};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One strategy in one section against its generational baseline.
#[derive(Clone, Debug, PartialEq)]
pub struct Effort {
    /// The section (workload, or RBT's ETNA subset).
    pub section: String,
    /// The runner strategy.
    pub strategy: Strategy,
    /// The tasks of the section it was run on, and how many it solved.
    pub run: usize,
    /// How many of them it solved.
    pub solved: usize,
    /// The tasks both it and its baseline solved.
    pub tasks: usize,
    /// Geometric mean, over those tasks, of its mean tests to failure.
    pub tests: f64,
    /// The same for the baseline.
    pub baseline: f64,
}

/// The generational pbt strategy with `s`'s generators.
pub fn baseline(s: Strategy) -> Strategy {
    Strategy::new(Library::Pbt, s.kind)
}

/// Every pbt runner strategy of `results` against its baseline, per
/// section (a strategy whose baseline is absent is left out).
pub fn efforts(results: &Results) -> Vec<Effort> {
    let present = strategies(results);
    let runners: Vec<Strategy> = present
        .iter()
        .copied()
        .filter(|s| s.library == Library::Pbt && s.runner != Runner::Generational)
        .filter(|s| present.contains(&baseline(*s)))
        .collect();
    let mut out = Vec::new();
    for section in sections(results) {
        // Per task, each solved strategy's mean tests.
        let mut by_task: BTreeMap<_, BTreeMap<&str, f64>> = BTreeMap::new();
        for r in results.results.iter().filter(|r| section.contains(r)) {
            if let Some(n) = r.mean_tests() {
                by_task
                    .entry(r.task())
                    .or_default()
                    .insert(r.strategy.as_str(), n);
            }
        }
        for &s in &runners {
            let (name, base) = (s.name(), baseline(s).name());
            let own = results
                .results
                .iter()
                .filter(|r| section.contains(r) && r.strategy == name);
            let (run, solved) = own.fold((0, 0), |(n, k), r| (n + 1, k + usize::from(r.solved())));
            if run == 0 {
                continue;
            }
            let (mine, theirs): (Vec<f64>, Vec<f64>) = by_task
                .values()
                .filter_map(|m| Some((*m.get(name)?, *m.get(base)?)))
                .unzip();
            out.push(Effort {
                section: section.title.clone(),
                strategy: s,
                run,
                solved,
                tasks: mine.len(),
                tests: geo_mean(&mine).unwrap_or(0.0),
                baseline: geo_mean(&theirs).unwrap_or(0.0),
            });
        }
    }
    out
}

/// The efforts as Markdown: `baseline / strategy` above 1 means the runner
/// needed fewer tests.
pub fn effort_table(efforts: &[Effort]) -> String {
    let mut out = String::new();
    if efforts.is_empty() {
        return out;
    }
    let _ = writeln!(
        out,
        "\n| section | strategy | solved | tasks both solved | geo. mean tests | generational's | generational / strategy |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---:|");
    for e in efforts {
        let ratio = if e.tests > 0.0 {
            format!("{:.2}×", e.baseline / e.tests)
        } else {
            "–".to_string()
        };
        let _ = writeln!(
            out,
            "| {} | {} | {}/{} | {} | {:.1} | {:.1} | {ratio} |",
            e.section, e.strategy, e.solved, e.run, e.tasks, e.tests, e.baseline
        );
    }
    out
}

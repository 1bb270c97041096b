//! An exhaustive small-scope runner for pbt: every input up to a bound,
//! smallest first (the small scope hypothesis of SmallCheck and LeanCheck:
//! most bugs have a small counterexample).
//!
//! It is written against pbt's public API alone (the `Property` trait and
//! the runner components of `pbt::runners::components`), which is the
//! point: a runner is user code. It enumerates *choice sequences* — the
//! draws a property's generators make — in shortlex order (shorter first,
//! then lexicographically smaller), so the first failing input it meets is
//! the smallest one in the order the integrated shrinker minimizes. Every
//! failure goes down the same failure path as the built-in runners': it is
//! saved to the regressions file, shrunk, printed, and replayed first on the
//! next run, and the `Report` is the same.
//!
//! ```text
//! replay the saved cases (all of them)
//! level ← [the empty sequence]
//! for depth in 1..=bound.depth:
//!     for each sequence s of level, each choice v ≤ the bound of s's next draw:
//!         input ← replay(s ++ [v])        (v = 0 replays as s: not tested again)
//!         same value as an earlier input? skip it
//!         run(input): fail → the failure path; pass → count it
//!         the generators read past s ++ [v]? keep it for the next level
//! all N inputs up to the bound passed
//! ```
//!
//! [`exhaustive_prefix`] tests the first inputs of this order (1 000 by
//! default) and then generates at random: the small inputs first, with no
//! bound on the rest.
//!
//! Select it with `#[property_test(runner = pbt_exhaustive::exhaustive)]`,
//! or with a bound of your own:
//! `#[property_test(runner = pbt_exhaustive::exhaustive_to(pbt_exhaustive::Bound::depth(2)))]`.
//!
//! ```
//! use pbt::prelude::*;
//! use pbt_exhaustive::{exhaustive_to, Bound};
//! // Every pair of booleans: four inputs, all of them tested.
//! let prop = property! { forall a: bool; forall b: bool; check (a && b) == (b && a) };
//! let config = Config::default().ignore_env().regressions(pbt::runners::Regressions::Off);
//! let report = exhaustive_to(&prop, config, Bound::depth(4));
//! assert!(report.passed());
//! assert_eq!(report.tests, 4);
//! assert!(report.notes.iter().any(|n| n.contains("all 4 inputs")), "{report}");
//! ```
#![forbid(unsafe_code)]

use pbt::choices::{Replay, Tracer};
use pbt::runners::components::{
    replay_saved, report_failure, supervise, AnyInputs, Discovery, DynProperty, Found,
    NotGenerated, Plan, Tested, Watch,
};
use pbt::runners::{Config, Report};
use pbt::Property;
use std::collections::HashSet;
use std::fmt;
use std::ops::ControlFlow;
use std::time::Instant;

mod prefix;
pub use prefix::{exhaustive_prefix, exhaustive_prefix_to, PREFIX};

/// How far the enumeration goes: choice sequences up to `depth` draws
/// (trailing zero draws not counted), and at most `count` generated inputs
/// (tested, discarded or duplicate) in all.
///
/// ```
/// use pbt_exhaustive::Bound;
/// let bound = Bound::depth(3).count(500);
/// assert_eq!((bound.depth, bound.count), (3, 500));
/// assert_eq!(bound.to_string(), "depth 3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// The longest choice sequence enumerated.
    pub depth: usize,
    /// The most inputs generated.
    pub count: u64,
}

impl Bound {
    /// Sequences up to `depth` draws, at most [`Bound::DEFAULT_COUNT`] inputs.
    pub fn depth(depth: usize) -> Bound {
        Bound {
            depth,
            count: Bound::DEFAULT_COUNT,
        }
    }

    /// This bound with at most `count` inputs.
    pub fn count(self, count: u64) -> Bound {
        Bound { count, ..self }
    }

    /// The default count bound: ten thousand inputs.
    pub const DEFAULT_COUNT: u64 = 10_000;
}

impl Default for Bound {
    /// Depth 8, at most [`Bound::DEFAULT_COUNT`] inputs.
    fn default() -> Bound {
        Bound::depth(8)
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "depth {}", self.depth)
    }
}

/// Test every input of `prop` up to the default [`Bound`], smallest first.
/// Inputs are generated at `config.max_size`; the saved cases are replayed
/// first, as by every runner.
///
/// ```
/// use pbt::prelude::*;
/// // The smallest failing input, found without shrinking.
/// let prop = property! { forall x: u8; check x < 42 };
/// let config = Config::default().ignore_env().regressions(pbt::runners::Regressions::Off);
/// let failure = pbt_exhaustive::exhaustive(&prop, config).failure.unwrap();
/// assert_eq!(failure.counterexample[0].value, "42");
/// ```
pub fn exhaustive<P: Property>(prop: &P, config: Config) -> Report {
    exhaustive_to(prop, config, Bound::default())
}

/// Test every input of `prop` up to `bound`, smallest first.
pub fn exhaustive_to<P: Property>(prop: &P, config: Config, bound: Bound) -> Report {
    enumerate(prop, config, bound)
}

/// The runner (compiled once for every property).
fn enumerate(prop: &dyn DynProperty, config: Config, bound: Bound) -> Report {
    let started = Instant::now();
    let plan = Plan::new(&config, &prop.structure());
    supervise(prop, &plan, |watch| {
        let report = match replay_saved(prop, &plan, watch, Report::empty("exhaustive", &plan)) {
            ControlFlow::Continue(report) => report,
            ControlFlow::Break(failed) => return failed,
        };
        let mut search = Search {
            prop,
            plan: &plan,
            watch,
            bound,
            seen: HashSet::new(),
            generated: 0,
            duplicates: 0,
            report,
        };
        match search.run() {
            ControlFlow::Break(failed) => failed,
            ControlFlow::Continue(end) => search.passed(end),
        }
    })
    .finish(started)
}

/// A sequence whose generators read past it: its children are the next
/// level. `bounds` are the bounds of every draw its replay made.
struct Node {
    prefix: Vec<u64>,
    bounds: Vec<u64>,
}

/// How the enumeration ended without a failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// No generator draws more choices: every input was tested.
    Exhausted,
    /// Every sequence up to the depth bound was tested.
    Depth,
    /// The count bound stopped it at this depth.
    Count(usize),
}

impl Node {
    /// `prefix` as a node, when its replay drew past it.
    fn extending(prefix: Vec<u64>, bounds: Vec<u64>) -> Option<Node> {
        (bounds.len() > prefix.len()).then_some(Node { prefix, bounds })
    }
}

/// The state of one enumeration.
struct Search<'a> {
    prop: &'a dyn DynProperty,
    plan: &'a Plan,
    watch: &'a Watch,
    bound: Bound,
    /// The printed values tested so far (distinct sequences can make equal
    /// values; each value is tested once).
    seen: HashSet<Vec<String>>,
    generated: u64,
    duplicates: u64,
    report: Report,
}

impl Search<'_> {
    /// Level by level, each in lexicographic order: shortlex.
    fn run(&mut self) -> ControlFlow<Report, End> {
        let mut level = self.visit(Vec::new())?.into_iter().collect::<Vec<_>>();
        for depth in 1..=self.bound.depth {
            if level.is_empty() {
                return ControlFlow::Continue(End::Exhausted);
            }
            let mut next = Vec::new();
            for node in &level {
                let pos = node.prefix.len();
                if node.bounds.len() > pos + 1 {
                    // `prefix ++ [0]` replays as `prefix` (a replay pads with
                    // zeros): the same input, kept only for its children.
                    let prefix = [&node.prefix[..], &[0]].concat();
                    next.push(Node {
                        prefix,
                        bounds: node.bounds.clone(),
                    });
                }
                for v in 1..=node.bounds[pos] {
                    if self.generated >= self.bound.count {
                        return ControlFlow::Continue(End::Count(depth));
                    }
                    let prefix = [&node.prefix[..], &[v]].concat();
                    next.extend(self.visit(prefix)?);
                }
            }
            level = next;
        }
        ControlFlow::Continue(if level.is_empty() {
            End::Exhausted
        } else {
            End::Depth
        })
    }

    /// Replay `prefix`, test the input it makes, and return it as a node
    /// when its generators read past it.
    fn visit(&mut self, prefix: Vec<u64>) -> ControlFlow<Report, Option<Node>> {
        self.generated += 1;
        let size = self.plan.config.max_size;
        let found = Found::Choices {
            choices: prefix.clone(),
            size,
        };
        self.watch.at_found(&found);
        let observer = pbt::statistics::Observer::start();
        let (generated, bounds) = self.replay(&prefix, size);
        let tested = match generated {
            Ok(inputs) => {
                let printed = self.prop.print_any(&*inputs).into_iter();
                if !self.seen.insert(printed.map(|b| b.value).collect()) {
                    // Tested already; later draws may still make new values.
                    self.duplicates += 1;
                    return ControlFlow::Continue(Node::extending(prefix, bounds));
                }
                Tested::from(self.prop.run_any(&*inputs, self.watch))
            }
            Err(not) => Tested::from(not),
        };
        self.report
            .statistics
            .record_tested(observer, &tested, size);
        let fault = match tested {
            Tested::Passed => {
                self.report.tests += 1;
                None
            }
            Tested::Discarded(_) => {
                self.report.discards += 1;
                None
            }
            Tested::Failed(fault) => Some(fault),
        };
        if let Some(fault) = fault {
            let report =
                std::mem::replace(&mut self.report, Report::empty("exhaustive", self.plan));
            let discovery = Discovery::fresh(found, fault);
            return ControlFlow::Break(report_failure(
                self.prop, self.plan, self.watch, discovery, report,
            ));
        }
        ControlFlow::Continue(Node::extending(prefix, bounds))
    }

    /// Generate from `prefix` (zeros after it), under the time limit, with
    /// the bound of every draw traced.
    fn replay(&self, prefix: &[u64], size: usize) -> (Result<AnyInputs, NotGenerated>, Vec<u64>) {
        let mut tracer = Tracer::new(Replay::new(prefix));
        let ticket = self.watch.start();
        let mut generated = self.prop.generate_from(&mut tracer, size);
        if self.watch.finish(ticket) {
            generated = Err(NotGenerated::Failed(format!(
                "the generator ran longer than the time limit of {:?}",
                self.watch.limit().unwrap_or_default()
            )));
        }
        (generated, tracer.into_trace().1)
    }

    /// The report of a run that found no failure, saying how far it went.
    fn passed(&mut self, end: End) -> Report {
        let mut report =
            std::mem::replace(&mut self.report, Report::empty("exhaustive", self.plan));
        let (n, bound) = (report.tests, self.bound);
        let skipped = match (report.discards, self.duplicates) {
            (0, 0) => String::new(),
            (d, s) => format!(" ({d} discarded, {s} duplicates skipped)"),
        };
        report.notes.push(match end {
            End::Exhausted => format!(
                "exhaustive: all {n} inputs passed{skipped}; no input draws more choices than {bound}"
            ),
            End::Depth => format!("exhaustive: all {n} inputs up to {bound} passed{skipped}"),
            End::Count(depth) => format!(
                "exhaustive: all {n} inputs up to depth {} passed{skipped}; the count bound of {} inputs stopped the enumeration inside depth {depth}",
                depth - 1,
                bound.count
            ),
        });
        if n == 0 && report.discards > 0 {
            return report.gave_up();
        }
        report
    }
}

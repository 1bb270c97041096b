//! The combinatorial runner: online generator thinning (*Programmable Property-Based Testing* §2.5,
//! Fig. 7; Goldstein et al., "Do judge a test by its cover").
//!
//! ```text
//! loop: candidates ← generate k cases
//!       pick the candidate whose features add the most to `covered`
//!       covered ∪= its features; verdict ← run(it)   (only that one runs)
//!       fail → shrink, print, save (as the generational runner)
//! ```
//!
//! Features are constructor names and (parent, child) constructor pairs. By
//! default they come from each variable's constructor view (its type's
//! `Constructors`, which `#[derive(Arbitrary)]` implements) and, for a
//! variable without one or whose view is empty (std types are transparent),
//! are read off its printed (`Debug`) value, so any type works.
//! `Config::features` supplies another feature function. The runner pays k
//! generations per test, so it suits properties whose check is expensive
//! (compilers, databases), not cheap ones.

use crate::components::{
    observe_run, quietly, replay_saved, report_failure, supervise, AnyInputs, CaseSeed, Discovery,
    DynProperty, Fault, Found, NotGenerated, Plan, Watch,
};
use crate::config::{Config, FeatureFn};
use crate::report::Report;
use pbt_core::property::NodeView;
use pbt_core::{Binding, Outcome, Property, Structure};
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::time::Instant;

/// Run `prop`, choosing each test among `config.candidates` generated ones by
/// the new features it covers.
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::{combinatorial, Config, Regressions};
/// let prop = Prop::new(Forall::new("x", "Option<bool>", Check::new(|&(x, ()): &(Option<bool>, ())| x != Some(false))));
/// let report = combinatorial(&prop, Config::default().seed(3).regressions(Regressions::Off));
/// assert_eq!(report.failure.unwrap().counterexample[0].value, "Some(false)");
/// ```
pub fn combinatorial<P: Property>(prop: &P, config: Config) -> Report {
    run_combinatorial(prop, config)
}

fn run_combinatorial(prop: &dyn DynProperty, config: Config) -> Report {
    let started = Instant::now();
    let plan = Plan::new(&config, &prop.structure());
    let report = Report::empty("combinatorial", &plan);
    let k = plan.config.candidates.max(1) as u64;
    let features = match plan.config.features {
        Some(f) => Features::Printed(f),
        None => Features::Default(variables(&prop.structure())),
    };
    let mut covered: HashSet<String> = HashSet::new();
    let report = supervise(prop, &plan, |watch| {
        let mut report = match replay_saved(prop, &plan, watch, report) {
            ControlFlow::Continue(report) => report,
            ControlFlow::Break(failed) => return failed,
        };
        let fail = |case, fault, report| {
            report_failure(
                prop,
                &plan,
                watch,
                Discovery::fresh(Found::Case(case), fault),
                report,
            )
        };
        let mut n = 0u64;
        while report.tests < plan.config.cases || report.statistics.keep_testing() {
            let thinned = thin(prop, &plan, watch, n, k, &features, &mut covered);
            n += 1;
            let verdict = match thinned {
                Thinned::Picked(case, inputs) => {
                    match run_picked(prop, watch, &case, &*inputs, &mut report) {
                        Outcome::Fail(reason) => return fail(case, Fault::Check(reason), report),
                        verdict => verdict,
                    }
                }
                Thinned::NoneGenerated => Outcome::Discard,
                Thinned::Failed(case, fault) => return fail(case, fault, report),
            };
            if verdict == Outcome::Pass {
                report.tests += 1;
                continue;
            }
            report.discards += 1;
            if report.statistics.too_many_discards(&plan, report.discards) {
                return report.gave_up();
            }
        }
        report
            .notes
            .push(format!("{} features covered", covered.len()));
        report
    })
    .finish(started);
    observe_run(&plan, &report);
    report
}

/// Run the picked candidate of `case`, its statistics recorded in `report`.
fn run_picked(
    prop: &dyn DynProperty,
    watch: &Watch,
    case: &CaseSeed,
    inputs: &dyn std::any::Any,
    report: &mut Report,
) -> Outcome {
    watch.at_case(case);
    let observer = pbt_core::statistics::Observer::start();
    let verdict = prop.run_any(inputs, watch);
    report.statistics.record(observer, &verdict, case.size);
    verdict
}

/// What thinning the candidates of one test came to.
enum Thinned {
    /// The candidate adding the most uncovered features.
    Picked(CaseSeed, AnyInputs),
    /// No candidate generated (all rejected).
    NoneGenerated,
    /// A candidate's user code failed (its generator, or the feature
    /// function, panicked): the candidate's case and the fault.
    Failed(CaseSeed, Fault),
}

/// Generate the `k` candidates of test `n` and keep the one adding the most
/// uncovered features (the first among equals).
fn thin(
    prop: &dyn DynProperty,
    plan: &Plan,
    watch: &Watch,
    n: u64,
    k: u64,
    features: &Features,
    covered: &mut HashSet<String>,
) -> Thinned {
    let size = plan.config.size_of(n);
    let mut best: Option<Candidate> = None;
    for j in 0..k {
        let case = CaseSeed {
            seed: plan.case(n.saturating_mul(k).saturating_add(j)).seed,
            size,
        };
        watch.at_case(&case);
        let inputs = match prop.generate_traced(&Found::Case(case), watch) {
            Ok(traced) => traced.inputs,
            Err(NotGenerated::Discarded(_)) => continue,
            Err(NotGenerated::Failed(reason)) => {
                return Thinned::Failed(case, Fault::Generator(reason))
            }
        };
        let found = match quietly(|| features.of(prop, &*inputs)) {
            Ok(found) => found,
            Err(panic) => {
                let reason = format!("the feature function panicked: {panic}");
                return Thinned::Failed(case, Fault::Annotation(reason));
            }
        };
        let new = found.iter().filter(|f| !covered.contains(*f)).count();
        if best.as_ref().is_none_or(|b| new > b.new) {
            best = Some(Candidate {
                new,
                case,
                inputs,
                features: found,
            });
        }
    }
    let Some(best) = best else {
        return Thinned::NoneGenerated;
    };
    covered.extend(best.features);
    Thinned::Picked(best.case, best.inputs)
}

/// A generated candidate of one test.
struct Candidate {
    /// How many of its features are not covered yet.
    new: usize,
    case: CaseSeed,
    inputs: AnyInputs,
    features: Vec<String>,
}

/// Where a candidate's features come from.
enum Features {
    /// The user's function of the printed variables.
    Printed(FeatureFn),
    /// Constructor views, and printed values where there is none; with the
    /// names of the variables.
    Default(Vec<&'static str>),
}

impl Features {
    /// The features of `inputs`, sorted and without duplicates.
    fn of(&self, prop: &dyn DynProperty, inputs: &dyn std::any::Any) -> Vec<String> {
        let names = match self {
            Features::Printed(f) => return f(&prop.print_any(inputs)),
            Features::Default(names) => names,
        };
        let mut viewed = Vec::new();
        prop.constructors_any(inputs, &mut viewed);
        let mut out = Vec::new();
        for (name, c) in &viewed {
            out.push(format!("{name}:{}", c.name));
            out.push(format!("{name}:{}>{}", c.parent.unwrap_or(""), c.name));
        }
        let unviewed = |name: &&str| !viewed.iter().any(|(n, _)| n == name);
        if names.iter().any(unviewed) {
            let printed: Vec<Binding> = prop
                .print_any(inputs)
                .into_iter()
                .filter(|b| unviewed(&b.name))
                .collect();
            out.extend(constructor_features(&printed));
        }
        out.sort();
        out.dedup();
        out
    }
}

/// The names of the variables of a property with this structure.
fn variables(structure: &Structure) -> Vec<&'static str> {
    structure
        .variables()
        .filter_map(|v| match v {
            NodeView::Forall { name, .. } => Some(*name),
            _ => None,
        })
        .collect()
}

/// Constructor names and (parent, child) constructor pairs, read off each
/// printed value: an identifier starting with a capital letter is a
/// constructor; `(`, `{` and `[` open its arguments (a `[` alone stands for a
/// sequence). Features are prefixed with the variable's name.
///
/// ```
/// use pbt_core::Binding;
/// let b = Binding { name: "e", ty: "Expr", value: "Add(Lit(1), Neg(Lit(2)))".into() };
/// let f = pbt_runners::constructor_features(&[b]);
/// assert!(f.contains(&"e:Add>Neg".to_string()) && f.contains(&"e:Neg>Lit".to_string()));
/// ```
pub fn constructor_features(bindings: &[Binding]) -> Vec<String> {
    let mut out = Vec::new();
    for b in bindings {
        let mut stack: Vec<String> = vec![String::new()];
        let mut chars = b.value.chars().peekable();
        let mut pending: Option<String> = None;
        while let Some(c) = chars.next() {
            if c.is_alphabetic() || c == '_' {
                let mut word = c.to_string();
                while let Some(&d) = chars.peek() {
                    if d.is_alphanumeric() || d == '_' {
                        word.push(d);
                        chars.next();
                    } else {
                        break;
                    }
                }
                if word.starts_with(char::is_uppercase) {
                    let parent = stack.last().cloned().unwrap_or_default();
                    out.push(format!("{}:{word}", b.name));
                    out.push(format!("{}:{parent}>{word}", b.name));
                    pending = Some(word);
                }
                continue;
            }
            match c {
                '(' | '{' | '[' => {
                    let opened = pending.take().unwrap_or_else(|| {
                        if c == '[' {
                            "[]".to_string()
                        } else {
                            stack.last().cloned().unwrap_or_default()
                        }
                    });
                    if c == '[' && opened == "[]" {
                        let parent = stack.last().cloned().unwrap_or_default();
                        out.push(format!("{}:{parent}>[]", b.name));
                    }
                    stack.push(opened);
                }
                ')' | '}' | ']' => {
                    pending = None;
                    if stack.len() > 1 {
                        stack.pop();
                    }
                }
                c if c.is_whitespace() => {}
                _ => pending = None,
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

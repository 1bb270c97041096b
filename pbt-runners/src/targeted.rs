//! The targeted runner (Target, *Programmable Property-Based Testing* §2.4, Fig. 33; *Flexible and Automatic Targeted Property-Based Testing* §4).
//!
//! The loop is [`crate::components::feedback_loop`] steering towards inputs
//! that maximise a value: what the check reports with `target(x)`, or — for
//! a property that reports none — the utility of its preconditions, which
//! `property!` derives from each `implies` (*Flexible and Automatic Targeted Property-Based Testing* §3), so the search
//! climbs towards inputs that satisfy them. Search: hill climbing with
//! random restarts (the default, `Pool::HillClimbing { restart: RESTART }`:
//! a climb that has gone [`RESTART`] (1 000) mutants without improving starts
//! again from a fresh input, so the climbs start from across the size
//! schedule), hill climbing without restarts (`Pool::StaticSingleton`, the
//! paper's static singleton), simulated annealing
//! (`Config::pool(Pool::SimulatedAnnealing { .. })`), or any seed pool.
//! [`generalized`] takes a state and an update function instead
//! (*Flexible and Automatic Targeted Property-Based Testing* Fig. 4).

use crate::components::feedback_loop::{feedback_loop, no_probe};
use crate::components::seed_pool::{Energy, Pool, RESTART};
use crate::components::utility::{Always, Generalized, Maximize, Utility};
use crate::components::{observe_run, replay_saved, supervise, DynProperty, Plan};
use crate::config::Config;
use crate::report::Report;
use pbt_core::Property;
use std::ops::ControlFlow;
use std::time::Instant;

/// Search for a failing input by maximising `target(x)` (or the
/// preconditions' utility).
///
/// ```
/// use pbt_core::feedback::target;
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::{targeted, Config, Regressions};
/// // Fails only near x = 40_000, a one-in-100_000 region for random generation.
/// let prop = Prop::new(Forall::new("x", "u32", Check::new(|&(x, ()): &(u32, ())| {
///     target(-(f64::from(x) - 40_000.0).abs());
///     x.abs_diff(40_000) > 3
/// })).gen(|_: &()| pbt_core::gen::int(0..100_000u32)));
/// let report = targeted(&prop, Config::default().cases(20_000).seed(2).regressions(Regressions::Off));
/// assert!(!report.passed());
/// ```
pub fn targeted<P: Property>(prop: &P, config: Config) -> Report {
    let pool = config
        .pool
        .unwrap_or(Pool::HillClimbing { restart: RESTART });
    let mut utility: Box<dyn Utility> = match pool {
        Pool::SimulatedAnnealing { .. } => Box::new(Always),
        _ => Box::new(Maximize),
    };
    run_targeted(prop, config, pool, &mut *utility, "targeted")
}

/// Generalized targeting (*Flexible and Automatic Targeted Property-Based Testing* §4): the check reports data `X` with
/// `observe(x)`; `update(&mut state, &x)` folds it into the history state and
/// returns whether the state changed, which makes the input worth mutating.
/// Targeted PBT is `update = max`; coverage is `update = ∪`.
///
/// ```
/// use pbt_core::feedback::observe;
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::{generalized, Config, Regressions};
/// use std::collections::HashSet;
/// let prop = Prop::new(Forall::new("x", "u8", Check::new(|&(x, ()): &(u8, ())| { observe(x % 7); true })));
/// let report = generalized(&prop, Config::default().cases(300).regressions(Regressions::Off),
///     HashSet::new(), |seen: &mut HashSet<u8>, r: &u8| seen.insert(*r));
/// assert!(report.passed());
/// ```
pub fn generalized<P, S, X>(
    prop: &P,
    config: Config,
    state: S,
    update: impl FnMut(&mut S, &X) -> bool + 'static,
) -> Report
where
    P: Property,
    X: 'static,
{
    let pool = config
        .pool
        .unwrap_or(Pool::FifoQueue(Energy::Doubling(5_000)));
    let mut utility = Generalized::new(state, update);
    run_targeted(prop, config, pool, &mut utility, "generalized")
}

fn run_targeted(
    prop: &dyn DynProperty,
    config: Config,
    pool: Pool,
    utility: &mut dyn Utility,
    runner: &'static str,
) -> Report {
    let started = Instant::now();
    let plan = Plan::new(&config, &prop.structure());
    let report = Report::empty(runner, &plan);
    let mut pool = pool.build();
    let mut probe = no_probe;
    let report = supervise(prop, &plan, |watch| {
        match replay_saved(prop, &plan, watch, report) {
            ControlFlow::Continue(report) => {
                feedback_loop(prop, &plan, watch, &mut *pool, utility, &mut probe, report)
            }
            ControlFlow::Break(failed) => failed,
        }
    })
    .finish(started);
    observe_run(&plan, &report);
    report
}

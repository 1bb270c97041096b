//! The coverage-guided fuzzing runner (FuzzChick; *Programmable Property-Based Testing* §2.3, Fig. 14).
//!
//! The loop is [`crate::components::feedback_loop`] with a seed pool
//! (default: a FIFO queue, FuzzChick's choice, with *Flexible and Automatic Targeted Property-Based Testing*'s power
//! schedule — energy 5 000, doubled when a seed's mutant is useful; any of
//! the six pools via `Config::pool`) and [`NewCoverage`] as the utility: an input is
//! kept when its run reaches a coverage point, or a hit-count bucket of one,
//! never seen before. Coverage comes from `cover(id)` calls in the check and,
//! when the test binary is instrumented (see `pbt_core::coverage`), from
//! SanitizerCoverage's counters. An uninstrumented binary is reported in the
//! report's notes; the runner then steers by `cover` points only, or —
//! without those either — is plain generation with mutation.

use crate::components::feedback_loop::{coverage_probe, feedback_loop, no_probe};
use crate::components::seed_pool::{Energy, Pool};
use crate::components::utility::NewCoverage;
use crate::components::{observe_run, replay_saved, supervise, DynProperty, Plan};
use crate::config::Config;
use crate::report::Report;
use pbt_core::Property;
use std::ops::ControlFlow;
use std::time::Instant;

/// Fuzz `prop`: replay the inputs saved in the regressions file, then
/// generate or mutate as the pool directs, keep inputs that reach new
/// coverage, stop at the first failure (shrunk and saved).
///
/// ```
/// use pbt_core::feedback::cover;
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::{fuzz, Config, Regressions};
/// use pbt_core::gen::{int, vec};
/// // Nested branches (*Flexible and Automatic Targeted Property-Based Testing* §4): each prefix of "bug" is a new point;
/// // random bytes start with "bug" once in 16.7 million.
/// let prop = Prop::new(Forall::new("s", "Vec<u8>", Check::new(|(s, ()): &(Vec<u8>, ())| {
///     if s.first() == Some(&b'b') { cover(1);
///         if s.get(1) == Some(&b'u') { cover(2);
///             if s.get(2) == Some(&b'g') { return false; } } }
///     true
/// })).gen(|_: &()| vec(int(0..=255u8), 0..8)));
/// let report = fuzz(&prop, Config::default().cases(500_000).seed(1).regressions(Regressions::Off));
/// assert!(!report.passed(), "{report}");
/// ```
pub fn fuzz<P: Property>(prop: &P, config: Config) -> Report {
    run_fuzz(prop, config)
}

fn run_fuzz(prop: &dyn DynProperty, config: Config) -> Report {
    let started = Instant::now();
    let plan = Plan::new(&config, &prop.structure());
    let mut report = Report::empty("fuzz", &plan);
    let instrumented = pbt_core::coverage::instrumented();
    if !instrumented {
        report.notes.push(
            "the test binary is not instrumented for coverage, so the fuzzer steers by cover() \
             points only (build with the `coverage` feature and SanitizerCoverage flags: see \
             pbt_core::coverage)"
                .to_string(),
        );
    }
    let default = Pool::FifoQueue(Energy::Doubling(5_000));
    let mut pool = plan.config.pool.unwrap_or(default).build();
    let mut utility = NewCoverage::default();
    let mut probe = if instrumented {
        coverage_probe
    } else {
        no_probe
    };
    let report = supervise(prop, &plan, |watch| {
        let report = match replay_saved(prop, &plan, watch, report) {
            ControlFlow::Continue(report) => report,
            ControlFlow::Break(failed) => return failed,
        };
        feedback_loop(
            prop,
            &plan,
            watch,
            &mut *pool,
            &mut utility,
            &mut probe,
            report,
        )
    });
    let mut report = report.finish(started);
    report.notes.push(format!(
        "{} coverage points and buckets reached",
        utility.covered()
    ));
    observe_run(&plan, &report);
    report
}

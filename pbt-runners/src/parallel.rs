//! The parallel runner (QuickerCheck; papers/000 §2.6, Fig. 8, Fig. 34).
//!
//! ```text
//! workers (rayon), sharing an atomic test counter n and a `found` flag:
//!   loop: n ← counter.fetch_add(1); stop if found or n ≥ cases
//!         case ← plan.case(n)           (its seed and size are n's alone)
//!         verdict ← test(case)          fail → remember (n, reason); found ← true
//! then: the failure with the smallest n, shrunk as the generational runner does
//! ```
//!
//! Size grows with the shared counter, so the workers cooperate on one
//! campaign rather than each re-testing small inputs. Every case depends only
//! on the run seed and its number, and the smallest failing number is kept:
//! a run finds the same counterexample as the generational runner with the
//! same seed, however the threads interleave, and `PBT_SEED` replays it on
//! one thread.

use crate::components::{execute::Verdict, supervise_all, DynProperty, Found, Plan, Step};
use crate::config::Config;
use crate::generational::shrink_and_report;
use crate::report::Report;
use pbt_core::Property;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

/// Run `prop` on `config.workers` threads until `config.cases` tests passed
/// or one failed; shrink the failure.
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::{parallel, Config, Regressions};
/// let prop = Prop::new(Forall::new("x", "u32", Check::new(|&(x, ()): &(u32, ())| x < 1000)));
/// let report = parallel(&prop, Config::default().workers(2).seed(1).regressions(Regressions::Off));
/// assert_eq!(report.failure.unwrap().counterexample[0].value, "1000");
/// ```
///
/// Unlike the other runners, it needs a `Sync` property: its workers call
/// the same property from several threads at once. A check that bumps a
/// `Cell` or `RefCell` counter is not `Sync` (use an atomic or a `Mutex`),
/// and gets rustc's "cannot be shared between threads safely" here; the
/// sequential runners take it as it is.
pub fn parallel<P: Property + Sync>(prop: &P, config: Config) -> Report {
    run_parallel(prop, config)
}

/// What the workers share.
struct Shared {
    next: AtomicU64,
    passed: AtomicU64,
    discards: AtomicU64,
    found: AtomicBool,
    /// The failure with the smallest test number: `(n, reason)`, or a panic
    /// of the generator.
    first: Mutex<Option<(u64, Failure)>>,
}

enum Failure {
    Check(String),
    Generator(String),
}

fn run_parallel(prop: &(dyn DynProperty + Sync), config: Config) -> Report {
    let started = Instant::now();
    let plan = Plan::new(&config, &prop.structure());
    let saved = plan.saved();
    let mut report = Report::new("parallel", &plan, saved.len() as u64);
    let workers = plan.config.workers.max(1);
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(workers).build() {
        Ok(pool) => pool,
        Err(e) => {
            report.notes.push(format!(
                "could not start {workers} worker threads ({e}); ran on one"
            ));
            return crate::generational::run_loop(prop, config, "parallel");
        }
    };
    supervise_all(prop, &plan, workers + 1, |watches| {
        // Saved cases first, on this thread.
        let (first, rest) = watches.split_first().expect("at least one watch");
        for found in &saved {
            match prop.test_found(found, first) {
                Step::Ran(Verdict::Fail(reason)) => {
                    report.tests += 1;
                    return shrink_and_report(prop, &plan, first, found, reason, report);
                }
                Step::GeneratorPanicked(panic) => {
                    return report.generator_failed(&plan, found, panic)
                }
                Step::Ran(Verdict::Pass) => report.tests += 1,
                Step::Ran(Verdict::Discard) | Step::Discarded(_) => report.discards += 1,
            }
        }
        let shared = Shared {
            next: AtomicU64::new(0),
            passed: AtomicU64::new(report.tests),
            discards: AtomicU64::new(report.discards),
            found: AtomicBool::new(false),
            first: Mutex::new(None),
        };
        pool.broadcast(|ctx| work(prop, &plan, &rest[ctx.index()], &shared));
        report.tests = shared.passed.load(Relaxed);
        report.discards = shared.discards.load(Relaxed);
        let first_failure = shared.first.into_inner().unwrap_or_else(|p| p.into_inner());
        match first_failure {
            Some((n, Failure::Check(reason))) => {
                report.tests += 1;
                shrink_and_report(
                    prop,
                    &plan,
                    first,
                    &Found::Case(plan.case(n)),
                    reason,
                    report,
                )
            }
            Some((n, Failure::Generator(panic))) => {
                report.generator_failed(&plan, &Found::Case(plan.case(n)), panic)
            }
            None if plan.too_many_discards(report.discards) => report.gave_up(),
            None => report,
        }
    })
    .finish(started)
}

/// One worker's loop.
fn work(
    prop: &(dyn DynProperty + Sync),
    plan: &Plan,
    watch: &crate::components::Watch,
    shared: &Shared,
) {
    while !shared.found.load(Relaxed) {
        if shared.passed.load(Relaxed) >= plan.config.cases
            || plan.too_many_discards(shared.discards.load(Relaxed))
        {
            return;
        }
        let n = shared.next.fetch_add(1, Relaxed);
        let case = plan.case(n);
        watch.at_case(&case);
        let failure = match prop.test(&case, watch) {
            Step::Ran(Verdict::Pass) => {
                shared.passed.fetch_add(1, Relaxed);
                continue;
            }
            Step::Ran(Verdict::Discard) | Step::Discarded(_) => {
                shared.discards.fetch_add(1, Relaxed);
                continue;
            }
            Step::Ran(Verdict::Fail(reason)) => Failure::Check(reason),
            Step::GeneratorPanicked(panic) => Failure::Generator(panic),
        };
        let mut first = shared.first.lock().unwrap_or_else(|p| p.into_inner());
        if first.as_ref().is_none_or(|(m, _)| n < *m) {
            *first = Some((n, failure));
        }
        shared.found.store(true, Relaxed);
    }
}

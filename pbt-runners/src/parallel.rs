//! The parallel runner (QuickerCheck; *Programmable Property-Based Testing* §2.6, Fig. 8, Fig. 34).
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

use crate::components::statistics::Statistics;
use crate::components::{
    replay_saved, report_failure, supervise_all, Discovery, DynProperty, Fault, Found, Plan, Step,
};
use crate::config::Config;
use crate::generational::in_process;
use crate::report::Report;
use pbt_core::{Outcome, Property};
use std::ops::ControlFlow;
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
    /// Tests that passed or are running: a worker claims a test before it
    /// runs one and gives the claim back on a discard, so no more than
    /// `cases` tests pass however the workers race.
    passed: AtomicU64,
    discards: AtomicU64,
    found: AtomicBool,
    /// The failure with the smallest test number, with its fault (the
    /// check's, or the generator's).
    first: Mutex<Option<(u64, Fault)>>,
}

impl Shared {
    /// Nothing claimed yet; the counts go on from `report`'s.
    fn after(report: &Report) -> Shared {
        Shared {
            next: AtomicU64::new(0),
            passed: AtomicU64::new(report.tests),
            discards: AtomicU64::new(report.discards),
            found: AtomicBool::new(false),
            first: Mutex::new(None),
        }
    }
}

fn run_parallel(prop: &(dyn DynProperty + Sync), config: Config) -> Report {
    let started = Instant::now();
    let plan = Plan::new(&config, &prop.structure());
    if plan.config.check_coverage.is_some() {
        // The coverage check decides when to stop from the counts so far: one thread.
        return in_process(prop, &plan, "parallel").finish(started);
    }
    let workers = plan.config.workers.max(1);
    // Each worker can handle a stack overflow in a test (the crash handler
    // saves its case) on an alternate signal stack large enough for it.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .start_handler(|_| crate::components::guard_thread());
    let pool = match pool.build() {
        Ok(pool) => pool,
        Err(e) => {
            let mut report = in_process(prop, &plan, "parallel");
            let note = format!("could not start {workers} worker threads ({e}); ran on one");
            report.notes.push(note);
            return report.finish(started);
        }
    };
    supervise_all(prop, &plan, workers + 1, |watches| {
        // Saved cases first, on this thread.
        let (first, rest) = watches.split_first().expect("at least one watch");
        let mut report = match replay_saved(prop, &plan, first, Report::empty("parallel", &plan)) {
            ControlFlow::Continue(report) => report,
            ControlFlow::Break(failed) => return failed,
        };
        let shared = Shared::after(&report);
        // This thread only waits while the workers test.
        let all =
            first.waiting(|| pool.broadcast(|ctx| work(prop, &plan, &rest[ctx.index()], &shared)));
        for stats in all {
            report.statistics.merge(stats);
        }
        report.tests = shared.passed.load(Relaxed);
        report.discards = shared.discards.load(Relaxed);
        let first_failure = shared.first.into_inner().unwrap_or_else(|p| p.into_inner());
        let Some((n, fault)) = first_failure else {
            if report.statistics.too_many_discards(&plan, report.discards) {
                return report.gave_up();
            }
            return report;
        };
        if let Fault::Check(_) = fault {
            report.tests += 1;
        }
        let discovery = Discovery::fresh(Found::Case(plan.case(n)), fault);
        report_failure(prop, &plan, first, discovery, report)
    })
    .finish(started)
}

/// One worker's loop; returns the statistics of the tests it ran.
fn work(
    prop: &(dyn DynProperty + Sync),
    plan: &Plan,
    watch: &crate::components::Watch,
    shared: &Shared,
) -> Statistics {
    let mut stats = Statistics::new(&plan.config);
    while !shared.found.load(Relaxed) {
        if plan.too_many_discards(shared.discards.load(Relaxed)) {
            return stats;
        }
        // Claim a test; given back unless it passes.
        if shared.passed.fetch_add(1, Relaxed) >= plan.config.cases {
            shared.passed.fetch_sub(1, Relaxed);
            return stats;
        }
        let n = shared.next.fetch_add(1, Relaxed);
        let case = plan.case(n);
        watch.at_case(&case);
        let observer = pbt_core::statistics::Observer::start();
        let step = prop.test(&case, watch);
        stats.record_step(observer, &step, case.size);
        let fault = match step {
            Step::Ran(Outcome::Pass) => continue,
            Step::Ran(Outcome::Discard) | Step::Discarded(_) => {
                shared.passed.fetch_sub(1, Relaxed);
                shared.discards.fetch_add(1, Relaxed);
                continue;
            }
            Step::Ran(Outcome::Fail(reason)) => Fault::Check(reason),
            Step::GeneratorPanicked(reason) => Fault::Generator(reason),
        };
        shared.passed.fetch_sub(1, Relaxed);
        let mut first = shared.first.lock().unwrap_or_else(|p| p.into_inner());
        if first.as_ref().is_none_or(|(m, _)| n < *m) {
            *first = Some((n, fault));
        }
        shared.found.store(true, Relaxed);
    }
    stats
}

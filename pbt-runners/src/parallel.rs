//! The parallel runner (QuickerCheck; *Programmable Property-Based Testing* §2.6, Fig. 8, Fig. 34).
//!
//! ```text
//! the runner's thread for the first 200 µs, then the workers (kept for the
//! process), sharing a test counter n, a count of tests passed and the
//! smallest failing n found so far, `best`:
//!   loop: reserve up to `block` of the passing tests still wanted
//!         claim as many test numbers n, n+1, …   stop if none is below best
//!         test them in one batch, up to best    (each case's seed and size
//!                                                are its number's alone)
//!         fail → save it, best ← min(best, n)
//!         block ← doubled while a block takes under 100 µs, halved above 400 µs
//! then: the failure with the smallest n, shrunk as the generational runner does
//! ```
//!
//! Size grows with the shared counter, so the workers cooperate on one
//! campaign rather than each re-testing small inputs. Every case depends only
//! on the run seed and its number, every number below the smallest failing
//! one is tested (a worker that learns of a failure finishes its numbers
//! below it, and tests none above), and the smallest is kept: a run finds the
//! same counterexample as the generational runner with the same seed, however
//! the threads interleave, and `PBT_SEED` replays it on one thread.
//!
//! What it costs over the generational runner: nothing for a run that ends
//! within its first 200 µs (it never leaves the runner's thread); after
//! that, a hand-over to threads started once per process
//! ([`crate::components::on_workers`]), not a pool per run, and two updates
//! of shared counters per block of tests, not four per test (a discard
//! counts at once, so a run that discards everything gives up on time).
//! Blocks start at one test, so the first tests after the hand-over are
//! shared by all the workers, and grow while tests are quick, so the
//! counters stay off the hot path; a block takes at most a few hundred
//! microseconds, so a worker learns of another's failure that soon.

use crate::components::statistics::Statistics;
use crate::components::{
    observe_run, on_workers, replay_saved, report_failure, supervise_all, Discovery, DynProperty,
    Fault, Found, Plan, Tested, Watch,
};
use crate::config::Config;
use crate::generational::in_process;
use crate::report::Report;
use pbt_core::Property;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

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
    /// The next test number not claimed yet.
    next: AtomicU64,
    /// Tests that passed or are reserved: a worker reserves a block of
    /// passing tests before it runs them and gives back what it did not
    /// use, so no more than `cases` tests pass however the workers race.
    passed: AtomicU64,
    discards: AtomicU64,
    /// The smallest failing test number found so far (`u64::MAX`: none).
    best: AtomicU64,
    /// That failure's fault (the check's, or the generator's).
    first: Mutex<Option<(u64, Fault)>>,
}

impl Shared {
    /// Nothing claimed yet; the counts go on from `report`'s.
    fn after(report: &Report) -> Shared {
        Shared {
            next: AtomicU64::new(0),
            passed: AtomicU64::new(report.tests),
            discards: AtomicU64::new(report.discards),
            best: AtomicU64::new(u64::MAX),
            first: Mutex::new(None),
        }
    }

    /// Whether some worker found a failure.
    fn found(&self) -> bool {
        self.best.load(Relaxed) != u64::MAX
    }

    /// Whether the run is over: a failure found, every passing test run,
    /// or too many discards.
    fn done(&self, plan: &Plan) -> bool {
        self.found()
            || self.passed.load(Relaxed) >= plan.config.cases
            || plan.too_many_discards(self.passed.load(Relaxed), self.discards.load(Relaxed))
    }

    /// Reserve up to `want` of the `cases` passing tests: how many it got.
    fn reserve(&self, want: u64, cases: u64) -> u64 {
        let before = self.passed.fetch_add(want, Relaxed);
        let got = cases.saturating_sub(before).min(want);
        if got < want {
            self.passed.fetch_sub(want - got, Relaxed);
        }
        got
    }

    /// Test number `n`, the case `case`, failed with `fault`: save it at
    /// once (a hang or crash on another worker must not lose it; the
    /// failure path saves the smallest again, which the file keeps once),
    /// and keep it if it is the smallest so far.
    fn failed(&self, plan: &Plan, n: u64, found: Found, fault: Fault) {
        if let Some(file) = &plan.regressions {
            // An error is reported by the failure path, which saves again.
            let _ = file.save(&found, &plan.test, fault.reason());
        }
        let mut first = self.first.lock().unwrap_or_else(|p| p.into_inner());
        if first.as_ref().is_none_or(|(m, _)| n < *m) {
            *first = Some((n, fault));
        }
        self.best.fetch_min(n, Relaxed);
    }
}

/// How the workers' part of a run ended.
// One per run, returned once: boxing the report would buy nothing.
#[allow(clippy::large_enum_variant)]
enum Workers {
    /// They ran: the report.
    Ran(Report),
    /// No worker threads could be started: why.
    Unavailable(String),
}

fn run_parallel(prop: &(dyn DynProperty + Sync), config: Config) -> Report {
    let started = Instant::now();
    let plan = Plan::new(&config, &prop.structure());
    if plan.config.check_coverage.is_some() || plan.observations.is_some() {
        // The coverage check decides when to stop from the counts so far,
        // and an observed run writes its tests' lines in order: one thread.
        let report = in_process(prop, &plan, "parallel").finish(started);
        observe_run(&plan, &report);
        return report;
    }
    let workers = plan.config.workers.max(1);
    let ran = supervise_all(prop, &plan, workers + 1, |watches| {
        // Saved cases first, on this thread.
        let (first, rest) = watches.split_first().expect("at least one watch");
        let mut report = match replay_saved(prop, &plan, first, Report::empty("parallel", &plan)) {
            ControlFlow::Continue(report) => report,
            ControlFlow::Break(failed) => return Workers::Ran(failed),
        };
        let shared = Shared::after(&report);
        // The first tests on this thread: a run that ends within
        // `HAND_OVER` never waits for the workers to wake.
        let mut stats = Statistics::new(&plan.config);
        let until = Instant::now() + HAND_OVER;
        work(prop, &plan, first, &shared, &mut stats, Some(until));
        report.statistics.merge(stats);
        if !shared.done(&plan) {
            // This thread only waits while the workers test.
            let all = first.waiting(|| {
                on_workers(workers, |i| {
                    let mut stats = Statistics::new(&plan.config);
                    work(prop, &plan, &rest[i], &shared, &mut stats, None);
                    stats
                })
            });
            let all = match all {
                Ok(all) => all,
                Err(why) => return Workers::Unavailable(why),
            };
            for stats in all {
                report.statistics.merge(stats);
            }
        }
        report.tests = shared.passed.load(Relaxed);
        report.discards = shared.discards.load(Relaxed);
        let first_failure = shared.first.into_inner().unwrap_or_else(|p| p.into_inner());
        let Some((n, fault)) = first_failure else {
            if report.statistics.too_many_discards(&plan, report.discards) {
                return Workers::Ran(report.gave_up());
            }
            return Workers::Ran(report);
        };
        let discovery = Discovery::fresh(Found::Case(plan.case(n)), fault);
        Workers::Ran(report_failure(prop, &plan, first, discovery, report))
    });
    match ran {
        Workers::Ran(report) => report.finish(started),
        Workers::Unavailable(why) => {
            let mut report = in_process(prop, &plan, "parallel");
            report.notes.push(format!("{why}; ran on one thread"));
            report.finish(started)
        }
    }
}

/// A block of tests takes about this long before it grows (see the module's
/// documentation): long enough that the shared counters cost nothing
/// beside it, short enough that a worker soon learns of another's failure.
const BLOCK_TIME: Duration = Duration::from_micros(100);

/// The most tests in one block.
const MAX_BLOCK: u64 = 1 << 12;

/// How long a run tests on the runner's own thread before it hands over to
/// the workers. Waking them costs tens of microseconds (more on a loaded
/// machine), as much as dozens of quick tests: a run that fails or passes
/// sooner runs as the generational runner does.
const HAND_OVER: Duration = Duration::from_micros(200);

/// One worker's loop, its tests counted in `stats`; on the runner's thread
/// until `until` at the latest.
fn work(
    prop: &(dyn DynProperty + Sync),
    plan: &Plan,
    watch: &Watch,
    shared: &Shared,
    stats: &mut Statistics,
    until: Option<Instant>,
) {
    let mut block = 1;
    while !shared.found()
        && !plan.too_many_discards(shared.passed.load(Relaxed), shared.discards.load(Relaxed))
    {
        let reserved = shared.reserve(block, plan.config.cases);
        if reserved == 0 {
            break;
        }
        let started = Instant::now();
        let unused = test_block(prop, plan, watch, shared, reserved, stats);
        shared.passed.fetch_sub(unused, Relaxed);
        let now = Instant::now();
        if until.is_some_and(|until| now >= until) {
            break;
        }
        let took = now - started;
        block = match took {
            _ if took < BLOCK_TIME => (block * 2).min(MAX_BLOCK),
            _ if took > BLOCK_TIME * 4 => (block / 2).max(1),
            _ => block,
        };
    }
}

/// Test fresh cases until `reserved` of them passed, one failed, every
/// number below the smallest failure known is tested, or the run has too
/// many discards, claiming numbers as they are needed: the reserved passes
/// left unused.
fn test_block(
    prop: &(dyn DynProperty + Sync),
    plan: &Plan,
    watch: &Watch,
    shared: &Shared,
    reserved: u64,
    stats: &mut Statistics,
) -> u64 {
    let mut left = reserved;
    while left > 0 {
        // As many numbers as passing tests are wanted; a discard uses a
        // number and no pass, so more are claimed after it.
        let mut n = shared.next.fetch_add(left, Relaxed);
        let end = n.saturating_add(left);
        while n < end && left > 0 {
            // Never past the smallest failure known: its number and those
            // above it cannot be the failure reported.
            let budget = (end - n)
                .min(left)
                .min(shared.best.load(Relaxed).saturating_sub(n));
            if budget == 0 {
                return left;
            }
            let observer = pbt_core::statistics::Observer::start();
            let batch = prop.test_batch(&mut plan.cases_from(n), budget, watch, stats);
            (left, n) = (left - batch.passed, n + batch.passed);
            let Some((case, tested)) = batch.stopped else {
                let _ = observer.finish();
                continue;
            };
            stats.record_tested(observer, &tested, case.size);
            let fault = match tested {
                Tested::Passed => {
                    (left, n) = (left - 1, n + 1);
                    continue;
                }
                Tested::Discarded(_) => {
                    n += 1;
                    let discards = shared.discards.fetch_add(1, Relaxed) + 1;
                    if plan.too_many_discards(shared.passed.load(Relaxed), discards) {
                        return left;
                    }
                    continue;
                }
                Tested::Failed(fault) => fault,
            };
            shared.failed(plan, n, Found::Case(case), fault);
            return left;
        }
    }
    left
}

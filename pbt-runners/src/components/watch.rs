//! The watch a test runs under (*Property Based Testing in MIT-Scheme*,
//! §3.3): the per-test time limit and draw budget, and the input in flight.
//!
//! The run step changes the watch's ticket for every test; the watchdog
//! thread ([`super::supervise`] starts it) reads the watch's atomics to mark
//! a test past the limit as overrun, which then fails when it returns, and
//! to name the input in flight when a test never returns. The crash handler
//! reads the same input in flight when the process dies.

use super::cases::Cases;
use super::found::{CaseSeed, Found};
use std::sync::atomic::{
    AtomicBool, AtomicU64, AtomicUsize, Ordering::Acquire, Ordering::Relaxed, Ordering::Release,
};
use std::sync::Mutex;
use std::time::Duration;

/// What the run step shares with the watchdog.
#[derive(Debug, Default)]
pub struct Watch {
    pub(super) limit: Option<Duration>,
    issued: AtomicU64,
    running: AtomicU64,
    pub(super) overran: AtomicU64,
    case_seed: AtomicU64,
    case_size: AtomicUsize,
    /// Set when the input under test is a mutant (kept in `mutant`), not
    /// the case above.
    at_mutant: AtomicBool,
    /// Set while the input in flight is a case replayed from the
    /// regressions file (a crash need not save it again).
    at_saved: AtomicBool,
    mutant: Mutex<Option<Found>>,
    pub(super) shrinking: Mutex<Option<String>>,
    /// The choices one generated input may draw (`Config::max_draws`).
    max_draws: u64,
    /// Shrink steps taken (progress the watchdog sees).
    steps: AtomicU64,
    /// Set while the thread of this watch waits for other threads
    /// ([`Watch::waiting`]): idle, but not stuck.
    pub(super) waiting: AtomicBool,
    /// The batch of fresh cases in flight ([`Watch::start_batch`]): one
    /// more than the ticket before its first test (0 outside a batch), the
    /// index of its first case, the run seed and the size schedule, so
    /// that the case of any ticket of the batch is worked out from the
    /// ticket alone, and a test in a batch announces itself with one store.
    batch_ticket: AtomicU64,
    batch_case: AtomicU64,
    batch_seed: AtomicU64,
    batch_sizes: AtomicU64,
    batch_max_size: AtomicUsize,
}

impl Watch {
    /// A watch with this per-test limit (`None`: no limit) and the default
    /// draw limit.
    pub fn new(limit: Option<Duration>) -> Self {
        Watch {
            limit,
            max_draws: pbt_core::overrun::DEFAULT_MAX_DRAWS,
            ..Watch::default()
        }
    }

    /// This watch with `max_draws` choices allowed per generated input.
    pub fn with_max_draws(mut self, max_draws: u64) -> Self {
        self.max_draws = max_draws;
        self
    }

    /// The per-test limit.
    pub fn limit(&self) -> Option<Duration> {
        self.limit
    }

    /// The choices one generated input may draw.
    pub fn max_draws(&self) -> u64 {
        self.max_draws
    }

    /// A test starts: returns its ticket. Tests on one watch are started by
    /// one thread (each worker has its own watch), so the ticket is a plain
    /// load and store rather than a locked read-modify-write, which would
    /// cost as much as the rest of the handshake.
    #[inline]
    pub fn start(&self) -> u64 {
        let ticket = self.issued.load(Relaxed) + 1;
        self.issued.store(ticket, Relaxed);
        self.running.store(ticket, Relaxed);
        ticket
    }

    /// The last ticket [`Watch::start`] handed out (tickets count the tests
    /// started on this watch: 1, 2, …).
    #[inline]
    pub fn issued(&self) -> u64 {
        self.issued.load(Relaxed)
    }

    /// The test with `ticket` returned: whether it overran the limit.
    #[inline]
    pub fn finish(&self, ticket: u64) -> bool {
        self.running.store(0, Relaxed);
        self.overran.load(Relaxed) == ticket
    }

    /// The case being generated and run (printed if it hangs).
    #[inline]
    pub fn at_case(&self, case: &CaseSeed) {
        self.case_seed.store(case.seed, Relaxed);
        self.case_size.store(case.size, Relaxed);
        self.at_mutant.store(false, Relaxed);
        self.at_saved.store(false, Relaxed);
    }

    /// Fresh cases follow, each announced by [`Watch::start_case`]: the
    /// input in flight is no mutant and was not replayed from the
    /// regressions file.
    #[inline]
    pub fn at_fresh(&self) {
        self.at_mutant.store(false, Relaxed);
        self.at_saved.store(false, Relaxed);
    }

    /// The fresh case `case` is being generated and run (printed and saved
    /// if it hangs): its ticket. [`Watch::at_case`] and [`Watch::start`] in
    /// one, for a loop that called [`Watch::at_fresh`] first.
    #[inline]
    pub fn start_case(&self, case: &CaseSeed) -> u64 {
        self.case_seed.store(case.seed, Relaxed);
        self.case_size.store(case.size, Relaxed);
        self.start()
    }

    /// A batch of fresh cases starts at `cases`' next case: each of its
    /// tests is announced by [`Watch::start_batched`] with one store, its
    /// ticket, from which the case is worked out if it hangs or crashes
    /// (the batch's first test has the ticket `first + 1`, and so on).
    /// Returns `first`, the last ticket handed out before the batch. Ends
    /// with [`Watch::end_batch`].
    ///
    /// ```
    /// use pbt_runners::components::{Plan, Watch};
    /// use pbt_runners::Config;
    /// let plan = Plan::new(&Config::default().seed(9).ignore_env(), &Default::default());
    /// let watch = Watch::new(None);
    /// let mut cases = plan.cases();
    /// cases.next(); // the batch starts at case 1
    /// let first = watch.start_batch(&cases);
    /// watch.start_batched(first + 3); // the batch's third test
    /// assert_eq!(watch.running(), first + 3);
    /// assert_eq!(watch.in_flight_case(), plan.case(3));
    /// assert!(!watch.overran(first + 3));
    /// watch.end_batch(first + 3, None);
    /// assert_eq!((watch.running(), watch.issued()), (0, first + 3));
    /// assert_eq!(watch.in_flight_case(), plan.case(3));
    /// ```
    #[inline]
    pub fn start_batch(&self, cases: &Cases<'_>) -> u64 {
        let first = self.issued();
        let (seed, n, sizes, max_size) = cases.schedule();
        self.at_mutant.store(false, Relaxed);
        self.at_saved.store(false, Relaxed);
        self.batch_case.store(n, Relaxed);
        self.batch_seed.store(seed, Relaxed);
        self.batch_sizes.store(sizes, Relaxed);
        self.batch_max_size.store(max_size, Relaxed);
        // Released by every ticket of the batch ([`Watch::start_batched`]).
        self.batch_ticket.store(first + 1, Relaxed);
        first
    }

    /// The test with `ticket` of the batch (see [`Watch::start_batch`])
    /// starts: the one store of the handshake. (It stays the running
    /// test's ticket until the next test's or [`Watch::end_batch`]: the
    /// loop between two tests runs no user code.)
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn start_batched(&self, ticket: u64) {
        self.running.store(ticket, Release);
    }

    /// Whether the test with `ticket` overran the limit (read after it
    /// returned).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn overran(&self, ticket: u64) -> bool {
        self.overran.load(Relaxed) == ticket
    }

    /// The ticket of the test running now, 0 when none.
    pub fn running(&self) -> u64 {
        self.running.load(Acquire)
    }

    /// The batch ends after the test with ticket `last` (its case `case`,
    /// worked out from the ticket when not given): the watch is as after
    /// [`Watch::start_case`] and [`Watch::finish`] on that test.
    #[inline]
    pub fn end_batch(&self, last: u64, case: Option<&CaseSeed>) {
        if let Some(case) = case.copied().or_else(|| self.batched_case(last)) {
            self.case_seed.store(case.seed, Relaxed);
            self.case_size.store(case.size, Relaxed);
        }
        self.issued.store(last, Relaxed);
        self.running.store(0, Release);
        self.batch_ticket.store(0, Relaxed);
    }

    /// The case of the batch's test with `ticket`, if it is one.
    fn batched_case(&self, ticket: u64) -> Option<CaseSeed> {
        // One more than the ticket before the batch's first test.
        let first = self.batch_ticket.load(Relaxed);
        if first == 0 || ticket < first {
            return None;
        }
        let n = self.batch_case.load(Relaxed).wrapping_add(ticket - first);
        Some(super::found::case_at(
            self.batch_seed.load(Relaxed),
            n,
            self.batch_sizes.load(Relaxed),
            self.batch_max_size.load(Relaxed),
        ))
    }

    /// The input being run is `found` (printed and saved if it hangs). For
    /// a fresh case this is [`Watch::at_case`]; a mutant is kept whole.
    pub fn at_found(&self, found: &Found) {
        match found {
            Found::Case(case) => self.at_case(case),
            mutant => {
                if let Ok(mut m) = self.mutant.lock() {
                    *m = Some(mutant.clone());
                }
                self.at_mutant.store(true, Relaxed);
                self.at_saved.store(false, Relaxed);
            }
        }
    }

    /// The input being run is `found`, replayed from the regressions file:
    /// as [`Watch::at_found`], but a crash on it does not save it again.
    pub fn at_saved(&self, found: &Found) {
        self.at_found(found);
        self.at_saved.store(true, Relaxed);
    }

    /// Whether the input in flight was replayed from the regressions file.
    pub fn is_saved(&self) -> bool {
        self.at_saved.load(Relaxed)
    }

    /// Run `f`, in which this watch's thread only waits for other threads
    /// that test (a worker pool, each worker with a watch of its own): the
    /// watchdog does not take the wait for a runner stuck in user code.
    ///
    /// ```
    /// use pbt_runners::components::Watch;
    /// let watch = Watch::new(None);
    /// let done = watch.waiting(|| std::thread::spawn(|| 1 + 1).join().unwrap());
    /// assert_eq!(done, 2);
    /// ```
    pub fn waiting<R>(&self, f: impl FnOnce() -> R) -> R {
        struct Done<'a>(&'a AtomicBool);
        impl Drop for Done<'_> {
            fn drop(&mut self) {
                self.0.store(false, Relaxed);
            }
        }
        self.waiting.store(true, Relaxed);
        let _done = Done(&self.waiting);
        f()
    }

    /// Shrinking has reached `best` (printed if a candidate hangs).
    pub fn shrinking(&self, best: String) {
        if let Ok(mut s) = self.shrinking.lock() {
            *s = Some(best);
        }
        self.steps.fetch_add(1, Relaxed);
    }

    /// The thread of this watch is abandoned (it hung, and its test was
    /// reported by the thread waiting on it): no test is in flight on it
    /// any more, as far as the crash handler is concerned.
    pub(super) fn abandon(&self) {
        self.running.store(0, Release);
        self.batch_ticket.store(0, Relaxed);
    }

    /// Whether a test (generation and check) is running now.
    pub fn is_running(&self) -> bool {
        self.running.load(Relaxed) != 0
    }

    /// The case in flight: the running test's in a batch
    /// ([`Watch::start_batch`]), else the last announced with
    /// [`Watch::at_case`].
    pub fn in_flight_case(&self) -> CaseSeed {
        if let Some(case) = self.batched_case(self.running()) {
            return case;
        }
        CaseSeed {
            seed: self.case_seed.load(Relaxed),
            size: self.case_size.load(Relaxed),
        }
    }

    /// Call `f` with the input in flight, without blocking or allocating
    /// (the crash handler calls this): the mutant announced with
    /// [`Watch::at_found`] when the input is one and its lock is free, else
    /// the case.
    pub(crate) fn with_in_flight(&self, f: impl FnOnce(&Found)) {
        if self.at_mutant.load(Relaxed) {
            if let Ok(mutant) = self.mutant.try_lock() {
                if let Some(found) = &*mutant {
                    return f(found);
                }
            }
        }
        f(&Found::Case(self.in_flight_case()))
    }

    /// The input in flight: the mutant or the case.
    pub fn in_flight(&self) -> Found {
        match self.at_mutant.load(Relaxed) {
            true => self.mutant.lock().ok().and_then(|m| m.clone()),
            false => None,
        }
        .unwrap_or(Found::Case(self.in_flight_case()))
    }

    /// A number that changes whenever the runner makes progress (a test
    /// starts or ends, shrinking takes a step).
    pub(super) fn progress(&self) -> Progress {
        (
            self.issued.load(Relaxed),
            self.running.load(Acquire),
            self.steps.load(Relaxed),
        )
    }
}

/// What [`Watch::progress`] returns: it changes whenever the runner makes
/// progress.
pub(super) type Progress = (u64, u64, u64);

//! The per-test time limit (*Property Based Testing in MIT-Scheme*, §3.3).
//!
//! Tests run on the runner's own thread; a watchdog thread — one per
//! process, started by the first run with a time limit and shared by all
//! runs after it — watches a ticket that the run step changes for every
//! test. A test still holding its ticket
//! after the limit is marked as overrun, and fails when it returns (it is then
//! shrunk like any failure). A test that does not return at all — an infinite
//! loop — cannot be stopped from outside in safe Rust, so after twice the
//! limit (plus a second) the watchdog ends the process, exit code 101, after
//! it has saved the case in flight to the regressions file, printed the seeds
//! and how to replay them, and — when it can re-run the test binary — shrunk
//! the hang in child processes ([`super::isolation`]) and printed the
//! shrunk input. The counterexample is kept, never lost in a hung test run.
//!
//! The watchdog never calls user code (a generator or `Debug` that loops
//! would hang it too): it reads the watch's atomics and writes files. So the
//! property need not be `Sync`. It watches more than the check: a runner on
//! one thread ([`supervise`]) that makes no progress at all — no test
//! started or finished, no shrink step — for the same time is stuck in a
//! generator, shrinker, printer or `Debug` impl, and is reported the same way.

use super::cases::{CaseSeed, Cases, Found, Plan};
use super::erased::DynProperty;
use std::io::Write;
use std::sync::atomic::{
    AtomicBool, AtomicU64, AtomicUsize, Ordering::Acquire, Ordering::Relaxed, Ordering::Release,
};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// What the run step shares with the watchdog.
#[derive(Debug, Default)]
pub struct Watch {
    limit: Option<Duration>,
    issued: AtomicU64,
    running: AtomicU64,
    overran: AtomicU64,
    case_seed: AtomicU64,
    case_size: AtomicUsize,
    /// Set when the input under test is a mutant (kept in `mutant`), not
    /// the case above.
    at_mutant: AtomicBool,
    /// Set while the input in flight is a case replayed from the
    /// regressions file (a crash need not save it again).
    at_saved: AtomicBool,
    mutant: Mutex<Option<Found>>,
    shrinking: Mutex<Option<String>>,
    /// The choices one generated input may draw (`Config::max_draws`).
    max_draws: u64,
    /// Shrink steps taken (progress the watchdog sees).
    steps: AtomicU64,
    /// Set while the thread of this watch waits for other threads
    /// ([`Watch::waiting`]): idle, but not stuck.
    waiting: AtomicBool,
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
    #[inline(always)]
    pub fn start_batched(&self, ticket: u64) {
        self.running.store(ticket, Release);
    }

    /// Whether the test with `ticket` overran the limit (read after it
    /// returned).
    #[inline(always)]
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
        Some(super::cases::case_at(
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
    fn progress(&self) -> Progress {
        (
            self.issued.load(Relaxed),
            self.running.load(Acquire),
            self.steps.load(Relaxed),
        )
    }
}

/// Run `body` with a watchdog enforcing `plan`'s per-test time limit, and
/// the crash handler armed (it saves the case in flight if the process
/// dies). `prop` is not handed to the watchdog thread: user code runs on the
/// runner's thread only.
#[inline]
pub fn supervise<R>(prop: &dyn DynProperty, plan: &Plan, body: impl FnOnce(&Watch) -> R) -> R {
    supervise_all(prop, plan, 1, |watches| body(&watches[0]))
}

/// [`supervise`] for `n` threads running tests, each with its own [`Watch`]
/// and one watchdog over all of them. The first watch is the runner's own
/// thread's (the saved cases, the failure path): when no watch runs a test
/// and none has moved for the hard limit, that thread is the one stuck.
///
/// In a worker process of the isolated mode that serves this property
/// ([`super::isolation`]), `body` does not run: the process serves the
/// inputs its parent sends, whatever the runner, and ends.
#[inline]
pub fn supervise_all<R>(
    prop: &dyn DynProperty,
    plan: &Plan,
    n: usize,
    body: impl FnOnce(&[Watch]) -> R,
) -> R {
    super::isolation::serve_if_asked(prop, plan);
    let watches: Vec<Watch> = (0..n.max(1))
        .map(|_| Watch::new(plan.config.timeout).with_max_draws(plan.config.max_draws))
        .collect();
    super::isolation::warn_unsupported(plan);
    let Some(limit) = plan.config.timeout else {
        let _armed = super::crash::arm(plan, &watches);
        return body(&watches);
    };
    // What the watchdog needs to report a hang, owned (it may outlive this
    // call by the moment it takes to see the run gone). Under libtest the
    // runner's thread is named after the test: what a child process needs
    // to re-run it (read only when reporting a hang).
    let run = Arc::new(Patrolled {
        plan: plan.clone(),
        thread: std::thread::current(),
        watches,
        limit,
        seen: Mutex::new(Vec::new()),
    });
    let _armed = super::crash::arm(plan, &run.watches);
    // Off the watchdog's list however `body` ends (it may unwind).
    struct Leave(Arc<Patrolled>);
    impl Drop for Leave {
        fn drop(&mut self) {
            lock(&PATROLLED).retain(|r| !Arc::ptr_eq(r, &self.0));
        }
    }
    let _leave = Leave(Arc::clone(&run));
    enlist(Arc::clone(&run));
    body(&run.watches)
}

/// One run the watchdog patrols: what it needs to report a hang, owned, so
/// that one watchdog thread serves every run of the process (spawning and
/// joining a thread per run cost more than a whole short run).
struct Patrolled {
    plan: Plan,
    /// The runner's thread (its name is the test's under libtest).
    thread: std::thread::Thread,
    watches: Vec<Watch>,
    limit: Duration,
    /// The progress last seen on each watch, and since when: filled in by
    /// the watchdog's first look at the run (so a run's start costs no
    /// clock read; a hang is then seen at most one tick later).
    seen: Mutex<Vec<(Progress, Instant)>>,
}

/// What [`Watch::progress`] returns: it changes whenever the runner makes
/// progress.
type Progress = (u64, u64, u64);

impl Patrolled {
    /// How often to look at this run.
    fn tick(&self) -> Duration {
        (self.limit / 4).clamp(Duration::from_millis(1), Duration::from_millis(250))
    }

    /// Look at every watch: mark a test past the limit as overrun; return a
    /// watch stuck past the hard limit (twice the limit plus a second).
    fn patrol(&self) -> Option<(usize, Stuck, Duration)> {
        // Saturating: a panic here would end the one watchdog of the process.
        let hard = self
            .limit
            .saturating_mul(2)
            .saturating_add(Duration::from_secs(1));
        let mut seen = lock(&self.seen);
        if seen.len() != self.watches.len() {
            let now = Instant::now();
            *seen = self.watches.iter().map(|w| (w.progress(), now)).collect();
        }
        // How long no watch at all has made progress, and whether any runs
        // a test now.
        let mut idle_all = Duration::MAX;
        let mut any_running = false;
        for (i, (watch, (last, since))) in self.watches.iter().zip(seen.iter_mut()).enumerate() {
            let now = watch.progress();
            if now != *last {
                (*last, *since) = (now, Instant::now());
                idle_all = Duration::ZERO;
                any_running |= now.1 != 0;
                continue;
            }
            let stuck = since.elapsed();
            idle_all = idle_all.min(stuck);
            let running = now.1;
            any_running |= running != 0;
            if running != 0 && stuck >= self.limit {
                watch.overran.store(running, Relaxed);
            }
            // With several watches (the parallel runner), an idle watch is
            // a worker that is done, or the runner's thread waiting for the
            // workers: only a running test hangs here (the runner's thread
            // is judged below).
            let what = match running {
                0 if self.watches.len() > 1 => continue,
                0 => Stuck::Runner,
                _ => Stuck::Test,
            };
            if stuck >= hard {
                return Some((i, what, stuck));
            }
        }
        // Several watches, none running a test and none moving, and the
        // runner's thread (the first watch: saved cases, the failure path)
        // not waiting for its workers: it is stuck in a generator,
        // shrinker, printer or `Debug` impl.
        let waiting = self.watches[0].waiting.load(Relaxed);
        if self.watches.len() > 1 && !any_running && !waiting && idle_all >= hard {
            return Some((0, Stuck::Runner, idle_all));
        }
        None
    }
}

/// The runs being patrolled.
static PATROLLED: Mutex<Vec<Arc<Patrolled>>> = Mutex::new(Vec::new());

/// How long the watchdog sleeps between patrols, in nanoseconds
/// (`u64::MAX`: until a run enlists).
static SLEEP: AtomicU64 = AtomicU64::new(u64::MAX);

/// The process's watchdog thread, started by the first run with a limit.
static WATCHDOG: OnceLock<std::thread::Thread> = OnceLock::new();

/// A poisoned lock only means a thread panicked while holding it; the
/// list itself is still sound.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Put `run` on the watchdog's list, and wake the watchdog when it would
/// otherwise look later than `run` needs.
fn enlist(run: Arc<Patrolled>) {
    let dog = WATCHDOG.get_or_init(|| {
        std::thread::Builder::new()
            .name("pbt-watchdog".into())
            .spawn(patrol)
            .expect("pbt: cannot start the watchdog thread")
            .thread()
            .clone()
    });
    let tick = run.tick();
    // Under the list's lock, where the watchdog also decides how long to
    // sleep: either it sees this run, or this run sees its decision.
    let wake = {
        let mut runs = lock(&PATROLLED);
        runs.push(run);
        u128::from(SLEEP.load(Relaxed)) > tick.as_nanos()
    };
    if wake {
        dog.unpark();
    }
}

/// The watchdog's loop over every run and every watch.
fn patrol() {
    loop {
        let (hung, tick) = {
            let runs = lock(&PATROLLED);
            let hung = runs
                .iter()
                .find_map(|run| run.patrol().map(|h| (Arc::clone(run), h)));
            let tick = runs.iter().map(|r| r.tick()).min();
            SLEEP.store(tick.map_or(u64::MAX, |t| t.as_nanos() as u64), Relaxed);
            (hung, tick)
        };
        if let Some((run, (i, what, stuck))) = hung {
            let test = run.thread.name();
            report_hang(&run.plan, test, &run.watches[i], what, stuck);
        }
        // An unpark that came after the decision above makes this return
        // at once.
        match tick {
            Some(tick) => std::thread::park_timeout(tick),
            None => std::thread::park(),
        }
    }
}

/// Where a stuck runner is stuck.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stuck {
    /// In a test (its generation and check).
    Test,
    /// Between tests: in a generator, shrinker, printer or `Debug` impl.
    Runner,
}

/// Save the hung case, print how to replay it, shrink it in child processes
/// when the test can be re-run, and end the process. Calls no user code.
fn report_hang(plan: &Plan, test: Option<&str>, watch: &Watch, what: Stuck, stuck: Duration) -> ! {
    super::crash::recorded();
    let found = watch.in_flight();
    let mut err = std::io::stderr().lock();
    let where_ = match what {
        Stuck::Test => "a test has been running",
        Stuck::Runner => {
            "the runner has made no progress (no test started, no shrink step; it is stuck in a \
             generator, shrinker, printer, Debug or Drop impl)"
        }
    };
    let _ = writeln!(
        err,
        "\npbt: {}: {where_} for {stuck:?} (time limit {:?}) and does not return; most likely an \
         infinite loop.",
        plan.name,
        watch.limit.unwrap_or_default(),
    );
    // A case replayed from the file is in it already, and the run seed
    // alone does not replay it.
    let replayed = watch.is_saved();
    let saved = match &plan.regressions {
        Some(file) if replayed => format!(
            "a saved case, replayed from {}, which keeps it",
            file.path().display()
        ),
        Some(file) => match file.save(&found, &plan.name, "hangs (infinite loop?)") {
            Ok(()) => format!(
                "saved to {}; the next run replays it first",
                file.path().display()
            ),
            Err(e) => format!("could not save it to {}: {e}", file.path().display()),
        },
        None => "not saved: the regressions file is off".to_string(),
    };
    let _ = writeln!(
        err,
        "pbt: the input in flight: {} ({saved}).",
        describe(&found)
    );
    if !replayed {
        let _ = writeln!(err, "pbt: replay the run with PBT_SEED={:#x}.", plan.seed);
    }
    if let Some(best) = watch.shrinking.lock().ok().and_then(|s| s.clone()) {
        let _ = writeln!(
            err,
            "pbt: it hung while shrinking; the smallest failing input so far: {best}"
        );
    }
    let _ = err.flush();
    drop(err);
    super::isolation::shrink_hang(plan, test, &found, what == Stuck::Test);
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "pbt: ending the test process (exit code 101): a running thread cannot be stopped from \
         outside. Run the test isolated (PBT_ISOLATE=1, #[property_test(isolated)] or \
         Config::isolated(true)) to have hangs killed at the time limit, shrunk and reported \
         while the other tests go on."
    );
    let _ = err.flush();
    std::process::exit(101)
}

/// A found input in words.
pub(crate) fn describe(found: &Found) -> String {
    match found {
        Found::Case(case) => format!("the case with seed {:#x} at size {}", case.seed, case.size),
        Found::Choices { choices, size } => {
            format!("an input of {} choices at size {size}", choices.len())
        }
        Found::Mutated { steps, base } => {
            format!("{} mutated by value {} times", describe(base), steps.len())
        }
        Found::Shrunk { path, base } => {
            format!("{} shrunk by value {} times", describe(base), path.len())
        }
    }
}

//! The watchdog (*Property Based Testing in MIT-Scheme*, §3.3): one thread
//! per process, started by the first run with a time limit and shared by
//! all runs after it, that patrols every run's watches. A test still
//! holding its ticket after the limit is marked as overrun, and fails when
//! it returns (it is then shrunk like any failure). A test that does not
//! return at all — an infinite loop — cannot be stopped from outside in
//! safe Rust, so after twice the limit (plus a second) the watchdog ends
//! the process, exit code 101, after it has saved the case in flight to the
//! regressions file, printed the seeds and how to replay them, and handed
//! the hang to the run's [`OnHang`] (the isolated mode's, which shrinks it
//! in child processes when it can re-run the test binary). The
//! counterexample is kept, never lost in a hung test run.
//!
//! A run whose thread another thread waits on ([`waited_on`]: the test
//! thread of a `#[property_test]`, through `supervise::abandonable`) is not
//! ended with the process: the watchdog stops patrolling it and hands the
//! [`Hang`] to the waiting thread, which reports it as the test's failure
//! while the hung thread is abandoned and the other tests go on.
//!
//! The watchdog never calls user code (a generator or `Debug` that loops
//! would hang it too): it reads the watch's atomics and writes files. So the
//! property need not be `Sync`. It watches more than the check: a runner on
//! one thread that makes no progress at all — no test started or finished,
//! no shrink step — for the same time is stuck in a generator, shrinker,
//! printer or `Debug` impl, and is reported the same way.

use super::cases::Plan;
use super::found::{describe, Found};
use super::watch::{Progress, Watch};
use pbt_core::Structure;
use std::cell::RefCell;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// What the watchdog does last with a hang, after it saved and announced
/// the input in flight and before it ends the process: called with the
/// plan, the test's name under libtest, the input, and whether the hang
/// was in a test (rather than in other user code the runner calls).
pub(crate) type OnHang = fn(&Plan, Option<&str>, &Found, bool);

/// A hang the watchdog hands to the thread waiting on the hung run's
/// thread ([`waited_on`]), which reports it; the watchdog has saved and
/// printed nothing.
#[derive(Debug)]
pub(crate) struct Hang {
    pub(crate) plan: Plan,
    /// The property's structure (its variables' names).
    pub(crate) structure: Structure,
    /// The input in flight.
    pub(crate) found: Found,
    /// It was replayed from the regressions file.
    pub(crate) replayed: bool,
    /// The hang was in a test, not in other user code the runner calls.
    pub(crate) in_test: bool,
    /// How long the run had made no progress.
    pub(crate) stuck: Duration,
    /// Tests started before the hung one.
    pub(crate) tests: u64,
}

/// Who to hand a hang of a run on this thread to.
type Waiter = Arc<dyn Fn(Hang) + Send + Sync>;

thread_local! {
    /// Set on a thread that another thread waits on ([`waited_on`]).
    static WAITER: RefCell<Option<Waiter>> = const { RefCell::new(None) };
}

/// Mark the current thread as waited on by another: a hang of a run on it
/// is handed to `waiter` (on the watchdog's thread), and the run is no
/// longer patrolled, instead of ending the process.
pub(crate) fn waited_on(waiter: impl Fn(Hang) + Send + Sync + 'static) {
    WAITER.with(|w| *w.borrow_mut() = Some(Arc::new(waiter)));
}

/// Whether a hang on the current thread is handed to a waiting thread.
pub(crate) fn is_waited_on() -> bool {
    WAITER.with(|w| w.borrow().is_some())
}

/// Run `body` over `watches` with the watchdog patrolling them against
/// `plan`'s time limit `limit`; `on_hang` finishes the report of a hang.
pub(crate) fn patrolling<R>(
    plan: &Plan,
    structure: Option<Structure>,
    watches: Vec<Watch>,
    limit: Duration,
    on_hang: OnHang,
    body: impl FnOnce(&[Watch]) -> R,
) -> R {
    // What the watchdog needs to report a hang, owned (it may outlive this
    // call by the moment it takes to see the run gone). Under libtest the
    // runner's thread is named after the test: what a child process needs
    // to re-run it (read only when reporting a hang).
    let run = Arc::new(Patrolled {
        plan: plan.clone(),
        thread: std::thread::current(),
        watches,
        limit,
        on_hang,
        waiter: WAITER.with(|w| w.borrow().clone()).zip(structure),
        seen: Mutex::new(Vec::new()),
    });
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
    on_hang: OnHang,
    /// The thread waiting on the runner's (and the property's structure),
    /// which a hang is handed to.
    waiter: Option<(Waiter, Structure)>,
    /// The progress last seen on each watch, and since when: filled in by
    /// the watchdog's first look at the run (so a run's start costs no
    /// clock read; a hang is then seen at most one tick later).
    seen: Mutex<Vec<(Progress, Instant)>>,
}

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
            match &run.waiter {
                Some((waiter, structure)) => abandon(&run, waiter, structure, i, what, stuck),
                None => report_hang(&run, run.thread.name(), &run.watches[i], what, stuck),
            }
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

/// Stop patrolling `run`, whose watch `i` hung, and hand the hang to the
/// thread waiting on it. The hung thread is abandoned: its watches are left
/// with no test running, so the crash handler and the exit hook do not take
/// it for a test in flight when the process ends.
fn abandon(
    run: &Arc<Patrolled>,
    waiter: &Waiter,
    structure: &Structure,
    i: usize,
    what: Stuck,
    stuck: Duration,
) {
    lock(&PATROLLED).retain(|r| !Arc::ptr_eq(r, run));
    let watch = &run.watches[i];
    let hang = Hang {
        plan: run.plan.clone(),
        structure: structure.clone(),
        found: watch.in_flight(),
        replayed: watch.is_saved(),
        in_test: what == Stuck::Test,
        stuck,
        tests: watch.issued().saturating_sub(1),
    };
    for watch in &run.watches {
        watch.abandon();
    }
    waiter(hang);
}

/// Save the hung case, print how to replay it, hand it to the run's
/// [`OnHang`], and end the process. Calls no user code.
fn report_hang(
    run: &Patrolled,
    test: Option<&str>,
    watch: &Watch,
    what: Stuck,
    stuck: Duration,
) -> ! {
    super::crash::recorded();
    let plan = &run.plan;
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
        Some(file) => match file.save(&found, &plan.test, "hangs (infinite loop?)") {
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
    (run.on_hang)(plan, test, &found, what == Stuck::Test);
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "pbt: ending the test process (exit code 101): a running thread cannot be stopped from \
         outside. Write the test as a #[property_test] (or call the runner inside \
         components::abandonable), or run it isolated (PBT_ISOLATE=1, #[property_test(isolated)] \
         or Config::isolated(true)), to have a hang reported as the test's failure while the \
         other tests go on."
    );
    let _ = err.flush();
    std::process::exit(101)
}

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
//! The watchdog never calls user code (a generator or `Debug` that loops
//! would hang it too): it reads the watch's atomics and writes files. So the
//! property need not be `Sync`. It watches more than the check: a runner on
//! one thread that makes no progress at all — no test started or finished,
//! no shrink step — for the same time is stuck in a generator, shrinker,
//! printer or `Debug` impl, and is reported the same way.

use super::cases::Plan;
use super::found::{describe, Found};
use super::watch::{Progress, Watch};
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// What the watchdog does last with a hang, after it saved and announced
/// the input in flight and before it ends the process: called with the
/// plan, the test's name under libtest, the input, and whether the hang
/// was in a test (rather than in other user code the runner calls).
pub(crate) type OnHang = fn(&Plan, Option<&str>, &Found, bool);

/// Run `body` over `watches` with the watchdog patrolling them against
/// `plan`'s time limit `limit`; `on_hang` finishes the report of a hang.
pub(crate) fn patrolling<R>(
    plan: &Plan,
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
            let test = run.thread.name();
            report_hang(&run, test, &run.watches[i], what, stuck);
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
    (run.on_hang)(plan, test, &found, what == Stuck::Test);
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

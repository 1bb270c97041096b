//! The per-test time limit (papers/002 §3.3).
//!
//! Tests run on the runner's own thread; a watchdog thread watches a ticket
//! that the run step changes for every test. A test still holding its ticket
//! after the limit is marked as overrun, and fails when it returns (it is then
//! shrunk like any failure). A test that does not return at all — an infinite
//! loop — cannot be stopped from outside in safe Rust, so after twice the
//! limit (plus a second) the watchdog prints the input, the seeds and the
//! saved regression, and ends the process with exit code 101: the
//! counterexample is reported and kept, never lost in a hung test run.

use super::cases::{Case, Found, Plan};
use super::erased::DynProperty;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
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
    mutant: Mutex<Option<Found>>,
    shrinking: Mutex<Option<String>>,
    /// The choices one generated input may draw (`Config::max_draws`).
    max_draws: u64,
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

    /// A test starts: returns its ticket.
    #[inline]
    pub fn start(&self) -> u64 {
        let ticket = self.issued.fetch_add(1, Relaxed) + 1;
        self.running.store(ticket, Relaxed);
        ticket
    }

    /// The test with `ticket` returned: whether it overran the limit.
    #[inline]
    pub fn finish(&self, ticket: u64) -> bool {
        self.running.store(0, Relaxed);
        self.overran.load(Relaxed) == ticket
    }

    /// The case being generated and run (printed if it hangs).
    #[inline]
    pub fn at_case(&self, case: &Case) {
        self.case_seed.store(case.seed, Relaxed);
        self.case_size.store(case.size, Relaxed);
        self.at_mutant.store(false, Relaxed);
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
            }
        }
    }

    /// Shrinking has reached `best` (printed if a candidate hangs).
    pub fn shrinking(&self, best: String) {
        if let Ok(mut s) = self.shrinking.lock() {
            *s = Some(best);
        }
    }
}

/// Run `body` with a watchdog enforcing `plan`'s per-test time limit.
pub fn supervise<R>(prop: &dyn DynProperty, plan: &Plan, body: impl FnOnce(&Watch) -> R) -> R {
    supervise_all(prop, plan, 1, |watches| body(&watches[0]))
}

/// [`supervise`] for `n` threads running tests, each with its own [`Watch`]
/// and one watchdog over all of them.
pub fn supervise_all<R>(
    prop: &dyn DynProperty,
    plan: &Plan,
    n: usize,
    body: impl FnOnce(&[Watch]) -> R,
) -> R {
    let watches: Vec<Watch> = (0..n.max(1))
        .map(|_| Watch::new(plan.config.timeout).with_max_draws(plan.config.max_draws))
        .collect();
    let Some(limit) = plan.config.timeout else {
        return body(&watches);
    };
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let dog = scope.spawn(|| patrol(prop, plan, &watches, &done, limit));
        // Stop the watchdog however `body` ends: if it unwinds, the scope
        // still joins the watchdog, which must not wait forever.
        struct Stop<'a>(&'a AtomicBool, &'a std::thread::Thread);
        impl Drop for Stop<'_> {
            fn drop(&mut self) {
                self.0.store(true, Relaxed);
                self.1.unpark();
            }
        }
        let _stop = Stop(&done, dog.thread());
        body(&watches)
    })
}

/// The watchdog's loop over every watch.
fn patrol(
    prop: &dyn DynProperty,
    plan: &Plan,
    watches: &[Watch],
    done: &AtomicBool,
    limit: Duration,
) {
    let tick = (limit / 4).clamp(Duration::from_millis(1), Duration::from_millis(250));
    let hard = limit * 2 + Duration::from_secs(1);
    let mut seen: Vec<(u64, Instant)> = watches.iter().map(|_| (0, Instant::now())).collect();
    while !done.load(Relaxed) {
        std::thread::park_timeout(tick);
        for (watch, (last, since)) in watches.iter().zip(&mut seen) {
            let now = watch.running.load(Relaxed);
            if now == 0 || now != *last {
                (*last, *since) = (now, Instant::now());
                continue;
            }
            let stuck = since.elapsed();
            if stuck >= limit {
                watch.overran.store(now, Relaxed);
            }
            if stuck >= hard {
                report_hang(prop, plan, watch, stuck);
            }
        }
    }
}

/// Print everything needed to reproduce a hung test, save it, and exit.
fn report_hang(prop: &dyn DynProperty, plan: &Plan, watch: &Watch, stuck: Duration) -> ! {
    let case = Case {
        seed: watch.case_seed.load(Relaxed),
        size: watch.case_size.load(Relaxed),
    };
    let found = match watch.at_mutant.load(Relaxed) {
        true => watch.mutant.lock().ok().and_then(|m| m.clone()),
        false => None,
    }
    .unwrap_or(Found::Case(case));
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "\npbt: {}: a test has been running for {stuck:?} (time limit {:?}) and does not return; \
         most likely an infinite loop.\npbt: run seed {:#x} (PBT_SEED={:#x}); the case: {}.",
        plan.name,
        watch.limit.unwrap_or_default(),
        plan.seed,
        plan.seed,
        match &found {
            Found::Case(case) => format!("seed {:#x} at size {}", case.seed, case.size),
            _ => "an input found by mutation (saved below)".to_string(),
        }
    );
    let best = watch.shrinking.lock().ok().and_then(|s| s.clone());
    match best {
        Some(best) => {
            let _ = writeln!(
                err,
                "pbt: it hung while shrinking; the smallest failing input so far: {best}"
            );
        }
        None => {
            let _ = err.flush();
            if let super::Generation::Generated(traced) = prop.generate_traced(&found, watch) {
                let printed: Vec<String> = prop
                    .print_any(&*traced.inputs)
                    .iter()
                    .map(|b| b.to_string())
                    .collect();
                let _ = writeln!(err, "pbt: the input: {}", printed.join(", "));
            }
        }
    }
    if let Some(file) = &plan.regressions {
        if file
            .save(&found, &plan.name, "hangs (infinite loop?)")
            .is_ok()
        {
            let _ = writeln!(
                err,
                "pbt: saved to {}; the next run replays it first.",
                file.path().display()
            );
        }
    }
    let _ = writeln!(err, "pbt: ending the test process (exit code 101): a running thread cannot be stopped from outside.");
    let _ = err.flush();
    std::process::exit(101)
}

//! Worker threads that live for the process (the parallel runner's; any
//! runner that tests on several threads may use them).
//!
//! Starting threads is most of what a short parallel run used to cost: a
//! rayon pool built per run took about 0.5 ms, more than a run that fails
//! on its first few tests takes in all. So the workers are started once,
//! by the first run that asks for that many, and kept: a pool per worker
//! count (up to [`KEPT_WORKERS`] threads; a larger count gets a pool for
//! the call, as before). Each worker is readied for the crash handler
//! ([`super::guard_thread`]) when it starts.
//!
//! Runs that overlap (tests of one binary run on several threads) share the
//! kept pool: each worker takes the runs' work in turn, so they run one after
//! the other on it rather than over-subscribing the cores. A run started
//! from a worker (a property whose check runs a parallel run) is served by
//! the same threads: the waiting worker works on it too, so it cannot wait
//! on itself.

use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::Mutex;

/// The largest worker count whose threads are kept for the process.
///
/// ```
/// assert!(pbt_runners::components::KEPT_WORKERS >= 2);
/// ```
pub const KEPT_WORKERS: usize = 64;

/// The kept pools, one per worker count (leaked: they live for the process).
static KEPT: Mutex<Vec<(usize, &'static ThreadPool)>> = Mutex::new(Vec::new());

/// Call `work(i)` for every `i` in `0..n`, each on a worker thread of its
/// own, at once; return the results in the order of `i`. The workers are
/// kept for the next call (see the module's documentation), so a call costs
/// a hand-over, not a thread start. `Err` says why no threads could be
/// started (the caller may then run on its own thread). A panic in `work`
/// is resumed on the caller once every worker is done.
///
/// ```
/// use pbt_runners::components::on_workers;
/// use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
/// let sum = AtomicU64::new(0);
/// let got = on_workers(2, |i| { sum.fetch_add(i as u64 + 1, Relaxed); i * 10 }).unwrap();
/// assert_eq!(got, vec![0, 10]);
/// assert_eq!(sum.load(Relaxed), 3);
/// ```
pub fn on_workers<R: Send>(n: usize, work: impl Fn(usize) -> R + Sync) -> Result<Vec<R>, String> {
    let n = n.max(1);
    let run = |pool: &ThreadPool| pool.broadcast(|ctx| work(ctx.index()));
    if n > KEPT_WORKERS {
        return Ok(run(&start(n)?));
    }
    Ok(run(kept(n)?))
}

/// The kept pool of `n` workers, started by the first call that asks.
fn kept(n: usize) -> Result<&'static ThreadPool, String> {
    // A poisoned lock only means a thread panicked while holding it; the
    // list is still sound.
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, pool)) = kept.iter().find(|(count, _)| *count == n) {
        return Ok(pool);
    }
    let pool: &'static ThreadPool = Box::leak(Box::new(start(n)?));
    kept.push((n, pool));
    Ok(pool)
}

/// A pool of `n` workers, each readied for the crash handler.
fn start(n: usize) -> Result<ThreadPool, String> {
    ThreadPoolBuilder::new()
        .num_threads(n)
        .thread_name(|i| format!("pbt-worker-{i}"))
        .start_handler(|_| super::guard_thread())
        .build()
        .map_err(|e| format!("could not start {n} worker threads ({e})"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn the_workers_are_kept_between_calls() {
        let names = || {
            on_workers(2, |_| std::thread::current().id())
                .unwrap()
                .into_iter()
                .collect::<HashSet<_>>()
        };
        let first = names();
        assert_eq!(first.len(), 2, "two threads at once");
        assert_eq!(names(), first, "the same two threads the next time");
    }

    #[test]
    fn a_call_from_a_worker_is_served_without_waiting_on_itself() {
        let inner = on_workers(2, |_| on_workers(2, |j| j).unwrap()).unwrap();
        assert_eq!(inner, vec![vec![0, 1], vec![0, 1]]);
    }

    #[test]
    fn overlapping_calls_from_several_threads_all_finish() {
        let done: Vec<usize> = std::thread::scope(|s| {
            let calls: Vec<_> = (0..4)
                .map(|_| s.spawn(|| on_workers(2, |i| i + 1).unwrap().iter().sum::<usize>()))
                .collect();
            calls.into_iter().map(|c| c.join().unwrap()).collect()
        });
        assert_eq!(done, vec![3; 4]);
    }

    #[test]
    fn a_panic_in_the_work_reaches_the_caller() {
        let caught = std::panic::catch_unwind(|| on_workers(2, |i| assert!(i != 1, "worker one")));
        assert!(caught.is_err());
        // The pool is still there for the next call.
        assert_eq!(on_workers(2, |i| i).unwrap(), vec![0, 1]);
    }
}

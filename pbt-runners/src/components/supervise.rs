//! The entry of every run: [`supervise`] a runner's body with the crash
//! handler armed and the watchdog patrolling its watches, or, in a worker
//! process of the isolated mode, serve the parent instead. It sits above the
//! watchdog and the isolated mode, and hands the one to the other: a hang
//! the watchdog finds is shrunk by [`super::isolation`]'s workers.

use super::cases::Plan;
use super::crash;
use super::erased::DynProperty;
use super::execute::RunScope;
use super::isolation;
use super::watch::Watch;
use super::watchdog;
use crate::report::Report;
use std::sync::mpsc;

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
    isolation::serve_if_asked(prop, plan);
    let _run = RunScope::enter();
    let watches: Vec<Watch> = (0..n.max(1))
        .map(|_| Watch::new(plan.config.timeout).with_max_draws(plan.config.max_draws))
        .collect();
    isolation::warn_unsupported(plan);
    let Some(limit) = plan.config.timeout else {
        let _armed = crash::arm(plan, &watches);
        return body(&watches);
    };
    // The structure names the variables of a hang's report, made on the
    // waiting thread (and is only needed there).
    let structure = watchdog::is_waited_on().then(|| prop.structure());
    watchdog::patrolling(
        plan,
        structure,
        watches,
        limit,
        isolation::shrink_hang,
        |watches| {
            let _armed = crash::arm(plan, watches);
            body(watches)
        },
    )
}

/// Run `run` (a whole run: a runner called on a property) on a thread of
/// its own, named as the calling thread, and wait for it: when the watchdog
/// finds it hung (a test past twice its time limit and a second), the
/// thread is
/// abandoned and the hang is reported as this run's failure — saved, shrunk
/// in child processes like a hang of the isolated mode, and returned as a
/// failed [`Report`] — instead of ending the process. So under plain
/// `cargo test`, where the tests of a binary share its process, a hanging
/// test costs no other test its report. A panic in `run` is resumed here.
///
/// `#[property_test]` runs its runner this way; a `#[test]` calling a
/// runner itself can too (the property is built inside the closure, so it
/// need not be `Send`). The report's typed counterexample
/// ([`Report::counterexample`]) stays on the run's thread: read it inside
/// `run`; the printed one travels.
///
/// ```
/// use pbt_runners::components::abandonable;
/// use pbt_runners::{generational, Config, Regressions};
/// let report = abandonable(|| {
///     let prop = pbt_core::property::Prop::new(pbt_core::property::Forall::new(
///         "x",
///         "u8",
///         pbt_core::property::Check::new(|&(x, ()): &(u8, ())| x < 10),
///     ));
///     generational(&prop, Config::default().ignore_env().regressions(Regressions::Off))
/// });
/// assert_eq!(report.failure.unwrap().counterexample[0].value, "10");
/// ```
pub fn abandonable(run: impl FnOnce() -> Report + Send + 'static) -> Report {
    // Boxed, so that the thread's machinery is compiled once here, not
    // once per property (`docs/benchmarks.md`, "Compile time").
    abandonable_boxed(Box::new(run))
}

fn abandonable_boxed(run: Box<dyn FnOnce() -> Report + Send>) -> Report {
    #[allow(
        clippy::large_enum_variant,
        reason = "sent once per run: its size costs nothing worth a box"
    )]
    enum Ended {
        Returned(std::thread::Result<Report>),
        Hung(watchdog::Hang),
    }
    let (ended, wait) = mpsc::channel();
    let hung = ended.clone();
    let mut thread = std::thread::Builder::new();
    if let Some(name) = std::thread::current().name() {
        thread = thread.name(name.to_string());
    }
    let running = thread.spawn(move || {
        watchdog::waited_on(move |hang| {
            let _ = hung.send(Ended::Hung(hang));
        });
        let returned = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run));
        let _ = ended.send(Ended::Returned(returned));
    });
    let running = running.expect("pbt: cannot start the thread of a run");
    match wait.recv() {
        Ok(Ended::Returned(Ok(report))) => {
            let _ = running.join();
            report
        }
        Ok(Ended::Returned(Err(panic))) => {
            let _ = running.join();
            std::panic::resume_unwind(panic)
        }
        // The hung thread is left running: nothing can stop it.
        Ok(Ended::Hung(hang)) => isolation::hang_report(hang),
        Err(mpsc::RecvError) => unreachable!("the run's thread sends before it ends"),
    }
}

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
    watchdog::patrolling(plan, watches, limit, isolation::shrink_hang, |watches| {
        let _armed = crash::arm(plan, watches);
        body(watches)
    })
}

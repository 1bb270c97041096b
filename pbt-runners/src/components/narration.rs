//! What a run says as it goes, at [`Verbosity::Verbose`] and above (on
//! stderr, which the test harness shows for a failing test or with
//! `--nocapture`): each failing input found and each shrink step taken;
//! at [`Verbosity::Debug`], every generated input and the integrated
//! shrinker's table of what each pass did as well.
//!
//! Each line starts `pbt: <property>:`, so the lines of tests running at
//! once can be told apart.

use super::cases::Plan;
use super::erased::DynProperty;
use super::found::{CaseSeed, Found};
use super::watch::Watch;
use crate::verbosity::Verbosity;
use pbt_core::Binding;

/// How many bytes of each value a narrated input shows.
const SHOWN: usize = 1024;

/// Whether `plan` narrates at `level`.
pub(crate) fn at(plan: &Plan, level: Verbosity) -> bool {
    plan.config.verbosity >= level
}

/// `x = 1, ys = [2]`.
fn line(bindings: &[Binding]) -> String {
    let parts: Vec<String> = bindings.iter().map(ToString::to_string).collect();
    match parts.is_empty() {
        true => "(no variable)".to_string(),
        false => parts.join(", "),
    }
}

/// One line (or table) to stderr, in one `write` (as the failure path's
/// announcements are), through `eprint!` so the test harness captures it.
fn say(plan: &Plan, what: std::fmt::Arguments<'_>) {
    let text = format!("pbt: {}: {what}\n", plan.name);
    eprint!("{text}");
}

/// Verbose: the failing input `found` as it was found (generated once
/// more, and printed; its `Debug` is user code, run after the input is
/// saved).
pub(crate) fn failing_input(prop: &dyn DynProperty, plan: &Plan, watch: &Watch, found: &Found) {
    if !at(plan, Verbosity::Verbose) {
        return;
    }
    match prop.generate_traced(found, watch) {
        Ok(traced) => failing_input_shown(plan, &prop.print_any_within(&*traced.inputs, SHOWN)),
        Err(_) => say(
            plan,
            format_args!("failing input found (it does not generate again)"),
        ),
    }
}

/// Verbose: the failing input found, as printed (by a child process of
/// the isolated mode, or by [`failing_input`]).
pub(crate) fn failing_input_shown(plan: &Plan, shown: &[Binding]) {
    if at(plan, Verbosity::Verbose) {
        say(plan, format_args!("failing input found: {}", line(shown)));
    }
}

/// Verbose: shrink step `n` reached `printed`.
pub(crate) fn shrink_step(plan: &Plan, n: u64, printed: &str) {
    if at(plan, Verbosity::Verbose) {
        say(plan, format_args!("shrink step {n}: {printed}"));
    }
}

/// Debug: the input of the fresh case `case`, generated and printed
/// before it is tested (so an input that hangs or crashes its test is
/// shown first).
pub(crate) fn generated(prop: &dyn DynProperty, plan: &Plan, watch: &Watch, case: &CaseSeed) {
    match prop.generate_traced(&Found::Case(*case), watch) {
        Ok(traced) => {
            let shown = prop.print_any_within(&*traced.inputs, SHOWN);
            generated_shown(plan, case.size, &shown);
        }
        Err(why) => say(
            plan,
            format_args!("generated nothing (size {}): {why:?}", case.size),
        ),
    }
}

/// Debug: an input generated at `size`, as printed (by a child process
/// of the isolated mode, or by [`generated`]).
pub(crate) fn generated_shown(plan: &Plan, size: usize, shown: &[Binding]) {
    if at(plan, Verbosity::Debug) {
        say(
            plan,
            format_args!("generated (size {size}): {}", line(shown)),
        );
    }
}

/// `shrink`, with the integrated shrinker's table of what each pass did
/// printed after each of its runs on this thread at debug verbosity (as
/// `PBT_SHRINK_STATS=1` prints it at any verbosity).
pub(crate) fn with_pass_table<R>(plan: &Plan, shrink: impl FnOnce() -> R) -> R {
    use pbt_core::shrink::choices::passes::print_on_this_thread;
    if !at(plan, Verbosity::Debug) {
        return shrink();
    }
    let before = print_on_this_thread(true);
    let shrunk = shrink();
    print_on_this_thread(before);
    shrunk
}

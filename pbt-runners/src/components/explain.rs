//! The explain phase (Hypothesis's, which marks an argument "or any other
//! generated value"): after shrinking, which variables of the
//! counterexample do not matter?
//!
//! ```text
//! for each variable v of the shrunk input:
//!   draw v afresh (the others held: earlier ones keep their values, later
//!   ones too, unless their generators read v, and then they are
//!   regenerated from their own choices), run the check, up to
//!   EXPLAIN_TRIES inputs that generate
//!   every one failed with the same origin  → v is free: "or any other
//!                                            generated value"
//!   one passed, or failed another way      → v matters (not marked)
//! ```
//!
//! The phase is bounded by [`EXPLAIN_TIME`] in all (or `max_shrink_time`
//! when shorter; derandomized, by `max_shrink_time` alone, which the `ci`
//! profile turns off, so that a clock cannot change a report), and by
//! [`EXPLAIN_TRIES`] inputs (four times as many
//! attempts) per variable. It runs after shrinking reached a local
//! minimum: not when a limit stopped it, nor with `max_shrinks(0)` or a
//! quiet verbosity. The
//! fresh values are drawn at the sizes of the run's own tests. A variable
//! the phase could not decide (its redraws rejected, time ran out) is not
//! marked. Like Hypothesis's, the phase samples: a mark says that every
//! value tried failed, not that every value does (a rare value that
//! passes can hide), and its absence only that it found no such evidence.
//! The elements of a shrunk collection are not explained one by one: a
//! collection is one variable.

use super::cases::Plan;
use super::deadline::Deadline;
use super::distinct::FailureOrigin;
use super::drops::drop_quietly;
use super::erased::DynProperty;
use super::execute::MAX_STACK;
use super::watch::Watch;
use pbt_core::property::NodeView;
use pbt_core::Outcome;
use std::any::Any;
use std::time::Duration;

/// Inputs per variable that must all fail the same way for it to be
/// marked free.
pub const EXPLAIN_TRIES: u32 = 16;

/// The explain phase's time, for all the variables together.
pub const EXPLAIN_TIME: Duration = Duration::from_secs(1);

/// Whether the failure path explains its shrunk counterexamples under
/// `plan`: not when shrinking is off (`max_shrinks(0)`: the input is shown
/// as found, and nothing of it is tried again).
fn wanted(plan: &Plan) -> bool {
    // The one place the phase is turned off: a quiet run prints no
    // counterexample to explain.
    plan.config.max_shrinks > 0 && plan.config.verbosity != crate::Verbosity::Quiet
}

/// The variables of `inputs` (the shrunk counterexample of `prop`, failing
/// for `reason`) that are free: drawn afresh [`EXPLAIN_TRIES`] times, the
/// others held ([`DynProperty::redraw_any`]), the input failed every time
/// with the same origin ([`FailureOrigin`]). In quantification order; empty
/// when the phase is off for `plan` (`max_shrinks(0)`). The fresh values
/// come from the run seed, so a run explains the same way each time.
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::components::{explain, supervise, DynProperty, Found, Plan};
/// use pbt_runners::{Config, Regressions};
/// // forall a: u8; forall b: u8; check a < 100   (b does not matter)
/// let prop = Prop::new(Forall::new("a", "u8", Forall::new("b", "u8",
///     Check::new(|&(_b, (a, ())): &(u8, (u8, ()))| a < 100))));
/// let config = Config::default().ignore_env().regressions(Regressions::Off);
/// let plan = Plan::new(&config, &DynProperty::structure(&prop));
/// let erased: &dyn DynProperty = &prop;
/// let free = supervise(&prop, &plan, |watch| {
///     // The first failing input (shrunk or not, the question is the same).
///     let inputs = (0..)
///         .map(|n| erased.generate_traced(&Found::Case(plan.case(n)), watch).unwrap().inputs)
///         .find(|inputs| erased.run_any(&**inputs, watch).is_fail())
///         .unwrap();
///     explain(erased, &plan, watch, &*inputs, "the check returned false")
/// });
/// assert_eq!(free, ["b"]);
/// ```
pub fn explain(
    prop: &dyn DynProperty,
    plan: &Plan,
    watch: &Watch,
    inputs: &dyn Any,
    reason: &str,
) -> Vec<&'static str> {
    if !wanted(plan) {
        return Vec::new();
    }
    let origin = FailureOrigin::of(reason);
    // No longer than shrinking may take either: a short `max_shrink_time`
    // asks for a quick report.
    // Derandomized (the `ci` profile), the phase is bounded by its counts
    // alone: a clock must not change what the same inputs report.
    let limit = match plan.config.derandomize {
        true => plan.config.max_shrink_time,
        false => EXPLAIN_TIME.min(plan.config.max_shrink_time),
    };
    let deadline = Deadline::new(limit);
    let names: Vec<&'static str> = (prop.structure().variables())
        .filter_map(|v| match v {
            NodeView::Forall { name, .. } => Some(*name),
            _ => None,
        })
        .collect();
    let mut free = Vec::new();
    for (variable, name) in names.into_iter().enumerate() {
        // A stream of its own per variable, from the run seed.
        let seed = plan.seed ^ (variable as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut rng = pbt_core::Rng::from_seed(seed).limited(watch.max_draws(), MAX_STACK);
        let fresh = Fresh {
            src: &mut rng,
            plan,
            origin: &origin,
            deadline: &deadline,
        };
        match always_fails(prop, watch, inputs, variable, fresh) {
            Some(true) => free.push(name),
            Some(false) => {}
            // Out of time: the variables after it are not tried either.
            None => break,
        }
    }
    free
}

/// Where the fresh values of one variable come from, and what they must
/// fail with by when.
struct Fresh<'a> {
    src: &'a mut dyn pbt_core::Source,
    plan: &'a Plan,
    origin: &'a FailureOrigin,
    deadline: &'a Deadline,
}

/// Whether `inputs` fail with `origin` for [`EXPLAIN_TRIES`] fresh values
/// of `variable` in a row: `Some(false)` at the first that passes or fails
/// another way, and when too few generate; `None` when `deadline` passed
/// first.
fn always_fails(
    prop: &dyn DynProperty,
    watch: &Watch,
    inputs: &dyn Any,
    variable: usize,
    fresh: Fresh<'_>,
) -> Option<bool> {
    let Fresh {
        src,
        plan,
        origin,
        deadline,
    } = fresh;
    // The sizes of the run's own tests, spread over its schedule: a fresh
    // value is one the run could have generated (the shrunk input's size
    // may be the largest, where the integrated shrinker replays).
    let stride = (plan.config.cases / u64::from(EXPLAIN_TRIES)).max(1);
    let (mut failed, mut attempts) = (0, 0);
    while failed < EXPLAIN_TRIES {
        if deadline.passed() {
            return None;
        }
        if attempts == 4 * EXPLAIN_TRIES {
            return Some(false);
        }
        attempts += 1;
        // Drawing runs the user's generators: watched like a test.
        let ticket = watch.start();
        let size = plan.config.size_of(u64::from(attempts) * stride);
        let redrawn = prop.redraw_any(inputs, variable, &mut *src, size);
        if watch.finish(ticket) {
            return Some(false);
        }
        // Rejected (a precondition, a generator), or a generator that
        // panicked on a fresh value: no evidence either way.
        let Ok(candidate) = redrawn else {
            continue;
        };
        let outcome = prop.run_any(&*candidate, watch);
        drop_quietly(candidate);
        match outcome {
            Outcome::Fail(why) if FailureOrigin::of(&why) == *origin => failed += 1,
            Outcome::Discard => {}
            Outcome::Pass | Outcome::Fail(_) => return Some(false),
        }
    }
    Some(true)
}

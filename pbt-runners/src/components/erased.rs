//! [`DynProperty`]: a property behind a trait object, so that a runner's
//! loop is compiled once rather than once per property.
//!
//! Every `P: Property` is a `DynProperty` (a blanket impl), so `&prop`
//! coerces to `&dyn DynProperty`. The hot path, [`DynProperty::test`],
//! generates and runs a case in one virtual call without allocating; the
//! rest (shrinking, printing) moves inputs around as `Box<dyn Any>`.

use super::cases::Cases;
use super::drops::{drop_quietly, DropGuarded};
use super::execute::{
    catch_quietly, generate_and_run, generate_and_run_batch, quietly, run, Batch, Step, MAX_STACK,
};
use super::found::{CaseSeed, Found};
use super::statistics::Statistics;
use super::watch::Watch;
use pbt_core::{Binding, Discarded, Outcome, Property, Source, Structure};
use std::any::Any;

/// Inputs of some property, type-erased. The value in the box is held so
/// that a panic of its `Drop`, wherever the box is dropped, is caught
/// ([`drop_quietly`](super::drop_quietly)); [`DynProperty`]'s methods see
/// through that.
pub type AnyInputs = Box<dyn Any>;

/// `inputs`, erased and held as [`AnyInputs`] are.
fn erase<I: 'static>(inputs: I) -> AnyInputs {
    Box::new(DropGuarded::new(inputs))
}

/// An input with the choices (and their bounds) that generated it.
#[derive(Debug)]
pub struct Traced {
    /// The inputs.
    pub inputs: AnyInputs,
    /// The choices drawn.
    pub choices: Vec<u64>,
    /// The bound of each draw.
    pub bounds: Vec<u64>,
}

/// What generating (or mutating) an input came to.
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::components::{supervise, CaseSeed, DynProperty, Found, Generation, Plan};
/// use pbt_runners::{Config, Regressions};
/// // A generator that panics on 7: generating is a failure, not a discard.
/// let prop = Prop::new(Forall::new("x", "u8", Check::new(|_: &(u8, ())| true))
///     .gen(|_: &()| pbt_core::Gen::map(pbt_core::gen::int(0..10u8), |x| { assert!(x != 7, "seven"); x })));
/// let config = Config::default().ignore_env().regressions(Regressions::Off);
/// let plan = Plan::new(&config, &DynProperty::structure(&prop));
/// let outcomes: Vec<bool> = supervise(&prop, &plan, |watch| {
///     (0..50).map(|n| matches!(prop.generate_traced(&Found::Case(plan.case(n)), watch),
///                              Generation::Failed(_))).collect()
/// });
/// assert!(outcomes.contains(&true) && outcomes.contains(&false));
/// ```
#[derive(Debug)]
pub enum Generation<T> {
    /// The input.
    Generated(T),
    /// A precondition or generator rejected it, or a replayed choice
    /// sequence ran out (see [`pbt_core::overrun::Overrun::Replay`]).
    Discarded(Discarded),
    /// User code failed while generating: a generator or mutator panicked,
    /// ran past the time limit, or drew more than its budget. The reason
    /// says which; runners report it as a failure.
    Failed(String),
}

impl<T> Generation<T> {
    /// The input, if one was generated.
    pub fn ok(self) -> Option<T> {
        match self {
            Generation::Generated(t) => Some(t),
            _ => None,
        }
    }

    /// Apply `f` to the generated input.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Generation<U> {
        match self {
            Generation::Generated(t) => Generation::Generated(f(t)),
            Generation::Discarded(why) => Generation::Discarded(why),
            Generation::Failed(reason) => Generation::Failed(reason),
        }
    }
}

/// What [`DynProperty::replay_and_check`] came to.
#[derive(Debug)]
pub enum Checked {
    /// The candidate did not generate: a generator rejected it or failed
    /// (panicked, drew too much), the replay ran out, or it took longer
    /// than the time limit.
    NotGenerated,
    /// The caller's `keep` turned it down before its check.
    Skipped,
    /// Its check passed (or discarded it).
    Passed,
    /// Its check failed: the inputs and the reason.
    Failed(AnyInputs, String),
}

/// The object-safe view of a [`Property`] that runners' loops use.
pub trait DynProperty {
    /// [`Property::structure`].
    fn structure(&self) -> Structure;
    /// Generate `case` and run it (one call, no allocation).
    fn test(&self, case: &CaseSeed, watch: &Watch) -> Step;
    /// Generate and run fresh cases until `budget` passed or one did not
    /// ([`generate_and_run_batch`]: one call for the whole batch).
    fn test_batch(
        &self,
        cases: &mut Cases<'_>,
        budget: u64,
        watch: &Watch,
        statistics: &mut Statistics,
    ) -> Batch;
    /// Generate a saved or found input and run it, each under the watch
    /// (the time limit, the draw limit).
    fn test_found(&self, found: &Found, watch: &Watch) -> Step {
        if let Found::Case(case) = found {
            return self.test(case, watch);
        }
        match self.generate_traced(found, watch) {
            Generation::Generated(traced) => Step::Ran(self.run_any(&*traced.inputs, watch)),
            Generation::Discarded(why) => Step::Discarded(why),
            Generation::Failed(reason) => Step::GeneratorPanicked(reason),
        }
    }
    /// Generate a found input with every draw and its bound traced: the
    /// inputs, the choices and their bounds (for mutation and shrinking).
    /// An input mutated by value is its base, traced, then mutated step by
    /// step; a shrunk one is its base shrunk step by step; neither has
    /// choices of its own (they come back empty).
    /// Generation is watched: it fails past the watch's time limit, and a
    /// fresh case draws from a source bounded by [`Watch::max_draws`].
    fn generate_traced(&self, found: &Found, watch: &Watch) -> Generation<Traced> {
        let ticket = watch.start();
        let traced = self.trace_unwatched(found, watch.max_draws());
        if watch.finish(ticket) {
            return Generation::Failed(format!(
                "the generator ran longer than the time limit of {:?}",
                watch.limit().unwrap_or_default()
            ));
        }
        traced
    }
    /// [`DynProperty::generate_traced`] without the time limit.
    fn trace_unwatched(&self, found: &Found, max_draws: u64) -> Generation<Traced> {
        let mut rng;
        let mut replay;
        let inner: &mut dyn Source = match found {
            Found::Case(case) => {
                rng = case.rng().limited(max_draws, MAX_STACK);
                &mut rng
            }
            Found::Choices { choices, .. } => {
                replay = pbt_core::choices::Replay::new(choices);
                &mut replay
            }
            Found::Mutated { base, steps } => {
                let mut traced = match self.trace_unwatched(base, max_draws) {
                    Generation::Generated(traced) => traced,
                    other => return other,
                };
                for &step in steps {
                    match self.mutate_step(&*traced.inputs, step, found.size(), max_draws) {
                        Generation::Generated(mutant) => traced = mutant,
                        other => return other,
                    }
                }
                return Generation::Generated(traced);
            }
            Found::Shrunk { base, path } => {
                let mut traced = match self.trace_unwatched(base, max_draws) {
                    Generation::Generated(traced) => traced,
                    other => return other,
                };
                for &index in path {
                    match self.shrink_step(&*traced.inputs, index) {
                        Generation::Generated(smaller) => traced = smaller,
                        other => return other,
                    }
                }
                return Generation::Generated(traced);
            }
        };
        let mut tracer = pbt_core::choices::Tracer::new(inner);
        let result = self.generate_from(&mut tracer, found.size());
        let (choices, bounds) = tracer.into_trace();
        result.map(|inputs| Traced {
            inputs,
            choices,
            bounds,
        })
    }
    /// One value mutation of `inputs`, drawn from a fresh `Rng` seeded by
    /// `step` (so [`Found::Mutated`] replays it) and bounded by `max_draws`:
    /// the mutant, with no choices of its own; `Discarded` when it broke an
    /// implication later variables depend on; `Failed` when a mutator
    /// panicked.
    fn mutate_step(
        &self,
        inputs: &dyn Any,
        step: u64,
        size: usize,
        max_draws: u64,
    ) -> Generation<Traced> {
        let mut rng = pbt_core::Rng::from_seed(step).limited(max_draws, MAX_STACK);
        self.mutate_any(inputs, &mut rng, size)
            .map(|inputs| Traced {
                inputs,
                choices: Vec::new(),
                bounds: Vec::new(),
            })
    }
    /// The shrink candidate at `index` among those of `inputs` (so
    /// [`Found::Shrunk`] replays the external shrinker's result), with no
    /// choices of its own: `Discarded` when the shrinker no longer makes
    /// that many candidates, `Failed` when it panicked.
    fn shrink_step(&self, inputs: &dyn Any, index: u64) -> Generation<Traced> {
        let nth = quietly(|| {
            let index = usize::try_from(index).ok()?;
            self.shrink_any(inputs).nth(index)
        });
        match nth {
            Ok(Some(inputs)) => Generation::Generated(Traced {
                inputs,
                choices: Vec::new(),
                bounds: Vec::new(),
            }),
            Ok(None) => Generation::Discarded(Discarded::Rejected),
            Err(panic) => Generation::Failed(format!(
                "a shrinker panicked while replaying a saved shrunk input: {panic}"
            )),
        }
    }
    /// [`Property::utility`] of inputs produced by this property.
    fn utility_any(&self, inputs: &dyn Any) -> Option<f64>;
    /// [`Property::target`] of inputs produced by this property.
    fn target_any(&self, inputs: &dyn Any) -> Option<f64>;

    /// Generate from any source at `size` (a replayed choice sequence, say),
    /// with panics caught: a replay that ran out of choices is a rejection,
    /// any other panic (or overrun) a failure.
    fn generate_from(&self, src: &mut dyn Source, size: usize) -> Generation<AnyInputs>;
    /// [`DynProperty::generate_from`] a replayed choice sequence, the
    /// integrated shrinker's every candidate: the generators draw from the
    /// [`Replay`](pbt_core::choices::Replay) itself, not through a
    /// `dyn Source` (a virtual call per draw and per block mark).
    fn replay_from(
        &self,
        replay: &mut pbt_core::choices::Replay<'_>,
        size: usize,
    ) -> Generation<AnyInputs> {
        self.generate_from(replay, size)
    }
    /// Replay a candidate through the generators under `watch` (a replay
    /// slower than the time limit is no candidate), ask `keep` of the
    /// choices it used, and check the inputs when it says so (under
    /// `watch`, as [`DynProperty::run_any`]). The inputs are boxed only
    /// when they fail: a shrinker's passing candidates, most of them,
    /// cost no allocation of their own.
    fn replay_and_check(
        &self,
        replay: &mut pbt_core::choices::Replay<'_>,
        size: usize,
        watch: &Watch,
        keep: &mut dyn FnMut(&[u64]) -> bool,
    ) -> Checked {
        let ticket = watch.start();
        let generated = self.replay_from(replay, size);
        let overran = watch.finish(ticket);
        let Generation::Generated(inputs) = generated else {
            return Checked::NotGenerated;
        };
        if overran {
            return Checked::NotGenerated;
        }
        if !keep(replay.used()) {
            return Checked::Skipped;
        }
        match self.run_any(&*inputs, watch) {
            Outcome::Fail(why) => Checked::Failed(inputs, why),
            _ => Checked::Passed,
        }
    }
    /// Run inputs produced by this property.
    fn run_any(&self, inputs: &dyn Any, watch: &Watch) -> Outcome;
    /// [`Property::mutate`] of inputs produced by this property:
    /// `Discarded` when the mutant broke an implication later variables
    /// depend on, `Failed` when a mutator panicked.
    fn mutate_any(
        &self,
        inputs: &dyn Any,
        src: &mut dyn Source,
        size: usize,
    ) -> Generation<AnyInputs>;
    /// [`Property::shrink`] of inputs produced by this property. The
    /// candidates come lazily; a user's shrinker may panic while producing
    /// one (the shrinker component catches it).
    fn shrink_any<'a>(&'a self, inputs: &'a dyn Any) -> Box<dyn Iterator<Item = AnyInputs> + 'a>;
    /// [`Property::print`] of inputs produced by this property. Never
    /// panics: a printer that does is shown as a placeholder.
    fn print_any(&self, inputs: &dyn Any) -> Vec<Binding>;
    /// [`Property::print_within`] of inputs produced by this property
    /// (each value cut short after `limit` bytes; the default prints them
    /// whole). Never panics.
    fn print_any_within(&self, inputs: &dyn Any, limit: usize) -> Vec<Binding> {
        let _ = limit;
        self.print_any(inputs)
    }
    /// [`Property::print_into`] of inputs produced by this property: printed
    /// into `out`, reusing its strings (the default prints anew). Never
    /// panics.
    fn print_any_into(&self, inputs: &dyn Any, out: &mut Vec<Binding>) {
        *out = self.print_any(inputs);
    }
    /// [`Property::prints_as`] of inputs produced by this property: whether
    /// they print as `printed`, compared up to the first difference. A
    /// printer that panics compares as its placeholder.
    fn prints_as_any(&self, inputs: &dyn Any, printed: &[Binding]) -> bool {
        self.print_any(inputs) == printed
    }
    /// [`Property::constructors`] of inputs produced by this property.
    fn constructors_any(
        &self,
        inputs: &dyn Any,
        out: &mut Vec<(&'static str, pbt_core::Constructor)>,
    );
}

/// The inputs of `P` inside `inputs` (a runner only hands a property its own).
fn inputs_of<P: Property>(inputs: &dyn Any) -> &P::Inputs {
    held::<P::Inputs>(inputs).expect("pbt: a property was handed inputs of another property")
}

/// The `I` in erased inputs (held as [`erase`] holds them, or boxed as they
/// are).
pub(crate) fn held<I: 'static>(inputs: &dyn Any) -> Option<&I> {
    match inputs.downcast_ref::<DropGuarded<I>>() {
        Some(guarded) => guarded.get(),
        None => inputs.downcast_ref::<I>(),
    }
}

/// `prop`'s inputs generated from `src` at `size`, with panics caught: a
/// replay that ran out of choices is a rejection, any other panic (or
/// overrun) a failure. Generic over the source, so a replay is drawn from
/// without a virtual call ([`DynProperty::replay_from`]).
fn generate_caught<P: Property, S: Source + ?Sized>(
    prop: &P,
    src: &mut S,
    size: usize,
) -> Generation<AnyInputs> {
    let generated = catch_quietly(|| match prop.generate(src, size) {
        Ok(inputs) => Generation::Generated(erase(inputs)),
        Err(why) => Generation::Discarded(why),
    });
    match generated {
        Ok(generation) => generation,
        Err(panic) if panic.replay_ran_out() => Generation::Discarded(Discarded::Rejected),
        Err(panic) => Generation::Failed(panic.generator_reason()),
    }
}

impl<P: Property> DynProperty for P {
    fn structure(&self) -> Structure {
        Property::structure(self)
    }

    #[inline]
    fn test(&self, case: &CaseSeed, watch: &Watch) -> Step {
        generate_and_run(self, case, watch)
    }

    fn test_batch(
        &self,
        cases: &mut Cases<'_>,
        budget: u64,
        watch: &Watch,
        statistics: &mut Statistics,
    ) -> Batch {
        generate_and_run_batch(self, cases, budget, watch, statistics)
    }

    fn generate_from(&self, src: &mut dyn Source, size: usize) -> Generation<AnyInputs> {
        generate_caught(self, src, size)
    }

    fn replay_from(
        &self,
        replay: &mut pbt_core::choices::Replay<'_>,
        size: usize,
    ) -> Generation<AnyInputs> {
        generate_caught(self, replay, size)
    }

    fn replay_and_check(
        &self,
        replay: &mut pbt_core::choices::Replay<'_>,
        size: usize,
        watch: &Watch,
        keep: &mut dyn FnMut(&[u64]) -> bool,
    ) -> Checked {
        let ticket = watch.start();
        let generated = catch_quietly(|| self.generate(replay, size));
        let overran = watch.finish(ticket);
        let inputs = match generated {
            Ok(Ok(inputs)) if !overran => inputs,
            _ => return Checked::NotGenerated,
        };
        if !keep(replay.used()) {
            drop_quietly(inputs);
            return Checked::Skipped;
        }
        match run(self, &inputs, watch) {
            Outcome::Fail(why) => Checked::Failed(erase(inputs), why),
            _ => {
                drop_quietly(inputs);
                Checked::Passed
            }
        }
    }

    fn run_any(&self, inputs: &dyn Any, watch: &Watch) -> Outcome {
        run(self, inputs_of::<P>(inputs), watch)
    }

    fn mutate_any(
        &self,
        inputs: &dyn Any,
        src: &mut dyn Source,
        size: usize,
    ) -> Generation<AnyInputs> {
        let inputs = inputs_of::<P>(inputs);
        let mutated = catch_quietly(|| match self.mutate(inputs, src, size) {
            Some(mutant) => Generation::Generated(erase(mutant)),
            None => Generation::Discarded(Discarded::Precondition),
        });
        match mutated {
            Ok(generation) => generation,
            Err(panic) if panic.overrun.is_some() => Generation::Failed(panic.message),
            Err(panic) => Generation::Failed(format!(
                "a mutator (or a generator it regenerates with) panicked: {}",
                panic.message
            )),
        }
    }

    fn shrink_any<'a>(&'a self, inputs: &'a dyn Any) -> Box<dyn Iterator<Item = AnyInputs> + 'a> {
        Box::new(self.shrink(inputs_of::<P>(inputs)).map(|c| erase(c)))
    }

    fn print_any(&self, inputs: &dyn Any) -> Vec<Binding> {
        let inputs = inputs_of::<P>(inputs);
        quietly(|| self.print(inputs)).unwrap_or_else(|msg| {
            // A property of the user's own that does not guard its printers:
            // every variable gets the placeholder.
            Property::structure(self)
                .variables()
                .filter_map(|v| match v {
                    pbt_core::property::NodeView::Forall { name, ty, .. } => Some(Binding {
                        name,
                        ty,
                        value: format!("<print panicked: {msg}>"),
                    }),
                    _ => None,
                })
                .collect()
        })
    }

    fn print_any_within(&self, inputs: &dyn Any, limit: usize) -> Vec<Binding> {
        let typed = inputs_of::<P>(inputs);
        quietly(|| self.print_within(typed, limit)).unwrap_or_else(|_| self.print_any(inputs))
    }

    fn print_any_into(&self, inputs: &dyn Any, out: &mut Vec<Binding>) {
        let typed = inputs_of::<P>(inputs);
        if quietly(|| self.print_into(typed, &mut *out)).is_err() {
            *out = self.print_any(inputs);
        }
    }

    fn prints_as_any(&self, inputs: &dyn Any, printed: &[Binding]) -> bool {
        let typed = inputs_of::<P>(inputs);
        quietly(|| self.prints_as(typed, printed))
            .unwrap_or_else(|_| self.print_any(inputs) == printed)
    }

    fn utility_any(&self, inputs: &dyn Any) -> Option<f64> {
        self.utility(inputs_of::<P>(inputs))
    }

    fn constructors_any(
        &self,
        inputs: &dyn Any,
        out: &mut Vec<(&'static str, pbt_core::Constructor)>,
    ) {
        self.constructors(inputs_of::<P>(inputs), out);
    }

    fn target_any(&self, inputs: &dyn Any) -> Option<f64> {
        self.target(inputs_of::<P>(inputs))
    }
}

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
    catch_quietly, generate_and_run, generate_and_run_batch, quietly, run, Batch, MAX_STACK,
};
use super::found::{CaseSeed, Found};
use super::statistics::Statistics;
use super::tested::{NotGenerated, Tested};
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

/// The object-safe view of a [`Property`] that runners' loops use.
pub trait DynProperty {
    /// [`Property::structure`].
    fn structure(&self) -> Structure;
    /// Generate `case` and run it (one call, no allocation).
    fn test(&self, case: &CaseSeed, watch: &Watch) -> Tested;
    /// Generate and run fresh cases until `budget` passed or one did not
    /// ([`generate_and_run_batch`]: one call for the whole batch).
    fn test_batch(
        &self,
        cases: &mut Cases<'_>,
        budget: u64,
        watch: &Watch,
        statistics: &mut Statistics,
    ) -> Batch;
    /// [`Property::utility`] of inputs produced by this property.
    fn utility_any(&self, inputs: &dyn Any) -> Option<f64>;
    /// [`Property::target`] of inputs produced by this property.
    fn target_any(&self, inputs: &dyn Any) -> Option<f64>;

    /// Generate from any source at `size` (a replayed choice sequence, say),
    /// with panics caught: a replay that ran out of choices is a rejection,
    /// any other panic (or overrun) a failure.
    fn generate_from(&self, src: &mut dyn Source, size: usize) -> Result<AnyInputs, NotGenerated>;
    /// [`DynProperty::generate_from`] a replayed choice sequence, the
    /// integrated shrinker's every candidate: the generators draw from the
    /// [`Replay`](pbt_core::choices::Replay) itself, not through a
    /// `dyn Source` (a virtual call per draw and per block mark).
    fn replay_from(
        &self,
        replay: &mut pbt_core::choices::Replay<'_>,
        size: usize,
    ) -> Result<AnyInputs, NotGenerated> {
        self.generate_from(replay, size)
    }
    /// Replay a candidate through the generators under `watch` (a replay
    /// slower than the time limit is no candidate), ask `keep` of the
    /// choices it used, and check the inputs when it says so (under
    /// `watch`, as [`DynProperty::run_any`]): the inputs and the reason
    /// when the check fails; `None` when it passes or discards, when
    /// `keep` turns the candidate down, and when it does not generate
    /// (rejected, a generator's fault, slower than the time limit). The
    /// inputs are boxed only when they fail: a shrinker's passing
    /// candidates, most of them, cost no allocation of their own.
    fn replay_and_check(
        &self,
        replay: &mut pbt_core::choices::Replay<'_>,
        size: usize,
        watch: &Watch,
        keep: &mut dyn FnMut(&[u64]) -> bool,
    ) -> Option<(AnyInputs, String)> {
        let ticket = watch.start();
        let generated = self.replay_from(replay, size);
        let overran = watch.finish(ticket);
        let inputs = generated.ok().filter(|_| !overran)?;
        if !keep(replay.used()) {
            return None;
        }
        let (outcome, tail) = pbt_core::data::capture(|| self.run_any(&*inputs, watch));
        if let Some(tail) = tail {
            replay.append(&tail);
            if !keep(replay.used()) {
                return None;
            }
        }
        match outcome {
            Outcome::Fail(why) => Some((inputs, why)),
            _ => None,
        }
    }
    /// Run inputs produced by this property.
    fn run_any(&self, inputs: &dyn Any, watch: &Watch) -> Outcome;
    /// [`Property::draws_in_check`]: whether a test's choices go on in
    /// its check (a `Data` variable).
    fn draws_in_check(&self) -> bool {
        false
    }
    /// Run the check on inputs produced by this property for the draws it
    /// makes through its `Data` (panics caught, the outcome dropped), when
    /// it [draws in its check](DynProperty::draws_in_check): what a
    /// generation's choices need to be the whole test's (see
    /// [`pbt_core::data`]), and what a `Data` prints.
    fn run_for_draws(&self, inputs: &dyn Any) -> Option<pbt_core::data::Tail> {
        let _ = inputs;
        None
    }
    /// [`Property::mutate`] of inputs produced by this property:
    /// `Discarded` when the mutant broke an implication later variables
    /// depend on, `Failed` when a mutator panicked.
    fn mutate_any(
        &self,
        inputs: &dyn Any,
        src: &mut dyn Source,
        size: usize,
    ) -> Result<AnyInputs, NotGenerated>;
    /// [`Property::redraw`] of inputs produced by this property: the
    /// variable numbered `variable` drawn afresh from `src` at `size`, the others
    /// held. `Discarded` when a precondition no longer holds, a generator
    /// rejects, or the property cannot redraw one variable (the default);
    /// `Failed` when a generator panicked.
    fn redraw_any(
        &self,
        inputs: &dyn Any,
        variable: usize,
        src: &mut dyn Source,
        size: usize,
    ) -> Result<AnyInputs, NotGenerated> {
        let _ = (inputs, variable, src, size);
        Err(NotGenerated::Discarded(Discarded::Rejected))
    }
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

/// What runners do with any property through its [`DynProperty`] methods:
/// compiled once here, not once per property as a trait's default methods
/// are (`docs/benchmarks.md`, "Compile time").
impl dyn DynProperty + '_ {
    /// Generate a saved or found input and run it, each under the watch
    /// (the time limit, the draw limit).
    pub fn test_found(&self, found: &Found, watch: &Watch) -> Tested {
        if let Found::Case(case) = found {
            return self.test(case, watch);
        }
        match self.generate_traced(found, watch) {
            Ok(traced) => Tested::from(self.run_any(&*traced.inputs, watch)),
            Err(not) => Tested::from(not),
        }
    }
    /// Generate a found input with every draw and its bound traced: the
    /// inputs, the choices and their bounds (for mutation and shrinking).
    /// An input mutated by value is its base, traced, then mutated step by
    /// step; a shrunk one is its base shrunk step by step; neither has
    /// choices of its own (they come back empty).
    /// Generation is watched: it fails past the watch's time limit, and a
    /// fresh case draws from a source bounded by [`Watch::max_draws`].
    pub fn generate_traced(&self, found: &Found, watch: &Watch) -> Result<Traced, NotGenerated> {
        let ticket = watch.start();
        let traced = self.trace_unwatched(found, watch.max_draws());
        if watch.finish(ticket) {
            return Err(NotGenerated::Failed(format!(
                "the generator ran longer than the time limit of {:?}",
                watch.limit().unwrap_or_default()
            )));
        }
        traced
    }
    /// [`generate_traced`](DynProperty#method.generate_traced) without the time limit.
    pub fn trace_unwatched(&self, found: &Found, max_draws: u64) -> Result<Traced, NotGenerated> {
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
                let mut traced = self.trace_unwatched(base, max_draws)?;
                for &step in steps {
                    traced = self.mutate_step(&*traced.inputs, step, found.size(), max_draws)?;
                }
                return Ok(traced);
            }
            Found::Shrunk { base, path } => {
                let mut traced = self.trace_unwatched(base, max_draws)?;
                for &index in path {
                    traced = self.shrink_step(&*traced.inputs, index)?;
                }
                return Ok(traced);
            }
        };
        let mut tracer = pbt_core::choices::Tracer::new(inner);
        let result = self.generate_from(&mut tracer, found.size());
        // A check that draws goes on with the sequence: its draws are part
        // of the input's choices (and its `Data` then prints them).
        if let Some(tail) = result.as_ref().ok().and_then(|i| self.run_for_draws(&**i)) {
            tracer.append(&tail);
        }
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
    pub fn mutate_step(
        &self,
        inputs: &dyn Any,
        step: u64,
        size: usize,
        max_draws: u64,
    ) -> Result<Traced, NotGenerated> {
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
    pub fn shrink_step(&self, inputs: &dyn Any, index: u64) -> Result<Traced, NotGenerated> {
        let nth = quietly(|| {
            let index = usize::try_from(index).ok()?;
            self.shrink_any(inputs).nth(index)
        });
        match nth {
            Ok(Some(inputs)) => Ok(Traced {
                inputs,
                choices: Vec::new(),
                bounds: Vec::new(),
            }),
            Ok(None) => Err(NotGenerated::Discarded(Discarded::Rejected)),
            Err(panic) => Err(NotGenerated::Failed(format!(
                "a shrinker panicked while replaying a saved shrunk input: {panic}"
            ))),
        }
    }
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
) -> Result<AnyInputs, NotGenerated> {
    match catch_quietly(|| prop.generate(src, size)) {
        Ok(Ok(inputs)) => Ok(erase(inputs)),
        Ok(Err(why)) => Err(NotGenerated::Discarded(why)),
        Err(panic) if panic.replay_ran_out() => Err(NotGenerated::Discarded(Discarded::Rejected)),
        Err(panic) => Err(NotGenerated::Failed(panic.generator_reason())),
    }
}

impl<P: Property> DynProperty for P {
    fn structure(&self) -> Structure {
        Property::structure(self)
    }

    #[inline]
    fn test(&self, case: &CaseSeed, watch: &Watch) -> Tested {
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

    fn generate_from(&self, src: &mut dyn Source, size: usize) -> Result<AnyInputs, NotGenerated> {
        generate_caught(self, src, size)
    }

    fn replay_from(
        &self,
        replay: &mut pbt_core::choices::Replay<'_>,
        size: usize,
    ) -> Result<AnyInputs, NotGenerated> {
        generate_caught(self, replay.source(), size)
    }

    fn replay_and_check(
        &self,
        replay: &mut pbt_core::choices::Replay<'_>,
        size: usize,
        watch: &Watch,
        keep: &mut dyn FnMut(&[u64]) -> bool,
    ) -> Option<(AnyInputs, String)> {
        let ticket = watch.start();
        let generated = catch_quietly(|| self.generate(replay.source(), size));
        let overran = watch.finish(ticket);
        let inputs = match generated {
            Ok(Ok(inputs)) if !overran => inputs,
            _ => return None,
        };
        if !keep(replay.used()) {
            drop_quietly(inputs);
            return None;
        }
        if !Property::draws_in_check(self) {
            return match run(self, &inputs, watch) {
                Outcome::Fail(why) => Some((erase(inputs), why)),
                _ => {
                    drop_quietly(inputs);
                    None
                }
            };
        }
        // The check's draws are the rest of the candidate's choices: they
        // must make progress too.
        let (outcome, tail) = pbt_core::data::capture(|| run(self, &inputs, watch));
        if let Some(tail) = tail {
            replay.append(&tail);
        }
        match outcome {
            Outcome::Fail(why) if keep(replay.used()) => Some((erase(inputs), why)),
            _ => {
                drop_quietly(inputs);
                None
            }
        }
    }

    fn draws_in_check(&self) -> bool {
        Property::draws_in_check(self)
    }

    fn run_for_draws(&self, inputs: &dyn Any) -> Option<pbt_core::data::Tail> {
        if !Property::draws_in_check(self) {
            return None;
        }
        let inputs = inputs_of::<P>(inputs);
        pbt_core::data::capture(|| quietly(|| self.run(inputs))).1
    }

    fn run_any(&self, inputs: &dyn Any, watch: &Watch) -> Outcome {
        run(self, inputs_of::<P>(inputs), watch)
    }

    fn mutate_any(
        &self,
        inputs: &dyn Any,
        src: &mut dyn Source,
        size: usize,
    ) -> Result<AnyInputs, NotGenerated> {
        let inputs = inputs_of::<P>(inputs);
        match catch_quietly(|| self.mutate(inputs, src, size)) {
            Ok(Some(mutant)) => Ok(erase(mutant)),
            Ok(None) => Err(NotGenerated::Discarded(Discarded::Precondition)),
            Err(panic) if panic.overrun.is_some() => Err(NotGenerated::Failed(panic.message)),
            Err(panic) => Err(NotGenerated::Failed(format!(
                "a mutator (or a generator it regenerates with) panicked: {}",
                panic.message
            ))),
        }
    }

    fn redraw_any(
        &self,
        inputs: &dyn Any,
        variable: usize,
        src: &mut dyn Source,
        size: usize,
    ) -> Result<AnyInputs, NotGenerated> {
        let inputs = inputs_of::<P>(inputs);
        match catch_quietly(|| self.redraw(inputs, variable, src, size)) {
            Ok(Some(redrawn)) => Ok(erase(redrawn)),
            Ok(None) => Err(NotGenerated::Discarded(Discarded::Precondition)),
            Err(panic) => Err(NotGenerated::Failed(panic.generator_reason())),
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

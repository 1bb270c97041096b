//! [`DynProperty`]: a property behind a trait object, so that a runner's
//! loop is compiled once rather than once per property.
//!
//! Every `P: Property` is a `DynProperty` (a blanket impl), so `&prop`
//! coerces to `&dyn DynProperty`. The hot path, [`DynProperty::test`],
//! generates and runs a case in one virtual call without allocating; the
//! rest (shrinking, printing) moves inputs around as `Box<dyn Any>`.

use super::cases::{Case, Found};
use super::execute::{generate_and_run, quietly, run, Verdict};
use super::watchdog::Watch;
use pbt_core::{Binding, Discarded, Property, Source, Structure};
use std::any::Any;

/// Inputs of some property, type-erased.
pub type AnyInputs = Box<dyn Any>;

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

/// What one test step came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The case was generated and run.
    Ran(Verdict),
    /// The case was not generated (a precondition or a generator rejected).
    Discarded(Discarded),
    /// A generator panicked, with this message.
    GeneratorPanicked(String),
}

/// The object-safe view of a [`Property`] that runners' loops use.
pub trait DynProperty {
    /// [`Property::structure`].
    fn structure(&self) -> Structure;
    /// Generate `case` and run it (one call, no allocation).
    fn test(&self, case: &Case, watch: &Watch) -> Step;
    /// Generate `case` with each variable's choices recorded (for shrinking).
    /// (Through [`DynProperty::generate_from`], so that a property's
    /// generators are compiled for two sources only: `Rng` and `dyn Source`.)
    fn generate_recorded(&self, case: &Case) -> Result<Result<AnyInputs, Discarded>, String> {
        let mut recorder = pbt_core::choices::Recorder::new(case.rng());
        self.generate_from(&mut recorder, case.size)
            .ok_or_else(|| "the generator panicked".to_string())
    }
    /// Generate a saved or found input and run it.
    fn test_found(&self, found: &Found, watch: &Watch) -> Step {
        match found {
            Found::Case(case) => self.test(case, watch),
            Found::Choices { choices, size } => {
                let mut replay = pbt_core::choices::Replay::new(choices);
                match self.generate_from(&mut replay, *size) {
                    Some(Ok(inputs)) => Step::Ran(self.run_any(&*inputs, watch)),
                    Some(Err(why)) => Step::Discarded(why),
                    None => {
                        Step::GeneratorPanicked("the generator panicked on replayed choices".into())
                    }
                }
            }
            Found::Mutated { .. } => match self.generate_traced(found) {
                Some(Ok(traced)) => Step::Ran(self.run_any(&*traced.inputs, watch)),
                Some(Err(why)) => Step::Discarded(why),
                None => Step::GeneratorPanicked(
                    "the generator or a mutator panicked replaying a mutated input".into(),
                ),
            },
        }
    }
    /// Generate a found input with every draw and its bound traced: the
    /// inputs, the choices and their bounds (for mutation). An input mutated
    /// by value is its base, traced, then mutated step by step; it has no
    /// choices of its own (they come back empty). `None` when a generator
    /// or a mutator panicked.
    fn generate_traced(&self, found: &Found) -> Option<Result<Traced, Discarded>> {
        let mut rng;
        let mut replay;
        let inner: &mut dyn Source = match found {
            Found::Case(case) => {
                rng = case.rng();
                &mut rng
            }
            Found::Choices { choices, .. } => {
                replay = pbt_core::choices::Replay::new(choices);
                &mut replay
            }
            Found::Mutated { base, steps } => {
                let mut traced = match self.generate_traced(base)? {
                    Ok(traced) => traced,
                    Err(why) => return Some(Err(why)),
                };
                for &step in steps {
                    match self.mutate_step(&*traced.inputs, step, found.size())? {
                        Ok(mutant) => traced = mutant,
                        Err(why) => return Some(Err(why)),
                    }
                }
                return Some(Ok(traced));
            }
        };
        let mut tracer = pbt_core::choices::Tracer::new(inner);
        let result = self.generate_from(&mut tracer, found.size())?;
        let (choices, bounds) = tracer.into_trace();
        Some(result.map(|inputs| Traced {
            inputs,
            choices,
            bounds,
        }))
    }
    /// One value mutation of `inputs`, drawn from a fresh `Rng` seeded by
    /// `step` (so [`Found::Mutated`] replays it): the mutant, with no choices
    /// of its own; `Err` when it broke an implication later variables depend
    /// on; `None` when a mutator panicked.
    fn mutate_step(
        &self,
        inputs: &dyn Any,
        step: u64,
        size: usize,
    ) -> Option<Result<Traced, Discarded>> {
        let mut rng = pbt_core::Rng::from_seed(step);
        let mutant = self.mutate_any(inputs, &mut rng, size)?;
        Some(
            mutant
                .map(|inputs| Traced {
                    inputs,
                    choices: Vec::new(),
                    bounds: Vec::new(),
                })
                .ok_or(Discarded::Precondition),
        )
    }
    /// [`Property::utility`] of inputs produced by this property.
    fn utility_any(&self, inputs: &dyn Any) -> Option<f64>;
    /// [`Property::target`] of inputs produced by this property.
    fn target_any(&self, inputs: &dyn Any) -> Option<f64>;

    /// Generate from any source at `size` (a replayed choice sequence, say);
    /// `None` when a generator panicked.
    fn generate_from(
        &self,
        src: &mut dyn Source,
        size: usize,
    ) -> Option<Result<AnyInputs, Discarded>>;
    /// Run inputs produced by this property.
    fn run_any(&self, inputs: &dyn Any, watch: &Watch) -> Verdict;
    /// [`Property::mutate`] of inputs produced by this property: `None`
    /// when a mutator panicked, `Some(None)` when the mutant broke an
    /// implication later variables depend on.
    fn mutate_any(
        &self,
        inputs: &dyn Any,
        src: &mut dyn Source,
        size: usize,
    ) -> Option<Option<AnyInputs>>;
    /// [`Property::shrink`] of inputs produced by this property.
    fn shrink_any<'a>(&'a self, inputs: &'a dyn Any) -> Box<dyn Iterator<Item = AnyInputs> + 'a>;
    /// [`Property::print`] of inputs produced by this property.
    fn print_any(&self, inputs: &dyn Any) -> Vec<Binding>;
    /// [`Property::constructors`] of inputs produced by this property.
    fn constructors_any(
        &self,
        inputs: &dyn Any,
        out: &mut Vec<(&'static str, pbt_core::Constructor)>,
    );
}

/// The inputs of `P` inside `inputs` (a runner only hands a property its own).
fn inputs_of<P: Property>(inputs: &dyn Any) -> &P::Inputs {
    inputs
        .downcast_ref::<P::Inputs>()
        .expect("pbt: a property was handed inputs of another property")
}

impl<P: Property> DynProperty for P {
    fn structure(&self) -> Structure {
        Property::structure(self)
    }

    #[inline]
    fn test(&self, case: &Case, watch: &Watch) -> Step {
        match generate_and_run(self, case, watch) {
            Ok(Ok(verdict)) => Step::Ran(verdict),
            Ok(Err(why)) => Step::Discarded(why),
            Err(panic) => Step::GeneratorPanicked(panic),
        }
    }

    fn generate_from(
        &self,
        src: &mut dyn Source,
        size: usize,
    ) -> Option<Result<AnyInputs, Discarded>> {
        quietly(|| {
            self.generate(src, size)
                .map(|inputs| Box::new(inputs) as AnyInputs)
        })
        .ok()
    }

    fn run_any(&self, inputs: &dyn Any, watch: &Watch) -> Verdict {
        run(self, inputs_of::<P>(inputs), watch)
    }

    fn mutate_any(
        &self,
        inputs: &dyn Any,
        src: &mut dyn Source,
        size: usize,
    ) -> Option<Option<AnyInputs>> {
        let inputs = inputs_of::<P>(inputs);
        quietly(|| {
            self.mutate(inputs, src, size)
                .map(|mutant| Box::new(mutant) as AnyInputs)
        })
        .ok()
    }

    fn shrink_any<'a>(&'a self, inputs: &'a dyn Any) -> Box<dyn Iterator<Item = AnyInputs> + 'a> {
        Box::new(
            self.shrink(inputs_of::<P>(inputs))
                .map(|c| Box::new(c) as AnyInputs),
        )
    }

    fn print_any(&self, inputs: &dyn Any) -> Vec<Binding> {
        self.print(inputs_of::<P>(inputs))
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

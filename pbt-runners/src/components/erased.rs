//! [`DynProperty`]: a property behind a trait object, so that a runner's
//! loop is compiled once rather than once per property.
//!
//! Every `P: Property + Sync` is a `DynProperty` (a blanket impl), so `&prop`
//! coerces to `&dyn DynProperty`. The hot path, [`DynProperty::test`],
//! generates and runs a case in one virtual call without allocating; the
//! rest (shrinking, printing) moves inputs around as `Box<dyn Any>`.

use super::cases::Case;
use super::execute::{generate, quietly, run, Verdict};
use super::watchdog::Watch;
use pbt_core::{Binding, Discarded, Property, Source, Structure};
use std::any::Any;

/// Inputs of some property, type-erased.
pub type AnyInputs = Box<dyn Any>;

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
pub trait DynProperty: Sync {
    /// [`Property::structure`].
    fn structure(&self) -> Structure;
    /// Generate `case` and run it (one call, no allocation).
    fn test(&self, case: &Case, watch: &Watch) -> Step;
    /// Generate `case` with each variable's choices recorded (for shrinking).
    fn generate_recorded(&self, case: &Case) -> Result<Result<AnyInputs, Discarded>, String>;
    /// Generate from any source at `size` (a replayed choice sequence, say);
    /// `None` when a generator panicked.
    fn generate_from(
        &self,
        src: &mut dyn Source,
        size: usize,
    ) -> Option<Result<AnyInputs, Discarded>>;
    /// Run inputs produced by this property.
    fn run_any(&self, inputs: &dyn Any, watch: &Watch) -> Verdict;
    /// [`Property::shrink`] of inputs produced by this property.
    fn shrink_any<'a>(&'a self, inputs: &'a dyn Any) -> Box<dyn Iterator<Item = AnyInputs> + 'a>;
    /// [`Property::print`] of inputs produced by this property.
    fn print_any(&self, inputs: &dyn Any) -> Vec<Binding>;
}

/// The inputs of `P` inside `inputs` (a runner only hands a property its own).
fn inputs_of<P: Property>(inputs: &dyn Any) -> &P::Inputs {
    inputs
        .downcast_ref::<P::Inputs>()
        .expect("pbt: a property was handed inputs of another property")
}

impl<P: Property + Sync> DynProperty for P {
    fn structure(&self) -> Structure {
        Property::structure(self)
    }

    #[inline]
    fn test(&self, case: &Case, watch: &Watch) -> Step {
        match generate(self, case, false) {
            Ok(Ok(inputs)) => Step::Ran(run(self, &inputs, watch)),
            Ok(Err(why)) => Step::Discarded(why),
            Err(panic) => Step::GeneratorPanicked(panic),
        }
    }

    fn generate_recorded(&self, case: &Case) -> Result<Result<AnyInputs, Discarded>, String> {
        generate(self, case, true).map(|r| r.map(|inputs| Box::new(inputs) as AnyInputs))
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

    fn shrink_any<'a>(&'a self, inputs: &'a dyn Any) -> Box<dyn Iterator<Item = AnyInputs> + 'a> {
        Box::new(
            self.shrink(inputs_of::<P>(inputs))
                .map(|c| Box::new(c) as AnyInputs),
        )
    }

    fn print_any(&self, inputs: &dyn Any) -> Vec<Binding> {
        self.print(inputs_of::<P>(inputs))
    }
}

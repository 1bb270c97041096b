//! Properties as data: deferred binding abstract syntax (*Programmable Property-Based Testing* §3.4, §4).
//!
//! A property is a chain of [`Forall`] and [`Implies`] nodes ending in a
//! [`Check`]. A `Forall` does not bind its variable with a closure; every use
//! site (a later annotation, an implication, the check) is a function of the
//! whole environment bound so far. The environment is a cons list, newest
//! variable first: after `forall x: A; forall y: B` it is `(B, (A, ()))`. So a
//! runner can walk the chain and generate, shrink, mutate and print each
//! variable without running any user code first.
//!
//! Runners see a property only through the [`Property`] trait.

mod annotations;
mod by_choices;
mod check;
mod deep_debug;
mod element_deletions;
mod forall;
mod implies;
mod node;
mod outcome;
mod prop;
mod target;

pub use annotations::{
    GenAnnotation, GenByType, GenData, GenStaged, GenWith, MutateAnnotation, MutateByGen,
    MutateByType, MutateWith, NoUtility, PrintAnnotation, PrintDebug, PrintWith, ShrinkAnnotation,
    ShrinkByChoices, ShrinkByType, ShrinkWith, UtilityAnnotation, UtilityWith,
};
pub use check::Check;
pub use forall::Forall;
pub use implies::Implies;
pub use node::{ConstructorView, Node};
pub use outcome::{IntoOutcome, Outcome};
pub use prop::Prop;
pub use target::Target;

use crate::choices::Choices;
use crate::constructors::Constructor;
use crate::shrink::Candidates;
use crate::source::Source;
use serde::{Deserialize, Serialize};

/// The public interface every runner is written against.
///
/// `Inputs` is one test case: a value for every variable (plus whatever the
/// property keeps to regenerate them). All operations keep dependent
/// annotations working: when a shrinker or mutator changes a variable, later
/// variables whose generators read it are regenerated from their own recorded
/// choices, so a check never sees an input its generators could not produce.
///
/// ```
/// use pbt_core::{Property, Rng, Outcome};
/// use pbt_core::property::{Prop, Forall, Check};
/// // forall x: u8; check x < 200   (written by hand; `property!` writes this for you)
/// let prop = Prop::new(Forall::new("x", "u8", Check::new(|&(x, ()): &(u8, ())| x < 200)));
/// let mut rng = Rng::from_seed(1);
/// let failing = (0..1000)
///     .filter_map(|_| prop.generate(&mut rng, 100).ok())
///     .find(|case| matches!(prop.run(case), Outcome::Fail(_)))
///     .unwrap();
/// assert!(prop.print(&failing)[0].value.parse::<u8>().unwrap() >= 200);
/// ```
pub trait Property {
    /// One test case. `'static`, so runners can move it around type-erased.
    type Inputs: Clone + 'static;

    /// The property's shape: variables, annotations, implications, origin.
    fn structure(&self) -> Structure;

    /// Generate a test case at `size`. Fails with [`Discarded`] when an
    /// implication that later variables depend on does not hold, or a
    /// generator rejected. Generating through a source whose
    /// [`Source::records`] is true keeps each variable's choices, which
    /// shrinking and mutation of generator-annotated variables use.
    fn generate<S: Source + ?Sized>(
        &self,
        src: &mut S,
        size: usize,
    ) -> Result<Self::Inputs, Discarded>;

    /// Evaluate the implications and the check on a test case. Panics are
    /// not caught here; runners catch them.
    fn run(&self, inputs: &Self::Inputs) -> Outcome;

    /// [`generate`](Property::generate) a test case at `size` and
    /// [`run`](Property::run) it, without keeping it: a runner's hot loop
    /// over fresh cases. `generated` is set once the case exists, so that
    /// a runner catching a panic knows whose it is (the generator's before,
    /// the check's after). The default does just that; [`Prop`] does it
    /// without assembling the [`Case`] it would hand back.
    ///
    /// ```
    /// use pbt_core::property::{Check, Forall, Prop};
    /// use pbt_core::{Outcome, Property, Rng};
    /// let prop = Prop::new(Forall::new("x", "u8", Check::new(|&(x, ()): &(u8, ())| x < 200)));
    /// let (mut a, mut b) = (Rng::from_seed(3), Rng::from_seed(3));
    /// let mut generated = false;
    /// let outcome = prop.generate_and_run(&mut a, 10, &mut generated);
    /// assert!(generated);
    /// assert_eq!(outcome, Ok(prop.run(&prop.generate(&mut b, 10).unwrap())));
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate_and_run<S: Source + ?Sized>(
        &self,
        src: &mut S,
        size: usize,
        generated: &mut bool,
    ) -> Result<Outcome, Discarded> {
        let inputs = self.generate(src, size)?;
        *generated = true;
        Ok(self.run(&inputs))
    }

    /// Candidates simpler than `inputs`, each one a test case the property's
    /// generators could produce. Earlier variables are shrunk first.
    fn shrink<'a>(&'a self, inputs: &'a Self::Inputs) -> Candidates<'a, Self::Inputs>;

    /// A test case near `inputs`: one variable (chosen by a draw) is mutated
    /// (by its `mutate` annotation, or regenerated), later dependent
    /// variables are regenerated. `None` when an implication no longer holds.
    fn mutate<S: Source + ?Sized>(
        &self,
        inputs: &Self::Inputs,
        src: &mut S,
        size: usize,
    ) -> Option<Self::Inputs>;

    /// `inputs` with the variable numbered `variable` (counting `forall`s
    /// from the outermost, 0 first) drawn afresh from `src` by its
    /// generator at `size`, the other variables held: an earlier one keeps its
    /// value, a later one keeps its value too unless its generator reads
    /// the variable, and then is regenerated from its own recorded choices
    /// (as after a shrink step). Its `mutate` annotation is not used: the
    /// value is a fresh one, not a neighbour. `None` when a precondition
    /// no longer holds or a later generator rejects, and for a property
    /// that cannot redraw one variable (the default). What a runner's
    /// explain phase asks: does the failure still happen whatever this
    /// variable is?
    ///
    /// ```
    /// use pbt_core::property::{Check, Forall, Prop};
    /// use pbt_core::{Property, Rng};
    /// // forall x: u8; forall y: u8; check x < 200
    /// let prop = Prop::new(Forall::new("x", "u8", Forall::new("y", "u8",
    ///     Check::new(|&(_y, (x, ())): &(u8, (u8, ()))| x < 200))));
    /// let case = prop.generate(&mut Rng::from_seed(1), 100).unwrap();
    /// let mut rng = Rng::from_seed(2);
    /// let redrawn: Vec<_> = (0..20).map(|_| prop.redraw(&case, 1, &mut rng, 100).unwrap()).collect();
    /// // `x` is held, `y` is drawn afresh.
    /// assert!(redrawn.iter().all(|r| r.env.1 .0 == case.env.1 .0));
    /// assert!(redrawn.iter().any(|r| r.env.0 != case.env.0));
    /// ```
    fn redraw(
        &self,
        inputs: &Self::Inputs,
        variable: usize,
        src: &mut dyn Source,
        size: usize,
    ) -> Option<Self::Inputs> {
        let _ = (inputs, variable, src, size);
        None
    }

    /// Each variable's name, type and printed value, in quantification order.
    fn print(&self, inputs: &Self::Inputs) -> Vec<Binding>;

    /// [`Property::print`], each value cut short after `limit` bytes with
    /// a marker that says so (see [`PrintAnnotation::print_within`]): how
    /// a report shows the input as first found, which may be long and is
    /// only read.
    ///
    /// ```
    /// use pbt_core::property::{Check, Forall, Prop, Property};
    /// use pbt_core::Rng;
    /// let prop = Prop::new(Forall::new("xs", "Vec<u8>", Check::new(|_: &(Vec<u8>, ())| true)));
    /// let inputs = prop.generate(&mut Rng::from_seed(1), 1000).unwrap();
    /// let shown = prop.print_within(&inputs, 8);
    /// assert!(shown[0].value.len() < prop.print(&inputs)[0].value.len());
    /// assert!(shown[0].value.contains("[cut: only the first 8 bytes are printed]"));
    /// ```
    fn print_within(&self, inputs: &Self::Inputs, limit: usize) -> Vec<Binding> {
        let mut printed = self.print(inputs);
        for binding in &mut printed {
            binding.value = annotations::cut_short(std::mem::take(&mut binding.value), limit);
        }
        printed
    }

    /// [`Property::print`] into `out`, reusing the strings of an earlier
    /// print of this property's inputs there (or pushing to an empty
    /// `out`): a shrinker that prints every step allocates for none once
    /// its buffer is large enough.
    ///
    /// ```
    /// use pbt_core::property::{Check, Forall, Prop, Property};
    /// use pbt_core::Rng;
    /// let prop = Prop::new(Forall::new("xs", "Vec<u8>", Check::new(|_: &(Vec<u8>, ())| true)));
    /// let (a, b) = (prop.generate(&mut Rng::from_seed(1), 50).unwrap(), prop.generate(&mut Rng::from_seed(2), 50).unwrap());
    /// let mut out = Vec::new();
    /// prop.print_into(&a, &mut out);
    /// assert_eq!(out, prop.print(&a));
    /// prop.print_into(&b, &mut out);
    /// assert_eq!(out, prop.print(&b));
    /// ```
    fn print_into(&self, inputs: &Self::Inputs, out: &mut Vec<Binding>) {
        *out = self.print(inputs);
    }

    /// Whether `inputs` print as `printed` ([`Property::print`] compared,
    /// up to the first difference and building no string, for the printers
    /// that can): a shrinker asks this to know whether a step shows.
    ///
    /// ```
    /// use pbt_core::property::{Check, Forall, Prop, Property};
    /// use pbt_core::Rng;
    /// let prop = Prop::new(Forall::new("x", "u8", Check::new(|_: &(u8, ())| true)));
    /// let (a, b) = (prop.generate(&mut Rng::from_seed(1), 9).unwrap(), prop.generate(&mut Rng::from_seed(2), 9).unwrap());
    /// assert!(prop.prints_as(&a, &prop.print(&a)));
    /// assert_eq!(prop.prints_as(&b, &prop.print(&a)), prop.print(&a) == prop.print(&b));
    /// ```
    fn prints_as(&self, inputs: &Self::Inputs, printed: &[Binding]) -> bool {
        self.print(inputs) == printed
    }

    /// The utility of the preconditions on this input (*Flexible and Automatic Targeted Property-Based Testing* §3): the
    /// minimum over implications that carry one; `None` when none does.
    fn utility(&self, inputs: &Self::Inputs) -> Option<f64>;

    /// The value a `#[target = …]` annotation computes from the inputs, for
    /// targeted search (the largest when there are several); `None` when the
    /// property has none.
    fn target(&self, inputs: &Self::Inputs) -> Option<f64> {
        let _ = inputs;
        None
    }

    /// Whether the check draws through a [`Data`](crate::Data) variable:
    /// then a test's choices are its generators' followed by the check's,
    /// which a runner takes with [`crate::data::capture`] around a run.
    /// `false` by default.
    fn draws_in_check(&self) -> bool {
        false
    }

    /// The constructors each variable with a constructor view (its type's
    /// [`crate::Constructors`], as `#[derive(Arbitrary)]` gives) is built
    /// from, with the variable's name: what the combinatorial runner counts
    /// (*Programmable Property-Based Testing* §2.5). Nothing when no variable has a view.
    fn constructors(&self, inputs: &Self::Inputs, out: &mut Vec<(&'static str, Constructor)>) {
        let _ = (inputs, out);
    }
}

/// Why a test case was not produced or not run to a verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Discarded {
    /// An `implies` did not hold.
    Precondition,
    /// A generator (`filter`, `ensure`) gave up.
    Rejected,
}

/// A variable of a printed counterexample.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Binding {
    /// The variable's name.
    pub name: &'static str,
    /// The variable's type, as written.
    pub ty: &'static str,
    /// The value, printed by the `print` annotation or `Debug`.
    pub value: String,
}

impl std::fmt::Display for Binding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} = {}", self.name, self.value)
    }
}

/// The structural view of a property, for runners that inspect before running.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Structure {
    /// The nodes from the outermost in.
    pub nodes: Vec<NodeView>,
    /// Where the property was written, when a macro recorded it.
    pub origin: Option<Origin>,
}

impl Structure {
    /// The quantified variables, in order.
    pub fn variables(&self) -> impl Iterator<Item = &NodeView> {
        self.nodes
            .iter()
            .filter(|n| matches!(n, NodeView::Forall { .. }))
    }

    /// Whether some variable is mutated by value (see
    /// [`NodeView::Forall`]'s `by_value`).
    pub fn mutates_by_value(&self) -> bool {
        self.nodes
            .iter()
            .any(|n| matches!(n, NodeView::Forall { by_value: true, .. }))
    }

    /// Whether any implication exists.
    pub fn has_preconditions(&self) -> bool {
        self.nodes
            .iter()
            .any(|n| matches!(n, NodeView::Implies { .. }))
    }
}

/// One node of a [`Structure`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum NodeView {
    /// `forall name: ty` with the annotations present.
    Forall {
        /// Variable name.
        name: &'static str,
        /// Type as written.
        ty: &'static str,
        /// A `gen` annotation is present (otherwise `Arbitrary`).
        gen: bool,
        /// A `shrink` annotation is present.
        shrink: bool,
        /// It shrinks through its generator's choices alone: a `gen`
        /// annotation without a `shrink` one, or a type-based variable
        /// whose value shrinker those choices subsume
        /// ([`Shrink::SUBSUMED_BY_CHOICES`](crate::Shrink::SUBSUMED_BY_CHOICES)).
        by_choices: bool,
        /// A `mutate` annotation is present.
        mutate: bool,
        /// It is mutated by value (a `mutate` annotation, or its type's
        /// `Mutate`), not by regenerating it.
        by_value: bool,
        /// It has a constructor view (its type's `Constructors`).
        constructors: bool,
        /// A `print` annotation is present (otherwise `Debug`).
        print: bool,
        /// Some annotation reads earlier variables.
        dependent: bool,
    },
    /// `implies …`, with whether a utility was derived for it.
    Implies {
        /// A utility is attached.
        utility: bool,
    },
    /// A `#[target = …]` value over the variables before it.
    Target,
    /// The final `check`.
    Check,
}

/// Where a property was written (recorded by the macros).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Origin {
    /// `file!()` of the property.
    pub file: &'static str,
    /// `line!()` of the property.
    pub line: u32,
    /// `module_path!()` of the property.
    pub module: &'static str,
    /// The test name, for `#[property]` functions.
    pub name: Option<&'static str>,
    /// `option_env!("CARGO_MANIFEST_DIR")` where the property was compiled:
    /// the directory of its package, so that its source file (and the
    /// regressions file beside it) is found whatever the working directory
    /// of the test binary.
    pub manifest_dir: Option<&'static str>,
}

/// A test case of a DBAS chain: the environment, plus per-variable choices
/// when it was generated through a recording source.
#[derive(Clone, Debug, PartialEq)]
pub struct Case<E> {
    /// The values, newest variable first: `(z, (y, (x, ())))`.
    pub env: E,
    /// The choices each variable's generator drew, by variable index (`None`
    /// when not recorded; the entries after the last variable with choices
    /// may be missing, which reads as `None`).
    pub choices: Vec<Option<Choices>>,
    /// The size the case was generated at (replayed choices use it again).
    pub size: usize,
}

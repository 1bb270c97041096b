//! [`Prop`]: a DBAS chain as a [`Property`].

use super::{Binding, Case, Discarded, Node, Origin, Outcome, Property, Structure};
use crate::constructors::Constructor;
use crate::shrink::Candidates;
use crate::source::Source;

/// A complete property: a chain of nodes over the empty environment, plus
/// where it was written. `property!` and `#[property]` build these.
pub struct Prop<N> {
    root: N,
    origin: Option<Origin>,
}

impl<N> Prop<N> {
    /// Wrap a chain of nodes.
    pub fn new(root: N) -> Self {
        Prop { root, origin: None }
    }

    /// Record where the property was written (used for the regressions file).
    pub fn with_origin(mut self, origin: Origin) -> Self {
        self.origin = Some(origin);
        self
    }
}

impl<N> Property for Prop<N>
where
    N: Node<()>,
    N::Env: Clone + 'static,
{
    type Inputs = Case<N::Env>;

    fn structure(&self) -> Structure {
        let mut nodes = Vec::new();
        self.root.views(&mut nodes);
        Structure {
            nodes,
            origin: self.origin,
        }
    }

    // Always inlined, like `run`: in a runner's loop the inputs then stay
    // in registers instead of being moved through the stack between the
    // two calls (a move the optimiser splits into overlapping loads that
    // stall on the stores before them).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate<S: Source + ?Sized>(
        &self,
        src: &mut S,
        size: usize,
    ) -> Result<Self::Inputs, Discarded> {
        let mut choices = Vec::new();
        let env = self.root.generate((), src, size, &mut choices)?;
        Ok(Case { env, choices, size })
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn run(&self, inputs: &Self::Inputs) -> Outcome {
        self.root.run(&inputs.env)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate_and_run<S: Source + ?Sized>(
        &self,
        src: &mut S,
        size: usize,
        generated: &mut bool,
    ) -> Result<Outcome, Discarded> {
        let mut choices = Vec::new();
        let env = self.root.generate((), src, size, &mut choices)?;
        *generated = true;
        Ok(self.root.run(&env))
    }

    fn shrink<'a>(&'a self, inputs: &'a Self::Inputs) -> Candidates<'a, Self::Inputs> {
        self.root.shrink(inputs, 0)
    }

    fn draws_in_check(&self) -> bool {
        N::DRAWS_IN_CHECK
    }

    fn mutate<S: Source + ?Sized>(
        &self,
        inputs: &Self::Inputs,
        src: &mut S,
        _size: usize,
    ) -> Option<Self::Inputs> {
        if N::VARS == 0 {
            return None;
        }
        let variable = src.draw(N::VARS as u64 - 1) as usize;
        self.root.mutate(inputs, variable, 0, src)
    }

    fn redraw(
        &self,
        inputs: &Self::Inputs,
        variable: usize,
        src: &mut dyn Source,
        size: usize,
    ) -> Option<Self::Inputs> {
        self.root.redraw(inputs, variable, 0, src, size)
    }

    fn print(&self, inputs: &Self::Inputs) -> Vec<Binding> {
        let mut out = Vec::with_capacity(N::VARS);
        self.root.print(&inputs.env, &mut out);
        out
    }

    fn print_within(&self, inputs: &Self::Inputs, limit: usize) -> Vec<Binding> {
        let mut out = Vec::with_capacity(N::VARS);
        self.root.print_within(&inputs.env, limit, &mut out);
        out
    }

    fn print_into(&self, inputs: &Self::Inputs, out: &mut Vec<Binding>) {
        self.root.print_into(&inputs.env, out, 0);
    }

    fn prints_as(&self, inputs: &Self::Inputs, printed: &[Binding]) -> bool {
        self.root.prints_as(&inputs.env, printed)
    }

    fn utility(&self, inputs: &Self::Inputs) -> Option<f64> {
        self.root.utility(&inputs.env)
    }

    fn target(&self, inputs: &Self::Inputs) -> Option<f64> {
        self.root.target(&inputs.env)
    }

    fn constructors(&self, inputs: &Self::Inputs, out: &mut Vec<(&'static str, Constructor)>) {
        self.root.constructors(&inputs.env, out);
    }
}

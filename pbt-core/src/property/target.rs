//! `#[target = f]`: the node that computes a value for targeted search.

use super::node::Node;
use super::{Binding, Case, Discarded, NodeView, Outcome};
use crate::choices::Choices;
use crate::constructors::Constructor;
use crate::shrink::Candidates;
use crate::source::Source;

/// `#[target = f]` on a variable: a value over the environment (that
/// variable included) for the targeted runner to maximise, computed from the
/// inputs alone (*Programmable Property-Based Testing* §2.4).
pub struct Target<F, Rest> {
    f: F,
    rest: Rest,
}

impl<F, Rest> Target<F, Rest> {
    /// `target f; rest`.
    pub fn new(f: F, rest: Rest) -> Self {
        Target { f, rest }
    }
}

impl<E, F, Rest> Node<E> for Target<F, Rest>
where
    F: Fn(&E) -> f64,
    Rest: Node<E>,
{
    type Env = Rest::Env;
    const VARS: usize = Rest::VARS;
    const KEEPS_CHOICES: bool = Rest::KEEPS_CHOICES;

    #[inline(always)]
    fn env_of(fin: &Self::Env) -> &E {
        Rest::env_of(fin)
    }

    fn views(&self, out: &mut Vec<NodeView>) {
        out.push(NodeView::Target);
        self.rest.views(out);
    }

    #[inline(always)]
    fn generate<S: Source + ?Sized>(
        &self,
        env: E,
        src: &mut S,
        size: usize,
        choices: &mut Vec<Option<Choices>>,
    ) -> Result<Self::Env, Discarded> {
        self.rest.generate(env, src, size, choices)
    }

    #[inline(always)]
    fn run(&self, fin: &Self::Env) -> Outcome {
        self.rest.run(fin)
    }

    fn rebuild(
        &self,
        env: E,
        old: &Case<Self::Env>,
        depth: usize,
        choices: &mut Vec<Option<Choices>>,
    ) -> Option<Self::Env> {
        self.rest.rebuild(env, old, depth, choices)
    }

    fn shrink<'a>(
        &'a self,
        case: &'a Case<Self::Env>,
        depth: usize,
    ) -> Candidates<'a, Case<Self::Env>> {
        self.rest.shrink(case, depth)
    }

    fn mutate<S: Source + ?Sized>(
        &self,
        case: &Case<Self::Env>,
        variable: usize,
        depth: usize,
        src: &mut S,
    ) -> Option<Case<Self::Env>> {
        self.rest.mutate(case, variable, depth, src)
    }

    fn print(&self, fin: &Self::Env, out: &mut Vec<Binding>) {
        self.rest.print(fin, out);
    }

    fn print_within(&self, fin: &Self::Env, limit: usize, out: &mut Vec<Binding>) {
        self.rest.print_within(fin, limit, out);
    }

    fn prints_as(&self, fin: &Self::Env, printed: &[Binding]) -> bool {
        self.rest.prints_as(fin, printed)
    }

    fn print_into(&self, fin: &Self::Env, out: &mut Vec<Binding>, at: usize) {
        self.rest.print_into(fin, out, at);
    }

    fn utility(&self, fin: &Self::Env) -> Option<f64> {
        self.rest.utility(fin)
    }

    fn target(&self, fin: &Self::Env) -> Option<f64> {
        let mine = (self.f)(Self::env_of(fin));
        Some(self.rest.target(fin).map_or(mine, |t| t.max(mine)))
    }

    fn constructors(&self, fin: &Self::Env, out: &mut Vec<(&'static str, Constructor)>) {
        self.rest.constructors(fin, out);
    }
}

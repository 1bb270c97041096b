//! `check f`: the node that ends every chain.

use super::node::Node;
use super::{Binding, Case, Discarded, IntoOutcome, NodeView, Outcome};
use crate::choices::Choices;
use crate::shrink::Candidates;
use crate::source::Source;

/// `check f`: the predicate over the whole environment.
pub struct Check<F> {
    f: F,
}

impl<F> Check<F> {
    /// `check f`, where `f` returns `bool`, `()`, `Result<(), E>` or an
    /// [`Outcome`]; a panic is a failure too (runners catch it).
    pub fn new(f: F) -> Self {
        Check { f }
    }
}

impl<E, F, R> Node<E> for Check<F>
where
    F: Fn(&E) -> R,
    R: IntoOutcome,
{
    type Env = E;
    const VARS: usize = 0;

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn env_of(fin: &E) -> &E {
        fin
    }

    fn views(&self, out: &mut Vec<NodeView>) {
        out.push(NodeView::Check);
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate<S: Source + ?Sized>(
        &self,
        env: E,
        _src: &mut S,
        _size: usize,
        _choices: &mut Vec<Option<Choices>>,
    ) -> Result<E, Discarded> {
        Ok(env)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn run(&self, fin: &E) -> Outcome {
        (self.f)(fin).into_outcome()
    }

    fn rebuild(
        &self,
        env: E,
        _old: &Case<E>,
        _depth: usize,
        _choices: &mut Vec<Option<Choices>>,
    ) -> Option<E> {
        Some(env)
    }

    fn shrink<'a>(&'a self, _case: &'a Case<E>, _depth: usize) -> Candidates<'a, Case<E>> {
        crate::shrink::boxed(std::iter::empty())
    }

    fn mutate<S: Source + ?Sized>(
        &self,
        _case: &Case<E>,
        _variable: usize,
        _depth: usize,
        _src: &mut S,
    ) -> Option<Case<E>> {
        None
    }

    fn print(&self, _fin: &E, _out: &mut Vec<Binding>) {}

    fn utility(&self, _fin: &E) -> Option<f64> {
        None
    }
    fn target(&self, _fin: &E) -> Option<f64> {
        None
    }
}

//! `implies pre`: the node that discards tests where a precondition fails.

use super::annotations::{NoUtility, UtilityAnnotation, UtilityWith};
use super::node::{forward_to_rest, Node};
use super::{Case, Discarded, NodeView, Outcome};
use crate::choices::Choices;
use crate::source::Source;

/// `implies pre`: tests where `pre` does not hold are discarded.
pub struct Implies<P, U, Rest> {
    pre: P,
    text: &'static str,
    utility: U,
    rest: Rest,
}

impl<P, Rest> Implies<P, NoUtility, Rest> {
    /// `implies pre; rest`.
    pub fn new(pre: P, rest: Rest) -> Self {
        Implies {
            pre,
            text: "",
            utility: NoUtility,
            rest,
        }
    }
}

impl<P, U, Rest> Implies<P, U, Rest> {
    /// The precondition as written, which a run that gives up on discards
    /// names (`property!` gives it).
    pub fn text(mut self, text: &'static str) -> Self {
        self.text = text;
        self
    }

    /// Record that the precondition rejected a test.
    #[cold]
    fn rejected(&self) {
        crate::rejection::note(crate::rejection::Rejection::Implies(self.text));
    }

    /// Attach a utility: a function of the environment that is `>= 0`
    /// exactly when `pre` holds.
    pub fn utility<F>(self, f: F) -> Implies<P, UtilityWith<F>, Rest> {
        Implies {
            pre: self.pre,
            text: self.text,
            utility: UtilityWith(f),
            rest: self.rest,
        }
    }
}

impl<E, P, U, Rest> Node<E> for Implies<P, U, Rest>
where
    P: Fn(&E) -> bool,
    U: UtilityAnnotation<E>,
    Rest: Node<E>,
{
    type Env = Rest::Env;
    const VARS: usize = Rest::VARS;
    const KEEPS_CHOICES: bool = Rest::KEEPS_CHOICES;
    const DRAWS_IN_CHECK: bool = Rest::DRAWS_IN_CHECK;

    forward_to_rest!(env_of shrink mutate redraw print target constructors);

    fn views(&self, out: &mut Vec<NodeView>) {
        out.push(NodeView::Implies {
            utility: U::PRESENT,
        });
        self.rest.views(out);
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate<S: Source + ?Sized>(
        &self,
        env: E,
        src: &mut S,
        size: usize,
        choices: &mut Vec<Option<Choices>>,
    ) -> Result<Self::Env, Discarded> {
        // Later generators may rely on the precondition; a trailing one is
        // left to `run`, which evaluates every implication anyway.
        if Rest::VARS > 0 && !(self.pre)(&env) {
            self.rejected();
            return Err(Discarded::Precondition);
        }
        self.rest.generate(env, src, size, choices)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn run(&self, fin: &Self::Env) -> Outcome {
        if (self.pre)(Self::env_of(fin)) {
            self.rest.run(fin)
        } else {
            self.rejected();
            Outcome::Discard
        }
    }

    fn rebuild(
        &self,
        env: E,
        old: &Case<Self::Env>,
        depth: usize,
        choices: &mut Vec<Option<Choices>>,
    ) -> Option<Self::Env> {
        if Rest::VARS > 0 && !(self.pre)(&env) {
            return None;
        }
        self.rest.rebuild(env, old, depth, choices)
    }

    fn utility(&self, fin: &Self::Env) -> Option<f64> {
        let mine = self.utility.utility(Self::env_of(fin));
        match (mine, self.rest.utility(fin)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

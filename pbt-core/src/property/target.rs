//! `#[target = f]`: the node that computes a value for targeted search.

use super::node::{forward_to_rest, Node};
use super::NodeView;

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
    const DRAWS_IN_CHECK: bool = Rest::DRAWS_IN_CHECK;

    forward_to_rest!(env_of generate run rebuild shrink mutate redraw print utility constructors);

    fn views(&self, out: &mut Vec<NodeView>) {
        out.push(NodeView::Target);
        self.rest.views(out);
    }

    fn target(&self, fin: &Self::Env) -> Option<f64> {
        let mine = (self.f)(Self::env_of(fin));
        Some(self.rest.target(fin).map_or(mine, |t| t.max(mine)))
    }
}

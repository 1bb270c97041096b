//! [`Node`]: the recursive interpretation of a property chain that every
//! operation of [`super::Property`] is built from, one impl per node type
//! ([`super::Forall`], [`super::Implies`], [`super::Target`],
//! [`super::Check`], each in a file of its own).

use super::{Binding, Case, Discarded, NodeView, Outcome};
use crate::choices::Choices;
use crate::constructors::Constructor;
use crate::shrink::Candidates;
use crate::source::Source;

/// A node of a property over the environment `E` bound above it.
///
/// `Env` is the final environment (all variables, newest first); every
/// prefix environment is a suffix of it, which [`Node::env_of`] projects.
/// `depth` is the index of the next variable to be bound.
pub trait Node<E> {
    /// The environment at the `Check`.
    type Env;
    /// How many `Forall`s this chain contains.
    const VARS: usize;
    /// Whether a variable from this node on keeps the choices its own
    /// generator (`#[gen]`) drew in a [`Case`]: when none does, a case
    /// keeps no entry for the variables before it either.
    const KEEPS_CHOICES: bool = false;
    /// Whether a variable from this node on draws in the check (a
    /// [`crate::Data`]).
    const DRAWS_IN_CHECK: bool = false;

    /// This node's own environment inside the final one.
    fn env_of(fin: &Self::Env) -> &E;
    /// Append this chain's structural view.
    fn views(&self, out: &mut Vec<NodeView>);
    /// Generate the rest of the environment from `env`, pushing each
    /// variable's choices when `src` records.
    fn generate<S: Source + ?Sized>(
        &self,
        env: E,
        src: &mut S,
        size: usize,
        choices: &mut Vec<Option<Choices>>,
    ) -> Result<Self::Env, Discarded>;
    /// Evaluate implications and the check.
    fn run(&self, fin: &Self::Env) -> Outcome;
    /// Re-derive this chain under a changed inner environment `env`: keep the
    /// values of `old`, replaying generators that read the environment.
    fn rebuild(
        &self,
        env: E,
        old: &Case<Self::Env>,
        depth: usize,
        choices: &mut Vec<Option<Choices>>,
    ) -> Option<Self::Env>;
    /// Shrink candidates, variable by variable from `depth` on.
    fn shrink<'a>(
        &'a self,
        case: &'a Case<Self::Env>,
        depth: usize,
    ) -> Candidates<'a, Case<Self::Env>>;
    /// Mutate the variable with index `variable` (at or after `depth`; the
    /// index counts `Forall`s from the outermost, 0 first).
    fn mutate<S: Source + ?Sized>(
        &self,
        case: &Case<Self::Env>,
        variable: usize,
        depth: usize,
        src: &mut S,
    ) -> Option<Case<Self::Env>>;
    /// Draw the variable with index `variable` (at or after `depth`)
    /// afresh from `src` at `size`, the others held (see
    /// [`super::Property::redraw`]). The default, for a node that binds
    /// no variable and has no rest to forward to, is `None`.
    fn redraw(
        &self,
        case: &Case<Self::Env>,
        variable: usize,
        depth: usize,
        src: &mut dyn Source,
        size: usize,
    ) -> Option<Case<Self::Env>> {
        let _ = (case, variable, depth, src, size);
        None
    }
    /// Print the variables from this node on.
    fn print(&self, fin: &Self::Env, out: &mut Vec<Binding>);
    /// [`Node::print`], each value cut short after `limit` bytes (see
    /// [`super::PrintAnnotation::print_within`]).
    fn print_within(&self, fin: &Self::Env, limit: usize, out: &mut Vec<Binding>) {
        let from = out.len();
        self.print(fin, out);
        for binding in &mut out[from..] {
            binding.value =
                super::annotations::cut_short(std::mem::take(&mut binding.value), limit);
        }
    }
    /// [`Node::print`] into `out` from index `at` on, reusing the strings
    /// of an earlier print of this chain's variables there (and dropping
    /// what follows them).
    fn print_into(&self, fin: &Self::Env, out: &mut Vec<Binding>, at: usize) {
        out.truncate(at);
        self.print(fin, out);
    }
    /// Whether the variables from this node on print as `printed` (each
    /// compared as [`super::PrintAnnotation::prints_as`] compares: up to the
    /// first difference, building no string).
    fn prints_as(&self, fin: &Self::Env, printed: &[Binding]) -> bool {
        let mut out = Vec::new();
        self.print(fin, &mut out);
        out == printed
    }
    /// The minimum utility of the implications from this node on.
    fn utility(&self, fin: &Self::Env) -> Option<f64>;
    /// The largest `#[target = …]` value from this node on.
    fn target(&self, fin: &Self::Env) -> Option<f64>;
    /// Push the constructors of each variable from this node on that has a
    /// constructor view, with the variable's name.
    fn constructors(&self, fin: &Self::Env, out: &mut Vec<(&'static str, Constructor)>) {
        let _ = (fin, out);
    }
}

/// The methods of [`Node`] that a node hands unchanged to the next one,
/// its field `rest`, written once (as serde's `forward_to_deserialize_any!`):
/// `Implies` and `Target` bind no variable, so most of their methods only
/// forward, and `Forall` forwards what concerns no variable (`run`,
/// `utility`, `target`).
///
/// Invoked inside `impl<E, …, Rest: Node<E>> Node<E> for …` with the
/// names of the methods to forward (`forward_to_rest!(shrink mutate);`);
/// `E` and `Rest` are the impl's own parameters.
macro_rules! forward_to_rest {
    ($($method:ident)*) => {
        $($crate::property::node::forward_to_rest!(@ $method);)*
    };
    (@ env_of) => {
        #[inline(always)]
        fn env_of(fin: &Self::Env) -> &E {
            Rest::env_of(fin)
        }
    };
    (@ generate) => {
        #[inline(always)]
        fn generate<S: $crate::source::Source + ?Sized>(
            &self,
            env: E,
            src: &mut S,
            size: usize,
            choices: &mut Vec<Option<$crate::choices::Choices>>,
        ) -> Result<Self::Env, $crate::property::Discarded> {
            self.rest.generate(env, src, size, choices)
        }
    };
    (@ run) => {
        #[inline(always)]
        fn run(&self, fin: &Self::Env) -> $crate::property::Outcome {
            self.rest.run(fin)
        }
    };
    (@ rebuild) => {
        fn rebuild(
            &self,
            env: E,
            old: &$crate::property::Case<Self::Env>,
            depth: usize,
            choices: &mut Vec<Option<$crate::choices::Choices>>,
        ) -> Option<Self::Env> {
            self.rest.rebuild(env, old, depth, choices)
        }
    };
    (@ shrink) => {
        fn shrink<'a>(
            &'a self,
            case: &'a $crate::property::Case<Self::Env>,
            depth: usize,
        ) -> $crate::shrink::Candidates<'a, $crate::property::Case<Self::Env>> {
            self.rest.shrink(case, depth)
        }
    };
    (@ mutate) => {
        fn mutate<S: $crate::source::Source + ?Sized>(
            &self,
            case: &$crate::property::Case<Self::Env>,
            variable: usize,
            depth: usize,
            src: &mut S,
        ) -> Option<$crate::property::Case<Self::Env>> {
            self.rest.mutate(case, variable, depth, src)
        }
    };
    (@ redraw) => {
        fn redraw(
            &self,
            case: &$crate::property::Case<Self::Env>,
            variable: usize,
            depth: usize,
            src: &mut dyn $crate::source::Source,
            size: usize,
        ) -> Option<$crate::property::Case<Self::Env>> {
            self.rest.redraw(case, variable, depth, src, size)
        }
    };
    // The four ways to print, together: a node forwards all or none.
    (@ print) => {
        fn print(&self, fin: &Self::Env, out: &mut Vec<$crate::property::Binding>) {
            self.rest.print(fin, out);
        }

        fn print_within(
            &self,
            fin: &Self::Env,
            limit: usize,
            out: &mut Vec<$crate::property::Binding>,
        ) {
            self.rest.print_within(fin, limit, out);
        }

        fn prints_as(&self, fin: &Self::Env, printed: &[$crate::property::Binding]) -> bool {
            self.rest.prints_as(fin, printed)
        }

        fn print_into(&self, fin: &Self::Env, out: &mut Vec<$crate::property::Binding>, at: usize) {
            self.rest.print_into(fin, out, at);
        }
    };
    (@ utility) => {
        fn utility(&self, fin: &Self::Env) -> Option<f64> {
            self.rest.utility(fin)
        }
    };
    (@ target) => {
        fn target(&self, fin: &Self::Env) -> Option<f64> {
            self.rest.target(fin)
        }
    };
    (@ constructors) => {
        fn constructors(
            &self,
            fin: &Self::Env,
            out: &mut Vec<(&'static str, $crate::constructors::Constructor)>,
        ) {
            self.rest.constructors(fin, out);
        }
    };
}
pub(crate) use forward_to_rest;

/// A variable's constructor view: its type's
/// [`crate::constructors::Constructors`] impl, when it has one.
pub type ConstructorView<T> = fn(&T, &mut Vec<Constructor>);

/// Run user code that may panic (a generator replaying edited choices, a
/// printer): `None` when it panicked. A shrink candidate whose regeneration
/// panics is skipped, not fatal.
pub(super) fn guarded<R>(f: impl FnOnce() -> R) -> Option<R> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok()
}

/// The message of a panic payload.
pub(super) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with a non-string payload".to_string())
}

/// The choices recorded for variables `0..depth` of `case`.
pub(super) fn prefix_choices<E>(case: &Case<E>, depth: usize) -> Vec<Option<Choices>> {
    (0..depth)
        .map(|i| case.choices.get(i).cloned().flatten())
        .collect()
}

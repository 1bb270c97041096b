//! The DBAS node types — `Forall`, `Implies`, `Check` — and [`Node`], the
//! recursive interpretation a runner's operations are built from.

use super::annotations::{
    GenAnnotation, GenByType, GenStaged, GenWith, MutateAnnotation, MutateByGen, MutateWith,
    PrintAnnotation, PrintDebug, PrintWith, ShrinkAnnotation, ShrinkByChoices, ShrinkByType,
    ShrinkWith,
};
use super::{Binding, Case, Discarded, IntoOutcome, NodeView, Outcome};
use crate::choices::{shortlex_lt, simplifications, Choices, Recorder, Replay};
use crate::constructors::Constructor;
use crate::shrink::Candidates;
use crate::source::Source;
use std::marker::PhantomData;

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
    /// Mutate variable `target` (an index at or after `depth`).
    fn mutate<S: Source + ?Sized>(
        &self,
        case: &Case<Self::Env>,
        target: usize,
        depth: usize,
        src: &mut S,
    ) -> Option<Case<Self::Env>>;
    /// Print the variables from this node on.
    fn print(&self, fin: &Self::Env, out: &mut Vec<Binding>);
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

/// A variable's constructor view: its type's
/// [`crate::constructors::Constructors`] impl, when it has one.
pub type ConstructorView<T> = fn(&T, &mut Vec<Constructor>);

/// Run user code that may panic (a generator replaying edited choices, a
/// printer): `None` when it panicked. A shrink candidate whose regeneration
/// panics is skipped, not fatal.
fn guarded<R>(f: impl FnOnce() -> R) -> Option<R> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok()
}

/// The message of a panic payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with a non-string payload".to_string())
}

/// The choices recorded for variables `0..depth` of `case`.
fn prefix_choices<E>(case: &Case<E>, depth: usize) -> Vec<Option<Choices>> {
    (0..depth)
        .map(|i| case.choices.get(i).cloned().flatten())
        .collect()
}

/// `forall name: T`, with annotations, over the environment `E`.
pub struct Forall<E, T, G, Sh, Pr, Mu, Rest> {
    name: &'static str,
    ty: &'static str,
    reads_env: bool,
    view: Option<ConstructorView<T>>,
    gen: G,
    shrink: Sh,
    print: Pr,
    mutate: Mu,
    rest: Rest,
    _types: PhantomData<fn(&E) -> T>,
}

impl<E, T, Rest> Forall<E, T, GenByType, ShrinkByType, PrintDebug, MutateByGen, Rest> {
    /// `forall name: ty` with the type-based defaults; `rest` is the property
    /// over the environment extended with this variable.
    pub fn new(name: &'static str, ty: &'static str, rest: Rest) -> Self {
        Forall {
            name,
            ty,
            reads_env: true,
            view: None,
            gen: GenByType,
            shrink: ShrinkByType,
            print: PrintDebug,
            mutate: MutateByGen,
            rest,
            _types: PhantomData,
        }
    }
}

impl<E, T, G, Sh, Pr, Mu, Rest> Forall<E, T, G, Sh, Pr, Mu, Rest> {
    /// `#[gen = f(env)]`: generate with `f`. Unless a shrinker is given too,
    /// the variable is then shrunk through its generator's choices.
    pub fn gen<F>(self, f: F) -> Forall<E, T, GenWith<F>, ShrinkByChoices, Pr, Mu, Rest> {
        Forall {
            name: self.name,
            ty: self.ty,
            reads_env: self.reads_env,
            view: self.view,
            gen: GenWith(f),
            shrink: ShrinkByChoices,
            print: self.print,
            mutate: self.mutate,
            rest: self.rest,
            _types: PhantomData,
        }
    }

    /// `#[gen = DSL]` staged by the macro: `fast` and `slow` are the same
    /// generator code over [`crate::Rng`] and over `dyn Source`. Shrinks
    /// through the generator's choices unless a shrinker is given too.
    pub fn gen_staged<F, D>(
        self,
        fast: F,
        slow: D,
    ) -> Forall<E, T, GenStaged<F, D>, ShrinkByChoices, Pr, Mu, Rest> {
        Forall {
            name: self.name,
            ty: self.ty,
            reads_env: self.reads_env,
            view: self.view,
            gen: GenStaged { fast, slow },
            shrink: ShrinkByChoices,
            print: self.print,
            mutate: self.mutate,
            rest: self.rest,
            _types: PhantomData,
        }
    }

    /// `#[shrink = f(env)]`: shrink with `f(env)(&value)`.
    pub fn shrink<F>(self, f: F) -> Forall<E, T, G, ShrinkWith<F>, Pr, Mu, Rest> {
        Forall {
            name: self.name,
            ty: self.ty,
            reads_env: self.reads_env,
            view: self.view,
            gen: self.gen,
            shrink: ShrinkWith(f),
            print: self.print,
            mutate: self.mutate,
            rest: self.rest,
            _types: PhantomData,
        }
    }

    /// `#[print = f(env)]`: print with `f(env)(&value)`.
    pub fn print<F>(self, f: F) -> Forall<E, T, G, Sh, PrintWith<F>, Mu, Rest> {
        Forall {
            name: self.name,
            ty: self.ty,
            reads_env: self.reads_env,
            view: self.view,
            gen: self.gen,
            shrink: self.shrink,
            print: PrintWith(f),
            mutate: self.mutate,
            rest: self.rest,
            _types: PhantomData,
        }
    }

    /// `#[mutate = f(env)]`: mutate with `f(env)(&value, source, size)`.
    pub fn mutate<F>(self, f: F) -> Forall<E, T, G, Sh, Pr, MutateWith<F>, Rest> {
        self.mutate_by(MutateWith(f))
    }

    /// Mutate with `mutator`: [`super::MutateByType`], [`MutateByGen`], or
    /// a [`super::MutateAnnotation`] of your own.
    pub fn mutate_by<M>(self, mutator: M) -> Forall<E, T, G, Sh, Pr, M, Rest> {
        Forall {
            name: self.name,
            ty: self.ty,
            reads_env: self.reads_env,
            view: self.view,
            gen: self.gen,
            shrink: self.shrink,
            print: self.print,
            mutate: mutator,
            rest: self.rest,
            _types: PhantomData,
        }
    }

    /// Give the variable a constructor view (for the combinatorial runner;
    /// the macros pass the type's `Constructors` impl when it has one).
    pub fn constructors_by(mut self, view: Option<ConstructorView<T>>) -> Self {
        self.view = view;
        self
    }

    /// Declare whether the generator reads earlier variables (default: it
    /// may). A generator that does not is never regenerated when an earlier
    /// variable changes.
    pub fn reads_env(mut self, reads: bool) -> Self {
        self.reads_env = reads;
        self
    }
}

impl<E, T, G, Sh, Pr, Mu, Rest> Forall<E, T, G, Sh, Pr, Mu, Rest>
where
    E: Clone,
    T: Clone,
    G: GenAnnotation<E, T>,
    Rest: Node<(T, E)>,
{
    /// The candidate case with this variable set to `value` (and `choices`),
    /// later variables re-derived.
    fn with_value(
        &self,
        case: &Case<Rest::Env>,
        depth: usize,
        env: &E,
        value: T,
        choices: Option<Choices>,
    ) -> Option<Case<Rest::Env>> {
        let mut all = prefix_choices(case, depth);
        all.push(choices);
        let fin = self
            .rest
            .rebuild((value, env.clone()), case, depth + 1, &mut all)?;
        Some(Case {
            env: fin,
            choices: all,
            size: case.size,
        })
    }
}

impl<E, T, G, Sh, Pr, Mu, Rest> Node<E> for Forall<E, T, G, Sh, Pr, Mu, Rest>
where
    E: Clone + 'static,
    T: Clone + 'static,
    G: GenAnnotation<E, T>,
    Sh: ShrinkAnnotation<E, T>,
    Pr: PrintAnnotation<E, T>,
    Mu: MutateAnnotation<E, T>,
    Rest: Node<(T, E)>,
{
    type Env = Rest::Env;
    const VARS: usize = 1 + Rest::VARS;

    #[inline(always)]
    fn env_of(fin: &Self::Env) -> &E {
        &Rest::env_of(fin).1
    }

    fn views(&self, out: &mut Vec<NodeView>) {
        out.push(NodeView::Forall {
            name: self.name,
            ty: self.ty,
            gen: G::CUSTOM,
            shrink: Sh::CUSTOM,
            mutate: Mu::CUSTOM,
            by_value: Mu::BY_VALUE,
            constructors: self.view.is_some(),
            print: Pr::CUSTOM,
            dependent: G::CUSTOM && self.reads_env,
        });
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
        let value = if src.records() {
            if G::CUSTOM {
                let mut rec = Recorder::new(&mut *src);
                let v = self.gen.generate(&env, &mut rec, size);
                choices.push(Some(rec.into_choices()));
                v
            } else {
                choices.push(None);
                self.gen.generate(&env, src, size)
            }
        } else {
            self.gen.generate(&env, src, size)
        };
        let value = value.map_err(|_| Discarded::Rejected)?;
        self.rest.generate((value, env), src, size, choices)
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
        let old_value = &Rest::env_of(&old.env).0;
        let old_choices = old.choices.get(depth).cloned().flatten();
        let (value, used) = if G::CUSTOM && self.reads_env {
            let recorded = old_choices.unwrap_or_default();
            let mut replay = Replay::new(&recorded);
            let v = guarded(|| self.gen.generate(&env, &mut replay, old.size))?.ok()?;
            (v, Some(replay.into_used()))
        } else {
            (old_value.clone(), old_choices)
        };
        choices.push(used);
        self.rest.rebuild((value, env), old, depth + 1, choices)
    }

    fn shrink<'a>(
        &'a self,
        case: &'a Case<Self::Env>,
        depth: usize,
    ) -> Candidates<'a, Case<Self::Env>> {
        let (value, env) = Rest::env_of(&case.env);
        let own: Candidates<'a, (T, Option<Choices>)> = match self.shrink.candidates(env, value) {
            Some(values) => Box::new(values.map(|v| (v, None))),
            None => {
                let recorded: &'a [u64] = case
                    .choices
                    .get(depth)
                    .and_then(|c| c.as_deref())
                    .unwrap_or(&[]);
                // Only progress that shows: smaller choices that generate a
                // value printed the same (bits the generator ignores) are no
                // step, or the shrinker would burn its step limit on them.
                // A printer that panics compares as different.
                let shown = |v: &T| {
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        self.print.print(env, v)
                    }))
                    .ok()
                };
                let current = shown(value);
                Box::new(simplifications(recorded).filter_map(move |c| {
                    let mut replay = Replay::new(&c);
                    let v = guarded(|| self.gen.generate(env, &mut replay, case.size))?.ok()?;
                    let used = replay.into_used();
                    // A deletion the replay pads back deleted nothing: with
                    // the choice it lowered it is a one-step nudge, which
                    // would crowd out the binary searches of later passes.
                    let padded = c.len() < recorded.len() && used.len() >= recorded.len();
                    let same = current.is_some() && shown(&v) == current;
                    (shortlex_lt(&used, recorded) && !same && !padded).then_some((v, Some(used)))
                }))
            }
        };
        let mine = own.filter_map(move |(v, c)| self.with_value(case, depth, env, v, c));
        Box::new(mine.chain(self.rest.shrink(case, depth + 1)))
    }

    fn mutate<S: Source + ?Sized>(
        &self,
        case: &Case<Self::Env>,
        target: usize,
        depth: usize,
        src: &mut S,
    ) -> Option<Case<Self::Env>> {
        if depth < target {
            return self.rest.mutate(case, target, depth + 1, src);
        }
        let (value, env) = Rest::env_of(&case.env);
        let mut dyn_src = &mut *src;
        if let Some(v) = self.mutate.mutate(env, value, &mut dyn_src, case.size) {
            return self.with_value(case, depth, env, v, None);
        }
        let mut rec = Recorder::new(&mut *src);
        let v = self.gen.generate(env, &mut rec, case.size).ok()?;
        let used = G::CUSTOM.then(|| rec.into_choices());
        self.with_value(case, depth, env, v, used)
    }

    fn print(&self, fin: &Self::Env, out: &mut Vec<Binding>) {
        let (value, env) = Rest::env_of(fin);
        // A printer or `Debug` that panics prints a placeholder: the rest of
        // the counterexample is still shown.
        let printed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.print.print(env, value)
        }));
        let value = printed.unwrap_or_else(|payload| {
            let which = if Pr::CUSTOM { "#[print]" } else { "Debug" };
            format!("<{which} panicked: {}>", panic_message(&*payload))
        });
        out.push(Binding {
            name: self.name,
            ty: self.ty,
            value,
        });
        self.rest.print(fin, out);
    }

    fn utility(&self, fin: &Self::Env) -> Option<f64> {
        self.rest.utility(fin)
    }

    fn target(&self, fin: &Self::Env) -> Option<f64> {
        self.rest.target(fin)
    }

    fn constructors(&self, fin: &Self::Env, out: &mut Vec<(&'static str, Constructor)>) {
        if let Some(view) = self.view {
            let mut mine = Vec::new();
            view(&Rest::env_of(fin).0, &mut mine);
            out.extend(mine.into_iter().map(|c| (self.name, c)));
        }
        self.rest.constructors(fin, out);
    }
}

/// The utility of a precondition, if one is attached (*Flexible and Automatic Targeted Property-Based Testing* §3).
pub trait UtilityAnnotation<E> {
    /// Whether a utility is attached.
    const PRESENT: bool;
    /// The utility on `env`: `>= 0` exactly when the precondition holds.
    fn utility(&self, env: &E) -> Option<f64>;
}

/// No utility attached.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoUtility;

impl<E> UtilityAnnotation<E> for NoUtility {
    const PRESENT: bool = false;
    fn utility(&self, _env: &E) -> Option<f64> {
        None
    }
}

/// The utility `f(env)`.
#[derive(Clone, Copy, Debug)]
pub struct UtilityWith<F>(pub F);

impl<E, F: Fn(&E) -> f64> UtilityAnnotation<E> for UtilityWith<F> {
    const PRESENT: bool = true;
    fn utility(&self, env: &E) -> Option<f64> {
        Some((self.0)(env))
    }
}

/// `implies pre`: tests where `pre` does not hold are discarded.
pub struct Implies<P, U, Rest> {
    pre: P,
    utility: U,
    rest: Rest,
}

impl<P, Rest> Implies<P, NoUtility, Rest> {
    /// `implies pre; rest`.
    pub fn new(pre: P, rest: Rest) -> Self {
        Implies {
            pre,
            utility: NoUtility,
            rest,
        }
    }

    /// Attach a utility: a function of the environment that is `>= 0`
    /// exactly when `pre` holds.
    pub fn utility<F>(self, f: F) -> Implies<P, UtilityWith<F>, Rest> {
        Implies {
            pre: self.pre,
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

    #[inline(always)]
    fn env_of(fin: &Self::Env) -> &E {
        Rest::env_of(fin)
    }

    fn views(&self, out: &mut Vec<NodeView>) {
        out.push(NodeView::Implies {
            utility: U::PRESENT,
        });
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
        // Later generators may rely on the precondition; a trailing one is
        // left to `run`, which evaluates every implication anyway.
        if Rest::VARS > 0 && !(self.pre)(&env) {
            return Err(Discarded::Precondition);
        }
        self.rest.generate(env, src, size, choices)
    }

    #[inline(always)]
    fn run(&self, fin: &Self::Env) -> Outcome {
        if (self.pre)(Self::env_of(fin)) {
            self.rest.run(fin)
        } else {
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
        target: usize,
        depth: usize,
        src: &mut S,
    ) -> Option<Case<Self::Env>> {
        self.rest.mutate(case, target, depth, src)
    }

    fn print(&self, fin: &Self::Env, out: &mut Vec<Binding>) {
        self.rest.print(fin, out);
    }

    fn utility(&self, fin: &Self::Env) -> Option<f64> {
        let mine = self.utility.utility(Self::env_of(fin));
        match (mine, self.rest.utility(fin)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
    fn target(&self, fin: &Self::Env) -> Option<f64> {
        self.rest.target(fin)
    }
    fn constructors(&self, fin: &Self::Env, out: &mut Vec<(&'static str, Constructor)>) {
        self.rest.constructors(fin, out);
    }
}

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

    #[inline(always)]
    fn env_of(fin: &E) -> &E {
        fin
    }

    fn views(&self, out: &mut Vec<NodeView>) {
        out.push(NodeView::Check);
    }

    #[inline(always)]
    fn generate<S: Source + ?Sized>(
        &self,
        env: E,
        _src: &mut S,
        _size: usize,
        _choices: &mut Vec<Option<Choices>>,
    ) -> Result<E, Discarded> {
        Ok(env)
    }

    #[inline(always)]
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
        Box::new(std::iter::empty())
    }

    fn mutate<S: Source + ?Sized>(
        &self,
        _case: &Case<E>,
        _target: usize,
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
        target: usize,
        depth: usize,
        src: &mut S,
    ) -> Option<Case<Self::Env>> {
        self.rest.mutate(case, target, depth, src)
    }

    fn print(&self, fin: &Self::Env, out: &mut Vec<Binding>) {
        self.rest.print(fin, out);
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

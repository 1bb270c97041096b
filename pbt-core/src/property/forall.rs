//! `forall name: T`: the node that binds a variable, with its annotations.

use super::annotations::{
    GenAnnotation, GenByType, GenStaged, GenWith, MutateAnnotation, MutateByGen, MutateWith,
    PrintAnnotation, PrintDebug, PrintWith, ShrinkAnnotation, ShrinkByChoices, ShrinkByType,
    ShrinkWith,
};
use super::by_choices::ByChoices;
use super::node::{forward_to_rest, guarded, panic_message, prefix_choices, ConstructorView, Node};
use super::{Binding, Case, Discarded, NodeView};
use crate::choices::{Choices, Recorder, Replay};
use crate::constructors::Constructor;
use crate::shrink::Candidates;
use crate::source::Source;
use std::marker::PhantomData;

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

/// A variable's four annotations, taken apart and put back together by
/// [`Forall`]'s one annotation builder.
struct Annotations<G, Sh, Pr, Mu> {
    gen: G,
    shrink: Sh,
    print: Pr,
    mutate: Mu,
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
        self.annotate(|Annotations { print, mutate, .. }| Annotations {
            gen: GenWith(f),
            shrink: ShrinkByChoices,
            print,
            mutate,
        })
    }

    /// `#[gen = DSL]` staged by the macro: `fast` and `slow` are the same
    /// generator code over [`crate::Rng`] and over `dyn Source`. Shrinks
    /// through the generator's choices unless a shrinker is given too.
    pub fn gen_staged<F, D>(
        self,
        fast: F,
        slow: D,
    ) -> Forall<E, T, GenStaged<F, D>, ShrinkByChoices, Pr, Mu, Rest> {
        self.annotate(|Annotations { print, mutate, .. }| Annotations {
            gen: GenStaged { fast, slow },
            shrink: ShrinkByChoices,
            print,
            mutate,
        })
    }

    /// `#[shrink = f(env)]`: shrink with `f(env)(&value)`.
    pub fn shrink<F>(self, f: F) -> Forall<E, T, G, ShrinkWith<F>, Pr, Mu, Rest> {
        self.shrink_by(ShrinkWith(f))
    }

    /// `#[print = f(env)]`: print with `f(env)(&value)`.
    pub fn print<F>(self, f: F) -> Forall<E, T, G, Sh, PrintWith<F>, Mu, Rest> {
        self.print_by(PrintWith(f))
    }

    /// `#[mutate = f(env)]`: mutate with `f(env)(&value, source, size)`.
    pub fn mutate<F>(self, f: F) -> Forall<E, T, G, Sh, Pr, MutateWith<F>, Rest> {
        self.mutate_by(MutateWith(f))
    }

    /// Mutate with `mutator`: [`super::MutateByType`], [`MutateByGen`], or
    /// a [`super::MutateAnnotation`] of your own.
    pub fn mutate_by<M>(self, mutator: M) -> Forall<E, T, G, Sh, Pr, M, Rest> {
        self.annotate(
            |Annotations {
                 gen, shrink, print, ..
             }| Annotations {
                gen,
                shrink,
                print,
                mutate: mutator,
            },
        )
    }

    /// Generate with `generator`: [`GenByType`], or a
    /// [`super::GenAnnotation`] of your own. Unlike [`gen`](Self::gen), the
    /// shrinker is kept.
    pub fn gen_by<G2>(self, generator: G2) -> Forall<E, T, G2, Sh, Pr, Mu, Rest> {
        self.annotate(
            |Annotations {
                 shrink,
                 print,
                 mutate,
                 ..
             }| Annotations {
                gen: generator,
                shrink,
                print,
                mutate,
            },
        )
    }

    /// Shrink with `shrinker`: [`super::ShrinkByType`], [`ShrinkByChoices`],
    /// or a [`super::ShrinkAnnotation`] of your own.
    pub fn shrink_by<Sh2>(self, shrinker: Sh2) -> Forall<E, T, G, Sh2, Pr, Mu, Rest> {
        self.annotate(
            |Annotations {
                 gen, print, mutate, ..
             }| Annotations {
                gen,
                shrink: shrinker,
                print,
                mutate,
            },
        )
    }

    /// Print with `printer`: [`super::PrintDebug`], or a
    /// [`super::PrintAnnotation`] of your own.
    pub fn print_by<Pr2>(self, printer: Pr2) -> Forall<E, T, G, Sh, Pr2, Mu, Rest> {
        self.annotate(
            |Annotations {
                 gen,
                 shrink,
                 mutate,
                 ..
             }| Annotations {
                gen,
                shrink,
                print: printer,
                mutate,
            },
        )
    }

    /// The one annotation builder the ones above share: this variable with
    /// its annotations replaced by what `f` makes of them (name, type,
    /// constructor view and the rest of the chain kept).
    fn annotate<G2, Sh2, Pr2, Mu2>(
        self,
        f: impl FnOnce(Annotations<G, Sh, Pr, Mu>) -> Annotations<G2, Sh2, Pr2, Mu2>,
    ) -> Forall<E, T, G2, Sh2, Pr2, Mu2, Rest> {
        let Forall {
            name,
            ty,
            reads_env,
            view,
            gen,
            shrink,
            print,
            mutate,
            rest,
            _types,
        } = self;
        let Annotations {
            gen,
            shrink,
            print,
            mutate,
        } = f(Annotations {
            gen,
            shrink,
            print,
            mutate,
        });
        Forall {
            name,
            ty,
            reads_env,
            view,
            gen,
            shrink,
            print,
            mutate,
            rest,
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
        // A case reads a missing entry as `None`: with no choices so far,
        // none is kept (a property of type-based variables allocates no
        // list per candidate); a later variable's choices pad it.
        let kept = case.choices.iter().take(depth).any(Option::is_some);
        let mut all = match kept {
            true => prefix_choices(case, depth),
            false => Vec::new(),
        };
        keep_choices(&mut all, depth, choices);
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

/// Keep the choices `used` of the variable at `depth` in `all`, which
/// holds those of the variables before it, up to the last that has some (a
/// case reads a missing entry as `None`).
fn keep_choices(all: &mut Vec<Option<Choices>>, depth: usize, used: Option<Choices>) {
    if let Some(used) = used {
        all.resize(depth, None);
        all.push(Some(used));
    }
}

impl<E, T, G, Sh, Pr: PrintAnnotation<E, T>, Mu, Rest> Forall<E, T, G, Sh, Pr, Mu, Rest> {
    /// What is printed for a value whose printer (or `Debug`) panicked.
    fn placeholder(payload: &(dyn std::any::Any + Send)) -> String {
        let which = if Pr::CUSTOM { "#[print]" } else { "Debug" };
        format!("<{which} panicked: {}>", panic_message(payload))
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
    const KEEPS_CHOICES: bool = G::CUSTOM || Rest::KEEPS_CHOICES;
    const DRAWS_IN_CHECK: bool = G::DRAWS_IN_CHECK || Rest::DRAWS_IN_CHECK;

    forward_to_rest!(utility target);

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn run(&self, fin: &Self::Env) -> super::Outcome {
        if G::DRAWS_IN_CHECK {
            // Each run draws from the start again; the guard ends the run
            // even when the check panics.
            let _run = self.gen.begin_run(&Rest::env_of(fin).0);
            return self.rest.run(fin);
        }
        self.rest.run(fin)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn env_of(fin: &Self::Env) -> &E {
        &Rest::env_of(fin).1
    }

    fn views(&self, out: &mut Vec<NodeView>) {
        out.push(NodeView::Forall {
            name: self.name,
            ty: self.ty,
            gen: G::CUSTOM,
            shrink: Sh::CUSTOM,
            by_choices: Sh::SUBSUMED_BY_CHOICES,
            mutate: Mu::CUSTOM,
            by_value: Mu::BY_VALUE,
            constructors: self.view.is_some(),
            print: Pr::CUSTOM,
            dependent: G::CUSTOM && self.reads_env,
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
        let value = if src.records() {
            if G::CUSTOM {
                // The variable's choices: a slice of those the source keeps
                // (a replay does), else recorded as they are drawn.
                if let Some(from) = src.handed_out().map(<[u64]>::len) {
                    let v = self.gen.generate(&env, src, size);
                    let own = src.handed_out().and_then(|all| all.get(from..));
                    let own = own.unwrap_or_default();
                    choices.push(Some(own.to_vec()));
                    v
                } else {
                    // Drawn through `dyn Source`: the generator is then
                    // compiled for the sources a property already has, not
                    // once more for `Recorder` (compile time, `docs/benchmarks.md`).
                    let mut rec = Recorder::new(&mut *src);
                    let v = self.gen.generate(&env, &mut rec as &mut dyn Source, size);
                    choices.push(Some(rec.into_choices()));
                    v
                }
            } else {
                // An entry only when a later variable's choices follow (a
                // case reads a missing one as `None`): a property of
                // type-based variables allocates no list for them.
                if Rest::KEEPS_CHOICES {
                    choices.push(None);
                }
                self.gen.generate(&env, src, size)
            }
        } else {
            self.gen.generate(&env, src, size)
        };
        let value = value.map_err(|_| Discarded::Rejected)?;
        if G::DRAWS_IN_CHECK {
            assert!(
                !Rest::DRAWS_IN_CHECK,
                "pbt: a property draws in its check through one `Data`; this one has two"
            );
            // The check's draws continue the source once every variable,
            // this one's later ones too, is generated.
            let fin = self.rest.generate((value, env), src, size, choices)?;
            self.gen.continue_from(&Rest::env_of(&fin).0, src);
            return Ok(fin);
        }
        self.rest.generate((value, env), src, size, choices)
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
            let v = guarded(|| self.gen.generate(&env, replay.source(), old.size))?.ok()?;
            (v, Some(replay.into_used()))
        } else {
            (old_value.clone(), old_choices)
        };
        keep_choices(choices, depth, used);
        self.rest.rebuild((value, env), old, depth + 1, choices)
    }

    fn shrink<'a>(
        &'a self,
        case: &'a Case<Self::Env>,
        depth: usize,
    ) -> Candidates<'a, Case<Self::Env>> {
        let (value, env) = Rest::env_of(&case.env);
        let own: Candidates<'a, (T, Option<Choices>)> = match self.shrink.candidates(env, value) {
            Some(values) => crate::shrink::boxed(values.map(|v| (v, None))),
            None => {
                let recorded: &'a [u64] = case
                    .choices
                    .get(depth)
                    .and_then(|c| c.as_deref())
                    .unwrap_or(&[]);
                crate::shrink::boxed(ByChoices::new(recorded, move |replay: &mut Replay<'_>| {
                    guarded(|| self.gen.generate(env, replay.source(), case.size))?.ok()
                }))
            }
        };
        let mine = own.filter_map(move |(v, c)| self.with_value(case, depth, env, v, c));
        crate::shrink::boxed(mine.chain(self.rest.shrink(case, depth + 1)))
    }

    fn mutate<S: Source + ?Sized>(
        &self,
        case: &Case<Self::Env>,
        variable: usize,
        depth: usize,
        src: &mut S,
    ) -> Option<Case<Self::Env>> {
        if depth < variable {
            return self.rest.mutate(case, variable, depth + 1, src);
        }
        let (value, env) = Rest::env_of(&case.env);
        let mut dyn_src = &mut *src;
        if let Some(v) = self.mutate.mutate(env, value, &mut dyn_src, case.size) {
            return self.with_value(case, depth, env, v, None);
        }
        let mut rec = Recorder::new(&mut *src);
        let v = self
            .gen
            .generate(env, &mut rec as &mut dyn Source, case.size)
            .ok()?;
        if G::DRAWS_IN_CHECK {
            self.gen.continue_from(&v, &mut rec);
        }
        let used = G::CUSTOM.then(|| rec.into_choices());
        self.with_value(case, depth, env, v, used)
    }

    fn redraw(
        &self,
        case: &Case<Self::Env>,
        variable: usize,
        depth: usize,
        src: &mut dyn Source,
        size: usize,
    ) -> Option<Case<Self::Env>> {
        if depth < variable {
            return self.rest.redraw(case, variable, depth + 1, src, size);
        }
        // Drawn as `mutate` draws a variable it regenerates, without the
        // mutate annotation: a fresh value, not a neighbour of this one.
        let env = &Rest::env_of(&case.env).1;
        let mut rec = Recorder::new(&mut *src);
        let v = self
            .gen
            .generate(env, &mut rec as &mut dyn Source, size)
            .ok()?;
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
        let value = printed.unwrap_or_else(|payload| Self::placeholder(&*payload));
        out.push(Binding {
            name: self.name,
            ty: self.ty,
            value,
        });
        self.rest.print(fin, out);
    }

    fn print_within(&self, fin: &Self::Env, limit: usize, out: &mut Vec<Binding>) {
        let (value, env) = Rest::env_of(fin);
        let printed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.print.print_within(env, value, limit)
        }));
        let value = printed.unwrap_or_else(|payload| Self::placeholder(&*payload));
        out.push(Binding {
            name: self.name,
            ty: self.ty,
            value,
        });
        self.rest.print_within(fin, limit, out);
    }

    fn print_into(&self, fin: &Self::Env, out: &mut Vec<Binding>, at: usize) {
        let (value, env) = Rest::env_of(fin);
        if out.len() <= at {
            out.push(Binding {
                name: self.name,
                ty: self.ty,
                value: String::new(),
            });
        }
        let slot = &mut out[at];
        (slot.name, slot.ty) = (self.name, self.ty);
        slot.value.clear();
        let printed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.print.print_into(env, value, &mut slot.value)
        }));
        if let Err(payload) = printed {
            slot.value = Self::placeholder(&*payload);
        }
        self.rest.print_into(fin, out, at + 1);
    }

    fn prints_as(&self, fin: &Self::Env, printed: &[Binding]) -> bool {
        let Some((mine, rest)) = printed.split_first() else {
            return false;
        };
        if (mine.name, mine.ty) != (self.name, self.ty) {
            return false;
        }
        let (value, env) = Rest::env_of(fin);
        let same = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.print.prints_as(env, value, &mine.value)
        }))
        .unwrap_or_else(|payload| Self::placeholder(&*payload) == mine.value);
        same && self.rest.prints_as(fin, rest)
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

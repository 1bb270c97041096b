//! The STLC workload: a simply-typed lambda calculus with booleans and
//! integers, 10 substitution/shift mutants and two properties over
//! well-typed closed terms (ETNA).
//!
//! Generators (the same recipe in every library):
//! - **bespoke** (well-typed by construction, ETNA's `Correct` strategy): a
//!   type `τ` (`TBool`/`TInt` at size 0, otherwise a base type or
//!   `TFun(τ1, τ2)` at half the size, equal weights; size 4), a term size `n`
//!   uniform in `0..=10`, then a term of type `τ` in the empty context: one
//!   of a canonical value of `τ`, a `λ` (when `τ` is a function type and
//!   `n > 0`, body at size `n - 1`), an application `e1 e2` (when `n > 0`:
//!   argument type at size 2, both sides at size `n / 2`), or a variable of
//!   type `τ` (when the context has one) — uniformly among those available.
//! - **type-based**: the structure of `Expr`: leaves `Var(0..=3)`,
//!   `Bool`, `Int` at size 0; otherwise those or `Abs(τ, e)` or `App(e, e)`
//!   with equal weights, every subterm (and type) at half the size; the size
//!   is the library's, as for the tree workloads. Ill-typed terms are
//!   discarded.

pub mod term;

use crate::common::{qc_below, KEY_MAX, KEY_MIN, TYPED_SIZE};
use crate::drivers::{Check, TreeWorkload};
use pbt::shrink::Candidates;
use pbt::{Gen, Generated, Source};
use proptest::prelude::{any, Just, Strategy as _};
use proptest::strategy::{BoxedStrategy, Union};
use std::rc::Rc;
use term::{abs, app, fun};
pub use term::{Expr, Typ};

crate::named_enum! {
    /// The injected bugs of the STLC workload ([`Mutant::Base`]: none).
    Mutant {
        /// The correct implementation.
        Base = "base",
        /// shift: variables are never shifted.
        ShiftVarNone = "shift_var_none",
        /// shift: bound variables are shifted too.
        ShiftVarAll = "shift_var_all",
        /// shift: the cutoff test is `≤` instead of `<`.
        ShiftVarLeq = "shift_var_leq",
        /// shift: the cutoff is not incremented under a binder.
        ShiftAbsNoIncr = "shift_abs_no_incr",
        /// subst: every variable is replaced.
        SubstVarAll = "subst_var_all",
        /// subst: no variable is replaced.
        SubstVarNone = "subst_var_none",
        /// subst: the substituted term is not shifted under a binder.
        SubstAbsNoShift = "subst_abs_no_shift",
        /// subst: the index is not incremented under a binder.
        SubstAbsNoIncr = "subst_abs_no_incr",
        /// substTop: no shifting at all.
        SubstTopNoShift = "substTop_no_shift",
        /// substTop: the result is not shifted back down.
        SubstTopNoShiftBack = "substTop_no_shift_back",
    }
}

crate::named_enum! {
    /// The properties of the STLC workload.
    Property {
        /// One step of reduction preserves the type.
        SinglePreserve = "SinglePreserve",
        /// Reduction to a normal form (at most 40 steps) preserves the type.
        MultiPreserve = "MultiPreserve",
    }
}

/// The tasks: every mutant falsifies both properties (ETNA's 20 STLC tasks).
pub fn tasks() -> Vec<(Mutant, Property)> {
    Mutant::ALL
        .iter()
        .filter(|m| **m != Mutant::Base)
        .flat_map(|m| Property::ALL.iter().map(move |p| (*m, *p)))
        .collect()
}

/// The fuel of MultiPreserve (ETNA's 40 steps).
pub const FUEL: u32 = 40;

/// SinglePreserve: a well-typed term that steps, steps to a term of its type.
pub fn single_preserve(m: Mutant, e: &Expr) -> bool {
    let t = term::type_of(e);
    term::pstep(m, e).is_none_or(|e2| term::type_of(&e2) == t)
}

/// MultiPreserve: a well-typed term that normalises within the fuel,
/// normalises to a term of its type.
pub fn multi_preserve(m: Mutant, e: &Expr) -> bool {
    let t = term::type_of(e);
    term::multistep(m, FUEL, e).is_none_or(|e2| term::type_of(&e2) == t)
}

/// The check of property `p`.
pub fn check(p: Property) -> Check<Stlc> {
    match p {
        Property::SinglePreserve => Check::T(single_preserve),
        Property::MultiPreserve => Check::T(multi_preserve),
    }
}

/// The size of the bespoke generator's top-level type.
pub const TYP_SIZE: usize = 4;
/// The size of the argument type of a generated application.
pub const ARG_TYP_SIZE: usize = 2;
/// The largest term size of the bespoke generator.
pub const EXPR_SIZE: usize = 10;
/// The largest variable index of the type-based generator.
pub const VAR_MAX: i64 = 3;

/// The de Bruijn indices of the variables of type `t` in `ctx` (innermost
/// binder last).
fn vars_of(ctx: &[Typ], t: &Typ) -> Vec<i64> {
    ctx.iter()
        .rev()
        .enumerate()
        .filter(|(_, t2)| *t2 == t)
        .map(|(i, _)| i as i64)
        .collect()
}

/// pbt's bespoke generator of types: staged from the DSL.
pub fn pbt_typ() -> impl Gen<Value = Typ> + Send + Sync {
    pbt::generator!(recursive::<Typ>(|rec| frequency[
        1 => one_of[just(Typ::TBool), just(Typ::TInt)],
        usize::from(size > 0) => map((rec, rec), |(a, b)| fun(a, b))
    ]))
}

/// pbt's bespoke generator of well-typed closed terms: the type from
/// [`pbt_typ`], the term by a hand-written recursion over the source (the
/// DSL has no recursion with parameters such as the context and the type).
#[derive(Clone, Copy, Debug)]
pub struct WellTyped;

impl Gen for WellTyped {
    type Value = Expr;

    fn generate<S: Source + ?Sized>(&self, src: &mut S, _size: usize) -> Generated<Expr> {
        fn one<S: Source + ?Sized>(src: &mut S, ctx: &mut Vec<Typ>, t: &Typ) -> Expr {
            match t {
                Typ::TBool => Expr::Bool(src.draw(1) == 1),
                Typ::TInt => {
                    Expr::Int(KEY_MIN as i64 + src.draw((KEY_MAX - KEY_MIN) as u64) as i64)
                }
                Typ::TFun(t1, t2) => {
                    ctx.push((**t1).clone());
                    let body = one(src, ctx, t2);
                    ctx.pop();
                    abs((**t1).clone(), body)
                }
            }
        }
        fn expr<S: Source + ?Sized>(src: &mut S, ctx: &mut Vec<Typ>, t: &Typ, n: usize) -> Expr {
            let vars = vars_of(ctx, t);
            let lam = n > 0 && matches!(t, Typ::TFun(..));
            let options = 1 + u64::from(lam) + u64::from(n > 0) + u64::from(!vars.is_empty());
            let mut c = src.draw(options - 1);
            if c == 0 {
                return one(src, ctx, t);
            }
            c -= 1;
            if lam {
                if c == 0 {
                    let Typ::TFun(t1, t2) = t else { unreachable!() };
                    ctx.push((**t1).clone());
                    let body = expr(src, ctx, t2, n - 1);
                    ctx.pop();
                    return abs((**t1).clone(), body);
                }
                c -= 1;
            }
            if n > 0 && c == 0 {
                let t_arg = pbt_typ().generate(src, ARG_TYP_SIZE).unwrap_or(Typ::TBool);
                let f = expr(src, ctx, &fun(t_arg.clone(), t.clone()), n / 2);
                let a = expr(src, ctx, &t_arg, n / 2);
                return app(f, a);
            }
            Expr::Var(vars[src.draw(vars.len() as u64 - 1) as usize])
        }
        let t = pbt_typ().generate(src, TYP_SIZE)?;
        let n = src.draw(EXPR_SIZE as u64) as usize;
        Ok(expr(src, &mut Vec::new(), &t, n))
    }
}

/// The STLC workload, for the drivers (its "trees" are terms).
pub struct Stlc;

impl TreeWorkload for Stlc {
    type Tree = Expr;
    type Mutant = Mutant;

    fn valid(e: &Expr) -> bool {
        term::type_of(e).is_some()
    }

    fn pbt_bespoke() -> impl Gen<Value = Expr> + Send + Sync {
        WellTyped
    }

    fn proptest_bespoke() -> BoxedStrategy<Expr> {
        fn typ(size: usize) -> BoxedStrategy<Typ> {
            let base = proptest::prop_oneof![Just(Typ::TBool), Just(Typ::TInt)];
            if size == 0 {
                return base.boxed();
            }
            proptest::prop_oneof![
                base,
                (typ(size / 2), typ(size / 2)).prop_map(|(a, b)| fun(a, b))
            ]
            .boxed()
        }
        fn one(ctx: Rc<Vec<Typ>>, t: Typ) -> BoxedStrategy<Expr> {
            match t {
                Typ::TBool => any::<bool>().prop_map(Expr::Bool).boxed(),
                Typ::TInt => (KEY_MIN as i64..=KEY_MAX as i64)
                    .prop_map(Expr::Int)
                    .boxed(),
                Typ::TFun(t1, t2) => one(push(&ctx, &t1), (*t2).clone())
                    .prop_map(move |body| abs((*t1).clone(), body))
                    .boxed(),
            }
        }
        fn push(ctx: &Rc<Vec<Typ>>, t: &Typ) -> Rc<Vec<Typ>> {
            let mut inner = (**ctx).clone();
            inner.push(t.clone());
            Rc::new(inner)
        }
        fn expr(ctx: Rc<Vec<Typ>>, t: Typ, n: usize) -> BoxedStrategy<Expr> {
            let mut options = vec![one(ctx.clone(), t.clone())];
            if n > 0 {
                if let Typ::TFun(t1, t2) = &t {
                    let t1 = (**t1).clone();
                    options.push(
                        expr(push(&ctx, &t1), (**t2).clone(), n - 1)
                            .prop_map(move |body| abs(t1.clone(), body))
                            .boxed(),
                    );
                }
                let (ctx, t) = (ctx.clone(), t.clone());
                options.push(
                    typ(ARG_TYP_SIZE)
                        .prop_flat_map(move |t_arg| {
                            (
                                expr(ctx.clone(), fun(t_arg.clone(), t.clone()), n / 2),
                                expr(ctx.clone(), t_arg, n / 2),
                            )
                        })
                        .prop_map(|(f, a)| app(f, a))
                        .boxed(),
                );
            }
            let vars = vars_of(&ctx, &t);
            if !vars.is_empty() {
                options.push(proptest::sample::select(vars).prop_map(Expr::Var).boxed());
            }
            Union::new(options).boxed()
        }
        (typ(TYP_SIZE), 0..=EXPR_SIZE)
            .prop_flat_map(|(t, n)| expr(Rc::new(Vec::new()), t, n))
            .boxed()
    }

    fn proptest_typed() -> BoxedStrategy<Expr> {
        fn typ(size: usize) -> BoxedStrategy<Typ> {
            let base = proptest::prop_oneof![Just(Typ::TBool), Just(Typ::TInt)];
            if size == 0 {
                return base.boxed();
            }
            let sub = typ(size / 2);
            proptest::prop_oneof![
                Just(Typ::TBool),
                Just(Typ::TInt),
                (sub.clone(), sub).prop_map(|(a, b)| fun(a, b))
            ]
            .boxed()
        }
        fn expr(size: usize) -> BoxedStrategy<Expr> {
            let var = (0..=VAR_MAX).prop_map(Expr::Var);
            let bool = any::<bool>().prop_map(Expr::Bool);
            let int = (KEY_MIN as i64..=KEY_MAX as i64).prop_map(Expr::Int);
            if size == 0 {
                return proptest::prop_oneof![var, bool, int].boxed();
            }
            let sub = expr(size / 2);
            proptest::prop_oneof![
                var,
                bool,
                int,
                (typ(size / 2), sub.clone()).prop_map(|(t, e)| abs(t, e)),
                (sub.clone(), sub).prop_map(|(f, a)| app(f, a)),
            ]
            .boxed()
        }
        expr(TYPED_SIZE)
    }

    fn quickcheck_bespoke(g: &mut quickcheck::Gen) -> Expr {
        use quickcheck::Arbitrary;
        fn typ(g: &mut quickcheck::Gen, size: usize) -> Typ {
            if size == 0 || qc_below(g, 2) == 0 {
                return if bool::arbitrary(g) {
                    Typ::TInt
                } else {
                    Typ::TBool
                };
            }
            fun(typ(g, size / 2), typ(g, size / 2))
        }
        fn one(g: &mut quickcheck::Gen, ctx: &mut Vec<Typ>, t: &Typ) -> Expr {
            match t {
                Typ::TBool => Expr::Bool(bool::arbitrary(g)),
                Typ::TInt => {
                    Expr::Int(KEY_MIN as i64 + qc_below(g, (KEY_MAX - KEY_MIN + 1) as usize) as i64)
                }
                Typ::TFun(t1, t2) => {
                    ctx.push((**t1).clone());
                    let body = one(g, ctx, t2);
                    ctx.pop();
                    abs((**t1).clone(), body)
                }
            }
        }
        fn expr(g: &mut quickcheck::Gen, ctx: &mut Vec<Typ>, t: &Typ, n: usize) -> Expr {
            let vars = vars_of(ctx, t);
            let lam = n > 0 && matches!(t, Typ::TFun(..));
            let options = 1 + usize::from(lam) + usize::from(n > 0) + usize::from(!vars.is_empty());
            let mut c = qc_below(g, options);
            if c == 0 {
                return one(g, ctx, t);
            }
            c -= 1;
            if lam {
                if c == 0 {
                    let Typ::TFun(t1, t2) = t else { unreachable!() };
                    ctx.push((**t1).clone());
                    let body = expr(g, ctx, t2, n - 1);
                    ctx.pop();
                    return abs((**t1).clone(), body);
                }
                c -= 1;
            }
            if n > 0 && c == 0 {
                let t_arg = typ(g, ARG_TYP_SIZE);
                let f = expr(g, ctx, &fun(t_arg.clone(), t.clone()), n / 2);
                let a = expr(g, ctx, &t_arg, n / 2);
                return app(f, a);
            }
            Expr::Var(*g.choose(&vars).unwrap_or(&0))
        }
        let t = typ(g, TYP_SIZE);
        let n = qc_below(g, EXPR_SIZE + 1);
        expr(g, &mut Vec::new(), &t, n)
    }
}

/// pbt's type-based generator for `Typ` (see the module docs).
impl pbt::Arbitrary for Typ {
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        match src.draw(if size == 0 { 1 } else { 2 }) {
            0 => Typ::TBool,
            1 => Typ::TInt,
            _ => fun(Typ::arbitrary(src, size / 2), Typ::arbitrary(src, size / 2)),
        }
    }
}

/// pbt's type-based generator for `Expr`, written by hand in the shape
/// `#[derive(Arbitrary)]` gives (see the module docs for the recipe).
impl pbt::Arbitrary for Expr {
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        match src.draw(if size == 0 { 2 } else { 4 }) {
            0 => Expr::Var(src.draw(VAR_MAX as u64) as i64),
            1 => Expr::Bool(src.draw(1) == 1),
            2 => Expr::Int(KEY_MIN as i64 + src.draw((KEY_MAX - KEY_MIN) as u64) as i64),
            3 => abs(
                Typ::arbitrary(src, size / 2),
                Expr::arbitrary(src, size / 2),
            ),
            _ => app(
                Expr::arbitrary(src, size / 2),
                Expr::arbitrary(src, size / 2),
            ),
        }
    }
}

/// Not shrunk: the benchmark times the first failure.
impl pbt::Shrink for Expr {
    fn shrink(&self) -> Candidates<'_, Self> {
        Box::new(std::iter::empty())
    }
}

/// quickcheck's type-based generator for `Expr`: the same recipe at
/// quickcheck's size.
impl quickcheck::Arbitrary for Expr {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        fn typ(g: &mut quickcheck::Gen, size: usize) -> Typ {
            match qc_below(g, if size == 0 { 2 } else { 3 }) {
                0 => Typ::TBool,
                1 => Typ::TInt,
                _ => fun(typ(g, size / 2), typ(g, size / 2)),
            }
        }
        fn expr(g: &mut quickcheck::Gen, size: usize) -> Expr {
            match qc_below(g, if size == 0 { 3 } else { 5 }) {
                0 => Expr::Var(qc_below(g, VAR_MAX as usize + 1) as i64),
                1 => Expr::Bool(bool::arbitrary(g)),
                2 => {
                    Expr::Int(KEY_MIN as i64 + qc_below(g, (KEY_MAX - KEY_MIN + 1) as usize) as i64)
                }
                3 => abs(typ(g, size / 2), expr(g, size / 2)),
                _ => app(expr(g, size / 2), expr(g, size / 2)),
            }
        }
        expr(g, g.size())
    }
}

/// Run one trial of property `p` under mutant `m` with `strategy`.
pub fn run(
    strategy: crate::strategy::Strategy,
    m: Mutant,
    p: Property,
    probe: &std::sync::Arc<crate::probe::Probe>,
    seed: u64,
) -> Result<(), String> {
    crate::drivers::run::<Stlc>(strategy, m, check(p), probe, seed)
}

//! The STLC generators, one recipe for every library.
//!
//! The bespoke recipe is ETNA's `Correct` strategy for STLC (its Haskell
//! `Strategy/Correct.hs`): at the QuickCheck size `n` (0..=99),
//! - a type `τ`: a base type at size 0, otherwise a base type or
//!   `TFun(τ1, τ2)` at half the size, equal weights;
//! - a term of type `τ` in the empty context with fuel `n`: one of a
//!   canonical value of `τ`, a `λ` (when `τ` is a function type and the fuel
//!   is not 0; body with fuel − 1), an application `e1 e2` (fuel not 0:
//!   an argument type drawn at the size `n`, both sides with half the fuel),
//!   or a variable of type `τ` (when the context has one), uniformly among
//!   those available.
//!
//! The base types are `TBool` and `TInt` (equal weights); under
//! [`set_with_int`]`(false)` — the `STLC-bool` workload — only `TBool`, as
//! in ETNA, to compare with its published figures.
//!
//! Each library draws through [`Draw`]: pbt from its `Source` at the
//! runner's size (pbt's schedule cycles through 0..=100; capped at 99),
//! proptest from its `TestRng` by a hand-written `Strategy`
//! ([`WellTypedStrategy`]) and quickcheck from its `Gen`, both at a size
//! uniform in 0..=99 (quickcheck's `Gen` has a fixed size, proptest none).

use super::term::{abs, app, fun, Expr, Typ};
use crate::common::{qc_below, KEY_MAX, KEY_MIN};
use pbt::{Gen, Generated, Source};
use proptest::strategy::{NewTree, ValueTree};
use proptest::test_runner::TestRunner;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// The largest QuickCheck size (ETNA runs QuickCheck's default 0..=99).
pub const MAX_SIZE: usize = 99;

/// Whether `TInt` and integer literals are generated (see the module docs).
static WITH_INT: AtomicBool = AtomicBool::new(true);

/// Generate `TInt` and integer literals (the `STLC` workload) or not
/// (`STLC-bool`, ETNA's calculus). Set by the harness before each trial.
pub fn set_with_int(on: bool) {
    WITH_INT.store(on, Relaxed);
}

/// Whether `TInt` and integer literals are generated.
pub fn with_int() -> bool {
    WITH_INT.load(Relaxed)
}

/// A uniform draw, whatever the library.
pub trait Draw {
    /// A number uniform in `0..n` (`n ≥ 1`).
    fn below(&mut self, n: u64) -> u64;
}

/// pbt's source.
pub struct FromSource<'a, S: Source + ?Sized>(pub &'a mut S);

impl<S: Source + ?Sized> Draw for FromSource<'_, S> {
    #[inline]
    fn below(&mut self, n: u64) -> u64 {
        self.0.draw(n - 1)
    }
}

impl Draw for quickcheck::Gen {
    #[inline]
    fn below(&mut self, n: u64) -> u64 {
        if n <= 256 {
            return qc_below(self, n as usize) as u64;
        }
        // Wider than one `Gen::choose` over 256 indices: eight of them make
        // a uniform u64, scaled to `0..n` (the IFC and stack-machine
        // recipes draw weights that sum past 256).
        let word = (0..8).fold(0u64, |w, _| (w << 8) | qc_below(self, 256) as u64);
        ((u128::from(word) * u128::from(n)) >> 64) as u64
    }
}

impl Draw for proptest::test_runner::TestRng {
    #[inline]
    fn below(&mut self, n: u64) -> u64 {
        use proptest::prelude::Rng as _;
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// A base type.
fn base<D: Draw + ?Sized>(d: &mut D) -> Typ {
    if with_int() && d.below(2) == 1 {
        Typ::TInt
    } else {
        Typ::TBool
    }
}

/// A type at `size`.
pub fn typ<D: Draw + ?Sized>(d: &mut D, size: usize) -> Typ {
    if size == 0 || d.below(2) == 0 {
        return base(d);
    }
    fun(typ(d, size / 2), typ(d, size / 2))
}

/// A literal of a base type.
fn literal<D: Draw + ?Sized>(d: &mut D, t: &Typ) -> Expr {
    match t {
        Typ::TInt => Expr::Int(i64::from(KEY_MIN) + d.below((KEY_MAX - KEY_MIN + 1) as u64) as i64),
        _ => Expr::Bool(d.below(2) == 1),
    }
}

/// The canonical value of `t` (`genOne`).
fn one<D: Draw + ?Sized>(d: &mut D, ctx: &mut Vec<Typ>, t: &Typ) -> Expr {
    match t {
        Typ::TFun(t1, t2) => {
            ctx.push((**t1).clone());
            let body = one(d, ctx, t2);
            ctx.pop();
            abs((**t1).clone(), body)
        }
        _ => literal(d, t),
    }
}

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

/// A term of type `t` in `ctx` with `fuel`, argument types at `size`
/// (`genExactExpr`).
fn expr<D: Draw + ?Sized>(
    d: &mut D,
    ctx: &mut Vec<Typ>,
    t: &Typ,
    fuel: usize,
    size: usize,
) -> Expr {
    let vars = vars_of(ctx, t);
    let lam = fuel > 0 && matches!(t, Typ::TFun(..));
    let options = 1 + u64::from(lam) + u64::from(fuel > 0) + u64::from(!vars.is_empty());
    let mut c = d.below(options);
    if c == 0 {
        return one(d, ctx, t);
    }
    c -= 1;
    if lam {
        if c == 0 {
            let Typ::TFun(t1, t2) = t else {
                unreachable!("lam is set for function types only")
            };
            ctx.push((**t1).clone());
            let body = expr(d, ctx, t2, fuel - 1, size);
            ctx.pop();
            return abs((**t1).clone(), body);
        }
        c -= 1;
    }
    if fuel > 0 && c == 0 {
        let t_arg = typ(d, size);
        let f = expr(d, ctx, &fun(t_arg.clone(), t.clone()), fuel / 2, size);
        let a = expr(d, ctx, &t_arg, fuel / 2, size);
        return app(f, a);
    }
    Expr::Var(vars[d.below(vars.len() as u64) as usize])
}

/// A well-typed closed term at QuickCheck size `size` (ETNA's `Correct`).
pub fn well_typed<D: Draw + ?Sized>(d: &mut D, size: usize) -> Expr {
    let size = size.min(MAX_SIZE);
    let t = typ(d, size);
    expr(d, &mut Vec::new(), &t, size, size)
}

/// pbt's bespoke generator of well-typed closed terms, at the runner's
/// size (the DSL has no recursion with parameters such as the context and
/// the type, so the recursion is written over the source).
#[derive(Clone, Copy, Debug)]
pub struct WellTyped;

impl Gen for WellTyped {
    type Value = Expr;

    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<Expr> {
        Ok(well_typed(&mut FromSource(src), size))
    }
}

/// proptest's bespoke strategy, written by hand (`Strategy` and
/// `ValueTree`) like the other libraries' generators: the recipe over the
/// runner's `TestRng` at a size uniform in 0..=99. Not shrunk (the
/// benchmark times the first failure).
#[derive(Clone, Copy, Debug)]
pub struct WellTypedStrategy;

/// A generated term that does not shrink.
#[derive(Clone, Debug)]
pub struct Unshrunk(pub Expr);

impl ValueTree for Unshrunk {
    type Value = Expr;

    fn current(&self) -> Expr {
        self.0.clone()
    }

    fn simplify(&mut self) -> bool {
        false
    }

    fn complicate(&mut self) -> bool {
        false
    }
}

impl proptest::strategy::Strategy for WellTypedStrategy {
    type Tree = Unshrunk;
    type Value = Expr;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        let rng = runner.rng();
        let size = rng.below(MAX_SIZE as u64 + 1) as usize;
        Ok(Unshrunk(well_typed(rng, size)))
    }
}

/// quickcheck's bespoke generator: the recipe over its `Gen` at a size
/// uniform in 0..=99.
pub fn quickcheck_well_typed(g: &mut quickcheck::Gen) -> Expr {
    let size = g.below(MAX_SIZE as u64 + 1) as usize;
    well_typed(g, size)
}

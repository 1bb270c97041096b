//! The simply-typed lambda calculus with booleans and integers: de Bruijn
//! terms, a type checker, shifting and substitution (with the injected bugs
//! of ETNA's STLC workload), parallel single-step reduction and multistep
//! with fuel.
//!
//! ETNA's STLC has booleans only; integer literals (`Int`, of type `TInt`)
//! are added here as a second base type. They only take part in typing.

use super::Mutant;
use std::rc::Rc;

/// Types: `TBool | TInt | TFun(t1, t2)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typ {
    /// Booleans.
    TBool,
    /// Integers.
    TInt,
    /// Functions.
    TFun(Rc<Typ>, Rc<Typ>),
}

/// Terms with de Bruijn indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// A variable: the number of binders between it and its own (may go
    /// negative under buggy shifting, and is then unbound).
    Var(i64),
    /// A boolean literal.
    Bool(bool),
    /// An integer literal.
    Int(i64),
    /// `λ: t. e`.
    Abs(Typ, Rc<Expr>),
    /// `e1 e2`.
    App(Rc<Expr>, Rc<Expr>),
}

use Expr::{Abs, App, Bool, Int, Var};

/// `TFun(t1, t2)`.
pub fn fun(t1: Typ, t2: Typ) -> Typ {
    Typ::TFun(Rc::new(t1), Rc::new(t2))
}

/// `Abs(t, e)`.
pub fn abs(t: Typ, e: Expr) -> Expr {
    Abs(t, Rc::new(e))
}

/// `App(e1, e2)`.
pub fn app(e1: Expr, e2: Expr) -> Expr {
    App(Rc::new(e1), Rc::new(e2))
}

/// The type of `e` in the context `ctx` (innermost binder last).
pub fn get_typ(ctx: &mut Vec<Typ>, e: &Expr) -> Option<Typ> {
    match e {
        Var(n) => {
            let n = usize::try_from(*n).ok()?;
            ctx.len().checked_sub(n + 1).map(|i| ctx[i].clone())
        }
        Bool(_) => Some(Typ::TBool),
        Int(_) => Some(Typ::TInt),
        Abs(t, body) => {
            ctx.push(t.clone());
            let t2 = get_typ(ctx, body);
            ctx.pop();
            Some(fun(t.clone(), t2?))
        }
        App(e1, e2) => match get_typ(ctx, e1)? {
            Typ::TFun(t11, t12) if Some(&*t11) == get_typ(ctx, e2).as_ref() => Some((*t12).clone()),
            _ => None,
        },
    }
}

/// The type of a closed term.
pub fn type_of(e: &Expr) -> Option<Typ> {
    get_typ(&mut Vec::new(), e)
}

/// Add `d` to the free variables of `e` (mutants `shift_var_none`,
/// `shift_var_all`, `shift_var_leq`, `shift_abs_no_incr`).
pub fn shift(m: Mutant, d: i64, e: &Expr) -> Expr {
    fn go(m: Mutant, d: i64, c: i64, e: &Expr) -> Expr {
        match e {
            Var(n) => match m {
                Mutant::ShiftVarNone => Var(*n),
                Mutant::ShiftVarAll => Var(n + d),
                Mutant::ShiftVarLeq if *n <= c => Var(*n),
                Mutant::ShiftVarLeq => Var(n + d),
                _ if *n < c => Var(*n),
                _ => Var(n + d),
            },
            Bool(_) | Int(_) => e.clone(),
            Abs(t, body) => {
                let c = if m == Mutant::ShiftAbsNoIncr {
                    c
                } else {
                    c + 1
                };
                abs(t.clone(), go(m, d, c, body))
            }
            App(e1, e2) => app(go(m, d, c, e1), go(m, d, c, e2)),
        }
    }
    go(m, d, 0, e)
}

/// `[n ↦ s] e` (mutants `subst_var_all`, `subst_var_none`,
/// `subst_abs_no_shift`, `subst_abs_no_incr`).
pub fn subst(m: Mutant, n: i64, s: &Expr, e: &Expr) -> Expr {
    match e {
        Var(k) => match m {
            Mutant::SubstVarAll => s.clone(),
            Mutant::SubstVarNone => Var(*k),
            _ if *k == n => s.clone(),
            _ => Var(*k),
        },
        Bool(_) | Int(_) => e.clone(),
        Abs(t, body) => abs(
            t.clone(),
            match m {
                Mutant::SubstAbsNoShift => subst(m, n + 1, s, body),
                Mutant::SubstAbsNoIncr => subst(m, n, &shift(m, 1, s), body),
                _ => subst(m, n + 1, &shift(m, 1, s), body),
            },
        ),
        App(e1, e2) => app(subst(m, n, s, e1), subst(m, n, s, e2)),
    }
}

/// `[0 ↦ s] e` for a β-redex (mutants `substTop_no_shift`,
/// `substTop_no_shift_back`).
pub fn subst_top(m: Mutant, s: &Expr, e: &Expr) -> Expr {
    match m {
        Mutant::SubstTopNoShift => subst(m, 0, s, e),
        Mutant::SubstTopNoShiftBack => subst(m, 0, &shift(m, 1, s), e),
        _ => shift(m, -1, &subst(m, 0, &shift(m, 1, s), e)),
    }
}

/// One step of parallel reduction; `None` for a term in normal form.
pub fn pstep(m: Mutant, e: &Expr) -> Option<Expr> {
    match e {
        Abs(t, body) => Some(abs(t.clone(), pstep(m, body)?)),
        App(f, e2) => {
            if let Abs(_, e1) = &**f {
                let e1 = pstep(m, e1).unwrap_or_else(|| (**e1).clone());
                let e2 = pstep(m, e2).unwrap_or_else(|| (**e2).clone());
                return Some(subst_top(m, &e2, &e1));
            }
            match (pstep(m, f), pstep(m, e2)) {
                (None, None) => None,
                (f2, e3) => Some(app(
                    f2.unwrap_or_else(|| (**f).clone()),
                    e3.unwrap_or_else(|| (**e2).clone()),
                )),
            }
        }
        _ => None,
    }
}

/// Step until a normal form, or `None` when `fuel` steps were not enough.
pub fn multistep(m: Mutant, fuel: u32, e: &Expr) -> Option<Expr> {
    let mut e = e.clone();
    for _ in 0..fuel {
        match pstep(m, &e) {
            None => return Some(e),
            Some(next) => e = next,
        }
    }
    None
}

/// The number of constructors.
pub fn size(e: &Expr) -> usize {
    match e {
        Abs(_, b) => 1 + size(b),
        App(a, b) => 1 + size(a) + size(b),
        _ => 1,
    }
}

/// How far a closed term is from well-typed: the places where typing
/// fails first (an unbound variable, an application whose function is not
/// a function or whose argument has the wrong type), not counting the
/// failures they cause above them — 0 exactly when [`type_of`] is `Some`.
pub fn defects(e: &Expr) -> u64 {
    fn go(ctx: &mut Vec<Typ>, e: &Expr) -> (Option<Typ>, u64) {
        match e {
            Var(_) => {
                let t = get_typ(ctx, e);
                let d = u64::from(t.is_none());
                (t, d)
            }
            Bool(_) => (Some(Typ::TBool), 0),
            Int(_) => (Some(Typ::TInt), 0),
            Abs(t, body) => {
                ctx.push(t.clone());
                let (t2, d) = go(ctx, body);
                ctx.pop();
                (t2.map(|t2| fun(t.clone(), t2)), d)
            }
            App(e1, e2) => {
                let ((t1, d1), (t2, d2)) = (go(ctx, e1), go(ctx, e2));
                match (t1, t2) {
                    (Some(Typ::TFun(a, r)), Some(t2)) if *a == t2 => (Some((*r).clone()), d1 + d2),
                    (Some(_), Some(_)) => (None, d1 + d2 + 1),
                    _ => (None, d1 + d2),
                }
            }
        }
    }
    go(&mut Vec::new(), e).1
}

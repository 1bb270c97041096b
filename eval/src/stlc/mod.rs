//! The STLC workload: a simply-typed lambda calculus with booleans and
//! integers, 10 substitution/shift mutants and two properties over
//! well-typed closed terms (ETNA).
//!
//! Generators (the same recipe in every library):
//! - **bespoke** (well-typed by construction): ETNA's `Correct` strategy,
//!   sized at the QuickCheck size 0..=99 ([`gen`] has the recipe).
//! - **type-based**: the structure of `Expr`: leaves `Var(0..=3)`,
//!   `Bool`, `Int` at size 0; otherwise those or `Abs(τ, e)` or `App(e, e)`
//!   with equal weights, every subterm (and type) at half the size; the size
//!   is the library's, as for the tree workloads. Ill-typed terms are
//!   discarded.
//!
//! The `STLC-bool` workload runs the same tasks without `TInt` and integer
//! literals in any generator ([`gen::set_with_int`]), as ETNA's calculus.

pub mod gen;
pub mod term;

use crate::common::{qc_below, KEY_MAX, KEY_MIN, TYPED_SIZE};
use crate::drivers::{Check, TreeWorkload};
use gen::with_int;
use pbt::shrink::Candidates;
use pbt::{Gen, Source};
use proptest::prelude::{any, Just, Strategy as _};
use proptest::strategy::BoxedStrategy;
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

/// The largest variable index of the type-based generator.
pub const VAR_MAX: i64 = 3;

/// The STLC workload, for the drivers (its "trees" are terms).
pub struct Stlc;

impl TreeWorkload for Stlc {
    type Tree = Expr;
    type Mutant = Mutant;

    #[inline(never)] // counted apart by `etna --cost` (a call per input, in every library)
    fn valid(e: &Expr) -> bool {
        term::type_of(e).is_some()
    }

    fn defects(e: &Expr) -> u64 {
        term::defects(e)
    }

    fn pbt_bespoke() -> impl Gen<Value = Expr> + Send + Sync {
        gen::WellTyped
    }

    fn proptest_bespoke() -> BoxedStrategy<Expr> {
        gen::WellTypedStrategy.boxed()
    }

    fn proptest_typed() -> BoxedStrategy<Expr> {
        fn typ(size: usize) -> BoxedStrategy<Typ> {
            let base = if with_int() {
                proptest::prop_oneof![Just(Typ::TBool), Just(Typ::TInt)].boxed()
            } else {
                Just(Typ::TBool).boxed()
            };
            if size == 0 {
                return base;
            }
            let sub = typ(size / 2);
            let fun = (sub.clone(), sub).prop_map(|(a, b)| fun(a, b));
            if with_int() {
                proptest::prop_oneof![Just(Typ::TBool), Just(Typ::TInt), fun].boxed()
            } else {
                proptest::prop_oneof![Just(Typ::TBool), fun].boxed()
            }
        }
        fn expr(size: usize) -> BoxedStrategy<Expr> {
            let var = (0..=VAR_MAX).prop_map(Expr::Var);
            let bool = any::<bool>().prop_map(Expr::Bool);
            let int = (KEY_MIN as i64..=KEY_MAX as i64).prop_map(Expr::Int);
            let leaves = if with_int() {
                proptest::prop_oneof![var, bool, int].boxed()
            } else {
                proptest::prop_oneof![var, bool].boxed()
            };
            if size == 0 {
                return leaves;
            }
            let sub = expr(size / 2);
            let lam = (typ(size / 2), sub.clone()).prop_map(|(t, e)| abs(t, e));
            let ap = (sub.clone(), sub).prop_map(|(f, a)| app(f, a));
            if with_int() {
                proptest::prop_oneof![3 => leaves, 1 => lam, 1 => ap].boxed()
            } else {
                proptest::prop_oneof![2 => leaves, 1 => lam, 1 => ap].boxed()
            }
        }
        expr(TYPED_SIZE)
    }

    fn quickcheck_bespoke(g: &mut quickcheck::Gen) -> Expr {
        gen::quickcheck_well_typed(g)
    }
}

/// The constructor number `drawn` stands for among all of a type's
/// constructors when the one numbered `int` (`TInt` or `Int`) is left out
/// (`with_int` false, the `STLC-bool` workload): the later ones move up.
fn typed_choice(drawn: u64, int: u64, with_int: bool) -> u64 {
    if !with_int && drawn >= int {
        drawn + 1
    } else {
        drawn
    }
}

/// pbt's type-based generator for `Typ` (see the module docs).
impl pbt::Arbitrary for Typ {
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        let ints = with_int();
        let n = 1 + u64::from(ints) + u64::from(size > 0);
        match typed_choice(src.draw(n - 1), 1, ints) {
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
        let ints = with_int();
        let n = 2 + u64::from(ints) + if size > 0 { 2 } else { 0 };
        match typed_choice(src.draw(n - 1), 2, ints) {
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

/// The fuzzer's mutation by value: down a random path, replace a subterm
/// with a fresh one (type-based, at half the size) or change a binder's
/// type, a literal or a variable.
impl pbt::Mutate for Expr {
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        use pbt::Arbitrary as _;
        if src.draw(3) == 0 {
            return Expr::arbitrary(src, size / 2);
        }
        match self {
            Expr::Abs(t, body) if src.draw(1) == 0 => {
                abs(t.clone(), (**body).mutate(src, size / 2))
            }
            Expr::Abs(_, body) => abs(Typ::arbitrary(src, size / 4), (**body).clone()),
            Expr::App(f, a) if src.draw(1) == 0 => app((**f).mutate(src, size / 2), (**a).clone()),
            Expr::App(f, a) => app((**f).clone(), (**a).mutate(src, size / 2)),
            Expr::Var(n) => Expr::Var((n + 1) % (VAR_MAX + 1)),
            Expr::Bool(b) => Expr::Bool(!b),
            Expr::Int(i) => Expr::Int(if *i < i64::from(KEY_MAX) {
                i + 1
            } else {
                i64::from(KEY_MIN)
            }),
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
            let ints = with_int();
            let n = 1 + usize::from(ints) + usize::from(size > 0);
            match typed_choice(qc_below(g, n) as u64, 1, ints) {
                0 => Typ::TBool,
                1 => Typ::TInt,
                _ => fun(typ(g, size / 2), typ(g, size / 2)),
            }
        }
        fn expr(g: &mut quickcheck::Gen, size: usize) -> Expr {
            let ints = with_int();
            let n = 2 + usize::from(ints) + if size > 0 { 2 } else { 0 };
            match typed_choice(qc_below(g, n) as u64, 2, ints) {
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

//! Automatic targeting of preconditions (*Flexible and Automatic Targeted Property-Based Testing* §3): every `implies` gets
//! a utility that is `>= 0` exactly when the precondition holds (Lemma 3.2).

use pbt::generators::{self as gen, Gen};
use pbt::prelude::*;
use pbt::runners::{generational, Regressions};
use pbt::utility::{all, any, not, of_bool, Cmp, CmpNumber, CmpOther, FALSE, TRUE};
use pbt::{Outcome, Rng};

fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

/// For inputs of `prop`: utility >= 0 exactly when the run is not discarded.
fn lemma_holds<P: Property>(prop: &P, tests: u64) {
    let mut rng = Rng::from_seed(7);
    let (mut held, mut failed) = (0, 0);
    for n in 0..tests {
        let Ok(case) = prop.generate(&mut rng, (n % 100) as usize) else {
            continue;
        };
        let u = prop
            .utility(&case)
            .expect("the implication carries a utility");
        let holds = prop.run(&case) != Outcome::Discard;
        assert_eq!(u >= 0.0, holds, "utility {u} for {:?}", prop.print(&case));
        if holds {
            held += 1
        } else {
            failed += 1
        }
    }
    assert!(
        held > 0 && failed > 0,
        "both outcomes seen ({held} held, {failed} failed)"
    );
}

#[test]
// The preconditions are written the way the paper's examples are.
#[allow(clippy::nonminimal_bool, clippy::int_plus_one)]
fn derived_utilities_satisfy_lemma_3_2() {
    lemma_holds(
        &property! { forall a: i64, #[gen = int(-20..20i64)]; forall b: i64, #[gen = int(-20..20i64)]; implies a <= b; check true },
        2000,
    );
    lemma_holds(
        &property! { forall a: u8; forall b: u8; implies a < b; check true },
        2000,
    );
    lemma_holds(
        &property! { forall a: i32, #[gen = int(-3..3)]; forall b: i32, #[gen = int(-3..3)]; implies a == b; check true },
        2000,
    );
    lemma_holds(
        &property! { forall a: i32, #[gen = int(-3..3)]; forall b: i32, #[gen = int(-3..3)]; implies a != b && !(a > 2 * b); check true },
        2000,
    );
    lemma_holds(
        &property! { forall x: f64, #[gen = float(-2.0..2.0)]; forall y: f64, #[gen = float(-2.0..2.0)]; implies x < y || x * x >= 1.0; check true },
        2000,
    );
    lemma_holds(
        &property! { forall xs: Vec<i8>; implies xs.iter().all(|&x| x > -100); check true },
        2000,
    );
    lemma_holds(
        &property! { forall xs: Vec<u8>, #[gen = vec(int(0..50u8), 0..6)]; implies xs.iter().any(|x| *x >= 40) && !xs.is_empty(); check true },
        2000,
    );
    lemma_holds(
        &property! { forall s: String; forall k: usize, #[gen = int(0..5usize)]; implies s.len() >= k && s.starts_with(|c: char| c.is_ascii()); check true },
        2000,
    );
    lemma_holds(
        &property! { forall h: u32, #[gen = int(1..64u32)]; forall p: u32, #[gen = int(0..4u32)]; forall d: u32, #[gen = int(1..4u32)]; forall k: u32, #[gen = int(1..8u32)];
        implies h + 2 * p >= d * (k - 1) + 1; check true },
        2000,
    );
}

#[test]
fn short_circuits_are_kept() {
    // `xs[0]` is only evaluated when `!xs.is_empty()`, as in the precondition.
    lemma_holds(
        &property! { forall xs: Vec<u8>; implies !xs.is_empty() && xs[0] > 100; check true },
        2000,
    );
}

/// Boolean expressions over two integers and a float, built at run time
/// and evaluated two ways: truth, and utility by Fig. 3's rules.
#[derive(Clone, Debug)]
enum B {
    Lit(bool),
    Le(A, A),
    Lt(A, A),
    Eq(A, A),
    FloatLt(f64, A),
    Not(Box<B>),
    And(Box<B>, Box<B>),
    Or(Box<B>, Box<B>),
    All(Vec<B>),
    Any(Vec<B>),
}

#[derive(Clone, Copy, Debug)]
enum A {
    X,
    Y,
    N(i64),
    Sum(i64),
}

fn eval_a(a: A, x: i64, y: i64) -> i64 {
    match a {
        A::X => x,
        A::Y => y,
        A::N(n) => n,
        A::Sum(n) => x + y + n,
    }
}

fn truth(b: &B, x: i64, y: i64, z: f64) -> bool {
    match b {
        B::Lit(v) => *v,
        B::Le(p, q) => eval_a(*p, x, y) <= eval_a(*q, x, y),
        B::Lt(p, q) => eval_a(*p, x, y) < eval_a(*q, x, y),
        B::Eq(p, q) => eval_a(*p, x, y) == eval_a(*q, x, y),
        B::FloatLt(c, q) => z * c < eval_a(*q, x, y) as f64,
        B::Not(b) => !truth(b, x, y, z),
        B::And(p, q) => truth(p, x, y, z) && truth(q, x, y, z),
        B::Or(p, q) => truth(p, x, y, z) || truth(q, x, y, z),
        B::All(bs) => bs.iter().all(|b| truth(b, x, y, z)),
        B::Any(bs) => bs.iter().any(|b| truth(b, x, y, z)),
    }
}

fn utility(b: &B, x: i64, y: i64, z: f64) -> f64 {
    match b {
        B::Lit(v) => {
            if *v {
                TRUE
            } else {
                FALSE
            }
        }
        B::Le(p, q) => CmpNumber::le(&Cmp(&eval_a(*p, x, y), &eval_a(*q, x, y))),
        B::Lt(p, q) => CmpNumber::lt(&Cmp(&eval_a(*p, x, y), &eval_a(*q, x, y))),
        B::Eq(p, q) => CmpNumber::eq(&Cmp(&eval_a(*p, x, y), &eval_a(*q, x, y))),
        B::FloatLt(c, q) => CmpNumber::lt(&Cmp(&(z * c), &(eval_a(*q, x, y) as f64))),
        B::Not(b) => not(utility(b, x, y, z)),
        B::And(p, q) => utility(p, x, y, z).min(utility(q, x, y, z)),
        B::Or(p, q) => utility(p, x, y, z).max(utility(q, x, y, z)),
        B::All(bs) => all(bs.iter().map(|b| utility(b, x, y, z))),
        B::Any(bs) => any(bs.iter().map(|b| utility(b, x, y, z))),
    }
}

fn arith() -> impl Gen<Value = A> {
    pbt::generator!(one_of[just(A::X), just(A::Y), map(int(-5..5i64), A::N), map(int(-5..5i64), A::Sum)])
}

fn boolean() -> impl Gen<Value = B> {
    pbt::generator!(recursive::<B>(|rec| frequency[
        1 => map(bool(), B::Lit),
        3 => map((arith(), arith()), |(p, q)| B::Le(p, q)),
        3 => map((arith(), arith()), |(p, q)| B::Lt(p, q)),
        2 => map((arith(), arith()), |(p, q)| B::Eq(p, q)),
        2 => map((float(-3.0..3.0f64), arith()), |(c, q)| B::FloatLt(c, q)),
        size => map(rec, |b| B::Not(Box::new(b))),
        size => map((rec, rec), |(p, q)| B::And(Box::new(p), Box::new(q))),
        size => map((rec, rec), |(p, q)| B::Or(Box::new(p), Box::new(q))),
        size => map(vec(rec, 0..4), B::All),
        size => map(vec(rec, 0..4), B::Any)
    ]))
}

#[test]
fn lemma_3_2_on_random_expressions() {
    let prop = property! {
        forall b: B, #[gen = boolean()];
        forall x: i64, #[gen = int(-8..8i64)];
        forall y: i64, #[gen = int(-8..8i64)];
        forall z: f64, #[gen = float(-4.0..4.0f64)];
        check (utility(&b, x, y, z) >= 0.0) == truth(&b, x, y, z)
    };
    let report = generational(&prop, quiet().cases(5000));
    assert!(report.passed(), "{report}");
}

#[test]
fn non_numbers_fall_back_to_booleans() {
    assert_eq!(CmpOther::lt(&&Cmp(&"abc", &"abd")), TRUE);
    assert_eq!(CmpOther::le(&&Cmp(&vec![1], &vec![0])), FALSE);
    assert_eq!(of_bool(false), FALSE);
    assert_eq!(CmpNumber::le(&Cmp(&3u64, &10u64)), 7.0);
    assert!(CmpNumber::le(&Cmp(&u64::MAX, &0u64)) < 0.0);
    assert!(CmpNumber::le(&Cmp(&f64::NAN, &1.0)) < 0.0);
    let _ = gen::int(0..1u8);
}

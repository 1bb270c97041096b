//! The library checks its derives with its own properties: shrink
//! candidates of derived values are valid and strictly simpler, mutants are
//! valid and differ from their input (for the derives and for every std
//! `Mutate`), derived generators respect their `#[pbt(gen = …)]` ranges, and
//! the constructor view counts every constructor.
//!
//! "Strictly simpler" is the order the derived shrinker promises
//! (`pbt-derive/src/expand/shrink.rs`): fewer nodes of the type (the
//! constructors reachable through same-typed children), or as many and a
//! lower variant rank (base variants first, then declaration order), or
//! the same variant with every field equal or simpler by its own order and
//! one strictly simpler.

use pbt::prelude::*;
use pbt::runners::{generational, Regressions};
use pbt::Rng;
use pbt::{Arbitrary, Mutate, Shrink};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, LinkedList, VecDeque};
use std::fmt::Debug;
use std::time::Duration;

fn config() -> Config {
    Config::default()
        .cases(300)
        .regressions(Regressions::Off)
        .ignore_env()
}

// ------------------------------------------------------------------ types

#[derive(Clone, Debug, PartialEq, Arbitrary, Mutate)]
enum Expr {
    Lit(i64),
    Var(u8),
    Neg(Box<Expr>),
    #[pbt(weight = 2)]
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
}

/// A job with invariants its generators keep: `1 <= threads <= 8`, every
/// pin below `threads`.
#[derive(Clone, Debug, PartialEq, Arbitrary, Mutate)]
enum Job {
    Idle,
    Run {
        #[pbt(gen = int(1..=8u8))]
        threads: u8,
        #[pbt(gen = vec(int(0..threads), 0..4))]
        pins: Vec<u8>,
        name: String,
    },
    Chain(Box<Job>, Box<Job>),
}

#[derive(Clone, Debug, PartialEq, Arbitrary, Mutate)]
enum Stmt {
    Skip,
    Assign(u8, i32),
    While(Cond, Box<Stmt>),
    Seq(Vec<Stmt>),
}

#[derive(Clone, Debug, PartialEq, Arbitrary, Mutate)]
enum Cond {
    Lit(bool),
    Not(Box<Cond>),
    Runs(Box<Stmt>),
}

#[derive(Clone, Debug, PartialEq, Arbitrary, Mutate)]
enum Tree<K, V> {
    Leaf,
    Node {
        left: Box<Tree<K, V>>,
        key: K,
        value: V,
        right: Box<Tree<K, V>>,
    },
}

// ------------------------------------------------------------ the order

/// `self` is strictly simpler than `other`.
trait Simpler {
    fn simpler(&self, other: &Self) -> bool;
}

/// The same variant, fields each at most as complex, one strictly simpler:
/// `fields` holds `(equal, simpler)` per field.
fn fieldwise(fields: &[(bool, bool)]) -> bool {
    fields.iter().all(|&(eq, lt)| eq || lt) && fields.iter().any(|&(eq, lt)| !eq && lt)
}

fn pair<T: Simpler + PartialEq>(a: &T, b: &T) -> (bool, bool) {
    (a == b, a.simpler(b))
}

impl Simpler for i64 {
    fn simpler(&self, other: &Self) -> bool {
        self.unsigned_abs() < other.unsigned_abs()
            || (self.unsigned_abs() == other.unsigned_abs() && self > other)
    }
}

impl Simpler for i32 {
    fn simpler(&self, other: &Self) -> bool {
        i64::from(*self).simpler(&i64::from(*other))
    }
}

impl Simpler for u8 {
    fn simpler(&self, other: &Self) -> bool {
        self < other
    }
}

impl Simpler for bool {
    fn simpler(&self, other: &Self) -> bool {
        !*self && *other
    }
}

impl<T: Simpler + PartialEq> Simpler for Box<T> {
    fn simpler(&self, other: &Self) -> bool {
        (**self).simpler(other)
    }
}

impl<T: Simpler + PartialEq> Simpler for Vec<T> {
    /// Shorter, or as long with every element at most as complex and one simpler.
    fn simpler(&self, other: &Self) -> bool {
        self.len() < other.len()
            || (self.len() == other.len()
                && fieldwise(
                    &self
                        .iter()
                        .zip(other)
                        .map(|(a, b)| pair(a, b))
                        .collect::<Vec<_>>(),
                ))
    }
}

impl Expr {
    fn nodes(&self) -> usize {
        match self {
            Expr::Lit(_) | Expr::Var(_) => 1,
            Expr::Neg(e) => 1 + e.nodes(),
            Expr::Add(a, b) | Expr::Mul(a, b) => 1 + a.nodes() + b.nodes(),
        }
    }

    fn rank(&self) -> usize {
        match self {
            Expr::Lit(_) => 0,
            Expr::Var(_) => 1,
            Expr::Neg(_) => 2,
            Expr::Add(..) => 3,
            Expr::Mul(..) => 4,
        }
    }
}

impl Simpler for Expr {
    fn simpler(&self, other: &Self) -> bool {
        let (a, b) = ((self.nodes(), self.rank()), (other.nodes(), other.rank()));
        a < b
            || (a == b
                && match (self, other) {
                    (Expr::Lit(x), Expr::Lit(y)) => x.simpler(y),
                    (Expr::Var(x), Expr::Var(y)) => x.simpler(y),
                    (Expr::Neg(x), Expr::Neg(y)) => x.simpler(y),
                    (Expr::Add(x1, x2), Expr::Add(y1, y2))
                    | (Expr::Mul(x1, x2), Expr::Mul(y1, y2)) => {
                        fieldwise(&[pair(x1, y1), pair(x2, y2)])
                    }
                    _ => false,
                })
    }
}

impl Stmt {
    /// Statements reachable through statement children (a `Cond` is a field).
    fn nodes(&self) -> usize {
        match self {
            Stmt::Skip | Stmt::Assign(..) => 1,
            Stmt::While(_, s) => 1 + s.nodes(),
            Stmt::Seq(ss) => 1 + ss.iter().map(Stmt::nodes).sum::<usize>(),
        }
    }

    fn rank(&self) -> usize {
        match self {
            Stmt::Skip => 0,
            Stmt::Assign(..) => 1,
            Stmt::While(..) => 2,
            Stmt::Seq(_) => 3,
        }
    }
}

impl Simpler for Stmt {
    fn simpler(&self, other: &Self) -> bool {
        let (a, b) = ((self.nodes(), self.rank()), (other.nodes(), other.rank()));
        a < b
            || (a == b
                && match (self, other) {
                    (Stmt::Assign(x1, x2), Stmt::Assign(y1, y2)) => {
                        fieldwise(&[pair(x1, y1), pair(x2, y2)])
                    }
                    (Stmt::While(c1, s1), Stmt::While(c2, s2)) => {
                        fieldwise(&[pair(c1, c2), pair(s1, s2)])
                    }
                    (Stmt::Seq(x), Stmt::Seq(y)) => x.simpler(y),
                    _ => false,
                })
    }
}

impl Cond {
    fn nodes(&self) -> usize {
        match self {
            Cond::Lit(_) | Cond::Runs(_) => 1,
            Cond::Not(c) => 1 + c.nodes(),
        }
    }

    fn rank(&self) -> usize {
        match self {
            Cond::Lit(_) => 0,
            Cond::Not(_) => 1,
            Cond::Runs(_) => 2,
        }
    }
}

impl Simpler for Cond {
    fn simpler(&self, other: &Self) -> bool {
        let (a, b) = ((self.nodes(), self.rank()), (other.nodes(), other.rank()));
        a < b
            || (a == b
                && match (self, other) {
                    (Cond::Lit(x), Cond::Lit(y)) => x.simpler(y),
                    (Cond::Not(x), Cond::Not(y)) => x.simpler(y),
                    (Cond::Runs(x), Cond::Runs(y)) => x.simpler(y),
                    _ => false,
                })
    }
}

impl Job {
    fn nodes(&self) -> usize {
        match self {
            Job::Idle | Job::Run { .. } => 1,
            Job::Chain(a, b) => 1 + a.nodes() + b.nodes(),
        }
    }

    fn rank(&self) -> usize {
        match self {
            Job::Idle => 0,
            Job::Run { .. } => 1,
            Job::Chain(..) => 2,
        }
    }

    /// The invariants of the field generators, everywhere in the value.
    fn valid(&self) -> bool {
        match self {
            Job::Idle => true,
            Job::Run { threads, pins, .. } => {
                (1..=8).contains(threads) && pins.len() < 4 && pins.iter().all(|p| p < threads)
            }
            Job::Chain(a, b) => a.valid() && b.valid(),
        }
    }
}

impl Simpler for Job {
    /// `Run`'s fields are generated, so they never shrink: only `name`
    /// (a `String`: shorter, or as long and different) can.
    fn simpler(&self, other: &Self) -> bool {
        let (a, b) = ((self.nodes(), self.rank()), (other.nodes(), other.rank()));
        a < b
            || (a == b
                && match (self, other) {
                    (
                        Job::Run {
                            threads: t1,
                            pins: p1,
                            name: n1,
                        },
                        Job::Run {
                            threads: t2,
                            pins: p2,
                            name: n2,
                        },
                    ) => {
                        t1 == t2 && p1 == p2 && n1 != n2 && n1.chars().count() <= n2.chars().count()
                    }
                    (Job::Chain(x1, x2), Job::Chain(y1, y2)) => {
                        fieldwise(&[pair(x1, y1), pair(x2, y2)])
                    }
                    _ => false,
                })
    }
}

impl Tree<u8, bool> {
    fn nodes(&self) -> usize {
        match self {
            Tree::Leaf => 1,
            Tree::Node { left, right, .. } => 1 + left.nodes() + right.nodes(),
        }
    }
}

impl Simpler for Tree<u8, bool> {
    fn simpler(&self, other: &Self) -> bool {
        let rank = |t: &Self| matches!(t, Tree::Node { .. }) as usize;
        let (a, b) = ((self.nodes(), rank(self)), (other.nodes(), rank(other)));
        a < b
            || (a == b
                && match (self, other) {
                    (
                        Tree::Node {
                            left: l1,
                            key: k1,
                            value: v1,
                            right: r1,
                        },
                        Tree::Node {
                            left: l2,
                            key: k2,
                            value: v2,
                            right: r2,
                        },
                    ) => fieldwise(&[pair(l1, l2), pair(k1, k2), pair(v1, v2), pair(r1, r2)]),
                    _ => false,
                })
    }
}

/// Every candidate is strictly simpler; the first failure, printed.
fn all_simpler<T: Shrink + Simpler + Debug>(x: &T) -> Result<(), String> {
    match x.shrink().find(|c| !c.simpler(x)) {
        None => Ok(()),
        Some(c) => Err(format!("{c:?} is not simpler than {x:?}")),
    }
}

// --------------------------------------------------------------- shrinking

#[test]
fn shrink_candidates_of_expressions_are_strictly_simpler() {
    let prop = property! {
        forall e: Expr;
        check all_simpler(e)
    };
    let report = generational(&prop, config());
    assert!(report.passed(), "{report}");
}

#[test]
fn shrink_candidates_of_mutually_recursive_values_are_strictly_simpler() {
    let prop = property! {
        forall s: Stmt;
        forall c: Cond;
        check all_simpler(s).and_then(|()| all_simpler(c))
    };
    let report = generational(&prop, config());
    assert!(report.passed(), "{report}");
}

#[test]
fn shrink_candidates_of_generic_trees_are_strictly_simpler() {
    let prop = property! {
        forall t: Tree<u8, bool>;
        check all_simpler(t)
    };
    let report = generational(&prop, config());
    assert!(report.passed(), "{report}");
}

#[test]
fn shrink_candidates_keep_the_generators_invariants() {
    let prop = property! {
        forall j: Job;
        check {
            let cands: Vec<Job> = j.shrink().collect();
            match cands.iter().find(|c| !c.valid() || !c.simpler(j)) {
                None => Ok(()),
                Some(c) => Err(format!("{c:?} from {j:?}")),
            }
        }
    };
    let report = generational(&prop, config());
    assert!(report.passed(), "{report}");
}

// ---------------------------------------------------------------- mutation

#[test]
fn mutants_of_derived_values_are_valid_and_differ() {
    let prop = property! {
        forall e: Expr;
        forall j: Job, #[gen = any::<Job>()];
        forall s: Stmt;
        forall t: Tree<u8, bool>;
        forall seed: u64;
        forall size: usize, #[gen = int(0..=40usize)];
        check {
            let mut rng = Rng::from_seed(seed);
            let (e2, j2) = (e.mutate(&mut rng, size), j.mutate(&mut rng, size));
            let (s2, t2) = (s.mutate(&mut rng, size), t.mutate(&mut rng, size));
            e2 != *e && j2 != *j && j2.valid() && s2 != *s && t2 != *t
        }
    };
    let report = generational(&prop, config());
    assert!(report.passed(), "{report}");
}

/// Chains of mutations stay valid (a fuzzer mutates its mutants).
#[test]
fn chains_of_mutants_stay_valid() {
    let prop = property! {
        forall seed: u64;
        check {
            let mut rng = Rng::from_seed(seed);
            let mut j = Job::arbitrary(&mut rng, 10);
            (0..50).all(|_| {
                let next = j.mutate(&mut rng, 10);
                let ok = next != j && next.valid();
                j = next;
                ok
            })
        }
    };
    let report = generational(&prop, config().cases(100));
    assert!(report.passed(), "{report}");
}

macro_rules! std_mutants_differ {
    ($name:ident: $($t:ty),+ $(,)?) => {
        #[test]
        fn $name() {
            let prop = property! {
                forall seed: u64;
                forall size: usize, #[gen = int(0..=30usize)];
                check {
                    let mut rng = Rng::from_seed(seed);
                    let mut failures = Vec::new();
                    $(
                        for _ in 0..5 {
                            let x = <$t>::arbitrary(&mut rng, size);
                            let m = x.mutate(&mut rng, size);
                            if m == x {
                                failures.push(format!("{}: {x:?} -> {m:?}", stringify!($t)));
                            }
                        }
                    )+
                    failures.is_empty().then_some(()).ok_or(failures.join("; "))
                }
            };
            let report = generational(&prop, config().cases(200));
            assert!(report.passed(), "{report}");
        }
    };
}

std_mutants_differ!(integer_mutants_differ: u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);
std_mutants_differ!(scalar_mutants_differ: bool, char, Duration);
std_mutants_differ!(collection_mutants_differ:
    String, Vec<u8>, Vec<bool>, VecDeque<i16>, LinkedList<u8>,
    BTreeSet<u8>, HashSet<bool>, BTreeMap<u8, bool>, HashMap<bool, u8>,
);
std_mutants_differ!(wrapper_mutants_differ:
    Option<u8>, Option<bool>, Result<u8, bool>, Box<i32>, std::rc::Rc<u8>, std::sync::Arc<u8>,
    (u8,), (bool, u8, char), [u8; 3], [bool; 1], Option<Vec<Option<u8>>>,
);

#[test]
fn float_mutants_differ_as_bit_patterns() {
    let prop = property! {
        forall x: f64;
        forall y: f32;
        forall seed: u64;
        check {
            let mut rng = Rng::from_seed(seed);
            x.mutate(&mut rng, 10).to_bits() != x.to_bits() && y.mutate(&mut rng, 10).to_bits() != y.to_bits()
        }
    };
    let report = generational(&prop, config());
    assert!(report.passed(), "{report}");
}

#[test]
fn set_mutants_differ_even_when_fresh_values_collide() {
    // A set of bools has four values; inserting a fresh bool often collides.
    let mut rng = Rng::from_seed(1);
    for _ in 0..2000 {
        let x = <HashSet<bool>>::arbitrary(&mut rng, 3);
        assert_ne!(x.mutate(&mut rng, 3), x);
        let m = <BTreeMap<bool, bool>>::arbitrary(&mut rng, 3);
        assert_ne!(m.mutate(&mut rng, 3), m);
    }
}

// ------------------------------------------------------------- generation

#[derive(Clone, Debug, PartialEq, Arbitrary)]
struct Window {
    #[pbt(gen = int(-50..50i32))]
    start: i32,
    #[pbt(gen = int(start..=start + 20))]
    end: i32,
    #[pbt(gen = { let n = int(0..=3usize); vec(int(start..=end), n..=n) })]
    marks: Vec<i32>,
    #[pbt(gen = frequency[1 => just(None), 3 => map(int(1..=9u8), Some)])]
    step: Option<u8>,
    #[pbt(gen = filter(int(0..100u16), |x| x % 2 == 0))]
    even: u16,
}

#[test]
fn generators_respect_their_gen_ranges() {
    let prop = property! {
        forall w: Window;
        forall j: Job;
        check {
            (-50..50).contains(&w.start)
                && (w.start..=w.start + 20).contains(&w.end)
                && w.marks.len() <= 3
                && w.marks.iter().all(|m| (w.start..=w.end).contains(m))
                && w.step.is_none_or(|s| (1..=9).contains(&s))
                && w.even % 2 == 0 && w.even < 100
                && j.valid()
        }
    };
    let report = generational(&prop, config());
    assert!(report.passed(), "{report}");
}

// ------------------------------------------------------- constructor view

#[test]
fn the_constructor_view_counts_every_node_with_its_parent() {
    let prop = property! {
        forall e: Expr;
        check {
            let mut out = Vec::new();
            e.constructors(&mut out);
            out.len() == e.nodes()
                && out[0].parent.is_none()
                && out[1..].iter().all(|c| matches!(c.parent, Some("Expr::Neg" | "Expr::Add" | "Expr::Mul")))
        }
    };
    let report = generational(&prop, config());
    assert!(report.passed(), "{report}");
}

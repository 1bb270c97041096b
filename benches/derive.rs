//! Derived generators: `#[derive(pbt::Arbitrary)]` vs proptest-derive vs a
//! hand-written quickcheck `Arbitrary`, all in one process.
//!
//! `cargo bench --bench derive` (options: `-- --rounds R --millis M`).
//!
//! Two shapes, each generated three ways:
//!
//! - a recursive `Expr` (literals, variables, negation, sum, product) at
//!   size 30. pbt: the derived generator (one draw and an `if` ladder per
//!   node, children at half the size). proptest: proptest-derive cannot
//!   derive a recursive type (its strategy would recurse forever while being
//!   built), so it derives the leaves (`#[proptest(skip)]` on the recursive
//!   variants) and `prop_recursive` adds the rest — proptest's documented
//!   idiom. quickcheck: the same distribution as pbt's, written by hand.
//! - a 6-field `Record` (integers, a float, a bool, a `String`, a `Vec<u8>`
//!   and an `Option`), derived by pbt and proptest-derive with their
//!   defaults, and written by hand for quickcheck (size 30 for pbt and
//!   quickcheck).
//!
//! The table reports the median ns/value over `R` interleaved rounds of
//! about `M` ms each, the mean "bulk" of a value (nodes of an `Expr`;
//! characters plus bytes of a `Record`) so that the workloads can be
//! compared, and the ratios proptest/pbt and quickcheck/pbt, per value and
//! per unit of bulk.

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use std::hint::black_box;
use std::time::Instant;

// ---------------------------------------------------------------- values

#[derive(Clone, Debug, pbt::Arbitrary, proptest_derive::Arbitrary)]
enum Expr {
    Lit(i64),
    Var(u8),
    #[proptest(skip)]
    Neg(Box<Expr>),
    #[proptest(skip)]
    #[pbt(weight = 2)]
    Add(Box<Expr>, Box<Expr>),
    #[proptest(skip)]
    Mul(Box<Expr>, Box<Expr>),
}

impl Expr {
    fn nodes(&self) -> usize {
        match self {
            Expr::Lit(_) | Expr::Var(_) => 1,
            Expr::Neg(e) => 1 + e.nodes(),
            Expr::Add(a, b) | Expr::Mul(a, b) => 1 + a.nodes() + b.nodes(),
        }
    }
}

#[derive(Clone, Debug, pbt::Arbitrary, proptest_derive::Arbitrary)]
struct Record {
    id: u64,
    name: String,
    score: f64,
    active: bool,
    tags: Vec<u8>,
    parent: Option<u32>,
}

impl Record {
    fn bulk(&self) -> usize {
        self.name.chars().count() + self.tags.len()
    }
}

const SIZE: usize = 30;

// ------------------------------------------------------------ quickcheck

/// The distribution of the derived `Expr` generator, by hand: leaves weigh
/// 1 each, `Neg` and `Mul` `size`, `Add` `2 * size`; children at half size.
fn qc_expr(g: &mut quickcheck::Gen, size: u64) -> Expr {
    use quickcheck::Arbitrary;
    let r = u64::arbitrary(g) % (2 + 4 * size);
    if r < 1 {
        Expr::Lit(i64::arbitrary(g))
    } else if r < 2 {
        Expr::Var(u8::arbitrary(g))
    } else if r < 2 + size {
        Expr::Neg(Box::new(qc_expr(g, size / 2)))
    } else if r < 2 + 3 * size {
        Expr::Add(
            Box::new(qc_expr(g, size / 2)),
            Box::new(qc_expr(g, size / 2)),
        )
    } else {
        Expr::Mul(
            Box::new(qc_expr(g, size / 2)),
            Box::new(qc_expr(g, size / 2)),
        )
    }
}

impl quickcheck::Arbitrary for Expr {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        qc_expr(g, g.size() as u64)
    }
}

impl quickcheck::Arbitrary for Record {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        Record {
            id: u64::arbitrary(g),
            name: String::arbitrary(g),
            score: f64::arbitrary(g),
            active: bool::arbitrary(g),
            tags: Vec::arbitrary(g),
            parent: Option::arbitrary(g),
        }
    }
}

// -------------------------------------------------------------- proptest

/// proptest-derive's leaves, grown by `prop_recursive` (depth 10, about 320
/// nodes, 2 children per branch) into every variant; the parameters give a
/// mean size near pbt's at size 30.
fn pt_expr() -> impl Strategy<Value = Expr> {
    use proptest::prelude::*;
    any::<Expr>().prop_recursive(10, 320, 2, |inner| {
        prop_oneof![
            1 => inner.clone().prop_map(|e| Expr::Neg(Box::new(e))),
            2 => (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Add(Box::new(a), Box::new(b))),
            1 => (inner.clone(), inner).prop_map(|(a, b)| Expr::Mul(Box::new(a), Box::new(b))),
        ]
    })
}

fn pt_sample<S: Strategy>(s: &S, runner: &mut TestRunner) -> S::Value {
    s.new_tree(runner).expect("proptest generates").current()
}

// ---------------------------------------------------------------- harness

/// One generated value: its bulk, so that nothing is optimised away.
type Sampler = Box<dyn FnMut() -> usize>;

fn pbt_expr() -> Sampler {
    let mut rng = pbt::Rng::from_seed(7);
    Box::new(move || black_box(<Expr as pbt::Arbitrary>::arbitrary(&mut rng, SIZE)).nodes())
}

fn pbt_record() -> Sampler {
    let mut rng = pbt::Rng::from_seed(7);
    Box::new(move || black_box(<Record as pbt::Arbitrary>::arbitrary(&mut rng, SIZE)).bulk())
}

fn shapes() -> Vec<(&'static str, Vec<(&'static str, Sampler)>)> {
    vec![
        (
            "recursive Expr, size 30",
            vec![
                ("pbt", pbt_expr()),
                ("proptest", {
                    let mut r = TestRunner::deterministic();
                    let s = pt_expr();
                    Box::new(move || black_box(pt_sample(&s, &mut r)).nodes())
                }),
                ("quickcheck", {
                    let mut g = quickcheck::Gen::new(SIZE);
                    Box::new(move || {
                        black_box(<Expr as quickcheck::Arbitrary>::arbitrary(&mut g)).nodes()
                    })
                }),
            ],
        ),
        (
            "6-field Record",
            vec![
                ("pbt", pbt_record()),
                ("proptest", {
                    let mut r = TestRunner::deterministic();
                    let s = proptest::arbitrary::any::<Record>();
                    Box::new(move || black_box(pt_sample(&s, &mut r)).bulk())
                }),
                ("quickcheck", {
                    let mut g = quickcheck::Gen::new(SIZE);
                    Box::new(move || {
                        black_box(<Record as quickcheck::Arbitrary>::arbitrary(&mut g)).bulk()
                    })
                }),
            ],
        ),
    ]
}

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// ns per value and mean bulk of one batch of `n` values.
fn time_batch(sample: &mut Sampler, n: u64) -> (f64, f64) {
    let start = Instant::now();
    let mut bulk = 0usize;
    for _ in 0..n {
        bulk += sample();
    }
    let ns = start.elapsed().as_nanos() as f64 / n as f64;
    (ns, bulk as f64 / n as f64)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let rounds = arg("--rounds", 15) as usize;
    let millis = arg("--millis", 20) as f64;
    println!("ns per value, median of {rounds} rounds of ~{millis} ms each (lower is better); bulk = mean nodes or chars+bytes per value\n");
    println!(
        "{:<26} {:>8} {:>9} {:>10} {:>9} {:>8} {:>8} {:>13} {:>15} {:>14} {:>14}",
        "shape",
        "pbt",
        "proptest",
        "quickcheck",
        "bulk pbt",
        "bulk pt",
        "bulk qc",
        "proptest/pbt",
        "quickcheck/pbt",
        "pt/pbt per bulk",
        "qc/pbt per bulk"
    );
    for (name, mut samplers) in shapes() {
        // Calibrate a batch size per implementation, then interleave rounds.
        let batches: Vec<u64> = samplers
            .iter_mut()
            .map(|(_, s)| {
                let (ns, _) = time_batch(s, 1000);
                ((millis * 1e6 / ns.max(0.1)) as u64).max(10)
            })
            .collect();
        let mut times: Vec<Vec<f64>> = vec![Vec::new(); samplers.len()];
        let mut bulks: Vec<Vec<f64>> = vec![Vec::new(); samplers.len()];
        for _ in 0..rounds {
            for (i, (_, s)) in samplers.iter_mut().enumerate() {
                let (ns, bulk) = time_batch(s, batches[i]);
                times[i].push(ns);
                bulks[i].push(bulk);
            }
        }
        let ns: Vec<f64> = times.into_iter().map(median).collect();
        let bulk: Vec<f64> = bulks.into_iter().map(median).collect();
        let per = |i: usize| (ns[i] / bulk[i]) / (ns[0] / bulk[0]);
        println!(
            "{:<26} {:>8.1} {:>9.1} {:>10.1} {:>9.1} {:>8.1} {:>8.1} {:>13.1} {:>15.2} {:>14.1} {:>14.2}",
            name,
            ns[0],
            ns[1],
            ns[2],
            bulk[0],
            bulk[1],
            bulk[2],
            ns[1] / ns[0],
            ns[2] / ns[0],
            per(1),
            per(2)
        );
    }
}

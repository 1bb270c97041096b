//! Generator speed: staged pbt vs runtime pbt combinators vs hand-inlined
//! xoshiro vs proptest vs quickcheck, all in one process.
//!
//! `cargo bench --bench generators` (options: `-- --rounds R --millis M`,
//! and `--only TEXT` / `--impl NAME` to time only the shapes whose name
//! contains `TEXT` / only one implementation; `--values N` generates `N`
//! values of each selected implementation untimed and prints no table, for
//! `valgrind --tool=callgrind`, under which the CPU clock is unavailable).
//!
//! Every implementation of a shape generates the same distribution (pbt's
//! staged, runtime and hand-inlined versions the very same values from the
//! same seed; proptest and quickcheck their own idiom for it). For each, a
//! round times a batch of values taking about `M` ms; the table reports the
//! median ns/value over `R` rounds, then staged/hand-inlined and
//! proptest/staged. Rounds of all implementations are interleaved so that
//! machine noise spreads over all of them, and timed with the thread's CPU
//! clock (`benches/common/cpu_clock.rs`), which does not count the time
//! other processes on a shared machine hold the CPU.

#[path = "common/cpu_clock.rs"]
mod cpu_clock;

use pbt::generators::{self as gen, Gen, Weight};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use quickcheck::Arbitrary as _;
use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;

// ---------------------------------------------------------------- values

#[derive(Clone, Debug, PartialEq)]
enum Tree {
    Leaf,
    Node(Box<Tree>, Box<Tree>),
}

fn node((l, r): (Tree, Tree)) -> Tree {
    Tree::Node(Box::new(l), Box::new(r))
}

#[derive(Clone, Debug, PartialEq)]
enum Term {
    Var(u8),
    Lam(Box<Term>),
    App(Box<Term>, Box<Term>),
}

fn lam(b: Term) -> Term {
    Term::Lam(Box::new(b))
}

fn app((f, a): (Term, Term)) -> Term {
    Term::App(Box::new(f), Box::new(a))
}

// ------------------------------------------------------- hand-inlined code

/// xoshiro256++ and Lemire's bounded draw, written out: the limit staging aims at.
struct Hand(Xoshiro256PlusPlus);

impl Hand {
    fn new(seed: u64) -> Self {
        Hand(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    #[inline(always)]
    fn below_or_eq(&mut self, max: u64) -> u64 {
        let Some(range) = max.checked_add(1) else {
            return self.0.next_u64();
        };
        let mut m = u128::from(self.0.next_u64()) * u128::from(range);
        if (m as u64) < range {
            let t = range.wrapping_neg() % range;
            while (m as u64) < t {
                m = u128::from(self.0.next_u64()) * u128::from(range);
            }
        }
        (m >> 64) as u64
    }

    fn tree(&mut self, size: usize) -> Tree {
        let total = 1 + size as u64;
        if self.below_or_eq(total - 1) < 1 {
            Tree::Leaf
        } else {
            let l = self.tree(size / 2);
            let r = self.tree(size / 2);
            node((l, r))
        }
    }

    fn term(&mut self, size: usize) -> Term {
        let n = size as u64;
        let r = self.below_or_eq(2 + 2 * n - 1);
        if r < 2 {
            Term::Var(self.below_or_eq(3) as u8)
        } else if r < 2 + n {
            lam(self.term(size / 2))
        } else {
            let f = self.term(size / 2);
            let a = self.term(size / 2);
            app((f, a))
        }
    }
}

// ------------------------------------------------------------ quickcheck

fn qc_below(g: &mut quickcheck::Gen, n: u64) -> u64 {
    u64::arbitrary(g) % n
}

fn qc_tree(g: &mut quickcheck::Gen, size: u64) -> Tree {
    if qc_below(g, 1 + size) < 1 {
        Tree::Leaf
    } else {
        node((qc_tree(g, size / 2), qc_tree(g, size / 2)))
    }
}

fn qc_term(g: &mut quickcheck::Gen, size: u64) -> Term {
    let r = qc_below(g, 2 + 2 * size);
    if r < 2 {
        Term::Var(qc_below(g, 4) as u8)
    } else if r < 2 + size {
        lam(qc_term(g, size / 2))
    } else {
        app((qc_term(g, size / 2), qc_term(g, size / 2)))
    }
}

// -------------------------------------------------------------- proptest

fn pt_tree(size: u32) -> proptest::strategy::BoxedStrategy<Tree> {
    use proptest::prelude::*;
    let leaf = Just(Tree::Leaf);
    if size == 0 {
        return leaf.boxed();
    }
    prop_oneof![1 => leaf, size => (pt_tree(size / 2), pt_tree(size / 2)).prop_map(node)].boxed()
}

fn pt_term(size: u32) -> proptest::strategy::BoxedStrategy<Term> {
    use proptest::prelude::*;
    let var = (0..4u8).prop_map(Term::Var);
    if size == 0 {
        return var.boxed();
    }
    prop_oneof![
        2 => var,
        size => pt_term(size / 2).prop_map(lam),
        size => (pt_term(size / 2), pt_term(size / 2)).prop_map(app),
    ]
    .boxed()
}

fn pt_sample<S: Strategy>(s: &S, runner: &mut TestRunner) -> S::Value {
    s.new_tree(runner).expect("proptest generates").current()
}

// ---------------------------------------------------------------- harness

/// Generates `n` values and folds their weights: one dynamic call per batch,
/// so the loop around each implementation is monomorphic.
type Sampler = Box<dyn FnMut(u64) -> u64>;

/// A value's "weight", so no generation is optimised away.
trait Touch {
    fn touch(&self) -> u64;
}
impl Touch for i64 {
    fn touch(&self) -> u64 {
        *self as u64
    }
}
impl Touch for f64 {
    fn touch(&self) -> u64 {
        self.to_bits()
    }
}
impl Touch for u64 {
    fn touch(&self) -> u64 {
        *self
    }
}
impl Touch for (u64, u64) {
    fn touch(&self) -> u64 {
        self.0 ^ self.1
    }
}
impl Touch for Vec<i64> {
    fn touch(&self) -> u64 {
        self.len() as u64
    }
}
impl Touch for Tree {
    fn touch(&self) -> u64 {
        matches!(self, Tree::Node(..)) as u64
    }
}
impl Touch for Term {
    fn touch(&self) -> u64 {
        matches!(self, Term::App(..)) as u64
    }
}

fn pbt_sampler<G>(g: G, size: usize) -> Sampler
where
    G: Gen + 'static,
    G::Value: Touch,
{
    let mut rng = pbt::Rng::from_seed(7);
    batch(move || g.generate(&mut rng, size).expect("generates"))
}

/// A sampler that calls `one` `n` times per batch.
fn batch<T: Touch>(mut one: impl FnMut() -> T + 'static) -> Sampler {
    Box::new(move |n| {
        let mut acc = 0u64;
        for _ in 0..n {
            acc = acc.wrapping_add(black_box(one()).touch());
        }
        acc
    })
}

/// One shape: a name and its five implementations (None where not written).
struct Shape {
    name: &'static str,
    samplers: Vec<(&'static str, Sampler)>,
}

fn shapes() -> Vec<Shape> {
    const TREE_SIZE: usize = 30;
    const TERM_SIZE: usize = 30;
    vec![
        Shape {
            name: "single i64",
            samplers: vec![
                (
                    "staged",
                    pbt_sampler(pbt::generator!(int(-1_000_000..1_000_000i64)), 0),
                ),
                (
                    "runtime",
                    pbt_sampler(gen::int(-1_000_000..1_000_000i64), 0),
                ),
                ("hand-inlined", {
                    let mut h = Hand::new(7);
                    batch(move || {
                        // The same zero-first values as pbt's int over
                        // -1e6..1e6 (`0, 1, -1, …, 999_999, -999_999`,
                        // then `-1_000_000` last), as fast as we could
                        // write them: a zigzag decode without branches,
                        // and a conditional move for the last choice.
                        hand_zero_first(h.below_or_eq(1_999_999))
                    })
                }),
                ("proptest", {
                    let mut r = TestRunner::deterministic();
                    let s = -1_000_000..1_000_000i64;
                    batch(move || pt_sample(&s, &mut r))
                }),
                ("quickcheck", {
                    let mut g = quickcheck::Gen::new(100);
                    batch(move || qc_below(&mut g, 2_000_000) as i64 - 1_000_000)
                }),
            ],
        },
        Shape {
            name: "single u64",
            samplers: vec![
                (
                    "staged",
                    pbt_sampler(pbt::generator!(int(0..2_000_000u64)), 0),
                ),
                ("runtime", pbt_sampler(gen::int(0..2_000_000u64), 0)),
                ("hand-inlined", {
                    let mut h = Hand::new(7);
                    batch(move || h.below_or_eq(1_999_999))
                }),
                ("proptest", {
                    let mut r = TestRunner::deterministic();
                    let s = 0..2_000_000u64;
                    batch(move || pt_sample(&s, &mut r))
                }),
                ("quickcheck", {
                    let mut g = quickcheck::Gen::new(100);
                    batch(move || qc_below(&mut g, 2_000_000))
                }),
            ],
        },
        Shape {
            name: "dependent pair x<1000, y<=x",
            samplers: vec![
                (
                    "staged",
                    pbt_sampler(
                        pbt::generator!({
                            let x = int(0..1000u64);
                            let y = int(0..=x);
                            (x, y)
                        }),
                        0,
                    ),
                ),
                (
                    "runtime",
                    pbt_sampler(
                        gen::bind(gen::int(0..1000u64), |x| {
                            gen::int(0..=x).map(move |y| (x, y))
                        }),
                        0,
                    ),
                ),
                ("hand-inlined", {
                    let mut h = Hand::new(7);
                    batch(move || {
                        let x = h.below_or_eq(999);
                        let y = h.below_or_eq(x);
                        (x, y)
                    })
                }),
                ("proptest", {
                    use proptest::prelude::*;
                    let mut r = TestRunner::deterministic();
                    let s = (0..1000u64).prop_flat_map(|x| (Just(x), 0..=x));
                    batch(move || pt_sample(&s, &mut r))
                }),
                ("quickcheck", {
                    let mut g = quickcheck::Gen::new(100);
                    batch(move || {
                        let x = qc_below(&mut g, 1000);
                        let y = qc_below(&mut g, x + 1);
                        (x, y)
                    })
                }),
            ],
        },
        Shape {
            name: "Vec<i64> len 0..100",
            samplers: vec![
                (
                    "staged",
                    pbt_sampler(pbt::generator!(vec(int(0..1_000_000i64), 0..100)), 0),
                ),
                (
                    "runtime",
                    pbt_sampler(gen::vec(gen::int(0..1_000_000i64), 0..100), 0),
                ),
                ("hand-inlined", {
                    let mut h = Hand::new(7);
                    batch(move || {
                        let n = h.below_or_eq(99) as usize;
                        let mut v = Vec::with_capacity(n);
                        for _ in 0..n {
                            v.push(h.below_or_eq(999_999) as i64);
                        }
                        v
                    })
                }),
                ("proptest", {
                    let mut r = TestRunner::deterministic();
                    let s = proptest::collection::vec(0..1_000_000i64, 0..100);
                    batch(move || pt_sample(&s, &mut r))
                }),
                ("quickcheck", {
                    let mut g = quickcheck::Gen::new(100);
                    batch(move || {
                        let n = qc_below(&mut g, 100) as usize;
                        let v: Vec<i64> =
                            (0..n).map(|_| qc_below(&mut g, 1_000_000) as i64).collect();
                        v
                    })
                }),
            ],
        },
        Shape {
            name: "Vec<i64> via map, len 0..100, in ±1e6",
            samplers: vec![
                (
                    "staged",
                    pbt_sampler(
                        pbt::generator!(map(vec(int(-1_000_000..1_000_000i64), 0..100), |v| v)),
                        0,
                    ),
                ),
                (
                    "runtime",
                    pbt_sampler(
                        gen::vec(gen::int(-1_000_000..1_000_000i64), 0..100).map(|v| v),
                        0,
                    ),
                ),
                ("hand-inlined", {
                    let mut h = Hand::new(7);
                    batch(move || {
                        let n = h.below_or_eq(99) as usize;
                        let mut v = Vec::with_capacity(n);
                        for _ in 0..n {
                            v.push(hand_zero_first(h.below_or_eq(1_999_999)));
                        }
                        v
                    })
                }),
                ("proptest", {
                    use proptest::prelude::*;
                    let mut r = TestRunner::deterministic();
                    let s =
                        proptest::collection::vec(-1_000_000..1_000_000i64, 0..100).prop_map(|v| v);
                    batch(move || pt_sample(&s, &mut r))
                }),
                ("quickcheck", {
                    let mut g = quickcheck::Gen::new(100);
                    batch(move || {
                        let n = qc_below(&mut g, 100) as usize;
                        let v: Vec<i64> = (0..n)
                            .map(|_| qc_below(&mut g, 2_000_000) as i64 - 1_000_000)
                            .collect();
                        v
                    })
                }),
            ],
        },
        Shape {
            name: "binary tree, leaf 1 : node size, size 30",
            samplers: vec![
                (
                    "staged",
                    pbt_sampler(
                        pbt::generator!(recursive::<Tree>(|rec| frequency[1 => just(Tree::Leaf), size => map((rec, rec), node)])),
                        TREE_SIZE,
                    ),
                ),
                (
                    "runtime",
                    pbt_sampler(
                        gen::recursive(|rec| {
                            gen::frequency(vec![
                                (Weight::Fixed(1), gen::just(Tree::Leaf).boxed()),
                                (Weight::Size, (rec.clone(), rec).map(node).boxed()),
                            ])
                        }),
                        TREE_SIZE,
                    ),
                ),
                ("hand-inlined", {
                    let mut h = Hand::new(7);
                    batch(move || h.tree(TREE_SIZE))
                }),
                ("proptest", {
                    let mut r = TestRunner::deterministic();
                    let s = pt_tree(TREE_SIZE as u32);
                    batch(move || pt_sample(&s, &mut r))
                }),
                ("quickcheck", {
                    let mut g = quickcheck::Gen::new(100);
                    batch(move || qc_tree(&mut g, TREE_SIZE as u64))
                }),
            ],
        },
        Shape {
            name: "let-chain of five dependent draws",
            samplers: vec![
                (
                    "staged",
                    pbt_sampler(
                        pbt::generator!({
                            let a = int(0..100u64);
                            let b = int(a..=a + 100);
                            let c = int(0..=b);
                            let d = int(c..=c + 10);
                            let e = int(0..=d);
                            a ^ b ^ c ^ d ^ e
                        }),
                        0,
                    ),
                ),
                (
                    "runtime",
                    pbt_sampler(
                        gen::bind(gen::int(0..100u64), |a| {
                            gen::bind(gen::int(a..=a + 100), move |b| {
                                gen::bind(gen::int(0..=b), move |c| {
                                    gen::bind(gen::int(c..=c + 10), move |d| {
                                        gen::int(0..=d).map(move |e| a ^ b ^ c ^ d ^ e)
                                    })
                                })
                            })
                        }),
                        0,
                    ),
                ),
                ("hand-inlined", {
                    let mut h = Hand::new(7);
                    batch(move || {
                        let a = h.below_or_eq(99);
                        let b = a + h.below_or_eq(100);
                        let c = h.below_or_eq(b);
                        let d = c + h.below_or_eq(10);
                        let e = h.below_or_eq(d);
                        a ^ b ^ c ^ d ^ e
                    })
                }),
                ("proptest", {
                    use proptest::prelude::*;
                    let mut r = TestRunner::deterministic();
                    let s = (0..100u64)
                        .prop_flat_map(|a| (Just(a), a..=a + 100))
                        .prop_flat_map(|(a, b)| (Just((a, b)), 0..=b))
                        .prop_flat_map(|((a, b), c)| (Just((a, b, c)), c..=c + 10))
                        .prop_flat_map(|((a, b, c), d)| {
                            (0..=d).prop_map(move |e| a ^ b ^ c ^ d ^ e)
                        });
                    batch(move || pt_sample(&s, &mut r))
                }),
                ("quickcheck", {
                    let mut g = quickcheck::Gen::new(100);
                    batch(move || {
                        let a = qc_below(&mut g, 100);
                        let b = a + qc_below(&mut g, 101);
                        let c = qc_below(&mut g, b + 1);
                        let d = c + qc_below(&mut g, 11);
                        let e = qc_below(&mut g, d + 1);
                        a ^ b ^ c ^ d ^ e
                    })
                }),
            ],
        },
        Shape {
            name: "STLC-like terms (Var/Lam/App), size 30",
            samplers: vec![
                (
                    "staged",
                    pbt_sampler(
                        pbt::generator!(recursive::<Term>(|rec| frequency[
                            2 => map(int(0..4u8), Term::Var),
                            size => map(rec, lam),
                            size => map((rec, rec), app)
                        ])),
                        TERM_SIZE,
                    ),
                ),
                (
                    "runtime",
                    pbt_sampler(
                        gen::recursive(|rec| {
                            gen::frequency(vec![
                                (Weight::Fixed(2), gen::int(0..4u8).map(Term::Var).boxed()),
                                (Weight::Size, rec.clone().map(lam).boxed()),
                                (Weight::Size, (rec.clone(), rec).map(app).boxed()),
                            ])
                        }),
                        TERM_SIZE,
                    ),
                ),
                ("hand-inlined", {
                    let mut h = Hand::new(7);
                    batch(move || h.term(TERM_SIZE))
                }),
                ("proptest", {
                    let mut r = TestRunner::deterministic();
                    let s = pt_term(TERM_SIZE as u32);
                    batch(move || pt_sample(&s, &mut r))
                }),
                ("quickcheck", {
                    let mut g = quickcheck::Gen::new(100);
                    batch(move || qc_term(&mut g, TERM_SIZE as u64))
                }),
            ],
        },
        Shape {
            name: "i64 (type-based, size 30)",
            samplers: vec![
                ("staged", pbt_sampler(pbt::generator!(any::<i64>()), 30)),
                ("runtime", pbt_sampler(gen::any::<i64>(), 30)),
                ("proptest", {
                    let mut r = TestRunner::deterministic();
                    let s = proptest::num::i64::ANY;
                    batch(move || pt_sample(&s, &mut r))
                }),
                ("quickcheck", {
                    let mut g = quickcheck::Gen::new(30);
                    batch(move || i64::arbitrary(&mut g))
                }),
            ],
        },
        Shape {
            name: "Vec<i64> (type-based, size 30)",
            samplers: vec![
                (
                    "staged",
                    pbt_sampler(pbt::generator!(any::<Vec<i64>>()), 30),
                ),
                ("runtime", pbt_sampler(gen::any::<Vec<i64>>(), 30)),
                ("proptest", {
                    let mut r = TestRunner::deterministic();
                    let s = proptest::collection::vec(proptest::num::i64::ANY, 0..=30);
                    batch(move || pt_sample(&s, &mut r))
                }),
                ("quickcheck", {
                    let mut g = quickcheck::Gen::new(30);
                    batch(move || <Vec<i64>>::arbitrary(&mut g))
                }),
            ],
        },
        Shape {
            name: "f64 (type-based, size 30)",
            samplers: vec![
                ("staged", pbt_sampler(pbt::generator!(any::<f64>()), 30)),
                ("runtime", pbt_sampler(gen::any::<f64>(), 30)),
                ("proptest", {
                    let mut r = TestRunner::deterministic();
                    let s = proptest::num::f64::ANY;
                    batch(move || pt_sample(&s, &mut r))
                }),
                ("quickcheck", {
                    let mut g = quickcheck::Gen::new(30);
                    batch(move || f64::arbitrary(&mut g))
                }),
            ],
        },
    ]
}

fn arg(name: &str, default: u64) -> u64 {
    text_arg(name)
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name} takes a number, got {v:?}"))
        })
        .unwrap_or(default)
}

fn text_arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

/// ns per value of one batch of `n` values.
fn time_batch(sample: &mut Sampler, n: u64) -> f64 {
    let start = cpu_clock::now();
    black_box(sample(n));
    (cpu_clock::now() - start).as_nanos() as f64 / n as f64
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// pbt's value for choice `c` over `-1_000_000..1_000_000`, as the
/// hand-inlined columns compute it.
#[inline(always)]
fn hand_zero_first(c: u64) -> i64 {
    let zigzag = -(((c >> 1) as i64) ^ -((c & 1) as i64));
    if c == 1_999_999 {
        -1_000_000
    } else {
        zigzag
    }
}

/// The hand-inlined signed columns claim pbt's very values: check it on
/// every choice near the ends and a million random draws before timing.
fn check_hand_matches_pbt() {
    let g = gen::int(-1_000_000..1_000_000i64);
    let mut h = Hand::new(11);
    let mut rng = pbt::Rng::from_seed(11);
    for i in 0..1_000_000 {
        let pbt_value = g.generate(&mut rng, 0).expect("generates");
        assert_eq!(
            hand_zero_first(h.below_or_eq(1_999_999)),
            pbt_value,
            "draw {i}"
        );
    }
    for c in (0..1000).chain(1_999_000..2_000_000) {
        let replayed = g
            .generate(&mut pbt::choices::Replay::new(&[c]), 0)
            .expect("generates");
        assert_eq!(hand_zero_first(c), replayed, "choice {c}");
    }
}

fn main() {
    check_hand_matches_pbt();
    let rounds = arg("--rounds", 15) as usize;
    let millis = arg("--millis", 20) as f64;
    println!("ns per value, median of {rounds} rounds of ~{millis} ms each (lower is better)\n");
    println!(
        "{:<42} {:>9} {:>9} {:>9} {:>9} {:>10} {:>14} {:>15} {:>15}",
        "shape",
        "staged",
        "runtime",
        "hand",
        "proptest",
        "quickcheck",
        "staged/hand",
        "proptest/staged",
        "runtime/staged"
    );
    let only = text_arg("--only");
    let implementation = text_arg("--impl");
    for mut shape in shapes() {
        if only
            .as_ref()
            .is_some_and(|o| !shape.name.contains(o.as_str()))
        {
            continue;
        }
        if let Some(i) = &implementation {
            shape.samplers.retain(|(n, _)| n == i);
        }
        if let Some(n) = text_arg("--values") {
            let n = n.parse().expect("--values takes a number");
            for (_, s) in &mut shape.samplers {
                black_box(s(n));
            }
            continue;
        }
        // Calibrate a batch size per implementation, then interleave rounds.
        let batches: Vec<u64> = shape
            .samplers
            .iter_mut()
            .map(|(_, s)| {
                let ns = time_batch(s, 1000).max(0.1);
                ((millis * 1e6 / ns) as u64).max(10)
            })
            .collect();
        let mut times: Vec<Vec<f64>> = vec![Vec::new(); shape.samplers.len()];
        for _ in 0..rounds {
            for (i, (_, s)) in shape.samplers.iter_mut().enumerate() {
                times[i].push(time_batch(s, batches[i]));
            }
        }
        let med: Vec<f64> = times.into_iter().map(median).collect();
        let by = |name: &str| {
            shape
                .samplers
                .iter()
                .position(|(n, _)| *n == name)
                .map(|i| med[i])
                .unwrap_or(f64::NAN)
        };
        let (st, rt, hand, pt, qc) = (
            by("staged"),
            by("runtime"),
            by("hand-inlined"),
            by("proptest"),
            by("quickcheck"),
        );
        println!(
            "{:<42} {st:>9.1} {rt:>9.1} {hand:>9.1} {pt:>9.1} {qc:>10.1} {:>14.2} {:>15.1} {:>15.2}",
            shape.name,
            st / hand,
            pt / st,
            rt / st
        );
    }
}

//! Program equivalence (*Fail Faster* §1, §5): a generator staged by the macro
//! and its twin built from the runtime combinators make the same choices in
//! the same order and return the same value, from every seed and size.
//!
//! Each staged generator is checked on both of its copies: the fast one
//! (driven by `Rng`) and the `dyn Source` one (driven by a recorder, which
//! also gives the choice sequence to compare).

use pbt::choices::{Recorder, Replay};
use pbt::generators::{self as gen, Gen, Weight};
use pbt::prelude::*;
use pbt::runners::{generational, Regressions};
use pbt::Rng;
use std::fmt::Debug;

/// Same value from both, and the same choices, on seed `seed` at `size`.
fn agree<A, B>(staged: &A, runtime: &B, seed: u64, size: usize) -> Result<(), String>
where
    A: Gen,
    B: Gen<Value = A::Value>,
    A::Value: PartialEq + Debug,
{
    let fast = staged.generate(&mut Rng::from_seed(seed), size);
    let mut rec_s = Recorder::new(Rng::from_seed(seed));
    let slow = staged.generate(&mut rec_s, size);
    let mut rec_r = Recorder::new(Rng::from_seed(seed));
    let twin = runtime.generate(&mut rec_r, size);
    if fast != twin || slow != twin {
        return Err(format!(
            "values differ: staged {fast:?} / {slow:?}, runtime {twin:?}"
        ));
    }
    if rec_s.choices() != rec_r.choices() {
        return Err(format!(
            "choices differ: staged {:?}, runtime {:?}",
            rec_s.choices(),
            rec_r.choices()
        ));
    }
    // The same blocks (collections, elements, recursive layers) too: the
    // integrated shrinker's passes see the same structure either way.
    let (mut rep_s, mut rep_r) = (Replay::new(rec_s.choices()), Replay::new(rec_r.choices()));
    let (again_s, again_r) = (
        staged.generate(&mut rep_s, size),
        runtime.generate(&mut rep_r, size),
    );
    let (blocks_s, blocks_r) = (rep_s.into_replayed().blocks, rep_r.into_replayed().blocks);
    if again_s != twin || again_r != twin || blocks_s != blocks_r {
        return Err(format!(
            "replays differ: staged {again_s:?} in blocks {blocks_s:?}, runtime {again_r:?} in blocks {blocks_r:?}"
        ));
    }
    Ok(())
}

/// The blocks a replay of `choices` through `g` at `size` marks.
fn blocks_of<G: Gen>(g: &G, choices: &[u64], size: usize) -> Vec<pbt::choices::Block> {
    let mut replay = Replay::new(choices);
    g.generate(&mut replay, size).expect("generates");
    replay.into_replayed().blocks
}

#[test]
fn staged_vectors_and_recursion_mark_their_blocks() {
    use pbt::choices::Block;
    use pbt::source::BlockKind::{Collection, Element, Recursion};
    let v = pbt::generator!(vec(int(0..10u8), 0..=5));
    let b = |kind, start, end, parent| Block {
        kind,
        start,
        end,
        parent,
    };
    assert_eq!(
        blocks_of(&v, &[2, 7, 8], 10),
        vec![
            b(Collection, 0, 3, None),
            b(Element, 1, 2, Some(0)),
            b(Element, 2, 3, Some(0))
        ]
    );
    // A node (choice 1 at size 4: weights 1 and 4) with two leaves.
    let t = pbt::generator!(recursive::<Tree>(|rec| frequency[1 => map(int(0..10u8), Tree::Leaf), size => map((rec, rec), node)]));
    assert_eq!(
        blocks_of(&t, &[1, 0, 3, 0, 4], 4),
        vec![
            b(Recursion, 0, 5, None),
            b(Recursion, 1, 3, Some(0)),
            b(Recursion, 3, 5, Some(0))
        ]
    );
}

/// Check `agree` over random seeds and sizes with pbt itself.
macro_rules! equivalent {
    ($name:ident, $staged:expr, $runtime:expr) => {
        #[test]
        fn $name() {
            let staged = $staged;
            let runtime = $runtime;
            let prop = property! {
                forall seed: u64;
                forall size: usize, #[gen = int(0..=64usize)];
                check agree(&staged, &runtime, seed, size)
            };
            let report = generational(
                &prop,
                Config::default().cases(300).regressions(Regressions::Off),
            );
            assert!(report.passed(), "{report}");
        }
    };
}

equivalent!(
    single_int,
    pbt::generator!(int(0..1000i64)),
    gen::int(0..1000i64)
);

equivalent!(
    dependent_pair,
    pbt::generator!({
        let x = int(0..1000u32);
        let y = int(0..=x);
        (x, y)
    }),
    gen::bind(gen::int(0..1000u32), |x| gen::int(0..=x)
        .map(move |y| (x, y)))
);

equivalent!(
    vec_of_ints,
    pbt::generator!(vec(int(-100..100i64), 0..100)),
    gen::vec(gen::int(-100..100i64), 0..100)
);

equivalent!(
    map_over_vec,
    pbt::generator!(map(vec(int(0..10u8), 0..=size), |v| v.len())),
    gen::sized(|n| gen::vec(gen::int(0..10u8), 0..=n).map(|v| v.len()))
);

equivalent!(
    one_of_three,
    pbt::generator!(one_of[just(1u8), int(10..20u8), map(bool(), |b| b as u8)]),
    gen::one_of(vec![
        gen::just(1u8).boxed(),
        gen::int(10..20u8).boxed(),
        gen::bool().map(|b| b as u8).boxed()
    ])
);

equivalent!(
    frequency_with_runtime_weights,
    pbt::generator!(frequency[1 => just(0u32), size => int(1..100u32), 3 => int(100..200u32)]),
    gen::sized(|n| gen::frequency(vec![
        (1, gen::just(0u32).boxed()),
        (n as u64, gen::int(1..100u32).boxed()),
        (3, gen::int(100..200u32).boxed()),
    ]))
);

// One weight type: every integer type a staged weight takes, a run-time
// weight takes too (i8, i16 and isize included), with the same choices.
equivalent!(
    frequency_weights_of_every_integer_type,
    pbt::generator!(frequency[1i8 => just(0u8), 2i16 => just(1u8), 3isize => just(2u8), 4u16 => just(3u8), 5i64 => just(4u8)]),
    gen::frequency(vec![
        (gen::Weight::from(1i8), gen::just(0u8).boxed()),
        (gen::Weight::from(2i16), gen::just(1u8).boxed()),
        (gen::Weight::from(3isize), gen::just(2u8).boxed()),
        (gen::Weight::from(4u16), gen::just(3u8).boxed()),
        (gen::Weight::from(5i64), gen::just(4u8).boxed()),
    ])
);

equivalent!(
    either_weighted,
    pbt::generator!(either(int(0..5u8), int(100..105u8), 0.3)),
    gen::either(gen::int(0..5u8), gen::int(100..105u8), 0.3)
);

equivalent!(
    filter_multiples,
    pbt::generator!(filter(int(0..100u32), |x| x % 7 == 0)),
    gen::filter(gen::int(0..100u32), |x| x % 7 == 0)
);

equivalent!(
    filter_that_mostly_rejects,
    pbt::generator!(filter(int(0..1_000_000u32), |x| *x == 3)),
    gen::filter(gen::int(0..1_000_000u32), |x| *x == 3)
);

equivalent!(
    ensure_backtracks_to_the_latest_draw,
    pbt::generator!({ let x = int(0..50u32); let y = int(0..50u32); ensure y > x; (x, y) }),
    gen::bind(gen::int(0..50u32), |x| gen::filter(
        gen::int(0..50u32),
        move |y| *y > x
    )
    .map(move |y| (x, y)))
);

equivalent!(
    five_draw_let_chain,
    pbt::generator!({
        let a = int(0..100u64);
        let b = int(a..=a + 100);
        let c = int(0..=b);
        let d = bool();
        let e = int(0..10u64);
        if d {
            a + b + c + e
        } else {
            a * e + c
        }
    }),
    gen::bind(gen::int(0..100u64), |a| {
        gen::bind(gen::int(a..=a + 100), move |b| {
            gen::bind(gen::int(0..=b), move |c| {
                gen::bind(gen::bool(), move |d| {
                    gen::int(0..10u64).map(move |e| if d { a + b + c + e } else { a * e + c })
                })
            })
        })
    })
);

#[derive(Clone, Debug, PartialEq)]
enum Tree {
    Leaf(u8),
    Node(Box<Tree>, Box<Tree>),
}

fn node((l, r): (Tree, Tree)) -> Tree {
    Tree::Node(Box::new(l), Box::new(r))
}

equivalent!(
    recursive_tree,
    pbt::generator!(recursive::<Tree>(|rec| frequency[1 => map(int(0..10u8), Tree::Leaf), size => map((rec, rec), node)])),
    gen::recursive(|rec| {
        gen::frequency(vec![
            (Weight::Fixed(1), gen::int(0..10u8).map(Tree::Leaf).boxed()),
            (Weight::Size, (rec.clone(), rec).map(node).boxed()),
        ])
    })
);

equivalent!(
    recursive_tree_with_sized_weights,
    pbt::generator!(recursive::<Tree>(|rec| frequency[1 => map(int(0..10u8), Tree::Leaf), size => map((rec, rec), node)])),
    gen::recursive(|rec| {
        gen::sized(move |n| {
            gen::frequency(vec![
                (1, gen::int(0..10u8).map(Tree::Leaf).boxed()),
                (n as u64, (rec.clone(), rec.clone()).map(node).boxed()),
            ])
        })
    })
);

#[derive(Clone, Debug, PartialEq)]
enum Term {
    Var(u8),
    Lam(Box<Term>),
    App(Box<Term>, Box<Term>),
}

equivalent!(
    stlc_like_terms,
    pbt::generator!(recursive::<Term>(|rec| frequency[
        2 => map(int(0..4u8), Term::Var),
        size => map(rec, |b| Term::Lam(Box::new(b))),
        size => map((rec, rec), |(f, a)| Term::App(Box::new(f), Box::new(a)))
    ])),
    gen::recursive(|rec| {
        gen::frequency(vec![
            (Weight::Fixed(2), gen::int(0..4u8).map(Term::Var).boxed()),
            (
                Weight::Size,
                rec.clone().map(|b| Term::Lam(Box::new(b))).boxed(),
            ),
            (
                Weight::Size,
                (rec.clone(), rec)
                    .map(|(f, a)| Term::App(Box::new(f), Box::new(a)))
                    .boxed(),
            ),
        ])
    })
);

const ITEMS: [&str; 4] = ["a", "b", "c", "d"];

equivalent!(
    leaves_and_tuples,
    pbt::generator!((
        float(-1.0..1.0f64),
        weighted_bool(0.25),
        char('a'..='z'),
        string("xyz", 0..5),
        choose(&ITEMS),
        subset(&ITEMS, 2),
        any::<(u16, Option<bool>)>()
    )),
    (
        gen::float(-1.0..1.0f64),
        gen::weighted_bool(0.25),
        gen::char('a'..='z'),
        gen::string("xyz", 0..5),
        gen::choose(&ITEMS),
        gen::subset(&ITEMS, 2),
        gen::any::<(u16, Option<bool>)>()
    )
);

// Type-based integers draw their kind and value in one go from an `Rng`
// (`Source::draw_kind_value`) and record them as two choices: the fast
// copy, the recorded copies and their replays agree. A type-based `Vec`
// draws its elements from a copy of an `Rng` it puts back: the draws
// after it (the `i32`) are the same too.
equivalent!(
    type_based_integers,
    pbt::generator!((
        any::<(i64, u8, i32, usize)>(),
        any::<(i128, u128, isize)>(),
        vec(any::<i16>(), 0..=size),
        any::<(Vec<i64>, i32, Vec<Vec<u8>>, i8)>()
    )),
    (
        gen::any::<(i64, u8, i32, usize)>(),
        gen::any::<(i128, u128, isize)>(),
        gen::sized(|n| gen::vec(gen::any::<i16>(), 0..=n)),
        gen::any::<(Vec<i64>, i32, Vec<Vec<u8>>, i8)>()
    )
);

#[test]
fn a_type_based_integer_is_one_step_traced_as_two_choices() {
    // A tracer (as runners trace a found case) sees the kind and the value
    // as two choices with their bounds, and the fast path the same value.
    let g = gen::any::<(i64, u32, i8)>();
    for seed in 0..300 {
        let fast = g.generate(&mut Rng::from_seed(seed), 30).unwrap();
        let mut tracer = pbt::choices::Tracer::new(Rng::from_seed(seed));
        let traced = g.generate(&mut tracer, 30).unwrap();
        let (choices, bounds) = tracer.into_trace();
        assert_eq!(traced, fast, "seed {seed}");
        assert_eq!((choices.len(), bounds.len()), (6, 6), "seed {seed}");
        assert_eq!([bounds[0], bounds[2], bounds[4]], [7, 7, 7]);
        assert!(choices.iter().zip(&bounds).all(|(c, b)| c <= b));
        let mut replay = Replay::new(&choices);
        assert_eq!(g.generate(&mut replay, 30).unwrap(), fast, "seed {seed}");
        assert_eq!(replay.into_replayed().bounds, bounds, "seed {seed}");
    }
}

equivalent!(
    resize_changes_the_size_inside,
    pbt::generator!((resize(3, vec(bool(), 0..=size)), vec(bool(), 0..=size))),
    (
        gen::resize(3, gen::sized(|n| gen::vec(gen::bool(), 0..=n))),
        gen::sized(|n| gen::vec(gen::bool(), 0..=n))
    )
);

/// A generator the macro does not know: the escape hatch.
fn small_evens() -> impl Gen<Value = u32> {
    gen::int(0..50u32).map(|x| x * 2)
}

equivalent!(
    runtime_generators_inside_the_dsl,
    pbt::generator!(vec(small_evens(), 0..4)),
    gen::vec(small_evens(), 0..4)
);

equivalent!(
    nested_binds_and_blocks,
    pbt::generator!(bind(int(1..5usize), |n| {
        let xs = vec(int(0..n), n..=n);
        let k = int(0..n);
        (xs, k)
    })),
    gen::bind(gen::int(1..5usize), |n| {
        gen::bind(gen::vec(gen::int(0..n), n..=n), move |xs| {
            gen::int(0..n).map(move |k| (xs.clone(), k))
        })
    })
);

// A combinator with a method call on it is a runtime generator: the same
// draws as the runtime twin, inside a staged union.
equivalent!(
    method_call_on_a_combinator,
    pbt::generator!(one_of[int(0..10u8).map(|x| x * 2), just(1u8)]),
    gen::one_of(vec![
        gen::int(0..10u8).map(|x| x * 2).boxed(),
        gen::just(1u8).boxed()
    ])
);

// A block's final tuple may mix bound values and forms.
equivalent!(
    values_and_forms_in_a_final_tuple,
    pbt::generator!({
        let x = int(1..10u8);
        (x, one_of[just(x), int(0..=x)], int(0..x))
    }),
    gen::bind(gen::int(1..10u8), |x| {
        gen::bind(
            gen::one_of(vec![gen::just(x).boxed(), gen::int(0..=x).boxed()]),
            move |y| gen::int(0..x).map(move |z| (x, y, z)),
        )
    })
);

/// Staged `#[with = …]` annotations in properties behave like `generator!`.
#[test]
fn annotations_are_staged_and_dependent() {
    let prop = property! {
        forall n: usize, #[gen = int(1..20usize)];
        forall xs: Vec<usize>, #[gen = { let len = int(0..=n); let v = vec(int(0..n), len..=len); v }];
        check xs.len() <= n && xs.iter().all(|&x| x < n)
    };
    let report = generational(
        &prop,
        Config::default().cases(500).regressions(Regressions::Off),
    );
    assert!(report.passed(), "{report}");
}

/// A variable's generator mapped by a function path (not a closure): the
/// function's result type may be inferred from the declared type
/// (`From::from`, `Into::into`), and a wrong one is reported at the function
/// (`tests/ui/staging/mapped_by_a_function_of_another_type.rs`).
#[test]
fn a_generator_mapped_by_a_function_path_infers_from_the_declared_type() {
    use pbt::runners::{generational, Config, Regressions};
    let widened = property! {
        forall x: u64, #[gen = map(int(0..10u8), From::from)];
        forall y: i32, #[gen = map(int(0..10u8), Into::into)];
        forall z: Option<u8>, #[gen = map(int(0..10u8), Some)];
        check x < 10 && y < 10 && z.is_some_and(|z| z < 10)
    };
    let config = Config::default().seed(1).regressions(Regressions::Off);
    let report = generational(&widened, config);
    assert!(report.passed(), "{report}");
}

//! The draw budget of a limited `Rng` ("data too large"), as staged
//! generators pay it: they charge their draws ahead of time, per straight
//! run of code, per collection and per recursive layer, instead of having
//! each draw counted. The count must be exact, so that an input is too
//! large on the fast path (staged code over an `Rng`) exactly when it is
//! too large on the `dyn Source` path (the same code through a recorder, as
//! runners trace a found case), and runaway generators must still end as
//! reports.

use pbt::choices::{Recorder, Replay};
use pbt::generators::Gen;
use pbt::prelude::*;
use pbt::runners::{generational, Regressions};
use pbt::Rng;
use pbt_core::overrun::Overrun;
use pbt_core::source::BlockKind;
use std::panic::{catch_unwind, AssertUnwindSafe};

#[derive(Clone, Debug, PartialEq)]
enum Tree {
    Leaf(u8),
    Node(Box<Tree>, Box<Tree>),
}

fn node((l, r): (Tree, Tree)) -> Tree {
    Tree::Node(Box::new(l), Box::new(r))
}

/// How `g` ended on `src`: `Ok(true)` generated, `Ok(false)` rejected,
/// `Err` the overrun that stopped it.
fn outcome<G: Gen>(g: &G, src: &mut dyn pbt::Source, size: usize) -> Result<bool, Overrun> {
    match catch_unwind(AssertUnwindSafe(|| g.generate(src, size).is_ok())) {
        Ok(generated) => Ok(generated),
        Err(payload) => Err(*payload
            .downcast_ref::<Overrun>()
            .expect("only an overrun stops a generator here")),
    }
}

/// The parts of the value that `choices` generate with `g`: the elements
/// of its collections and its recursive layers, as the blocks a replay
/// marks show them. Each counts against the budget as one draw.
fn parts<G: Gen>(g: &G, choices: &[u64], size: usize) -> u64 {
    let mut replay = Replay::new(choices);
    g.generate(&mut replay, size).expect("the replay generates");
    let blocks = replay.into_replayed().blocks;
    blocks
        .iter()
        .filter(|b| matches!(b.kind, BlockKind::Element | BlockKind::Recursion))
        .count() as u64
}

/// On `cases` seeds at `size`: the draws the `dyn Source` copy makes
/// (through a recorder, each draw counted) plus the parts of the value (see
/// [`parts`]), and that the fast copy, given a budget of exactly that
/// count, generates; one fewer, both copies stop with the same overrun.
/// Rejected inputs are skipped: a generator that gives up part-way may
/// have charged draws it did not make.
fn counts_exactly<G: Gen>(name: &str, g: &G, size: usize, cases: u64) {
    let limited = |seed: u64, max: u64| Rng::from_seed(seed).limited(max, 1 << 20);
    let mut checked = 0;
    for seed in 0..cases {
        let mut rec = Recorder::new(Rng::from_seed(seed));
        if g.generate(&mut rec, size).is_err() {
            continue;
        }
        let choices = rec.into_choices();
        let draws = choices.len() as u64 + parts(g, &choices, size);
        checked += 1;
        let fast = outcome(g, &mut limited(seed, draws), size);
        assert_eq!(
            fast,
            Ok(true),
            "{name}, seed {seed}: {draws} draws are enough"
        );
        if draws == 0 {
            continue;
        }
        let over = Err(Overrun::Draws { limit: draws - 1 });
        let fast = outcome(g, &mut limited(seed, draws - 1), size);
        let mut rec = Recorder::new(limited(seed, draws - 1));
        let slow = outcome(g, &mut rec, size);
        assert_eq!(
            fast, over,
            "{name}, seed {seed}: fast copy, one draw short of {draws}"
        );
        assert_eq!(
            slow, over,
            "{name}, seed {seed}: recorded, one draw short of {draws}"
        );
    }
    assert!(
        checked > cases / 2,
        "{name}: only {checked} of {cases} seeds generated"
    );
}

#[test]
fn staged_generators_count_exactly_the_draws_they_make() {
    counts_exactly("int", &pbt::generator!(int(-5..5i64)), 0, 50);
    counts_exactly(
        "let-chain",
        &pbt::generator!({
            let a = int(0..100u64);
            let b = int(a..=a + 100);
            let c = int(0..=b);
            (a, b, c)
        }),
        0,
        50,
    );
    counts_exactly("vec", &pbt::generator!(vec(int(0..1000u32), 0..300)), 0, 50);
    counts_exactly(
        "vec of pairs of vecs",
        &pbt::generator!(vec((int(0..9u8), vec(bool(), 0..5)), 0..40)),
        0,
        50,
    );
    // Arms that draw differently: each charges what it draws beyond the
    // least of them.
    counts_exactly(
        "one_of",
        &pbt::generator!(vec(
            one_of[just(0u64), int(0..9u64), map((int(0..9u64), int(0..9u64)), |(a, b)| a + b)],
            0..50
        )),
        0,
        50,
    );
    counts_exactly(
        "frequency, either, option, result",
        &pbt::generator!(vec(
            (
                frequency[1 => just(0u8), 3 => int(1..9u8)],
                either(just(1u8), int(2..9u8), 0.5),
                option(int(0..9u8)),
                result(int(0..9u8), (bool(), bool()))
            ),
            0..30
        )),
        0,
        50,
    );
    counts_exactly(
        "recursive",
        &pbt::generator!(recursive::<Tree>(|rec| frequency[
            1 => map(int(0..4u8), Tree::Leaf),
            size => map((rec, rec), node)
        ])),
        40,
        50,
    );
    // Retries charge their draws again; u128 and floats draw more than
    // once, counted as they go.
    counts_exactly(
        "filter and ensure",
        &pbt::generator!({
            let x = filter(int(0..10u32), |x| x % 3 == 0);
            let y = int(0..100u32);
            ensure y % 7 == 1;
            (x, y)
        }),
        0,
        50,
    );
    counts_exactly(
        "u128, float, char",
        &pbt::generator!(vec(
            (int(..u128::MAX), float(-1.0..1.0f64), char('a'..='z')),
            0..20
        )),
        0,
        50,
    );
    counts_exactly(
        "regex",
        &pbt::generator!(regex("(ab|c[x-z]{1,3})+[0-9]?")),
        8,
        50,
    );
    counts_exactly(
        "unique collections",
        &pbt::generator!((
            hash_set(int(0..20u8), 0..10),
            btree_map(int(0..20u8), option(bool()), 0..10),
            vec_unique(int(0..30u8), 0..10)
        )),
        0,
        50,
    );
    // A type-based `Vec` of integers charges its elements' draws at once
    // on an `Rng`; of other elements, element by element. A float charges
    // its kind and offset draws at once, and counts a fifth as it goes.
    counts_exactly(
        "type-based collections",
        &pbt::generator!(any::<(
            Vec<i64>,
            Vec<u16>,
            Vec<i128>,
            Vec<Vec<i8>>,
            String,
            Vec<f64>,
            f32
        )>()),
        12,
        50,
    );
    // Runtime generators inside staged code count their own draws.
    counts_exactly(
        "runtime inside staged",
        &pbt::generator!(vec((any::<i64>(), string(chars(['a'..='c']), 0..4)), 0..20)),
        10,
        50,
    );
}

fn quiet() -> Config {
    Config::default()
        .ignore_env()
        .regressions(Regressions::Off)
        .seed(1)
}

#[test]
fn a_huge_staged_collection_is_too_large_before_it_is_allocated() {
    // 2^40 elements: reserving them would fail to allocate (an abort, not
    // a panic); charged before the vector is made, they are a report.
    let prop = property! {
        forall xs: Vec<u8>, #[gen = vec(int(0..10u8), (1usize << 40)..=(1usize << 40))];
        check xs.len() < 10
    };
    let report = generational(&prop, quiet());
    let failure = report.failure.clone().expect("a report, not an abort");
    assert!(failure.reason.contains("too large"), "{report}");
}

#[test]
fn a_recursion_that_never_bottoms_out_is_too_large() {
    // Weighted without `size`: recursion continues with probability 2/3 at
    // every size, and usually never ends.
    let prop = property! {
        forall t: Tree, #[gen = recursive::<Tree>(|rec| frequency[
            1 => map(int(0..4u8), Tree::Leaf),
            2 => map((rec, rec), node)
        ])];
        check { let _ = t; true }
    };
    let report = generational(&prop, quiet().cases(200));
    let failure = report.failure.clone().expect("a report, not a crash");
    assert!(failure.reason.contains("too large"), "{report}");
}

const LIMIT: u64 = 10_000;

/// How `g` at `size` ends on both paths: the fast copy over a limited
/// `Rng`, and the `dyn Source` copy through a recorder over one (as a
/// runner traces a case).
fn both_paths<G: Gen>(g: &G, size: usize) -> [Result<bool, Overrun>; 2] {
    let limited = || Rng::from_seed(3).limited(LIMIT, 1 << 20);
    let fast = outcome(g, &mut limited(), size);
    let recorded = outcome(g, &mut Recorder::new(limited()), size);
    [fast, recorded]
}

/// `g` at `size` stops with a "data too large" overrun of the draw budget
/// on both paths.
fn stops_as_too_large<G: Gen>(name: &str, g: &G, size: usize) {
    let over = Err(Overrun::Draws { limit: LIMIT });
    assert_eq!(both_paths(g, size), [over, over], "{name}: fast, recorded");
}

const HUGE: usize = 1 << 40;

#[test]
fn elements_that_draw_nothing_still_use_up_the_budget() {
    // A huge drawn length of elements that draw nothing: each element is
    // a part of the budget, so this is a report, not an endless loop (or
    // an allocation that aborts).
    stops_as_too_large(
        "staged vec of just",
        &pbt::generator!(vec(just(7u64), 0..=HUGE)),
        0,
    );
    stops_as_too_large(
        "runtime vec of just",
        &pbt::generators::vec(pbt::generators::just(7u64), HUGE..=HUGE),
        0,
    );
    stops_as_too_large(
        "staged vec of vecs of tuples of just",
        &pbt::generator!(vec(vec((just(1u8), size), 50..=50), 1000..=1000)),
        0,
    );
    // Type-based collections at a huge size: `()` draws nothing.
    stops_as_too_large("any Vec<()>", &pbt::generators::any::<Vec<()>>(), HUGE);
    stops_as_too_large(
        "staged resize to a huge size",
        &pbt::generator!(resize(HUGE, any::<Vec<u8>>())),
        0,
    );
    // Strings: each character is a part too.
    stops_as_too_large(
        "string of one character",
        &pbt::generator!(string(chars(['a'..='a']), HUGE..=HUGE)),
        0,
    );
    // Repetitions of fixed text draw nothing: each is a part.
    stops_as_too_large(
        "staged regex a{4000000000}",
        &pbt::generator!(regex("a{4000000000}")),
        0,
    );
    stops_as_too_large(
        "runtime regex (ab)*",
        &pbt::generators::regex("(ab)*"),
        HUGE,
    );
}

#[test]
fn a_recursion_whose_layers_draw_nothing_is_too_large() {
    // No base case and no draw: every layer recurses. Each layer is a
    // part of the budget, so the budget is looked at as the layers come
    // (it was never, without a draw): the recursion stops at the draw
    // limit or, when its frames are large (a debug build), at the stack
    // limit, either way a report and not a stack overflow.
    let too_large =
        |o: &Result<bool, Overrun>| matches!(o, Err(Overrun::Draws { .. } | Overrun::Stack { .. }));
    let staged = pbt::generator!(recursive::<Tree>(|rec| map((rec, rec), node)));
    let runtime = pbt::generators::recursive(|rec| pbt::generators::map((rec.clone(), rec), node));
    let (staged, runtime) = (both_paths(&staged, 30), both_paths(&runtime, 30));
    assert!(staged.iter().all(too_large), "staged: {staged:?}");
    assert!(runtime.iter().all(too_large), "runtime: {runtime:?}");
    // Every layer counts, a leaf that draws only its pick as one more.
    let shallow = pbt::generator!(recursive::<Tree>(|rec| frequency[1 => just(Tree::Leaf(0)), size => map((rec, rec), node)]));
    counts_exactly("recursion, layers counted", &shallow, 6, 50);
}

#[test]
fn unique_collections_of_elements_that_draw_nothing_end() {
    // A unique collection stops after `UNIQUE_TRIES` elements in a row
    // that were not new: elements that draw nothing are all the same, so
    // it ends at one element, whatever length was drawn.
    let g = pbt::generator!((
        vec_unique(just(1u8), 0..=HUGE),
        hash_set(just(2u8), 0..=HUGE),
        btree_map(just(3u8), just(4u8), 0..=HUGE)
    ));
    let mut rng = Rng::from_seed(1).limited(10_000, 1 << 20);
    let (v, s, m) = g.generate(&mut rng, 0).expect("generates");
    assert!(v.len() <= 1 && s.len() <= 1 && m.len() <= 1);
}

#[test]
fn a_vec_of_elements_that_draw_nothing_is_a_report_from_a_runner() {
    let prop = property! {
        forall xs: Vec<u8>, #[gen = vec(just(0u8), HUGE..=HUGE)];
        check xs.len() < 10
    };
    let report = generational(&prop, quiet());
    let failure = report.failure.clone().expect("a report, not a hang");
    assert!(failure.reason.contains("too large"), "{report}");
    assert!(failure.reason.contains("counts as one"), "{report}");
}

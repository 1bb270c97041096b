//! The runner family: integrated shrinking, the parallel runner,
//! the combinatorial runner, and the shrinker switch — each selectable from
//! `#[property_test]`.

use pbt::generators as gen;
use pbt::prelude::*;
use pbt::runners::{combinatorial, generational, integrated, parallel, Regressions, Shrinker};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

#[test]
fn integrated_shrinking_keeps_generator_invariants() {
    // Sorted vectors by construction: every shrink candidate is regenerated
    // through the generator, so the check never sees an unsorted vector.
    for seed in 0..10 {
        let prop = property! {
            forall xs: Vec<i32>, #[gen = map(vec(int(-1000..1000), 0..30), |mut v| { v.sort(); v })];
            check {
                assert!(xs.windows(2).all(|w| w[0] <= w[1]), "unsorted input {xs:?}");
                xs.iter().map(|&x| i64::from(x)).sum::<i64>() < 500
            }
        };
        let report = integrated(&prop, quiet().seed(seed));
        let failure = report.failure.expect("the property is false");
        assert_eq!(failure.shrinker, Some(Shrinker::Integrated));
        assert_eq!(failure.reason, "the check returned false", "seed {seed}");
        assert_eq!(failure.counterexample[0].value, "[500]", "seed {seed}");
    }
}

#[test]
fn the_shrinker_is_a_config_switch_and_the_report_names_it() {
    let prop = property! {
        forall xs: Vec<u16>;
        check xs.len() < 3
    };
    for (shrinker, names) in [
        (Shrinker::External, &[Shrinker::External][..]),
        (Shrinker::Integrated, &[Shrinker::Integrated][..]),
        // Both names the shrinkers that took steps (external if none did).
        (
            Shrinker::Both,
            &[Shrinker::Integrated, Shrinker::Both, Shrinker::External][..],
        ),
    ] {
        let report = generational(&prop, quiet().seed(4).shrinker(shrinker));
        let failure = report.failure.expect("fails");
        assert!(
            failure.shrinker.is_some_and(|s| names.contains(&s)),
            "{shrinker:?}: {:?}",
            failure.shrinker
        );
        assert_eq!(failure.counterexample[0].value, "[0, 0, 0]", "{shrinker:?}");
    }
}

#[test]
fn parallel_finds_the_same_counterexample_as_generational() {
    for seed in 0..8 {
        let prop = property! {
            forall xs: Vec<u8>;
            forall k: u8;
            check !(xs.contains(&k) && xs.len() > 4)
        };
        let config = || quiet().seed(seed).cases(3000);
        let sequential = generational(&prop, config())
            .failure
            .map(|f| (f.case_seed, f.counterexample));
        let two = parallel(&prop, config().workers(2))
            .failure
            .map(|f| (f.case_seed, f.counterexample));
        assert_eq!(sequential, two, "seed {seed}");
    }
}

#[test]
fn parallel_runs_every_case_once_when_it_passes() {
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let prop = property! {
        forall x: u32;
        check { RUNS.fetch_add(1, Relaxed); x == x }
    };
    let report = parallel(&prop, quiet().cases(2000).workers(2));
    assert!(report.passed(), "{report}");
    assert!(report.tests >= 2000);
    assert_eq!(RUNS.load(Relaxed), report.tests);
}

#[test]
fn parallel_reports_panics_and_discards_like_generational() {
    let prop = property! {
        forall x: u16;
        implies x % 3 != 0;
        check { assert!(x < 30_000, "too big"); }
    };
    let report = parallel(&prop, quiet().seed(1).workers(2));
    let failure = report.failure.expect("fails");
    assert_eq!(failure.counterexample[0].value, "30001");
    assert!(failure.reason.contains("too big"));
}

#[derive(Clone, Debug)]
#[allow(dead_code)] // the fields are read through `Debug`, by the feature function
enum Expr {
    Lit(u8),
    Neg(Box<Expr>),
    Add(Box<Expr>, Box<Expr>),
}

fn expr() -> impl pbt::Gen<Value = Expr> {
    pbt::generator!(recursive::<Expr>(|rec| frequency[
        2 => map(int(0..10u8), Expr::Lit),
        size => map(rec, |e| Expr::Neg(Box::new(e))),
        size => map((rec, rec), |(a, b)| Expr::Add(Box::new(a), Box::new(b)))
    ]))
}

/// Run 12 tests of `prop` (which records what it sees), thinned by the
/// combinatorial runner or not.
fn run_twelve<P: Property + Sync>(prop: &P, thin: bool, seed: u64) {
    let config = quiet().seed(seed).cases(12).max_size(6).candidates(8);
    let report = if thin {
        combinatorial(prop, config)
    } else {
        generational(prop, config)
    };
    assert!(report.passed(), "{report}");
}

/// How many constructor features the inputs a runner ran cover.
fn covered_by(thin: bool, seed: u64) -> usize {
    let seen = std::sync::Mutex::new(std::collections::HashSet::new());
    let prop = property! {
        forall e: Expr, #[gen = expr()];
        check {
            let printed = pbt::Binding { name: "e", ty: "Expr", value: format!("{e:?}") };
            let features = pbt::runners::constructor_features(&[printed]);
            seen.lock().unwrap().extend(features);
        }
    };
    run_twelve(&prop, thin, seed);
    let n = seen.lock().unwrap().len();
    n
}

#[test]
fn combinatorial_covers_more_constructor_features_per_test() {
    let thinned: usize = (0..10).map(|seed| covered_by(true, seed)).sum();
    let plain: usize = (0..10).map(|seed| covered_by(false, seed)).sum();
    assert!(
        thinned > plain,
        "features covered in 12 tests: thinned {thinned}, plain {plain}"
    );
}

#[test]
fn combinatorial_features_are_constructors_and_nesting_pairs() {
    let features = pbt::runners::constructor_features(&[pbt::Binding {
        name: "e",
        ty: "Expr",
        value: "Add(Neg(Lit(1)), Lit(2))".into(),
    }]);
    for f in ["e:Add", "e:>Add", "e:Add>Neg", "e:Neg>Lit", "e:Add>Lit"] {
        assert!(
            features.contains(&f.to_string()),
            "{f} missing from {features:?}"
        );
    }
}

/// A derived type: the combinatorial runner counts its constructors
/// through the derive's constructor view, not its `Debug` output.
#[derive(Clone, Debug, pbt::Arbitrary)]
enum Term {
    Lit(u8),
    Neg(Box<Term>),
    Add(Box<Term>, Box<Term>),
}

/// The (parent, constructor) pairs of `t`, from its constructor view.
fn pairs(t: &Term) -> Vec<(Option<&'static str>, &'static str)> {
    let mut out = Vec::new();
    pbt::Constructors::constructors(t, &mut out);
    out.iter().map(|c| c.pair()).collect()
}

#[test]
fn variables_of_derived_types_have_a_constructor_view() {
    use pbt::dbas::NodeView;
    let prop = property! {
        forall t: Term;
        forall n: u8;
        check { let _ = (t, n); true }
    };
    let views: Vec<bool> = prop
        .structure()
        .variables()
        .map(|v| {
            matches!(
                v,
                NodeView::Forall {
                    constructors: true,
                    ..
                }
            )
        })
        .collect();
    // `u8` implements `Constructors` too (a leaf, with nothing to report).
    assert_eq!(views, [true, true]);
    let mut rng = pbt::Rng::from_seed(5);
    let case = (0..100)
        .filter_map(|_| prop.generate(&mut rng, 20).ok())
        .find(|case| pairs(&case.env.1 .0).len() >= 3)
        .expect("generates a term with three constructors or more");
    let mut out = Vec::new();
    prop.constructors(&case, &mut out);
    let t = &case.env.1 .0;
    let expected: Vec<_> = pairs(t).into_iter().map(|p| ("t", p)).collect();
    let got: Vec<_> = out.iter().map(|(n, c)| (*n, c.pair())).collect();
    assert_eq!(got, expected);
    assert!(got.iter().all(|(_, (_, name))| name.starts_with("Term::")));
}

/// How many constructor pairs of `Term` the inputs a runner ran cover.
fn term_pairs_covered(thin: bool, seed: u64) -> usize {
    let seen = std::sync::Mutex::new(std::collections::HashSet::new());
    let prop = property! {
        forall t: Term;
        check { seen.lock().unwrap().extend(pairs(&t)); }
    };
    run_twelve(&prop, thin, seed);
    let n = seen.lock().unwrap().len();
    n
}

#[test]
fn combinatorial_thins_derived_types_by_their_constructor_view() {
    let thinned: usize = (0..10).map(|seed| term_pairs_covered(true, seed)).sum();
    let plain: usize = (0..10).map(|seed| term_pairs_covered(false, seed)).sum();
    eprintln!("Term constructor pairs covered over 10 seeds: thinned {thinned}, plain {plain}");
    assert!(
        thinned > plain,
        "constructor pairs covered in 12 tests: thinned {thinned}, plain {plain}"
    );
}

#[property_test(runner = parallel, shrink = "both", cases = 300)]
#[should_panic(expected = "integrated")]
fn runner_and_shrinker_are_options_of_property_test(#[gen = int(0..1000u32)] x: u32) -> bool {
    x < 500
}

#[property_test(runner = combinatorial)]
fn combinatorial_is_selectable(#[gen = gen::int(0..10u8)] x: u8) -> bool {
    x < 10
}

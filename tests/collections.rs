//! Collections in the DSL: `option`, `result`, `hash_set`, `btree_set`,
//! `vec_unique`, `hash_map`, `btree_map`.
//!
//! - Staged (in `pbt::generator!` / `#[gen = …]`) and runtime (`pbt::generators`)
//!   make the same choices and return the same value.
//! - Lengths stay in range, elements are distinct; when the element
//!   generator cannot supply enough distinct values the generator rejects.
//! - Shrinking goes through the choices and ends at small collections.

use pbt::choices::{Recorder, Replay};
use pbt::generators::{self as gen, Gen};
use pbt::prelude::*;
use pbt::runners::{generational, Regressions};
use pbt::{Rejected, Rng};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Debug;

/// A fixed seed, so that a failure reproduces (tests that need more loop
/// over seeds).
fn quiet() -> Config {
    Config::default()
        .regressions(Regressions::Off)
        .ignore_env()
        .seed(0x5eed)
}

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
        return Err("choices differ".into());
    }
    Ok(())
}

macro_rules! equivalent {
    ($name:ident, $staged:expr, $runtime:expr) => {
        #[test]
        fn $name() {
            let staged = $staged;
            let runtime = $runtime;
            let prop = property! {
                forall seed: u64;
                forall size: usize, #[gen = int(0..=40usize)];
                check agree(&staged, &runtime, seed, size)
            };
            let report = generational(&prop, quiet().cases(300));
            assert!(report.passed(), "{report}");
        }
    };
}

equivalent!(
    option_staged,
    pbt::generator!(option(int(0..100u8))),
    gen::option(gen::int(0..100u8))
);

equivalent!(
    result_staged,
    pbt::generator!(result(int(0..100u8), string("xyz", 0..3))),
    gen::result(gen::int(0..100u8), gen::string("xyz", 0..3))
);

equivalent!(
    hash_set_staged,
    pbt::generator!(hash_set(int(0..20u32), 0..=10)),
    gen::hash_set(gen::int(0..20u32), 0..=10)
);

equivalent!(
    btree_set_staged,
    pbt::generator!(btree_set(one_of[int(0..5i8), int(50..60i8)], 2..=8)),
    gen::btree_set(
        gen::one_of(vec![gen::int(0..5i8), gen::int(50..60i8)]),
        2..=8
    )
);

equivalent!(
    vec_unique_staged,
    pbt::generator!(vec_unique(char('a'..='h'), 0..=size)),
    gen::sized(|size| gen::vec_unique(gen::char('a'..='h'), 0..=size))
);

equivalent!(
    hash_map_staged,
    pbt::generator!(hash_map(int(0..30u16), bool(), 1..6)),
    gen::hash_map(gen::int(0..30u16), gen::bool(), 1..6)
);

equivalent!(
    btree_map_staged,
    pbt::generator!(btree_map(
        string("ab", 1..=3),
        option(vec(int(0..9u8), 0..3)),
        0..=4
    )),
    gen::btree_map(
        gen::string("ab", 1..=3),
        gen::option(gen::vec(gen::int(0..9u8), 0..3)),
        0..=4
    )
);

// Staged forms nest inside the other DSL forms (a block with a bind).
equivalent!(
    nested_in_a_block,
    pbt::generator!({
        let n = int(0..4usize);
        let m = btree_map(int(0..100u8), result(bool(), just(n)), n..=n);
        (n, m)
    }),
    gen::bind(gen::int(0..4usize), |n| gen::btree_map(
        gen::int(0..100u8),
        gen::result(gen::bool(), gen::just(n)),
        n..=n
    )
    .map(move |m| (n, m)))
);

#[test]
fn lengths_are_in_range_and_elements_distinct() {
    let mut rng = Rng::from_seed(5);
    for size in 0..200 {
        let s: HashSet<u16> = gen::hash_set(gen::int(0..1000u16), 3..=12)
            .generate(&mut rng, size)
            .unwrap();
        assert!((3..=12).contains(&s.len()));
        let v: Vec<u8> = gen::vec_unique(gen::int(0..50u8), 5..10)
            .generate(&mut rng, size)
            .unwrap();
        assert!((5..10).contains(&v.len()));
        let distinct: BTreeSet<u8> = v.iter().copied().collect();
        assert_eq!(distinct.len(), v.len(), "{v:?}");
        let m: HashMap<u8, u8> = gen::hash_map(gen::int(0..200u8), gen::int(..), 0..=7)
            .generate(&mut rng, size)
            .unwrap();
        assert!(m.len() <= 7);
    }
}

/// A domain smaller than the minimum length: reject (a discard), never a
/// short collection or a hang.
#[test]
fn too_few_distinct_values_reject() {
    let mut rng = Rng::from_seed(1);
    let g = gen::hash_set(gen::bool(), 3..=4);
    assert_eq!(g.generate(&mut rng, 10), Err(Rejected));
    let staged = pbt::generator!(btree_set(bool(), 3..=4));
    assert_eq!(staged.generate(&mut rng, 10), Err(Rejected));
    // Above the minimum: keep what was found.
    let s = gen::btree_set(gen::bool(), 0..=4)
        .generate(&mut rng, 10)
        .unwrap();
    assert!(s.len() <= 2);
    let prop = property! {
        forall s: BTreeSet<bool>, #[gen = btree_set(bool(), 3..=5)];
        check s.len() >= 3
    };
    let report = generational(&prop, quiet().cases(50).max_discard_ratio(2));
    assert_eq!(report.tests, 0, "{report}");
    assert!(report.discards > 0, "{report}");
}

/// All-zero choices give the simplest value: `None`, `Ok(simplest)`, and
/// the shortest collection allowed.
#[test]
fn simplest_choices_give_the_simplest_values() {
    let zero = || Replay::new(&[]);
    assert_eq!(
        gen::option(gen::int(1..9u8)).generate(&mut zero(), 9),
        Ok(None)
    );
    assert_eq!(
        gen::result(gen::int(1..9u8), gen::bool()).generate(&mut zero(), 9),
        Ok(Ok(1))
    );
    // Length 2 wanted; every element is 0, so duplicates stop it at one: rejected.
    assert_eq!(
        gen::hash_set(gen::int(0..9u8), 2..4).generate(&mut zero(), 9),
        Err(Rejected)
    );
    assert_eq!(
        gen::btree_map(gen::int(0..9u8), gen::bool(), 0..4).generate(&mut zero(), 9),
        Ok(BTreeMap::new())
    );
}

#[test]
fn failing_maps_shrink_to_the_smallest_failure() {
    let prop = property! {
        forall m: HashMap<u8, u32>, #[gen = hash_map(int(0..=255u8), int(0..1000u32), 0..=20)];
        check m.values().sum::<u32>() < 1000
    };
    for seed in 0..5 {
        let report = generational(&prop, quiet().seed(seed));
        let failure = report.failure.as_ref().expect("the property is false");
        let value = &failure.counterexample[0].value;
        // Two entries are needed (each value is below 1000); the shrinkers
        // get down to two or three from about fifteen.
        assert!(value.matches(':').count() <= 3, "seed {seed}: {report}");
    }
}

#[test]
fn failing_sets_shrink_to_the_minimum_length() {
    let prop = property! {
        forall s: Vec<u32>, #[gen = vec_unique(int(0..1_000_000u32), 0..=30)];
        check s.len() < 4
    };
    let report = generational(&prop, quiet().seed(7));
    let failure = report.failure.expect("the property is false");
    assert_eq!(failure.counterexample[0].value, "[0, 1, 2, 3]");
}

// A bare length is one exact length, as proptest's `vec(s, 1000)` accepts,
// in the DSL as in the runtime combinators.
equivalent!(
    btree_set_bare_length_staged,
    pbt::generator!(btree_set(int(0..=u32::MAX), 1000)),
    gen::btree_set(gen::int(0..=u32::MAX), 1000)
);

equivalent!(
    vec_bare_length_staged,
    pbt::generator!(vec(any::<u8>(), 7)),
    gen::vec(gen::any::<u8>(), 7)
);

equivalent!(
    hash_map_bare_length_staged,
    pbt::generator!(hash_map(any::<u16>(), any::<u8>(), 3)),
    gen::hash_map(gen::any::<u16>(), gen::any::<u8>(), 3)
);

#[test]
fn a_bare_length_is_an_exact_length() {
    for seed in 0..20 {
        let rng = &mut Rng::from_seed(seed);
        let set = gen::btree_set(gen::int(0..=u32::MAX), 1000).generate(rng, 10);
        assert_eq!(set.unwrap().len(), 1000);
        assert_eq!(
            gen::vec(gen::any::<u8>(), 7)
                .generate(rng, 10)
                .unwrap()
                .len(),
            7
        );
        let unique = gen::vec_unique(gen::int(0..100u8), 5).generate(rng, 10);
        assert_eq!(unique.unwrap().len(), 5);
        let text = gen::string('a'..='z', 4).generate(rng, 10).unwrap();
        assert_eq!(text.chars().count(), 4);
        let staged = pbt::generator!(string_of(char('a'..='c'), 2)).generate(rng, 10);
        assert_eq!(staged.unwrap().chars().count(), 2);
    }
}

//! Counterexamples whose values iterate in random order (`HashMap`,
//! `HashSet`: std's `RandomState` is new for every map) are saved and
//! replay: the saved case is checked by the choices it replays, not only by
//! how it prints.

use pbt::prelude::*;
use pbt::runners::{generational, Regressions, SavedFrom};
use std::collections::{HashMap, HashSet};

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pbt-unordered-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("r.txt")
}

fn saved_and_replayed<P: Property>(name: &str, prop: &P) {
    for seed in 0..8u64 {
        let file = scratch(&format!("{name}-{seed}"));
        let config = || {
            Config::default()
                .ignore_env()
                .seed(seed)
                .regressions(Regressions::File(file.clone()))
        };
        let found = generational(prop, config());
        let text = found.to_string();
        assert!(!found.passed(), "{text}");
        assert!(!text.contains("could not save"), "seed {seed}: {text}");
        let shrunk = found.failure.as_ref().unwrap().counterexample.clone();
        // The next run replays the shrunk case first: the same value,
        // printed in whatever order its map iterates now.
        let again = generational(prop, config().cases(0));
        let failure = again.failure.as_ref().expect("replayed");
        assert_eq!(
            failure.replayed_from.as_ref().map(|s| (s.entry, s.from)),
            Some((1, SavedFrom::Own))
        );
        assert_eq!(failure.counterexample.len(), shrunk.len());
        for (a, b) in failure.counterexample.iter().zip(&shrunk) {
            let mut a: Vec<char> = a.value.chars().collect();
            let mut b: Vec<char> = b.value.chars().collect();
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "seed {seed}: {again}");
        }
        let _ = std::fs::remove_dir_all(file.parent().unwrap());
    }
}

#[test]
fn a_hash_map_counterexample_is_saved_and_replays() {
    let prop = property! {
        forall m: HashMap<u8, u8>;
        check m.len() < 4
    };
    saved_and_replayed("map", &prop);
}

#[test]
fn a_hash_set_counterexample_is_saved_and_replays() {
    let prop = property! {
        forall s: HashSet<u16>;
        check s.len() < 3
    };
    saved_and_replayed("set", &prop);
}

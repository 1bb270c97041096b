//! `PBT_SEED` replays a run and `PBT_CASES` sets the number of tests, without
//! editing code. (A test binary of its own: it sets process environment,
//! and tells pbt to read it again with `Config::reread_env`, since runs
//! read it once per process. One test: the tests of a binary share it.)

use pbt::prelude::*;
use pbt::runners::{generational, Regressions};

#[test]
fn pbt_seed_and_pbt_cases_override_the_code() {
    let prop = property! {
        forall xs: Vec<u8>;
        forall k: u8;
        check !xs.contains(&k) || xs.len() < 4
    };
    let config = || Config::default().regressions(Regressions::Off);
    // What a failure report tells the user to replay with.
    let found = generational(&prop, config().cases(5000).seed(0x2a));
    let failure = found.failure.clone().expect("fails");
    assert!(found.to_string().contains("PBT_SEED=0x2a"), "{found}");

    std::env::set_var("PBT_SEED", "0x2a");
    std::env::set_var("PBT_CASES", "5000");
    Config::reread_env();
    let replayed = generational(&prop, config().seed(999).cases(1));
    assert_eq!(replayed.seed, 0x2a);
    let again = replayed.failure.expect("replayed");
    assert_eq!(again.counterexample, failure.counterexample);
    assert_eq!(again.case_seed, failure.case_seed);

    let passing = property! { forall x: u8; check x == x };
    std::env::set_var("PBT_CASES", "7");
    Config::reread_env();
    assert_eq!(generational(&passing, config()).tests, 7);
    // A malformed value is an error naming the variable and the value (a
    // warning a passing test hides would let a typo pass as a random seed).
    std::env::set_var("PBT_CASES", "many");
    Config::reread_env();
    let err = std::panic::catch_unwind(|| generational(&passing, config().cases(3)))
        .expect_err("a malformed PBT_CASES is an error");
    let msg = err.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.contains("PBT_CASES=\"many\""), "{msg}");
    std::env::remove_var("PBT_SEED");
    std::env::remove_var("PBT_CASES");
    Config::reread_env();
    assert_eq!(generational(&passing, config()).tests, 100);

    // A variable set after a run is not seen (runs read the environment
    // once per process) until `Config::reread_env`. (In this one test: the
    // tests of a binary share its environment.)
    let before = generational(&passing, config()).tests;
    std::env::set_var("PBT_STATS", "1");
    let unread = generational(&passing, config());
    Config::reread_env();
    let reread = generational(&passing, config());
    std::env::remove_var("PBT_STATS");
    Config::reread_env();
    assert_eq!(before, unread.tests);
    assert!(!unread.statistics.shown);
    assert!(reread.statistics.shown);
}

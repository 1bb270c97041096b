//! A module that uses both `pbt::prelude::*` and quickcheck (or proptest)
//! compiles: the prelude names pbt's derives, not its traits, so
//! quickcheck's `Arbitrary::arbitrary` and `Arbitrary::shrink` are not
//! ambiguous (E0034) with pbt's `Arbitrary::arbitrary` and `Shrink::shrink`.
#![deny(warnings)]

use pbt::prelude::*;
use quickcheck::{Arbitrary, Gen, QuickCheck};

/// A pbt-derived type in the same module.
#[derive(Clone, Debug, pbt::Arbitrary, Mutate)]
enum Coin {
    Heads,
    Tails,
}

#[test]
fn quickcheck_methods_resolve_to_quickcheck() {
    let mut g = Gen::new(10);
    let x = u32::arbitrary(&mut g);
    let smaller: Vec<u32> = x.shrink().collect();
    assert!(smaller.iter().all(|&s| s < x || x == 0));
    fn reverse_twice(xs: Vec<u8>) -> bool {
        let mut ys = xs.clone();
        ys.reverse();
        ys.reverse();
        ys == xs
    }
    QuickCheck::new()
        .tests(50)
        .quickcheck(reverse_twice as fn(Vec<u8>) -> bool);
}

#[property_test(cases = 50)]
fn pbt_still_works_here(c: Coin, n: u8) -> bool {
    matches!(c, Coin::Heads | Coin::Tails) && u16::from(n) < 256
}

/// Both preludes, glob-imported: pbt's `Arbitrary` derive and proptest's
/// `Arbitrary` trait live in different namespaces, and nothing else clashes.
mod with_proptest {
    use pbt::prelude::*;
    use proptest::prelude::*;

    #[derive(Clone, Debug, Arbitrary)]
    struct Pair(u8, bool);

    proptest! {
        #[test]
        fn proptest_runs_here(x in any::<u8>()) {
            prop_assert!(u16::from(x) < 256);
        }
    }

    #[property_test(cases = 30)]
    fn pbt_runs_here(p: Pair) -> bool {
        u16::from(p.0) < 256 && [true, false].contains(&p.1)
    }
}

/// Both globs, `pbt::prelude::*` and `quickcheck::*`: the one name they
/// share is `Gen` (pbt's generator trait, quickcheck's generator struct), so
/// it is imported by name, as the prelude's docs and the quickcheck chapter
/// of the guide say. Everything else resolves.
mod with_quickcheck_glob {
    use pbt::prelude::*;
    use quickcheck::Gen;
    use quickcheck::*;

    #[derive(Clone, Debug, pbt::Arbitrary)]
    struct Pair(u8, bool);

    #[test]
    fn quickcheck_glob_resolves() {
        let mut g = Gen::new(10);
        let x = u32::arbitrary(&mut g);
        let smaller: Vec<u32> = x.shrink().collect();
        assert!(smaller.iter().all(|&s| s < x));
        fn involutive(xs: Vec<u8>) -> TestResult {
            let mut ys = xs.clone();
            ys.reverse();
            ys.reverse();
            TestResult::from_bool(ys == xs)
        }
        QuickCheck::new()
            .tests(30)
            .quickcheck(involutive as fn(Vec<u8>) -> TestResult);
    }

    #[property_test(cases = 30)]
    fn pbt_runs_here(p: Pair) -> bool {
        u16::from(p.0) < 256 && [true, false].contains(&p.1)
    }

    #[test]
    fn pbt_generators_work_here() {
        let prop = property! {
            forall xs: Vec<u8>, #[with = vec(int(0..10u8), 0..5)];
            check xs.len() < 5
        };
        let config = pbt::runners::Config::default()
            .regressions(pbt::runners::Regressions::Off)
            .cases(30);
        assert!(pbt::runners::generational(&prop, config).passed());
    }
}

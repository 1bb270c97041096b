//! What a report shows of the input as first found: a long one is printed
//! cut short and says so (the typed original stays whole), and an input
//! that shrinking did not change is shown whole, once.

use pbt::generators as gen;
use pbt::prelude::*;
use pbt::runners::components::ORIGINAL_SHOWN;
use pbt::runners::{generational, Regressions, Shrinker, Sizes};

fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

const CUT: &str = "… [cut: only the first 4096 bytes are printed]";

/// A failing list of up to 10 000 elements: when it prints longer than
/// [`ORIGINAL_SHOWN`] bytes, its "first found as" is its first
/// [`ORIGINAL_SHOWN`] bytes and a marker, and the report shows that line;
/// a shorter one is shown whole. The typed original is the whole list,
/// and the shrunk one is printed whole.
#[test]
fn a_long_input_as_found_is_printed_cut_short_and_typed_whole() {
    assert_eq!(ORIGINAL_SHOWN, 4096, "the marker below names it");
    for shrinker in [Shrinker::Both, Shrinker::Integrated, Shrinker::External] {
        let mut cut = 0;
        for seed in 0..6 {
            let prop = property! {
                forall xs: Vec<i32>, #[gen = gen::vec(gen::any::<i32>(), 0..=10000)];
                check xs.iter().all(|&x| x < 1 << 30)
            };
            let report = generational(&prop, quiet().seed(seed).shrinker(shrinker));
            let failure = report.failure.as_ref().expect("some element is large");
            let (found,) = report.original::<(Vec<i32>,)>().expect("typed");
            let (shown, whole) = (&failure.original[0].value, format!("{found:?}"));
            if shrinker != Shrinker::External {
                assert_eq!(
                    failure.counterexample[0].value, "[1073741824]",
                    "{shrinker:?}"
                );
            }
            if whole.len() <= ORIGINAL_SHOWN {
                assert_eq!(*shown, whole, "{shrinker:?}, seed {seed}: whole");
                continue;
            }
            cut += 1;
            let kept = shown.strip_suffix(CUT).unwrap_or_else(|| panic!("{shown}"));
            assert!(kept.len() <= ORIGINAL_SHOWN && kept.len() > ORIGINAL_SHOWN - 16);
            assert!(
                whole.starts_with(kept),
                "{shrinker:?}: a prefix of the input"
            );
            let text = report.to_string();
            assert!(
                text.contains(&format!("first found as: xs = {kept}")),
                "{text}"
            );
        }
        assert!(cut > 0, "{shrinker:?}: some input as found is long");
    }
}

/// A long list whose every choice but its length is ignored (each element
/// is `7` whatever it draws): the integrated shrinker zeroes the ignored
/// choices silently (the first such step is compared with the input as
/// found up to the first difference, never printed whole), takes no step
/// that shows, and the report shows the input once, whole, as the
/// counterexample.
#[test]
fn an_input_shrinking_cannot_change_is_shown_whole_once() {
    for shrinker in [Shrinker::Both, Shrinker::Integrated] {
        let prop = property! {
            forall xs: Vec<u8>, #[gen = gen::vec(gen::map(gen::any::<u64>(), |_| 7u8), 2000..=2000)];
            check xs.len() != 2000
        };
        let report = generational(&prop, quiet().seed(1).shrinker(shrinker));
        let failure = report.failure.as_ref().expect("always fails");
        assert_eq!(report.shrinks, 0, "{shrinker:?}: no step shows");
        assert!(report.shrink_attempts > 0, "{shrinker:?}: candidates ran");
        let whole = format!("{:?}", vec![7u8; 2000]);
        assert_eq!(failure.counterexample[0].value, whole, "{shrinker:?}");
        assert_eq!(failure.original, failure.counterexample, "{shrinker:?}");
        assert!(!report.to_string().contains("first found as"), "{report}");
    }
}

/// A `Debug` that panics on long values: the input as found is shown as
/// the placeholder (cut-short printing and the comparison with it both
/// catch the panic), and shrinking still ends at the minimum.
#[test]
fn a_debug_that_panics_on_the_long_original_still_shrinks() {
    #[derive(Clone)]
    struct Fussy(Vec<u32>);
    impl std::fmt::Debug for Fussy {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            assert!(self.0.len() < 20, "too long to print");
            write!(f, "Fussy({:?})", self.0)
        }
    }
    let prop = property! {
        forall xs: Fussy, #[gen = gen::map(gen::vec(gen::int(0..=1000u32), 0..=2000), Fussy)];
        check xs.0.len() < 100 || xs.0.iter().all(|&x| x < 900)
    };
    let report = generational(&prop, quiet().seed(2).sizes(Sizes::Fixed(2000)));
    let failure = report.failure.as_ref().expect("some element is large");
    let (found,) = report.original::<(Fussy,)>().expect("typed");
    assert!(found.0.len() >= 100, "the input as found is long");
    assert!(
        failure.original[0]
            .value
            .contains("<Debug panicked: too long to print"),
        "{report}"
    );
    let (shrunk,) = report.counterexample::<(Fussy,)>().expect("typed");
    assert_eq!(shrunk.0.len(), 100, "{report}");
    assert!(shrunk.0.iter().filter(|&&x| x != 0).eq([&900]), "{report}");
}

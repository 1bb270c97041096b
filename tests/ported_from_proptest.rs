//! A real proptest file ported with the guide alone (its chapter *Coming
//! from proptest*): the `proptest!` block of the smol_str crate's
//! `tests/test.rs` (rust-analyzer's small-string type), six properties that
//! a `SmolStr` built from a string or from an iterator of strings agrees
//! with the `String` it stands for, and stays inline up to 23 bytes.
//!
//! smol_str is not a dependency of pbt, so `SmolStr` below is a stand-in
//! with the same API surface and representation rule (inline up to 23
//! bytes, shared on the heap beyond); the properties, their generators and
//! their assertions are the original's, spelled in pbt. Each original is
//! quoted above its port.

use pbt::prelude::*;
use std::sync::Arc;

/// The stand-in: inline up to 23 bytes, an `Arc<str>` beyond.
#[derive(Clone, Debug)]
enum SmolStr {
    Inline { len: u8, buf: [u8; 23] },
    Heap(Arc<str>),
}

impl SmolStr {
    fn new(text: impl AsRef<str>) -> SmolStr {
        let text = text.as_ref();
        if text.len() <= 23 {
            let mut buf = [0; 23];
            buf[..text.len()].copy_from_slice(text.as_bytes());
            SmolStr::Inline {
                len: text.len() as u8,
                buf,
            }
        } else {
            SmolStr::Heap(text.into())
        }
    }
    fn as_str(&self) -> &str {
        match self {
            SmolStr::Inline { len, buf } => std::str::from_utf8(&buf[..*len as usize]).unwrap(),
            SmolStr::Heap(s) => s,
        }
    }
    fn len(&self) -> usize {
        self.as_str().len()
    }
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn is_heap_allocated(&self) -> bool {
        matches!(self, SmolStr::Heap(_))
    }
}

impl FromIterator<String> for SmolStr {
    fn from_iter<I: IntoIterator<Item = String>>(iter: I) -> SmolStr {
        SmolStr::new(iter.into_iter().collect::<String>())
    }
}

impl<'a> FromIterator<&'a String> for SmolStr {
    fn from_iter<I: IntoIterator<Item = &'a String>>(iter: I) -> SmolStr {
        SmolStr::new(iter.into_iter().map(String::as_str).collect::<String>())
    }
}

// fn check_props(std_str: &str, smol: SmolStr) -> Result<(), TestCaseError> {
//     prop_assert_eq!(smol.as_str(), std_str);
//     prop_assert_eq!(smol.len(), std_str.len());
//     prop_assert_eq!(smol.is_empty(), std_str.is_empty());
//     if smol.len() <= 23 {
//         prop_assert!(!smol.is_heap_allocated());
//     }
//     Ok(())
// }
fn check_props(std_str: &str, smol: SmolStr) {
    assert_eq!(smol.as_str(), std_str);
    assert_eq!(smol.len(), std_str.len());
    assert_eq!(smol.is_empty(), std_str.is_empty());
    if smol.len() <= 23 {
        assert!(!smol.is_heap_allocated());
    }
}

// #[test]
// fn roundtrip(s: String) {
//     check_props(s.as_str(), SmolStr::new(s.clone()))?;
// }
#[property_test]
fn roundtrip(s: String) {
    check_props(s.as_str(), SmolStr::new(s.clone()));
}

// #[test]
// fn roundtrip_spaces(s in r"( )*") { … }
#[property_test]
fn roundtrip_spaces(#[with = regex(r"( )*")] s: String) {
    check_props(s.as_str(), SmolStr::new(s.clone()));
}

// #[test]
// fn roundtrip_newlines(s in r"\n*") { … }
#[property_test]
fn roundtrip_newlines(#[with = regex(r"\n*")] s: String) {
    check_props(s.as_str(), SmolStr::new(s.clone()));
}

// #[test]
// fn roundtrip_ws(s in r"( |\n)*") { … }
#[property_test]
fn roundtrip_ws(#[with = regex(r"( |\n)*")] s: String) {
    check_props(s.as_str(), SmolStr::new(s.clone()));
}

// #[test]
// fn from_string_iter(slices in proptest::collection::vec(".*", 1..100)) {
//     let string: String = slices.iter().map(|x| x.as_str()).collect();
//     let smol: SmolStr = slices.into_iter().collect();
//     check_props(string.as_str(), smol)?;
// }
#[property_test]
fn from_string_iter(#[with = vec(regex(".*"), 1..100)] slices: Vec<String>) {
    let string: String = slices.iter().map(|x| x.as_str()).collect();
    let smol: SmolStr = slices.into_iter().collect();
    check_props(string.as_str(), smol);
}

// #[test]
// fn from_str_iter(slices in proptest::collection::vec(".*", 1..100)) {
//     let string: String = slices.iter().map(|x| x.as_str()).collect();
//     let smol: SmolStr = slices.iter().collect();
//     check_props(string.as_str(), smol)?;
// }
#[property_test]
fn from_str_iter(#[with = vec(regex(".*"), 1..100)] slices: Vec<String>) {
    let string: String = slices.iter().map(|x| x.as_str()).collect();
    let smol: SmolStr = slices.iter().collect();
    check_props(string.as_str(), smol);
}

/// The inline rule the ported properties check is one pbt's string
/// generators reach and shrink to: a representation that spills to the
/// heap one byte early fails, and the counterexample is the 23-byte string
/// at the boundary.
#[test]
fn a_broken_inline_rule_is_found_at_the_boundary() {
    fn spills_early(s: &str) -> bool {
        s.len() > 22 // the bug: 23-byte strings go to the heap
    }
    let prop = property! {
        forall s: String, #[with = regex("[a-z]{0,40}")];
        check !(s.len() <= 23 && spills_early(s))
    };
    // Exactly 23 bytes fails: about one length in 41, so give it room and a
    // fixed seed (an unseeded 100-case run missed it about once in six).
    let config = Config::default()
        .seed(23)
        .cases(2_000)
        .regressions(pbt::runners::Regressions::Off);
    let report = pbt::runners::generational(&prop, config);
    let failure = report.failure.expect("the broken rule is found");
    assert_eq!(
        failure.counterexample[0].value,
        format!("{:?}", "a".repeat(23))
    );
}

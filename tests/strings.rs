//! Strings: `regex(pattern)` and `chars([ranges])`.
//!
//! - Every string `regex` generates matches its pattern, as the `regex`
//!   crate reads it (an independent oracle), staged or not.
//! - A literal pattern staged by the macro and the runtime `gen::regex` make
//!   the same choices and return the same string (program equivalence).
//! - Shrinking goes through the choices, so every string a check sees while
//!   shrinking still matches, and the minimal failing string is the simplest
//!   one (fewest repetitions, first alternative, first class member).
//! - `chars` is uniform over the union and shrinks to the first range's start.

use pbt::choices::{Recorder, Replay};
use pbt::generators::{self as gen, Gen};
use pbt::prelude::*;
use pbt::runners::{generational, Regressions, Shrinker};
use pbt::Arbitrary as _;
use pbt::Rng;
use std::sync::Mutex;

/// A fixed seed, so that a failure reproduces (tests that need more loop
/// over seeds).
fn quiet() -> Config {
    Config::default()
        .regressions(Regressions::Off)
        .ignore_env()
        .seed(0x5eed)
}

/// The pattern as the `regex` crate must read it to agree with pbt's ASCII
/// Perl classes, anchored at both ends.
fn oracle(pattern: &str) -> regex::Regex {
    let mut out = String::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else { break };
        out.push_str(match e {
            'd' => "[0-9]",
            'D' => "[^0-9]",
            'w' => "[0-9A-Za-z_]",
            'W' => "[^0-9A-Za-z_]",
            's' => r"[\t\n\x0B\x0C\r ]",
            'S' => r"[^\t\n\x0B\x0C\r ]",
            _ => {
                out.push('\\');
                out.push(e);
                continue;
            }
        });
    }
    regex::Regex::new(&format!("^(?:{out})$")).expect("the oracle reads the pattern")
}

/// Same value and same choices from the staged and the runtime generator.
fn agree<A: Gen<Value = String>>(staged: &A, pattern: &str, seed: u64, size: usize) -> bool {
    let runtime = gen::regex(pattern);
    let fast = staged.generate(&mut Rng::from_seed(seed), size);
    let mut rec_s = Recorder::new(Rng::from_seed(seed));
    let slow = staged.generate(&mut rec_s, size);
    let mut rec_r = Recorder::new(Rng::from_seed(seed));
    let twin = runtime.generate(&mut rec_r, size);
    fast == twin && slow == twin && rec_s.choices() == rec_r.choices()
}

/// For each literal pattern: staged ≡ runtime on 300 seeds and sizes, and
/// every string (from either) matches the oracle.
macro_rules! patterns {
    ($($name:ident: $pattern:literal,)*) => {$(
        #[test]
        fn $name() {
            let staged = pbt::generator!(regex($pattern));
            let re = oracle($pattern);
            let prop = property! {
                forall seed: u64;
                forall size: usize, #[gen = int(0..=40usize)];
                check {
                    let s = staged.generate(&mut Rng::from_seed(seed), size).unwrap();
                    assert!(re.is_match(&s), "{:?} does not match {:?}", s, $pattern);
                    agree(&staged, $pattern, seed, size)
                }
            };
            let report = generational(&prop, quiet().cases(300));
            assert!(report.passed(), "{report}");
        }
    )*};
}

patterns! {
    lowercase_word: "[a-z]{1,8}",
    identifier: "[a-zA-Z_][a-zA-Z0-9_]*",
    phone: r"\d{3}-\d{4}",
    repeated_alternation: "(foo|bar|baz)+",
    nested_groups: "(?:ab|c(d|e)?)*f$",
    negated_class: "^[^a-z]{2,5}$",
    email: r"\w+@\w+\.(com|org)",
    anything_short: r"[\s\S]{0,3}",
    dot: ".{0,10}",
    escapes: r"\x41\u{e9}[\u{1F600}-\u{1F64F}]\t\.\\",
    lazy_and_open: "a?b??c{2,}",
    named_groups: r"(?P<year>\d{4})-(?<month>0[1-9]|1[0-2])",
    empty_branch: "x|",
    empty: "",
    class_edges: r"[]a-]x[\-\]\\]+",
    perl_negations: r"\D\W\S",
    whitespace_run: r"\s*",
}

/// Seeds and sizes for the runtime-only checks.
fn samples() -> impl Iterator<Item = (u64, usize)> {
    (0..400u64).map(|seed| (seed, (seed % 41) as usize))
}

#[test]
fn runtime_patterns_match_the_oracle() {
    let patterns = [
        "[a-c]{0,2}(x|yz)*",
        r"[^\n]{1,3}",
        r"(\d+\.)?\d+",
        "((a|b)c){2}",
        "[0-9a-fA-F]{8}-[0-9a-f]{4}",
    ];
    for pattern in patterns {
        let g = gen::regex(pattern);
        let re = oracle(pattern);
        for (seed, size) in samples() {
            let s = g.generate(&mut Rng::from_seed(seed), size).unwrap();
            assert!(re.is_match(&s), "{s:?} does not match {pattern:?}");
        }
    }
}

/// Unbounded repetition stops at `min + size`.
#[test]
fn unbounded_repetition_is_bounded_by_size() {
    let g = gen::regex("a+b*");
    for (seed, size) in samples() {
        let s = g.generate(&mut Rng::from_seed(seed), size).unwrap();
        let a = s.chars().filter(|&c| c == 'a').count();
        assert!((1..=1 + size).contains(&a), "{s:?} at size {size}");
        assert!(s.len() - a <= size, "{s:?} at size {size}");
    }
}

/// All-zero choices give the simplest match.
#[test]
fn the_simplest_choices_give_the_simplest_match() {
    let cases = [
        ("[a-z]{1,8}", "a"),
        ("(foo|bar)+", "foo"),
        ("[^a-z]{2}", "00"),
        (".+", "0"),
        (r"\w{3}", "aaa"),
        ("x?(y|z)", "y"),
    ];
    for (pattern, simplest) in cases {
        let s = gen::regex(pattern)
            .generate(&mut Replay::new(&[]), 30)
            .unwrap();
        assert_eq!(s, simplest, "{pattern}");
    }
    let staged = pbt::generator!(regex("(foo|bar)+"));
    assert_eq!(
        staged.generate(&mut Replay::new(&[]), 30).unwrap(),
        "foo".to_string()
    );
}

/// A pattern, a property of its strings that fails, and the minimal failure.
type ShrinkCase = (&'static str, fn(&str) -> bool, &'static str);

/// Every string a check sees while the runner shrinks still matches, and the
/// result is the simplest failing string.
#[test]
fn shrinking_keeps_strings_matching() {
    let cases: [ShrinkCase; 4] = [
        ("[a-z]{1,8}", |s| !s.contains('q'), "\"q\""),
        ("(foo|bar|baz)+", |s| s.len() < 6, "\"foofoo\""),
        (
            r"\d{1,3}(\.\d{1,3}){3}",
            |s| !s.starts_with('7'),
            "\"7.0.0.0\"",
        ),
        ("(ab|c(d|e)?)*f", |s| !s.contains("ce"), "\"cef\""),
    ];
    for (pattern, holds, minimal) in cases {
        let re = oracle(pattern);
        let seen_bad: Mutex<Vec<String>> = Mutex::new(Vec::new());
        let g = gen::regex(pattern);
        let prop = property! {
            forall s: String, #[gen = g.clone()];
            check {
                if !re.is_match(&s) {
                    seen_bad.lock().unwrap().push(s.clone());
                }
                holds(&s)
            }
        };
        for seed in 0..5 {
            let report = generational(&prop, quiet().seed(seed).cases(2_000));
            let failure = report.failure.as_ref().expect("the property is false");
            assert_eq!(
                failure.counterexample[0].value, minimal,
                "{pattern}: {report}"
            );
        }
        let bad = seen_bad.into_inner().unwrap();
        assert!(bad.is_empty(), "{pattern}: the check saw {bad:?}");
    }
}

/// Staged in `property!` (a literal in `#[gen = …]`), the same holds.
#[test]
fn staged_shrinking_keeps_strings_matching() {
    let re = oracle("[a-c]{2,6}x?");
    let prop = property! {
        forall s: String, #[gen = regex("[a-c]{2,6}x?")];
        check re.is_match(&s) && !s.contains("cc")
    };
    let report = generational(&prop, quiet().cases(2_000));
    let failure = report.failure.expect("the property is false");
    assert_eq!(failure.counterexample[0].value, "\"cc\"");
}

#[test]
fn a_malformed_runtime_pattern_names_pattern_and_position() {
    let err = gen::Regex::new("ab[c-a]").unwrap_err();
    assert_eq!(err.offset(), 3);
    assert_eq!(
        err.to_string(),
        "invalid regex \"ab[c-a]\" at offset 3: the range `c-a` is reversed"
    );
    let panic = std::panic::catch_unwind(|| gen::regex("x{2,1}")).unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(
        message.starts_with("pbt: invalid regex \"x{2,1}\" at offset 1"),
        "{message}"
    );
}

#[test]
fn char_unions_are_uniform() {
    let g = gen::chars(['a'..='z', 'A'..='Z', '0'..='9', 'm'..='p']);
    assert_eq!(g.count(), 62);
    let mut counts = std::collections::HashMap::new();
    let mut rng = Rng::from_seed(11);
    for _ in 0..62_000 {
        *counts
            .entry(g.generate(&mut rng, 0).unwrap())
            .or_insert(0u32) += 1;
    }
    assert_eq!(counts.len(), 62);
    // 1000 expected each: ±30% is beyond 9 standard deviations.
    for (c, n) in counts {
        assert!((700..1300).contains(&n), "{c:?} drawn {n} times");
    }
}

#[test]
fn char_unions_shrink_to_the_first_range_start() {
    let g = gen::chars(['x'..='z', 'a'..='c', '\u{D7FF}'..='\u{E001}']);
    assert_eq!(g.count(), 3 + 3 + 3);
    assert_eq!(g.generate(&mut Replay::new(&[]), 0), Ok('x'));
    let prop = property! {
        forall c: char, #[gen = gen::chars(['x'..='z', 'a'..='c'])];
        check c == '@'
    };
    let report = generational(&prop, quiet());
    assert_eq!(report.failure.unwrap().counterexample[0].value, "'x'");
    let s = gen::string(gen::chars(['0'..='1', 'f'..='f']), 5..=5)
        .generate(&mut Rng::from_seed(1), 0)
        .unwrap();
    assert!(s.chars().all(|c| "01f".contains(c)) && s.len() == 5, "{s}");
}

#[test]
fn an_empty_char_union_panics_naming_the_ranges() {
    #[allow(clippy::reversed_empty_ranges)]
    let panic = std::panic::catch_unwind(|| gen::chars(['z'..='a'])).unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("needs at least one character"),
        "{message}"
    );
    assert!(message.contains("('z', 'a')"), "{message}");
}

// `#[property_test]` parameters take the same staged forms.
#[property_test(cases = 200)]
fn property_test_parameters_take_patterns(
    #[gen = regex("[0-9]{2}-[a-f]+")] code: String,
    #[gen = chars(['α'..='ω', 'a'..='z'])] letter: char,
) -> bool {
    oracle("[0-9]{2}-[a-f]+").is_match(&code)
        && (letter.is_ascii_lowercase() || ('α'..='ω').contains(&letter))
}

/// Derived generators take the staged forms in field annotations.
#[derive(Clone, Debug, pbt::Arbitrary)]
struct Account {
    #[pbt(gen = regex("[a-z]{3,8}@(example|test)\\.org"))]
    email: String,
    #[pbt(gen = chars(['A'..='Z', '0'..='9']))]
    grade: char,
}

#[test]
fn derived_fields_take_patterns() {
    let re = oracle("[a-z]{3,8}@(example|test)\\.org");
    let mut rng = Rng::from_seed(9);
    for size in 0..200 {
        let a = Account::arbitrary(&mut rng, size);
        assert!(re.is_match(&a.email), "{a:?}");
        assert!(
            a.grade.is_ascii_uppercase() || a.grade.is_ascii_digit(),
            "{a:?}"
        );
    }
}

/// Patterns for the shrinking property: classes, ranges, negation, every
/// quantifier, alternation, groups and escapes.
const SHRINK_PATTERNS: [&str; 10] = [
    "[a-z]{1,8}",
    "[^a-c]{2,5}x?",
    r"(foo|ba[rz])+\.\d*",
    r"(?:ab|c(d|e)?)*f",
    r"\w{3,6}@(x|yy)\.org",
    r"[0-9a-fA-F]{4}-[A-Za-z]?z+",
    r"\x41\u{e9}[\u{1F600}-\u{1F64F}]{1,3}\t",
    r"(\d{1,3}\.){3}\d{1,3}",
    r"[\s\S]{0,6}",
    "a+b*c{2,}d??",
];

/// The library tested with itself: for any pattern, seed, shrinker and
/// failing condition (a string longer than `k`, or holding a given
/// character), every string the check sees while the runner shrinks
/// matches the pattern, and so does the shrunk counterexample.
#[test]
fn shrinking_keeps_the_match_for_any_pattern() {
    let outer = property! {
        forall i: usize, #[gen = int(0..SHRINK_PATTERNS.len())];
        forall seed: u64;
        forall k: usize, #[gen = int(0..12usize)];
        forall probe: char, #[gen = char('a'..='z')];
        forall by_length: bool;
        forall shrinker: u8, #[gen = int(0..3u8)];
        check {
            let pattern = SHRINK_PATTERNS[i];
            let re = oracle(pattern);
            let seen_bad: Mutex<Vec<String>> = Mutex::new(Vec::new());
            let holds = |s: &str| if by_length { s.chars().count() <= k } else { !s.contains(probe) };
            let g = gen::regex(pattern);
            let inner = property! {
                forall s: String, #[gen = g.clone()];
                check {
                    if !re.is_match(&s) {
                        seen_bad.lock().unwrap().push(s.clone());
                    }
                    holds(&s)
                }
            };
            let shrinker = [Shrinker::External, Shrinker::Integrated, Shrinker::Both][usize::from(shrinker)];
            let report = generational(&inner, quiet().seed(seed).cases(300).shrinker(shrinker));
            let bad = seen_bad.into_inner().unwrap();
            note!("pattern {pattern:?}, shrinker {shrinker:?}: the check saw {bad:?}");
            if report.failure.is_some() {
                SHRUNK.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            bad.is_empty()
                && report.failure.as_ref().is_none_or(|f| {
                    let shown: String = serde_json::from_str(&f.counterexample[0].value).unwrap();
                    re.is_match(&shown) && !holds(&shown)
                })
        }
    };
    static SHRUNK: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let report = generational(&outer, quiet().cases(60));
    assert!(report.passed(), "{report}");
    // Not vacuous: most inner properties failed and were shrunk.
    let shrunk = SHRUNK.load(std::sync::atomic::Ordering::Relaxed);
    assert!(shrunk >= 30, "only {shrunk} of 60 inner runs failed");
}

//! Strings matching a regex-like pattern: [`regex`].
//!
//! The pattern is parsed once, into a draw plan (`pbt_regex_syntax::Node`);
//! generating walks the plan. In the `property!` DSL a *literal* pattern is
//! parsed by the macro instead and staged into straight-line code that makes
//! the same draws, so a malformed literal is a compile error.

use super::{Gen, Generated};
use crate::source::Source;
use pbt_regex_syntax::{Max, Node};

/// A malformed [`regex`] pattern: [`Display`](std::fmt::Display) names the
/// pattern, the character offset and what is wrong.
pub use pbt_regex_syntax::Error as RegexError;

/// Strings matching `pattern`, a regular expression without assertions.
///
/// Supported: literals, `.`, classes `[a-z_]` and `[^…]`, `\d \w \s` (ASCII)
/// and `\D \W \S`, escapes (`\n`, `\x41`, `\u{1F600}`, `\.` …), repetition
/// `? * + {m} {m,} {m,n}`, alternation `|`, groups `(…)` / `(?:…)` /
/// `(?<name>…)`, and `^` / `$` at the ends. Unbounded repetition (`*`, `+`,
/// `{m,}`) repeats at most `m + size` times, `size` being the generator's
/// size parameter.
///
/// Draws: one per class character, per repetition count and per alternation,
/// each with choice `0` the simplest (the first class member, the fewest
/// repetitions, the first alternative), so shrinking the choices gives a
/// shorter, simpler string that still matches. `.` and negated classes
/// shrink toward `'0'`.
///
/// ```
/// use pbt_core::{gen::{regex, Gen}, Rng};
/// let ident = regex("[a-z_][a-z0-9_]{0,7}");
/// let s = ident.generate(&mut Rng::from_seed(1), 10).unwrap();
/// assert!((1..=8).contains(&s.len()));
/// assert!(s.starts_with(|c: char| c.is_ascii_lowercase() || c == '_'));
/// ```
///
/// # Panics
/// When `pattern` is malformed, with a message naming the pattern, the
/// offset and the problem (use [`Regex::new`] for a `Result`). In the DSL a
/// malformed literal pattern is a compile error instead.
pub fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| panic!("pbt: {e}"))
}

/// See [`regex`].
#[derive(Clone, Debug)]
pub struct Regex {
    pattern: String,
    plan: Node,
}

impl Regex {
    /// Parse `pattern`, or say where it is malformed.
    ///
    /// ```
    /// use pbt_core::gen::Regex;
    /// let err = Regex::new("(ab").unwrap_err();
    /// assert_eq!(err.to_string(), "invalid regex \"(ab\" at offset 0: unclosed group `(`: expected `)`");
    /// ```
    pub fn new(pattern: &str) -> Result<Regex, RegexError> {
        Ok(Regex {
            pattern: pattern.to_owned(),
            plan: pbt_regex_syntax::parse(pattern)?,
        })
    }

    /// The pattern, as written.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }
}

impl Gen for Regex {
    type Value = String;
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<String> {
        let mut out = String::new();
        draw(&self.plan, src, size, &mut out);
        Ok(out)
    }
}

/// Walk the plan (the draws are documented in `pbt_regex_syntax`; the
/// staging in `pbt-stage` emits the same ones).
fn draw<S: Source + ?Sized>(node: &Node, src: &mut S, size: usize, out: &mut String) {
    match node {
        Node::Literal(s) => out.push_str(s),
        Node::Class(class) => {
            let n = src.draw(u64::from(class.count()) - 1);
            out.push(class.nth(n as u32));
        }
        Node::Repeat { node, min, max } => {
            let extra = match *max {
                Max::Fixed(max) if max == *min => 0,
                Max::Fixed(max) => src.draw(u64::from(max - min)),
                Max::Size => src.draw(size as u64),
            };
            let count = u64::from(*min) + extra;
            if node.draws_nothing() {
                // Each repetition of fixed text is a part of the budget.
                src.charge_parts(count, 0);
            }
            for _ in 0..count {
                draw(node, src, size, out);
            }
        }
        Node::Alternation(branches) => {
            let i = src.draw(branches.len() as u64 - 1) as usize;
            draw(&branches[i], src, size, out);
        }
        Node::Concat(parts) => {
            for part in parts {
                draw(part, src, size, out);
            }
        }
    }
}

//! The regex-like patterns of pbt's string generator: [`parse`] a pattern
//! into a [`Node`], a *draw plan* that both the runtime generator
//! (`pbt_core::gen::regex`) and the staging of a literal pattern
//! (`pbt-stage`) follow, so the two make the same choices.
//!
//! # Syntax
//!
//! - literal characters; `.` (any character but `\n`);
//! - classes `[abc]`, ranges `[a-z]`, negation `[^…]`, escapes inside classes;
//! - `\d \w \s` and their negations `\D \W \S` — ASCII: `[0-9]`,
//!   `[a-zA-Z0-9_]`, `[ \t\n\r\x0B\x0C]`;
//! - escapes `\n \t \r \f \v \a`, `\xHH`, `\x{H…}`, `\u{H…}`, `\uHHHH`,
//!   and any ASCII punctuation (`\. \\ \* \[ \-` …);
//! - repetition `? * + {m} {m,} {m,n}` (a lazy `?` suffix is accepted and
//!   means the same: the generated language does not change);
//! - alternation `|`, groups `( … )`, `(?: … )`, `(?P<name> … )`, `(?<name> … )`;
//! - anchors `^` and `$` at the ends of the pattern (or of a top-level
//!   alternative), where they change nothing.
//!
//! Not supported, with an error saying so: boundaries (`\b`), Unicode classes
//! (`\p{…}`), flags (`(?i)`), back-references, class set operations.
//!
//! # Draw plan
//!
//! Choice `0` is always the simplest option, so shrinking a choice sequence
//! shortens and simplifies the string while it keeps matching:
//!
//! - a [`Node::Class`]: one draw in `0..count`, the member in [`Class`]
//!   order (the first member written, for a complement `'0'`);
//! - a [`Node::Repeat`]: one draw of the count above `min`
//!   (`0..=max-min`, or `0..=size` for [`Max::Size`]; no draw when
//!   `min == max`), then the repeated node that many times;
//! - a [`Node::Alternation`]: one draw picks the branch (choice `0` the first);
//! - a [`Node::Literal`] draws nothing; a [`Node::Concat`] draws its parts in order.
//!
//! ```
//! use pbt_regex_syntax::{parse, Node, Max};
//! let node = parse("[a-z]{1,8}").unwrap();
//! assert!(matches!(node, Node::Repeat { min: 1, max: Max::Fixed(8), .. }));
//! let err = parse("[a-z").unwrap_err();
//! assert_eq!(err.offset(), 0);
//! assert!(err.to_string().contains("unclosed character class"), "{err}");
//! ```
#![forbid(unsafe_code)]

mod class;
mod parse;

pub use class::Class;
pub use parse::{parse, Error};

/// A parsed pattern: what to draw, in order (see the crate docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// Fixed text; no draw.
    Literal(String),
    /// One character of a class (at least two members): one draw.
    Class(Class),
    /// `node` repeated `min..=max` times: one draw for the count (none when
    /// `min == max`), then `node` that many times.
    Repeat {
        /// What is repeated.
        node: Box<Node>,
        /// The fewest repetitions.
        min: u32,
        /// The most repetitions.
        max: Max,
    },
    /// One of the branches (at least two): one draw picks it.
    Alternation(Vec<Node>),
    /// The parts in order (none: the empty string).
    Concat(Vec<Node>),
}

impl Node {
    /// Whether a match of this node draws nothing: fixed text, or fixed
    /// repetitions and sequences of it. A generator counts each repetition
    /// of such a node as a part of its draw budget, so that `a{4000000000}`
    /// or `a*` at a huge size ends as "data too large" rather than
    /// building a string without bound.
    ///
    /// ```
    /// use pbt_regex_syntax::parse;
    /// assert!(parse("ab{3}").unwrap().draws_nothing());
    /// assert!(!parse("a[bc]").unwrap().draws_nothing());
    /// assert!(!parse("a*").unwrap().draws_nothing());
    /// ```
    pub fn draws_nothing(&self) -> bool {
        match self {
            Node::Literal(_) => true,
            Node::Class(_) | Node::Alternation(_) => false,
            Node::Repeat { node, min, max } => *max == Max::Fixed(*min) && node.draws_nothing(),
            Node::Concat(parts) => parts.iter().all(Node::draws_nothing),
        }
    }
}

/// The upper bound of a [`Node::Repeat`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Max {
    /// At most this many (`?`, `{m,n}`, `{m}`).
    Fixed(u32),
    /// Unbounded (`*`, `+`, `{m,}`): at most `min + size`, where `size` is
    /// the generator's size parameter.
    Size,
}

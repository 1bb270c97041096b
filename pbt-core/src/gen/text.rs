//! Characters and strings.

use super::{Gen, Generated, Length};
use crate::source::Source;
use std::ops::{Bound, RangeBounds};

/// Characters in `range`, skipping the surrogate gap; choice `0` is the low end.
///
/// ```
/// use pbt_core::{gen::{char, Gen}, Rng};
/// let c = char('a'..='z').generate(&mut Rng::from_seed(4), 0).unwrap();
/// assert!(c.is_ascii_lowercase());
/// ```
///
/// # Panics
/// When the range is empty.
pub fn char(range: impl RangeBounds<char>) -> Chars {
    let lo = match range.start_bound() {
        Bound::Included(&c) => c as u32,
        Bound::Excluded(&c) => c as u32 + 1,
        Bound::Unbounded => 0,
    };
    let hi = match range.end_bound() {
        Bound::Included(&c) => c as u32,
        Bound::Excluded(&c) => (c as u32).saturating_sub(1),
        Bound::Unbounded => char::MAX as u32,
    };
    assert!(lo <= hi, "pbt: char(range) needs a non-empty range");
    Chars { lo, hi }
}

/// See [`char()`].
#[derive(Clone, Copy, Debug)]
pub struct Chars {
    lo: u32,
    hi: u32,
}

const SURROGATES: std::ops::RangeInclusive<u32> = 0xD800..=0xDFFF;
const GAP: u32 = 0xDFFF - 0xD800 + 1;

impl Chars {
    fn count(&self) -> u32 {
        let span = self.hi - self.lo + 1;
        let lo = self.lo.max(*SURROGATES.start());
        let hi = self.hi.min(*SURROGATES.end());
        span - if lo <= hi { hi - lo + 1 } else { 0 }
    }

    fn nth(&self, n: u32) -> char {
        let mut code = self.lo + n;
        if self.lo < *SURROGATES.start() && code >= *SURROGATES.start() {
            code += GAP;
        } else if SURROGATES.contains(&self.lo) {
            code = code - self.lo + SURROGATES.end() + 1;
        }
        char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
    }
}

impl Gen for Chars {
    type Value = char;
    #[inline]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, _size: usize) -> Generated<char> {
        let n = src.draw(u64::from(self.count()) - 1) as u32;
        Ok(self.nth(n))
    }
}

/// Characters from a union of ranges, uniformly over the union: one draw in
/// `0..count`, counting through the ranges in the order given. A character
/// in two ranges counts once (in the first), surrogates are skipped, and
/// choice `0` — where shrinking goes — is the first range's start.
///
/// ```
/// use pbt_core::{gen::{chars, string, Gen}, Rng};
/// let alnum = chars(['a'..='z', 'A'..='Z', '0'..='9']);
/// let c = alnum.generate(&mut Rng::from_seed(4), 0).unwrap();
/// assert!(c.is_ascii_alphanumeric());
/// let s = string(alnum, 1..=8).generate(&mut Rng::from_seed(4), 0).unwrap();
/// assert!(s.chars().all(|c| c.is_ascii_alphanumeric()));
/// ```
///
/// # Panics
/// When the union is empty (no range, or only empty ones such as `'z'..='a'`).
pub fn chars(ranges: impl IntoIterator<Item = std::ops::RangeInclusive<char>>) -> CharUnion {
    let ranges: Vec<(char, char)> = ranges.into_iter().map(|r| (*r.start(), *r.end())).collect();
    let class = pbt_regex_syntax::Class::union(ranges.iter().copied()).unwrap_or_else(|| {
        panic!("pbt: chars(ranges) needs at least one character, got the ranges {ranges:?}")
    });
    CharUnion(class)
}

/// See [`chars`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CharUnion(pbt_regex_syntax::Class);

impl CharUnion {
    /// How many characters the union holds.
    pub fn count(&self) -> u32 {
        self.0.count()
    }

    /// Whether `c` is in the union.
    pub fn contains(&self, c: char) -> bool {
        self.0.contains(c)
    }

    #[inline]
    fn draw<S: Source + ?Sized>(&self, src: &mut S) -> char {
        self.0.nth(src.draw(u64::from(self.0.count()) - 1) as u32)
    }
}

impl Gen for CharUnion {
    type Value = char;
    #[inline]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, _size: usize) -> Generated<char> {
        Ok(self.draw(src))
    }
}

/// The characters a [`string`] may contain.
#[derive(Clone, Debug)]
pub enum CharSet {
    /// Exactly these characters (choice `0` is the first).
    List(Vec<char>),
    /// A range of characters.
    Range(Chars),
    /// A union of character ranges (see [`chars`]).
    Union(CharUnion),
}

impl From<CharUnion> for CharSet {
    fn from(u: CharUnion) -> Self {
        CharSet::Union(u)
    }
}

impl From<&String> for CharSet {
    fn from(s: &String) -> Self {
        CharSet::from(s.as_str())
    }
}

impl From<&str> for CharSet {
    fn from(s: &str) -> Self {
        let chars: Vec<char> = s.chars().collect();
        assert!(
            !chars.is_empty(),
            "pbt: string(charset, _) needs at least one character"
        );
        CharSet::List(chars)
    }
}

impl From<std::ops::RangeInclusive<char>> for CharSet {
    fn from(r: std::ops::RangeInclusive<char>) -> Self {
        CharSet::Range(char(r))
    }
}

impl From<Chars> for CharSet {
    fn from(r: Chars) -> Self {
        CharSet::Range(r)
    }
}

/// What [`string`] takes as its characters: a `&str` listing them, a
/// `char` range (`'a'..='z'`, or the generator `char('a'..='z')`), a
/// [`chars`] union, or a [`CharSet`]. For a string of the characters any
/// other generator makes (`any::<char>()`, a `one_of[…]`), see
/// [`string_of`].
///
/// ```
/// use pbt_core::{gen::{char, string, Gen}, Rng};
/// let a = string('a'..='c', 3..=3).generate(&mut Rng::from_seed(2), 0).unwrap();
/// let b = string(char('a'..='c'), 3..=3).generate(&mut Rng::from_seed(2), 0).unwrap();
/// assert_eq!(a, b);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a set of characters: `string(charset, len)` takes a `&str` of the characters, a `char` range or `chars([…])`",
    label = "not a set of characters",
    note = "for a string of the characters a generator makes (such as `any::<char>()`), write `string_of(generator, len)`"
)]
pub trait IntoCharSet {
    /// The set of characters.
    fn into_char_set(self) -> CharSet;
}

// One impl per kind (not a blanket one over `Into<CharSet>`), so that
// rustc reports the message above, not a missing `From`.
macro_rules! into_char_set {
    ($($ty:ty),*) => {$(
        impl IntoCharSet for $ty {
            fn into_char_set(self) -> CharSet {
                self.into()
            }
        }
    )*};
}
into_char_set!(
    CharUnion,
    &str,
    &String,
    std::ops::RangeInclusive<char>,
    Chars
);

impl IntoCharSet for CharSet {
    fn into_char_set(self) -> CharSet {
        self
    }
}

impl CharSet {
    #[inline]
    fn draw<S: Source + ?Sized>(&self, src: &mut S) -> char {
        match self {
            CharSet::List(cs) => cs[src.draw(cs.len() as u64 - 1) as usize],
            CharSet::Range(r) => r.nth(src.draw(u64::from(r.count()) - 1) as u32),
            CharSet::Union(u) => u.draw(src),
        }
    }
}

/// Strings of `len` characters (a `usize` range) drawn from `charset`: a
/// `&str` listing the characters, a `char` range, or a [`chars`] union.
///
/// ```
/// use pbt_core::{gen::{string, Gen}, Rng};
/// let s = string("ab", 1..=4).generate(&mut Rng::from_seed(0), 0).unwrap();
/// assert!((1..=4).contains(&s.chars().count()) && s.chars().all(|c| c == 'a' || c == 'b'));
/// ```
pub fn string(charset: impl IntoCharSet, len: impl Length) -> Str {
    Str {
        charset: charset.into_char_set(),
        len: len.lengths(),
    }
}

/// See [`string`].
#[derive(Clone, Debug)]
pub struct Str {
    charset: CharSet,
    len: super::Int<usize>,
}

impl Gen for Str {
    type Value = String;
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<String> {
        src.start_block(crate::source::BlockKind::Collection);
        let n = self.len.generate(src, size)?;
        src.charge_parts(n as u64, 0);
        let mut s = String::with_capacity(n.min(super::MAX_RESERVE));
        for _ in 0..n {
            src.start_block(crate::source::BlockKind::Element);
            s.push(self.charset.draw(src));
            src.end_block();
        }
        src.end_block();
        Ok(s)
    }
}

/// Strings of `len` characters (a `usize` range), each made by the
/// generator `chars`: `string_of(any::<char>(), 0..10)`, or in the DSL
/// `string_of(one_of[char('a'..='f'), just('_')], 1..8)`. It makes the
/// choices `vec(chars, len)` makes and collects them, so it shrinks as that
/// list does. ([`string`] takes a set of characters instead, drawn
/// uniformly.)
///
/// ```
/// use pbt_core::gen::{any, string_of, vec, Gen};
/// use pbt_core::Rng;
/// let s = string_of(any::<char>(), 0..10).generate(&mut Rng::from_seed(5), 20).unwrap();
/// let cs = vec(any::<char>(), 0..10).generate(&mut Rng::from_seed(5), 20).unwrap();
/// assert_eq!(s, cs.into_iter().collect::<String>());
/// ```
pub fn string_of<G: Gen<Value = char>>(chars: G, len: impl Length) -> StrOf<G> {
    StrOf {
        chars: super::vec(chars, len),
    }
}

/// See [`string_of`].
#[derive(Clone, Copy, Debug)]
pub struct StrOf<G> {
    chars: super::VecOf<G>,
}

impl<G: Gen<Value = char>> Gen for StrOf<G> {
    type Value = String;
    #[inline]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<String> {
        Ok(self.chars.generate(src, size)?.into_iter().collect())
    }
}

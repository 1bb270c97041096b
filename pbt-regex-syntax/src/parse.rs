//! The parser: a pattern to a [`Node`], or an [`Error`] naming the pattern
//! and the position.

use crate::class::{perl, Builder, Class};
use crate::{Max, Node};

/// A malformed pattern: what is wrong, and where (a character offset).
///
/// ```
/// let err = pbt_regex_syntax::parse("a{3,1}").unwrap_err();
/// assert_eq!(err.offset(), 1);
/// assert_eq!(
///     err.to_string(),
///     "invalid regex \"a{3,1}\" at offset 1: the repetition `{3,1}` has its bounds reversed"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pattern: String,
    offset: usize,
    message: String,
}

impl Error {
    /// The offending position, in characters from the start of the pattern.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What is wrong, without the pattern and the position.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "invalid regex {:?} at offset {}: {}",
            self.pattern, self.offset, self.message
        )
    }
}

impl std::error::Error for Error {}

/// Parse `pattern` (see the crate docs for the syntax).
///
/// ```
/// use pbt_regex_syntax::{parse, Node};
/// assert_eq!(parse("ab").unwrap(), Node::Literal("ab".into()));
/// assert!(parse("(a|b").unwrap_err().to_string().contains("unclosed group"));
/// ```
pub fn parse(pattern: &str) -> Result<Node, Error> {
    let mut p = Parser {
        pattern,
        chars: pattern.chars().collect(),
        pos: 0,
    };
    let node = p.alternation(0)?;
    match p.peek() {
        None => Ok(node),
        Some(_) => Err(p.error(p.pos, "unmatched `)`: no group is open here")),
    }
}

struct Parser<'a> {
    pattern: &'a str,
    chars: Vec<char>,
    pos: usize,
}

/// What an escape stands for.
enum Escaped {
    Char(char),
    Class(Class),
}

/// Characters that repeat the atom before them.
fn is_quantifier(c: char) -> bool {
    matches!(c, '*' | '+' | '?' | '{')
}

impl Parser<'_> {
    fn error(&self, offset: usize, message: impl Into<String>) -> Error {
        Error {
            pattern: self.pattern.to_owned(),
            offset,
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        let hit = self.peek() == Some(c);
        if hit {
            self.pos += 1;
        }
        hit
    }

    /// `branch ('|' branch)*`; `depth` is the group nesting.
    fn alternation(&mut self, depth: usize) -> Result<Node, Error> {
        let mut branches = vec![self.concat(depth)?];
        while self.eat('|') {
            branches.push(self.concat(depth)?);
        }
        Ok(if branches.len() == 1 {
            branches.pop().unwrap_or(Node::Concat(Vec::new()))
        } else {
            Node::Alternation(branches)
        })
    }

    /// A sequence of repeated atoms, up to `|`, `)` or the end.
    fn concat(&mut self, depth: usize) -> Result<Node, Error> {
        let start = self.pos;
        let mut items: Vec<Node> = Vec::new();
        while let Some(c) = self.peek() {
            match c {
                '|' => break,
                ')' if depth > 0 => break,
                '^' => {
                    if depth > 0 || self.pos != start {
                        return Err(self.error(
                            self.pos,
                            "`^` is only accepted at the start of the pattern (or of a top-level alternative)",
                        ));
                    }
                    self.pos += 1;
                }
                '$' => {
                    let at = self.pos;
                    self.pos += 1;
                    if depth > 0 || !matches!(self.peek(), None | Some('|')) {
                        return Err(self.error(
                            at,
                            "`$` is only accepted at the end of the pattern (or of a top-level alternative)",
                        ));
                    }
                }
                _ => {
                    let atom = self.atom(depth)?;
                    let atom = self.repetition(atom)?;
                    items.push(atom);
                }
            }
        }
        // Adjacent literals become one.
        let mut merged: Vec<Node> = Vec::with_capacity(items.len());
        for item in items {
            match (merged.last_mut(), item) {
                (Some(Node::Literal(a)), Node::Literal(b)) => a.push_str(&b),
                (_, Node::Concat(parts)) if parts.is_empty() => {}
                (_, item) => merged.push(item),
            }
        }
        Ok(if merged.len() == 1 {
            merged.pop().unwrap_or(Node::Concat(Vec::new()))
        } else {
            Node::Concat(merged)
        })
    }

    /// One atom: a group, a class, `.`, an escape or a literal character.
    fn atom(&mut self, depth: usize) -> Result<Node, Error> {
        let at = self.pos;
        let Some(c) = self.peek() else {
            return Err(self.error(at, "expected an atom, found the end of the pattern"));
        };
        self.pos += 1;
        Ok(match c {
            '(' => self.group(at, depth)?,
            ')' => return Err(self.error(at, "unmatched `)`: no group is open here")),
            '[' => class_node(self.class(at)?),
            '.' => class_node(dot()),
            '\\' => match self.escape(at)? {
                Escaped::Char(c) => Node::Literal(c.to_string()),
                Escaped::Class(class) => class_node(class),
            },
            c if is_quantifier(c) => {
                return Err(self.error(
                    at,
                    format!("the repetition `{c}` has nothing to repeat (escape it as `\\{c}` for the character)"),
                ))
            }
            c => Node::Literal(c.to_string()),
        })
    }

    /// After `(` at `open`: the group's flags or name, its body and `)`.
    fn group(&mut self, open: usize, depth: usize) -> Result<Node, Error> {
        if self.eat('?') {
            if self.eat(':') {
                // Non-capturing: nothing else to read.
            } else if self.peek() == Some('<')
                || (self.peek() == Some('P') && self.peek_at(1) == Some('<'))
            {
                self.eat('P');
                self.eat('<');
                let name_at = self.pos;
                while matches!(self.peek(), Some(c) if c.is_alphanumeric() || c == '_') {
                    self.pos += 1;
                }
                if self.pos == name_at || !self.eat('>') {
                    return Err(self.error(name_at, "expected a group name and `>`: `(?<name>…)`"));
                }
            } else {
                return Err(self.error(
                    open,
                    "flags and look-around `(?…)` are not supported; use `(…)` or `(?:…)`",
                ));
            }
        }
        let body = self.alternation(depth + 1)?;
        if !self.eat(')') {
            return Err(self.error(open, "unclosed group `(`: expected `)`"));
        }
        Ok(body)
    }

    /// A repetition operator after `atom`, if any.
    fn repetition(&mut self, atom: Node) -> Result<Node, Error> {
        let at = self.pos;
        let (min, max) = match self.peek() {
            Some('*') => (0, Max::Size),
            Some('+') => (1, Max::Size),
            Some('?') => (0, Max::Fixed(1)),
            Some('{') => {
                self.pos += 1;
                let (min, max) = self.counted(at)?;
                self.pos -= 1;
                (min, max)
            }
            _ => return Ok(atom),
        };
        self.pos += 1;
        self.eat('?'); // lazy: the same language
        if let Some(c) = self.peek().filter(|&c| is_quantifier(c)) {
            return Err(self.error(
                self.pos,
                format!("a repetition cannot be repeated directly (`{c}`): group it first, e.g. `(?:a*){c}`"),
            ));
        }
        Ok(match (min, max) {
            (1, Max::Fixed(1)) => atom,
            (0, Max::Fixed(0)) => Node::Concat(Vec::new()),
            _ => Node::Repeat {
                node: Box::new(atom),
                min,
                max,
            },
        })
    }

    /// `m}`, `m,}` or `m,n}` after the `{` at `open`; stops on the `}`'s
    /// successor.
    fn counted(&mut self, open: usize) -> Result<(u32, Max), Error> {
        let min = self.number(open)?;
        let max = if self.eat(',') {
            if self.peek() == Some('}') {
                Max::Size
            } else {
                Max::Fixed(self.number(open)?)
            }
        } else {
            Max::Fixed(min)
        };
        if !self.eat('}') {
            return Err(self.error(
                open,
                "unclosed repetition `{`: expected `{m}`, `{m,}` or `{m,n}` (escape a literal brace as `\\{`)",
            ));
        }
        if let Max::Fixed(max) = max {
            if max < min {
                return Err(self.error(
                    open,
                    format!("the repetition `{{{min},{max}}}` has its bounds reversed"),
                ));
            }
        }
        Ok((min, max))
    }

    fn number(&mut self, open: usize) -> Result<u32, Error> {
        let start = self.pos;
        while matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
            self.pos += 1;
        }
        let digits: String = self.chars[start..self.pos].iter().collect();
        if digits.is_empty() {
            return Err(self.error(
                open,
                "expected a number in the repetition: `{m}`, `{m,}` or `{m,n}` (escape a literal brace as `\\{`)",
            ));
        }
        digits
            .parse()
            .map_err(|_| self.error(start, format!("the repetition count {digits} is too large")))
    }

    /// After `\` at `at`.
    fn escape(&mut self, at: usize) -> Result<Escaped, Error> {
        let Some(c) = self.peek() else {
            return Err(self.error(at, "the pattern ends inside an escape `\\`"));
        };
        self.pos += 1;
        let plain = |c: char| Ok(Escaped::Char(c));
        match c {
            'd' | 'D' | 'w' | 'W' | 's' | 'S' => perl(c)
                .map(Escaped::Class)
                .ok_or_else(|| self.error(at, "this class matches no character")),
            'n' => plain('\n'),
            't' => plain('\t'),
            'r' => plain('\r'),
            'f' => plain('\x0C'),
            'v' => plain('\x0B'),
            'a' => plain('\x07'),
            'x' => self.hex(at, 2),
            'u' => self.hex(at, 4),
            'U' => self.hex(at, 8),
            'b' | 'B' | 'A' | 'z' | '<' | '>' => Err(self.error(
                at,
                format!("the assertion `\\{c}` is not supported by the generator"),
            )),
            'p' | 'P' => Err(self.error(
                at,
                "Unicode classes `\\p{…}` are not supported: write the ranges, e.g. `[a-zA-Z]`",
            )),
            c if c.is_ascii_punctuation() || c == ' ' => plain(c),
            c if c.is_ascii_digit() => Err(self.error(
                at,
                format!("back-references and octal escapes (`\\{c}`) are not supported"),
            )),
            c => Err(self.error(at, format!("unknown escape `\\{c}`"))),
        }
    }

    /// `{H…}` or exactly `digits` hex digits, after `\x`, `\u` or `\U`.
    fn hex(&mut self, at: usize, digits: usize) -> Result<Escaped, Error> {
        let text: String = if self.eat('{') {
            let start = self.pos;
            while matches!(self.peek(), Some(c) if c != '}') {
                self.pos += 1;
            }
            let text = self.chars[start..self.pos].iter().collect();
            if !self.eat('}') {
                return Err(self.error(at, "unclosed hex escape: expected `}`"));
            }
            text
        } else {
            let end = (self.pos + digits).min(self.chars.len());
            let text = self.chars[self.pos..end].iter().collect();
            self.pos = end;
            text
        };
        let code = (!text.is_empty() && text.chars().all(|c| c.is_ascii_hexdigit()))
            .then(|| u32::from_str_radix(&text, 16).ok())
            .flatten();
        match code.and_then(char::from_u32) {
            Some(c) => Ok(Escaped::Char(c)),
            None => Err(self.error(
                at,
                format!("invalid hex escape: `{text}` is not the hex code of a character"),
            )),
        }
    }

    /// After `[` at `open`, up to and including `]`.
    fn class(&mut self, open: usize) -> Result<Class, Error> {
        let negated = self.eat('^');
        let mut b = Builder::default();
        let mut first = true;
        loop {
            let at = self.pos;
            let Some(c) = self.peek() else {
                return Err(self.error(open, "unclosed character class `[`: expected `]`"));
            };
            self.pos += 1;
            let lo = match c {
                ']' if !first => break,
                '[' => {
                    return Err(self.error(
                        at,
                        "nested classes and `[:name:]` are not supported: escape a literal `[` as `\\[`",
                    ))
                }
                '&' | '~' | '-' if self.peek() == Some(c) => {
                    return Err(self.error(
                        at,
                        format!("class set operations (`{c}{c}`) are not supported: escape the character"),
                    ))
                }
                '\\' => match self.escape(at)? {
                    Escaped::Char(c) => c,
                    Escaped::Class(class) => {
                        b.add_class(&class);
                        first = false;
                        if self.peek() == Some('-') && self.peek_at(1) != Some(']') {
                            return Err(self.error(
                                self.pos,
                                "a class escape like `\\d` cannot start a range",
                            ));
                        }
                        continue;
                    }
                },
                c => c,
            };
            first = false;
            if self.peek() == Some('-') && !matches!(self.peek_at(1), Some(']') | None) {
                self.pos += 1;
                let hi_at = self.pos;
                let hi = match self.peek() {
                    Some('\\') => {
                        self.pos += 1;
                        match self.escape(hi_at)? {
                            Escaped::Char(c) => c,
                            Escaped::Class(_) => {
                                return Err(self
                                    .error(hi_at, "a class escape like `\\d` cannot end a range"))
                            }
                        }
                    }
                    Some('[') => {
                        return Err(
                            self.error(hi_at, "a range cannot end with `[`: escape it as `\\[`")
                        )
                    }
                    Some(c) => {
                        self.pos += 1;
                        c
                    }
                    None => unreachable!("peek_at(1) was a character"),
                };
                if hi < lo {
                    return Err(self.error(at, format!("the range `{lo}-{hi}` is reversed")));
                }
                b.add(lo as u32, hi as u32);
            } else {
                b.add(lo as u32, lo as u32);
            }
        }
        let class = b.finish();
        let class = if negated {
            class.and_then(|c| c.complement())
        } else {
            class
        };
        class.ok_or_else(|| self.error(open, "this character class matches no character"))
    }
}

/// `.`: every character but `\n`.
fn dot() -> Class {
    let newline = Class::union([('\n', '\n')]).unwrap_or_else(|| unreachable!("non-empty"));
    newline
        .complement()
        .unwrap_or_else(|| unreachable!("more than one char"))
}

/// A class as a node: a literal when it has a single member.
fn class_node(class: Class) -> Node {
    match class.single() {
        Some(c) => Node::Literal(c.to_string()),
        None => Node::Class(class),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str) -> Node {
        Node::Literal(s.into())
    }

    #[test]
    fn shapes() {
        assert_eq!(parse("").unwrap(), Node::Concat(vec![]));
        assert_eq!(parse("^abc$").unwrap(), lit("abc"));
        assert_eq!(parse(r"a\.b\\").unwrap(), lit(r"a.b\"));
        assert_eq!(parse("[x]").unwrap(), lit("x"));
        assert_eq!(parse(r"\x41\u{1F600}").unwrap(), lit("A\u{1F600}"));
        assert_eq!(
            parse("ab?").unwrap(),
            Node::Concat(vec![
                lit("a"),
                Node::Repeat {
                    node: Box::new(lit("b")),
                    min: 0,
                    max: Max::Fixed(1)
                }
            ])
        );
        assert_eq!(
            parse("^a$|^b$").unwrap(),
            Node::Alternation(vec![lit("a"), lit("b")])
        );
        assert_eq!(parse("(?:ab)").unwrap(), lit("ab"));
        assert_eq!(parse("(?P<x>ab)(?<y>c)").unwrap(), lit("abc"));
        assert_eq!(parse("a{0}b").unwrap(), lit("b"));
        assert!(matches!(
            parse("a{2,}?").unwrap(),
            Node::Repeat {
                min: 2,
                max: Max::Size,
                ..
            }
        ));
    }

    #[test]
    fn classes() {
        let Node::Class(c) = parse("[]a-c-]").unwrap() else {
            panic!()
        };
        assert_eq!(
            (0..c.count()).map(|n| c.nth(n)).collect::<String>(),
            "]abc-"
        );
        let Node::Class(w) = parse(r"[\w]").unwrap() else {
            panic!()
        };
        assert_eq!(w.count(), 63);
        assert_eq!(w.nth(0), 'a');
        let Node::Class(dot) = parse(".").unwrap() else {
            panic!()
        };
        assert!(!dot.contains('\n') && dot.contains('\r'));
        assert_eq!(dot.nth(0), '0');
    }

    #[test]
    fn errors_name_the_position() {
        let cases = [
            ("[a-z", 0, "unclosed character class"),
            ("ab(c", 2, "unclosed group"),
            ("ab)", 2, "unmatched `)`"),
            ("*a", 0, "nothing to repeat"),
            ("a**", 2, "cannot be repeated"),
            ("a{2", 1, "unclosed repetition"),
            ("a{x}", 1, "expected a number"),
            ("a{3,1}", 1, "reversed"),
            ("[z-a]", 1, "reversed"),
            (r"a\q", 1, "unknown escape"),
            (r"\bx", 0, "not supported"),
            (r"\p{L}", 0, "Unicode classes"),
            ("(?i)a", 0, "flags"),
            ("a^", 1, "`^`"),
            ("a$b", 1, "`$`"),
            ("(a$)", 2, "`$`"),
            (r"[^\x00-\u{10FFFF}]", 0, "matches no character"),
            ("a\\", 1, "ends inside an escape"),
            (r"\xZZ", 0, "hex"),
            ("[a&&b]", 2, "set operations"),
        ];
        for (pattern, offset, needle) in cases {
            let err = parse(pattern).expect_err(pattern);
            assert_eq!(err.offset(), offset, "{pattern}: {err}");
            assert!(err.message().contains(needle), "{pattern}: {err}");
            assert!(err.to_string().contains(&format!("{pattern:?}")), "{err}");
        }
    }
}

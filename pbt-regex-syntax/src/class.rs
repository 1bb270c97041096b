//! [`Class`]: a set of characters in *draw order*, the one concept behind
//! regex classes (`[a-z0-9]`, `\d`, `.`) and unions of character ranges.

/// The first surrogate code point; `char`s skip `0xD800..=0xDFFF`.
const SURROGATE_LO: u32 = 0xD800;
/// The last surrogate code point.
const SURROGATE_HI: u32 = 0xDFFF;
/// Where complemented classes (`[^…]`, `.`, `\D`) start their draw order:
/// `'0'`, so that their simplest member is printable.
const COMPLEMENT_START: u32 = '0' as u32;

/// A non-empty set of characters, stored as disjoint inclusive code-point
/// ranges *in draw order*: choice `n` is the `n`-th member in that order, so
/// choice `0` (the simplest) is the first member of the first range.
///
/// Ranges keep the order they were written in; a character listed twice
/// counts once (where it first appears), so draws are uniform over the set.
/// Complements (`[^…]`, `.`, `\D`) are in code-point order starting at `'0'`
/// and wrapping around, so shrinking gives `'0'` rather than a control
/// character.
///
/// ```
/// use pbt_regex_syntax::Class;
/// let c = Class::union([('a', 'c'), ('0', '1'), ('b', 'd')]).unwrap();
/// assert_eq!(c.count(), 6); // a b c 0 1 d
/// assert_eq!((0..6).map(|n| c.nth(n)).collect::<String>(), "abc01d");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class {
    ranges: Vec<(u32, u32)>,
    count: u32,
}

impl Class {
    /// The union of `ranges` in the order given (a reversed range such as
    /// `('z', 'a')` is empty), or `None` when the union is empty.
    pub fn union(ranges: impl IntoIterator<Item = (char, char)>) -> Option<Class> {
        let mut b = Builder::default();
        for (lo, hi) in ranges {
            b.add(lo as u32, hi as u32);
        }
        b.finish()
    }

    /// Every character except those of `self`, in code-point order from `'0'`
    /// (wrapping around); `None` when `self` holds every character.
    pub fn complement(&self) -> Option<Class> {
        let mut covered = self.ranges.clone();
        covered.sort_unstable();
        let mut gaps = Vec::new();
        let mut next = 0u32;
        for &(lo, hi) in &covered {
            if lo > next {
                gaps.push((next, lo - 1));
            }
            next = next.max(hi + 1);
        }
        if next <= char::MAX as u32 {
            gaps.push((next, char::MAX as u32));
        }
        // Rotate: members from '0' on first, then the ones below '0'.
        let mut b = Builder::default();
        for &(lo, hi) in &gaps {
            if hi >= COMPLEMENT_START {
                b.add(lo.max(COMPLEMENT_START), hi);
            }
        }
        for &(lo, hi) in &gaps {
            if lo < COMPLEMENT_START {
                b.add(lo, hi.min(COMPLEMENT_START - 1));
            }
        }
        b.finish()
    }

    /// How many characters the class holds (at least one).
    pub fn count(&self) -> u32 {
        self.count
    }

    /// The ranges in draw order: disjoint, inclusive, never a surrogate.
    pub fn ranges(&self) -> &[(u32, u32)] {
        &self.ranges
    }

    /// The member for choice `n` (taken modulo [`count`](Class::count)).
    pub fn nth(&self, n: u32) -> char {
        let mut n = n % self.count;
        for &(lo, hi) in &self.ranges {
            let len = hi - lo + 1;
            if n < len {
                return char::from_u32(lo + n).unwrap_or(char::REPLACEMENT_CHARACTER);
            }
            n -= len;
        }
        char::REPLACEMENT_CHARACTER
    }

    /// The single member, when there is exactly one.
    pub fn single(&self) -> Option<char> {
        (self.count == 1).then(|| self.nth(0))
    }

    /// Whether `c` is a member.
    pub fn contains(&self, c: char) -> bool {
        let c = c as u32;
        self.ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi)
    }
}

/// Accumulates ranges in order, dropping what earlier ranges cover and the
/// surrogate gap.
#[derive(Default)]
pub(crate) struct Builder {
    ranges: Vec<(u32, u32)>,
    /// Everything added so far, sorted and merged.
    covered: Vec<(u32, u32)>,
}

impl Builder {
    pub(crate) fn add(&mut self, lo: u32, hi: u32) {
        if lo > hi {
            return;
        }
        if lo < SURROGATE_LO && hi > SURROGATE_HI {
            self.add(lo, SURROGATE_LO - 1);
            self.add(SURROGATE_HI + 1, hi);
            return;
        }
        let (lo, hi) = if (SURROGATE_LO..=SURROGATE_HI).contains(&lo) {
            (SURROGATE_HI + 1, hi)
        } else if (SURROGATE_LO..=SURROGATE_HI).contains(&hi) {
            (lo, SURROGATE_LO - 1)
        } else {
            (lo, hi)
        };
        if lo > hi {
            return;
        }
        // The parts of lo..=hi not yet covered, in ascending order.
        let mut next = lo;
        for &(a, b) in &self.covered {
            if b < next || a > hi {
                continue;
            }
            if a > next {
                self.ranges.push((next, a - 1));
            }
            next = b.saturating_add(1);
            if next > hi {
                break;
            }
        }
        if next <= hi {
            self.ranges.push((next, hi));
        }
        self.covered.push((lo, hi));
        self.covered.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(self.covered.len());
        for &(a, b) in &self.covered {
            match merged.last_mut() {
                Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        self.covered = merged;
    }

    pub(crate) fn add_class(&mut self, class: &Class) {
        for &(lo, hi) in &class.ranges {
            self.add(lo, hi);
        }
    }

    pub(crate) fn finish(self) -> Option<Class> {
        let count = self.ranges.iter().map(|&(lo, hi)| hi - lo + 1).sum();
        (count > 0).then_some(Class {
            ranges: self.ranges,
            count,
        })
    }
}

/// The Perl classes, ASCII only: `\d`, `\w`, `\s`, in their draw order.
pub(crate) fn perl(letter: char) -> Option<Class> {
    let ranges: &[(char, char)] = match letter.to_ascii_lowercase() {
        'd' => &[('0', '9')],
        'w' => &[('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')],
        's' => &[
            (' ', ' '),
            ('\t', '\t'),
            ('\n', '\n'),
            ('\r', '\r'),
            ('\x0B', '\x0C'),
        ],
        _ => return None,
    };
    let class = Class::union(ranges.iter().copied())?;
    if letter.is_ascii_uppercase() {
        class.complement()
    } else {
        Some(class)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlaps_count_once_and_surrogates_are_skipped() {
        let c = Class::union([('a', 'z'), ('m', 'q')]).unwrap();
        assert_eq!(c.count(), 26);
        let all = Class::union([('\0', char::MAX)]).unwrap();
        assert_eq!(all.count(), 0x11_0000 - 0x800);
        assert!(all.complement().is_none());
        assert!((0..all.count())
            .step_by(997)
            .all(|n| !(0xD800..=0xDFFF).contains(&(all.nth(n) as u32))));
    }

    #[test]
    fn complements_start_at_zero_digit() {
        let not_a = Class::union([('a', 'a')]).unwrap().complement().unwrap();
        assert_eq!(not_a.nth(0), '0');
        assert!(!not_a.contains('a'));
        assert_eq!(not_a.count(), 0x11_0000 - 0x800 - 1);
        let not_digit = perl('D').unwrap();
        assert_eq!(not_digit.nth(0), ':');
        assert!(not_digit.contains('\0') && !not_digit.contains('5'));
    }
}

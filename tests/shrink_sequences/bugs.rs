// Two planted bugs in sequences, shared by tests/shrink_sequences.rs and
// benches/shrinking.rs: a law over words of `a`-`z` (least counterexample
// 11 letters) and iterator calls checked against a `Vec`'s (least
// counterexample 2 calls).

/// A string that keeps up to 10 bytes inline and moves them to the heap
/// when a push goes past them; the move copies the 9th byte where the 10th
/// belongs (the planted bug), so a word pair of 11 letters or more fails
/// when its 9th and 10th letters differ: an algebraic law over words
/// (building from two words is concatenating them) whose least
/// counterexample has 11 letters.
#[derive(Default)]
pub struct SmallString {
    inline: [u8; 10],
    len: usize,
    heap: Option<Vec<u8>>,
}

impl SmallString {
    pub fn push(&mut self, b: u8) {
        if let Some(heap) = &mut self.heap {
            return heap.push(b);
        }
        if self.len < self.inline.len() {
            self.inline[self.len] = b;
            self.len += 1;
            return;
        }
        let mut heap = self.inline[..self.len - 1].to_vec();
        heap.push(self.inline[self.len - 2]);
        heap.push(b);
        self.heap = Some(heap);
    }
    pub fn bytes(&self) -> &[u8] {
        self.heap.as_deref().unwrap_or(&self.inline[..self.len])
    }
}

pub fn concat_holds(a: &str, b: &str) -> bool {
    let mut s = SmallString::default();
    a.bytes().chain(b.bytes()).for_each(|c| s.push(c));
    s.bytes() == [a, b].concat().as_bytes()
}

/// A call on a double-ended iterator.
#[derive(Clone, Copy, Debug)]
pub enum Call {
    Next,
    NextBack,
    Nth(u8),
    NthBack(u8),
}

/// A hand-written iterator over a slice whose `nth_back` checks `k`
/// against the end, not against what is left: after a call from the front,
/// a far enough `nth_back` returns an element already taken.
pub struct Elements<'a> {
    xs: &'a [i32],
    start: usize,
    end: usize,
}

impl Elements<'_> {
    pub fn call(&mut self, call: Call) -> Option<i32> {
        match call {
            Call::Next | Call::Nth(0) if self.start < self.end => {
                self.start += 1;
                Some(self.xs[self.start - 1])
            }
            Call::Nth(k) if usize::from(k) < self.end - self.start => {
                self.start += usize::from(k) + 1;
                Some(self.xs[self.start - 1])
            }
            Call::NextBack | Call::NthBack(0) if self.start < self.end => {
                self.end -= 1;
                Some(self.xs[self.end])
            }
            // The planted bug: `self.end`, not `self.end - self.start`.
            Call::NthBack(k) if usize::from(k) < self.end => {
                self.end -= usize::from(k) + 1;
                Some(self.xs[self.end])
            }
            _ => {
                self.start = self.end;
                None
            }
        }
    }
}

/// The elements of the iterator calls `calls` return, on ours and on a
/// `Vec`'s, agree (on the eight elements `0..8`).
pub fn calls_agree(calls: &[Call]) -> bool {
    let xs: Vec<i32> = (0..8).collect();
    let mut ours = Elements {
        xs: &xs,
        start: 0,
        end: xs.len(),
    };
    let mut theirs = xs.iter().copied();
    calls.iter().all(|&call| {
        let expected = match call {
            Call::Next => theirs.next(),
            Call::NextBack => theirs.next_back(),
            Call::Nth(k) => theirs.nth(usize::from(k)),
            Call::NthBack(k) => theirs.nth_back(usize::from(k)),
        };
        ours.call(call) == expected
    })
}

//! The challenges as quickcheck properties, to compare pbt's default
//! shrinker with quickcheck's on the same seeds.
//!
//! Shrinkers follow the QuickCheck versions the challenges come from (the
//! SmartCheck benchmarks of the Hypothesis ECOOP 2020 artifact): bound5
//! has its hand-written shrinker (adjacent values merged or moved between
//! each other, lists reordered, single values in two lists moved
//! together, interleaved with the tuple's own shrinks); binheap and
//! calculator shrink like Haskell's `genericShrink` (a node becomes one of
//! its children, then each field shrinks in turn); coupling's small ints
//! shrink as integers; everything else uses quickcheck's default
//! shrinkers (`Vec`, tuples, integers). The three challenges without a
//! QuickCheck version (large_union_list, lengthlist, difference) use the
//! defaults too.
//!
//! Generators follow pbt's versions where quickcheck's `Arbitrary` would
//! make a different problem (a fixed-length list of `0..=1000`, small ints
//! in `0..=10`, a deletion index in `0..=10`, a heap of at most 20 levels
//! of size), or Haskell QuickCheck's where quickcheck's would find no
//! failure (calculator literals and the difference tests' values as small
//! as Haskell's `Int` at size 100); otherwise quickcheck's own `Arbitrary`
//! at its default size, 100.
//!
//! Each run is `quicktest` from `Gen::from_size_and_seed(100, seed)` with
//! as many tests as the pbt run. quickcheck keeps no typed counterexample:
//! each property remembers the last input it failed on, which is the one
//! quickcheck's greedy shrinking ends at. A seed on which no failure is
//! found counts as a miss.

use super::{
    binheap_holds, bound5_holds, bound5_pre, coupling_holds, deletion_holds, difference_holds,
    distinct, node, reversed, Challenge, Expr, Heap, BINHEAP, BOUND5, CALCULATOR, COUPLING,
    DELETION, DIFFERENCE, DIFFERENCE_CASES, DISTINCT, LARGE_UNION_LIST, LENGTHLIST, NESTEDLISTS,
    REVERSE, SEEDS,
};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult, Testable};
use std::any::Any;
use std::cell::RefCell;
use std::fmt;

thread_local! {
    /// The last input a property failed on in this thread.
    static LAST_FAILURE: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

/// The result of a property on `input` (`None`: the precondition does not
/// hold), remembering `input` when it fails.
fn observe<T: 'static>(input: T, holds: Option<bool>) -> TestResult {
    match holds {
        None => TestResult::discard(),
        Some(true) => TestResult::passed(),
        Some(false) => {
            LAST_FAILURE.with(|last| *last.borrow_mut() = Some(Box::new(input)));
            TestResult::failed()
        }
    }
}

/// Run `prop` from every seed (at most `tests` passing tests) and count the
/// seeds whose shrunk input is a documented minimum of `challenge`.
fn count<A: Testable + Copy, T: fmt::Debug + 'static>(
    prop: A,
    tests: u64,
    challenge: &Challenge<T>,
) -> usize {
    let name = challenge.name;
    let mut lines = Vec::new();
    let mut reached = 0;
    for seed in SEEDS {
        LAST_FAILURE.with(|last| *last.borrow_mut() = None);
        let result = QuickCheck::new()
            .rng(Gen::from_size_and_seed(100, seed))
            .tests(tests)
            .max_tests(tests * 10)
            .quicktest(prop);
        let shrunk = LAST_FAILURE.with(|last| last.borrow_mut().take());
        match (result, shrunk) {
            (Err(_), Some(shrunk)) => {
                let value = *shrunk.downcast::<T>().expect("the challenge's input type");
                assert!(
                    (challenge.fails)(&value),
                    "{name} (quickcheck), seed {seed}: the shrunk {value:?} does not fail"
                );
                let minimal = (challenge.minimal)(&value);
                reached += usize::from(minimal);
                let mark = if minimal { "" } else { "   <- not minimal" };
                lines.push(format!("seed {seed}: {value:?}{mark}"));
            }
            _ => lines.push(format!("seed {seed}: no failure found")),
        }
    }
    eprintln!(
        "{name} (quickcheck): {reached}/{} seeds at a documented minimum ({})\n  {}",
        lines.len(),
        challenge.documented,
        lines.join("\n  ")
    );
    reached
}

// --------------------------------------------------------------- bound5

/// bound5's five lists, shrunk by the challenge's hand-written shrinker.
#[derive(Clone, Debug)]
struct Bound5([Vec<i16>; 5]);

/// Two values where the first is below the second: the second shrinks and
/// the first takes what it loses (their sum kept; none when either is 0).
fn move_between(m: i16, n: i16) -> Vec<(i16, i16)> {
    if m == 0 || n == 0 || m >= n {
        return Vec::new();
    }
    n.shrink()
        .map(|s| (m.wrapping_add(n).wrapping_sub(s), s))
        .collect()
}

/// Each pair of adjacent values merged into one (wrapping sum), or with
/// value moved between them.
fn shrink_adjacent_pairs(xs: &[i16]) -> Vec<Vec<i16>> {
    let mut out = Vec::new();
    for i in 0..xs.len().saturating_sub(1) {
        let (prefix, (a, b), rest) = (&xs[..i], (xs[i], xs[i + 1]), &xs[i + 2..]);
        out.push([prefix, &[a.wrapping_add(b)], rest].concat());
        out.extend(
            move_between(a, b)
                .into_iter()
                .map(|(s1, s2)| [prefix, &[s1, s2], rest].concat()),
        );
    }
    out
}

/// Each adjacent pair of lists out of order swapped.
fn reorder_lists(ls: &[Vec<i16>; 5]) -> Vec<[Vec<i16>; 5]> {
    (0..4)
        .filter(|&i| ls[i] > ls[i + 1])
        .map(|i| {
            let mut c = ls.clone();
            c.swap(i, i + 1);
            c
        })
        .collect()
}

/// Haskell's `combine`: the first candidate of each list, then the second
/// of each, and so on.
fn interleave<T>(lists: Vec<Vec<T>>) -> Vec<T> {
    let mut iters: Vec<_> = lists.into_iter().map(Vec::into_iter).collect();
    let mut out = Vec::new();
    loop {
        let before = out.len();
        for it in &mut iters {
            out.extend(it.next());
        }
        if out.len() == before {
            return out;
        }
    }
}

impl Arbitrary for Bound5 {
    fn arbitrary(g: &mut Gen) -> Self {
        Bound5(std::array::from_fn(|_| Vec::<i16>::arbitrary(g)))
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let ls = &self.0;
        let tuple = (
            ls[0].clone(),
            ls[1].clone(),
            ls[2].clone(),
            ls[3].clone(),
            ls[4].clone(),
        );
        let mut lists = vec![tuple
            .shrink()
            .map(|(a, b, c, d, e)| Bound5([a, b, c, d, e]))
            .collect::<Vec<_>>()];
        for i in 0..5 {
            lists.push(
                shrink_adjacent_pairs(&ls[i])
                    .into_iter()
                    .map(|s| {
                        let mut c = ls.clone();
                        c[i] = s;
                        Bound5(c)
                    })
                    .collect(),
            );
        }
        lists.push(reorder_lists(ls).into_iter().map(Bound5).collect());
        // Two adjacent lists of one value each, value moved between them
        // (the reference's sp1..sp4, from the last pair to the first).
        for i in (0..4).rev() {
            let pair = match (&ls[i][..], &ls[i + 1][..]) {
                (&[m], &[n]) => move_between(m, n),
                _ => Vec::new(),
            };
            lists.push(
                pair.into_iter()
                    .map(|(s1, s2)| {
                        let mut c = ls.clone();
                        c[i] = vec![s1];
                        c[i + 1] = vec![s2];
                        Bound5(c)
                    })
                    .collect(),
            );
        }
        Box::new(interleave(lists).into_iter())
    }
}

fn bound5_prop(b: Bound5) -> TestResult {
    let refs: [&[i16]; 5] = [&b.0[0], &b.0[1], &b.0[2], &b.0[3], &b.0[4]];
    let holds = bound5_pre(&refs).then(|| bound5_holds(&refs));
    let [a, b, c, d, e] = b.0;
    observe(((a, b, c, d, e),), holds)
}

pub fn bound5() -> usize {
    count(bound5_prop as fn(Bound5) -> TestResult, 100, &BOUND5)
}

// ----------------------------------------------- lists with the defaults

fn large_union_list_prop(ls: Vec<Vec<i32>>) -> TestResult {
    let holds = distinct(ls.iter().flatten()) < 5;
    observe((ls,), Some(holds))
}

pub fn large_union_list() -> usize {
    count(
        large_union_list_prop as fn(Vec<Vec<i32>>) -> TestResult,
        100,
        &LARGE_UNION_LIST,
    )
}

fn reverse_prop(xs: Vec<i32>) -> TestResult {
    let holds = reversed(&xs) == xs;
    observe((xs,), Some(holds))
}

pub fn reverse() -> usize {
    count(reverse_prop as fn(Vec<i32>) -> TestResult, 100, &REVERSE)
}

fn distinct_prop(xs: Vec<i32>) -> TestResult {
    let holds = distinct(xs.iter()) < 3;
    observe((xs,), Some(holds))
}

pub fn distinct_challenge() -> usize {
    count(distinct_prop as fn(Vec<i32>) -> TestResult, 100, &DISTINCT)
}

/// The reference's `[[()]]`: only the lengths matter.
fn nestedlists_prop(ls: Vec<Vec<()>>) -> TestResult {
    let holds = ls.iter().map(Vec::len).sum::<usize>() <= 10;
    let zeros: Vec<Vec<i32>> = ls.iter().map(|l| vec![0; l.len()]).collect();
    observe((zeros,), Some(holds))
}

pub fn nestedlists() -> usize {
    count(
        nestedlists_prop as fn(Vec<Vec<()>>) -> TestResult,
        100,
        &NESTEDLISTS,
    )
}

/// A value in `0..=max` from quickcheck's generator.
fn below(g: &mut Gen, max: u64) -> u64 {
    u64::arbitrary(g) % (max + 1)
}

/// lengthlist: a length in `1..=100`, then that many values in `0..=1000`;
/// shrunk as a `Vec<i32>` (shorter, then smaller values: never out of
/// range).
#[derive(Clone, Debug)]
struct LengthList(Vec<i32>);

impl Arbitrary for LengthList {
    fn arbitrary(g: &mut Gen) -> Self {
        let n = 1 + below(g, 99);
        LengthList((0..n).map(|_| below(g, 1000) as i32).collect())
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(LengthList))
    }
}

fn lengthlist_prop(ls: LengthList) -> TestResult {
    let holds = ls.0.iter().max().is_none_or(|&m| m < 900);
    observe((ls.0,), Some(holds))
}

pub fn lengthlist() -> usize {
    count(
        lengthlist_prop as fn(LengthList) -> TestResult,
        100,
        &LENGTHLIST,
    )
}

// ----------------------------------------------------------- difference

/// A `u32` as small as Haskell's `Int` at size 100 (`0..=100`), shrunk as a
/// `u32`. With quickcheck's own `u32`, which spans the whole type, the
/// difference tests find no failure on most seeds (difference 1 only the
/// edge pair `(u32::MAX, u32::MAX)`), which would compare generators, not
/// shrinkers.
#[derive(Clone, Copy, Debug)]
struct SmallU32(u32);

impl Arbitrary for SmallU32 {
    fn arbitrary(g: &mut Gen) -> Self {
        SmallU32(below(g, 100) as u32)
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(SmallU32))
    }
}

fn difference_prop<const TEST: u8>(
    SmallU32(first): SmallU32,
    SmallU32(second): SmallU32,
) -> TestResult {
    let holds = (first > 0 && second > 0).then(|| difference_holds(TEST, first, second));
    observe((first, second), holds)
}

/// The difference test `TEST`'s quickcheck run.
fn difference<const TEST: u8>() -> usize {
    let prop: fn(SmallU32, SmallU32) -> TestResult = difference_prop::<TEST>;
    count(prop, DIFFERENCE_CASES, &DIFFERENCE[usize::from(TEST - 1)])
}

pub fn difference_1() -> usize {
    difference::<1>()
}

pub fn difference_2() -> usize {
    difference::<2>()
}

pub fn difference_3() -> usize {
    difference::<3>()
}

// ----------------------------------------------- genericShrink: calculator

/// Haskell's `mkM n`: a literal at 0, else an addition or a division of
/// two expressions of sizes below `n`. Literals are as small as Haskell's
/// `Int` at size 100 (quickcheck's `i64` spans the whole type, where a
/// divisor adding up to 0 is never found).
fn expr(g: &mut Gen, n: u64) -> Expr {
    if n == 0 {
        return Expr::Lit(below(g, 200) as i64 - 100);
    }
    let sub = |g: &mut Gen| {
        let k = below(g, n - 1);
        Box::new(expr(g, k))
    };
    if bool::arbitrary(g) {
        Expr::Add(sub(g), sub(g))
    } else {
        Expr::Div(sub(g), sub(g))
    }
}

impl Arbitrary for Expr {
    fn arbitrary(g: &mut Gen) -> Self {
        let size = g.size() as u64;
        let n = below(g, size - 1);
        expr(g, n)
    }

    /// `genericShrink`: the children, then each field shrunk in turn.
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        match self {
            Expr::Lit(n) => Box::new(n.shrink().map(Expr::Lit)),
            Expr::Add(l, r) | Expr::Div(l, r) => {
                let rebuild: fn(Box<Expr>, Box<Expr>) -> Expr = match self {
                    Expr::Add(..) => Expr::Add,
                    _ => Expr::Div,
                };
                let children = [(**l).clone(), (**r).clone()].into_iter();
                let (l2, r2) = (l.clone(), r.clone());
                let lefts = l.shrink().map(move |l| rebuild(l, r2.clone()));
                let rights = r.shrink().map(move |r| rebuild(l2.clone(), r));
                Box::new(children.chain(lefts).chain(rights))
            }
        }
    }
}

fn calculator_prop(e: Expr) -> TestResult {
    let holds = e.no_div_by_literal_zero().then(|| e.evaluate().is_some());
    observe((e,), holds)
}

pub fn calculator() -> usize {
    count(calculator_prop as fn(Expr) -> TestResult, 100, &CALCULATOR)
}

// -------------------------------------------------- genericShrink: binheap

/// pbt's generator (a size in `0..=20`; the empty heap one time in eight,
/// or a key at least its parent's and two heaps of half the size).
fn heap(g: &mut Gen, parent: i64, size: u64) -> Heap {
    if size == 0 || below(g, 7) == 0 {
        return Heap::Empty;
    }
    let key = parent + below(g, 1_000_000) as i64;
    let left = heap(g, key, size / 2);
    let right = heap(g, key, size / 2);
    node(key, left, right)
}

impl Arbitrary for Heap {
    fn arbitrary(g: &mut Gen) -> Self {
        let size = below(g, 20);
        heap(g, 0, size)
    }

    /// `genericShrink`: the children, then the key, the left and the right
    /// heap shrunk in turn. Candidates that break the heap order are
    /// discarded by the property's precondition, as in the reference.
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        match self {
            Heap::Empty => Box::new(std::iter::empty()),
            Heap::Node(k, l, r) => {
                let (k, l, r) = (*k, (**l).clone(), (**r).clone());
                let children = [l.clone(), r.clone()].into_iter();
                let (l1, r1, l2, r2) = (l.clone(), r.clone(), l.clone(), r.clone());
                let keys = k.shrink().map(move |k| node(k, l1.clone(), r1.clone()));
                let lefts = l.shrink().map(move |l| node(k, l, r2.clone()));
                let rights = r.shrink().map(move |r| node(k, l2.clone(), r));
                Box::new(children.chain(keys).chain(lefts).chain(rights))
            }
        }
    }
}

fn binheap_prop(h: Heap) -> TestResult {
    let holds = h.is_heap().then(|| binheap_holds(&h));
    observe((h,), holds)
}

pub fn binheap() -> usize {
    count(binheap_prop as fn(Heap) -> TestResult, 100, &BINHEAP)
}

// ------------------------------------------------------------- coupling

/// The reference's `SmallInt`: drawn from `0..=10`, shrunk as an integer.
#[derive(Clone, Copy, Debug)]
struct SmallInt(usize);

impl Arbitrary for SmallInt {
    fn arbitrary(g: &mut Gen) -> Self {
        SmallInt(below(g, 10) as usize)
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(SmallInt))
    }
}

fn coupling_prop(ls: Vec<SmallInt>) -> TestResult {
    let ls: Vec<usize> = ls.into_iter().map(|SmallInt(v)| v).collect();
    let holds = ls
        .iter()
        .all(|&v| v < ls.len())
        .then(|| coupling_holds(&ls));
    observe((ls,), holds)
}

pub fn coupling() -> usize {
    count(
        coupling_prop as fn(Vec<SmallInt>) -> TestResult,
        100,
        &COUPLING,
    )
}

// ------------------------------------------------------------- deletion

/// An index drawn from `0..=10` (as pbt's), shrunk as an integer.
#[derive(Clone, Copy, Debug)]
struct Index(usize);

impl Arbitrary for Index {
    fn arbitrary(g: &mut Gen) -> Self {
        Index(below(g, 10) as usize)
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(Index))
    }
}

/// The reference's pair `([Int], Int)`, shrunk as a tuple.
fn deletion_prop(pair: (Vec<i32>, Index)) -> TestResult {
    let (ls, Index(i)) = pair;
    let wide: Vec<i64> = ls.iter().map(|&x| i64::from(x)).collect();
    let holds = (i < ls.len()).then(|| deletion_holds(&wide, i));
    observe((ls, i), holds)
}

pub fn deletion() -> usize {
    count(
        deletion_prop as fn((Vec<i32>, Index)) -> TestResult,
        100,
        &DELETION,
    )
}

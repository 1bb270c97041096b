//! The shrinking challenge (https://github.com/jlink/shrinking-challenge) as
//! pbt properties. Each challenge runs from seeds 0..10 under each shrinker
//! (`Shrinker::External`, `Integrated`, `Both`). Every run must end at a
//! counterexample that still fails the property and is no larger than the
//! input first found (scalars, then containers, then the sum of
//! magnitudes, compared in that order). Both are read from the report as
//! typed values (`Report::counterexample`, `Report::original`), not parsed
//! back from their printed form. Where a shrinker reaches the minimum
//! the challenge documents on every seed, the test asserts exactly that.
//!
//! The default shrinker's test of each challenge (`*_both`) also runs the
//! challenge's quickcheck version (tests/shrinking_challenge/
//! quickcheck_versions.rs: the reference QuickCheck shrinkers, hand-written
//! where the reference has one) from the same seeds, prints both counts
//! and asserts that pbt reaches a documented minimum on at least as many
//! seeds as quickcheck.
//!
//! The properties follow the challenge texts and their jqwik/Hypothesis
//! versions:
//!
//! - bound5: five `Vec<i16>`s (type-based, unbounded as in jqwik), `implies`
//!   each sums below 256, `check` the wrapping `i16` total is below 1280.
//!   Any placement of the values -32768 and -1 counts as the minimum.
//! - large_union_list, reverse, distinct: `Vec<Vec<i32>>` / `Vec<i32>`, type-based.
//! - calculator: `Expr` from `recursive(frequency[3 => literal, size => +, size => /])`,
//!   with a hand-written `Shrink` (`#[shrink]`), `implies` no `x / 0` subterm.
//!   Either documented minimum counts.
//! - lengthlist: `bind(int(1..=100), |n| vec(int(0..=1000), n..=n))`.
//! - difference 1, 2, 3: two `u32`s (type-based), `implies` both positive.
//!   Test 2 fails for a difference in `1..=4`, as the jqwik code does (its
//!   prose is inverted).
//! - binheap: jqwik's generator (a size in `0..=20`, then at each level `None`
//!   one time in eight, or a key at least the parent's and two heaps of half
//!   the size), with a hand-written, order-preserving `Shrink`. Any
//!   four-key heap of 0, 0, 0, 1 counts (all are equally small; jqwik's
//!   report lists the mirror image of the documented one too).
//! - coupling: `vec(int(0..=10), 0..=size)`, `implies` every value is an index.
//! - deletion: `Vec<i32>` and an index from `int(0..=10)`, `implies` in range.
//! - nestedlists: `vec(vec(int(0..=0), 0..=20), 0..=20)`. The lengths do not
//!   depend on the size: bounded by the size, a failure found at a small size
//!   cannot be shrunk into one list of 11 by any shrinker.
//!
//! Results over 20 seeds (`SEEDS` set to `0..20`, `cargo test --release
//! --test shrinking_challenge -- --nocapture`; the suite runs 10): seeds at
//! the documented minimum, per shrinker, and for the quickcheck version. `Both`
//! is the default; it equals or beats quickcheck on every challenge. A cell
//! the test asserts only "no larger than found" (not the minimum) on its 10
//! seeds is marked `*`; letters are the gaps below.
//!
//! | challenge        | external   | integrated | both (default) | quickcheck  |
//! |------------------|------------|------------|----------------|-------------|
//! | bound5           | 2/20 (a)*  | 20/20      | 20/20          | 14/20 (k)   |
//! | large_union_list | 0/20 (b)*  | 20/20      | 20/20          | 0/20 (l)    |
//! | reverse          | 19/20 (d)* | 20/20      | 20/20          | 19/20 (d)   |
//! | calculator       | 19/20      | 20/20      | 20/20          | 19/20       |
//! | lengthlist       | 20/20      | 20/20      | 20/20          | 20/20       |
//! | difference 1     | 0/20 (e)*  | 20/20      | 20/20          | 0/20 (e)    |
//! | difference 2     | 20/20      | 20/20      | 20/20          | 20/20       |
//! | difference 3     | 1/20 (e)*  | 20/20      | 20/20          | 0/20 (e)    |
//! | binheap          | 15/20 (f)* | 20/20      | 20/20          | 17/20 (f)   |
//! | coupling         | 19/20 (j)  | 19/20 (i)* | 19/20 (i)*     | 8/20 (j)    |
//! | deletion         | 18/20      | 20/20      | 20/20          | 19/20       |
//! | distinct         | 10/20 (d)* | 20/20      | 20/20          | 19/20 (d)   |
//! | nestedlists      | 20/20      | 20/20      | 20/20          | 20/20       |
//!
//! Gaps that are limits of the shrinkers:
//!
//! - (a) type-based shrinking cannot move value between the lists or shrink
//!   the two values together: `([], [], [], [-6781], [-25988])`.
//! - (b) nor join lists: `[[0, 1], [2, 3, -1]]`, `[[0], [1, 2, 3, 4]]`.
//! - (d) type-based shrinking does not reorder: `[1, 0]`, `[0, 2, 1]`, `[1, 2, 0]`.
//! - (e) the two values must change together: `37, 37` (nothing shrinks);
//!   `15, 14`, `11, 10`.
//! - (f) the hand-written shrinker stops at `(0, (1, None, None), (0, (2, None, None), None))`,
//!   which needs a change of shape to get smaller.
//! - (i) one seed ends at `[0, 0, 0, 9, 0, 0, 0, 0, 0, 3]`, a 2-cycle
//!   between positions 3 and 9 that no single step breaks (an element
//!   deleted between them must lower the index that points past it).
//! - (j) the same with another cycle: `[0, 0, 0, 0, 0, 7, 0, 5]`.
//! - (k) the hand-written shrinker moves value between two adjacent values
//!   only toward the later one, and only in quickcheck's integer steps:
//!   `([], [], [], [], [-110, -32659])`.
//! - (l) quickcheck's integers shrink toward zero and never change sign:
//!   `[[0, 1, 2, 3, 4]]`, where `-1` and `-2` are smaller than `3` and `4`.
//!
//! bound5 reached its minimum on 16 of 20 seeds before the integrated
//! shrinker ordered the outermost collections too: after the size was
//! widened, `-10000` was re-encoded as a small value at its bound (±size),
//! and value could not move into it (`([-22769], [], [], [-10000], [])`);
//! with the two lists swapped it moves the other way.
//!
//! Integrated shrinking reaches the minimum of difference 1 and 3 and of
//! binheap since `Arbitrary` integers draw their kind and then their value,
//! both in value order (an edge value such as `u32::MAX` used to be a
//! cheaper choice than `10`).
//!
//! Three pbt bugs this suite found were fixed (regression tests in
//! tests/shrinking.rs): integrated shrinking stepping a choice down by one
//! (deleting trailing zeros paired with a length decrement), an overflow in
//! the redistribution pass on choices above `u64::MAX / 2`, and a hang when
//! the runner's body unwound with the watchdog running.

use pbt::prelude::*;
use pbt::runners::{generational, Failure, Regressions, Shrinker, Variables};
use pbt::shrink::Candidates;
use pbt::Shrink;
use std::collections::HashSet;
use std::fmt;

#[path = "shrinking_challenge/quickcheck_versions.rs"]
mod quickcheck_versions;

// ---------------------------------------------------------------------------
// The harness
// ---------------------------------------------------------------------------

/// Seeds every challenge is run from.
const SEEDS: std::ops::Range<u64> = 0..10;

/// What a (challenge, shrinker) pair must show on every seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// A documented minimum.
    Minimum,
    /// Only the weaker guarantee: the counterexample still fails and is no
    /// larger than the input first found (the gap is in the file comment).
    NoLarger,
}

/// A challenge over the variables `T` of its property (a tuple, as
/// [`pbt::runners::Report::counterexample`] returns them).
struct Challenge<T> {
    name: &'static str,
    /// The documented minimum (for messages).
    documented: &'static str,
    /// Whether the inputs falsify the property (precondition included).
    fails: fn(&T) -> bool,
    /// Whether the inputs are a documented minimum.
    minimal: fn(&T) -> bool,
}

fn config(shrinker: Shrinker, seed: u64) -> Config {
    Config::default()
        .regressions(Regressions::Off)
        .ignore_env()
        .seed(seed)
        .shrinker(shrinker)
}

/// The bindings of a counterexample on one line, as the challenges print them.
fn shown(bindings: &[pbt::Binding]) -> String {
    bindings
        .iter()
        .map(|b| b.value.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// How large an input is: scalars (numbers, operators), then containers
/// (lists, tuples, tree nodes), then the sum of the magnitudes of the
/// numbers. Compared lexicographically.
trait Size {
    fn size(&self) -> (u64, u64, u128);
}

/// Sum sizes, with one container around them.
fn container<'a>(parts: impl IntoIterator<Item = &'a dyn Size>) -> (u64, u64, u128) {
    parts.into_iter().map(Size::size).fold((0, 1, 0), |a, b| {
        (a.0 + b.0, a.1 + b.1, a.2.saturating_add(b.2))
    })
}

macro_rules! scalar_size {
    ($($t:ty),*) => {$(
        impl Size for $t {
            fn size(&self) -> (u64, u64, u128) {
                (1, 0, (*self as i128).unsigned_abs())
            }
        }
    )*};
}
scalar_size!(i16, i32, i64, u32, usize);

impl<T: Size> Size for Vec<T> {
    fn size(&self) -> (u64, u64, u128) {
        container(self.iter().map(|x| x as &dyn Size))
    }
}

impl<A: Size> Size for (A,) {
    fn size(&self) -> (u64, u64, u128) {
        container([&self.0 as &dyn Size])
    }
}

impl<A: Size, B: Size> Size for (A, B) {
    fn size(&self) -> (u64, u64, u128) {
        container([&self.0 as &dyn Size, &self.1])
    }
}

impl<A: Size, B: Size, C: Size, D: Size, E: Size> Size for (A, B, C, D, E) {
    fn size(&self) -> (u64, u64, u128) {
        container([&self.0 as &dyn Size, &self.1, &self.2, &self.3, &self.4])
    }
}

/// The shrinker `failure.shrinker` may name for a run with `shrinker`.
fn names(shrinker: Shrinker) -> &'static [Option<Shrinker>] {
    match shrinker {
        Shrinker::External => &[Some(Shrinker::External)],
        Shrinker::Integrated => &[Some(Shrinker::Integrated)],
        // External when neither shrinker took a step.
        Shrinker::Both => &[
            Some(Shrinker::Integrated),
            Some(Shrinker::Both),
            Some(Shrinker::External),
        ],
    }
}

/// Run `prop` (at most `cases` tests) from every seed with `shrinker` and
/// check what `expect` asks of each shrunk counterexample, read as values.
/// Returns on how many seeds it reached a documented minimum.
fn run<P: Property + Sync, T: Variables + Size + fmt::Debug>(
    prop: &P,
    challenge: &Challenge<T>,
    shrinker: Shrinker,
    expect: Expect,
    cases: u64,
) -> usize {
    let name = challenge.name;
    let mut lines = Vec::new();
    let mut missed = 0;
    for seed in SEEDS {
        let report = generational(prop, config(shrinker, seed).cases(cases));
        let failure: &Failure = report
            .failure
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: seed {seed}: no failure found: {report}"));
        assert!(
            names(shrinker).contains(&failure.shrinker),
            "{name}: seed {seed}: asked for {shrinker:?}, the {:?} shrinker ran\n{report}",
            failure.shrinker
        );
        let ce = shown(&failure.counterexample);
        let value: T = report
            .counterexample()
            .unwrap_or_else(|| panic!("{name}: seed {seed}: no typed counterexample\n{report}"));
        let original: T = report
            .original()
            .unwrap_or_else(|| panic!("{name}: seed {seed}: no typed original\n{report}"));
        assert!(
            (challenge.fails)(&value),
            "{name} ({shrinker:?}), seed {seed}: the shrunk {value:?} does not fail the property\n{report}"
        );
        assert!(
            value.size() <= original.size(),
            "{name} ({shrinker:?}), seed {seed}: the shrunk {value:?} is larger than the original {original:?}\n{report}"
        );
        let minimal = (challenge.minimal)(&value);
        missed += usize::from(!minimal);
        lines.push(format!(
            "seed {seed}: {ce}{} ({} steps, {:.0?}{})",
            if minimal { "" } else { "   <- not minimal" },
            report.shrinks,
            report.elapsed,
            if report.notes.is_empty() {
                String::new()
            } else {
                format!("; {}", report.notes.join("; "))
            },
        ));
    }
    let summary = format!(
        "{name} ({shrinker:?}): {}/{} seeds at a documented minimum ({})\n  {}",
        lines.len() - missed,
        lines.len(),
        challenge.documented,
        lines.join("\n  ")
    );
    eprintln!("{summary}");
    assert!(expect == Expect::NoLarger || missed == 0, "{summary}");
    lines.len() - missed
}

fn distinct<T: std::hash::Hash + Eq + Copy>(xs: impl IntoIterator<Item = T>) -> usize {
    xs.into_iter().collect::<HashSet<T>>().len()
}

/// One `#[test]` for a (challenge, shrinker) pair:
/// `cell!(challenge, Shrinker, test => Minimum)` or `=> NoLarger`. The
/// default shrinker's cell also runs the challenge's quickcheck version
/// (`versus quickcheck_versions::challenge`) and asserts that pbt reaches the
/// minimum on at least as many seeds.
macro_rules! cell {
    ($challenge:ident, $shrinker:ident, $test:ident => $expect:ident) => {
        #[test]
        fn $test() {
            $challenge(Shrinker::$shrinker, Expect::$expect);
        }
    };
    ($challenge:ident, Both, $test:ident => $expect:ident, versus $quickcheck:path) => {
        #[test]
        fn $test() {
            assert_eq!(
                Config::default().shrinker,
                Shrinker::Both,
                "Both is the default"
            );
            let pbt = $challenge(Shrinker::Both, Expect::$expect);
            versus_quickcheck(stringify!($challenge), pbt, $quickcheck());
        }
    };
}

/// pbt's default shrinker reaches a documented minimum on at least as many
/// seeds as quickcheck (`pbt` and `quickcheck` are those counts).
fn versus_quickcheck(challenge: &str, pbt: usize, quickcheck: usize) {
    let seeds = SEEDS.end - SEEDS.start;
    let line = format!(
        "{challenge}: at a documented minimum on {pbt}/{seeds} seeds with pbt (Both), {quickcheck}/{seeds} with quickcheck"
    );
    eprintln!("{line}");
    assert!(pbt >= quickcheck, "{line}");
}

// ---------------------------------------------------------------------------
// bound5
// ---------------------------------------------------------------------------

/// Every list sums (without overflow) to less than 256.
fn bound5_pre(lists: &[&[i16]]) -> bool {
    lists
        .iter()
        .all(|l| l.iter().map(|&x| i64::from(x)).sum::<i64>() < 256)
}

/// The sum of all values in 16-bit arithmetic is less than 5 * 256.
fn bound5_holds(lists: &[&[i16]]) -> bool {
    lists
        .iter()
        .flat_map(|l| l.iter())
        .fold(0i16, |a, &x| a.wrapping_add(x))
        < 5 * 256
}

/// The five lists, as one variable.
type Lists = ((Vec<i16>, Vec<i16>, Vec<i16>, Vec<i16>, Vec<i16>),);

const BOUND5: Challenge<Lists> = Challenge {
    name: "bound5",
    documented: "([-32768], [-1], [], [], []), the two values in any lists",
    fails: |(p,)| {
        let refs: [&[i16]; 5] = [&p.0, &p.1, &p.2, &p.3, &p.4];
        bound5_pre(&refs) && !bound5_holds(&refs)
    },
    // "Something like" the documented one: its two values, in any of the
    // lists (these lists are unbounded, as in jqwik's version, so both
    // may sit in one list at the same size).
    minimal: |(p,)| {
        let mut all: Vec<i16> = [&p.0[..], &p.1, &p.2, &p.3, &p.4].concat();
        all.sort_unstable();
        all == [-32768, -1]
    },
};

fn bound5(shrinker: Shrinker, expect: Expect) -> usize {
    let prop = property! {
        forall p: (Vec<i16>, Vec<i16>, Vec<i16>, Vec<i16>, Vec<i16>);
        implies bound5_pre(&[&p.0, &p.1, &p.2, &p.3, &p.4]);
        check bound5_holds(&[&p.0, &p.1, &p.2, &p.3, &p.4])
    };
    run(&prop, &BOUND5, shrinker, expect, 100)
}

cell!(bound5, External, bound5_external => NoLarger);
cell!(bound5, Integrated, bound5_integrated => Minimum);
cell!(bound5, Both, bound5_both => Minimum, versus quickcheck_versions::bound5);

// ---------------------------------------------------------------------------
// large_union_list
// ---------------------------------------------------------------------------

const LARGE_UNION_LIST: Challenge<(Vec<Vec<i32>>,)> = Challenge {
    name: "large_union_list",
    documented: "[[0, 1, -1, 2, -2]]",
    fails: |(ls,)| distinct(ls.iter().flatten()) >= 5,
    minimal: |(ls,)| *ls == [vec![0, 1, -1, 2, -2]],
};

fn large_union_list(shrinker: Shrinker, expect: Expect) -> usize {
    let prop = property! {
        forall ls: Vec<Vec<i32>>;
        check distinct(ls.iter().flatten()) < 5
    };
    run(&prop, &LARGE_UNION_LIST, shrinker, expect, 100)
}

cell!(large_union_list, External, large_union_list_external => NoLarger);
cell!(large_union_list, Integrated, large_union_list_integrated => Minimum);
cell!(large_union_list, Both, large_union_list_both => Minimum, versus quickcheck_versions::large_union_list);

// ---------------------------------------------------------------------------
// reverse
// ---------------------------------------------------------------------------

fn reversed<T: Clone>(xs: &[T]) -> Vec<T> {
    xs.iter().rev().cloned().collect()
}

const REVERSE: Challenge<(Vec<i32>,)> = Challenge {
    name: "reverse",
    documented: "[0, 1]",
    fails: |(xs,)| reversed(xs) != *xs,
    minimal: |(xs,)| *xs == [0, 1],
};

fn reverse(shrinker: Shrinker, expect: Expect) -> usize {
    let prop = property! {
        forall xs: Vec<i32>;
        check reversed(xs) == *xs
    };
    run(&prop, &REVERSE, shrinker, expect, 100)
}

cell!(reverse, External, reverse_external => NoLarger);
cell!(reverse, Integrated, reverse_integrated => Minimum);
cell!(reverse, Both, reverse_both => Minimum, versus quickcheck_versions::reverse);

// ---------------------------------------------------------------------------
// calculator
// ---------------------------------------------------------------------------

/// `1 + (2 / 3)` and friends. Printed as the challenge prints it:
/// `('/', 0, ('+', 0, 0))`.
#[derive(Clone, PartialEq, Eq)]
enum Expr {
    Lit(i64),
    Add(Box<Expr>, Box<Expr>),
    Div(Box<Expr>, Box<Expr>),
}

impl fmt::Debug for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Lit(n) => write!(f, "{n}"),
            Expr::Add(l, r) => write!(f, "('+', {l:?}, {r:?})"),
            Expr::Div(l, r) => write!(f, "('/', {l:?}, {r:?})"),
        }
    }
}

/// As printed: a literal is a number, a node holds an operator and two
/// subterms.
impl Size for Expr {
    fn size(&self) -> (u64, u64, u128) {
        match self {
            Expr::Lit(n) => n.size(),
            Expr::Add(l, r) | Expr::Div(l, r) => {
                let (s, c, m) = container([&**l as &dyn Size, &**r]);
                (s + 1, c, m)
            }
        }
    }
}

fn add((l, r): (Expr, Expr)) -> Expr {
    Expr::Add(Box::new(l), Box::new(r))
}

fn div((l, r): (Expr, Expr)) -> Expr {
    Expr::Div(Box::new(l), Box::new(r))
}

impl Expr {
    /// No subterm divides by the literal `0`.
    fn no_div_by_literal_zero(&self) -> bool {
        match self {
            Expr::Lit(_) => true,
            Expr::Div(_, r) if **r == Expr::Lit(0) => false,
            Expr::Add(l, r) | Expr::Div(l, r) => {
                l.no_div_by_literal_zero() && r.no_div_by_literal_zero()
            }
        }
    }

    /// The value, or `None` on a division by zero (overflow wraps).
    fn evaluate(&self) -> Option<i64> {
        match self {
            Expr::Lit(n) => Some(*n),
            Expr::Add(l, r) => Some(l.evaluate()?.wrapping_add(r.evaluate()?)),
            Expr::Div(l, r) => {
                let (l, r) = (l.evaluate()?, r.evaluate()?);
                (r != 0).then(|| l.wrapping_div(r))
            }
        }
    }
}

/// Type-based shrinking: a node becomes one of its children, then each
/// child shrinks in place; literals shrink as integers.
impl Shrink for Expr {
    fn shrink(&self) -> Candidates<'_, Self> {
        match self {
            Expr::Lit(n) => Box::new(n.shrink().map(Expr::Lit)),
            Expr::Add(l, r) | Expr::Div(l, r) => {
                let rebuild = move |l: Expr, r: Expr| match self {
                    Expr::Add(..) => add((l, r)),
                    _ => div((l, r)),
                };
                let children = [(**l).clone(), (**r).clone()].into_iter();
                let lefts = (**l).shrink().map(move |l2| rebuild(l2, (**r).clone()));
                let rights = (**r).shrink().map(move |r2| rebuild((**l).clone(), r2));
                Box::new(children.chain(lefts).chain(rights))
            }
        }
    }
}

const CALCULATOR: Challenge<(Expr,)> = Challenge {
    name: "calculator",
    documented: "('/', 0, ('+', 0, 0)) or ('/', 0, ('/', 0, 1))",
    fails: |(e,)| e.no_div_by_literal_zero() && e.evaluate().is_none(),
    minimal: |(e,)| {
        let lit = |n| Expr::Lit(n);
        *e == div((lit(0), add((lit(0), lit(0))))) || *e == div((lit(0), div((lit(0), lit(1)))))
    },
};

fn calculator(shrinker: Shrinker, expect: Expect) -> usize {
    let prop = property! {
        forall e: Expr,
            #[gen = recursive::<Expr>(|rec| frequency[
                3 => map(any::<i64>(), Expr::Lit),
                size => map((rec, rec), add),
                size => map((rec, rec), div)
            ])],
            #[shrink = |e: &Expr| e.shrink().collect::<Vec<_>>()];
        implies e.no_div_by_literal_zero();
        check e.evaluate().is_some()
    };
    run(&prop, &CALCULATOR, shrinker, expect, 100)
}

cell!(calculator, External, calculator_external => Minimum);
cell!(calculator, Integrated, calculator_integrated => Minimum);
cell!(calculator, Both, calculator_both => Minimum, versus quickcheck_versions::calculator);

// ---------------------------------------------------------------------------
// lengthlist
// ---------------------------------------------------------------------------

const LENGTHLIST: Challenge<(Vec<i32>,)> = Challenge {
    name: "lengthlist",
    documented: "[900]",
    fails: |(ls,)| ls.iter().max().is_some_and(|&m| m >= 900),
    minimal: |(ls,)| *ls == [900],
};

fn lengthlist(shrinker: Shrinker, expect: Expect) -> usize {
    let prop = property! {
        forall ls: Vec<i32>, #[gen = bind(int(1..=100usize), |n| vec(int(0..=1000i32), n..=n))];
        check ls.iter().max().is_none_or(|&m| m < 900)
    };
    run(&prop, &LENGTHLIST, shrinker, expect, 100)
}

cell!(lengthlist, External, lengthlist_external => Minimum);
cell!(lengthlist, Integrated, lengthlist_integrated => Minimum);
cell!(lengthlist, Both, lengthlist_both => Minimum, versus quickcheck_versions::lengthlist);

// ---------------------------------------------------------------------------
// difference (1, 2 and 3)
// ---------------------------------------------------------------------------

/// The three difference tests: each passes when `first < 10`, and otherwise
/// when the difference is not zero / not in 1..=4 / not one.
fn difference_holds(test: u8, first: u32, second: u32) -> bool {
    let d = first.abs_diff(second);
    first < 10
        || match test {
            1 => d != 0,
            2 => !(1..=4).contains(&d),
            _ => d != 1,
        }
}

/// The three difference challenges, test 1, 2 and 3.
const DIFFERENCE: [Challenge<(u32, u32)>; 3] = [
    Challenge {
        name: "difference 1",
        documented: "10, 10",
        fails: |v| diff_fails(1, v),
        minimal: |v| *v == (10, 10),
    },
    Challenge {
        name: "difference 2",
        documented: "10, 6",
        fails: |v| diff_fails(2, v),
        minimal: |v| *v == (10, 6),
    },
    Challenge {
        name: "difference 3",
        documented: "10, 9",
        fails: |v| diff_fails(3, v),
        minimal: |v| *v == (10, 9),
    },
];

/// Failing pairs are rare for difference 1 (two equal values of 10 or
/// more): up to 1000 tests to find one.
const DIFFERENCE_CASES: u64 = 1000;

fn difference(test: u8, shrinker: Shrinker, expect: Expect) -> usize {
    let prop = property! {
        forall first: u32;
        forall second: u32;
        implies first > 0 && second > 0;
        check difference_holds(test, first, second)
    };
    let challenge = &DIFFERENCE[usize::from(test - 1)];
    run(&prop, challenge, shrinker, expect, DIFFERENCE_CASES)
}

fn diff_fails(test: u8, &(a, b): &(u32, u32)) -> bool {
    a > 0 && b > 0 && !difference_holds(test, a, b)
}

fn difference_1(shrinker: Shrinker, expect: Expect) -> usize {
    difference(1, shrinker, expect)
}

fn difference_2(shrinker: Shrinker, expect: Expect) -> usize {
    difference(2, shrinker, expect)
}

fn difference_3(shrinker: Shrinker, expect: Expect) -> usize {
    difference(3, shrinker, expect)
}

cell!(difference_1, External, difference_1_external => NoLarger);
cell!(difference_1, Integrated, difference_1_integrated => Minimum);
cell!(difference_1, Both, difference_1_both => Minimum, versus quickcheck_versions::difference_1);
cell!(difference_2, External, difference_2_external => Minimum);
cell!(difference_2, Integrated, difference_2_integrated => Minimum);
cell!(difference_2, Both, difference_2_both => Minimum, versus quickcheck_versions::difference_2);
cell!(difference_3, External, difference_3_external => NoLarger);
cell!(difference_3, Integrated, difference_3_integrated => Minimum);
cell!(difference_3, Both, difference_3_both => Minimum, versus quickcheck_versions::difference_3);

// ---------------------------------------------------------------------------
// binheap
// ---------------------------------------------------------------------------

/// A binary heap: every key is at most its children's keys. Printed as the
/// challenge prints it: `(0, None, (0, (0, None, None), (1, None, None)))`.
#[derive(Clone, PartialEq, Eq)]
enum Heap {
    Empty,
    Node(i64, Box<Heap>, Box<Heap>),
}

impl fmt::Debug for Heap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Heap::Empty => write!(f, "None"),
            Heap::Node(k, l, r) => write!(f, "({k}, {l:?}, {r:?})"),
        }
    }
}

/// As printed: the empty heap is `None` (nothing), a node a triple.
impl Size for Heap {
    fn size(&self) -> (u64, u64, u128) {
        match self {
            Heap::Empty => (0, 0, 0),
            Heap::Node(k, l, r) => container([k as &dyn Size, &**l, &**r]),
        }
    }
}

fn node(key: i64, left: Heap, right: Heap) -> Heap {
    Heap::Node(key, Box::new(left), Box::new(right))
}

impl Heap {
    /// The heap whose keys are the running sums of these keys from the root
    /// (the generator draws each key as an offset from its parent's).
    fn offsets_from(self, base: i64) -> Heap {
        match self {
            Heap::Empty => Heap::Empty,
            Heap::Node(d, l, r) => {
                let k = base + d;
                node(k, l.offsets_from(k), r.offsets_from(k))
            }
        }
    }

    fn key(&self) -> Option<i64> {
        match self {
            Heap::Empty => None,
            Heap::Node(k, ..) => Some(*k),
        }
    }

    /// Every key is at most its children's.
    fn is_heap(&self) -> bool {
        match self {
            Heap::Empty => true,
            Heap::Node(k, l, r) => {
                l.key().is_none_or(|c| *k <= c)
                    && r.key().is_none_or(|c| *k <= c)
                    && l.is_heap()
                    && r.is_heap()
            }
        }
    }

    /// The keys, depth first with the right child before the left (the
    /// challenge's stack-based `toList`).
    fn to_list(&self) -> Vec<i64> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(h) = stack.pop() {
            if let Heap::Node(k, l, r) = h {
                out.push(*k);
                stack.push(l);
                stack.push(r);
            }
        }
        out
    }

    fn merge(a: &Heap, b: &Heap) -> Heap {
        match (a, b) {
            (Heap::Empty, h) | (h, Heap::Empty) => h.clone(),
            (Heap::Node(ka, la, ra), Heap::Node(kb, ..)) if ka <= kb => {
                node(*ka, Heap::merge(ra, b), (**la).clone())
            }
            (_, Heap::Node(kb, lb, rb)) => node(*kb, Heap::merge(rb, a), (**lb).clone()),
        }
    }

    /// The wrong conversion to a sorted list the challenge tests.
    fn wrong_to_sorted_list(&self) -> Vec<i64> {
        match self {
            Heap::Empty => Vec::new(),
            Heap::Node(k, l, r) => {
                let mut out = vec![*k];
                out.extend(Heap::merge(l, r).to_list());
                out
            }
        }
    }

    fn size(&self) -> usize {
        self.to_list().len()
    }
}

/// The challenge's assertion: the wrong list is sorted and holds the keys.
fn binheap_holds(h: &Heap) -> bool {
    let l2 = h.wrong_to_sorted_list();
    let mut sorted_l2 = l2.clone();
    sorted_l2.sort_unstable();
    let mut sorted_l1 = h.to_list();
    sorted_l1.sort_unstable();
    l2 == sorted_l2 && sorted_l1 == l2
}

/// Type-based shrinking: the empty heap, a child in place of the node, a
/// child removed, then each child and the key shrunk in place. Candidates
/// that break the heap order are the caller's to drop.
impl Shrink for Heap {
    fn shrink(&self) -> Candidates<'_, Self> {
        match self {
            Heap::Empty => Box::new(std::iter::empty()),
            Heap::Node(key, l, r) => {
                let (k, l, r) = (*key, &**l, &**r);
                let simpler = [
                    Heap::Empty,
                    l.clone(),
                    r.clone(),
                    node(k, Heap::Empty, r.clone()),
                    node(k, l.clone(), Heap::Empty),
                ];
                let lefts = l.shrink().map(move |l2| node(k, l2, r.clone()));
                let rights = r.shrink().map(move |r2| node(k, l.clone(), r2));
                let keys = key.shrink().map(move |k2| node(k2, l.clone(), r.clone()));
                Box::new(
                    simpler
                        .into_iter()
                        .filter(move |c| c != self)
                        .chain(lefts)
                        .chain(rights)
                        .chain(keys),
                )
            }
        }
    }
}

const BINHEAP: Challenge<(Heap,)> = Challenge {
    name: "binheap",
    documented:
        "(0, None, (0, (0, None, None), (1, None, None))), or another four-key heap of 0, 0, 0, 1",
    fails: |(h,)| h.is_heap() && !binheap_holds(h),
    minimal: |(h,)| {
        let mut keys = h.to_list();
        keys.sort_unstable();
        h.size() == 4 && keys == [0, 0, 0, 1]
    },
};

fn binheap(shrinker: Shrinker, expect: Expect) -> usize {
    // jqwik's generator: a size in 0..=20, then at each level the empty heap
    // (always at size 0, else one time in eight) or a node whose key is at
    // least its parent's and whose children are heaps of half the size.
    let prop = property! {
        forall h: Heap,
            #[gen = {
                let n = int(0..=20usize);
                let offsets = resize(n, recursive::<Heap>(|rec| frequency[
                    1 => just(Heap::Empty),
                    if size > 0 { 7 } else { 0 } => map((int(0..=1_000_000i64), rec, rec), |(d, l, r)| node(d, l, r))
                ]));
                offsets.offsets_from(0)
            }],
            #[shrink = |h: &Heap| h.shrink().filter(Heap::is_heap).collect::<Vec<_>>()];
        check binheap_holds(h)
    };
    run(&prop, &BINHEAP, shrinker, expect, 100)
}

cell!(binheap, External, binheap_external => NoLarger);
cell!(binheap, Integrated, binheap_integrated => Minimum);
cell!(binheap, Both, binheap_both => Minimum, versus quickcheck_versions::binheap);

// ---------------------------------------------------------------------------
// coupling
// ---------------------------------------------------------------------------

/// No two positions `i != j` point at each other (`ls[i] == j && ls[j] == i`).
fn coupling_holds(ls: &[usize]) -> bool {
    ls.iter().enumerate().all(|(i, &j)| i == j || ls[j] != i)
}

const COUPLING: Challenge<(Vec<usize>,)> = Challenge {
    name: "coupling",
    documented: "[1, 0]",
    fails: |(ls,)| ls.iter().all(|&x| x < ls.len()) && !coupling_holds(ls),
    minimal: |(ls,)| *ls == [1, 0],
};

fn coupling(shrinker: Shrinker, expect: Expect) -> usize {
    let prop = property! {
        forall ls: Vec<usize>, #[gen = vec(int(0..=10usize), 0..=size)];
        implies ls.iter().all(|&v| v < ls.len());
        check coupling_holds(ls)
    };
    run(&prop, &COUPLING, shrinker, expect, 100)
}

cell!(coupling, External, coupling_external => Minimum);
cell!(coupling, Integrated, coupling_integrated => NoLarger);
// Both: 9 of 10 seeds (seed 0 keeps the integrated shrinker's 2-cycle between
// positions 3 and 9, which no single external step breaks).
cell!(coupling, Both, coupling_both => NoLarger, versus quickcheck_versions::coupling);

// ---------------------------------------------------------------------------
// deletion
// ---------------------------------------------------------------------------

/// Removing (the first occurrence of) `ls[i]` leaves no `ls[i]` behind.
fn deletion_holds(ls: &[i64], i: usize) -> bool {
    let x = ls[i];
    let mut rest = ls.to_vec();
    if let Some(at) = rest.iter().position(|&y| y == x) {
        rest.remove(at);
    }
    !rest.contains(&x)
}

const DELETION: Challenge<(Vec<i32>, usize)> = Challenge {
    name: "deletion",
    documented: "[0, 0], 0",
    fails: |(ls, i)| {
        let ls: Vec<i64> = ls.iter().map(|&x| i64::from(x)).collect();
        *i < ls.len() && !deletion_holds(&ls, *i)
    },
    minimal: |(ls, i)| *ls == [0, 0] && *i == 0,
};

fn deletion(shrinker: Shrinker, expect: Expect) -> usize {
    let prop = property! {
        forall ls: Vec<i32>;
        forall i: usize, #[gen = int(0..=10usize)];
        implies i < ls.len();
        check deletion_holds(&ls.iter().map(|&x| i64::from(x)).collect::<Vec<_>>(), i)
    };
    run(&prop, &DELETION, shrinker, expect, 100)
}

cell!(deletion, External, deletion_external => Minimum);
cell!(deletion, Integrated, deletion_integrated => Minimum);
cell!(deletion, Both, deletion_both => Minimum, versus quickcheck_versions::deletion);

// ---------------------------------------------------------------------------
// distinct
// ---------------------------------------------------------------------------

const DISTINCT: Challenge<(Vec<i32>,)> = Challenge {
    name: "distinct",
    documented: "[0, 1, -1] or [0, 1, 2]",
    fails: |(ls,)| distinct(ls.iter()) >= 3,
    minimal: |(ls,)| *ls == [0, 1, -1] || *ls == [0, 1, 2],
};

fn distinct_challenge(shrinker: Shrinker, expect: Expect) -> usize {
    let prop = property! {
        forall ls: Vec<i32>;
        check distinct(ls.iter()) < 3
    };
    run(&prop, &DISTINCT, shrinker, expect, 100)
}

cell!(distinct_challenge, External, distinct_external => NoLarger);
cell!(distinct_challenge, Integrated, distinct_integrated => Minimum);
cell!(distinct_challenge, Both, distinct_both => Minimum, versus quickcheck_versions::distinct_challenge);

// ---------------------------------------------------------------------------
// nestedlists
// ---------------------------------------------------------------------------

const NESTEDLISTS: Challenge<(Vec<Vec<i32>>,)> = Challenge {
    name: "nestedlists",
    documented: "[[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]",
    fails: |(ls,)| ls.iter().map(Vec::len).sum::<usize>() > 10,
    minimal: |(ls,)| *ls == [vec![0; 11]],
};

fn nestedlists(shrinker: Shrinker, expect: Expect) -> usize {
    let prop = property! {
        forall ls: Vec<Vec<i32>>, #[gen = vec(vec(int(0..=0i32), 0..=20), 0..=20)];
        check ls.iter().map(Vec::len).sum::<usize>() <= 10
    };
    run(&prop, &NESTEDLISTS, shrinker, expect, 100)
}

cell!(nestedlists, External, nestedlists_external => Minimum);
cell!(nestedlists, Integrated, nestedlists_integrated => Minimum);
cell!(nestedlists, Both, nestedlists_both => Minimum, versus quickcheck_versions::nestedlists);

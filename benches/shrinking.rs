//! Shrinking time, pbt (each shrinker) vs proptest vs quickcheck, in one
//! process:
//!
//! 1. five shrinking challenges (https://github.com/jlink/shrinking-challenge)
//!    written alike for the three libraries with their type-based
//!    generators: reverse, distinct, large_union_list, nestedlists (sum of
//!    the lengths of `Vec<Vec<i32>>` at most 10) and difference 2;
//! 2. a failing list of `i32` (some element at least `2^30`, so almost
//!    every list fails and shrinking must delete nearly all of it) of length
//!    uniform in `0..=n`, n = 100, 1 000 and 10 000: type-based
//!    (`Vec<i32>` at the fixed size n, as quickcheck's `Vec<i32>` at
//!    generator size n) and from the DSL's `vec(any::<i32>(), 0..=n)`.
//!
//! 3. two planted bugs in sequences (`tests/shrink_sequences/bugs.rs`): a
//!    law over two words of `a`-`z` (concat of words, least counterexample
//!    11 letters) and iterator calls checked against a `Vec`'s (iterator
//!    calls, least 2 calls); quickcheck's shrunk size is its last failing
//!    input's, recorded by the property;
//! 4. the failure path's fixed cost: `fails at once (u8)`, a property that
//!    fails on its first case with only a `u8` to shrink (pbt's time is
//!    mostly printing, the flaky re-run and the typed counterexample), and
//!    after the table the same run with the regressions file on against
//!    off (saving).
//!
//! Each row is a whole failing run (finding the failure is a few tests;
//! shrinking is the rest), the median over R seeds, in ms of this thread's
//! CPU time (three decimals: quickcheck's runs take tens of µs), with the
//! ratio of
//! each pbt shrinker to quickcheck and to proptest (below 1: pbt is faster),
//! and the size of the shrunk input (elements in all lists; `1` is the
//! minimum of the list rows). Every library gets at most 5 s of shrinking
//! per run.
//!
//! What is timed is the same for the three: one call that runs the
//! property until it fails, shrinks, and returns the result, plus reading
//! the shrunk size from it. For quickcheck that is `quicktest` (its
//! generation, its run loop, its shrinker, and the `Debug` printing of each
//! accepted step that its `TestResult` keeps); for proptest `TestRunner::run`;
//! for pbt `generational` with the regressions file off (no file IO), which
//! also does what pbt's failure path always does: the seed line on stderr,
//! the original and the shrunk input printed in the report, the one re-run
//! that detects a flaky failure, the typed counterexample: work a pbt user
//! always pays, so it stays in; nothing is subtracted from any library's
//! time. All three run the property on the calling thread (pbt's watchdog
//! thread only sleeps and watches), so the thread's CPU time
//! (`benches/common/cpu_clock.rs`, as `benches/generators.rs` times) is
//! their whole cost, without the time other processes on a shared machine
//! held the CPU, which swung wall-clock ratios by up to 2× run to run;
//! `--wall-clock` times wall clock instead (and calls no CPU clock: run under
//! `valgrind --tool=callgrind` with it, as the CPU clock's vDSO lookup crashes
//! there). quickcheck seeds itself
//! (its `Gen` has no seed), so its starting inputs differ from run to run;
//! the three draw list lengths alike (uniform up to n) but not the elements
//! (an element fails the list rows about one time in four for quickcheck
//! and proptest, one in ten for pbt's `Arbitrary` `i32`, which draws small
//! values half of the time): every list fails almost surely either way.
//!
//! With `-- --passes`, a table after the timings of what each pass of the
//! integrated shrinker did in the `pbt both` runs of each row, summed over
//! the seeds (`pbt::shrink::choices::ChoiceShrinker::stats`, read through
//! `passes::take_totals`): candidates run (attempts) and steps. Set
//! `PBT_SHRINK_STATS=1` for the table of every shrink on stderr.
//!
//! Last, the same benchmark built unoptimised (`cargo test --bench
//! shrinking --no-run`, the profile `cargo test` uses) is run from this one
//! for its debug rows: a failing list of up to 1 000 `i32`s, a map of up to
//! 100 keys and a bounded queue's program, pbt's default shrinker against
//! proptest (`-- --no-debug` skips them; `-- --debug-rows` on the debug
//! binary runs them alone, and takes `--only` and `--columns 'pbt
//! both;proptest'` as the release rows do).
//!
//! `cargo bench --bench shrinking 2>/dev/null` (options: `-- --rounds R`,
//! default 3; `-- --only 'NAME;NAME'`, only the rows named (the last row,
//! the external shrinker of a `#[with]` variable, is named `#[with]`);
//! `-- --columns 'NAME;NAME'`, only the columns named, e.g. `pbt both`, to
//! profile one library under `valgrind --tool=callgrind`; `-- --wall-clock`,
//! wall-clock time; pbt announces each failure on stderr).

#[path = "common/cpu_clock.rs"]
mod cpu_clock;

use pbt::generators as gen;
use pbt::prelude::*;
use pbt::runners::{generational, Regressions, Shrinker, Sizes, Variables};
use pbt::shrink::choices::passes::{self, PassStats};
use proptest::strategy::Strategy;
use proptest::test_runner::{
    Config as PtConfig, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner,
};
use quickcheck::{Gen as QcGen, QuickCheck, TestResult};
use std::collections::HashSet;
use std::fmt::Debug;
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(5);

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One timed run: milliseconds and the size of the shrunk input.
type Timed = (f64, usize);

/// Whether `--wall-clock` asks for wall-clock time rather than CPU time (read
/// once).
fn wall() -> bool {
    static WALL: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *WALL.get_or_init(|| std::env::args().any(|a| a == "--wall-clock"))
}

fn timed(run: impl FnOnce() -> usize) -> Timed {
    if wall() {
        let t = Instant::now();
        let size = run();
        return (t.elapsed().as_secs_f64() * 1e3, size);
    }
    let t = cpu_clock::now();
    let size = run();
    ((cpu_clock::now() - t).as_secs_f64() * 1e3, size)
}

// ------------------------------------------------------------------ pbt

fn pbt_config(shrinker: Shrinker, seed: u64, cases: u64) -> Config {
    Config::default()
        .ignore_env()
        .regressions(Regressions::Off)
        .seed(seed)
        .cases(cases)
        .shrinker(shrinker)
        .max_shrink_time(LIMIT)
        .max_shrinks(1_000_000)
}

/// A pbt run of `prop`: the shrunk input's size by `size`.
fn pbt_run<P: Property, T: Variables>(
    prop: &P,
    shrinker: Shrinker,
    seed: u64,
    cases: u64,
    size: fn(&T) -> usize,
) -> usize {
    let report = generational(prop, pbt_config(shrinker, seed, cases));
    report
        .counterexample::<T>()
        .map_or(usize::MAX, |t| size(&t))
}

// ------------------------------------------------------------- proptest

fn pt_run<S: Strategy>(
    strategy: S,
    seed: u64,
    cases: u32,
    test: impl Fn(&S::Value) -> Option<bool>,
    size: impl Fn(&S::Value) -> usize,
) -> usize
where
    S::Value: Debug,
{
    let config = PtConfig {
        cases,
        failure_persistence: None,
        max_shrink_time: LIMIT.as_millis() as u32,
        max_shrink_iters: u32::MAX,
        max_global_rejects: 100_000,
        ..PtConfig::default()
    };
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes);
    let mut runner = TestRunner::new_with_rng(config, rng);
    match runner.run(&strategy, |v| match test(&v) {
        Some(true) => Ok(()),
        Some(false) => Err(TestCaseError::fail("false")),
        None => Err(TestCaseError::reject("precondition")),
    }) {
        Err(TestError::Fail(_, v)) => size(&v),
        _ => usize::MAX,
    }
}

// ----------------------------------------------------------- quickcheck

/// A quickcheck run of `prop` at generator size `gen_size`; the size of
/// the shrunk input is read back from its printed arguments (quickcheck
/// keeps no typed value): the numbers in it.
fn qc_run<A: quickcheck::Testable>(prop: A, gen_size: usize, cases: u64) -> usize {
    match QuickCheck::new()
        .rng(QcGen::new(gen_size))
        .tests(cases)
        .max_tests(cases * 100)
        .quicktest(prop)
    {
        Err(result) => numbers_in(&format!("{result:?}")),
        Ok(_) => usize::MAX,
    }
}

/// How many numbers a printed value holds.
fn numbers_in(s: &str) -> usize {
    let mut n = 0;
    let mut in_number = false;
    for c in s.chars() {
        let digit = c.is_ascii_digit();
        if digit && !in_number {
            n += 1;
        }
        in_number = digit;
    }
    n
}

// ----------------------------------------------------------- the rows

fn distinct<T: std::hash::Hash + Eq>(xs: impl IntoIterator<Item = T>) -> usize {
    xs.into_iter().collect::<HashSet<T>>().len()
}

fn total_len(ls: &[Vec<i32>]) -> usize {
    ls.iter().map(Vec::len).sum()
}

fn reverse_holds(xs: &[i32]) -> bool {
    xs.iter().rev().eq(xs.iter())
}

fn difference_2(a: u32, b: u32) -> Option<bool> {
    (a > 0 && b > 0).then(|| a < 10 || !(1..=4).contains(&a.abs_diff(b)))
}

const BIG: i32 = 1 << 30;

fn qc_reverse(xs: Vec<i32>) -> bool {
    reverse_holds(&xs)
}
fn qc_distinct(xs: Vec<i32>) -> bool {
    distinct(&xs) < 3
}
fn qc_union(ls: Vec<Vec<i32>>) -> bool {
    distinct(ls.iter().flatten()) < 5
}
fn qc_nested(ls: Vec<Vec<i32>>) -> bool {
    total_len(&ls) <= 10
}
fn qc_difference(a: u32, b: u32) -> TestResult {
    match difference_2(a, b) {
        None => TestResult::discard(),
        Some(ok) => TestResult::from_bool(ok),
    }
}
fn qc_big(xs: Vec<i32>) -> bool {
    xs.iter().all(|&x| x < BIG)
}

// ------------------------------------------ strings and method sequences

#[path = "../tests/shrink_sequences/bugs.rs"]
mod bugs;
use bugs::{calls_agree, concat_holds, Call};

/// A word of `a`-`z` for quickcheck: its letters at random up to the
/// generator's size, shrunk as `String` shrinks, keeping words.
#[derive(Clone, Debug)]
struct Word(String);

impl quickcheck::Arbitrary for Word {
    fn arbitrary(g: &mut QcGen) -> Self {
        let len = usize::arbitrary(g) % (g.size() + 1);
        let letters: Vec<u8> = (b'a'..=b'z').collect();
        Word(
            (0..len)
                .map(|_| *g.choose(&letters).unwrap() as char)
                .collect(),
        )
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let words = self.0.shrink();
        Box::new(
            words
                .filter(|w| w.bytes().all(|c| c.is_ascii_lowercase()))
                .map(Word),
        )
    }
}

thread_local! {
    /// The size of quickcheck's last failing input (its counterexample:
    /// the shrinker ends at the last candidate that failed).
    static QC_LAST: std::cell::Cell<usize> = const { std::cell::Cell::new(usize::MAX) };
}

fn qc_failing(holds: bool, size: usize) -> bool {
    if !holds {
        QC_LAST.with(|last| last.set(size));
    }
    holds
}

fn qc_concat(a: Word, b: Word) -> bool {
    qc_failing(concat_holds(&a.0, &b.0), a.0.len() + b.0.len())
}

/// `qc_run` for a property that records its failing sizes with
/// [`qc_failing`].
fn qc_run_recorded<A: quickcheck::Testable>(prop: A, gen_size: usize, cases: u64) -> usize {
    QC_LAST.with(|last| last.set(usize::MAX));
    match qc_run(prop, gen_size, cases) {
        usize::MAX => usize::MAX,
        _ => QC_LAST.with(|last| last.get()),
    }
}

impl quickcheck::Arbitrary for Call {
    fn arbitrary(g: &mut QcGen) -> Self {
        let k = u8::arbitrary(g) % 8;
        *g.choose(&[Call::Next, Call::NextBack, Call::Nth(k), Call::NthBack(k)])
            .unwrap()
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        match *self {
            Call::Nth(k) => Box::new(k.shrink().map(Call::Nth)),
            Call::NthBack(k) => Box::new(k.shrink().map(Call::NthBack)),
            _ => quickcheck::empty_shrinker(),
        }
    }
}

fn qc_calls(calls: Vec<Call>) -> bool {
    qc_failing(calls_agree(&calls), calls.len())
}

/// The failure path's fixed cost: a property that fails at once with
/// nothing to shrink but a `u8` to `0`.
fn off_by_one(x: u8) -> bool {
    x.wrapping_add(1) == x
}

/// The five libraries' timings of one row, over `rounds` seeds, and what
/// each pass of the integrated shrinker did in its `pbt both` runs.
struct Row {
    name: String,
    runs: [Vec<Timed>; 5],
    passes: Vec<PassStats>,
}

const COLUMNS: [&str; 5] = [
    "pbt external",
    "pbt integrated",
    "pbt both",
    "proptest",
    "quickcheck",
];
/// The column of `pbt both`, whose passes the per-pass table shows.
const BOTH: usize = 2;
const SHRINKERS: [Shrinker; 3] = [Shrinker::External, Shrinker::Integrated, Shrinker::Both];

/// Whether the row `name` is measured: `--only NAMES` keeps the rows named
/// in the `;`-separated list NAMES.
fn selected(name: &str) -> bool {
    let args: Vec<String> = std::env::args().collect();
    match args.iter().position(|a| a == "--only") {
        Some(i) => args
            .get(i + 1)
            .is_some_and(|only| only.split(';').any(|n| n == name)),
        None => true,
    }
}

/// Whether the column `column` (of [`COLUMNS`]) is measured: `--columns
/// NAMES` keeps the columns named in the `;`-separated list NAMES (the
/// others print as 0).
fn column_selected(column: usize) -> bool {
    let args: Vec<String> = std::env::args().collect();
    match args.iter().position(|a| a == "--columns") {
        Some(i) => args
            .get(i + 1)
            .is_some_and(|only| only.split(';').any(|n| n == COLUMNS[column])),
        None => true,
    }
}

fn row(name: &str, rounds: u64, mut one: impl FnMut(usize, u64) -> usize) -> Row {
    let mut runs: [Vec<Timed>; 5] = Default::default();
    let mut passes: Vec<PassStats> = Vec::new();
    let rounds = if selected(name) { rounds } else { 0 };
    for seed in 0..rounds {
        for (column, timings) in runs.iter_mut().enumerate() {
            let measured = column_selected(column);
            // The passes of this column's run alone: `pbt integrated`
            // runs the shrinker before it.
            let both = measured && column == BOTH;
            if both {
                passes::take_totals();
            }
            timings.push(if measured {
                timed(|| one(column, seed))
            } else {
                (0.0, 0)
            });
            if both {
                add_passes(&mut passes, &passes::take_totals());
            }
        }
    }
    Row {
        name: name.to_string(),
        runs,
        passes,
    }
}

/// `sum` plus `more`, pass by pass.
fn add_passes(sum: &mut Vec<PassStats>, more: &[PassStats]) {
    if sum.is_empty() {
        sum.extend_from_slice(more);
        return;
    }
    for (s, m) in sum.iter_mut().zip(more) {
        s.runs += m.runs;
        s.attempts += m.attempts;
        s.steps += m.steps;
        s.choices_removed += m.choices_removed;
    }
}

/// Per pass (a line each), the attempts and steps of the `pbt both` runs
/// of each row (a column each), summed over the seeds.
fn print_passes(rows: &[Row]) {
    let rows: Vec<&Row> = rows.iter().filter(|r| !r.passes.is_empty()).collect();
    let Some(first) = rows.first() else {
        return;
    };
    println!("\nintegrated shrinking per pass, pbt both, summed over the seeds: attempts/steps");
    let label = |r: &Row| r.name.replace("Vec<i32> size ", "size ");
    print!("{:<20}", "pass");
    for r in &rows {
        print!(" {:>16}", label(r));
    }
    println!();
    for (i, pass) in first.passes.iter().enumerate() {
        print!("{:<20}", pass.name);
        for r in &rows {
            let p = r.passes[i];
            print!(" {:>16}", format!("{}/{}", p.attempts, p.steps));
        }
        println!();
    }
}

fn print(rows: &[Row]) {
    println!(
        "{:<22} {:>13} {:>15} {:>10} {:>10} {:>11}   {:>26}   {:>26}   shrunk size (median)",
        "row (median ms CPU)",
        COLUMNS[0],
        COLUMNS[1],
        COLUMNS[2],
        COLUMNS[3],
        COLUMNS[4],
        "pbt ext/int/both ÷ qc",
        "pbt ext/int/both ÷ pt"
    );
    for r in rows.iter().filter(|r| !r.runs[0].is_empty()) {
        let ms: Vec<f64> = r
            .runs
            .iter()
            .map(|t| median(t.iter().map(|x| x.0).collect()))
            .collect();
        let sizes: Vec<String> = r
            .runs
            .iter()
            .map(|t| {
                let mut s: Vec<usize> = t.iter().map(|x| x.1).collect();
                s.sort_unstable();
                match s[s.len() / 2] {
                    usize::MAX => "-".to_string(),
                    n => n.to_string(),
                }
            })
            .collect();
        let ratios = |by: f64| format!("{:.2} / {:.2} / {:.2}", ms[0] / by, ms[1] / by, ms[2] / by);
        println!(
            "{:<22} {:>13.3} {:>15.3} {:>10.3} {:>10.3} {:>11.3}   {:>26}   {:>26}   {}",
            r.name,
            ms[0],
            ms[1],
            ms[2],
            ms[3],
            ms[4],
            ratios(ms[4]),
            ratios(ms[3]),
            sizes.join(" / ")
        );
    }
}

fn main() {
    let rounds = arg("--rounds", 3);
    if std::env::args().any(|a| a == "--external-gen-only") {
        return external_gen_vec(rounds);
    }
    if std::env::args().any(|a| a == "--debug-rows") {
        return debug_rows(rounds);
    }
    let mut rows = Vec::new();

    let reverse = property! { forall xs: Vec<i32>; check reverse_holds(xs) };
    rows.push(row("reverse", rounds, |column, seed| match column {
        0..=2 => pbt_run(
            &reverse,
            SHRINKERS[column],
            seed,
            1000,
            |(xs,): &(Vec<i32>,)| xs.len(),
        ),
        3 => pt_run(
            proptest::collection::vec(proptest::num::i32::ANY, 0..100),
            seed,
            1000,
            |xs| Some(reverse_holds(xs)),
            Vec::len,
        ),
        _ => qc_run(qc_reverse as fn(Vec<i32>) -> bool, 100, 1000),
    }));

    let distinct_prop = property! { forall xs: Vec<i32>; check distinct(xs) < 3 };
    rows.push(row("distinct", rounds, |column, seed| match column {
        0..=2 => pbt_run(
            &distinct_prop,
            SHRINKERS[column],
            seed,
            1000,
            |(xs,): &(Vec<i32>,)| xs.len(),
        ),
        3 => pt_run(
            proptest::collection::vec(proptest::num::i32::ANY, 0..100),
            seed,
            1000,
            |xs| Some(distinct(xs) < 3),
            Vec::len,
        ),
        _ => qc_run(qc_distinct as fn(Vec<i32>) -> bool, 100, 1000),
    }));

    let union = property! { forall ls: Vec<Vec<i32>>; check distinct(ls.iter().flatten()) < 5 };
    let nested_lists = || {
        proptest::collection::vec(
            proptest::collection::vec(proptest::num::i32::ANY, 0..20),
            0..20,
        )
    };
    rows.push(row(
        "large_union_list",
        rounds,
        |column, seed| match column {
            0..=2 => pbt_run(
                &union,
                SHRINKERS[column],
                seed,
                1000,
                |(ls,): &(Vec<Vec<i32>>,)| total_len(ls),
            ),
            3 => pt_run(
                nested_lists(),
                seed,
                1000,
                |ls| Some(distinct(ls.iter().flatten()) < 5),
                |ls| total_len(ls),
            ),
            _ => qc_run(qc_union as fn(Vec<Vec<i32>>) -> bool, 20, 1000),
        },
    ));

    let nested = property! { forall ls: Vec<Vec<i32>>; check total_len(ls) <= 10 };
    rows.push(row("nestedlists", rounds, |column, seed| match column {
        0..=2 => pbt_run(
            &nested,
            SHRINKERS[column],
            seed,
            1000,
            |(ls,): &(Vec<Vec<i32>>,)| total_len(ls),
        ),
        3 => pt_run(
            nested_lists(),
            seed,
            1000,
            |ls| Some(total_len(ls) <= 10),
            |ls| total_len(ls),
        ),
        _ => qc_run(qc_nested as fn(Vec<Vec<i32>>) -> bool, 20, 1000),
    }));

    let difference = property! {
        forall a: u32;
        forall b: u32;
        implies a > 0 && b > 0;
        check difference_2(a, b) != Some(false)
    };
    rows.push(row("difference 2", rounds, |column, seed| match column {
        0..=2 => pbt_run(
            &difference,
            SHRINKERS[column],
            seed,
            1000,
            |_: &(u32, u32)| 2,
        ),
        3 => pt_run(
            (proptest::num::u32::ANY, proptest::num::u32::ANY),
            seed,
            1000,
            |&(a, b)| difference_2(a, b),
            |_| 2,
        ),
        _ => qc_run(qc_difference as fn(u32, u32) -> TestResult, 100, 1000),
    }));

    let concat = property! {
        forall a: String, #[gen = gen::string('a'..='z', 0..=20)];
        forall b: String, #[gen = gen::string('a'..='z', 0..=20)];
        check concat_holds(&a, &b)
    };
    rows.push(row(
        "concat of words",
        rounds,
        |column, seed| match column {
            0..=2 => pbt_run(
                &concat,
                SHRINKERS[column],
                seed,
                1000,
                |(a, b): &(String, String)| a.len() + b.len(),
            ),
            3 => pt_run(
                ("[a-z]{0,20}", "[a-z]{0,20}"),
                seed,
                1000,
                |(a, b)| Some(concat_holds(a, b)),
                |(a, b)| a.len() + b.len(),
            ),
            _ => qc_run_recorded(qc_concat as fn(Word, Word) -> bool, 20, 1000),
        },
    ));

    let calls = property! {
        forall calls: Vec<Call>, #[gen = gen::vec(
            gen::one_of(vec![
                gen::just(Call::Next).boxed(),
                gen::just(Call::NextBack).boxed(),
                gen::map(gen::int(0..=7u8), Call::Nth).boxed(),
                gen::map(gen::int(0..=7u8), Call::NthBack).boxed(),
            ]),
            0..=20,
        )];
        check calls_agree(&calls)
    };
    rows.push(row("iterator calls", rounds, |column, seed| match column {
        0..=2 => pbt_run(
            &calls,
            SHRINKERS[column],
            seed,
            1000,
            |(calls,): &(Vec<Call>,)| calls.len(),
        ),
        3 => {
            use proptest::prelude::{prop_oneof, Just};
            let call = prop_oneof![
                Just(Call::Next),
                Just(Call::NextBack),
                (0..8u8).prop_map(Call::Nth),
                (0..8u8).prop_map(Call::NthBack),
            ];
            pt_run(
                proptest::collection::vec(call, 0..=20),
                seed,
                1000,
                |calls| Some(calls_agree(calls)),
                Vec::len,
            )
        }
        _ => qc_run_recorded(qc_calls as fn(Vec<Call>) -> bool, 20, 1000),
    }));

    let fails_at_once = property! { forall x: u8; check off_by_one(x) };
    rows.push(row(
        "fails at once (u8)",
        rounds,
        |column, seed| match column {
            0..=2 => pbt_run(&fails_at_once, SHRINKERS[column], seed, 1000, |_: &(u8,)| 1),
            3 => pt_run(
                proptest::num::u8::ANY,
                seed,
                1000,
                |&x| Some(off_by_one(x)),
                |_| 1,
            ),
            _ => qc_run(off_by_one as fn(u8) -> bool, 100, 1000),
        },
    ));

    for n in [100usize, 1_000, 10_000] {
        // Type-based, as quickcheck's `Vec<i32>` at generator size n: the
        // length is uniform in 0..=n at the fixed size n.
        let prop = property! {
            forall xs: Vec<i32>;
            check xs.iter().all(|&x| x < BIG)
        };
        let sized = |shrinker, seed| {
            pbt_config(shrinker, seed, 100)
                .max_size(n)
                .sizes(Sizes::Fixed(n))
        };
        rows.push(row(
            &format!("Vec<i32> size {n}"),
            rounds,
            |column, seed| match column {
                0..=2 => {
                    let report = generational(&prop, sized(SHRINKERS[column], seed));
                    report
                        .counterexample::<(Vec<i32>,)>()
                        .map_or(usize::MAX, |(xs,)| xs.len())
                }
                3 => pt_run(
                    proptest::collection::vec(proptest::num::i32::ANY, 0..=n),
                    seed,
                    100,
                    |xs| Some(xs.iter().all(|&x| x < BIG)),
                    Vec::len,
                ),
                _ => qc_run(qc_big as fn(Vec<i32>) -> bool, n, 100),
            },
        ));
        print(&rows[rows.len() - 1..]);
        // The DSL generator `vec(any::<i32>(), 0..=n)`: every shrinker goes
        // through its choices (the external one variable by variable).
        let prop = property! {
            forall xs: Vec<i32>, #[gen = gen::vec(gen::any::<i32>(), 0..=n)];
            check xs.iter().all(|&x| x < BIG)
        };
        rows.push(row(
            &format!("vec(any, 0..={n})"),
            rounds,
            |column, seed| match column {
                0..=2 => pbt_run(&prop, SHRINKERS[column], seed, 100, |(xs,): &(Vec<i32>,)| {
                    xs.len()
                }),
                3 => pt_run(
                    proptest::collection::vec(proptest::num::i32::ANY, 0..=n),
                    seed,
                    100,
                    |xs| Some(xs.iter().all(|&x| x < BIG)),
                    Vec::len,
                ),
                _ => qc_run(qc_big as fn(Vec<i32>) -> bool, n, 100),
            },
        ));
        print(&rows[rows.len() - 1..]);
    }
    println!();
    print(&rows);
    if std::env::args().any(|a| a == "--passes") {
        print_passes(&rows);
    }
    external_gen_vec(rounds);
    failure_path_saved(rounds);
    if !std::env::args().any(|a| a == "--no-debug") {
        run_debug_profile(rounds);
    }
}

// ------------------------------------------------- the failure path saved

/// The `fails at once (u8)` row's `pbt both` with the regressions file on
/// (a fresh file each run, as a first failure writes it) against it off:
/// what saving adds to the failure path's fixed cost. Median ms over
/// `rounds` seeds.
fn failure_path_saved(rounds: u64) {
    if !selected("fails at once (u8)") || !column_selected(BOTH) {
        return;
    }
    let prop = property! { forall x: u8; check off_by_one(x) };
    let dir = std::env::temp_dir().join(format!("pbt-bench-saved-{}", std::process::id()));
    let (mut off, mut on) = (Vec::new(), Vec::new());
    for seed in 0..rounds {
        off.push(timed(|| pbt_run(&prop, Shrinker::Both, seed, 1000, |_: &(u8,)| 1)).0);
        let file = dir.join(format!("{seed}.txt"));
        let config = pbt_config(Shrinker::Both, seed, 1000).regressions(Regressions::File(file));
        on.push(timed(|| usize::from(!generational(&prop, config).passed())).0);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let (off, on) = (median(off), median(on));
    println!(
        "\n{:<40} {:>12} {:>12} {:>8}",
        "failure path (median ms CPU)", "saved", "not saved", "saved ÷"
    );
    println!(
        "{:<40} {on:>12.3} {off:>12.3} {:>8.2}",
        "fails at once (u8), pbt both",
        on / off
    );
}

// --------------------------------------------- the unoptimised profile

/// Build this benchmark unoptimised, as `cargo test` builds (`cargo test
/// --bench shrinking --no-run`, the test profile), and run its
/// [`debug_rows`]: the time a user who runs `cargo test` waits.
/// `-- --no-debug` skips it.
fn run_debug_profile(rounds: u64) {
    use std::process::Command;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let built = Command::new(cargo)
        .args([
            "test",
            "--bench",
            "shrinking",
            "--no-run",
            "--message-format=json",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stderr(std::process::Stdio::null())
        .output();
    let executable = built.ok().and_then(|out| {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .find_map(|line| {
                let v: serde_json::Value = serde_json::from_str(line).ok()?;
                (v["target"]["name"] == "shrinking")
                    .then(|| v["executable"].as_str().map(str::to_string))
                    .flatten()
            })
    });
    let Some(executable) = executable else {
        println!("\n(the unoptimised build of this benchmark failed: no debug rows)");
        return;
    };
    println!();
    let _ = Command::new(executable)
        .args(["--debug-rows", "--rounds", &rounds.to_string()])
        .status();
}

/// The rows of an unoptimised build (`--debug-rows`): a failing list of up
/// to 1 000 `i32`s (some element at least `2^30`), a map of up to 100
/// keys (some value at least `2^30`) and a program of up to 32 commands of
/// the bounded queue (tests/stateful/queue.rs, its planted bug; proptest's
/// side is proptest-state-machine as benches/state_machine.rs runs it),
/// each pbt's default shrinker against proptest on the same failure, the
/// median over the seeds in ms of CPU time.
fn debug_rows(rounds: u64) {
    use std::collections::BTreeMap;
    println!(
        "{:<30} {:>10} {:>10} {:>8}   shrunk size (median, pbt / proptest)",
        "debug profile (median ms CPU)", "pbt both", "proptest", "÷ pt"
    );
    // One row: `pbt` and `pt` each run one seed; `--only NAME` and
    // `--columns 'pbt both;proptest'` select as for the release rows.
    let row = |name: &str, pbt: &dyn Fn(u64) -> usize, pt: &dyn Fn(u64) -> usize| {
        if !selected(name) {
            return;
        }
        let runs = [(pbt, 2), (pt, 3)].map(|(run, column)| match column_selected(column) {
            true => (0..rounds).map(|seed| timed(|| run(seed))).collect(),
            false => vec![(0.0, 0)],
        });
        let ms = runs
            .clone()
            .map(|r: Vec<Timed>| median(r.iter().map(|t| t.0).collect()));
        let size = |r: &[Timed]| {
            let mut s: Vec<usize> = r.iter().map(|t| t.1).collect();
            s.sort_unstable();
            match s[s.len() / 2] {
                usize::MAX => "-".to_string(),
                n => n.to_string(),
            }
        };
        let ratio = match ms[1] {
            0.0 => "-".to_string(),
            pt => format!("{:.2}", ms[0] / pt),
        };
        println!(
            "{name:<30} {:>10.1} {:>10.1} {ratio:>8}   {} / {}",
            ms[0],
            ms[1],
            size(&runs[0]),
            size(&runs[1])
        );
    };

    let list = property! {
        forall xs: Vec<i32>, #[gen = gen::vec(gen::any::<i32>(), 0..=1000)];
        check xs.iter().all(|&x| x < BIG)
    };
    row(
        "vec(any::<i32>(), 0..=1000)",
        &|seed| {
            pbt_run(&list, Shrinker::Both, seed, 100, |(xs,): &(Vec<i32>,)| {
                xs.len()
            })
        },
        &|seed| {
            pt_run(
                proptest::collection::vec(proptest::num::i32::ANY, 0..=1000),
                seed,
                100,
                |xs| Some(xs.iter().all(|&x| x < BIG)),
                Vec::len,
            )
        },
    );

    let map = property! {
        forall m: BTreeMap<u32, i32>, #[gen = gen::map(
            gen::vec((gen::any::<u32>(), gen::any::<i32>()), 0..=100),
            |kv| kv.into_iter().collect::<BTreeMap<u32, i32>>(),
        )];
        check m.values().all(|&x| x < BIG)
    };
    row(
        "map of up to 100 keys",
        &|seed| {
            pbt_run(
                &map,
                Shrinker::Both,
                seed,
                100,
                |(m,): &(BTreeMap<u32, i32>,)| m.len(),
            )
        },
        &|seed| {
            pt_run(
                proptest::collection::btree_map(
                    proptest::num::u32::ANY,
                    proptest::num::i32::ANY,
                    0..=100,
                ),
                seed,
                100,
                |m| Some(m.values().all(|&x| x < BIG)),
                BTreeMap::len,
            )
        },
    );

    use pbt::stateful::{Program, StateMachine};
    let program = queue::QueueMachine.property();
    row(
        "queue program (<= 32 commands)",
        &|seed| {
            pbt_run(
                &program,
                Shrinker::Both,
                seed,
                1000,
                |(p,): &(Program<queue::QueueMachine>,)| p.len(),
            )
        },
        // proptest-state-machine on the same machine, as
        // benches/state_machine.rs runs it (its failing cases panic: their
        // messages are kept off the table).
        &|seed| {
            let hook = std::panic::take_hook();
            std::panic::set_hook(Box::new(|_| {}));
            let shrunk = baseline::run::<baseline::QueueTest>(seed + 1, 1000, 32)
                .map_or(usize::MAX, |found| found.shrunk);
            std::panic::set_hook(hook);
            shrunk
        },
    );
}

#[path = "state_machine/baseline.rs"]
#[allow(dead_code)]
mod baseline;
#[path = "../tests/stateful/kv.rs"]
#[allow(dead_code)]
mod kv;
#[path = "../tests/stateful/queue.rs"]
#[allow(dead_code)]
mod queue;

// ------------------------------------- the external shrinker of a #[with]

/// The external shrinker alone on a `#[with]` variable (it shrinks through
/// the generator's choices, one variable at a time) against quickcheck's
/// `Vec<i32>` at generator size n, n = 1 000: a failing list (some element
/// at least `2^30`: almost every list) of length uniform in `0..=n`, drawn
/// by `vec(any::<i32>(), 0..=n)`, shrunk to one element. Median ms over
/// `rounds` seeds, the ratio, and the shrunk lengths.
/// `cargo bench --bench shrinking -- --external-gen-only` runs this row alone.
fn external_gen_vec(rounds: u64) {
    const N: usize = 1_000;
    if !selected("#[with]") {
        return;
    }
    let prop = property! {
        forall xs: Vec<i32>, #[with = gen::vec(gen::any::<i32>(), 0..=N)];
        check xs.iter().all(|&x| x < BIG)
    };
    let (mut pbt, mut qc) = (Vec::new(), Vec::new());
    // `--columns` keeps this row's `pbt external` or `quickcheck` too.
    let (with_pbt, with_qc) = (column_selected(0), column_selected(4));
    for seed in 0..rounds {
        pbt.push(match with_pbt {
            true => timed(|| {
                pbt_run(
                    &prop,
                    Shrinker::External,
                    seed,
                    100,
                    |(xs,): &(Vec<i32>,)| xs.len(),
                )
            }),
            false => (0.0, 0),
        });
        qc.push(match with_qc {
            true => timed(|| qc_run(qc_big as fn(Vec<i32>) -> bool, N, 100)),
            false => (0.0, 0),
        });
    }
    let ms = |t: &[Timed]| median(t.iter().map(|x| x.0).collect());
    let sizes = |t: &[Timed]| {
        t.iter()
            .map(|x| x.1.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    println!(
        "\n{:<40} {:>12} {:>12} {:>8}   shrunk sizes (pbt / qc)",
        "row (median ms CPU)", "pbt external", "quickcheck", "÷ qc"
    );
    println!(
        "{:<40} {:>12.2} {:>12.2} {:>8.1}   {} / {}",
        format!("#[with = vec(any::<i32>(), 0..={N})]"),
        ms(&pbt),
        ms(&qc),
        ms(&pbt) / ms(&qc),
        sizes(&pbt),
        sizes(&qc)
    );
}

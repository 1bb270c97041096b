//! Tests per second of the generational runner on trivial properties, next
//! to proptest and quickcheck running the same property in the same process,
//! and (for the staged shapes) a hand-written loop drawing the very same
//! values: the limit a runner loop can approach.
//!
//! Three groups: a type-based `Vec<i32>`; a dependent pair `x ∈ 0..1000,
//! y ∈ 0..=x`; and a staged `Vec<i64>` of length `0..100` with elements in
//! `-1_000_000..1_000_000` (crossing zero), built with `map` over `vec`.
//!
//! `cargo bench --bench runner_throughput` (add `-- --cases N --rounds R`,
//! `--only GROUP` for one group, `--lib NAME` for the rows of one library).
//! Each library runs `cases` passing tests per round; the table shows the
//! median over the rounds and the ratios against pbt. The first pbt rows fix
//! the size at 99, so that every library draws vectors of length uniform in
//! `0..100` (proptest: `vec(any::<i32>(), 0..100)`; quickcheck: `Gen` of size
//! 100); the last row is pbt's default schedule (size cycling through
//! `0..=100`, so shorter vectors on average), for information. Rounds are
//! timed with the thread's CPU clock (`benches/common/cpu_clock.rs`), which
//! does not count the time other processes on a shared machine hold the
//! CPU; `x hand` is a row's cost over the hand-written loop's. Under
//! valgrind (callgrind counts instructions, whatever the load) pass
//! `--wall-clock`: rustix's lookup of the CPU clock in the vDSO faults
//! there (its vDSO parsing reads past what valgrind maps), so the rounds
//! are timed with `Instant`.

#[path = "common/cpu_clock.rs"]
mod cpu_clock_impl;

/// The clock the rounds are timed with: the thread's CPU clock, or wall
/// time with `--wall-clock` (for valgrind).
mod cpu_clock {
    use std::sync::OnceLock;
    use std::time::{Duration, Instant};

    pub fn now() -> Duration {
        static WALL: OnceLock<Option<Instant>> = OnceLock::new();
        let wall = WALL.get_or_init(|| {
            std::env::args()
                .any(|a| a == "--wall-clock")
                .then(Instant::now)
        });
        match wall {
            Some(start) => start.elapsed(),
            None => super::cpu_clock_impl::now(),
        }
    }
}

use pbt::dbas::{Check, Forall, Prop};
use pbt::runners::{generational, Config, Regressions, Sizes};
use std::hint::black_box;

/// The check every library runs: touches every element, always true.
fn trivial(xs: &[i32]) -> bool {
    black_box(xs.iter().fold(0i64, |a, &x| a + i64::from(x))) > i64::MIN
}

fn pbt_round(cases: u64, seed: u64) -> f64 {
    pbt_sized_round(cases, seed, Sizes::Fixed(99))
}

fn pbt_default_sizes_round(cases: u64, seed: u64) -> f64 {
    pbt_sized_round(cases, seed, Sizes::Cycle)
}

fn pbt_sized_round(cases: u64, seed: u64, sizes: Sizes) -> f64 {
    let prop = pbt::property! {
        forall xs: Vec<i32>;
        check trivial(xs)
    };
    let config = Config::default()
        .cases(cases)
        .seed(seed)
        .sizes(sizes)
        .regressions(Regressions::Off)
        .ignore_env();
    let start = cpu_clock::now();
    let report = generational(&prop, config);
    assert!(report.passed(), "{report}");
    cases as f64 / (cpu_clock::now() - start).as_secs_f64()
}

fn pbt_hand_built_round(cases: u64, seed: u64) -> f64 {
    let prop = Prop::new(Forall::new(
        "xs",
        "Vec<i32>",
        Check::new(|(xs, ()): &(Vec<i32>, ())| trivial(xs)),
    ));
    let config = Config::default()
        .cases(cases)
        .seed(seed)
        .sizes(Sizes::Fixed(99))
        .regressions(Regressions::Off)
        .ignore_env();
    let start = cpu_clock::now();
    let report = generational(&prop, config);
    assert!(report.passed(), "{report}");
    cases as f64 / (cpu_clock::now() - start).as_secs_f64()
}

fn proptest_round(cases: u64, _seed: u64) -> f64 {
    use proptest::prelude::*;
    use proptest::test_runner::{Config as PConfig, TestRunner};
    let mut runner = TestRunner::new(PConfig {
        cases: cases as u32,
        failure_persistence: None,
        ..PConfig::default()
    });
    let strategy = proptest::collection::vec(any::<i32>(), 0..100);
    let start = cpu_clock::now();
    runner
        .run(&strategy, |xs| {
            prop_assert!(trivial(&xs));
            Ok(())
        })
        .expect("the trivial property passes");
    cases as f64 / (cpu_clock::now() - start).as_secs_f64()
}

fn quickcheck_round(cases: u64, _seed: u64) -> f64 {
    fn prop(xs: Vec<i32>) -> bool {
        trivial(&xs)
    }
    let start = cpu_clock::now();
    quickcheck::QuickCheck::new()
        .tests(cases)
        .max_tests(cases)
        .quickcheck(prop as fn(Vec<i32>) -> bool);
    cases as f64 / (cpu_clock::now() - start).as_secs_f64()
}

// ------------------------------------------------- dependent pair, Vec<i64>

/// The check of the staged shapes: folds the input, always true.
fn trivial_pair(x: u64, y: u64) -> bool {
    black_box(x ^ y) != u64::MAX
}

fn trivial_vec(xs: &[i64]) -> bool {
    black_box(xs.iter().fold(0i64, |a, &x| a.wrapping_add(x))) > i64::MIN
}

fn quiet_config(cases: u64, seed: u64) -> Config {
    Config::default()
        .cases(cases)
        .seed(seed)
        .regressions(Regressions::Off)
        .ignore_env()
}

fn pbt_pair_round(cases: u64, seed: u64) -> f64 {
    let prop = pbt::property! {
        forall x: u64, #[gen = int(0..1000u64)];
        forall y: u64, #[gen = int(0..=x)];
        check trivial_pair(x, y)
    };
    let start = cpu_clock::now();
    let report = generational(&prop, quiet_config(cases, seed));
    assert!(report.passed(), "{report}");
    cases as f64 / (cpu_clock::now() - start).as_secs_f64()
}

fn pbt_vec_round(cases: u64, seed: u64) -> f64 {
    let prop = pbt::property! {
        forall xs: Vec<i64>, #[gen = map(vec(int(-1_000_000..1_000_000i64), 0..100), |v| v)];
        check trivial_vec(xs)
    };
    let start = cpu_clock::now();
    let report = generational(&prop, quiet_config(cases, seed));
    assert!(report.passed(), "{report}");
    cases as f64 / (cpu_clock::now() - start).as_secs_f64()
}

/// xoshiro256++ and Lemire's bounded draw written out, one generator for
/// the whole run: the values pbt draws, with no runner around them.
struct Hand(rand_xoshiro::Xoshiro256PlusPlus);

impl Hand {
    fn new(seed: u64) -> Self {
        use rand_xoshiro::rand_core::SeedableRng;
        Hand(rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    #[inline(always)]
    fn below_or_eq(&mut self, max: u64) -> u64 {
        use rand_xoshiro::rand_core::Rng as _;
        let range = max + 1;
        let mut m = u128::from(self.0.next_u64()) * u128::from(range);
        if (m as u64) < range {
            let t = range.wrapping_neg() % range;
            while (m as u64) < t {
                m = u128::from(self.0.next_u64()) * u128::from(range);
            }
        }
        (m >> 64) as u64
    }

    /// pbt's value order over `-1_000_000..1_000_000` (`0, 1, -1, …`,
    /// then `-1_000_000` last): a zigzag decode and a conditional move.
    #[inline(always)]
    fn zero_first(&mut self) -> i64 {
        let c = self.below_or_eq(1_999_999);
        let zigzag = -(((c >> 1) as i64) ^ -((c & 1) as i64));
        if c == 1_999_999 {
            -1_000_000
        } else {
            zigzag
        }
    }
}

/// The hand-written loop with a generator seeded per case as pbt seeds
/// it (case `n`'s seed is `mix(seed ^ mix(n))`, SplitMix64's finaliser, and
/// its xoshiro256++ state four SplitMix64 outputs from that), all written
/// out: the floor of a runner that can replay any single case from its
/// seed. Draws the very values pbt draws.
fn hand_seeded_pair_round(cases: u64, seed: u64) -> f64 {
    const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
    let mix = pbt::source::mix;
    let start = cpu_clock::now();
    for n in 0..cases {
        let case_seed = mix(seed ^ mix(n));
        let word = |k: u64| mix(case_seed.wrapping_add(k * GAMMA));
        let mut s = [word(0), word(1), word(2), word(3)];
        let mut next = || {
            let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
            let t = s[1] << 17;
            s[2] ^= s[0];
            s[3] ^= s[1];
            s[1] ^= s[2];
            s[0] ^= s[3];
            s[2] ^= t;
            s[3] = s[3].rotate_left(45);
            result
        };
        let x = pbt::source::bounded(999, &mut next);
        let y = pbt::source::bounded(x, &mut next);
        assert!(trivial_pair(x, y));
    }
    cases as f64 / (cpu_clock::now() - start).as_secs_f64()
}

/// [`hand_seeded_pair_round`] software-pipelined: case `n + 1`'s case
/// seed and generator state are computed before case `n` draws and checks
/// (nothing of case `n` feeds them), so that the latency of the seeding
/// overlaps the test instead of being waited for: the fastest loop seeding
/// per case that we know of, and the very values pbt draws.
fn hand_seeded_pipelined_pair_round(cases: u64, seed: u64) -> f64 {
    const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
    let mix = pbt::source::mix;
    let words = |case_seed: u64| {
        let word = |k: u64| mix(case_seed.wrapping_add(k * GAMMA));
        [word(0), word(1), word(2), word(3)]
    };
    let start = cpu_clock::now();
    // Three stages, each one mix deep: `mix(n)` three cases ahead, the case
    // seed two ahead, the state one ahead.
    let mut mixed = mix(2);
    let mut case_seed = mix(seed ^ mix(1));
    let mut upcoming = words(mix(seed ^ mix(0)));
    for n in 0..cases {
        let mut s = upcoming;
        upcoming = words(case_seed);
        case_seed = mix(seed ^ mixed);
        mixed = mix(n + 3);
        let mut next = || {
            let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
            let t = s[1] << 17;
            s[2] ^= s[0];
            s[3] ^= s[1];
            s[1] ^= s[2];
            s[0] ^= s[3];
            s[2] ^= t;
            s[3] = s[3].rotate_left(45);
            result
        };
        let x = pbt::source::bounded(999, &mut next);
        let y = pbt::source::bounded(x, &mut next);
        assert!(trivial_pair(x, y));
    }
    black_box((upcoming, case_seed, mixed));
    cases as f64 / (cpu_clock::now() - start).as_secs_f64()
}

fn hand_pair_round(cases: u64, seed: u64) -> f64 {
    let mut h = Hand::new(seed);
    let start = cpu_clock::now();
    for _ in 0..cases {
        let x = h.below_or_eq(999);
        let y = h.below_or_eq(x);
        assert!(trivial_pair(x, y));
    }
    cases as f64 / (cpu_clock::now() - start).as_secs_f64()
}

fn hand_vec_round(cases: u64, seed: u64) -> f64 {
    let mut h = Hand::new(seed);
    let start = cpu_clock::now();
    for _ in 0..cases {
        let n = h.below_or_eq(99) as usize;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(h.zero_first());
        }
        assert!(trivial_vec(&v));
    }
    cases as f64 / (cpu_clock::now() - start).as_secs_f64()
}

fn proptest_pair_round(cases: u64, _seed: u64) -> f64 {
    use proptest::prelude::*;
    use proptest::test_runner::{Config as PConfig, TestRunner};
    let mut runner = TestRunner::new(PConfig {
        cases: cases as u32,
        failure_persistence: None,
        ..PConfig::default()
    });
    let strategy = (0..1000u64).prop_flat_map(|x| (Just(x), 0..=x));
    let start = cpu_clock::now();
    runner
        .run(&strategy, |(x, y)| {
            prop_assert!(trivial_pair(x, y));
            Ok(())
        })
        .expect("the trivial property passes");
    cases as f64 / (cpu_clock::now() - start).as_secs_f64()
}

fn proptest_vec_round(cases: u64, _seed: u64) -> f64 {
    use proptest::prelude::*;
    use proptest::test_runner::{Config as PConfig, TestRunner};
    let mut runner = TestRunner::new(PConfig {
        cases: cases as u32,
        failure_persistence: None,
        ..PConfig::default()
    });
    let strategy = proptest::collection::vec(-1_000_000..1_000_000i64, 0..100).prop_map(|v| v);
    let start = cpu_clock::now();
    runner
        .run(&strategy, |xs| {
            prop_assert!(trivial_vec(&xs));
            Ok(())
        })
        .expect("the trivial property passes");
    cases as f64 / (cpu_clock::now() - start).as_secs_f64()
}

/// quickcheck's idiom for the same distributions: `u64::arbitrary(g) % n`.
#[derive(Clone, Debug)]
struct QcPair(u64, u64);

impl quickcheck::Arbitrary for QcPair {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        let x = u64::arbitrary(g) % 1000;
        QcPair(x, u64::arbitrary(g) % (x + 1))
    }
}

#[derive(Clone, Debug)]
struct QcVec(Vec<i64>);

impl quickcheck::Arbitrary for QcVec {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        let n = u64::arbitrary(g) % 100;
        QcVec(
            (0..n)
                .map(|_| (u64::arbitrary(g) % 2_000_000) as i64 - 1_000_000)
                .collect(),
        )
    }
}

fn quickcheck_pair_round(cases: u64, _seed: u64) -> f64 {
    fn prop(p: QcPair) -> bool {
        trivial_pair(p.0, p.1)
    }
    let start = cpu_clock::now();
    quickcheck::QuickCheck::new()
        .tests(cases)
        .max_tests(cases)
        .quickcheck(prop as fn(QcPair) -> bool);
    cases as f64 / (cpu_clock::now() - start).as_secs_f64()
}

fn quickcheck_vec_round(cases: u64, _seed: u64) -> f64 {
    fn prop(v: QcVec) -> bool {
        trivial_vec(&v.0)
    }
    let start = cpu_clock::now();
    quickcheck::QuickCheck::new()
        .tests(cases)
        .max_tests(cases)
        .quickcheck(prop as fn(QcVec) -> bool);
    cases as f64 / (cpu_clock::now() - start).as_secs_f64()
}

// ---------------------------------------------------------------- harness

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

type Round = fn(u64, u64) -> f64;

/// Run each library's rounds, print tests/s, ns/test and each row's cost
/// relative to the first row (pbt) and, where there is one, to the
/// hand-written loop.
fn group(title: &str, cases: u64, rounds: u64, libs: &[(&str, Round)]) {
    println!("\n{title}: {cases} tests x {rounds} rounds (median)");
    let mut results = Vec::new();
    // `--lib NAME` keeps the rows whose name starts with NAME (for a
    // profiler run of one library).
    let lib = std::env::args().skip_while(|a| a != "--lib").nth(1);
    let libs = libs
        .iter()
        .filter(|(name, _)| lib.as_deref().is_none_or(|l| name.starts_with(l)));
    for &(name, f) in libs {
        f(cases / 10, 0); // warm up
                          // Interleaving would be fairer on a noisy machine, but each
                          // library's rounds back to back keep its caches warm, as in a real
                          // test run.
        let tps: Vec<f64> = (0..rounds).map(|r| f(cases, r + 1)).collect();
        results.push((name, median(tps)));
    }
    let base = results[0].1;
    let hand = results
        .iter()
        .find(|(n, _)| n.starts_with("hand"))
        .map(|r| r.1);
    println!(
        "{:<24} {:>14} {:>12} {:>16} {:>10}",
        "library", "tests/s", "ns/test", "pbt speed-up", "x hand"
    );
    for (name, tps) in &results {
        let x_hand = hand.map_or(String::from("-"), |h| format!("{:.2}", h / tps));
        println!(
            "{name:<24} {tps:>14.0} {:>12.1} {:>15.2}x {x_hand:>10}",
            1e9 / tps,
            base / tps
        );
    }
}

fn main() {
    let cases = arg("--cases", 20_000);
    let rounds = arg("--rounds", 9);
    let only = std::env::args().skip_while(|a| a != "--only").nth(1);
    let wanted = |g: &str| only.as_deref().is_none_or(|o| g.contains(o));
    if wanted("Vec<i32>") {
        group(
            "generational runner throughput: trivial property over Vec<i32> (type-based)",
            cases,
            rounds,
            &[
                ("pbt property!", pbt_round),
                ("pbt hand-built chain", pbt_hand_built_round),
                ("proptest", proptest_round),
                ("quickcheck", quickcheck_round),
                ("pbt, default sizes", pbt_default_sizes_round),
            ],
        );
    }
    if wanted("pair") {
        group(
            "dependent pair x in 0..1000, y in 0..=x (staged)",
            cases * 10,
            rounds,
            &[
                ("pbt property!", pbt_pair_round),
                ("hand-written loop", hand_pair_round),
                ("hand, seeded per case", hand_seeded_pair_round),
                ("hand, seeded, pipelined", hand_seeded_pipelined_pair_round),
                ("proptest", proptest_pair_round),
                ("quickcheck", quickcheck_pair_round),
            ],
        );
    }
    if wanted("Vec<i64>") {
        group(
            "Vec<i64> via map(vec(int(-1e6..1e6), 0..100)) (staged)",
            cases,
            rounds,
            &[
                ("pbt property!", pbt_vec_round),
                ("hand-written loop", hand_vec_round),
                ("proptest", proptest_vec_round),
                ("quickcheck", quickcheck_vec_round),
            ],
        );
    }
}

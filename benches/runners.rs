//! Runner benchmarks (the cost of recording choices, the parallel speed-up), in one process:
//!
//! 1. the cost of recording choices: generation through a `Recorder` vs
//!    through the plain `Rng` (goal ≤ 1.5×);
//! 2. tests per second of the parallel runner on 1 vs 2 workers, for a
//!    property whose check costs about 50 µs (goal ≥ 1.8×) and for a
//!    trivial one (where parallel must not be slower than sequential);
//! 3. the parallel runner's own cost against the generational runner's:
//!    start-up (a property that fails on its first test, shrinking off, as
//!    ETNA runs it: µs per run) and the overhead per test (a trivial
//!    property, ns per test), so a user who picks the parallel runner
//!    knows what it costs on a quick bug.
//!
//! `cargo bench --bench runners` (options: `-- --rounds R`, `--only N` for
//! section N alone). Medians of R rounds, by wall time (the parallel runner's
//! work is on other threads).

use pbt::choices::Recorder;
use pbt::generators::{self as gen, Gen};
use pbt::runners::{generational, parallel, Config, Regressions, Sizes};
use std::hint::black_box;
use std::time::{Duration, Instant};

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

const N: u64 = 20_000;

// Each way of generating is timed in its own non-inlined function, so that
// the compiler optimises the three loops alike: inlined into one function,
// the same plain loop measured anywhere from 64 to 93 ns per `Vec<i64>`
// depending on what else was inlined next to it.

/// ns per value of `g` through the plain `Rng`.
#[inline(never)]
fn time_plain<G: Gen>(g: &G, size: usize, seed: u64) -> f64 {
    let mut rng = pbt::Rng::from_seed(seed);
    let t = Instant::now();
    for _ in 0..N {
        black_box(g.generate(&mut rng, size).ok());
    }
    t.elapsed().as_nanos() as f64 / N as f64
}

/// ns per value of `g` through a fresh `Recorder` per value, as a runner
/// records one test case.
#[inline(never)]
fn time_recorded<G: Gen>(g: &G, size: usize, seed: u64) -> f64 {
    let mut rng = pbt::Rng::from_seed(seed);
    let t = Instant::now();
    for _ in 0..N {
        let mut rec = Recorder::new(&mut rng);
        black_box(g.generate(&mut rec, size).ok());
        black_box(rec.into_choices());
    }
    t.elapsed().as_nanos() as f64 / N as f64
}

/// ns per value of `g` through a `Recorder` that reuses one buffer.
#[inline(never)]
fn time_reused<G: Gen>(g: &G, size: usize, seed: u64) -> f64 {
    let mut rng = pbt::Rng::from_seed(seed);
    let mut buffer = Vec::new();
    let t = Instant::now();
    for _ in 0..N {
        let mut rec = Recorder::with_buffer(&mut rng, buffer);
        black_box(g.generate(&mut rec, size).ok());
        buffer = black_box(rec.into_choices());
    }
    t.elapsed().as_nanos() as f64 / N as f64
}

/// ns per value of `g` through a fresh `Rng` per value, seeded per case as a
/// runner does.
#[inline(never)]
fn time_plain_per_case<G: Gen>(g: &G, size: usize, seed: u64) -> f64 {
    let t = Instant::now();
    for i in 0..N {
        let mut rng = pbt::Rng::from_seed(seed ^ i);
        black_box(g.generate(&mut rng, size).ok());
    }
    t.elapsed().as_nanos() as f64 / N as f64
}

/// As [`time_plain_per_case`], through a recorder owning the case's `Rng`
/// and reusing one buffer.
#[inline(never)]
fn time_owned_per_case<G: Gen>(g: &G, size: usize, seed: u64) -> f64 {
    let mut buffer = Vec::new();
    let t = Instant::now();
    for i in 0..N {
        let mut rec = Recorder::with_buffer(pbt::Rng::from_seed(seed ^ i), buffer);
        black_box(g.generate(&mut rec, size).ok());
        buffer = black_box(rec.into_choices());
    }
    t.elapsed().as_nanos() as f64 / N as f64
}

/// Median ns per value over `rounds` of each way of generating.
struct Cost {
    plain: f64,
    recorded: f64,
    reused: f64,
    plain_case: f64,
    owned_case: f64,
}

/// Medians over `rounds` of each way of generating, interleaved within each
/// round.
fn recording_cost<G: Gen>(g: &G, size: usize, rounds: usize) -> Cost {
    let (mut plain, mut recorded, mut reused) = (Vec::new(), Vec::new(), Vec::new());
    let (mut plain_case, mut owned_case) = (Vec::new(), Vec::new());
    for r in 0..rounds as u64 {
        plain.push(time_plain(g, size, r));
        recorded.push(time_recorded(g, size, r));
        reused.push(time_reused(g, size, r));
        plain_case.push(time_plain_per_case(g, size, r));
        owned_case.push(time_owned_per_case(g, size, r));
    }
    Cost {
        plain: median(plain),
        recorded: median(recorded),
        reused: median(reused),
        plain_case: median(plain_case),
        owned_case: median(owned_case),
    }
}

/// Busy work taking about `target` (calibrated once).
fn calibrate(target: Duration) -> u64 {
    let mut iters = 1_000u64;
    loop {
        let t = Instant::now();
        spin(iters);
        let took = t.elapsed();
        if took >= target / 4 {
            return (iters as f64 * target.as_secs_f64() / took.as_secs_f64()) as u64;
        }
        iters *= 2;
    }
}

fn spin(iters: u64) -> u64 {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for i in 0..iters {
        x = black_box(x.rotate_left(5) ^ i).wrapping_mul(0x2545_F491_4F6C_DD1D);
    }
    x
}

fn tests_per_second(workers: Option<usize>, cases: u64, work: u64, seed: u64) -> f64 {
    let prop = pbt::property! {
        forall xs: Vec<u8>;
        check { black_box(spin(work)); xs.len() <= 100 }
    };
    let config = Config::default()
        .cases(cases)
        .seed(seed)
        .sizes(Sizes::Fixed(50))
        .regressions(Regressions::Off)
        .ignore_env();
    let t = Instant::now();
    let report = match workers {
        None => generational(&prop, config),
        Some(n) => parallel(&prop, config.workers(n)),
    };
    assert!(report.passed(), "{report}");
    report.tests as f64 / t.elapsed().as_secs_f64()
}

/// µs per run of a property that fails on its first test, shrinking off:
/// what a run costs before and after its one test (`workers`: `None` is the
/// generational runner).
#[inline(never)]
fn startup_us(workers: Option<usize>, runs: u64, seed: u64) -> f64 {
    let prop = pbt::property! {
        forall x: u32;
        check black_box(x) == u32::MAX && black_box(false)
    };
    let config = || {
        Config::default()
            .seed(seed)
            .max_shrinks(0)
            .regressions(Regressions::Off)
            .ignore_env()
    };
    let t = Instant::now();
    for _ in 0..runs {
        let report = match workers {
            None => generational(&prop, config()),
            Some(n) => parallel(&prop, config().workers(n)),
        };
        assert!(!report.passed());
        black_box(report);
    }
    t.elapsed().as_secs_f64() * 1e6 / runs as f64
}

/// ns per test of a trivial property (`forall x: u32; check x == x`) over
/// `cases` tests.
#[inline(never)]
fn per_test_ns(workers: Option<usize>, cases: u64, seed: u64) -> f64 {
    let prop = pbt::property! {
        forall x: u32;
        check black_box(x) == x
    };
    let config = Config::default()
        .cases(cases)
        .seed(seed)
        .regressions(Regressions::Off)
        .ignore_env();
    let t = Instant::now();
    let report = match workers {
        None => generational(&prop, config),
        Some(n) => parallel(&prop, config.workers(n)),
    };
    assert!(report.passed(), "{report}");
    t.elapsed().as_nanos() as f64 / report.tests as f64
}

/// Section 3: the parallel runner's start-up and per-test overhead against
/// the generational runner's, interleaved within each round.
fn parallel_overhead(rounds: usize) {
    println!("\n3. parallel runner's own cost (median of {rounds} rounds, wall time)");
    println!(
        "{:<40} {:>12} {:>12} {:>12} {:>9} {:>9}",
        "", "generational", "1 worker", "2 workers", "1w / gen", "2w / gen"
    );
    let runners = [None, Some(1), Some(2)];
    let mut startup = [vec![], vec![], vec![]];
    let mut per_test = [vec![], vec![], vec![]];
    for r in 0..rounds as u64 {
        for (i, &w) in runners.iter().enumerate() {
            startup[i].push(startup_us(w, 200, r));
        }
        for (i, &w) in runners.iter().enumerate() {
            per_test[i].push(per_test_ns(w, 1_000_000, r));
        }
    }
    for (name, unit, xs) in [
        ("start-up: fails on its first test", "µs", startup),
        ("per test: forall x: u32, 10^6 tests", "ns", per_test),
    ] {
        let [g, one, two] = xs.map(median);
        println!(
            "{:<40} {:>9.1} {unit} {:>9.1} {unit} {:>9.1} {unit} {:>8.2}x {:>8.2}x",
            name,
            g,
            one,
            two,
            one / g,
            two / g
        );
    }
}

fn main() {
    let rounds = arg("--rounds", 7) as usize;
    if arg("--only", 0) == 3 {
        return parallel_overhead(rounds);
    }

    println!("1. recording choices (ns per value, median of {rounds} rounds)");
    println!("   one Rng for all values:");
    println!(
        "{:<36} {:>7} {:>9} {:>7} {:>14} {:>7}",
        "generator", "plain", "recorded", "ratio", "reused buffer", "ratio"
    );
    let vec_rt = gen::vec(gen::int(0..1_000_000i64), 0..100);
    let vec_st = pbt::generator!(vec(int(0..1_000_000i64), 0..100));
    let tree = pbt::generator!(recursive::<u32>(|rec| frequency[1 => just(1u32), size => map((rec, rec), |(a, b)| a + b)]));
    let rows: [(&str, Cost); 3] = [
        (
            "Vec<i64> len 0..100, runtime",
            recording_cost(&vec_rt, 0, rounds),
        ),
        (
            "Vec<i64> len 0..100, staged",
            recording_cost(&vec_st, 0, rounds),
        ),
        (
            "tree (node count), staged, size 30",
            recording_cost(&tree, 30, rounds),
        ),
    ];
    for (name, c) in &rows {
        println!(
            "{name:<36} {:>7.1} {:>9.1} {:>6.2}x {:>14.1} {:>6.2}x",
            c.plain,
            c.recorded,
            c.recorded / c.plain,
            c.reused,
            c.reused / c.plain
        );
    }
    println!("   a fresh Rng per value, seeded per case as runners seed; the recorder owns it:");
    println!(
        "{:<36} {:>7} {:>24} {:>7}",
        "generator", "plain", "recorder owning the Rng", "ratio"
    );
    for (name, c) in &rows {
        println!(
            "{name:<36} {:>7.1} {:>24.1} {:>6.2}x",
            c.plain_case,
            c.owned_case,
            c.owned_case / c.plain_case
        );
    }

    println!("\n2. parallel runner: tests per second (median of {rounds} rounds)");
    let work = calibrate(Duration::from_micros(50));
    println!(
        "{:<28} {:>12} {:>12} {:>12} {:>10}",
        "check", "sequential", "1 worker", "2 workers", "2w / 1w"
    );
    for (name, cases, work) in [("~50 µs of work", 2_000, work), ("trivial", 200_000, 0)] {
        let seq = median(
            (0..rounds)
                .map(|r| tests_per_second(None, cases, work, r as u64))
                .collect(),
        );
        let one = median(
            (0..rounds)
                .map(|r| tests_per_second(Some(1), cases, work, r as u64))
                .collect(),
        );
        let two = median(
            (0..rounds)
                .map(|r| tests_per_second(Some(2), cases, work, r as u64))
                .collect(),
        );
        println!(
            "{name:<28} {seq:>12.0} {one:>12.0} {two:>12.0} {:>9.2}x",
            two / one
        );
    }
    parallel_overhead(rounds);
}

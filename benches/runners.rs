//! Runner benchmarks of issue #5, in one process:
//!
//! 1. the cost of recording choices: generation through a `Recorder` vs
//!    through the plain `Rng` (goal ≤ 1.5×);
//! 2. tests per second of the parallel runner on 1 vs 2 workers, for a
//!    property whose check costs about 50 µs (goal ≥ 1.8×) and for a
//!    trivial one (where parallel must not be slower than sequential).
//!
//! `cargo bench --bench runners` (options: `-- --rounds R`). Medians of R rounds.

use pbt::choices::Recorder;
use pbt::gen::{self, Gen};
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

/// ns per value of `g` through the plain source, through a fresh recorder
/// per value, and through a recorder reusing one buffer.
fn recording_cost<G: Gen>(g: &G, size: usize, rounds: usize) -> (f64, f64, f64) {
    const N: u64 = 20_000;
    let mut plain = Vec::new();
    let mut recorded = Vec::new();
    let mut reused = Vec::new();
    for r in 0..rounds {
        let mut rng = pbt::Rng::from_seed(r as u64);
        let t = Instant::now();
        for _ in 0..N {
            black_box(g.generate(&mut rng, size).ok());
        }
        plain.push(t.elapsed().as_nanos() as f64 / N as f64);
        let mut rng = pbt::Rng::from_seed(r as u64);
        let t = Instant::now();
        for _ in 0..N {
            // A fresh recorder per value, as a runner records one test case.
            let mut rec = Recorder::new(&mut rng);
            black_box(g.generate(&mut rec, size).ok());
            black_box(rec.into_choices());
        }
        recorded.push(t.elapsed().as_nanos() as f64 / N as f64);
        let mut rng = pbt::Rng::from_seed(r as u64);
        let mut buffer = Vec::new();
        let t = Instant::now();
        for _ in 0..N {
            let mut rec = Recorder::with_buffer(&mut rng, buffer);
            black_box(g.generate(&mut rec, size).ok());
            buffer = black_box(rec.into_choices());
        }
        reused.push(t.elapsed().as_nanos() as f64 / N as f64);
    }
    (median(plain), median(recorded), median(reused))
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

fn main() {
    let rounds = arg("--rounds", 7) as usize;

    println!("1. recording choices (ns per value, median of {rounds} rounds)");
    println!(
        "{:<34} {:>8} {:>10} {:>8} {:>14} {:>8}",
        "generator", "plain", "recorded", "ratio", "reused buffer", "ratio"
    );
    let vec_rt = gen::vec(gen::int(0..1_000_000i64), 0..100);
    let vec_st = pbt::generator!(vec(int(0..1_000_000i64), 0..100));
    let tree = pbt::generator!(recursive::<u32>(|rec| frequency[1 => just(1u32), size => map((rec, rec), |(a, b)| a + b)]));
    let rows: [(&str, (f64, f64, f64)); 3] = [
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
    for (name, (plain, recorded, reused)) in rows {
        println!(
            "{name:<34} {plain:>8.1} {recorded:>10.1} {:>7.2}x {reused:>14.1} {:>7.2}x",
            recorded / plain,
            reused / plain
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
}

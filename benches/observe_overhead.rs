//! What observing a run costs (`Config::observe`, `PBT_OBSERVE`): tests per
//! second of the generational runner with the run observed, against the
//! same run not observed, measured in the same process. An observed run
//! tests one input at a time (no batches), prints each input, times it and
//! appends its JSON line to the observations file.
//!
//! Two properties: the `Vec<i32>` of `benches/runner_throughput.rs` (size
//! fixed at 99, so vectors of length uniform in `0..100`, whose lines are
//! long), and a single `u32` (short lines, where the per-test work of the
//! hook shows most).
//!
//! `cargo bench --bench observe_overhead` (add `-- --cases N --rounds R`, `--only u32`
//! for one property).
//! Rounds are timed with the thread's CPU clock
//! (`benches/common/cpu_clock.rs`); the table shows each row's median.

#[path = "common/cpu_clock.rs"]
mod cpu_clock;

use pbt::runners::{generational, Config, Regressions, Sizes};
use std::hint::black_box;
use std::path::Path;

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    (args.iter().position(|a| a == name))
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(default)
}

/// Nanoseconds per test of one round of `cases` tests, observed into `dir`
/// when given.
fn round(vectors: bool, cases: u64, seed: u64, dir: Option<&Path>) -> f64 {
    let mut config = Config::default()
        .cases(cases)
        .seed(seed)
        .sizes(Sizes::Fixed(99))
        .regressions(Regressions::Off)
        .ignore_env();
    if let Some(dir) = dir {
        let _ = std::fs::remove_dir_all(dir);
        config = config.observe(dir);
    }
    let start = cpu_clock::now();
    let report = if vectors {
        let prop = pbt::property! {
            forall xs: Vec<i32>;
            check black_box(xs.iter().fold(0i64, |a, &x| a + i64::from(x))) > i64::MIN
        };
        generational(&prop, config)
    } else {
        let prop = pbt::property! {
            forall x: u32;
            check black_box(u64::from(x)) < 1 << 32
        };
        generational(&prop, config)
    };
    let elapsed = cpu_clock::now() - start;
    assert!(report.passed(), "{report}");
    elapsed.as_secs_f64() * 1e9 / cases as f64
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let cases = arg("--cases", 20_000);
    let rounds = arg("--rounds", 7);
    let dir = std::env::temp_dir().join(format!("pbt-bench-observe-{}", std::process::id()));
    println!("{cases} tests per round, median of {rounds} rounds (CPU time)");
    println!(
        "{:<10} {:>14} {:>14} {:>8}",
        "property", "off ns/test", "on ns/test", "on/off"
    );
    let only: Option<String> = (std::env::args().skip_while(|a| a != "--only")).nth(1);
    for (name, vectors) in [("Vec<i32>", true), ("u32", false)] {
        if only.as_ref().is_some_and(|o| o != name) {
            continue;
        }
        let (mut off, mut on) = (Vec::new(), Vec::new());
        for r in 0..rounds {
            off.push(round(vectors, cases, r, None));
            on.push(round(vectors, cases, r, Some(&dir)));
        }
        let (off, on) = (median(off), median(on));
        println!("{name:<10} {off:>14.1} {on:>14.1} {:>7.1}x", on / off);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

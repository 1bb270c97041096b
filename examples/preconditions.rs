//! Automatic targeting of preconditions (*Flexible and Automatic Targeted Property-Based Testing* §3): the conv2d-style
//! constraints of *Flexible and Automatic Targeted Property-Based Testing* Fig. 1, where random generation accepts few
//! inputs. `property!` derives a utility from each `implies`; when the
//! preconditions reject most inputs the generational runner climbs that
//! utility instead of throwing inputs away.
//!
//! `cargo run --release --example preconditions` prints the accept rate with
//! and without automatic targeting, over 20 seeds.

use pbt::runners::{generational, Config, Regressions};

// The precondition is written as in *Flexible and Automatic Targeted Property-Based Testing* Fig. 1.
#[allow(clippy::int_plus_one)]
fn main() {
    const SEEDS: u64 = 20;
    const TESTS: u64 = 2_000;
    let prop = pbt::property! {
        forall height: i64, #[gen = int(1..64i64)];
        forall padding: i64, #[gen = int(0..8i64)];
        forall dilation: i64, #[gen = int(1..8i64)];
        forall kernel: i64, #[gen = int(1..16i64)];
        forall stride: i64, #[gen = int(1..8i64)];
        implies height + 2 * padding >= dilation * (kernel - 1) + 1;
        implies padding <= kernel / 2;
        implies stride <= kernel && kernel <= height;
        check {
            let out = (height + 2 * padding - dilation * (kernel - 1) - 1) / stride + 1;
            out >= 1
        }
    };
    println!("conv2d-style preconditions: {SEEDS} seeds, {TESTS} accepted tests wanted\n");
    println!(
        "{:<26} {:>14} {:>12} {:>12}",
        "generation", "accept rate", "accepted", "discarded"
    );
    for (name, auto) in [
        ("plain (auto_target off)", false),
        ("targeting preconditions", true),
    ] {
        let (mut accepted, mut discarded) = (0u64, 0u64);
        for seed in 0..SEEDS {
            let config = Config::default()
                .cases(TESTS)
                .seed(seed)
                .max_discard_ratio(50)
                .auto_target(auto)
                .regressions(Regressions::Off);
            let report = generational(&prop, config);
            assert!(report.failure.is_none(), "{report}");
            accepted += report.tests;
            discarded += report.discards;
        }
        let rate = 100.0 * accepted as f64 / (accepted + discarded) as f64;
        println!("{name:<26} {rate:>13.1}% {accepted:>12} {discarded:>12}");
    }
}

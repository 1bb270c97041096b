//! Targeted search for the slowest input of a quadratic algorithm (*Programmable Property-Based Testing*
//! §2.4; *Flexible and Automatic Targeted Property-Based Testing* §4): the check reports the number of comparisons
//! insertion sort made with `target(x)`, and the targeted runner climbs
//! towards inputs that cost more, until one exceeds the budget the property
//! allows.
//!
//! `cargo run --release --example slowest_input` compares generation and
//! targeted search (hill climbing, simulated annealing) over 20 seeds.

use pbt::feedback::target;
use pbt::runners::components::seed_pool::Pool;
use pbt::runners::{generational, targeted, Config, Regressions};

/// Insertion sort, counting comparisons.
fn insertion_sort(xs: &mut [u16]) -> u64 {
    let mut comparisons = 0;
    for i in 1..xs.len() {
        let mut j = i;
        while j > 0 {
            comparisons += 1;
            if xs[j - 1] <= xs[j] {
                break;
            }
            xs.swap(j - 1, j);
            j -= 1;
        }
    }
    comparisons
}

fn main() {
    const SEEDS: u64 = 20;
    const BUDGET: u64 = 100_000;
    // 30 elements: at most 435 comparisons (reversed input); random inputs
    // average about 230. The property claims no input needs more than 420.
    let prop = pbt::property! {
        forall xs: Vec<u16>, #[gen = vec(int(0..1000u16), 30..=30)];
        check {
            let mut ys = xs.to_vec();
            let cost = insertion_sort(&mut ys);
            target(cost as f64);
            cost <= 420
        }
    };
    println!("slowest input of insertion sort: {SEEDS} seeds, at most {BUDGET} tests each\n");
    println!(
        "{:<28} {:>8} {:>22}",
        "runner", "found", "median tests to failure"
    );
    let annealing = Pool::SimulatedAnnealing {
        temperature: 20.0,
        cooling: 0.999,
    };
    type Run<'a> = Box<dyn Fn(Config) -> pbt::runners::Report + 'a>;
    let runs: [(&str, Run); 3] = [
        ("generational", Box::new(|c| generational(&prop, c))),
        ("targeted (hill climbing)", Box::new(|c| targeted(&prop, c))),
        (
            "targeted (annealing)",
            Box::new(|c| targeted(&prop, c.pool(annealing))),
        ),
    ];
    for (name, run) in runs {
        let mut tests: Vec<u64> = Vec::new();
        for seed in 0..SEEDS {
            let report = run(Config::default()
                .cases(BUDGET)
                .seed(seed)
                .regressions(Regressions::Off));
            if report.failure.is_some() {
                tests.push(report.tests);
            }
        }
        tests.sort_unstable();
        let median = tests
            .get(tests.len() / 2)
            .map_or("-".to_string(), |t| t.to_string());
        println!("{name:<28} {:>5}/{SEEDS} {median:>22}", tests.len());
    }
}

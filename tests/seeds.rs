//! Same seed, same cases, bit for bit: what a run seed gives is pinned.
//!
//! A seed printed by a failing run, or written into a test
//! (`Config::seed`), must keep replaying the very inputs it gave when it was
//! printed, whatever the runner loop does to go faster. These tests pin the
//! case seeds, the sizes and the first values of a few run seeds, as the
//! runner generates them (in a batch, one case at a time, and each case
//! alone from its seed). The constants were recorded from the runner before
//! its loop was pipelined; they must never change.

use pbt::prelude::*;
use pbt::runners::components::{supervise, DynProperty, InProcess, Plan, RunStep, Tested};
use pbt::runners::{generational, Regressions};
use pbt::{Rng, Source};
use std::cell::RefCell;

fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

const RUN_SEEDS: [u64; 4] = [0, 1, 0xDEAD_BEEF, u64::MAX];

thread_local! {
    static SEEN: RefCell<Vec<(u64, u64)>> = const { RefCell::new(Vec::new()) };
}

fn seen(x: u64, y: u64) -> bool {
    SEEN.with(|s| s.borrow_mut().push((x, y)));
    true
}

fn take_seen() -> Vec<(u64, u64)> {
    SEEN.with(|s| std::mem::take(&mut *s.borrow_mut()))
}

/// The dependent pair of `benches/runner_throughput.rs`.
fn pair() -> impl Property {
    property! {
        forall x: u64, #[gen = int(0..1000u64)];
        forall y: u64, #[gen = int(0..=x)];
        check seen(x, y)
    }
}

#[test]
fn case_seeds_and_sizes_are_pinned() {
    let pinned: [[u64; 3]; 4] = [
        [0xa706dd2f4d197e6f, 0x5e41ab087439611e, 0x64684c4f0fd784b4],
        [0x08b4fda8c892b50e, 0xe9fd6049d65af21e, 0xe06dd043328bd285],
        [0x35d7911caf08df64, 0x5a0484dbdb7164b1, 0x4e563177fac2f8e0],
        [0x2dd82c88fa32b270, 0xa562df66c82c649a, 0xfc071b2cceca31ad],
    ];
    let got = RUN_SEEDS.map(|run_seed| {
        let plan = Plan::new(&quiet().seed(run_seed), &Default::default());
        let seeds: Vec<u64> = plan.cases().take(3).map(|c| c.seed).collect();
        [seeds[0], seeds[1], seeds[2]]
    });
    assert_eq!(got, pinned, "{got:#x?}");
    for run_seed in RUN_SEEDS {
        let plan = Plan::new(&quiet().seed(run_seed), &Default::default());
        let sizes: Vec<usize> = plan.cases().take(203).map(|c| c.size).collect();
        let cycle: Vec<usize> = (0..=100).chain(0..=100).chain(0..1).collect();
        assert_eq!(sizes, cycle, "the default sizes cycle through 0..=100");
    }
}

#[test]
fn a_case_seed_gives_a_pinned_stream() {
    let mut rng = Rng::from_seed(0x0123_4567_89ab_cdef);
    let got: Vec<u64> = (0..4).map(|_| rng.next_u64()).collect();
    let pinned = [
        0xb2f2a310e96bd1c5,
        0xb54062465b950493,
        0x87aca4a9668814b0,
        0xf13d2e2448a9cffb,
    ];
    assert_eq!(got, pinned, "{got:#x?}");
    let mut rng = Rng::from_seed(7);
    let draws: Vec<u64> = (0..6).map(|_| rng.draw(999)).collect();
    assert_eq!(draws, [55, 172, 717, 427, 963, 465], "{draws:?}");
}

#[test]
fn a_run_seed_gives_pinned_inputs_through_generational() {
    let pinned: [[(u64, u64); 5]; 4] = [
        [(245, 127), (248, 110), (806, 623), (700, 570), (245, 166)],
        [(734, 688), (775, 552), (483, 300), (459, 342), (878, 186)],
        [(307, 214), (0, 0), (384, 162), (254, 92), (416, 302)],
        [(416, 375), (865, 151), (953, 267), (328, 31), (18, 14)],
    ];
    let got = RUN_SEEDS.map(|run_seed| {
        take_seen();
        let report = generational(&pair(), quiet().seed(run_seed).cases(5));
        assert!(report.passed(), "{report}");
        let seen = take_seen();
        [seen[0], seen[1], seen[2], seen[3], seen[4]]
    });
    assert_eq!(got, pinned, "{got:?}");
}

/// The batch, the one-at-a-time step and a case generated alone from its
/// seed agree on every case of a long run (the batch loop may prepare a
/// case's generator ahead of time; it must still be that case's).
#[test]
fn batched_one_at_a_time_and_alone_agree() {
    let prop = pair();
    for run_seed in RUN_SEEDS {
        let cases = 1000;
        take_seen();
        let report = generational(&prop, quiet().seed(run_seed).cases(cases));
        assert!(report.passed(), "{report}");
        let batched = take_seen();
        assert_eq!(batched.len() as u64, cases);

        let plan = Plan::new(&quiet().seed(run_seed), &DynProperty::structure(&prop));
        supervise(&prop, &plan, |watch| {
            let mut step = InProcess::new(&prop, &plan, watch);
            for n in 0..cases {
                assert_eq!(step.test_fresh(&plan.case(n)), Tested::Passed);
            }
        });
        assert_eq!(take_seen(), batched, "run seed {run_seed:#x}");

        let alone: Vec<(u64, u64)> = (0..cases)
            .map(|n| {
                let case = plan.case(n);
                let mut rng = Rng::from_seed(case.seed);
                let x = rng.draw(999);
                (x, rng.draw(x))
            })
            .collect();
        assert_eq!(alone, batched, "run seed {run_seed:#x}");
    }
}

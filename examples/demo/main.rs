//! The pbt demonstration: one real bug, one property, written three ways.
//!
//! `insort` should insert a number into a sorted vector and keep it sorted.
//! Its binary search never looks at position 0, so inserting a number smaller
//! than every element puts it in the wrong place. pbt finds that and shrinks
//! it to the smallest input that shows it.
//!
//! 1. `property!` — the property as a value, run by `pbt::runners::generational`;
//! 2. `#[property_test]` — the same property as a test function (run by
//!    `cargo test --example demo`, see `insort_keeps_sorted` below);
//! 3. a runner written here, outside pbt, over the public runner components
//!    (`hand_runner.rs`): it counts every failing input, then shrinks,
//!    saves and reports the smallest one as the built-in runners do.
//!
//! Run it: `cargo run --release --example demo`

mod hand_runner;

use pbt::prelude::*;
use pbt::runners::{generational, Regressions};

/// Insert `x` into the sorted `xs`, keeping it sorted. (It has a bug.)
fn insort(xs: &[i32], x: i32) -> Vec<i32> {
    // Find the first position whose element is greater than x.
    let (mut lo, mut hi) = (1, xs.len()); // BUG: should start at 0
    while lo < hi {
        let mid = (lo + hi) / 2;
        if xs[mid] <= x {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    let at = lo.min(xs.len());
    let mut out = xs.to_vec();
    out.insert(at, x);
    out
}

fn is_sorted(xs: &[i32]) -> bool {
    xs.windows(2).all(|w| w[0] <= w[1])
}

fn sorted(mut xs: Vec<i32>) -> Vec<i32> {
    xs.sort();
    xs
}

/// 2. The property as a test function. `cargo test --example demo` runs it;
/// it is expected to fail, because `insort` has a bug.
#[property_test(cases = 1000)]
#[should_panic(expected = "counterexample")]
fn insort_keeps_sorted(
    #[gen = map(vec(int(-50..50), 0..20), sorted)] xs: Vec<i32>,
    x: i32,
) -> bool {
    is_sorted(&insort(&xs, x))
}

fn main() {
    // Demonstration runs do not write a regressions file into the repository.
    let config = || Config::default().cases(1000).regressions(Regressions::Off);

    println!("== 1. property! + pbt::runners::generational ==\n");
    let prop = property! {
        forall xs: Vec<i32>, #[gen = map(vec(int(-50..50), 0..20), sorted)];
        forall x: i32;
        check is_sorted(&insort(&xs, x))
    };
    let report = generational(&prop, config());
    println!("{report}\n");

    println!("== 2. #[property_test] ==\n");
    println!(
        "The same property as a test function is `insort_keeps_sorted` in examples/demo/main.rs.\n\
         `cargo test --example demo` runs it (it is marked #[should_panic]: it finds the bug).\n"
    );

    println!("== 3. a hand-written runner, outside pbt, over the public components ==\n");
    let hand = hand_runner::count_then_shrink(&prop, config().seed(report.seed));
    println!("{hand}");

    println!("\n== the fix ==\n");
    let fixed = property! {
        forall xs: Vec<i32>, #[gen = map(vec(int(-50..50), 0..20), sorted)];
        forall x: i32;
        check {
            let mut expected = xs.to_vec();
            expected.push(x);
            expected.sort();
            let at = xs.partition_point(|&y| y <= x);
            let mut out = xs.to_vec();
            out.insert(at, x);
            out == expected
        }
    };
    println!("{}", generational(&fixed, config()));
}

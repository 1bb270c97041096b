//! A runner written outside pbt, against the public `Property` trait alone:
//! it keeps testing after the first failure, counts how many inputs fail,
//! and shrinks the *smallest* failing input it saw (by printed length) with a
//! greedy loop of its own. Nothing here is private to pbt.

use pbt::choices::Recorder;
use pbt::{Outcome, Property, Rng};

/// Run `tests` inputs of `prop`, then shrink the smallest failure.
pub fn run_and_print<P: Property>(prop: &P, tests: u64, seed: u64) {
    let mut rng = Rng::from_seed(seed);
    let (mut passed, mut discarded) = (0, 0);
    let mut failures: Vec<P::Inputs> = Vec::new();
    for n in 0..tests {
        // Generate at a size that grows with the test number, then run. The
        // recorder keeps each variable's choices, so that variables with a
        // custom generator can be shrunk through them.
        let Ok(input) = prop.generate(&mut Recorder::new(&mut rng), (n % 101) as usize) else {
            discarded += 1;
            continue;
        };
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| prop.run(&input))) {
            Ok(Outcome::Pass) => passed += 1,
            Ok(Outcome::Discard) => discarded += 1,
            Ok(Outcome::Fail(_)) | Err(_) => failures.push(input),
        }
    }
    println!(
        "hand runner: {passed} passed, {discarded} discarded, {} of {tests} inputs fail",
        failures.len()
    );
    let size = |i: &P::Inputs| prop.print(i).iter().map(|b| b.value.len()).sum::<usize>();
    let Some(mut best) = failures.into_iter().min_by_key(|i| size(i)) else {
        return;
    };
    // Greedy shrinking: the first candidate that still fails replaces `best`.
    let fails = |i: &P::Inputs| matches!(prop.run(i), Outcome::Fail(_));
    let mut steps = 0;
    loop {
        let smaller = prop.shrink(&best).find(|c| fails(c));
        match smaller {
            Some(smaller) => best = smaller,
            None => break,
        }
        steps += 1;
    }
    println!("hand runner: smallest failure, shrunk in {steps} steps:");
    for binding in prop.print(&best) {
        println!("    {binding}");
    }
}

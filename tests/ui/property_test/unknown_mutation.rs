// `mutation` names how the feedback runners mutate: choices, values or both.
use pbt::prelude::*;

#[property_test(runner = fuzz, mutation = "bytes")]
fn reverse_is_involutive(xs: Vec<u8>) -> bool {
    let mut ys = xs.clone();
    ys.reverse();
    ys.reverse();
    ys == xs
}

fn main() {}

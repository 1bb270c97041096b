// `shrink` names one of the three shrinkers.
use pbt::prelude::*;

#[property_test(shrink = "hypothesis")]
fn reverse_is_involutive(xs: Vec<u8>) -> bool {
    let mut ys = xs.clone();
    ys.reverse();
    ys.reverse();
    ys == xs
}

fn main() {}

// A misspelled shrinker gets the closest valid name.
use pbt::prelude::*;

#[property_test(shrink = "intergrated")]
fn reverse_is_involutive(xs: Vec<u8>) -> bool {
    let mut ys = xs.clone();
    ys.reverse();
    ys.reverse();
    ys == xs
}

fn main() {}

// A parameter's generator of another type: the error points at the
// generator and names both types.
use pbt::prelude::*;

#[property_test]
fn prop(#[with = string("ab", 0..4)] n: u32) -> bool {
    n < 10
}

fn main() {}

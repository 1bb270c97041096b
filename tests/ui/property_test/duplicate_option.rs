use pbt::prelude::*;

#[property_test(cases = 10, seed = 1, cases = 20)]
fn prop(x: u8) -> bool {
    x < 200
}

fn main() {}

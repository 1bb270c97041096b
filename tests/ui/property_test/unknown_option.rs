use pbt::prelude::*;

#[property_test(case = 10)]
fn prop(x: u8) -> bool {
    x < 200
}

fn main() {}

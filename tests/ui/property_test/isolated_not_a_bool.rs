use pbt::prelude::*;

#[property_test(isolated = "yes")]
fn prop(x: u8) -> bool {
    x < 200
}

#[property_test(isolated(true))]
fn prop2(x: u8) -> bool {
    x < 200
}

fn main() {}

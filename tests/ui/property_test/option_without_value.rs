use pbt::prelude::*;

#[property_test(cases)]
fn bare(x: u8) -> bool {
    x < 200
}

#[property_test(seed(1))]
fn call_like(x: u8) -> bool {
    x < 200
}

fn main() {}

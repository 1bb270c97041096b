// `generalized` needs its state and update function; the others take none.
use pbt::prelude::*;

#[property_test(runner = generalized)]
fn a(x: u8) -> bool {
    x < 200
}

#[property_test(runner = parallel(4))]
fn b(x: u8) -> bool {
    x < 200
}

fn main() {}

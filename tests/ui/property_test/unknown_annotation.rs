use pbt::prelude::*;

#[property_test]
fn prop(#[generator = int(0..3)] x: u8, #[doc = "y"] y: u8) -> bool {
    x < 3 && y == y
}

fn main() {}

// A misspelled annotation gets the closest valid names.
use pbt::prelude::*;

#[property_test]
fn prop(#[wiht = int(0..3)] x: u8, #[shrnk = |x: &u8| vec![*x / 2]] y: u8) -> bool {
    x < 3 && y < 255
}

fn main() {}

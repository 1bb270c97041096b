use pbt::prelude::*;

#[property_test]
fn prop(#[gen = int(0..3)] #[gen = int(0..4)] x: u8) -> bool {
    x < 3
}

fn main() {}

use pbt::prelude::*;

#[property_test]
struct NotATest {
    x: u8,
}

#[property_test]
const LIMIT: u8 = 3;

fn main() {}

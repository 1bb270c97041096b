use pbt::prelude::*;

#[property_test]
fn prop((a, b): (u8, u8), ref c: u8, _: u8) -> bool {
    a <= b || b < a || *c == 0
}

fn main() {}

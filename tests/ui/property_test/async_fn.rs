use pbt::prelude::*;

#[property_test]
async fn prop(x: u8) -> bool {
    x < 200
}

fn main() {}

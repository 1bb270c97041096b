use pbt::prelude::*;

struct Suite;

impl Suite {
    #[property_test]
    fn prop(&self, x: u8) -> bool {
        x < 200
    }
}

fn main() {}

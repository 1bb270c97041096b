// A weighted union needs at least one alternative.
use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall x: u32, #[gen = frequency[]];
        check x > 0
    };
}

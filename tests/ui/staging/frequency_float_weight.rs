// A weight is an integer expression.
use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall x: u32, #[gen = frequency[1.5 => just(1), 2 => just(2)]];
        check x > 0
    };
}

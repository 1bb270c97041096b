use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall x: u32, #[gen = int(0..3)], #[print = |x| x + 1], #[gen = int(0..4)];
        check x < 3
    };
    // `with` and `gen` are one annotation.
    let _prop = property! {
        forall y: u32, #[with = int(0..3)], #[gen = int(0..4)];
        check y < 3
    };
}

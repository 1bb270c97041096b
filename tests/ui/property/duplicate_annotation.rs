use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall x: u32, #[gen = int(0..3)], #[print = |x| x + 1], #[gen = int(0..4)];
        check x < 3
    };
}

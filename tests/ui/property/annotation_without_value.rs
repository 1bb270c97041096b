use pbt::prelude::*;

fn main() {
    let _a = property! {
        forall x: u32, #[gen(int(0..3))];
        check x < 3
    };
    let _b = property! {
        forall x: u32, #[shrink];
        check x < 3
    };
}

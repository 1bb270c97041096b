use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall x: u32;
        implies x + 1;
        check x > 0
    };
}

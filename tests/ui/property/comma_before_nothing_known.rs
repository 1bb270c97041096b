use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall x: u32, 5;
        check x < 3
    };
}

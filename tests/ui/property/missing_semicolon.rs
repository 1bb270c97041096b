use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall x: u32
        forall y: u32;
        check x > y
    };
}

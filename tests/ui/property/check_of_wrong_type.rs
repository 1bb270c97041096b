use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall x: u32;
        check format!("{x}")
    };
}

use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall x: u8;
        check { require_cover!(10.0, x > 0); true }
    };
}

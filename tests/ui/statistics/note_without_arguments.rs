use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall x: u8;
        check { note!(); x == x }
    };
}

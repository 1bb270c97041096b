use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall xs: Vec<u8>;
        check { classify!("empty", xs.is_empty()); true }
    };
}

// A generator mapped by a function (not a closure) whose values are not the
// variable's type: the error points at the function, not at the macro.
use pbt::prelude::*;
use std::rc::Rc;

fn main() {
    let _prop = property! {
        forall x: u8, #[with = map(int(0..=255u8), Rc::new)];
        check x < 100
    };
}

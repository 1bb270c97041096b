// `return` in a check returns the check's value: one of another type than
// the check's tail is a plain type mismatch at the `return`.
use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall x: u8;
        check {
            if x == 0 {
                return "zero";
            }
            x > 0
        }
    };
}

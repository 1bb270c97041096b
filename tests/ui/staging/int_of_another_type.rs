// An integer generator whose type comes from a variable (no literal to
// read): rustc's mismatch at the generator, naming both types, with no
// conversion spliced into the generator.
use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall n: u8, #[with = int(1..10u8)];
        forall x: u32, #[with = int(0..n)];
        check x < 10
    };
}

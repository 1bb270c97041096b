// An integer generator whose type comes from a variable (no literal to
// read): rustc's mismatch at the generator, naming both types, with no
// conversion spliced into the generator.
use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall n: u8, #[with = int(1..10u8)];
        forall x: u32, #[with = int(0..n)];
        forall m: u16, #[with = int(1..10u16)];
        forall xs: Vec<u8>, #[with = vec(int(0..m), 0..3)];
        check x < 10 && xs.len() < 3
    };
}

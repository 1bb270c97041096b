// proptest's `x in strategy`, and `x: T = generator`: the generator goes in
// a `#[with = …]` annotation, and the error says how to write it.
use pbt::prelude::*;

fn main() {
    let _in = property! {
        forall x in int(0..10u8);
        check x < 10
    };
    let _typed_in = property! {
        forall x: u8 in int(0..10u8);
        check x < 10
    };
    let _assigned = property! {
        forall x: Vec<u8> = vec(int(0..10u8), 0..3);
        check x.len() < 3
    };
}

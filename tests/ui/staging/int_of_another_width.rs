// An integer generator whose literals name another integer type than the
// variable (or its elements): the error points at the literal's type and
// names both types.
use pbt::prelude::*;

fn main() {
    let _top = property! {
        forall x: u32, #[with = int(0..10u8)];
        check x < 10
    };
    let _elements = property! {
        forall xs: Vec<u8>, #[with = vec(int(0..10u16), 0..5)];
        check xs.len() < 5
    };
}

#[property_test]
fn parameter(#[with = int(1..=6i64)] die: u8) -> bool {
    (1..=6).contains(&die)
}

// A plain value where a generator goes: the error says it is not a
// generator and what an annotation takes (`just(x)` for one value).
use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall x: u8, #[with = 5u8];
        check x == 5
    };
}

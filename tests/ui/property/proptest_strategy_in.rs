// proptest's `x in 0..10u8` and `s in "[a-z]+"`: the suggestion is a
// generator the DSL accepts (`int(…)`, `regex(…)`), with the type the
// literal gives, so that pasting it compiles.
use pbt::prelude::*;

fn main() {
    let _range = property! {
        forall x in 0..10u8;
        check x < 10
    };
    let _inclusive = property! {
        forall x in -1.0..=1.0f64;
        check x.abs() <= 1.0
    };
    let _regex = property! {
        forall s in "[a-z]+";
        check !s.is_empty()
    };
}

// A misspelled DSL combinator gets the closest valid names.
use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall xs: Vec<u8>, #[with = vecc(int(0..10u8), 0..5)];
        check xs.len() < 5
    };
}

fn brackets() {
    let _prop = property! {
        forall x: u8, #[with = one_off[just(1u8), just(2u8)]];
        forall y: u8, #[with = frequncy[1 => just(1u8), 2 => just(2u8)]];
        check x + y > 0
    };
}

// A range where a generator goes (proptest's `x in 0..10` habit): the error
// names the combinator that draws from it.
use pbt::prelude::*;

fn count() -> i64 {
    3
}

fn main() {
    let _prop = property! {
        forall x: u8, #[with = 0..10u8];
        forall xs: Vec<f64>, #[with = vec(-1.0..1.0, 0..5)];
        forall c: char, #[with = one_of['a'..='z', just('!')]];
        forall n: i64, #[with = map(-5..=count(), |n| n * 2)];
        check x < 10 && xs.len() < 5 && c != '?' && n < 100
    };
}

// `one_of[…]` and `ensure cond;` are DSL forms `property!` reads as they
// are, but rustc parses a parameter attribute's value as a Rust expression
// first: the error names the form and the spelling that works (`one_of![…]`,
// `ensure!(cond);`), and nothing cascades ("cannot find attribute `with`").
use pbt::prelude::*;

#[property_test]
fn one_of_without_bang(#[with = one_of[int(0..3u8), int(5..7u8)]] x: u8) -> bool {
    x < 10
}

#[property_test]
fn ensure_without_bang(#[with = { let x = int(0..10u8); ensure x > 2; x }] x: u8) -> bool {
    x > 2
}

fn main() {}

// A misspelled built-in runner gets the closest valid names.
use pbt::prelude::*;

#[property_test(runner = generationl)]
fn a(x: u8) -> bool {
    x < 200
}

#[property_test(runner = pbt::runners::fuz)]
fn b(x: u8) -> bool {
    x < 200
}

fn main() {}

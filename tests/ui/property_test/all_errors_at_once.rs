// Every mistake of the attribute and the function is reported in one build.
use pbt::prelude::*;

#[property_test(cases = 10, tries = 3, seed = "x")]
fn prop<T>(#[generate = int(0..3)] x: u8, (a, b): (u8, u8)) -> bool {
    x < 3 && a <= b
}

fn main() {}

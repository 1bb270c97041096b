// Every mistake of the attribute and the function is reported in one build.
use pbt::prelude::*;

#[property_test(cases = 10, tries = 3, seed = "x")]
fn prop<T>(#[generate = int(0..3)] x: u8, _y: impl Clone) -> bool {
    x < 3
}

fn main() {}

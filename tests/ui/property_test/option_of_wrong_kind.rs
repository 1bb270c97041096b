use pbt::prelude::*;

#[property_test(cases = "10")]
fn string_cases(x: u8) -> bool {
    x < 200
}

#[property_test(seed = -1)]
fn negative_seed(x: u8) -> bool {
    x < 200
}

#[property_test(timeout_ms = 1.5)]
fn float_timeout(x: u8) -> bool {
    x < 200
}

#[property_test(runner = 5)]
fn number_runner(x: u8) -> bool {
    x < 200
}

#[property_test(cases = 100_000_000_000_000_000_000)]
fn too_many_cases(x: u8) -> bool {
    x < 200
}

fn main() {}

// An example has one value per parameter.
use pbt::prelude::*;

#[property_test(examples = [(1, vec![]), (2,)])]
fn prop(n: u32, xs: Vec<u8>) -> bool {
    xs.len() < n as usize + 100
}

#[property_test(examples = 3)]
fn not_a_list(n: u32) -> bool {
    n < 100
}

fn main() {}

// A borrow inside a parameter's type: pbt generates owned values and lends
// only a whole parameter, so the error names the owned type to take (or a
// `&'static` one with a generator), not a derive on `&str`.
use pbt::prelude::*;

#[property_test]
fn optional_name(name: Option<&str>) -> bool {
    name.is_none_or(|n| n.len() < 100)
}

#[property_test]
fn chunks(chunks: Vec<&[u8]>) -> bool {
    chunks.len() < 1000
}

fn main() {}

// A `Data` parameter is taken as `&mut Data`: by value, `mut` by value and
// by shared reference are each an error at the type, with the fix.
use pbt::prelude::*;

#[property_test]
fn by_value(data: Data) {
    let _ = data.draw(pbt::generators::int(0..3u8));
}

#[property_test]
fn mut_by_value(mut data: pbt::Data) {
    let _ = data.draw(pbt::generators::int(0..3u8));
}

#[property_test]
fn shared(data: &Data) {
    let _ = data.draw(pbt::generators::int(0..3u8));
}

fn main() {}

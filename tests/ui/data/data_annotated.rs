// A `Data` variable takes no annotation: it is generated, shrunk and
// printed by pbt, and draws what the test needs inside it.
use pbt::prelude::*;

#[property_test]
fn annotated(#[shrink = |_| Vec::new()] data: &mut Data) {
    let _ = data.draw(pbt::generators::int(0..3u8));
}

fn main() {
    let _prop = property! {
        forall data: Data, #[print = |_| "some draws"];
        check data.draw(pbt::generators::int(0..3u8)) < 3
    };
}

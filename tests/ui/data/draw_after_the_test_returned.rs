// A `Data` belongs to one run of the check: it cannot be kept to draw from
// after the check returns.
use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall data: Data;
        check {
            std::thread::spawn(move || data.draw(pbt::generators::int(0..3u8)));
            true
        }
    };
}

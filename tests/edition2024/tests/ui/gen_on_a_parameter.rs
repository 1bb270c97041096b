// On edition 2024 `gen` is a reserved word: rustc rejects `#[gen = …]` on a
// parameter before pbt's macro sees it, and suggests `r#gen` (which pbt
// accepts, as it accepts `with`, the spelling the docs use).
use pbt::prelude::*;

#[property_test]
fn small(#[gen = int(0..10u8)] x: u8) -> bool {
    x < 10
}

fn main() {}

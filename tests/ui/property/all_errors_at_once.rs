// Every mistake of a property is reported in one build.
use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall x: u32, #[generate = int(0..3)];
        forall y: u32, #[gen = int(0..3)], #[gen = int(0..4)];
        check x > y;
        forall z: u32
    };
}

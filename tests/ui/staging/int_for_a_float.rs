// `int(..)` generates integers; the variable is a float.
use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall x: f64, #[gen = int(0..10)];
        check x >= 0.0
    };
}

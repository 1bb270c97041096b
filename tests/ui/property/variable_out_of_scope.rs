// An annotation sees only the variables quantified before it.
use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall xs: Vec<u32>, #[gen = vec(int(0..n), 0..5)];
        forall n: u32;
        check xs.iter().all(|&x| x < n)
    };
}

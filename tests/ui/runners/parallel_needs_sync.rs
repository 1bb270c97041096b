use pbt::prelude::*;

fn main() {
    let runs = std::cell::Cell::new(0u64);
    let prop = property! {
        forall x: u8;
        check { runs.set(runs.get() + 1); x == x }
    };
    // The sequential runners take it; the parallel one shares it between threads.
    let _ = pbt::runners::generational(&prop, Config::default());
    let _ = pbt::runners::parallel(&prop, Config::default());
}

// A variable printed by type whose type is not `Debug` is reported at the
// variable's type; one with `#[print = …]` needs no `Debug`.
use pbt::prelude::*;

#[derive(Clone, Arbitrary)]
struct Secret {
    key: u64,
}

fn main() {
    let prop = property! {
        forall plain: Secret;
        forall shown: Secret, #[print = |s: &Secret| format!("Secret({})", s.key)];
        check plain.key != shown.key || plain.key == 0
    };
    let _ = pbt::runners::generational(&prop, Config::default());
}

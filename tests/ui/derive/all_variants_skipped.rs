// Skipping every variant leaves nothing to generate.
#[derive(pbt::Arbitrary)]
enum Mode {
    #[pbt(skip)]
    Fast,
    #[pbt(skip)]
    Slow(u8),
}

fn main() {}

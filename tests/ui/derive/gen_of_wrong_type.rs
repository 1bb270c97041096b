// A field generator must produce the field's type.
#[derive(Clone, pbt::Arbitrary)]
struct Reading {
    #[pbt(gen = int(0..100))]
    celsius: f64,
    #[pbt(gen = one_of[])]
    unit: u8,
}

fn main() {}

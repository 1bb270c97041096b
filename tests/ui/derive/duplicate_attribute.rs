// A key may appear once in each place, even across attributes.
#[derive(Clone, pbt::Arbitrary)]
enum Op {
    #[pbt(weight = 2, weight = 3)]
    Push(u8),
    #[pbt(skip)]
    #[pbt(skip)]
    Pop,
    Peek,
}

// `with` and `gen` are one key.
#[derive(Clone, pbt::Arbitrary)]
struct Reading {
    #[pbt(with = int(0..3u8), gen = int(0..4u8))]
    level: u8,
}

fn main() {}

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

fn main() {}

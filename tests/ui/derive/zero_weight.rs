// A weight of zero is a skip in disguise: say `skip`.
#[derive(Clone, pbt::Arbitrary)]
enum Op {
    #[pbt(weight = 0)]
    Push(u8),
    Pop,
}

fn main() {}

// A known key in the wrong place says where it goes.
#[derive(Clone, pbt::Arbitrary)]
#[pbt(weight = 3)]
enum Op {
    #[pbt(gen = int(0..3u8))]
    Push(#[pbt(skip)] u8),
    Pop,
}

fn main() {}

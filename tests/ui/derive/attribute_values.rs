// Flags take no value; the others need one of the right kind.
#[derive(Clone, pbt::Arbitrary)]
#[pbt(crate = "not a path")]
enum Op {
    #[pbt(skip = true)]
    Push(u8),
    #[pbt(weight = "heavy")]
    Pop,
    Peek(#[pbt(gen)] u8),
}

#[derive(Clone, pbt::Arbitrary)]
#[pbt = "pbt"]
struct NotAList;

fn main() {}

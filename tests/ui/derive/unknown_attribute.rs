// Each place takes its own keys; an unknown one lists them.
#[derive(Clone, pbt::Arbitrary)]
#[pbt(shrinker)]
enum Op {
    #[pbt(often)]
    Push(#[pbt(range = 0..10)] u8),
    Pop,
}

fn main() {}

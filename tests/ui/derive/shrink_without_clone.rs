// The derived shrinker clones sub-terms: a recursive type without `Clone`
// derives it, or says `no_shrink`.
#[derive(Debug, pbt::Arbitrary)]
enum List {
    Nil,
    Cons(u8, Box<List>),
}

#[derive(Debug, pbt::Arbitrary)]
#[pbt(no_shrink)]
enum Fine {
    Nil,
    Cons(u8, Box<Fine>),
}

fn main() {}

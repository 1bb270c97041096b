// Every variant must contain a `Stream`, so generation could never stop.
#[derive(Clone, pbt::Arbitrary)]
enum Stream {
    Cons(u8, Box<Stream>),
    Pair(Box<Stream>, Box<Stream>),
}

fn main() {}

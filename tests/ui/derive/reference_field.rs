// Borrowed fields have no owned values to generate.
#[derive(Clone, pbt::Arbitrary)]
struct Borrowed<'a> {
    name: &'a str,
    ok: u8,
    items: Vec<&'a [u8]>,
}

fn main() {}

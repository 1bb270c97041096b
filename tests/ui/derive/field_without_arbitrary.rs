// A field's type needs `Arbitrary` (and `Shrink`); the error names the field's type.
#[derive(Clone, Debug)]
struct Opaque(u8);

#[derive(Clone, Debug, pbt::Arbitrary)]
struct Holder {
    id: u32,
    inner: Opaque,
}

fn main() {}

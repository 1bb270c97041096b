// Unions have no safe way to say which field is set: the derive refuses them.
#[derive(pbt::Arbitrary)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}

// A union needs at least one alternative.
fn main() {
    let _g = pbt::generator!(one_of[]);
}

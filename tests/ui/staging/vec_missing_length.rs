// `vec` takes a generator and a length range.
fn main() {
    let _g = pbt::generator!(vec(int(0..10u8)));
}

// A weight computed at run time must still be an integer.
fn main() {
    let p = 0.5f64;
    let _g = pbt::generator!(frequency[p => just(1u8), 1 => just(2u8)]);
}

// A literal pattern is parsed at compile time: a malformed one is an error
// on the literal, naming the position.
fn main() {
    let _g = pbt::generator!(regex("[a-z{1,8}"));
    let _h = pbt::generator!(vec(regex("ab)c"), 0..3));
}

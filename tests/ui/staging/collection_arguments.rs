// The staged collections say what arguments they take.
fn main() {
    let _a = pbt::generator!(hash_set(int(0..3u8)));
    let _b = pbt::generator!(hash_map(int(0..3u8), 0..4));
    let _c = pbt::generator!(option(int(0..3u8), bool()));
}

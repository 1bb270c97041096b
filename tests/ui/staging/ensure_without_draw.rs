// `ensure` retries the latest draw, so one must come before it.
fn main() {
    let _g = pbt::generator!({ ensure true; 1u8 });
}

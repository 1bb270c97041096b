// A generator whose values are not the variable's type: the error points at
// the generator and names both types.
use pbt::prelude::*;

fn main() {
    let _prop = property! {
        forall n: u32, #[with = map(int(0..10u8), |x| x.to_string())];
        check n < 10
    };
    let _also = property! {
        forall xs: Vec<u8>, #[with = vec(int(0..10u16), 0..5)];
        check xs.len() < 5
    };
}

#[derive(Clone, Debug, pbt::Arbitrary)]
struct Celsius(f64);
#[derive(Clone, Debug, pbt::Arbitrary)]
struct Kelvin(f64);

fn runtime_and_any() {
    let _prop = property! {
        forall t: Celsius, #[with = any::<Kelvin>()];
        check t.0 > -300.0
    };
    let kelvins = pbt::generator!(any::<Kelvin>());
    let _prop = property! {
        forall t: Celsius, #[with = &kelvins];
        check t.0 > -300.0
    };
}

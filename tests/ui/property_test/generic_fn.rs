use pbt::prelude::*;

#[property_test]
fn prop<T: Clone + PartialEq>(x: T) -> bool {
    x.clone() == x
}

#[property_test]
fn with_where(x: u8) -> bool
where
    u8: Copy,
{
    x == x
}

#[property_test]
fn impl_trait(x: impl Clone + PartialEq) -> bool {
    x.clone() == x
}

fn main() {}

// A variable whose type has no `Arbitrary` is told to derive it or to give
// a generator.
use pbt::prelude::*;

#[derive(Clone, Debug)]
struct Account {
    balance: u64,
}

fn main() {
    let prop = property! {
        forall account: Account;
        forall amount: u32;
        check account.balance.checked_add(u64::from(amount)).is_some()
    };
    let _ = pbt::runners::generational(&prop, Config::default());
}

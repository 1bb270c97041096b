// `string` takes a set of characters; a string of a generator's characters
// is `string_of(generator, len)`, and both mistakes say so.
use pbt::prelude::*;

fn main() {
    let _no_length = property! {
        forall s: String, #[with = string(any::<char>())];
        check s.len() < 100
    };
    let _a_generator = property! {
        forall s: String, #[with = string(any::<char>(), 0..10)];
        check s.len() < 100
    };
    let _what_was_meant = property! {
        forall s: String, #[with = string_of(any::<char>(), 0..10)];
        forall t: String, #[with = string(char('a'..='z'), 0..10)];
        check s.chars().count() < 10 && t.len() < 10
    };
}

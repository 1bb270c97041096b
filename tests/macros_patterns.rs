//! A `#[property_test]` parameter may be any pattern a function parameter
//! may be: `mut x`, `ref x`, `(a, b): (u8, u8)`, `_: u8`, `&x: &u8`, a
//! struct pattern. The function destructures the generated value as it
//! would any argument; the report prints the pattern as the variable's
//! name; a later annotation reads the names the pattern binds. (Every
//! pattern but a plain name used to be a compile error, "expected an
//! identifier".)
#![deny(warnings)]
// The function shows every kind of pattern at once, `ref x` included.
#![allow(clippy::too_many_arguments, clippy::toplevel_ref_arg)]

use pbt::prelude::*;
use pbt::runners::Regressions;

#[derive(Clone, Debug, Arbitrary)]
struct Point {
    x: u8,
    y: String,
}

#[property_test(cases = 50)]
fn every_irrefutable_pattern(
    mut counter: u8,
    ref borrowed: u16,
    (a, b): (u8, u8),
    _: u8,
    &copied: &u8,
    Point { x, y }: Point,
    (mut text, n): (String, u8),
    #[with = int(0..=a)] below_a: u8,
    #[with = vec(int(0..=x), 0..3)] below_x: Vec<u8>,
) -> bool {
    counter = counter.wrapping_add(1);
    text.push('!');
    let _ = (counter, borrowed, b, copied, y, n);
    below_a <= a && below_x.iter().all(|&v| v <= x) && text.ends_with('!')
}

#[property_test(cases = 20, examples = [((1, 2), 3)])]
fn patterns_take_examples((a, b): (u8, u8), _: u8) -> bool {
    u16::from(a) + u16::from(b) < 512
}

#[test]
fn a_pattern_is_printed_as_written() {
    fn failing() {
        #[property_test(config = Config::default().regressions(Regressions::Off).ignore_env().seed(5))]
        fn ordered((a, b): (u8, u8), _: bool) -> bool {
            a <= b
        }
        ordered();
    }
    let message = std::panic::catch_unwind(failing).expect_err("the property fails");
    let message = message
        .downcast_ref::<String>()
        .expect("the report is the panic message");
    assert!(message.contains("    (a, b) = (1, 0)\n"), "{message}");
    // The ignored parameter does not matter: the explain phase says so.
    assert!(
        message.contains("    _ = false    (or any other generated value)\n"),
        "{message}"
    );
}

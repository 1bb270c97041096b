//! A value's `Debug`, cut short where it would overflow the stack.
//!
//! Plain Rust builds, clones, compares and drops a 10 000-deep linked list
//! on a test thread (2 MiB), but its derived `Debug` recurses through
//! several frames per layer and overflows a debug build's stack: the
//! process dies (SIGABRT) and the report with it. [`write_debug`] writes
//! through a writer that looks at how deep into the stack the formatting
//! went at every piece it writes (a derived `Debug` writes at every layer,
//! before it recurses), and stops it once it is [`MAX_PRINT_STACK`] deeper
//! than where printing started: the value is printed up to there, with a
//! marker saying it was cut short.

use crate::overrun::stack_position;
use std::fmt::{self, Debug, Write};

/// How much deeper into the stack than where printing started a value's
/// `Debug` may go: 1 MiB, half of the 2 MiB a test thread gets (the bound
/// generation has too, [`crate::overrun::DEFAULT_MAX_STACK`]).
pub(crate) const MAX_PRINT_STACK: usize = crate::overrun::DEFAULT_MAX_STACK;

/// What marks a value printed up to where its `Debug` went too deep.
pub(crate) const CUT_DEEP: &str =
    "… [cut short: the value's Debug went more than 1024 KiB deep into the stack]";

/// How a [`write_debug`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Written {
    /// The whole value.
    Whole,
    /// Up to where its `Debug` went too deep, then [`CUT_DEEP`] (unless
    /// `out` refused it).
    CutDeep,
}

/// Write `value`'s `Debug` to `out`, stopping it (and writing [`CUT_DEEP`])
/// once it goes [`MAX_PRINT_STACK`] deeper into the stack than here. `Err`
/// when the `Debug` or `out` failed of itself.
#[inline(never)]
pub(crate) fn write_debug(out: &mut dyn Write, value: &dyn Debug) -> Result<Written, fmt::Error> {
    let mut bounded = Bounded {
        out,
        start: stack_position(),
        deep: false,
    };
    match write!(bounded, "{value:?}") {
        Ok(()) => Ok(Written::Whole),
        Err(_) if bounded.deep => {
            let _ = bounded.out.write_str(CUT_DEEP);
            Ok(Written::CutDeep)
        }
        Err(e) => Err(e),
    }
}

/// `value`'s `Debug` as a string, cut short where it goes too deep
/// ([`write_debug`]). Panics, as `format!` does, when the `Debug` fails of
/// itself.
pub(crate) fn debug_string(value: &dyn Debug) -> String {
    let mut out = String::new();
    match write_debug(&mut out, value) {
        Ok(_) => out,
        // As `format!` would: "a Display implementation returned an error
        // unexpectedly" (the runners catch it).
        Err(_) => format!("{value:?}"),
    }
}

/// A writer that fails once the formatting writing to it is too deep.
struct Bounded<'a> {
    out: &'a mut dyn Write,
    /// Where printing started.
    start: usize,
    /// Whether it stopped the formatting for going too deep.
    deep: bool,
}

impl Write for Bounded<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.deep || stack_position().abs_diff(self.start) > MAX_PRINT_STACK {
            self.deep = true;
            return Err(fmt::Error);
        }
        self.out.write_str(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    #[allow(dead_code)] // Read by `Debug` only.
    enum List {
        Nil,
        Cons(u8, Box<List>),
    }

    #[test]
    fn a_deep_value_is_printed_cut_short_on_a_small_stack() {
        // 256 KiB of stack for 100 000 layers: the derived `Debug` cannot
        // print it there, so it is cut short well before the bound.
        let text = std::thread::Builder::new()
            .stack_size(4 << 20)
            .spawn(|| {
                let mut list = List::Nil;
                for i in 0..100_000u32 {
                    list = List::Cons(i as u8, Box::new(list));
                }
                let text = debug_string(&list);
                // Dropped layer by layer: the derived drop is recursive too.
                while let List::Cons(_, tail) = list {
                    list = *tail;
                }
                text
            })
            .unwrap()
            .join()
            .unwrap();
        assert!(text.starts_with("Cons(159, Cons(158, "), "{}", &text[..40]);
        assert!(text.ends_with(CUT_DEEP));
        assert_eq!(debug_string(&vec![1, 2]), "[1, 2]");
    }
}

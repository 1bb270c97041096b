//! Staging of pbt's generator DSL (*Fail Faster* §4; the design).
//!
//! [`Dsl`] parses a generator expression into a small IR that keeps the
//! user's syntax nodes for spans; [`emit`] turns it into straight-line Rust
//! over a `Source`: a bind is a `let`, a weighted union is one draw and an
//! `if` ladder, `vec` is a loop, `recursive` is a local `fn` with a size
//! argument, `regex("literal")` is parsed at compile time and becomes the
//! draws of its pattern (`regex`), `option`/`result` and the unique
//! collections stage their element generators inline (`collections`).
//! Anything that is not a DSL form is a runtime `Gen` value (the escape
//! hatch). Both `pbt-macros` and `pbt-derive` use this crate, and share its
//! [`errors`] accumulator and [`suggest`]ions.
#![forbid(unsafe_code)]

mod ast;
mod charge;
mod check;
mod collections;
mod emit;
pub mod errors;
mod forms;
mod normalize;
mod regex;
pub mod suggest;

pub use ast::{Dsl, Stmt};
pub use check::check_target;
pub use emit::{emit, Ctx};
#[doc(hidden)]
pub use forms::names as form_names;
pub use normalize::{normalize, without_bang};

//! The names in scope inside a generator annotation (`#[with = …]`,
//! `#[gen = …]`, `property!`, `generator!`, `#[pbt(with = …)]`): the DSL's
//! combinators and nothing else.
//!
//! The macros glob-import this module, and only this module, into every
//! annotation, so an item of the user's module whose name is not listed here
//! (a `fn threshold`, a `const UNIT`, a `struct Map`) keeps its meaning
//! inside an annotation. [`Gen`](super::Gen) is imported without its name,
//! for the method syntax of runtime generators (`g.boxed()`).
//!
//! A runtime-only combinator is one name in the list below. A staged form
//! is also a row of pbt-stage's table of forms (`pbt-stage/src/forms.rs`),
//! read by every stage of the macros; the facade's `tests/dsl_scope.rs`
//! checks that the two lists agree, and `docs/contributing.md` has the
//! recipe.
//!
//! ```
//! use pbt_core::gen::dsl::*;
//! let g = vec(int(0..10u8), 0..4);
//! let xs = g.generate(&mut pbt_core::Rng::from_seed(3), 8).unwrap();
//! assert!(xs.len() < 4);
//! ```

pub use super::Gen as _;
pub use super::{
    any, bind, bool, btree_map, btree_set, char, chars, choose, either, filter, float, frequency,
    from_fn, hash_map, hash_set, int, just, map, one_of, option, recursive, regex, resize, result,
    sized, string, string_of, subset, vec, vec_unique, weighted_bool,
};

//! pbt's derives: [`Arbitrary`](macro@Arbitrary) (a staged generator, a
//! shrinker and the constructor view) and [`Mutate`](macro@Mutate) (a
//! type-based mutator) for structs and enums.
//!
//! Use them through the `pbt` facade (`use pbt::prelude::*;` or
//! `#[derive(pbt::Arbitrary, pbt::Mutate)]`); the guide with runnable
//! examples is `docs/derive.md`, because the doctests of a proc-macro crate
//! cannot call its own macros.
//!
//! The derive emits inlined code, not a tree of strategies (*Fail Faster*
//! §4.6): a struct draws its fields in order, an enum makes one draw over
//! the total weight and runs an `if` ladder, and recursion through `Box`,
//! `Rc`, `Arc`, `Option`, std collections, arrays and tuples stops by size.
//! Generated code reaches the runtime only through `::pbt::__private` (or
//! the path given by `#[pbt(crate = "…")]`) and `::core`/`::std`.
//!
//! The stages: `attr` parses `#[pbt(…)]`, `ast` builds the IR (the type's
//! shape, its options, how each field relates to the type) and reports every
//! mistake as a spanned error, `types` reads field types, `bounds` writes
//! the `where` clauses, and `expand` emits the impls (or, on errors, the
//! errors and a stub).

mod ast;
mod attr;
mod bounds;
mod expand;
mod types;

use proc_macro::TokenStream;

/// `#[derive(Arbitrary)]`: implements `Arbitrary` (a generator inlined into
/// `arbitrary`), `Shrink` (unless `#[pbt(no_shrink)]`) and `Constructors`.
///
/// ```text
/// #[derive(Clone, Debug, pbt::Arbitrary)]
/// enum Expr {
///     Lit(i64),
///     #[pbt(weight = 2)]
///     Add(Box<Expr>, Box<Expr>),
///     Neg(Box<Expr>),
/// }
///
/// #[derive(Clone, Debug, pbt::Arbitrary)]
/// struct Range {
///     #[pbt(with = int(0..100u32))]
///     lo: u32,
///     #[pbt(with = int(lo..=lo + 10))]
///     hi: u32,
/// }
/// ```
///
/// - **Generation.** Fields are drawn in order. Variants: one draw over the
///   total weight, base variants first (choice `0` is the simplest value).
///   A field whose type may contain a user type is generated at `size / 2`,
///   and a variant with such a field weighs `weight × size` (nothing at
///   size 0), so recursion stops and the mean size grows with `size`.
///   An enum whose every variant must contain itself is an error.
/// - **Shrinking** (needs `Clone`): same-typed sub-terms first, then the
///   simplest value of each simpler variant, then each field's shrinks.
/// - **Attributes.** On the type: `crate = "path"`, `bound = "T: Trait"`,
///   `no_shrink`. On a variant: `weight = N`, `skip`. On a field:
///   `with = GENERATOR` (or `gen = …`; the DSL of `property!`'s `#[with = …]`; it may read
///   earlier named fields) and `shrink = path` (a `fn(&T) -> impl
///   IntoIterator<Item = T>`).
#[proc_macro_derive(Arbitrary, attributes(pbt))]
pub fn derive_arbitrary(input: TokenStream) -> TokenStream {
    expand::arbitrary(input.into()).into()
}

/// `#[derive(Mutate)]`: implements `Mutate` (needs `Arbitrary` and `Clone`):
/// change one field, switch variant (re-using the fields whose types line
/// up), replace the value with a fresh one of another variant, cut it to a
/// sub-term, or grow it inside a fresh variant — one draw picks which.
///
/// The crate `mutatis` exports a `Mutate` derive too; with both in scope,
/// write `#[derive(pbt::Mutate)]`.
#[proc_macro_derive(Mutate, attributes(pbt))]
pub fn derive_mutate(input: TokenStream) -> TokenStream {
    expand::mutate(input.into()).into()
}

#[cfg(test)]
mod snapshots;

//! What staged code counts against a source's draw budget, and where.
//!
//! A bounded source (a limited `Rng`) counts every draw so that a runaway
//! generator ends as "data too large". Counting each draw as it is made
//! costs a decrement, a branch and a call the compiler must keep the
//! generator's state in memory for; so staged code instead *charges* the
//! draws of a straight run of code once, before it (`Source::charge`), and
//! makes them with `Source::draw_charged`. A run is straight when it has no
//! loop and no recursion: the draws every path through it makes are known
//! here, at compile time ([`fixed`]). Where the paths differ (the arms of a
//! union), each arm charges what it draws beyond the least of them. Loops
//! charge per run of their body (a `vec` its length times its element's
//! draws, before the elements), and each recursive layer charges its own.
//!
//! A part of the value (an element of a `vec`, a recursive layer, a
//! repetition of fixed text in a `regex`) also counts as one draw
//! (`Source::charge_parts`), so that parts that draw nothing still use up
//! the budget: a huge drawn length of `just(x)` elements, or a recursion
//! whose layers draw nothing, ends as "data too large" like any runaway
//! generator, on this path and on the runtime combinators' alike.
//!
//! The count is exact: a charged generator counts the draws it makes, as a
//! source that counts each draw would (through a recorder, say), so an
//! input is "too large" the same way on both paths. (A generator that
//! rejects part-way may have charged draws it then did not make.)
//!
//! A primitive (`int`, `float`, …) draws at least once, and its first draw
//! is charged: it gets the source as a `Prepaid`, whose first draw is
//! `draw_charged`; a primitive that draws more (a `u128`, a float's parts)
//! has its further draws counted as they are made. Runtime generators (the
//! escape hatch, `any`, `string`, `subset`) are handed the source itself
//! and counted draw by draw: they may loop.

use crate::ast::{Dsl, Stmt};
use crate::emit::Ctx;
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// Whether the primitive `name` gets its first draw charged (the table's
/// `prepaid`: it draws at least once, and never loops without bound).
pub(crate) fn prepaid(name: &Ident) -> bool {
    crate::forms::get(&name.to_string()).is_some_and(|f| f.prepaid)
}

/// The charged draws that every run of `dsl` makes, besides those that
/// its loops, recursive layers and union arms charge themselves.
pub(crate) fn fixed(dsl: &Dsl) -> u64 {
    match dsl {
        Dsl::Leaf { name, .. } => u64::from(prepaid(name)),
        Dsl::Just(_) | Dsl::Value(_) | Dsl::Size(_) | Dsl::Runtime(_) | Dsl::Recursive(..) => 0,
        Dsl::Tuple(parts) => sum(parts.iter().map(fixed)),
        // The length; the elements are charged by the loop.
        Dsl::Vec(..) => 1,
        Dsl::OneOf(_, gens) => 1 + least(gens.iter().map(fixed)),
        Dsl::Frequency(_, arms) => 1 + least(arms.iter().map(|(_, g)| fixed(g))),
        Dsl::Either(a, b, _) => 1 + fixed(a).min(fixed(b)),
        Dsl::Map(g, _) | Dsl::Filter(g, _) | Dsl::Resize(_, g) => fixed(g),
        Dsl::Bind(g, _, body) => fixed(g).saturating_add(fixed(body)),
        Dsl::Block(stmts, tail) => sum(stmts
            .iter()
            .map(|s| match s {
                Stmt::Let(_, g) => fixed(g),
                Stmt::Ensure(..) => 0,
            })
            .chain([fixed(tail)])),
        Dsl::Regex(r) => crate::regex::fixed(&r.plan),
        Dsl::Collection(c) => crate::collections::fixed_draws(c),
    }
}

/// The sum, saturating.
pub(crate) fn sum(counts: impl Iterator<Item = u64>) -> u64 {
    counts.fold(0, u64::saturating_add)
}

/// The least count (`0` for none).
pub(crate) fn least(counts: impl Iterator<Item = u64>) -> u64 {
    counts.min().unwrap_or(0)
}

/// `Source::charge(src, draws);`, or nothing for no draws.
pub(crate) fn charge(draws: u64, ctx: &Ctx) -> TokenStream {
    if draws == 0 {
        return TokenStream::new();
    }
    let (rt, src) = (&ctx.rt, &ctx.src);
    quote! { #rt::Source::charge(&mut *#src, #draws); }
}

/// `Source::charge(src, times * draws);` for a loop that runs its body
/// `times` (a `u64` expression) times, or nothing when the body draws
/// nothing charged.
pub(crate) fn charge_times(times: TokenStream, draws: u64, ctx: &Ctx) -> TokenStream {
    if draws == 0 {
        return TokenStream::new();
    }
    let (rt, src) = (&ctx.rt, &ctx.src);
    let times = if draws == 1 {
        times
    } else {
        quote! { (#times).saturating_mul(#draws) }
    };
    quote! { #rt::Source::charge(&mut *#src, #times); }
}

/// `Source::charge_parts(src, times, times * draws);` for a loop that
/// builds a part of the value (an element, a repetition) `times` (a `u64`
/// expression) times, each part making `draws` charged draws: the parts
/// count against the budget even when they draw nothing.
pub(crate) fn parts(times: TokenStream, draws: u64, ctx: &Ctx) -> TokenStream {
    let (rt, src) = (&ctx.rt, &ctx.src);
    let draws = match draws {
        0 => quote! { 0u64 },
        1 => quote! { __pbt_parts },
        _ => quote! { __pbt_parts.saturating_mul(#draws) },
    };
    quote! {{
        let __pbt_parts: ::core::primitive::u64 = #times;
        #rt::Source::charge_parts(&mut *#src, __pbt_parts, #draws);
    }}
}

/// The arm `code`, which makes `draws` charged draws where the union
/// charged `least`: it charges the difference first.
pub(crate) fn arm(code: TokenStream, draws: u64, least: u64, ctx: &Ctx) -> TokenStream {
    let extra = charge(draws - least, ctx);
    if extra.is_empty() {
        code
    } else {
        quote! {{ #extra #code }}
    }
}

/// A draw in `0..=max` that the enclosing run charged.
pub(crate) fn draw(max: TokenStream, ctx: &Ctx) -> TokenStream {
    let (rt, src) = (&ctx.rt, &ctx.src);
    quote! { #rt::Source::draw_charged(&mut *#src, #max) }
}

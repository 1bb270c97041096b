//! Staging `option(g)`, `result(ok, err)` and the unique collections
//! `hash_set`, `btree_set`, `vec_unique` (`(g, len)`) and `hash_map`,
//! `btree_map` (`(key, value, len)`): the draws of the runtime combinators
//! of the same names, in the same order (see `pbt_core::gen`'s `option` and
//! `unique` modules), with the element generators staged inline.

use crate::ast::{parse_dsl, Dsl};
use crate::charge::{self, fixed};
use crate::emit::{expr, prepaid, Ctx};
use crate::forms::{Args, Form};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use syn::parse::ParseStream;
use syn::{Expr, Token};

/// A staged `option`, `result` or unique collection.
#[derive(Clone)]
pub enum Collection {
    /// `option(g)`: one draw in `0..=3`, `0` is `None`.
    Option(Box<Dsl>),
    /// `result(ok, err)`: one draw in `0..=3`, `3` is `Err`.
    Result(Box<Dsl>, Box<Dsl>),
    /// `hash_set(g, len)`, `btree_set(g, len)`, `vec_unique(g, len)`,
    /// `hash_map(k, v, len)`, `btree_map(k, v, len)`.
    Unique {
        /// Which collection.
        kind: Ident,
        /// The element generator, or the key and value generators.
        elems: Vec<Dsl>,
        /// The length range.
        len: Box<Expr>,
    },
}

/// The arguments of `name(…)`, `form` being its row (an
/// [`Args::Collection`]).
pub(crate) fn parse(name: Ident, form: &Form, content: ParseStream) -> syn::Result<Dsl> {
    let Args::Collection {
        gens,
        len: wants_len,
    } = form.args
    else {
        return Err(syn::Error::new(name.span(), "not a collection form"));
    };
    let usage = form.usage;
    let wrong = || syn::Error::new(name.span(), format!("expected `{usage}`"));
    let mut elems = Vec::new();
    for i in 0..gens {
        if i > 0 {
            content.parse::<Token![,]>().map_err(|_| wrong())?;
        }
        if content.is_empty() {
            return Err(wrong());
        }
        elems.push(parse_dsl(content, false)?);
    }
    let len = if wants_len {
        content.parse::<Token![,]>().map_err(|_| wrong())?;
        if content.is_empty() {
            return Err(wrong());
        }
        Some(Box::new(content.parse::<Expr>()?))
    } else {
        None
    };
    if content.peek(Token![,]) {
        content.parse::<Token![,]>()?;
    }
    if !content.is_empty() {
        return Err(wrong());
    }
    let mut elems = elems.into_iter();
    let mut next = || elems.next().ok_or_else(wrong);
    let collection = match (form.name, len) {
        ("option", _) => Collection::Option(Box::new(next()?)),
        ("result", _) => Collection::Result(Box::new(next()?), Box::new(next()?)),
        (_, Some(len)) => Collection::Unique {
            kind: name,
            elems: elems.collect(),
            len,
        },
        (_, None) => return Err(wrong()),
    };
    Ok(Dsl::Collection(Box::new(collection)))
}

/// The charged draws every run of `c` makes (see [`charge::fixed`]): the
/// draw that picks the variant or the length; the elements charge per
/// step.
pub(crate) fn fixed_draws(c: &Collection) -> u64 {
    match c {
        Collection::Option(_) => 1,
        Collection::Result(ok, err) => 1 + fixed(ok).min(fixed(err)),
        Collection::Unique { .. } => 1,
    }
}

/// The staged collection, an expression of its value type.
pub(crate) fn emit(c: &Collection, ctx: &Ctx) -> syn::Result<TokenStream> {
    let (rt, label) = (&ctx.rt, &ctx.label);
    let draw = charge::draw(quote! { 3u64 }, ctx);
    Ok(match c {
        Collection::Option(g) => {
            let g = charge::arm(expr(g, &ctx.deeper())?, fixed(g), 0, ctx);
            quote! {
                if #draw == 0 {
                    ::core::option::Option::None
                } else {
                    ::core::option::Option::Some(#g)
                }
            }
        }
        Collection::Result(ok, err) => {
            let least = fixed(ok).min(fixed(err));
            let (ok, err) = (
                charge::arm(expr(ok, &ctx.deeper())?, fixed(ok), least, ctx),
                charge::arm(expr(err, &ctx.deeper())?, fixed(err), least, ctx),
            );
            quote! {
                if #draw == 3 {
                    ::core::result::Result::Err(#err)
                } else {
                    ::core::result::Result::Ok(#ok)
                }
            }
        }
        Collection::Unique { kind, elems, len } => {
            // Each step charges its element (or key) before drawing it; a
            // map's value is charged when the key is new.
            let step_draws = elems.first().map_or(0, fixed);
            let each_step = charge::charge(step_draws, ctx);
            let value_draws = elems.get(1).map_or(0, fixed);
            let elems = elems
                .iter()
                .map(|g| expr(g, &ctx.deeper()))
                .collect::<syn::Result<Vec<_>>>()?;
            let target = prepaid(quote! { __pbt_len }, kind.span(), ctx);
            let (new, step) = match (kind.to_string().as_str(), elems.as_slice()) {
                ("hash_set", [g]) => (
                    quote! { ::std::collections::HashSet::new() },
                    quote! { __pbt_out.insert(#g) },
                ),
                ("btree_set", [g]) => (
                    quote! { ::std::collections::BTreeSet::new() },
                    quote! { __pbt_out.insert(#g) },
                ),
                ("vec_unique", [g]) => (
                    quote! { ::std::vec::Vec::new() },
                    quote! {{
                        let __pbt_x = #g;
                        let __pbt_new = !__pbt_out.contains(&__pbt_x);
                        if __pbt_new {
                            __pbt_out.push(__pbt_x);
                        }
                        __pbt_new
                    }},
                ),
                (map, [k, v]) => {
                    let value_charge = charge::charge(value_draws, ctx);
                    let new = if map == "hash_map" {
                        quote! { ::std::collections::HashMap::new() }
                    } else {
                        quote! { ::std::collections::BTreeMap::new() }
                    };
                    (
                        new,
                        quote! {{
                            let __pbt_k = #k;
                            let __pbt_new = !__pbt_out.contains_key(&__pbt_k);
                            if __pbt_new {
                                #value_charge
                                let __pbt_v = #v;
                                __pbt_out.insert(__pbt_k, __pbt_v);
                            }
                            __pbt_new
                        }},
                    )
                }
                _ => {
                    return Err(syn::Error::new(
                        kind.span(),
                        "wrong number of generators for this collection",
                    ))
                }
            };
            let rejected = crate::emit::rejected(
                rt,
                quote!(MinimumLength {
                    min: __pbt_len.lo,
                    reached: __pbt_out.len()
                }),
            );
            quote! {{
                let __pbt_len = #rt::Length::lengths(#len);
                let __pbt_target: ::core::primitive::usize = #target;
                let mut __pbt_out = #new;
                let mut __pbt_misses = 0usize;
                while __pbt_out.len() < __pbt_target && __pbt_misses < #rt::UNIQUE_TRIES {
                    #each_step
                    let __pbt_added: ::core::primitive::bool = #step;
                    if __pbt_added {
                        __pbt_misses = 0;
                    } else {
                        __pbt_misses += 1;
                    }
                }
                if __pbt_out.len() < __pbt_len.lo {
                    break #label <::core::result::Result<_, _>>::Err(#rejected);
                }
                __pbt_out
            }}
        }
    })
}

impl Collection {
    /// A span to point errors at.
    pub(crate) fn span(&self) -> proc_macro2::Span {
        match self {
            Collection::Option(g) | Collection::Result(g, _) => g.span(),
            Collection::Unique { kind, .. } => kind.span(),
        }
    }
}

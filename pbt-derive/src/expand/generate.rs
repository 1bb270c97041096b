//! Generation code: the body of the derived `Arbitrary::arbitrary`, and the
//! pieces the shrinker and the mutator reuse (one variant's value, one
//! field's value).
//!
//! The code reads `size` and draws from `__pbt_src` (a `&mut S`). A struct
//! is its fields drawn in order; an enum is one draw over the total weight
//! and an `if` ladder (the staged `frequency`, *Fail Faster* §4.2), base
//! variants first so that choice `0` is the simplest value. Fields that may
//! contain a user type are generated at `size / 2`, and variants containing
//! them weigh `weight * size`: at size 0 only base variants are drawn, so
//! generation stops, and the depth is at most `log2(size) + 1` levels of
//! this type.

use crate::ast::{Field, Input, Style, Variant};
use crate::types::{self, last_ident, pointer, type_args};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;
use syn::Type;

/// The size is capped here when it weighs variants, so that
/// `weights * size` fits a `u64` (see [`crate::ast::MAX_TOTAL_WEIGHT`]).
const SIZE_CAP: u64 = 1 << 31;

/// The local holding field `i` while a value is built.
pub fn local(i: usize) -> Ident {
    format_ident!("__pbt_f{i}")
}

/// `Self::V { a: v0, b: v1 }`, `Self::V(v0, v1)` or `Self::V` (or `Self …`).
pub fn construct(variant: &Variant, values: &[TokenStream]) -> TokenStream {
    let ctor = variant.ctor();
    match variant.style {
        Style::Unit => ctor,
        Style::Tuple => quote! { #ctor(#(#values),*) },
        Style::Named => {
            let names = variant.fields.iter().map(|f| &f.member);
            quote! { #ctor { #(#names: #values),* } }
        }
    }
}

/// The pattern binding each field of `variant` by reference to `__pbt_{i}`.
pub fn pattern(variant: &Variant) -> TokenStream {
    let binds: Vec<Ident> = (0..variant.fields.len())
        .map(|i| format_ident!("__pbt_{i}"))
        .collect();
    let ctor = variant.ctor();
    match variant.style {
        Style::Unit if variant.ident.is_none() => quote!(_),
        Style::Unit => ctor,
        Style::Tuple => quote! { #ctor(#(#binds),*) },
        Style::Named => {
            let names = variant.fields.iter().map(|f| &f.member);
            quote! { #ctor { #(#names: #binds),* } }
        }
    }
}

/// The binding of field `i` in [`pattern`].
pub fn bound(i: usize) -> Ident {
    format_ident!("__pbt_{i}")
}

/// The body of `Arbitrary::arbitrary`.
pub fn arbitrary_body(input: &Input) -> TokenStream {
    let ranked = input.ranked();
    let panic = |v: &Variant, f: &Field| reject_panic(input, v, f);
    if let [only] = ranked[..] {
        return variant_value(input, only, &panic);
    }
    let rt = &input.rt;
    let base_total: u64 = ranked.iter().filter(|v| v.base).map(|v| v.weight).sum();
    let grows = ranked.iter().any(|v| !v.base);
    let (mut base, mut rec) = (0u64, 0u64);
    let mut arms = Vec::new();
    for v in &ranked {
        let threshold = if v.base {
            base += v.weight;
            quote!(#base)
        } else {
            rec += v.weight;
            quote!(#base_total + __pbt_n * #rec)
        };
        arms.push((threshold, variant_value(input, v, &panic)));
    }
    let total = if grows {
        quote!(#base_total + __pbt_n * #rec)
    } else {
        quote!(#base)
    };
    let n = grows.then(|| {
        quote! {
            let __pbt_n: ::core::primitive::u64 =
                ::core::cmp::Ord::min(size as ::core::primitive::u64, #SIZE_CAP);
        }
    });
    let [(first_threshold, first), middle @ .., (_, last)] = &arms[..] else {
        return quote!(::core::unreachable!());
    };
    let middle = middle.iter().map(|(t, v)| quote!(else if __pbt_r < #t #v));
    quote! {
        #n
        let __pbt_r = #rt::Source::draw(&mut *__pbt_src, #total - 1);
        if __pbt_r < #first_threshold #first #(#middle)* else #last
    }
}

/// What a rejecting `#[pbt(with = …)]` does after its last try.
pub type OnReject<'a> = dyn Fn(&Variant, &Field) -> TokenStream + 'a;

/// Panic naming the field.
pub fn reject_panic(input: &Input, variant: &Variant, field: &Field) -> TokenStream {
    let rt = &input.rt;
    let name = format!("{}::{}", variant.path(input.ident), field.name());
    quote! {
        ::core::panic!(
            "pbt: the `#[pbt(with = …)]` of field `{}` rejected every candidate in {} tries",
            #name,
            #rt::FIELD_TRIES,
        )
    }
}

/// A fresh value of `variant`: its fields drawn in order into locals, then
/// the constructor.
pub fn variant_value(input: &Input, variant: &Variant, on_reject: &OnReject) -> TokenStream {
    let lets = variant.fields.iter().enumerate().map(|(i, f)| {
        let (local, ty) = (local(i), f.ty);
        let value = field_value(input, variant, i, on_reject);
        quote! { let #local: #ty = #value; }
    });
    let values: Vec<TokenStream> = (0..variant.fields.len())
        .map(|i| local(i).into_token_stream())
        .collect();
    let ctor = construct(variant, &values);
    quote! {{ #(#lets)* #ctor }}
}

/// A fresh value of field `i` of `variant`; the earlier fields are in
/// their locals.
pub fn field_value(
    input: &Input,
    variant: &Variant,
    i: usize,
    on_reject: &OnReject,
) -> TokenStream {
    let f = &variant.fields[i];
    match &f.gen {
        Some((dsl, tokens)) => staged(input, variant, i, dsl, tokens, on_reject),
        None => {
            let size = if f.recursive {
                // A call, not `/`: no `clippy::integer_division` on the
                // user's derive.
                quote!(::core::primitive::usize::div_euclid(size, 2))
            } else {
                quote!(size)
            };
            by_type(input, f.ty, size, 0, true)
        }
    }
}

/// `#[pbt(with = DSL)]`: the staged generator (pbt-stage), with the earlier
/// named fields it mentions bound by name (by value when `Copy`, else by
/// reference), retried up to `FIELD_TRIES` times when it rejects.
fn staged(
    input: &Input,
    variant: &Variant,
    i: usize,
    dsl: &pbt_stage::Dsl,
    tokens: &TokenStream,
    on_reject: &OnReject,
) -> TokenStream {
    let rt = &input.rt;
    let f = &variant.fields[i];
    let ty = f.ty;
    let ctx = pbt_stage::Ctx::new(
        rt.clone(),
        Ident::new("__pbt_src", proc_macro2::Span::call_site()),
        Some(ty.clone()),
    );
    let code = match pbt_stage::emit(dsl, &ctx) {
        Ok(code) => code,
        Err(e) => return e.into_compile_error(),
    };
    let binds = variant.fields[..i]
        .iter()
        .enumerate()
        .filter_map(|(j, earlier)| {
            let name = earlier.ident?;
            types::mentions(tokens, name).then(|| {
                let local = local(j);
                quote! { let #name = (&#rt::Bind(&#local)).bind(); }
            })
        });
    let reject = on_reject(variant, f);
    // The staged code reads the size through a name of its own, bound
    // before the fields: a field named `size` is the field there.
    let size = &ctx.size;
    quote! {{
        let #size: ::core::primitive::usize = size;
        #[allow(unused_imports)]
        use #rt::dsl::*;
        #[allow(unused_imports)]
        use #rt::{BindCopy as _, BindRef as _};
        #(#binds)*
        let mut __pbt_tries: ::core::primitive::usize = 0;
        loop {
            let __pbt_r: #rt::Generated<#ty> = #code;
            match __pbt_r {
                ::core::result::Result::Ok(__pbt_v) => break __pbt_v,
                ::core::result::Result::Err(_) => {
                    __pbt_tries += 1;
                    if __pbt_tries >= #rt::FIELD_TRIES {
                        #reject
                    }
                }
            }
        }
    }}
}

/// A value of `ty` at `size`, by type. A type that may contain a user
/// type is taken apart here when it is a pointer, an `Option` or a std
/// collection, so that recursion through it stops by size: an `Option` is
/// `None` at size 0, and a collection of `k` elements splits its size
/// among them. Everything else is `<T as Arbitrary>::arbitrary`. When
/// `typed`, the expression is assigned to a place of type `ty` (no
/// annotation needed for inference).
pub fn by_type(
    input: &Input,
    ty: &Type,
    size: TokenStream,
    depth: usize,
    typed: bool,
) -> TokenStream {
    let rt = &input.rt;
    if types::is_phantom(ty) {
        return quote!(::core::marker::PhantomData);
    }
    let arbitrary =
        || quote_spanned! {ty.span()=> <#ty as #rt::Arbitrary>::arbitrary(&mut *__pbt_src, #size) };
    if input.this.is_leaf(ty) {
        return arbitrary();
    }
    let s = format_ident!("__pbt_s{depth}");
    let annotated = |value: TokenStream| {
        if typed {
            value
        } else {
            quote! {{
                let __pbt_v: #ty = #value;
                __pbt_v
            }}
        }
    };
    if let Some(inner) = pointer(ty) {
        let inner = by_type(input, inner, size, depth + 1, false);
        return annotated(quote!(::core::convert::From::from(#inner)));
    }
    // Tuples and arrays are taken apart too (through `Arbitrary` for
    // `[Option<Box<Self>>; 4]`, an `Option` is not `None` at size 0, and
    // the recursion did not stop): a tuple's parts at its size, as a
    // struct's fields; an array's `N` elements at `size / N` each, as a
    // collection's.
    match ty {
        Type::Paren(p) => return by_type(input, &p.elem, size, depth, typed),
        Type::Group(g) => return by_type(input, &g.elem, size, depth, typed),
        Type::Tuple(t) => {
            let parts = t
                .elems
                .iter()
                .map(|e| by_type(input, e, quote!(#s), depth + 1, false));
            return annotated(quote! {{
                let #s: ::core::primitive::usize = #size;
                ( #(#parts,)* )
            }});
        }
        Type::Array(a) => {
            let elem = by_type(input, &a.elem, quote!(__pbt_e), depth + 1, false);
            let len = &a.len;
            return annotated(quote! {{
                let __pbt_e: ::core::primitive::usize = ::core::primitive::usize::div_euclid(
                    #size,
                    ::core::cmp::Ord::max(#len, 1),
                );
                ::core::array::from_fn(|_| #elem)
            }});
        }
        _ => {}
    }
    let name = last_ident(ty).unwrap_or_default();
    let args = type_args(ty);
    let elem = match (name.as_str(), &args[..]) {
        ("Option", [inner]) => {
            let inner = by_type(input, inner, quote!(#s), depth + 1, false);
            return quote! {{
                let #s: ::core::primitive::usize = #size;
                if #s == 0 || #rt::Source::draw(&mut *__pbt_src, 3) == 0 {
                    ::core::option::Option::None
                } else {
                    ::core::option::Option::Some(#inner)
                }
            }};
        }
        ("Vec" | "VecDeque" | "LinkedList" | "BTreeSet" | "HashSet" | "BinaryHeap", [x]) => {
            by_type(input, x, quote!(__pbt_e), depth + 1, false)
        }
        ("BTreeMap" | "HashMap", [k, v]) => {
            let k = by_type(input, k, quote!(__pbt_e), depth + 1, false);
            let v = by_type(input, v, quote!(__pbt_e), depth + 1, false);
            quote! { (#k, #v) }
        }
        _ => return arbitrary(),
    };
    // The count is hidden from the collection (a `filter` has no lower
    // bound): `from_iter` would reserve all `k` drawn at an absurd size
    // (`usize::MAX / 4`: a capacity overflow, or gigabytes), where the
    // draw budget stops the elements after a million.
    let collect = annotated(quote!(::core::iter::FromIterator::from_iter(
        ::core::iter::Iterator::map(
            ::core::iter::Iterator::filter(0..__pbt_k, |_| true),
            |_| #elem,
        )
    )));
    quote! {{
        let #s: ::core::primitive::usize = #size;
        let __pbt_k = #rt::Source::draw(&mut *__pbt_src, #s as ::core::primitive::u64) as ::core::primitive::usize;
        let __pbt_e: ::core::primitive::usize =
            ::core::primitive::usize::div_euclid(#s, ::core::cmp::Ord::max(__pbt_k, 1));
        #collect
    }}
}

/// For each field of `to`, the field of `from` it can take: one of the
/// same type (the same name first), each used once. Fields of `to` with a
/// generator, and `PhantomData`s, take none.
pub fn reuse_map(from: &Variant, to: &Variant) -> Vec<Option<usize>> {
    let key = |f: &Field| f.ty.to_token_stream().to_string();
    let mut used = vec![false; from.fields.len()];
    to.fields
        .iter()
        .map(|g| {
            if g.gen.is_some() || types::is_phantom(g.ty) {
                return None;
            }
            let fits = |s: usize| !used[s] && key(&from.fields[s]) == key(g);
            let same_name = (0..from.fields.len())
                .find(|&s| fits(s) && g.ident.is_some() && from.fields[s].ident == g.ident);
            let found = same_name.or_else(|| (0..from.fields.len()).find(|&s| fits(s)));
            if let Some(s) = found {
                used[s] = true;
            }
            found
        })
        .collect()
}

/// A value of `to` taking the fields of `from` (bound by [`pattern`]) that
/// line up ([`reuse_map`]) and generating the others.
pub fn variant_from(
    input: &Input,
    from: &Variant,
    to: &Variant,
    on_reject: &OnReject,
) -> TokenStream {
    let map = reuse_map(from, to);
    let lets = to.fields.iter().enumerate().map(|(k, g)| {
        let (l, ty) = (local(k), g.ty);
        let value = match map[k] {
            Some(s) => {
                let b = bound(s);
                quote!(::core::clone::Clone::clone(#b))
            }
            None => field_value(input, to, k, on_reject),
        };
        quote! { let #l: #ty = #value; }
    });
    let values: Vec<TokenStream> = (0..to.fields.len())
        .map(|k| local(k).into_token_stream())
        .collect();
    let ctor = construct(to, &values);
    quote! {{ #(#lets)* #ctor }}
}

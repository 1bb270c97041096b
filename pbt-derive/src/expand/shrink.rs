//! The derived `Shrink`: candidates simplest first, each strictly simpler.
//!
//! For a value of variant `V`:
//!
//! 1. its sub-terms of the same type (the children in `Box<Self>`,
//!    `Option<Box<Self>>`, `Vec<Self>`, … fields);
//! 2. for an enum, for each variant ranked before `V` (the base variants
//!    come first) that holds no more copies of the type than `V` must: its
//!    simplest value — generated from an all-zero choice sequence, which
//!    gives every field its simplest value — and then, when some of `V`'s
//!    fields line up with its fields (same type, same name first), the
//!    variant built from them, the rest simplest (`Mul(a, b)` → `Add(a, b)`);
//! 3. each field's own shrinks in turn, the other fields kept. A field with
//!    `#[pbt(shrink = f)]` uses `f`; a field with `#[pbt(with = …)]`, or whose
//!    value a later field's generator reads, is kept as it is (its type's
//!    shrinker knows nothing of the generator's invariants).
//!
//! "Simpler" is the order the tests check: fewer nodes of the type (the
//! constructors reachable through same-typed children), then a lower rank,
//! then one field strictly simpler by its own order and the others equal.

use super::generate::{
    bound, construct, pattern, reuse_map, variant_from, variant_value, OnReject,
};
use crate::ast::{Field, Input, Kind, Variant};
use crate::bounds;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// `impl Shrink for T`.
pub fn shrink_impl(input: &Input) -> TokenStream {
    let rt = &input.rt;
    let ident = input.ident;
    let (impl_generics, ty_generics, _) = input.generics.split_for_impl();
    let mut where_clause =
        bounds::where_clause(input, quote!(#rt::Shrink + ::core::clone::Clone), |_| true);
    let recursive = input
        .variants
        .iter()
        .flat_map(|v| &v.fields)
        .any(|f| input.this.children(f.ty, quote!(_), 0).is_some());
    if recursive {
        where_clause = bounds::with(where_clause, bounds::self_clone(input));
    }
    // The simplest values of earlier variants are generated: the type
    // parameters their fields mention need `Arbitrary` too.
    let fresh = input
        .variants
        .iter()
        .filter(|_| input.kind == Kind::Enum)
        .flat_map(|v| earlier(input, v))
        .flat_map(|w| &w.fields)
        .filter(|f| f.gen.is_none());
    if let Some(arbitrary) = bounds::params_of(input, quote!(#rt::Arbitrary), fresh) {
        where_clause = bounds::with(where_clause, arbitrary);
    }
    let arms = input.variants.iter().map(|v| {
        let pat = pattern(v);
        let mut parts: Vec<TokenStream> = Vec::new();
        for (i, f) in v.fields.iter().enumerate() {
            let b = bound(i);
            if let Some(children) = input.this.children(f.ty, quote!(#b), 0) {
                parts.push(
                    quote! { ::core::iter::Iterator::map(#children, ::core::clone::Clone::clone) },
                );
            }
        }
        if input.kind == Kind::Enum {
            parts.extend(earlier_variants(input, v));
        }
        for (i, f) in v.fields.iter().enumerate() {
            if f.shrinks() {
                parts.push(field_candidates(input, v, i, f));
            }
        }
        let it = parts.iter().fold(
            quote!(::core::iter::empty::<Self>()),
            |acc, p| quote!(::core::iter::Iterator::chain(#acc, #p)),
        );
        quote! { #pat => #rt::boxed_candidates(#it), }
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics #rt::Shrink for #ident #ty_generics #where_clause {
            #[allow(unused_variables)]
            fn shrink(&self) -> #rt::Candidates<'_, Self> {
                match self {
                    #(#arms)*
                }
            }
        }
    }
}

/// For each variant ranked before `v` that holds no more copies of the
/// type than `v` must: its simplest value, then (when some of `v`'s fields
/// line up with its fields) the variant built from those fields, the rest
/// simplest. Neither has more nodes than `v`, and both have a lower rank.
fn earlier_variants(input: &Input, v: &Variant) -> Vec<TokenStream> {
    let mut out = Vec::new();
    for w in earlier(input, v) {
        out.push(simplest(input, w, |reject| variant_value(input, w, reject)));
        if reuse_map(v, w).iter().any(Option::is_some) {
            out.push(simplest(input, w, |reject| {
                variant_from(input, v, w, reject)
            }));
        }
    }
    out
}

/// The variants ranked before `v` that hold no more copies of the type than
/// `v` must (see [`earlier_variants`]).
fn earlier<'i, 'a>(input: &'i Input<'a>, v: &Variant) -> Vec<&'i Variant<'a>> {
    let floor = v.mandatory.unwrap_or(0);
    input
        .ranked()
        .into_iter()
        .filter(|w| w.rank < v.rank && w.mandatory.is_some_and(|m| m <= floor))
        .collect()
}

/// A candidate built by `build` over an all-zero choice sequence at size 0
/// (the simplest choice everywhere); dropped if a field's generator rejects.
fn simplest(input: &Input, w: &Variant, build: impl Fn(&OnReject) -> TokenStream) -> TokenStream {
    let rt = &input.rt;
    let value = if w.fields.iter().any(|f| f.gen.is_some()) {
        let value = build(&|_: &Variant, _: &Field| {
            quote!(break '__pbt_simplest ::core::option::Option::None)
        });
        quote! { '__pbt_simplest: { ::core::option::Option::Some(#value) } }
    } else {
        let value = build(&|_: &Variant, _: &Field| quote!(::core::unreachable!()));
        quote! { ::core::option::Option::Some(#value) }
    };
    quote! {
        ::core::iter::Iterator::flatten(::core::iter::once_with(move || -> ::core::option::Option<Self> {
            let __pbt_src = &mut #rt::Replay::new(&[]);
            let size: ::core::primitive::usize = 0;
            #value
        }))
    }
}

/// Field `i`'s shrinks, each in a copy of the value.
fn field_candidates(input: &Input, v: &Variant, i: usize, f: &Field) -> TokenStream {
    let rt = &input.rt;
    let b = bound(i);
    let values: Vec<TokenStream> = (0..v.fields.len())
        .map(|k| {
            if k == i {
                quote!(__pbt_c)
            } else {
                let other = bound(k);
                quote!(::core::clone::Clone::clone(#other))
            }
        })
        .collect();
    let ctor = construct(v, &values);
    let candidates = match &f.shrink {
        Some(s) => quote_spanned! {s.span()=> ::core::iter::IntoIterator::into_iter((#s)(#b)) },
        None => {
            let ty = f.ty;
            quote_spanned! {ty.span()=> <#ty as #rt::Shrink>::shrink(#b) }
        }
    };
    // Made when the shrinker gets to them, not before: a value as deep as
    // a 10 000-cell list would otherwise recurse through every layer's
    // `shrink` (and overflow the stack) to make its first candidate.
    quote! {
        ::core::iter::Iterator::flatten(::core::iter::once_with(move || {
            ::core::iter::Iterator::map(#candidates, move |__pbt_c| #ctor)
        }))
    }
}

//! The derived `Mutate`: one draw picks one of the mutations that apply to
//! the value's variant, each of which yields a valid value that differs from
//! the input:
//!
//! - **field** `i`: the field's own mutator (a `#[pbt(with = …)]` field is
//!   regenerated instead, until it changes when its type is `PartialEq`);
//!   later fields whose generators read it are regenerated;
//! - **switch**: another variant, re-using the fields whose types line up
//!   (same name first) and generating the rest;
//! - **fresh**: a freshly generated value of another variant;
//! - **cut**: one of the value's same-typed sub-terms;
//! - **grow**: the value wrapped as the sub-term of a fresh variant that has
//!   a slot for it (`Box<Self>`, `Option<Box<Self>>`, `Vec<Self>`, …).
//!
//! Fresh parts are generated at the mutator's `size`. A mutation that does
//! not apply at run time (no sub-term to cut, no other variant at size 0)
//! falls back to a switch, or else to the first field.

use super::generate::{bound, construct, field_value, local, pattern, reject_panic, variant_from};
use crate::ast::{Field, Input, Variant};
use crate::{bounds, types};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned, ToTokens};
use std::collections::BTreeSet;
use syn::spanned::Spanned;

/// `impl Mutate for T`.
pub fn mutate_impl(input: &Input) -> TokenStream {
    let rt = &input.rt;
    let ident = input.ident;
    let (impl_generics, ty_generics, _) = input.generics.split_for_impl();
    let where_clause = bounds::with(
        bounds::where_clause(
            input,
            quote!(#rt::Mutate + #rt::Arbitrary + ::core::clone::Clone),
            |_| true,
        ),
        bounds::self_clone(input),
    );
    let arms = input.variants.iter().map(|v| {
        let pat = pattern(v);
        let body = variant_body(input, v);
        quote! { #pat => { #body } }
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics #rt::Mutate for #ident #ty_generics #where_clause {
            #[allow(unused_variables)]
            fn mutate<__PbtS: #rt::Source + ?::core::marker::Sized>(
                &self,
                __pbt_src: &mut __PbtS,
                size: ::core::primitive::usize,
            ) -> Self {
                #[allow(unused_imports)]
                use #rt::{BindCopy as _, BindRef as _, DifferEq as _, DifferUnknown as _};
                match self {
                    #(#arms)*
                }
            }
        }
    }
}

/// One draw over the mutations that apply to variant `v`.
fn variant_body(input: &Input, v: &Variant) -> TokenStream {
    let rt = &input.rt;
    let fields: Vec<usize> = (0..v.fields.len())
        .filter(|&i| !types::is_unit(v.fields[i].ty))
        .collect();
    let targets: Vec<&Variant> = input
        .ranked()
        .into_iter()
        .filter(|w| w.rank != v.rank)
        .collect();
    let switch = (!targets.is_empty()).then(|| switch(input, v, &targets));
    let grow = grow(input);
    let fallback = switch
        .clone()
        .or_else(|| fields.first().map(|&i| change_field(input, v, i)))
        .or_else(|| grow.clone())
        .unwrap_or_else(|| quote!(::core::clone::Clone::clone(self)));
    let mut ops: Vec<TokenStream> = fields.iter().map(|&i| change_field(input, v, i)).collect();
    if let Some(switch) = switch {
        ops.push(switch);
        ops.push(quote! {{
            let mut __pbt_t: ::core::primitive::usize = 0;
            loop {
                let __pbt_new = <Self as #rt::Arbitrary>::arbitrary(&mut *__pbt_src, size);
                if ::core::mem::discriminant(&__pbt_new) != ::core::mem::discriminant(self) {
                    break __pbt_new;
                }
                __pbt_t += 1;
                if __pbt_t >= #rt::FIELD_TRIES {
                    break #fallback;
                }
            }
        }});
    }
    if let Some(cut) = cut(input, v, &fallback) {
        ops.push(cut);
    }
    ops.extend(grow);
    one_of(rt, &ops).unwrap_or_else(|| quote!(::core::clone::Clone::clone(self)))
}

/// Change field `i` of `v`, then regenerate the later fields whose
/// generators read a changed field.
fn change_field(input: &Input, v: &Variant, i: usize) -> TokenStream {
    let rt = &input.rt;
    let f = &v.fields[i];
    let panic = |w: &Variant, g: &Field| reject_panic(input, w, g);
    let new = match &f.gen {
        Some(_) => {
            let b = bound(i);
            let value = field_value(input, v, i, &panic);
            let ty = f.ty;
            quote! {{
                let mut __pbt_t: ::core::primitive::usize = 0;
                loop {
                    let __pbt_new: #ty = #value;
                    __pbt_t += 1;
                    if (&#rt::Differ(&__pbt_new, #b)).differ() || __pbt_t >= #rt::FIELD_TRIES {
                        break __pbt_new;
                    }
                }
            }}
        }
        None => {
            let (b, ty) = (bound(i), f.ty);
            quote_spanned! {ty.span()=> <#ty as #rt::Mutate>::mutate(#b, &mut *__pbt_src, size) }
        }
    };
    let mut changed: BTreeSet<usize> = BTreeSet::from([i]);
    let mut lets = Vec::new();
    for (k, g) in v.fields.iter().enumerate() {
        let (l, ty) = (local(k), g.ty);
        let value = if k == i {
            new.clone()
        } else if k > i && reads_changed(v, k, &changed) {
            changed.insert(k);
            field_value(input, v, k, &panic)
        } else {
            let b = bound(k);
            quote!(::core::clone::Clone::clone(#b))
        };
        lets.push(quote! { let #l: #ty = #value; });
    }
    let values: Vec<TokenStream> = (0..v.fields.len())
        .map(|k| local(k).into_token_stream())
        .collect();
    let ctor = construct(v, &values);
    quote! {{ #(#lets)* #ctor }}
}

/// Whether field `k`'s generator reads one of the `changed` fields.
fn reads_changed(v: &Variant, k: usize, changed: &BTreeSet<usize>) -> bool {
    let Some((_, tokens)) = &v.fields[k].gen else {
        return false;
    };
    changed
        .iter()
        .filter_map(|&c| v.fields[c].ident)
        .any(|name| types::mentions(tokens, name))
}

/// Another variant, drawn among `targets`, re-using `v`'s fields where the
/// types line up.
fn switch(input: &Input, v: &Variant, targets: &[&Variant]) -> TokenStream {
    let rt = &input.rt;
    let builds: Vec<TokenStream> = targets
        .iter()
        .map(|w| variant_from(input, v, w, &|x, g| reject_panic(input, x, g)))
        .collect();
    one_of(rt, &builds).unwrap_or_else(|| quote!(::core::clone::Clone::clone(self)))
}

/// One of `v`'s same-typed sub-terms, if it has any.
fn cut(input: &Input, v: &Variant, fallback: &TokenStream) -> Option<TokenStream> {
    let rt = &input.rt;
    let children: Vec<TokenStream> = v
        .fields
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let b = bound(i);
            input.this.children(f.ty, quote!(#b), 0)
        })
        .collect();
    if children.is_empty() {
        return None;
    }
    let all = children.iter().fold(
        quote! { ::core::iter::empty::<&Self>() },
        |acc, c| quote! { ::core::iter::Iterator::chain(#acc, #c) },
    );
    Some(quote! {{
        let __pbt_kids: ::core::primitive::usize = ::core::iter::Iterator::count(#all);
        let __pbt_at = if __pbt_kids == 0 {
            ::core::option::Option::None
        } else {
            let __pbt_i = #rt::Source::draw(&mut *__pbt_src, __pbt_kids as ::core::primitive::u64 - 1);
            ::core::iter::Iterator::nth(&mut #all, __pbt_i as ::core::primitive::usize)
        };
        match __pbt_at {
            ::core::option::Option::Some(__pbt_kid) => ::core::clone::Clone::clone(__pbt_kid),
            ::core::option::Option::None => #fallback,
        }
    }})
}

/// The value wrapped in a fresh variant with a slot for it: one draw over
/// every (variant, field) slot of the type.
fn grow(input: &Input) -> Option<TokenStream> {
    let rt = &input.rt;
    let panic = |x: &Variant, g: &Field| reject_panic(input, x, g);
    let mut builds = Vec::new();
    for w in input.ranked() {
        for (k, g) in w.fields.iter().enumerate() {
            if g.gen.is_some() {
                continue;
            }
            let Some(slot) = input
                .this
                .slot(g.ty, quote!(::core::clone::Clone::clone(self)))
            else {
                continue;
            };
            let lets = w.fields.iter().enumerate().map(|(j, h)| {
                let (l, ty) = (local(j), h.ty);
                let value = if j == k {
                    slot.clone()
                } else {
                    field_value(input, w, j, &panic)
                };
                quote! { let #l: #ty = #value; }
            });
            let values: Vec<TokenStream> = (0..w.fields.len())
                .map(|j| local(j).into_token_stream())
                .collect();
            let ctor = construct(w, &values);
            builds.push(quote! {{ #(#lets)* #ctor }});
        }
    }
    one_of(rt, &builds)
}

/// One of `choices`, picked by one draw (no draw for a single choice).
fn one_of(rt: &TokenStream, choices: &[TokenStream]) -> Option<TokenStream> {
    match choices {
        [] => None,
        [only] => Some(only.clone()),
        _ => {
            let last = choices.len() as u64 - 1;
            let arms = choices.iter().enumerate().map(|(k, c)| {
                if k as u64 == last {
                    quote!(_ => #c,)
                } else {
                    let k = k as u64;
                    quote!(#k => #c,)
                }
            });
            Some(quote! {
                match #rt::Source::draw(&mut *__pbt_src, #last) {
                    #(#arms)*
                }
            })
        }
    }
}

//! Emitting the derived impls, each inside `const _: () = { … };` with
//! `#[automatically_derived]` (serde's `dummy.rs`), and what to emit when
//! the input has errors.

mod constructors;
mod generate;
mod mutate;
mod shrink;

use crate::ast::{Derive, Input};
use crate::bounds;
use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

/// `#[derive(Arbitrary)]`: `Arbitrary`, `Shrink` (unless `no_shrink`) and
/// `Constructors`.
pub fn arbitrary(input: TokenStream) -> TokenStream {
    derive(input, Derive::Arbitrary, |ir| {
        let mut out = arbitrary_impl(ir);
        if !ir.no_shrink {
            out.extend(shrink::shrink_impl(ir));
        }
        out.extend(constructors::constructors_impl(ir));
        out
    })
}

/// `#[derive(Mutate)]`: `Mutate`.
pub fn mutate(input: TokenStream) -> TokenStream {
    derive(input, Derive::Mutate, mutate::mutate_impl)
}

/// Parse, build the IR, emit with `emit`, or emit the errors and a stub.
fn derive(input: TokenStream, which: Derive, emit: impl Fn(&Input) -> TokenStream) -> TokenStream {
    let input = match syn::parse2::<DeriveInput>(input) {
        Ok(input) => input,
        Err(e) => return e.into_compile_error(),
    };
    match Input::from_syn(&input, which) {
        Ok(ir) => dummy(emit(&ir)),
        Err(errors) => fallback(&input, which, errors),
    }
}

/// `const _: () = { items };`: the impls without names in the user's scope.
fn dummy(items: TokenStream) -> TokenStream {
    quote! {
        #[allow(non_local_definitions)]
        const _: () = {
            #items
        };
    }
}

/// The errors, and a stub impl of the derived trait so that code using it
/// keeps type-checking (thiserror's `fallback.rs`, clap's `dummies.rs`).
fn fallback(input: &DeriveInput, which: Derive, errors: syn::Error) -> TokenStream {
    let errors = errors.into_compile_error();
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let stub = match which {
        Derive::Arbitrary => quote! {
            impl #impl_generics ::pbt::__private::Arbitrary for #ident #ty_generics #where_clause {
                fn arbitrary<__PbtS: ::pbt::__private::Source + ?::core::marker::Sized>(
                    _: &mut __PbtS,
                    _: ::core::primitive::usize,
                ) -> Self {
                    ::core::panic!("pbt: this derive did not compile; see the error above")
                }
            }
        },
        Derive::Mutate => quote! {
            impl #impl_generics ::pbt::__private::Mutate for #ident #ty_generics #where_clause {
                fn mutate<__PbtS: ::pbt::__private::Source + ?::core::marker::Sized>(
                    &self,
                    _: &mut __PbtS,
                    _: ::core::primitive::usize,
                ) -> Self {
                    ::core::panic!("pbt: this derive did not compile; see the error above")
                }
            }
        },
    };
    quote! {
        #errors
        const _: () = {
            #stub
        };
    }
}

/// `impl Arbitrary for T`.
fn arbitrary_impl(input: &Input) -> TokenStream {
    let rt = &input.rt;
    let ident = input.ident;
    let (impl_generics, ty_generics, _) = input.generics.split_for_impl();
    let where_clause = bounds::where_clause(input, quote!(#rt::Arbitrary), |f| f.gen.is_none());
    let body = generate::arbitrary_body(input);
    quote! {
        #[automatically_derived]
        impl #impl_generics #rt::Arbitrary for #ident #ty_generics #where_clause {
            #[allow(unused_variables)]
            fn arbitrary<__PbtS: #rt::Source + ?::core::marker::Sized>(
                __pbt_src: &mut __PbtS,
                size: ::core::primitive::usize,
            ) -> Self {
                #body
            }
        }
    }
}

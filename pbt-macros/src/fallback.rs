//! What to emit when the input has errors: the errors, plus enough of the
//! user's code that the compiler and IDEs keep working on the rest
//! (thiserror's `fallback.rs`, clap's `dummies.rs`).

use crate::expand::inner_fn;
use proc_macro2::TokenStream;
use quote::quote;
use syn::ItemFn;

/// `property!` with errors: the errors, then a trivial property, so code that
/// hands the value to a runner still type-checks.
pub fn property(errors: syn::Error) -> TokenStream {
    let errors = errors.to_compile_error();
    quote! {{
        #errors
        ::pbt::__private::Prop::new(::pbt::__private::Check::new(
            |_: &()| -> ::core::primitive::bool { true },
        ))
    }}
}

/// `#[property_test]` on a function with errors: the errors, and the
/// function without its annotations, kept as an ordinary function.
pub fn test_fn(item: &ItemFn, errors: syn::Error) -> TokenStream {
    let errors = errors.to_compile_error();
    let mut kept = inner_fn(item);
    kept.attrs.clone_from(&item.attrs);
    kept.vis.clone_from(&item.vis);
    quote! {
        #errors
        #[allow(dead_code)]
        #kept
    }
}

/// `#[property_test]` on something that is not a function: the errors and
/// the item unchanged.
pub fn item(item: TokenStream, errors: syn::Error) -> TokenStream {
    let errors = errors.to_compile_error();
    quote! {
        #errors
        #item
    }
}

//! `assume!(cond)`: discard the test unless `cond` holds, with the utility
//! of `cond` (*Flexible and Automatic Targeted Property-Based Testing* §3
//! targets assume statements) derived as for `implies`, so that a run whose
//! assumptions reject most inputs can steer towards them.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::{Expr, Token};

/// The condition, with an optional trailing comma.
pub struct Assume {
    cond: Expr,
}

impl Parse for Assume {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let cond = input.parse()?;
        let _: Option<Token![,]> = input.parse()?;
        if !input.is_empty() {
            return Err(input.error(
                "`assume!` takes one condition: `assume!(a == b)` (combine several with `&&`)",
            ));
        }
        Ok(Assume { cond })
    }
}

/// `if !cond { unwind as a discard, with cond's utility }`, and when the
/// condition holds, note that it did (a feedback-guided run reads both).
pub fn expand(input: TokenStream) -> TokenStream {
    let Assume { cond } = match syn::parse2(input) {
        Ok(assume) => assume,
        Err(e) => return e.into_compile_error(),
    };
    let text = quote!(::core::stringify!(#cond));
    let fail = match crate::utility::derive_graded(&cond) {
        Some(utility) => quote! {
            ::pbt::__private::assumption_failed_graded(#text, || -> ::core::primitive::f64 {
                #[allow(unused_imports)]
                use ::pbt::__private::utility::{CmpNumber as _, CmpOther as _};
                #utility
            })
        },
        None => quote!(::pbt::__private::assumption_failed(#text)),
    };
    // `bool` is required of the condition, and a mismatch points at it.
    let holds = quote_spanned!(cond.span()=> ::pbt::__private::holds(#cond));
    quote! {
        if #holds {
            ::pbt::__private::assumption_held()
        } else {
            #fail
        }
    }
}

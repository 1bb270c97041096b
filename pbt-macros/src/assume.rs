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
    let graded = match escapes(&cond) {
        true => None,
        false => crate::utility::derive_graded(&cond),
    };
    let fail = match graded {
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

/// Whether `cond` leaves the enclosing function or loop (`?`, `return`,
/// `break`, `continue`, `.await`): its utility, evaluated in a closure of
/// its own, could not, so such a condition is discarded without one.
fn escapes(cond: &Expr) -> bool {
    struct Find(bool);
    impl<'a> syn::visit::Visit<'a> for Find {
        fn visit_expr(&mut self, e: &'a Expr) {
            match e {
                Expr::Try(_)
                | Expr::Return(_)
                | Expr::Break(_)
                | Expr::Continue(_)
                | Expr::Await(_) => {
                    self.0 = true;
                }
                // A closure's own `?` and `return` stay inside it.
                Expr::Closure(_) | Expr::Async(_) => {}
                e => syn::visit::visit_expr(self, e),
            }
        }
    }
    let mut find = Find(false);
    syn::visit::Visit::visit_expr(&mut find, cond);
    find.0
}

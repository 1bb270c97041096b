//! The derived constructor view (`Constructors`): one `Constructor` per
//! variant (or struct) in the value, each with the constructor enclosing it,
//! for the combinatorial runner (*Programmable Property-Based Testing* §2.5). Fields whose type has no
//! view are skipped (autoref specialisation, see
//! `pbt_core::constructors::support`), so the view never stops the derive.

use super::generate::{bound, pattern};
use crate::ast::Input;
use proc_macro2::TokenStream;
use quote::quote;
use syn::LitStr;

/// `impl Constructors for T`.
pub fn constructors_impl(input: &Input) -> TokenStream {
    let rt = &input.rt;
    let ident = input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let arms = input.variants.iter().map(|v| {
        let pat = pattern(v);
        let name = LitStr::new(&v.path(ident), proc_macro2::Span::call_site());
        let visits = (0..v.fields.len()).map(|i| {
            let b = bound(i);
            quote! { (&#rt::Visit(#b)).visit(::core::option::Option::Some(#name), __pbt_out); }
        });
        quote! {
            #pat => {
                __pbt_out.push(#rt::Constructor { name: #name, parent: __pbt_parent });
                #(#visits)*
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics #rt::Constructors for #ident #ty_generics #where_clause {
            fn constructors_under(
                &self,
                __pbt_parent: ::core::option::Option<&'static ::core::primitive::str>,
                __pbt_out: &mut ::std::vec::Vec<#rt::Constructor>,
            ) {
                #[allow(unused_imports)]
                use #rt::{VisitConstructors as _, VisitNothing as _};
                match self {
                    #(#arms)*
                }
            }
        }
    }
}

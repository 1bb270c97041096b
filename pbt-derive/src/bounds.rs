//! The `where` clause of each derived impl: the type's own predicates, plus
//! a bound on every type parameter that the fields needing it mention
//! (serde's rule), or `#[pbt(bound = "…")]` instead of the inferred ones.

use crate::ast::{Field, Input};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use std::collections::BTreeSet;
use syn::WhereClause;

/// `where` with the type's predicates and `P: #traits` for each type
/// parameter mentioned by a field that `needs` it.
pub fn where_clause(
    input: &Input,
    traits: TokenStream,
    needs: impl Fn(&Field) -> bool,
) -> TokenStream {
    let own = input
        .generics
        .where_clause
        .as_ref()
        .map(|w: &WhereClause| w.predicates.iter().cloned().collect::<Vec<_>>())
        .unwrap_or_default();
    let added: Vec<TokenStream> = match &input.bound {
        Some(bound) => bound.iter().map(|p| quote!(#p)).collect(),
        None => {
            let mut used = BTreeSet::new();
            for f in input.variants.iter().flat_map(|v| &v.fields) {
                if needs(f) {
                    input.this.params_in(f.ty, &mut used);
                }
            }
            let mut added: Vec<TokenStream> = used
                .iter()
                .map(|p| {
                    let p = format_ident!("{p}");
                    quote!(#p: #traits)
                })
                .collect();
            // A field whose type borrows for one of the type's lifetimes
            // (`Cow<'a, str>`) has the traits only for some lifetimes (here
            // `'static`): the impl states it, so it holds for those.
            for f in input.variants.iter().flat_map(|v| &v.fields) {
                if needs(f) && f.gen.is_none() && borrows(input, f.ty) {
                    let ty = f.ty;
                    added.push(quote!(#ty: #traits));
                }
            }
            added
        }
    };
    if own.is_empty() && added.is_empty() {
        return TokenStream::new();
    }
    quote! { where #(#own,)* #(#added,)* }
}

/// Whether `ty` mentions one of the type's lifetime parameters and not the
/// type itself (whose traits are the impl's own: stating them of a
/// `Box<Self>` would make the impl depend on itself).
fn borrows(input: &Input, ty: &syn::Type) -> bool {
    struct Finder<'g> {
        ident: &'g syn::Ident,
        generics: &'g syn::Generics,
        lifetime: bool,
        itself: bool,
    }
    impl<'ast> syn::visit::Visit<'ast> for Finder<'_> {
        fn visit_lifetime(&mut self, l: &'ast syn::Lifetime) {
            self.lifetime |= self.generics.lifetimes().any(|p| p.lifetime == *l);
        }
        fn visit_path_segment(&mut self, s: &'ast syn::PathSegment) {
            self.itself |= s.ident == *self.ident || s.ident == "Self";
            syn::visit::visit_path_segment(self, s);
        }
    }
    let mut finder = Finder {
        ident: input.ident,
        generics: input.generics,
        lifetime: false,
        itself: false,
    };
    syn::visit::visit_type(&mut finder, ty);
    finder.lifetime && !finder.itself
}

/// `P: #traits` for each type parameter that `fields` mention, and
/// `F: #traits` for each of their types that borrows for a lifetime of the
/// type (none when the type gives its own `#[pbt(bound = "…")]`), for
/// [`with`].
pub fn params_of<'f, 'a: 'f>(
    input: &Input,
    traits: TokenStream,
    fields: impl IntoIterator<Item = &'f Field<'a>>,
) -> Option<TokenStream> {
    if input.bound.is_some() {
        return None;
    }
    let mut used = BTreeSet::new();
    let mut borrowing = Vec::new();
    for f in fields {
        input.this.params_in(f.ty, &mut used);
        if borrows(input, f.ty) {
            borrowing.push(f.ty);
        }
    }
    let predicates: Vec<TokenStream> = used
        .iter()
        .map(|p| {
            let p = format_ident!("{p}");
            quote!(#p: #traits)
        })
        .chain(borrowing.iter().map(|ty| quote!(#ty: #traits)))
        .collect();
    (!predicates.is_empty()).then(|| quote!(#(#predicates),*))
}

/// `T<…>: Clone`, spanned on the type's name: a derived impl that clones
/// whole values states it once, so a type without `Clone` gets one error
/// there instead of one per use.
pub fn self_clone(input: &Input) -> TokenStream {
    let ident = input.ident;
    let (_, ty_generics, _) = input.generics.split_for_impl();
    quote_spanned! {ident.span()=> #ident #ty_generics: ::core::clone::Clone }
}

/// `where_clause` (or an earlier `with`) plus the predicates `extra`,
/// ending in a comma so that another `with` may follow.
pub fn with(clause: TokenStream, extra: TokenStream) -> TokenStream {
    if clause.is_empty() {
        quote! { where #extra, }
    } else {
        quote! { #clause #extra, }
    }
}

//! The environment as generated code sees it.
//!
//! After `forall x: A; forall y: B` the environment is the cons list
//! `(B, (A, ()))`, newest variable first. A use site is a closure
//! `|__env: &(B, (A, ()))| { … }` that destructures the list into hidden
//! slots and then binds each variable by its name, oldest first (so a
//! variable quantified twice is shadowed as `let` would shadow it); a
//! `#[property_test]` parameter written as a pattern binds the names in it.

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::{format_ident, quote, ToTokens};
use syn::ext::IdentExt;
use syn::visit::Visit;
use syn::{Pat, Type};

/// A quantified variable as the environment knows it.
#[derive(Clone, Copy)]
pub struct Var<'a> {
    pub name: Binder<'a>,
    pub ty: &'a Type,
}

/// What binds a variable: a name (`forall x`, a parameter `x`, `mut x` or
/// `ref x`), or the pattern of a `#[property_test]` parameter such as
/// `(a, b): (u8, u8)` or `_: u8`, which binds the names in it.
#[derive(Clone, Copy)]
pub enum Binder<'a> {
    Name(&'a Ident),
    Pattern(&'a Pat),
}

impl Binder<'_> {
    /// The variable as a report prints it: its name, or the pattern as
    /// written (`(a, b)`, `_`).
    pub fn label(&self) -> String {
        match self {
            Binder::Name(name) => name.unraw().to_string(),
            Binder::Pattern(pat) => crate::expand::tokens_as_written(pat.to_token_stream()),
        }
    }

    /// Where the user wrote it.
    pub fn span(&self) -> Span {
        match self {
            Binder::Name(name) => name.span(),
            Binder::Pattern(pat) => syn::spanned::Spanned::span(pat),
        }
    }

    /// The names it binds.
    fn names(&self) -> Vec<&Ident> {
        struct Names<'p>(Vec<&'p Ident>);
        impl<'p> Visit<'p> for Names<'p> {
            fn visit_pat_ident(&mut self, p: &'p syn::PatIdent) {
                self.0.push(&p.ident);
                syn::visit::visit_pat_ident(self, p);
            }
        }
        match self {
            Binder::Name(name) => vec![name],
            Binder::Pattern(pat) => {
                let mut names = Names(Vec::new());
                names.visit_pat(pat);
                names.0
            }
        }
    }

    /// Whether it binds a variable called `ident`.
    fn binds(&self, ident: &Ident) -> bool {
        self.names().iter().any(|name| name.unraw() == *ident)
    }

    /// `let`s that bind its names in a use site from `slot` (a reference to
    /// the environment's value): a name directly; a pattern first against
    /// the reference, without its `&`s, `mut`s and `ref`s (the environment
    /// holds the owned value, a use site only reads it, and the default
    /// binding modes borrow every name), then each name again, by value
    /// when its type is `Copy`, as a name is.
    fn bind(&self, slot: &Ident) -> TokenStream {
        let by_name = |name: &Ident, from: &dyn ToTokens| {
            quote! {
                #[allow(unused_variables)]
                let #name = (&::pbt::__private::Bind(#from)).bind();
            }
        };
        let pat = match self {
            Binder::Name(name) => return by_name(name, slot),
            Binder::Pattern(pat) => pat,
        };
        let mut plain_pat = (*pat).clone();
        plain(&mut plain_pat);
        if matches!(plain_pat, Pat::Wild(_)) {
            return TokenStream::new();
        }
        let names = self.names().into_iter().map(|name| by_name(name, name));
        quote! {
            #[allow(unused_variables)]
            let #plain_pat = #slot;
            #(#names)*
        }
    }
}

/// `pat` with every binding plain (`mut x`, `ref x` → `x`) and no `&`
/// patterns (`&x` → `x`), for matching a reference to the value.
fn plain(pat: &mut Pat) {
    match pat {
        Pat::Ident(p) => {
            p.by_ref = None;
            p.mutability = None;
            if let Some((_, sub)) = &mut p.subpat {
                plain(sub);
            }
        }
        Pat::Reference(r) => {
            let mut inner = (*r.pat).clone();
            plain(&mut inner);
            *pat = inner;
        }
        Pat::Tuple(t) => t.elems.iter_mut().for_each(plain),
        Pat::TupleStruct(t) => t.elems.iter_mut().for_each(plain),
        Pat::Slice(s) => s.elems.iter_mut().for_each(plain),
        Pat::Or(o) => o.cases.iter_mut().for_each(plain),
        Pat::Struct(s) => s.fields.iter_mut().for_each(|f| plain(&mut f.pat)),
        Pat::Paren(p) => plain(&mut p.pat),
        Pat::Type(t) => plain(&mut t.pat),
        _ => {}
    }
}

/// The variables bound before a use site, oldest first.
pub struct Env<'a> {
    vars: &'a [Var<'a>],
}

/// How a use site sees the variables.
#[derive(Clone, Copy)]
pub enum Binding {
    /// By name: `Copy` variables by value, others by reference (annotations,
    /// implications, the check of `property!`).
    ByName,
    /// Only through the hidden slots, as references (the check of
    /// `#[property_test]`, which clones them into the user's function).
    Slots,
}

/// A hidden identifier: `mixed_site`, so user code can neither see nor
/// capture it.
pub fn hidden(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

/// The hidden slot of the `i`-th variable.
fn slot(i: usize) -> Ident {
    format_ident!("__v{}", i, span = Span::mixed_site())
}

impl<'a> Env<'a> {
    /// The environment made of `vars`.
    pub fn new(vars: &'a [Var<'a>]) -> Self {
        Env { vars }
    }

    /// The slots, in quantification order.
    pub fn slots(&self) -> impl Iterator<Item = Ident> {
        (0..self.vars.len()).map(slot)
    }

    /// The environment's type: `(B, (A, ()))`.
    pub fn ty(&self) -> TokenStream {
        self.vars.iter().fold(quote!(()), |inner, var| {
            let ty = var.ty;
            quote!((#ty, #inner))
        })
    }

    /// The pattern that takes the list apart: `(__v1, (__v0, ()))`.
    fn pattern(&self) -> TokenStream {
        self.slots()
            .fold(quote!(()), |inner, slot| quote!((#slot, #inner)))
    }

    /// A closure over this environment whose body is `prelude`, the
    /// bindings, then `body`. `prelude` is for items (`use`) that the
    /// variables must shadow.
    pub fn closure(
        &self,
        binding: Binding,
        ret: Option<TokenStream>,
        prelude: TokenStream,
        body: TokenStream,
    ) -> TokenStream {
        self.closure_with(TokenStream::new(), binding, ret, prelude, body)
    }

    /// [`Env::closure`] with more parameters after the environment.
    pub fn closure_with(
        &self,
        params: TokenStream,
        binding: Binding,
        ret: Option<TokenStream>,
        prelude: TokenStream,
        body: TokenStream,
    ) -> TokenStream {
        let env = hidden("__env");
        let ty = self.ty();
        let ret = ret.map(|ty| quote!(-> #ty));
        let params = (!params.is_empty()).then(|| quote!(, #params));
        if self.vars.is_empty() {
            return quote!(|#env: &#ty #params| #ret { #prelude #body });
        }
        let pattern = self.pattern();
        let names = match binding {
            Binding::ByName => self.bind_by_name(),
            Binding::Slots => TokenStream::new(),
        };
        quote! {
            |#env: &#ty #params| #ret {
                #prelude
                let #pattern = #env;
                #names
                #body
            }
        }
    }

    /// `let x = (&Bind(__v0)).bind();` for each variable: by value when its
    /// type is `Copy`, by reference otherwise (autoref specialisation; the
    /// traits are imported once at the top of the expansion).
    fn bind_by_name(&self) -> TokenStream {
        self.vars
            .iter()
            .zip(self.slots())
            .map(|(var, slot)| var.name.bind(&slot))
            .collect()
    }

    /// Whether `tokens` mention any variable of this environment by name.
    /// A conservative test (a field or method of the same name counts too):
    /// a generator that does not read the environment is never regenerated
    /// when an earlier variable changes.
    pub fn read_by(&self, tokens: TokenStream) -> bool {
        tokens.into_iter().any(|tree| match tree {
            TokenTree::Ident(ident) => {
                let ident = ident.unraw();
                self.vars.iter().any(|var| var.name.binds(&ident))
            }
            TokenTree::Group(group) => self.read_by(group.stream()),
            TokenTree::Punct(_) | TokenTree::Literal(_) => false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn the_environment_is_a_cons_list_newest_first() {
        let (x, y): (Ident, Ident) = (parse_quote!(x), parse_quote!(y));
        let (a, b): (Type, Type) = (parse_quote!(A), parse_quote!(Vec<B>));
        let vars = [
            Var {
                name: Binder::Name(&x),
                ty: &a,
            },
            Var {
                name: Binder::Name(&y),
                ty: &b,
            },
        ];
        let env = Env::new(&vars);
        assert_eq!(env.ty().to_string(), quote!((Vec<B>, (A, ()))).to_string());
        assert_eq!(env.pattern().to_string(), "(__v1 , (__v0 , ()))");
        assert_eq!(Env::new(&[]).ty().to_string(), "()");
    }

    #[test]
    fn reading_the_environment_is_found_inside_groups_and_raw_identifiers() {
        let (n, a): (Ident, Type) = (parse_quote!(n), parse_quote!(u32));
        let vars = [Var {
            name: Binder::Name(&n),
            ty: &a,
        }];
        let env = Env::new(&vars);
        assert!(env.read_by(quote!(vec(int(0..n), 0..5))));
        assert!(env.read_by(quote!(int(0..=r#n))));
        assert!(!env.read_by(quote!(vec(int(0..10u32), 0..5))));
        assert!(!Env::new(&[]).read_by(quote!(n)));
    }
}

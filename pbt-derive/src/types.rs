//! What the derive can tell about a field's type from its syntax: whether it
//! is a leaf (cannot contain a user type), how many copies of the deriving
//! type it must contain, where those copies sit, and which generic
//! parameters it uses.
//!
//! Types are recognised by their last path segment (`Box`, `std::boxed::Box`
//! and `::std::boxed::Box` alike), as derives do.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, ToTokens};
use std::collections::BTreeSet;
use syn::visit::Visit;
use syn::{GenericArgument, GenericParam, Generics, PathArguments, Type};

/// The deriving type, as field types may name it.
pub struct SelfTy {
    ident: Ident,
    /// The generic parameters in order (`K`, `V`, `'a`, `N`), as written in
    /// `Tree<K, V>`.
    args: Vec<String>,
    /// The type parameters alone.
    pub params: Vec<Ident>,
}

impl SelfTy {
    /// The type `ident` with `generics`.
    pub fn new(ident: &Ident, generics: &Generics) -> Self {
        let args = generics
            .params
            .iter()
            .map(|p| match p {
                GenericParam::Type(t) => t.ident.to_string(),
                GenericParam::Lifetime(l) => l.lifetime.to_string(),
                GenericParam::Const(c) => c.ident.to_string(),
            })
            .collect();
        let params = generics.type_params().map(|t| t.ident.clone()).collect();
        SelfTy {
            ident: ident.clone(),
            args,
            params,
        }
    }

    /// Whether `ty` is the deriving type itself: `Self`, or its name with
    /// its own parameters in order.
    pub fn is(&self, ty: &Type) -> bool {
        let Some(path) = plain_path(ty) else {
            return false;
        };
        if path.is_ident("Self") {
            return true;
        }
        let Some(last) = path.segments.last() else {
            return false;
        };
        if last.ident != self.ident {
            return false;
        }
        let written: Vec<String> = match &last.arguments {
            PathArguments::None => Vec::new(),
            PathArguments::AngleBracketed(a) => a
                .args
                .iter()
                .map(|arg| arg.to_token_stream().to_string())
                .collect(),
            PathArguments::Parenthesized(_) => return false,
        };
        written == self.args
    }

    /// Whether `ty` cannot contain any user type: primitives, `String`, the
    /// type parameters (instantiated with finite types), `PhantomData`, and
    /// std containers, tuples and arrays of leaves.
    pub fn is_leaf(&self, ty: &Type) -> bool {
        match ty {
            Type::Paren(p) => self.is_leaf(&p.elem),
            Type::Group(g) => self.is_leaf(&g.elem),
            Type::Tuple(t) => t.elems.iter().all(|e| self.is_leaf(e)),
            Type::Array(a) => self.is_leaf(&a.elem),
            Type::Slice(s) => self.is_leaf(&s.elem),
            Type::Path(_) => {
                let Some(path) = plain_path(ty) else {
                    return false;
                };
                if path.segments.len() == 1 && self.params.iter().any(|p| path.is_ident(p)) {
                    return true;
                }
                let Some(last) = path.segments.last() else {
                    return false;
                };
                let name = last.ident.to_string();
                if PRIMITIVES.contains(&name.as_str()) || name == "PhantomData" {
                    return true;
                }
                CONTAINERS.contains(&name.as_str()) && type_args(ty).iter().all(|a| self.is_leaf(a))
            }
            _ => false,
        }
    }

    /// How many values of the deriving type `ty` must hold: `Self` counts
    /// one, `Box`/`Rc`/`Arc` and tuples add up, arrays multiply; `Option`
    /// and collections may be empty and count none. `None` when it cannot
    /// tell (an array of non-literal length holding the type).
    pub fn mandatory(&self, ty: &Type) -> Option<usize> {
        if self.is(ty) {
            return Some(1);
        }
        match ty {
            Type::Paren(p) => self.mandatory(&p.elem),
            Type::Group(g) => self.mandatory(&g.elem),
            Type::Tuple(t) => t
                .elems
                .iter()
                .try_fold(0usize, |acc, e| Some(acc + self.mandatory(e)?)),
            Type::Array(a) => match self.mandatory(&a.elem)? {
                0 => Some(0),
                k => array_len(&a.len).map(|n| n * k),
            },
            _ => match pointer(ty) {
                Some(inner) => self.mandatory(inner),
                None => Some(0),
            },
        }
    }

    /// An iterator expression over the `&Self` values inside `expr` (a
    /// `&ty`), or `None` when `ty` holds none that the derive can reach
    /// (`Self`, pointers, `Option`, sequences, tuples and arrays of them).
    pub fn children(&self, ty: &Type, expr: TokenStream, depth: usize) -> Option<TokenStream> {
        if self.is(ty) {
            return Some(quote! { ::core::iter::once(#expr) });
        }
        let x = format_ident!("__pbt_x{depth}");
        match ty {
            Type::Paren(p) => self.children(&p.elem, expr, depth),
            Type::Group(g) => self.children(&g.elem, expr, depth),
            Type::Tuple(t) => {
                let parts: Vec<TokenStream> = t
                    .elems
                    .iter()
                    .enumerate()
                    .filter_map(|(i, e)| {
                        let i = syn::Index::from(i);
                        self.children(e, quote!(&(#expr).#i), depth + 1)
                    })
                    .collect();
                let (first, rest) = parts.split_first()?;
                Some(rest.iter().fold(first.clone(), |acc, r| {
                    quote! { ::core::iter::Iterator::chain(#acc, #r) }
                }))
            }
            Type::Array(a) => {
                let inner = self.children(&a.elem, quote!(#x), depth + 1)?;
                Some(quote! { ::core::iter::Iterator::flat_map((#expr).iter(), move |#x| #inner) })
            }
            _ => {
                if let Some(inner) = pointer(ty) {
                    return self.children(inner, quote!(&**(#expr)), depth + 1);
                }
                let name = last_ident(ty)?;
                let [elem] = type_args(ty)[..] else {
                    return None;
                };
                if !matches!(
                    name.as_str(),
                    "Option" | "Vec" | "VecDeque" | "LinkedList" | "BTreeSet" | "HashSet"
                ) {
                    return None;
                }
                let inner = self.children(elem, quote!(#x), depth + 1)?;
                Some(quote! { ::core::iter::Iterator::flat_map((#expr).iter(), move |#x| #inner) })
            }
        }
    }

    /// Where a value of the deriving type can be put in a field of type
    /// `ty`: for `Box<Self>` (and `Rc`, `Arc`, nested), `Option<…>` of one,
    /// and `Vec<…>`, `VecDeque<…>` or `LinkedList<…>` of one, the
    /// expression building the field from `value`.
    pub fn slot(&self, ty: &Type, value: TokenStream) -> Option<TokenStream> {
        if let Some(chain) = self.chain(ty, value.clone()) {
            return Some(chain);
        }
        let name = last_ident(ty)?;
        let [elem] = type_args(ty)[..] else {
            return None;
        };
        let inner = self.chain(elem, value)?;
        match name.as_str() {
            "Option" => Some(quote! { ::core::option::Option::Some(#inner) }),
            "Vec" | "VecDeque" | "LinkedList" => Some(quote! {
                ::core::iter::FromIterator::from_iter(::core::iter::once(#inner))
            }),
            _ => None,
        }
    }

    /// `Self` behind zero or more `Box`/`Rc`/`Arc`, built from `value`.
    fn chain(&self, ty: &Type, value: TokenStream) -> Option<TokenStream> {
        if self.is(ty) {
            return Some(value);
        }
        let inner = self.chain(pointer(ty)?, value)?;
        Some(quote! { ::core::convert::From::from(#inner) })
    }

    /// The type parameters `ty` mentions outside `PhantomData`.
    pub fn params_in(&self, ty: &Type, out: &mut BTreeSet<String>) {
        struct Finder<'a> {
            params: &'a [Ident],
            out: &'a mut BTreeSet<String>,
        }
        impl<'ast> Visit<'ast> for Finder<'_> {
            fn visit_type_path(&mut self, p: &'ast syn::TypePath) {
                if p.path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "PhantomData")
                {
                    return;
                }
                if p.qself.is_none() {
                    if let Some(first) = p.path.segments.first() {
                        if self.params.contains(&first.ident) {
                            self.out.insert(first.ident.to_string());
                        }
                    }
                }
                syn::visit::visit_type_path(self, p);
            }
        }
        Finder {
            params: &self.params,
            out,
        }
        .visit_type(ty);
    }
}

/// Types with no user type inside.
const PRIMITIVES: &[&str] = &[
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32",
    "f64", "bool", "char", "String", "Duration",
];

/// std containers: a leaf when their type arguments are.
const CONTAINERS: &[&str] = &[
    "Vec",
    "VecDeque",
    "LinkedList",
    "BTreeSet",
    "HashSet",
    "BinaryHeap",
    "BTreeMap",
    "HashMap",
    "Option",
    "Result",
    "Box",
    "Rc",
    "Arc",
];

/// A path type without a qualified self (`<T as Tr>::X` is never matched).
fn plain_path(ty: &Type) -> Option<&syn::Path> {
    match ty {
        Type::Path(p) if p.qself.is_none() => Some(&p.path),
        Type::Paren(p) => plain_path(&p.elem),
        Type::Group(g) => plain_path(&g.elem),
        _ => None,
    }
}

/// The last segment's name of a path type.
pub fn last_ident(ty: &Type) -> Option<String> {
    plain_path(ty)?.segments.last().map(|s| s.ident.to_string())
}

/// The type arguments of a path type's last segment.
pub fn type_args(ty: &Type) -> Vec<&Type> {
    let Some(last) = plain_path(ty).and_then(|p| p.segments.last()) else {
        return Vec::new();
    };
    match &last.arguments {
        PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|arg| match arg {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The pointee of `Box<T>`, `Rc<T>` or `Arc<T>`.
pub fn pointer(ty: &Type) -> Option<&Type> {
    let name = last_ident(ty)?;
    if !matches!(name.as_str(), "Box" | "Rc" | "Arc") {
        return None;
    }
    match type_args(ty)[..] {
        [inner] => Some(inner),
        _ => None,
    }
}

/// The length of an array type when it is an integer literal.
fn array_len(len: &syn::Expr) -> Option<usize> {
    match len {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(n),
            ..
        }) => n.base10_parse().ok(),
        _ => None,
    }
}

/// Whether a field of type `ty` has exactly one value (`()`,
/// `PhantomData`), so mutating it cannot change anything.
pub fn is_unit(ty: &Type) -> bool {
    match ty {
        Type::Tuple(t) => t.elems.iter().all(is_unit),
        Type::Paren(p) => is_unit(&p.elem),
        Type::Group(g) => is_unit(&g.elem),
        _ => last_ident(ty).is_some_and(|n| n == "PhantomData"),
    }
}

/// Whether `ty` is `PhantomData<…>`, built without drawing.
pub fn is_phantom(ty: &Type) -> bool {
    last_ident(ty).is_some_and(|n| n == "PhantomData")
}

/// Why a field of type `ty` cannot be generated by type, if it cannot: a
/// borrowed, raw-pointer, function, trait-object or `impl` type anywhere
/// inside it.
pub fn unsupported(ty: &Type) -> Option<(&'static str, Type)> {
    struct Finder(Option<(&'static str, Type)>);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_type(&mut self, ty: &'ast Type) {
            if self.0.is_some() {
                return;
            }
            let what = match ty {
                Type::Reference(_) => "a reference",
                Type::Ptr(_) => "a raw pointer",
                Type::BareFn(_) => "a function pointer",
                Type::TraitObject(_) => "a trait object",
                Type::ImplTrait(_) => "an `impl Trait` type",
                Type::Never(_) => "the never type `!`",
                Type::Infer(_) => "`_`",
                _ => return syn::visit::visit_type(self, ty),
            };
            self.0 = Some((what, ty.clone()));
        }
    }
    let mut finder = Finder(None);
    finder.visit_type(ty);
    finder.0
}

/// Whether `tokens` mention the identifier `name` anywhere.
pub fn mentions(tokens: &TokenStream, name: &Ident) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i == *name,
        proc_macro2::TokenTree::Group(g) => mentions(&g.stream(), name),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::SelfTy;
    use syn::parse_quote;

    fn tree() -> SelfTy {
        let generics: syn::Generics = parse_quote!(<K, V>);
        SelfTy::new(&parse_quote!(Tree), &generics)
    }

    #[test]
    fn recognises_itself() {
        let t = tree();
        assert!(t.is(&parse_quote!(Tree<K, V>)));
        assert!(t.is(&parse_quote!(Self)));
        assert!(!t.is(&parse_quote!(Tree<V, K>)));
        assert!(!t.is(&parse_quote!(Tree)));
    }

    #[test]
    fn leaves_and_counts() {
        let t = tree();
        assert!(t.is_leaf(&parse_quote!(Vec<(K, String)>)));
        assert!(!t.is_leaf(&parse_quote!(Vec<Point>)));
        assert!(!t.is_leaf(&parse_quote!(Option<Box<Tree<K, V>>>)));
        assert_eq!(t.mandatory(&parse_quote!(Box<Tree<K, V>>)), Some(1));
        assert_eq!(t.mandatory(&parse_quote!((Box<Self>, Rc<Self>))), Some(2));
        assert_eq!(t.mandatory(&parse_quote!([Box<Self>; 3])), Some(3));
        assert_eq!(t.mandatory(&parse_quote!([Box<Self>; N])), None);
        assert_eq!(t.mandatory(&parse_quote!(Option<Box<Self>>)), Some(0));
    }
}

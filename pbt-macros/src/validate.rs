//! Checking the parsed input and resolving it into a [`Model`]: the chain of
//! variables and preconditions and the check, with each variable's
//! annotations sorted out. Every mistake is recorded with the user's span;
//! all of them are reported together.

use crate::ast::{Clause, PropertyInput};
use crate::env::{Binder, Var};
use pbt_stage::errors::{written, Errors};
use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, FnArg, Ident, ItemFn, Meta, Pat, ReturnType, Type};

/// The valid annotations, as listed in error messages.
const ANNOTATIONS: &str =
    "`#[with = …]` (or `#[gen = …]`), `#[shrink = …]`, `#[print = …]`, `#[mutate = …]`, `#[target = …]`";

/// Lint attributes, which a `#[property_test]` parameter may carry through
/// to the user's function.
const LINTS: [&str; 5] = ["allow", "warn", "deny", "forbid", "expect"];

/// A property, checked: nodes in order, then the check.
pub struct Model<'a> {
    pub nodes: Vec<Node<'a>>,
    pub check: Check<'a>,
    /// Variables whose type is written `Data`, taken or annotated in a way
    /// that pbt's `Data` is not: checked by type, so that another type
    /// called `Data` is left alone.
    pub data_misuses: Vec<DataMisuse<'a>>,
}

/// A variable whose type is written `Data` (`Data`, `pbt::Data`, `&Data`,
/// …), used as pbt's `Data` may not be.
pub struct DataMisuse<'a> {
    /// The type as the property generates it.
    pub ty: &'a Type,
    /// Where the mistake is.
    pub span: Span,
    /// Taken by value or by shared reference (`true`), or annotated.
    pub not_mut_ref: bool,
}

/// Whether `ty` is written as a path ending in `Data` with no arguments.
fn named_data(ty: &Type) -> bool {
    match ty {
        Type::Path(p) if p.qself.is_none() => p
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "Data" && s.arguments.is_empty()),
        Type::Paren(p) => named_data(&p.elem),
        Type::Group(g) => named_data(&g.elem),
        _ => false,
    }
}

/// A `Data` variable with an annotation: the first annotation's span.
fn annotated_data<'a>(ty: &'a Type, annotations: &Annotations<'a>) -> Option<DataMisuse<'a>> {
    let (_, first) = annotations.iter().next()?;
    named_data(ty).then(|| DataMisuse {
        ty,
        span: first.span(),
        not_mut_ref: false,
    })
}

/// A `forall` or an `implies`.
pub enum Node<'a> {
    Forall(Var<'a>, Annotations<'a>),
    /// The condition, and the span of its `implies` keyword.
    Implies(&'a Expr, Span),
}

/// The final check.
pub enum Check<'a> {
    /// `check expr` of `property!`.
    Expr(&'a Expr),
    /// The function under `#[property_test]`, called with the variables
    /// (each as its parameter takes it); `output` is its return type (for
    /// error spans).
    Call {
        func: &'a Ident,
        output: Span,
        passing: Vec<Passing>,
    },
}

/// How the check hands a generated value to a parameter of the function
/// under `#[property_test]`.
#[derive(Clone, Copy)]
pub enum Passing {
    /// `x: T`: a clone (the runner keeps the original for shrinking).
    Owned,
    /// `x: &T`, `&str`, `&[T]`: a shared borrow of the value (`&String`
    /// and `&Vec<T>` coerce to `&str` and `&[T]` at the call).
    Shared,
    /// `x: &mut T`, `&mut str`, `&mut [T]`: a mutable borrow of a clone
    /// (of a handle to the property's own `Data`, for `&mut Data`).
    Exclusive,
}

impl Passing {
    /// The argument for the slot `slot` (a `&T` to the generated value).
    pub fn arg(self, slot: &Ident) -> proc_macro2::TokenStream {
        match self {
            Passing::Owned => quote::quote!(::core::clone::Clone::clone(#slot)),
            Passing::Shared => quote::quote!(#slot),
            // A clone, or for a `Data` a handle to the property's own.
            Passing::Exclusive => quote::quote!(&mut (&::pbt::__private::Lend(#slot)).lend()),
        }
    }
}

/// The annotations a variable may carry.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Gen,
    Shrink,
    Print,
    Mutate,
    /// Not a builder method: a `Target` node after the variable.
    Target,
}

impl Kind {
    /// All of them, in the order the `Forall` builder takes them (`gen`
    /// first: it resets the shrinker to the generator's choices).
    pub const ALL: [Kind; 5] = [
        Kind::Gen,
        Kind::Shrink,
        Kind::Print,
        Kind::Mutate,
        Kind::Target,
    ];

    /// The kind an annotation's name gives: `with` and `gen` are two
    /// spellings of the generator (`gen` is a reserved word in edition 2024,
    /// where rustc rejects `#[gen = …]` on a parameter before the macro runs).
    pub fn named(name: &str) -> Option<Kind> {
        match name {
            "with" => Some(Kind::Gen),
            _ => Kind::ALL.into_iter().find(|kind| kind.name() == name),
        }
    }

    /// The annotation's name, which is also the builder method's.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Gen => "gen",
            Kind::Shrink => "shrink",
            Kind::Print => "print",
            Kind::Mutate => "mutate",
            Kind::Target => "target",
        }
    }
}

/// A variable's annotations, each an expression of the earlier variables.
#[derive(Default)]
pub struct Annotations<'a>([Option<&'a Expr>; 5]);

impl<'a> Annotations<'a> {
    /// The annotation of this kind, if given.
    pub fn get(&self, kind: Kind) -> Option<&'a Expr> {
        self.0[kind as usize]
    }

    /// The annotations given, in builder order.
    pub fn iter(&self) -> impl Iterator<Item = (Kind, &'a Expr)> + '_ {
        Kind::ALL
            .into_iter()
            .filter_map(|kind| Some((kind, self.get(kind)?)))
    }
}

impl<'a> Model<'a> {
    /// The variables, in quantification order.
    pub fn vars(&self) -> impl Iterator<Item = &Var<'a>> {
        self.nodes.iter().filter_map(|node| match node {
            Node::Forall(var, _) => Some(var),
            Node::Implies(..) => None,
        })
    }
}

/// Check `property! { … }`: one `check`, last; annotations known and not
/// repeated.
pub fn property(input: &PropertyInput) -> syn::Result<Model<'_>> {
    let mut errors = Errors::default();
    let mut nodes = Vec::new();
    let mut data_misuses = Vec::new();
    let mut check = None;
    for clause in &input.clauses {
        if check.is_some() {
            let what = match clause {
                Clause::Forall(_) => {
                    "`forall` after `check`: quantify every variable before the check"
                }
                Clause::Implies(_) => {
                    "`implies` after `check`: state every precondition before the check"
                }
                Clause::Check(_) => "a second `check`: a property has exactly one, at its end",
            };
            errors.at(clause.keyword(), what);
            continue;
        }
        match clause {
            Clause::Forall(forall) => {
                let annotations = annotations(&forall.annotations, &mut errors);
                let var = Var {
                    name: Binder::Name(&forall.name),
                    ty: &forall.ty,
                };
                data_misuses.extend(annotated_data(&forall.ty, &annotations));
                staged_gen(&var, &annotations, &mut errors);
                nodes.push(Node::Forall(var, annotations));
            }
            Clause::Implies(implies) => {
                nodes.push(Node::Implies(&implies.expr, implies.implies.span))
            }
            Clause::Check(c) => check = Some(Check::Expr(&c.expr)),
        }
    }
    let Some(check) = check else {
        let (span, after) = match input.clauses.last() {
            Some(last) => (last.keyword(), " after this clause"),
            None => (Span::call_site(), ""),
        };
        let message = format!("missing `check`{after}: a property ends with `check EXPR`");
        return Err(errors.fail(syn::Error::new(span, message)));
    };
    errors.finish(Model {
        nodes,
        check,
        data_misuses,
    })
}

/// Check the function under `#[property_test]`: not generic, not `async`,
/// no receiver, each parameter with known annotations.
pub fn property_test<'a>(
    item: &'a ItemFn,
    owned: &'a [Option<Type>],
    errors: &mut Errors,
) -> Model<'a> {
    let sig = &item.sig;
    let unsupported = [
        (sig.asyncness.map(|t| t.span), "`async fn`: a property is run synchronously; block on the future inside the function instead"),
        (sig.unsafety.map(|t| t.span), "`unsafe fn`: the property calls the function on every test case"),
        (sig.variadic.as_ref().map(Spanned::span), "variadic parameters"),
    ];
    for (span, what) in unsupported {
        if let Some(span) = span {
            errors.at(span, format!("#[property_test] does not support {what}"));
        }
    }
    let generic = "#[property_test] functions cannot be generic: every parameter needs a concrete type to generate";
    if !sig.generics.params.is_empty() {
        errors.push(syn::Error::new_spanned(&sig.generics, generic));
    } else if let Some(clause) = &sig.generics.where_clause {
        errors.push(syn::Error::new_spanned(clause, generic));
    }
    let mut nodes = Vec::new();
    let mut passing = Vec::new();
    let mut data_misuses = Vec::new();
    for (input, owned) in sig.inputs.iter().zip(owned) {
        match input {
            FnArg::Receiver(receiver) => errors.push(syn::Error::new_spanned(
                receiver,
                "#[property_test] does not take `self`: write a free function whose parameters are the quantified variables",
            )),
            FnArg::Typed(param) => {
                let pbt = param.attrs.iter().filter(|attr| !is_lint(attr));
                let annotations = annotations(pbt, errors);
                if let Type::ImplTrait(ty) = &*param.ty {
                    errors.push(syn::Error::new_spanned(
                        ty,
                        "#[property_test] parameters need a concrete type to generate, not `impl Trait`",
                    ));
                }
                // `x`, `mut x` and `ref x` are named `x`; any other pattern
                // (`(a, b)`, `_`, `&x`) by itself, and the function
                // destructures the value as it would any argument.
                let name = match &*param.pat {
                    Pat::Ident(pat) if pat.subpat.is_none() => Binder::Name(&pat.ident),
                    pat => Binder::Pattern(pat),
                };
                let var = Var {
                    name,
                    ty: owned.as_ref().unwrap_or(&param.ty),
                };
                let passed = match &*param.ty {
                    Type::Reference(r) if crate::ast::is_static(r) => Passing::Owned,
                    Type::Reference(r) if r.mutability.is_some() => Passing::Exclusive,
                    Type::Reference(_) => Passing::Shared,
                    _ => Passing::Owned,
                };
                passing.push(passed);
                if named_data(var.ty) && !matches!(passed, Passing::Exclusive) {
                    data_misuses.push(DataMisuse {
                        ty: var.ty,
                        span: param.ty.span(),
                        not_mut_ref: true,
                    });
                }
                data_misuses.extend(annotated_data(var.ty, &annotations));
                if annotations.get(Kind::Gen).is_none() {
                    if let Some(borrow) = crate::ast::nested_borrow(&param.ty) {
                        errors.push(nested_borrow_error(&param.ty, borrow));
                    }
                }
                staged_gen(&var, &annotations, errors);
                nodes.push(Node::Forall(var, annotations));
            }
        }
    }
    let output = match &sig.output {
        ReturnType::Default => sig.ident.span(),
        ReturnType::Type(_, ty) => ty.span(),
    };
    let check = Check::Call {
        func: &sig.ident,
        output,
        passing,
    };
    Model {
        nodes,
        check,
        data_misuses,
    }
}

/// Parse a `#[with = …]` annotation as the staged DSL and check it against
/// the variable's type (the expansion stages it; see `pbt-stage`).
fn staged_gen(var: &Var, annotations: &Annotations, errors: &mut Errors) {
    let Some(gen) = annotations.get(Kind::Gen) else {
        return;
    };
    match staged_dsl(gen) {
        Ok(dsl) => {
            let name = var.name.label();
            if let Err(e) = pbt_stage::check_target(&dsl, var.ty, &name) {
                errors.push(e);
            }
        }
        Err(e) => errors.push(e),
    }
}

/// The DSL of a `#[with = …]` annotation.
pub fn staged_dsl(gen: &Expr) -> syn::Result<pbt_stage::Dsl> {
    syn::parse2(pbt_stage::normalize(quote::ToTokens::to_token_stream(gen)))
}

/// Whether `attr` is a lint attribute (`#[allow(…)]` and friends).
pub fn is_lint(attr: &Attribute) -> bool {
    attr.path()
        .get_ident()
        .is_some_and(|ident| LINTS.iter().any(|lint| ident == lint))
}

/// Resolve `#[with = …]` (or `#[gen = …]`), `#[shrink = …]`, `#[print = …]` and `#[mutate = …]`.
pub fn annotations<'a>(
    attrs: impl IntoIterator<Item = &'a Attribute>,
    errors: &mut Errors,
) -> Annotations<'a> {
    let mut found = Annotations::default();
    for attr in attrs {
        let path = attr.path();
        let name = path
            .get_ident()
            .map(|ident| ident.unraw().to_string())
            .unwrap_or_default();
        let Some(kind) = Kind::named(&name) else {
            errors.push(syn::Error::new_spanned(
                path,
                format!(
                    "unknown annotation `#[{}]`{}\nthe annotations are {ANNOTATIONS}",
                    written(path),
                    pbt_stage::suggest::did_you_mean(
                        &name,
                        ["with", "gen", "shrink", "print", "mutate", "target"]
                    )
                ),
            ));
            continue;
        };
        let Meta::NameValue(value) = &attr.meta else {
            errors.push(syn::Error::new_spanned(
                attr,
                format!("expected `#[{name} = EXPR]`"),
            ));
            continue;
        };
        if found.0[kind as usize].replace(&value.value).is_some() {
            let message = if kind == Kind::Gen {
                format!("a second generator `#[{name}]`: a variable has one (`#[with = …]` and `#[gen = …]` are the same annotation)")
            } else {
                format!("duplicate annotation `#[{name}]`: a variable has at most one")
            };
            errors.push(syn::Error::new_spanned(path, message));
        }
    }
    found
}

/// A parameter whose type borrows inside (`Option<&str>`, `Vec<&[u8]>`):
/// pbt generates owned values, and only a top-level `&T` is generated as
/// `T` and lent to the function.
fn nested_borrow_error(ty: &Type, borrow: &syn::TypeReference) -> syn::Error {
    let elem = crate::expand::type_name(&borrow.elem);
    let owned = match &*borrow.elem {
        Type::Path(p) if p.path.is_ident("str") => "String".to_owned(),
        Type::Slice(s) => format!("Vec<{}>", crate::expand::type_name(&s.elem)),
        _ => elem.clone(),
    };
    let whole = crate::expand::type_name(ty);
    let inner = crate::expand::type_name(&Type::Reference(borrow.clone()));
    let owned_whole = whole.replacen(&inner, &owned, 1);
    let static_whole = whole.replacen(&inner, &format!("&'static {elem}"), 1);
    syn::Error::new_spanned(
        borrow,
        format!(
            "`{whole}` borrows a `{elem}`, and pbt generates owned values: it lends only a whole \
             parameter (`x: &{elem}`). Take `{owned_whole}` and borrow inside (`as_deref()`, \
             `as_ref()`), or `{static_whole}` with a generator: `#[with = …]`"
        ),
    )
}

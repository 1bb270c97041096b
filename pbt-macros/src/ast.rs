//! The macros' input as a small IR that keeps the original syn nodes, so
//! every later error and every emitted token can point at what the user
//! wrote.
//!
//! Parsing is lenient about meaning and strict about syntax: annotation
//! names, the position of `check` and the like are checked by
//! [`crate::validate`], which collects all such mistakes at once.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Ident, Item, ItemFn, Token, Type};

/// The keywords of `property!`.
mod kw {
    syn::custom_keyword!(forall);
    syn::custom_keyword!(implies);
    syn::custom_keyword!(check);
}

/// The body of `property! { … }`: clauses separated by `;`.
pub struct PropertyInput {
    pub clauses: Vec<Clause>,
}

/// One clause of `property!`.
pub enum Clause {
    Forall(Forall),
    Implies(Implies),
    Check(Check),
}

/// `forall name: ty, #[annotation = …], …`
pub struct Forall {
    pub forall: kw::forall,
    pub name: Ident,
    pub ty: Type,
    /// The annotations as written; [`crate::validate`] reads them.
    pub annotations: Vec<Attribute>,
}

/// `implies expr`
pub struct Implies {
    pub implies: kw::implies,
    pub expr: Expr,
}

/// `check expr`
pub struct Check {
    pub check: kw::check,
    pub expr: Expr,
}

/// The item under `#[property_test]`: a function (anything else is an error).
pub struct TestFn {
    pub item: ItemFn,
    /// For each parameter, the owned type generated for it when it is a
    /// borrow (`&str` → `String`, `&[T]` → `Vec<T>`, `&T` and `&mut T` → `T`).
    pub owned: Vec<Option<Type>>,
}

/// The owned type to generate for a parameter of type `ty`, when `ty` is a
/// reference; the check passes the value by reference (a `&mut` to a clone).
/// A `&'static T` is generated as it is (`choose(&["GET", "POST"])` makes
/// `&'static str`s), and passed by value.
pub fn owned(ty: &Type) -> Option<Type> {
    let Type::Reference(r) = ty else { return None };
    if is_static(r) {
        return None;
    }
    Some(match &*r.elem {
        Type::Path(p) if p.qself.is_none() && p.path.is_ident("str") => {
            syn::parse_quote_spanned!(r.elem.span()=> ::std::string::String)
        }
        Type::Slice(slice) => {
            let elem = &slice.elem;
            syn::parse_quote_spanned!(r.elem.span()=> ::std::vec::Vec<#elem>)
        }
        elem => elem.clone(),
    })
}

/// Whether `r` is a `&'static T`.
pub fn is_static(r: &syn::TypeReference) -> bool {
    r.mutability.is_none() && r.lifetime.as_ref().is_some_and(|l| l.ident == "static")
}

/// The first reference inside `ty` (not `ty` itself) that is not
/// `&'static`: a borrow nested in a type, which no generator by type makes.
pub fn nested_borrow(ty: &Type) -> Option<&syn::TypeReference> {
    struct Find<'a>(Option<&'a syn::TypeReference>);
    impl<'a> syn::visit::Visit<'a> for Find<'a> {
        fn visit_type_reference(&mut self, r: &'a syn::TypeReference) {
            if self.0.is_none() && !is_static(r) {
                self.0 = Some(r);
            }
        }
    }
    let mut find = Find(None);
    match ty {
        Type::Reference(r) => syn::visit::visit_type(&mut find, &r.elem),
        ty => syn::visit::visit_type(&mut find, ty),
    }
    find.0
}

impl Clause {
    /// The span of the clause's keyword.
    pub fn keyword(&self) -> Span {
        match self {
            Clause::Forall(f) => f.forall.span,
            Clause::Implies(i) => i.implies.span,
            Clause::Check(c) => c.check.span,
        }
    }
}

impl Parse for PropertyInput {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut clauses = Vec::new();
        while !input.is_empty() {
            clauses.extend(clause(input)?);
            let ends_with_check = matches!(clauses.last(), Some(Clause::Check(_)));
            if input.is_empty() {
                break;
            }
            if input.peek(Token![;]) {
                input.parse::<Token![;]>()?;
                continue;
            }
            return Err(input.error(if ends_with_check {
                "unexpected tokens after the `check` expression: `check EXPR` ends the property"
            } else {
                "expected `;` after the clause"
            }));
        }
        Ok(PropertyInput { clauses })
    }
}

/// One clause, or one per variable of a `forall a: A, b: B, #[…]` clause.
fn clause(input: ParseStream) -> syn::Result<Vec<Clause>> {
    let lookahead = input.lookahead1();
    if lookahead.peek(kw::forall) {
        let mut forall: kw::forall = input.parse()?;
        let mut variables = Vec::new();
        loop {
            let (binding, more) = variable(input, forall)?;
            variables.push(Clause::Forall(binding));
            let Some(next) = more else {
                return Ok(variables);
            };
            forall = next;
        }
    } else if lookahead.peek(kw::implies) {
        Ok(vec![Clause::Implies(input.parse()?)])
    } else if lookahead.peek(kw::check) {
        Ok(vec![Clause::Check(input.parse()?)])
    } else {
        Err(lookahead.error())
    }
}

/// `NAME: TYPE` and its annotations, after `forall` (or after the comma that
/// ends the previous variable); with the keyword for the next variable when
/// a comma is followed by another `NAME: TYPE`.
fn variable(input: ParseStream, forall: kw::forall) -> syn::Result<(Forall, Option<kw::forall>)> {
    let name: Ident = input.parse()?;
    if input.peek(Token![in]) {
        // proptest's `x in strategy`.
        let (generator, ty) = generator_after(input);
        let ty = ty.unwrap_or("T");
        return Err(input.error(format!(
            "expected `:`: a variable has a type, and a generator goes in an annotation: `forall {name}: {ty}, #[with = {generator}]`"
        )));
    }
    input.parse::<Token![:]>()?;
    let ty = input.parse()?;
    if input.peek(Token![=]) || input.peek(Token![in]) {
        let (generator, _) = generator_after(input);
        return Err(input.error(format!(
            "expected `;` or `,`: a generator goes in an annotation: `forall {name}: {}, #[with = {generator}]`",
            crate::expand::type_name(&ty)
        )));
    }
    let mut annotations = Vec::new();
    let mut more = None;
    while input.peek(Token![,]) {
        input.parse::<Token![,]>()?;
        if input.is_empty() || input.peek(Token![;]) {
            break; // a trailing comma
        }
        if input.peek(Ident) && input.peek2(Token![:]) && !input.peek2(Token![::]) {
            more = Some(kw::forall(input.span()));
            break;
        }
        if !input.peek(Token![#]) {
            return Err(input.error(
                "expected an annotation (`#[with = …]`, `#[shrink = …]`, `#[print = …]` or `#[mutate = …]`) or another variable (`NAME: TYPE`) after `,`",
            ));
        }
        annotations.extend(input.call(annotation)?);
    }
    if input.peek(Token![#]) {
        return Err(input.error("expected `,` before the annotation"));
    }
    let binding = Forall {
        forall,
        name,
        ty,
        annotations,
    };
    Ok((binding, more))
}

/// The tokens after the next one (`in` or `=`) up to the clause's `;`, as
/// written, for an error message; `generator` when there are none.
fn generator_after(input: ParseStream) -> (String, Option<&'static str>) {
    let mut tokens = proc_macro2::TokenStream::new();
    let _ = input.step(|cursor| {
        let mut rest = match cursor.token_tree() {
            Some((_, rest)) => rest,
            None => return Ok(((), *cursor)),
        };
        while let Some((tt, next)) = rest.token_tree() {
            if matches!(&tt, proc_macro2::TokenTree::Punct(p) if p.as_char() == ';') {
                break;
            }
            tokens.extend([tt]);
            rest = next;
        }
        // Consume nothing: the error points at the `in` or `=`.
        Ok(((), *cursor))
    });
    if tokens.is_empty() {
        return ("generator".to_owned(), None);
    }
    match syn::parse2::<syn::Expr>(tokens.clone()) {
        Ok(expr) => as_generator(&expr),
        Err(_) => (crate::expand::tokens_as_written(tokens), None),
    }
}

/// A proptest strategy written where pbt wants a generator, as the DSL
/// writes it: a range `0..10u8` is `int(0..10u8)` (`float(…)` for floats),
/// a regex string `"[a-z]+"` is `regex("[a-z]+")`; with the type the
/// variable then has, when the literal says it.
fn as_generator(expr: &syn::Expr) -> (String, Option<&'static str>) {
    let written =
        |e: &syn::Expr| crate::expand::tokens_as_written(quote::ToTokens::to_token_stream(e));
    match expr {
        syn::Expr::Range(range) => {
            let end = |e: &Option<Box<syn::Expr>>| e.as_deref().map(written).unwrap_or_default();
            let op = match range.limits {
                syn::RangeLimits::HalfOpen(_) => "..",
                syn::RangeLimits::Closed(_) => "..=",
            };
            let range_text = format!("{}{op}{}", end(&range.start), end(&range.end));
            let ends = [&range.start, &range.end];
            let lits = ends.iter().filter_map(|e| match e.as_deref() {
                Some(syn::Expr::Lit(syn::ExprLit { lit, .. })) => Some(lit),
                _ => None,
            });
            let mut float = false;
            let mut ty = None;
            for lit in lits {
                let suffix = match lit {
                    syn::Lit::Int(i) => i.suffix(),
                    syn::Lit::Float(f) => {
                        float = true;
                        f.suffix()
                    }
                    _ => "",
                };
                ty = ty.or(primitive(suffix));
            }
            let form = if float { "float" } else { "int" };
            (format!("{form}({range_text})"), ty)
        }
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => (format!("regex({})", s.token()), Some("String")),
        e => (written(e), None),
    }
}

/// A literal's type suffix as the type's name.
fn primitive(suffix: &str) -> Option<&'static str> {
    const TYPES: [&str; 14] = [
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
        "f32", "f64",
    ];
    TYPES.into_iter().find(|t| *t == suffix)
}

/// One `#[…]` annotation. A `#[with = …]` (or `#[gen = …]`) value is written in the generator
/// DSL, whose `one_of[…]`, `frequency[…]` and `ensure cond;` forms are
/// rewritten into Rust expression syntax first (`pbt_stage::normalize`).
fn annotation(input: ParseStream) -> syn::Result<Vec<Attribute>> {
    let pound: Token![#] = input.parse()?;
    let body: proc_macro2::TokenTree = input.parse()?;
    let proc_macro2::TokenTree::Group(group) = body else {
        return Err(syn::Error::new(body.span(), "expected `[` after `#`"));
    };
    let is_gen = matches!(
        group.stream().into_iter().next(),
        Some(proc_macro2::TokenTree::Ident(i)) if i.unraw() == "gen" || i == "with"
    );
    let inner = if is_gen {
        pbt_stage::normalize(group.stream())
    } else {
        group.stream()
    };
    let mut rebuilt = proc_macro2::Group::new(group.delimiter(), inner);
    rebuilt.set_span(group.span());
    let tokens = quote::quote!(#pound #rebuilt);
    syn::parse::Parser::parse2(Attribute::parse_outer, tokens)
}

/// The expression after `keyword`, or an error naming what was expected.
fn expression_after(input: ParseStream, keyword: Span, what: &str) -> syn::Result<Expr> {
    if input.is_empty() || input.peek(Token![;]) {
        return Err(syn::Error::new(keyword, what));
    }
    input.parse()
}

impl Parse for Implies {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let implies: kw::implies = input.parse()?;
        let expr = expression_after(
            input,
            implies.span,
            "expected a condition after `implies`: `implies EXPR` where EXPR is a `bool`",
        )?;
        Ok(Implies { implies, expr })
    }
}

impl Parse for Check {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let check: kw::check = input.parse()?;
        let expr = expression_after(
            input,
            check.span,
            "expected an expression after `check`: `check EXPR` where EXPR is a `bool`, `()`, `Result<(), E>` or `Outcome`",
        )?;
        Ok(Check { check, expr })
    }
}

impl Parse for TestFn {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        match input.parse()? {
            Item::Fn(item) => {
                let owned = item
                    .sig
                    .inputs
                    .iter()
                    .map(|input| match input {
                        syn::FnArg::Typed(param) => owned(&param.ty),
                        syn::FnArg::Receiver(_) => None,
                    })
                    .collect();
                Ok(TestFn { item, owned })
            }
            other => {
                let (span, what) = describe(&other);
                Err(syn::Error::new(
                    span,
                    format!("#[property_test] applies to a `fn`, not to {what}"),
                ))
            }
        }
    }
}

/// The span of an item's keyword and what to call the item.
fn describe(item: &Item) -> (Span, &'static str) {
    match item {
        Item::Const(i) => (i.const_token.span, "a `const`"),
        Item::Enum(i) => (i.enum_token.span, "an `enum`"),
        Item::ExternCrate(i) => (i.extern_token.span, "an `extern crate`"),
        Item::ForeignMod(i) => (i.abi.extern_token.span, "an `extern` block"),
        Item::Impl(i) => (i.impl_token.span, "an `impl` block"),
        Item::Macro(i) => (i.mac.path.span(), "a macro invocation"),
        Item::Mod(i) => (i.mod_token.span, "a `mod`"),
        Item::Static(i) => (i.static_token.span, "a `static`"),
        Item::Struct(i) => (i.struct_token.span, "a `struct`"),
        Item::Trait(i) => (i.trait_token.span, "a `trait`"),
        Item::TraitAlias(i) => (i.trait_token.span, "a trait alias"),
        Item::Type(i) => (i.type_token.span, "a `type` alias"),
        Item::Union(i) => (i.union_token.span, "a `union`"),
        Item::Use(i) => (i.use_token.span, "a `use`"),
        other => (other.span(), "this item"),
    }
}

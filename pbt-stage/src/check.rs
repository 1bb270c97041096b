//! Shape checks the macro can make before rustc does: a primitive generator
//! annotating a variable of an obviously different type, and a literal whose
//! suffix names another primitive type than the variable (or its elements).

use crate::ast::Dsl;
use crate::forms::{Produces, FORMS};
use syn::Type;

/// What kind of type a top-level generator produces, when the macro can
/// tell (the forms table's `produces`).
fn produces(dsl: &Dsl) -> Option<&'static Produces> {
    let form = match dsl {
        Dsl::Leaf { name, .. } => crate::forms::get(&name.to_string()),
        Dsl::Vec(..) => crate::forms::get("vec"),
        _ => None,
    };
    form?.produces.as_ref()
}

/// The last identifier of a plain path type (`std::vec::Vec<u8>` → `Vec`).
fn type_head(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last().map(|s| s.ident.to_string()),
        Type::Paren(p) => type_head(&p.elem),
        Type::Group(g) => type_head(&g.elem),
        _ => None,
    }
}

/// Whether it is a type the checks know (what some form produces:
/// primitives, `String`, `Vec`; and `str`).
fn known(head: &str) -> bool {
    head == "str"
        || FORMS
            .iter()
            .filter_map(|f| f.produces.as_ref())
            .any(|p| p.types.contains(&head))
}

/// An error when the top-level generator plainly produces another kind of
/// value than `ty` (e.g. `int(..)` for an `f64` variable named `var`).
///
/// ```
/// let dsl: pbt_stage::Dsl = syn::parse_quote!(int(0..10));
/// let f64_ty: syn::Type = syn::parse_quote!(f64);
/// assert!(pbt_stage::check_target(&dsl, &f64_ty, "x").is_err());
/// let u8_ty: syn::Type = syn::parse_quote!(u8);
/// assert!(pbt_stage::check_target(&dsl, &u8_ty, "x").is_ok());
/// // A literal's suffix names the generated type; elements of a `Vec` too.
/// let u16s: pbt_stage::Dsl = syn::parse_quote!(vec(int(0..10u16), 0..5));
/// let vec_u8: syn::Type = syn::parse_quote!(Vec<u8>);
/// let e = pbt_stage::check_target(&u16s, &vec_u8, "xs").unwrap_err();
/// assert!(e.to_string().contains("the elements of `xs` are declared `u8`; write `10u8`"));
/// ```
pub fn check_target(dsl: &Dsl, ty: &Type, var: &str) -> syn::Result<()> {
    check(dsl, ty, &format!("`{var}` is declared"), var)
}

/// [`check_target`], saying `declared` ("`x` is declared", "the elements
/// of `xs` are declared") of `ty`.
fn check(dsl: &Dsl, ty: &Type, declared: &str, var: &str) -> syn::Result<()> {
    if let (Some((digits, suffix, at)), Some(head)) = (literal_type(dsl), type_head(ty)) {
        if known(&head) && head != suffix && is_primitive(ty) {
            return Err(syn::Error::new(
                at,
                format!(
                    "this generator produces `{suffix}` (the type of this literal), but {declared} `{head}`; \
                     write `{digits}{head}`, or change the declared type"
                ),
            ));
        }
    }
    // `vec(g, len)` for a `Vec<E>`: `g` against `E`.
    if let (Dsl::Vec(g, _), Some(elem)) = (dsl, vec_element(ty)) {
        return check(
            g,
            elem,
            &format!("the elements of `{var}` are declared"),
            var,
        );
    }
    let (Some(produces), Some(head)) = (produces(dsl), type_head(ty)) else {
        return Ok(());
    };
    let what = produces.kind;
    if known(&head) && !produces.types.contains(&head.as_str()) {
        let ty = quote::ToTokens::to_token_stream(ty)
            .to_string()
            .replace(' ', "");
        return Err(syn::Error::new(
            dsl.span(),
            format!("this generator produces {what}, but {declared} `{ty}`"),
        ));
    }
    Ok(())
}

/// The first literal argument of `int(…)` or `float(…)` with a type suffix:
/// its digits, the type its suffix names (`0..10u8` → `10`, `u8`) and its
/// span.
fn literal_type(dsl: &Dsl) -> Option<(String, String, proc_macro2::Span)> {
    use syn::visit::Visit;
    let Dsl::Leaf { name, args, .. } = dsl else {
        return None;
    };
    if name != "int" && name != "float" {
        return None;
    }
    #[derive(Default)]
    struct Suffix(Option<(String, String, proc_macro2::Span)>);
    impl<'ast> Visit<'ast> for Suffix {
        fn visit_lit(&mut self, lit: &'ast syn::Lit) {
            let (digits, suffix, at) = match lit {
                syn::Lit::Int(i) => (i.base10_digits(), i.suffix(), i.span()),
                syn::Lit::Float(f) => (f.base10_digits(), f.suffix(), f.span()),
                _ => return,
            };
            if self.0.is_none() && !suffix.is_empty() {
                self.0 = Some((digits.to_string(), suffix.to_string(), at));
            }
        }
    }
    let mut suffix = Suffix::default();
    for arg in args {
        suffix.visit_expr(arg);
    }
    suffix.0
}

/// Whether `ty` is a bare one-segment path (`u8`, not `my::u8`), which
/// names the primitive unless the user shadowed it.
fn is_primitive(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 && p.path.segments[0].arguments.is_empty())
}

/// `E` of `Vec<E>`.
fn vec_element(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if p.qself.is_some() || last.ident != "Vec" {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(a) if a.args.len() == 1 => match &a.args[0] {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        },
        _ => None,
    }
}

/// The error for a range where a generator goes (`#[with = 0..10]`, as
/// proptest writes a strategy): the combinator that draws from it, chosen
/// by the kind of the range's literals.
pub(crate) fn range_as_generator(range: &syn::ExprRange) -> syn::Error {
    // A literal, or a negated one, and how to write it back.
    let literal = |e: &syn::Expr| match e {
        syn::Expr::Lit(l) => Some((l.lit.clone(), String::new())),
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => match &**expr {
            syn::Expr::Lit(l) => Some((l.lit.clone(), "-".to_string())),
            _ => None,
        },
        _ => None,
    };
    let show = |e: &Option<Box<syn::Expr>>| match e.as_deref() {
        None => String::new(),
        Some(e) => match literal(e) {
            Some((lit, sign)) => format!("{sign}{}", quote::ToTokens::to_token_stream(&lit)),
            None => quote::ToTokens::to_token_stream(e).to_string(),
        },
    };
    let first = [&range.start, &range.end]
        .into_iter()
        .find_map(|e| e.as_deref().and_then(literal));
    let form = match first {
        Some((syn::Lit::Float(_), _)) => "float",
        Some((syn::Lit::Char(_), _)) => "char",
        _ => "int",
    };
    let limits = match range.limits {
        syn::RangeLimits::HalfOpen(_) => "..",
        syn::RangeLimits::Closed(_) => "..=",
    };
    let text = format!("{}{limits}{}", show(&range.start), show(&range.end));
    syn::Error::new_spanned(
        range,
        format!("a range is not a generator; write `{form}({text})` to draw from it"),
    )
}

//! Shape checks the macro can make before rustc does: a primitive generator
//! annotating a variable of an obviously different type.

use crate::ast::Dsl;
use syn::Type;

const INTEGERS: &[&str] = &[
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
];

/// A kind of value, and which type heads hold it.
type Produces = (&'static str, fn(&str) -> bool);

/// What kind of type a top-level generator produces, when the macro can tell.
fn produces(dsl: &Dsl) -> Option<Produces> {
    let Dsl::Leaf { name, .. } = dsl else {
        return match dsl {
            Dsl::Vec(..) => Some(("vectors", |t| t == "Vec")),
            _ => None,
        };
    };
    Some(match name.to_string().as_str() {
        "int" => ("integers", |t| INTEGERS.contains(&t)),
        "float" => ("floats", |t| t == "f32" || t == "f64"),
        "bool" | "weighted_bool" => ("booleans", |t| t == "bool"),
        "char" => ("chars", |t| t == "char"),
        "string" => ("strings", |t| t == "String"),
        _ => return None,
    })
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

/// Whether it is a type the checks know (primitives, `String`, `Vec`).
fn known(head: &str) -> bool {
    INTEGERS.contains(&head)
        || matches!(
            head,
            "f32" | "f64" | "bool" | "char" | "String" | "Vec" | "str"
        )
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
/// ```
pub fn check_target(dsl: &Dsl, ty: &Type, var: &str) -> syn::Result<()> {
    let (Some((what, fits)), Some(head)) = (produces(dsl), type_head(ty)) else {
        return Ok(());
    };
    if known(&head) && !fits(&head) {
        let ty = quote::ToTokens::to_token_stream(ty)
            .to_string()
            .replace(' ', "");
        return Err(syn::Error::new(
            dsl.span(),
            format!("this generator produces {what}, but `{var}` is declared `{ty}`"),
        ));
    }
    Ok(())
}

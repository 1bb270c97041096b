//! Automatic targeting of preconditions (*Flexible and Automatic Targeted Property-Based Testing* §3, Fig. 3): each
//! `implies` gets a utility, an `f64` that is `>= 0` exactly when the
//! precondition holds and grows as the inputs approach satisfying it. The
//! macro sees the expression, so no run-time inspection is needed.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::{BinOp, Expr, UnOp};

/// The utility of `expr`, or `None` when it is a plain boolean as a whole
/// (1 or -1 gives a search nothing to climb, and leaving it out keeps a type
/// error in the precondition from being reported twice).
pub fn derive_graded(expr: &Expr) -> Option<TokenStream> {
    let plain = match expr {
        Expr::Paren(p) => return derive_graded(&p.expr),
        Expr::Group(g) => return derive_graded(&g.expr),
        Expr::Binary(bin) => !matches!(
            bin.op,
            BinOp::Le(_)
                | BinOp::Lt(_)
                | BinOp::Ge(_)
                | BinOp::Gt(_)
                | BinOp::Eq(_)
                | BinOp::Ne(_)
                | BinOp::And(_)
                | BinOp::Or(_)
        ),
        Expr::Unary(un) => !matches!(un.op, UnOp::Not(_)),
        Expr::MethodCall(call) => !matches!(call.method.to_string().as_str(), "all" | "any"),
        Expr::Lit(_) => false,
        _ => true,
    };
    (!plain).then(|| derive(expr))
}

/// The utility of `expr`, as an expression of type `f64` that evaluates the
/// same operands (`&&` and `||` keep their short-circuits).
pub fn derive(expr: &Expr) -> TokenStream {
    let u = quote!(::pbt::__private::utility);
    match expr {
        Expr::Paren(p) => derive(&p.expr),
        Expr::Group(g) => derive(&g.expr),
        Expr::Lit(lit) => match &lit.lit {
            syn::Lit::Bool(b) if b.value => quote!(#u::TRUE),
            syn::Lit::Bool(_) => quote!(#u::FALSE),
            _ => boolean(expr),
        },
        Expr::Unary(un) if matches!(un.op, UnOp::Not(_)) => {
            let inner = derive(&un.expr);
            quote!(#u::not(#inner))
        }
        Expr::Binary(bin) => {
            let (l, r) = (&bin.left, &bin.right);
            let cmp = |a: &Expr, b: &Expr, method: &str| {
                let method = syn::Ident::new(method, proc_macro2::Span::call_site());
                quote!((&#u::Cmp(&(#a), &(#b))).#method())
            };
            match bin.op {
                BinOp::Le(_) => cmp(l, r, "le"),
                BinOp::Lt(_) => cmp(l, r, "lt"),
                BinOp::Ge(_) => cmp(r, l, "le"),
                BinOp::Gt(_) => cmp(r, l, "lt"),
                BinOp::Eq(_) => cmp(l, r, "eq"),
                BinOp::Ne(_) => {
                    let eq = cmp(l, r, "eq");
                    quote!(#u::not(#eq))
                }
                BinOp::And(_) => {
                    let (a, b) = (derive(l), derive(r));
                    quote!({
                        let __pbt_u: ::core::primitive::f64 = #a;
                        if __pbt_u < 0.0 { __pbt_u } else { __pbt_u.min(#b) }
                    })
                }
                BinOp::Or(_) => {
                    let (a, b) = (derive(l), derive(r));
                    quote!({
                        let __pbt_u: ::core::primitive::f64 = #a;
                        if __pbt_u >= 0.0 { __pbt_u } else { __pbt_u.max(#b) }
                    })
                }
                _ => boolean(expr),
            }
        }
        Expr::MethodCall(call) if call.args.len() == 1 => {
            let fold = match call.method.to_string().as_str() {
                "all" => quote!(#u::all),
                "any" => quote!(#u::any),
                _ => return boolean(expr),
            };
            let Some(Expr::Closure(f)) = call.args.first() else {
                return boolean(expr);
            };
            if f.inputs.len() != 1 {
                return boolean(expr);
            }
            let receiver = &call.receiver;
            let param = &f.inputs[0];
            let body = derive(&f.body);
            quote!(#fold(#receiver.map(|#param| -> ::core::primitive::f64 { #body })))
        }
        _ => boolean(expr),
    }
}

/// Anything else: `1` when true, `-1` when false.
fn boolean(expr: &Expr) -> TokenStream {
    let e = expr.to_token_stream();
    quote!(::pbt::__private::utility::of_bool(#e))
}

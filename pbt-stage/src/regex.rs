//! Staging `regex("literal")`: the macro parses the pattern (a malformed
//! pattern is a compile error on the literal) and emits straight-line code
//! that makes the draws of the runtime `gen::regex` — one per class
//! character, repetition count and alternation, in the same order — pushing
//! onto one `String`. A pattern that is not a literal stays a runtime
//! generator.

use crate::ast::Dsl;
use crate::charge;
use crate::emit::Ctx;
use pbt_regex_syntax::{Class, Max, Node};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::{Expr, Lit, LitStr, Token};

/// A literal pattern, parsed at compile time.
#[derive(Clone)]
pub struct RegexLit {
    /// `regex`, for spans.
    pub name: Ident,
    /// The literal as written.
    pub pattern: LitStr,
    /// What to draw.
    pub plan: Node,
}

/// The arguments of `regex(…)`: a literal is staged, anything else is the
/// runtime generator.
pub(crate) fn parse(name: Ident, content: ParseStream) -> syn::Result<Dsl> {
    let args: Punctuated<Expr, Token![,]> = Punctuated::parse_terminated(content)?;
    if args.len() != 1 {
        return Err(syn::Error::new(
            name.span(),
            "`regex` takes 1 argument(s): `regex(\"pattern\")`",
        ));
    }
    let arg = args.into_iter().next();
    match arg {
        Some(Expr::Lit(syn::ExprLit {
            lit: Lit::Str(pattern),
            ..
        })) => {
            let plan = pbt_regex_syntax::parse(&pattern.value())
                .map_err(|e| syn::Error::new(pattern.span(), e.to_string()))?;
            Ok(Dsl::Regex(Box::new(RegexLit {
                name,
                pattern,
                plan,
            })))
        }
        other => Ok(Dsl::Leaf {
            name,
            args: other.into_iter().collect(),
            turbofish: None,
        }),
    }
}

/// The staged generator: an expression of type `String`.
pub(crate) fn emit(r: &RegexLit, ctx: &Ctx) -> TokenStream {
    let body = node(&r.plan, ctx);
    quote! {{
        let mut __pbt_s = ::std::string::String::new();
        #body
        __pbt_s
    }}
}

/// The charged draws every match of `n` makes (see [`charge::fixed`]):
/// one per class character and alternation, one per repetition count
/// that is drawn; a repetition charges its body per repetition.
pub(crate) fn fixed(n: &Node) -> u64 {
    match n {
        Node::Literal(_) => 0,
        Node::Class(_) => 1,
        Node::Repeat { min, max, .. } => u64::from(!matches!(*max, Max::Fixed(m) if m == *min)),
        Node::Alternation(branches) => 1 + charge::least(branches.iter().map(fixed)),
        Node::Concat(parts) => charge::sum(parts.iter().map(fixed)),
    }
}

/// Statements that append one match of `n` to `__pbt_s`.
fn node(n: &Node, ctx: &Ctx) -> TokenStream {
    match n {
        Node::Literal(s) => quote! { __pbt_s.push_str(#s); },
        Node::Class(class) => {
            let last = Literal::u64_suffixed(u64::from(class.count()) - 1);
            let code = class_code(class);
            let draw = charge::draw(quote! { #last }, ctx);
            quote! {{
                let __pbt_n = #draw as ::core::primitive::u32;
                let __pbt_code: ::core::primitive::u32 = #code;
                __pbt_s.push(::core::char::from_u32(__pbt_code).unwrap_or(::core::char::REPLACEMENT_CHARACTER));
            }}
        }
        Node::Repeat {
            node: inner,
            min,
            max,
        } => {
            let count = if *min == 0 {
                quote! { __pbt_k }
            } else {
                let min = Literal::u64_suffixed(u64::from(*min));
                quote! { #min + __pbt_k }
            };
            let extra = match *max {
                Max::Fixed(m) if m == *min => quote! { 0u64 },
                Max::Fixed(m) => {
                    let span = Literal::u64_suffixed(u64::from(m - min));
                    charge::draw(quote! { #span }, ctx)
                }
                Max::Size => {
                    let size = &ctx.size;
                    charge::draw(quote! { #size as ::core::primitive::u64 }, ctx)
                }
            };
            // Repetitions of fixed text draw nothing: each is a part of
            // the budget instead (as the runtime `regex` counts them).
            let repetitions = if inner.draws_nothing() {
                charge::parts(quote! { #count }, 0, ctx)
            } else {
                charge::charge_times(quote! { #count }, fixed(inner), ctx)
            };
            let inner = node(inner, ctx);
            quote! {{
                let __pbt_k: ::core::primitive::u64 = #extra;
                #repetitions
                for _ in 0..#count {
                    #inner
                }
            }}
        }
        Node::Alternation(branches) => {
            let last = branches.len() as u64 - 1;
            let least = charge::least(branches.iter().map(fixed));
            let arms = branches.iter().enumerate().map(|(i, b)| {
                let b = charge::arm(node(b, ctx), fixed(b), least, ctx);
                if i as u64 == last {
                    quote! { _ => { #b } }
                } else {
                    let i = Literal::u64_suffixed(i as u64);
                    quote! { #i => { #b } }
                }
            });
            let last = Literal::u64_suffixed(last);
            let draw = charge::draw(quote! { #last }, ctx);
            quote! {
                match #draw {
                    #(#arms)*
                }
            }
        }
        Node::Concat(parts) => {
            let parts = parts.iter().map(|p| node(p, ctx));
            quote! { #(#parts)* }
        }
    }
}

/// The code point of member `__pbt_n` of `class`: an `if` ladder over its
/// ranges in draw order.
fn class_code(class: &Class) -> TokenStream {
    let mut before = 0u32;
    let mut rungs = Vec::new();
    let ranges = class.ranges();
    for (i, &(lo, hi)) in ranges.iter().enumerate() {
        let offset = Literal::u32_suffixed(before);
        let lo_lit = Literal::u32_suffixed(lo);
        let value = if before == 0 {
            quote! { #lo_lit + __pbt_n }
        } else {
            quote! { #lo_lit + (__pbt_n - #offset) }
        };
        before += hi - lo + 1;
        if i + 1 == ranges.len() {
            rungs.push(quote! { { #value } });
        } else {
            let end = Literal::u32_suffixed(before);
            rungs.push(quote! { if __pbt_n < #end { #value } else });
        }
    }
    quote! { #(#rungs)* }
}

//! The DSL's syntax: [`Dsl`], parsed with `impl Parse`.

use crate::forms::Args;
use proc_macro2::{Ident, Span, TokenTree};
use syn::parse::discouraged::Speculative;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{braced, bracketed, parenthesized, Expr, Pat, Token, Type};

/// A generator expression of the DSL.
#[derive(Clone)]
pub enum Dsl {
    /// `int(range)`, `float(range)`, `bool()`, `weighted_bool(p)`,
    /// `char(range)`, `chars([range, …])`, `string(charset, len)`, `choose(slice)`,
    /// `subset(slice, k)`, `any::<T>()`: a primitive, drawn by the runtime
    /// generator of the same name (inlined).
    Leaf {
        /// The combinator's name.
        name: Ident,
        /// Its arguments, plain Rust expressions.
        args: Vec<Expr>,
        /// `::<T>` of `any`.
        turbofish: Option<Type>,
    },
    /// `just(e)`: the value of `e`, no draw.
    Just(Expr),
    /// `size`: the current size.
    Size(Ident),
    /// `(g, …)`: a tuple, components drawn left to right.
    Tuple(Vec<Dsl>),
    /// `vec(g, len)`: a length draw, then the elements.
    Vec(Box<Dsl>, Expr),
    /// `one_of[g, …]`: one draw picks an alternative.
    OneOf(Ident, Vec<Dsl>),
    /// `frequency[w => g, …]`: one draw over the total weight.
    Frequency(Ident, Vec<(Expr, Dsl)>),
    /// `either(g1, g2, p)`: `g1` with probability `p`.
    Either(Box<Dsl>, Box<Dsl>, Expr),
    /// `map(g, f)`.
    Map(Box<Dsl>, Expr),
    /// `filter(g, pred)`: retry up to `FILTER_TRIES` times, then reject.
    Filter(Box<Dsl>, Expr),
    /// `bind(g, |x| g2)`.
    Bind(Box<Dsl>, Pat, Box<Dsl>),
    /// `resize(n, g)`.
    Resize(Expr, Box<Dsl>),
    /// `recursive(|rec| g)` or `recursive::<T>(|rec| g)`.
    Recursive(Option<Type>, Ident, Box<Dsl>),
    /// `{ let p = g; ensure c; …; e }`: binds, then the final expression
    /// (a DSL form, or else the block's value).
    Block(Vec<Stmt>, Box<Dsl>),
    /// The final plain expression of a block: its value, no draw.
    Value(Expr),
    /// `regex("pattern")` with a literal pattern, parsed at compile time.
    Regex(Box<crate::regex::RegexLit>),
    /// `option`, `result`, `hash_set`, `btree_set`, `vec_unique`,
    /// `hash_map`, `btree_map`.
    Collection(Box<crate::collections::Collection>),
    /// Anything else: a runtime `Gen` value.
    Runtime(Expr),
}

/// A statement of a `let`-sequence block.
#[derive(Clone)]
pub enum Stmt {
    /// `let pat = g;`
    Let(Pat, Box<Dsl>),
    /// `ensure cond;`: retry the latest draw until `cond` holds.
    Ensure(Ident, Expr),
}

impl Parse for Dsl {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        parse_dsl(input, false)
    }
}

/// Parse one DSL expression; `in_block_tail` makes a plain expression a
/// [`Dsl::Value`] instead of a runtime generator.
pub(crate) fn parse_dsl(input: ParseStream, in_block_tail: bool) -> syn::Result<Dsl> {
    if input.peek(syn::token::Brace) {
        return parse_block(input);
    }
    if input.peek(syn::token::Paren) {
        let fork = input.fork();
        let content;
        parenthesized!(content in fork);
        if content.is_empty() {
            return plain(input, in_block_tail);
        }
        let parts: Punctuated<Dsl, Token![,]> =
            Punctuated::parse_terminated_with(&content, |s| parse_dsl(s, false))?;
        let is_tuple = parts.len() > 1 || parts.trailing_punct();
        let all_gens = parts.iter().all(|p| !matches!(p, Dsl::Runtime(_)));
        let any_gen = parts.iter().any(|p| !matches!(p, Dsl::Runtime(_)));
        if is_tuple && (any_gen || !in_block_tail) {
            let content;
            parenthesized!(content in input);
            let parts: Punctuated<Dsl, Token![,]> =
                Punctuated::parse_terminated_with(&content, |s| parse_dsl(s, false))?;
            let parts = parts.into_iter().map(|part| match part {
                // A block's final tuple mixes values and forms, as in
                // `{ let x = g; (x, int(0..x)) }`: its plain expressions
                // are values (elsewhere they are runtime generators).
                Dsl::Runtime(e) if in_block_tail && !all_gens => Dsl::Value(e),
                part => part,
            });
            return Ok(Dsl::Tuple(parts.collect()));
        }
        if !is_tuple {
            let content;
            parenthesized!(content in input);
            return parse_dsl(&content, in_block_tail);
        }
        return plain(input, in_block_tail);
    }
    if input.peek(syn::Ident) {
        let fork = input.fork();
        let name: Ident = fork.parse()?;
        let key = name.to_string();
        if key == "size" && (fork.is_empty() || fork.peek(Token![,]) || fork.peek(Token![;])) {
            input.parse::<Ident>()?;
            return Ok(Dsl::Size(name));
        }
        if crate::forms::is_bracketed(&key)
            && (fork.peek(syn::token::Bracket) || fork.peek(Token![!]))
        {
            input.parse::<Ident>()?;
            let content;
            let brackets = if input.peek(Token![!]) {
                input.parse::<Token![!]>()?;
                let mac: TokenTree = input.parse()?;
                let TokenTree::Group(group) = mac else {
                    return Err(syn::Error::new(mac.span(), format!("expected `{key}![…]`")));
                };
                let stream = group.stream();
                let parsed = syn::parse::Parser::parse2(
                    |s: ParseStream| alternatives(&key, name.clone(), group.span(), s),
                    stream,
                )?;
                return Ok(parsed);
            } else {
                bracketed!(content in input)
            };
            return alternatives(&key, name, brackets.span.join(), &content);
        }
        if fork.peek(syn::token::Bracket) || fork.peek(Token![!]) {
            let hint = crate::suggest::did_you_mean(&key, crate::forms::bracketed());
            if !hint.is_empty() {
                return Err(syn::Error::new(
                    name.span(),
                    format!("unknown DSL form `{key}[…]`{hint}"),
                ));
            }
        }
        let turbofish = if fork.peek(Token![::]) && {
            let ahead = fork.fork();
            ahead.parse::<Token![::]>()?;
            ahead.peek(Token![<])
        } {
            fork.parse::<Token![::]>()?;
            fork.parse::<Token![<]>()?;
            let ty: Type = fork.parse()?;
            fork.parse::<Token![>]>()?;
            Some(ty)
        } else {
            None
        };
        if fork.peek(syn::token::Paren) && crate::forms::is_call(&key) {
            let content;
            parenthesized!(content in fork);
            if !(fork.is_empty() || fork.peek(Token![,]) || fork.peek(Token![;])) {
                // `int(0..3).map(f)`: an expression built on a combinator is
                // a runtime generator (the runtime combinator of that name
                // draws what the staged form would).
                return plain(input, false);
            }
            // Commit: consume the same tokens from `input`.
            input.advance_to(&fork);
            return parse_form(name, turbofish, &content);
        }
    }
    plain(input, in_block_tail)
}

/// A plain Rust expression: the value of a block tail, or a runtime `Gen`.
fn plain(input: ParseStream, in_block_tail: bool) -> syn::Result<Dsl> {
    let e: Expr = input.parse()?;
    Ok(if in_block_tail {
        Dsl::Value(e)
    } else {
        Dsl::Runtime(e)
    })
}

/// The alternatives of `one_of[…]` or `frequency[…]`.
fn alternatives(key: &str, name: Ident, span: Span, content: ParseStream) -> syn::Result<Dsl> {
    if key == "one_of" {
        let gens: Punctuated<Dsl, Token![,]> =
            Punctuated::parse_terminated_with(content, |s| parse_dsl(s, false))?;
        if gens.is_empty() {
            return Err(syn::Error::new(
                span,
                format!(
                    "one_of[…] needs at least one generator: `{}`",
                    crate::forms::usage("one_of")
                ),
            ));
        }
        return Ok(Dsl::OneOf(name, gens.into_iter().collect()));
    }
    let arms: Punctuated<(Expr, Dsl), Token![,]> =
        Punctuated::parse_terminated_with(content, parse_weighted)?;
    if arms.is_empty() {
        return Err(syn::Error::new(
            span,
            format!(
                "frequency[…] needs at least one weighted generator: `{}`",
                crate::forms::usage("frequency")
            ),
        ));
    }
    Ok(Dsl::Frequency(name, arms.into_iter().collect()))
}

fn parse_weighted(input: ParseStream) -> syn::Result<(Expr, Dsl)> {
    let w: Expr = input.parse()?;
    if let Expr::Lit(lit) = &w {
        if !matches!(lit.lit, syn::Lit::Int(_)) {
            return Err(syn::Error::new_spanned(
                &w,
                "a frequency weight must be an integer expression, e.g. `3` or `size`",
            ));
        }
    }
    input.parse::<Token![=>]>().map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected `=>` after the weight: `frequency[w => g, …]`",
        )
    })?;
    let g = parse_dsl(input, false)?;
    Ok((w, g))
}

/// The arguments of `name(…)`, checked for shape.
fn parse_form(name: Ident, turbofish: Option<Type>, content: ParseStream) -> syn::Result<Dsl> {
    let key = name.to_string();
    let span = name.span();
    let Some(form) = crate::forms::get(&key) else {
        return Err(syn::Error::new(span, format!("unknown DSL form `{key}`")));
    };
    let arity = |n: usize, usage: &str, got: usize| -> syn::Result<()> {
        if n == got {
            Ok(())
        } else {
            Err(syn::Error::new(
                span,
                format!("`{key}` takes {n} argument(s): `{usage}`"),
            ))
        }
    };
    match key.as_str() {
        "regex" => crate::regex::parse(name, content),
        _ if matches!(form.args, Args::Collection { .. }) => {
            crate::collections::parse(name, form, content)
        }
        "vec" | "string_of" | "either" | "map" | "filter" | "resize" | "bind" => {
            let args = parse_args(content, &key)?;
            let wrong = || syn::Error::new(span, format!("expected `{}`", form.usage));
            match key.as_str() {
                "vec" => match <[Arg; 2]>::try_from(args) {
                    Ok([Arg::Gen(g), Arg::Expr(len)]) => Ok(Dsl::Vec(Box::new(g), len)),
                    _ => Err(wrong()),
                },
                // The list of characters, collected (the runtime
                // `string_of` makes the same choices).
                "string_of" => match <[Arg; 2]>::try_from(args) {
                    Ok([Arg::Gen(g), Arg::Expr(len)]) => {
                        let collect: Expr = syn::parse_quote_spanned! {span=>
                            |__pbt_cs: ::std::vec::Vec<::core::primitive::char>| -> ::std::string::String {
                                ::core::iter::Iterator::collect(::core::iter::IntoIterator::into_iter(__pbt_cs))
                            }
                        };
                        Ok(Dsl::Map(Box::new(Dsl::Vec(Box::new(g), len)), collect))
                    }
                    _ => Err(wrong()),
                },
                "either" => match <[Arg; 3]>::try_from(args) {
                    Ok([Arg::Gen(a), Arg::Gen(b), Arg::Expr(p)]) => {
                        Ok(Dsl::Either(Box::new(a), Box::new(b), p))
                    }
                    _ => Err(wrong()),
                },
                "map" => match <[Arg; 2]>::try_from(args) {
                    Ok([Arg::Gen(g), Arg::Expr(f)]) => Ok(Dsl::Map(Box::new(g), f)),
                    _ => Err(wrong()),
                },
                "filter" => match <[Arg; 2]>::try_from(args) {
                    Ok([Arg::Gen(g), Arg::Expr(p)]) => Ok(Dsl::Filter(Box::new(g), p)),
                    _ => Err(wrong()),
                },
                "resize" => match <[Arg; 2]>::try_from(args) {
                    Ok([Arg::Expr(n), Arg::Gen(g)]) => Ok(Dsl::Resize(n, Box::new(g))),
                    _ => Err(wrong()),
                },
                _ => match <[Arg; 2]>::try_from(args) {
                    Ok([Arg::Gen(g), Arg::Expr(Expr::Closure(f))]) => {
                        let param = single_param(&f)?;
                        let body = syn::parse2::<Dsl>(quote::ToTokens::to_token_stream(&f.body))?;
                        Ok(Dsl::Bind(Box::new(g), param, Box::new(body)))
                    }
                    _ => Err(wrong()),
                },
            }
        }
        "recursive" => {
            let f: Expr = content.parse()?;
            let Expr::Closure(f) = f else {
                return Err(syn::Error::new(
                    span,
                    format!("`recursive` takes a closure: `{}`", form.usage),
                ));
            };
            let Pat::Ident(param) = single_param(&f)? else {
                return Err(syn::Error::new(
                    span,
                    "`recursive(|rec| …)` names its handle with a plain identifier",
                ));
            };
            let body = syn::parse2::<Dsl>(quote::ToTokens::to_token_stream(&f.body))?;
            Ok(Dsl::Recursive(turbofish, param.ident, Box::new(body)))
        }
        "just" => {
            let e: Expr = content.parse()?;
            Ok(Dsl::Just(e))
        }
        _ => {
            let args: Punctuated<Expr, Token![,]> = Punctuated::parse_terminated(content)?;
            let args: Vec<Expr> = args.into_iter().collect();
            let Args::Leaf(n) = form.args else {
                return Err(syn::Error::new(
                    span,
                    format!("`{key}` has no parser (pbt-stage's FORMS and parse_form disagree)"),
                ));
            };
            arity(n, form.usage, args.len())?;
            Ok(Dsl::Leaf {
                name,
                args,
                turbofish,
            })
        }
    }
}

/// An argument of a combinator: a generator or a plain expression.
enum Arg {
    Gen(Dsl),
    Expr(Expr),
}

/// The comma-separated arguments of combinator `key`, each parsed as a
/// generator or an expression according to its position.
fn parse_args(content: ParseStream, key: &str) -> syn::Result<Vec<Arg>> {
    let mut args = Vec::new();
    while !content.is_empty() {
        let index = args.len();
        let is_gen = match key {
            "either" => index < 2,
            "resize" => index == 1,
            _ => index == 0,
        };
        args.push(if is_gen {
            Arg::Gen(parse_dsl(content, false)?)
        } else {
            Arg::Expr(content.parse()?)
        });
        if content.is_empty() {
            break;
        }
        content.parse::<Token![,]>()?;
    }
    Ok(args)
}

fn single_param(f: &syn::ExprClosure) -> syn::Result<Pat> {
    if f.inputs.len() != 1 {
        return Err(syn::Error::new_spanned(
            &f.inputs,
            "expected a closure of one parameter",
        ));
    }
    Ok(f.inputs[0].clone())
}

/// `{ let p = g; ensure c; …; tail }`.
fn parse_block(input: ParseStream) -> syn::Result<Dsl> {
    let content;
    let brace = braced!(content in input);
    let mut stmts = Vec::new();
    loop {
        if content.peek(Token![let]) {
            content.parse::<Token![let]>()?;
            let pat = Pat::parse_single(&content)?;
            let pat = if content.peek(Token![:]) {
                let colon: Token![:] = content.parse()?;
                let ty: Type = content.parse()?;
                Pat::Type(syn::PatType {
                    attrs: Vec::new(),
                    pat: Box::new(pat),
                    colon_token: colon,
                    ty: Box::new(ty),
                })
            } else {
                pat
            };
            content.parse::<Token![=]>()?;
            let g = parse_dsl(&content, false)?;
            content.parse::<Token![;]>()?;
            stmts.push(Stmt::Let(pat, Box::new(g)));
        } else if content.peek(syn::Ident) && content.fork().parse::<Ident>()? == "ensure" {
            let kw: Ident = content.parse()?;
            if !stmts.iter().any(|s| matches!(s, Stmt::Let(..))) {
                return Err(syn::Error::new(
                    kw.span(),
                    "`ensure` retries the latest draw: it must follow a `let x = generator;`",
                ));
            }
            let cond: Expr = if content.peek(Token![!]) {
                content.parse::<Token![!]>()?;
                let args;
                parenthesized!(args in content);
                args.parse()?
            } else {
                content.parse()?
            };
            content.parse::<Token![;]>()?;
            stmts.push(Stmt::Ensure(kw, cond));
        } else {
            break;
        }
    }
    if content.is_empty() {
        return Err(syn::Error::new(
            brace.span.close(),
            "a generator block ends with its value: `{ let x = g; …; value }`",
        ));
    }
    let tail = parse_dsl(&content, true)?;
    if !content.is_empty() {
        return Err(content.error("expected the end of the block after its final expression"));
    }
    Ok(Dsl::Block(stmts, Box::new(tail)))
}

impl Dsl {
    /// A span to point errors at.
    pub fn span(&self) -> Span {
        use syn::spanned::Spanned;
        match self {
            Dsl::Leaf { name, .. } | Dsl::OneOf(name, _) | Dsl::Frequency(name, _) => name.span(),
            Dsl::Size(i) => i.span(),
            Dsl::Just(e) | Dsl::Value(e) | Dsl::Runtime(e) => e.span(),
            Dsl::Regex(r) => r.pattern.span(),
            Dsl::Collection(c) => c.span(),
            Dsl::Tuple(parts) => parts.first().map_or_else(Span::call_site, Dsl::span),
            Dsl::Vec(g, _)
            | Dsl::Either(g, _, _)
            | Dsl::Map(g, _)
            | Dsl::Filter(g, _)
            | Dsl::Bind(g, _, _)
            | Dsl::Resize(_, g)
            | Dsl::Recursive(_, _, g)
            | Dsl::Block(_, g) => g.span(),
        }
    }
}

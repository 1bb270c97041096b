//! Code generation: a [`Dsl`] to straight-line Rust over a `Source`.
//!
//! The emitted expression has type `T` and sits inside a labelled block that
//! evaluates to `Result<T, Rejected>`: a rejecting `filter`/`ensure` (or a
//! rejecting runtime generator) breaks out of it with `Err`. Each draw is
//! let-bound once (*Fail Faster* §4.3), unions are one draw and an `if` ladder,
//! `vec` a loop, `recursive` a local generic `fn`. The choices made are the
//! ones the runtime combinators of the same name make, in the same order.
//! Draws are charged to the source's budget per straight run of code, not
//! one by one (see [`crate::charge`]).

use crate::ast::{Dsl, Stmt};
use crate::charge::{self, fixed};
use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::{Expr, Lifetime, Pat, Type};

/// Where the emitted code finds things.
#[derive(Clone)]
pub struct Ctx {
    /// Path of the runtime support module, e.g. `::pbt::__private`.
    pub rt: TokenStream,
    /// The source variable (`&mut Rng`, `&mut dyn Source` or `&mut S`).
    pub src: Ident,
    /// The variable holding the current size, a name of the macro's own
    /// ([`Ctx::size_variable`]): the draws read the size through it, so a
    /// user's variable named `size` changes only what the user's own
    /// expressions mean.
    pub size: Ident,
    /// The block a rejection breaks out of.
    pub label: Lifetime,
    /// The type generated, which a top-level `recursive` needs.
    pub target: Option<Type>,
    /// The handle of the innermost `recursive`, and its function.
    rec: Option<(Ident, Ident)>,
    depth: usize,
}

impl Ctx {
    /// A context for code whose source variable is `src`, generating `target`.
    pub fn new(rt: TokenStream, src: Ident, target: Option<Type>) -> Self {
        Ctx {
            rt,
            src,
            size: Ctx::size_variable(),
            label: Lifetime::new("'__pbt_gen", Span::call_site()),
            target,
            rec: None,
            depth: 0,
        }
    }

    /// The name the generated code reads the size through: `mixed_site`,
    /// so no user variable (say, a `forall size: u32`) can shadow it. The
    /// code around [`emit`] binds it, then binds `size` to it for the
    /// user's expressions (before the user's variables, which shadow it).
    pub fn size_variable() -> Ident {
        Ident::new("__pbt_size", Span::mixed_site())
    }

    pub(crate) fn deeper(&self) -> Ctx {
        let mut c = self.clone();
        c.depth += 1;
        c.target = None;
        c
    }
}

/// The whole generator: `'label: { Ok(…) }`, of type `Result<T, Rejected>`,
/// charging first the draws that every run of it makes.
/// The variable `ctx.size` (the current size) must be in scope, and `size`
/// too if the user's expressions read it.
pub fn emit(dsl: &Dsl, ctx: &Ctx) -> syn::Result<TokenStream> {
    let charge = charge::charge(fixed(dsl), ctx);
    emit_charged(dsl, charge, ctx)
}

/// [`emit`] for one recursive layer: the layer is a part of the budget
/// besides its draws, so a recursion whose layers draw nothing still ends.
fn emit_layer(dsl: &Dsl, ctx: &Ctx) -> syn::Result<TokenStream> {
    let (rt, src) = (&ctx.rt, &ctx.src);
    let draws = fixed(dsl);
    let charge = quote! { #rt::Source::charge_parts(&mut *#src, 1u64, #draws); };
    emit_charged(dsl, charge, ctx)
}

/// The generator `dsl` as a labelled block, `charge` first.
fn emit_charged(dsl: &Dsl, charge: TokenStream, ctx: &Ctx) -> syn::Result<TokenStream> {
    let body = expr(dsl, ctx)?;
    let label = &ctx.label;
    Ok(quote! { #label: { #charge ::core::result::Result::Ok(#body) } })
}

/// `result` unwrapped, or a break out of the generator with its `Err`.
///
/// The value is the expression's tail, where rustc reports a value of the
/// wrong type: it carries `at`, the span of the generator the user wrote,
/// so the error points there and not at the whole macro. (Only this bare
/// variable carries it, so no lint about the emitted code lands on the
/// user's tokens.)
fn unwrap(result: TokenStream, at: Span, ctx: &Ctx) -> TokenStream {
    unwrap_as(result, at, ctx, None)
}

/// [`unwrap`], the value passed through `Produces<ty>` when `ty` is given:
/// a generator of another type than the variable's is reported at the
/// generator, naming both types, with no conversion spliced into it.
fn unwrap_as(result: TokenStream, at: Span, ctx: &Ctx, ty: Option<&Type>) -> TokenStream {
    let label = &ctx.label;
    let v = Ident::new("__pbt_v", at);
    let value = match ty {
        Some(ty) => {
            let rt = respan(&ctx.rt, at);
            quote_spanned! {at=> #rt::Produces::<#ty>::produced(#v) }
        }
        None => quote! { #v },
    };
    quote! {
        match #result {
            ::core::result::Result::Ok(#v) => #value,
            ::core::result::Result::Err(e) => break #label <::core::result::Result<_, _>>::Err(e),
        }
    }
}

/// `tokens` (a path such as `::pbt::__private`), every token at `at`.
fn respan(tokens: &TokenStream, at: Span) -> TokenStream {
    tokens
        .clone()
        .into_iter()
        .map(|mut t| {
            t.set_span(at);
            t
        })
        .collect()
}

/// How a generator gets the source: as it is (each draw counted as it is
/// made), or as a `Prepaid` whose first draw the enclosing run charged.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Drawn {
    Counted,
    Prepaid,
}

/// A primitive whose first draw is charged (see [`crate::charge`]), drawn
/// from the source; `at` as for [`unwrap`].
pub(crate) fn prepaid(gen: TokenStream, at: Span, ctx: &Ctx) -> TokenStream {
    runtime_as(gen, at, ctx, None, Drawn::Prepaid)
}

/// A generator the user wrote (a primitive, a runtime value), as
/// [`prepaid`] or counted draw by draw; when it is the whole value of a variable declared `ty`
/// (`ctx.target`), its value goes through `Produces<ty>` (see [`unwrap_as`]).
fn leaf(gen: TokenStream, at: Span, ctx: &Ctx, drawn: Drawn) -> TokenStream {
    runtime_as(gen, at, ctx, ctx.target.as_ref(), drawn)
}

fn runtime_as(
    gen: TokenStream,
    at: Span,
    ctx: &Ctx,
    ty: Option<&Type>,
    drawn: Drawn,
) -> TokenStream {
    let (rt, src, size) = (&ctx.rt, &ctx.src, &ctx.size);
    // The call carries `at` too, so that a value that is no generator is
    // reported at the generator ("`u8` is not a generator"), not at the
    // whole macro.
    let rt = respan(rt, at);
    let src = match drawn {
        Drawn::Counted => quote! { &mut *#src },
        Drawn::Prepaid => quote! { &mut #rt::Prepaid::new(&mut *#src) },
    };
    unwrap_as(
        quote_spanned! {at=> #rt::Gen::generate(&#gen, #src, #size) },
        at,
        ctx,
        ty,
    )
}

/// `E` of a type written `Vec<E>` (any path ending in `Vec`).
fn element_type(ty: Option<&Type>) -> Option<Type> {
    let Some(Type::Path(p)) = ty else {
        return None;
    };
    let last = p.path.segments.last()?;
    if p.qself.is_some() || last.ident != "Vec" {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(a) if a.args.len() == 1 => match &a.args[0] {
            syn::GenericArgument::Type(t) => Some(t.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// One DSL expression, as an expression of the generated type.
pub(crate) fn expr(dsl: &Dsl, ctx: &Ctx) -> syn::Result<TokenStream> {
    let (rt, src) = (&ctx.rt, &ctx.src);
    Ok(match dsl {
        Dsl::Leaf {
            name,
            args,
            turbofish,
        } => {
            let gen = match turbofish {
                Some(ty) => quote_spanned! {name.span()=> #rt::dsl::#name::<#ty>(#(#args),*) },
                None => quote_spanned! {name.span()=> #rt::dsl::#name(#(#args),*) },
            };
            let drawn = if charge::prepaid(name) {
                Drawn::Prepaid
            } else {
                Drawn::Counted
            };
            leaf(gen, name.span(), ctx, drawn)
        }
        Dsl::Just(e) | Dsl::Value(e) => quote! { #e },
        Dsl::Size(ident) => quote! { #ident },
        Dsl::Tuple(parts) => {
            let parts = parts
                .iter()
                .map(|p| expr(p, &ctx.deeper()))
                .collect::<syn::Result<Vec<_>>>()?;
            quote! { ( #(#parts,)* ) }
        }
        Dsl::Vec(g, len) => {
            let n = prepaid(
                quote! { #rt::Length::lengths(#len) },
                Span::call_site(),
                ctx,
            );
            // The elements (each a part of the budget, even one that draws
            // nothing) and their draws, charged before the first.
            let elements =
                charge::parts(quote! { __pbt_n as ::core::primitive::u64 }, fixed(g), ctx);
            // A variable declared `Vec<E>` gives its elements the type `E`:
            // an element generator of another type is reported there, as
            // "expected `E`, found …", not as a mismatch of whole vectors.
            let mut inner = ctx.deeper();
            inner.target = element_type(ctx.target.as_ref());
            let elem = expr(g, &inner)?;
            let elem = match &inner.target {
                Some(ty) => quote! {{ let __pbt_e: #ty = #elem; __pbt_e }},
                None => elem,
            };
            // The tail carries the element generator's span (see `unwrap`).
            let v = Ident::new("__pbt_v", g.span());
            // Block marks as `VecOf` makes them (a rejection leaves them
            // open, as its `?` does).
            quote! {{
                #rt::Source::start_block(&mut *#src, #rt::BlockKind::Collection);
                let __pbt_n: ::core::primitive::usize = #n;
                #elements
                let mut #v = ::std::vec::Vec::with_capacity(
                    ::core::cmp::Ord::min(__pbt_n, #rt::MAX_RESERVE),
                );
                for _ in 0..__pbt_n {
                    #rt::Source::start_block(&mut *#src, #rt::BlockKind::Element);
                    #v.push(#elem);
                    #rt::Source::end_block(&mut *#src);
                }
                #rt::Source::end_block(&mut *#src);
                #v
            }}
        }
        Dsl::OneOf(name, gens) => {
            let last = gens.len() as u64 - 1;
            let least = charge::least(gens.iter().map(fixed));
            let arms = gens
                .iter()
                .enumerate()
                .map(|(i, g)| {
                    let code = expr(g, &ctx.deeper())?;
                    let g = charge::arm(code, fixed(g), least, ctx);
                    let i = i as u64;
                    Ok(if i == last {
                        quote! { _ => #g, }
                    } else {
                        quote! { #i => #g, }
                    })
                })
                .collect::<syn::Result<Vec<_>>>()?;
            let draw = charge::draw(quote! { #last }, ctx);
            quote_spanned! {name.span()=>
                match #draw {
                    #(#arms)*
                }
            }
        }
        Dsl::Frequency(name, arms) => {
            let weights: Vec<Ident> = (0..arms.len())
                .map(|i| format_ident!("__pbt_w{i}"))
                .collect();
            let lets = arms.iter().zip(&weights).map(|((w, _), id)| {
                quote_spanned! {syn::spanned::Spanned::span(w)=> let #id: ::core::primitive::u64 = #rt::weight(#w); }
            });
            let least = charge::least(arms.iter().map(|(_, g)| fixed(g)));
            let gens = arms
                .iter()
                .map(|(_, g)| Ok(charge::arm(expr(g, &ctx.deeper())?, fixed(g), least, ctx)))
                .collect::<syn::Result<Vec<_>>>()?;
            let (last, init) = gens.split_last().ok_or_else(|| {
                syn::Error::new(
                    name.span(),
                    "frequency[…] needs at least one weighted generator",
                )
            })?;
            // Cumulative weights, then one `if … else if … else` ladder.
            let cumulative: Vec<Ident> = (0..arms.len())
                .map(|i| format_ident!("__pbt_c{i}"))
                .collect();
            let sums = cumulative
                .iter()
                .zip(&weights)
                .enumerate()
                .map(|(i, (c, w))| {
                    if i == 0 {
                        quote! { let #c = #w; }
                    } else {
                        let prev = &cumulative[i - 1];
                        quote! { let #c = #prev + #w; }
                    }
                });
            let total = &cumulative[arms.len() - 1];
            let draw = charge::draw(quote! { #total - 1 }, ctx);
            let rungs = init
                .iter()
                .zip(&cumulative)
                .map(|(g, c)| quote! { if __pbt_r < #c { #g } else });
            quote_spanned! {name.span()=> {
                #(#lets)*
                #(#sums)*
                ::core::assert!(#total > 0, "pbt: frequency needs a positive total weight");
                let __pbt_r = #draw;
                #(#rungs)* { #last }
            }}
        }
        Dsl::Either(a, b, p) => {
            let least = fixed(a).min(fixed(b));
            let (a, b) = (
                charge::arm(expr(a, &ctx.deeper())?, fixed(a), least, ctx),
                charge::arm(expr(b, &ctx.deeper())?, fixed(b), least, ctx),
            );
            let draw = charge::draw(quote! { #rt::UNIT - 1 }, ctx);
            quote! {
                if #draw < #rt::threshold(#p) {
                    #a
                } else {
                    #b
                }
            }
        }
        Dsl::Map(g, f) => {
            let g = expr(g, &ctx.deeper())?;
            match inline_closure(f) {
                Some((pat, body)) => quote! {{ let #pat = #g; #body }},
                // The whole value of a variable carries the function's span
                // (see [`unwrap`]): a function of another type than the
                // variable's, such as `Rc::new`, is reported there, not at
                // the whole macro.
                None => {
                    let at = syn::spanned::Spanned::span(f);
                    let v = Ident::new("__pbt_mapped", at);
                    match &ctx.target {
                        // The whole value of a variable: bound at its
                        // declared type, so rustc names both types (and
                        // `From::from` still infers its target).
                        Some(ty) => {
                            let call = quote_spanned! {at=> (#f)(#g) };
                            quote! {{ let #v: #ty = #call; #v }}
                        }
                        None => quote! { (#f)(#g) },
                    }
                }
            }
        }
        Dsl::Filter(g, pred) => {
            let retry = charge::charge(fixed(g), ctx);
            let g = expr(g, &ctx.deeper())?;
            let label = &ctx.label;
            let rejected = rejected(
                rt,
                quote!(Filter(::core::option::Option::Some(
                    ::core::stringify!(#pred)
                ))),
            );
            let test = match inline_closure(pred) {
                Some((pat, body)) => quote! {{ let #pat = &__pbt_v; #body }},
                None => quote! { (#pred)(&__pbt_v) },
            };
            quote! {{
                let mut __pbt_tries = 0usize;
                loop {
                    let __pbt_v = #g;
                    if #test {
                        break __pbt_v;
                    }
                    __pbt_tries += 1;
                    if __pbt_tries == #rt::FILTER_TRIES {
                        break #label <::core::result::Result<_, _>>::Err(#rejected);
                    }
                    #retry
                }
            }}
        }
        Dsl::Bind(g, pat, body) => {
            let g = expr(g, &ctx.deeper())?;
            let body = expr(body, &ctx.deeper())?;
            quote! {{ let #pat = #g; #body }}
        }
        Dsl::Resize(n, g) => {
            let g = expr(g, &ctx.deeper())?;
            let size = &ctx.size;
            quote! {{
                let #size: ::core::primitive::usize = #n;
                #[allow(unused_variables)]
                let size: ::core::primitive::usize = #size;
                #g
            }}
        }
        Dsl::Recursive(ty, handle, body) => recursive(ty.as_ref(), handle, body, ctx)?,
        Dsl::Block(stmts, tail) => block(stmts, tail, ctx)?,
        Dsl::Regex(r) => crate::regex::emit(r, ctx),
        Dsl::Collection(c) => crate::collections::emit(c, ctx)?,
        Dsl::Runtime(e) => match (&ctx.rec, e) {
            (Some((handle, fun)), Expr::Path(p)) if p.path.is_ident(handle) => {
                let at = p.path.segments[0].ident.span();
                let size = &ctx.size;
                // A call, not `/`: no `clippy::integer_division` on the
                // user's generator.
                let half = quote! { ::core::primitive::usize::div_euclid(#size, 2) };
                unwrap(quote! { #fun(&mut *#src, #half) }, at, ctx)
            }
            (_, Expr::Range(r)) => return Err(crate::check::range_as_generator(r)),
            _ => {
                let at = syn::spanned::Spanned::span(e);
                leaf(quote_spanned! {at=> (#e) }, at, ctx, Drawn::Counted)
            }
        },
    })
}

/// `recursive(|rec| body)`: a local generic `fn` of the source and the size;
/// `rec` calls it at half the size.
fn recursive(ty: Option<&Type>, handle: &Ident, body: &Dsl, ctx: &Ctx) -> syn::Result<TokenStream> {
    let ty = ty.or(ctx.target.as_ref()).ok_or_else(|| {
        syn::Error::new(
            handle.span(),
            "a nested `recursive` needs the type it generates: `recursive::<T>(|rec| …)`",
        )
    })?;
    let rt = &ctx.rt;
    let fun = format_ident!("__pbt_rec{}", ctx.depth);
    let layer = format_ident!("__pbt_layer{}", ctx.depth);
    let src = format_ident!("__pbt_src{}", ctx.depth);
    let size = &ctx.size;
    let inner = Ctx {
        rt: rt.clone(),
        src: src.clone(),
        size: size.clone(),
        label: Lifetime::new(&format!("'__pbt_rec{}", ctx.depth), Span::call_site()),
        target: None,
        rec: Some((handle.clone(), fun.clone())),
        depth: ctx.depth + 1,
    };
    let body = emit_layer(body, &inner)?;
    let outer = &ctx.src;
    let call = unwrap(quote! { #fun(&mut *#outer, #size) }, handle.span(), ctx);
    Ok(quote! {{
        fn #fun<S: #rt::Source + ?::core::marker::Sized>(#src: &mut S, #size: ::core::primitive::usize) -> #rt::Generated<#ty> {
            // One layer, which charges itself and its draws (`emit_layer`).
            #[inline(always)]
            fn #layer<S: #rt::Source + ?::core::marker::Sized>(#src: &mut S, #size: ::core::primitive::usize) -> #rt::Generated<#ty> {
                #[allow(unused_variables)]
                let size: ::core::primitive::usize = #size;
                #body
            }
            // Each layer is a block, as `Recursive` and `Rec` mark it. A
            // source that does not record ignores marks: the layer is then
            // the tail call, built in place (binding it first, to end the
            // block after it, costs a copy through the stack that stalls).
            if !#rt::Source::records(&*#src) {
                return #layer(&mut *#src, #size);
            }
            #rt::Source::start_block(&mut *#src, #rt::BlockKind::Recursion);
            let __pbt_layer = #layer(&mut *#src, #size);
            #rt::Source::end_block(&mut *#src);
            __pbt_layer
        }
        #call
    }})
}

/// `{ let p = g; ensure c; …; tail }`: each `let` is a bind; the `ensure`s
/// that follow a `let` retry its draw up to `FILTER_TRIES` times.
fn block(stmts: &[Stmt], tail: &Dsl, ctx: &Ctx) -> syn::Result<TokenStream> {
    let (rt, label) = (&ctx.rt, &ctx.label);
    let mut out = TokenStream::new();
    let mut i = 0;
    while i < stmts.len() {
        let Stmt::Let(pat, g) = &stmts[i] else {
            i += 1;
            continue;
        };
        let retry = charge::charge(fixed(g), ctx);
        let g = expr(g, &ctx.deeper())?;
        let conds: Vec<&Expr> = stmts[i + 1..]
            .iter()
            .map_while(|s| match s {
                Stmt::Ensure(_, c) => Some(c),
                Stmt::Let(..) => None,
            })
            .collect();
        if conds.is_empty() {
            out.extend(quote! { let #pat = #g; });
        } else {
            let names = bound_names(pat);
            let rejected = rejected(
                rt,
                quote!(Filter(::core::option::Option::Some(
                    ::core::stringify!(#(ensure #conds);*)
                ))),
            );
            out.extend(quote! {
                let ( #(#names,)* ) = {
                    let mut __pbt_tries = 0usize;
                    loop {
                        let #pat = #g;
                        if #( (#conds) )&&* {
                            break ( #(#names,)* );
                        }
                        __pbt_tries += 1;
                        if __pbt_tries == #rt::FILTER_TRIES {
                            break #label <::core::result::Result<_, _>>::Err(#rejected);
                        }
                        #retry
                    }
                };
            });
        }
        i += 1 + conds.len();
    }
    let tail = expr(tail, &ctx.deeper())?;
    Ok(quote! {{ #out #tail }})
}

/// The variables a pattern binds, in order.
fn bound_names(pat: &Pat) -> Vec<Ident> {
    let mut out = Vec::new();
    collect_names(pat, &mut out);
    out
}

fn collect_names(pat: &Pat, out: &mut Vec<Ident>) {
    match pat {
        Pat::Ident(p) => {
            out.push(p.ident.clone());
            if let Some((_, sub)) = &p.subpat {
                collect_names(sub, out);
            }
        }
        Pat::Type(p) => collect_names(&p.pat, out),
        Pat::Tuple(p) => p.elems.iter().for_each(|e| collect_names(e, out)),
        Pat::TupleStruct(p) => p.elems.iter().for_each(|e| collect_names(e, out)),
        Pat::Struct(p) => p.fields.iter().for_each(|f| collect_names(&f.pat, out)),
        Pat::Slice(p) => p.elems.iter().for_each(|e| collect_names(e, out)),
        Pat::Reference(p) => collect_names(&p.pat, out),
        Pat::Paren(p) => collect_names(&p.pat, out),
        Pat::Or(p) => {
            if let Some(first) = p.cases.first() {
                collect_names(first, out);
            }
        }
        _ => {}
    }
}

/// A one-parameter closure literal whose body can be spliced in place
/// (`let pat = value; body`): no `move`/`async`, no `return` or `?` inside.
fn inline_closure(f: &Expr) -> Option<(Pat, TokenStream)> {
    let Expr::Closure(c) = f else { return None };
    if c.inputs.len() != 1 || c.asyncness.is_some() || c.capture.is_some() {
        return None;
    }
    let body = c.body.to_token_stream();
    if escapes(body.clone()) {
        return None;
    }
    let pat = c.inputs[0].clone();
    let body = match &c.output {
        syn::ReturnType::Default => body,
        syn::ReturnType::Type(_, ty) => quote! {{ let __pbt_out: #ty = #body; __pbt_out }},
    };
    Some((pat, body))
}

/// Whether tokens contain `return` or `?`, which mean something else once
/// a closure body is inlined.
fn escapes(tokens: TokenStream) -> bool {
    tokens.into_iter().any(|t| match t {
        TokenTree::Ident(i) => i == "return",
        TokenTree::Punct(p) => p.as_char() == '?',
        TokenTree::Group(g) => escapes(g.stream()),
        TokenTree::Literal(_) => false,
    })
}

/// A `Rejected` that first records why (`Rejection::#why`), for the message
/// of a run that gives up.
pub(crate) fn rejected(rt: &TokenStream, why: TokenStream) -> TokenStream {
    quote!(#rt::rejected(#rt::Rejection::#why))
}

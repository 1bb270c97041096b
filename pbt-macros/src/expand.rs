//! Emitting the property: the DBAS chain of `pbt-core` nodes, and for
//! `#[property_test]` the test function around it.
//!
//! `property! { forall n: u32, #[with = int(1..10)]; check n > 0 }` becomes
//!
//! ```text
//! {
//!     use ::pbt::__private::{BindCopy as _, BindRef as _, LendClone as _};
//!     fn __pbt_gen<T, G: ::pbt::__private::Gen<Value = T>>(g: G) -> G { g }
//!     ::pbt::__private::Prop::new(
//!         ::pbt::__private::Forall::<(), u32, _, _, _, _, _>::new("n", "u32",
//!             ::pbt::__private::Check::new(#[inline(always)] |__env: &(u32, ())| {
//!                 let (__v0, ()) = __env;
//!                 let n = (&::pbt::__private::Bind(__v0)).bind();
//!                 ::pbt::__private::check(|| ::pbt::__private::IntoOutcome::into_outcome(::pbt::__private::body(|| n > 0)))
//!             }))
//!         .gen(|__env: &()| {
//!             use ::pbt::__private::dsl::*;
//!             __pbt_gen::<u32, _>(int(1..10))
//!         })
//!         .reads_env(false),
//!     )
//!     .with_origin(::pbt::__private::Origin { file: ::core::file!(), … })
//! }
//! ```
//!
//! (lint `allow`s omitted). The `__pbt_*` functions give each annotation the
//! expected type, so `int(1..10)` infers `u32` and a closure's parameters
//! need no annotations.

use crate::ast::{PropertyInput, TestFn};
use crate::env::{hidden, Binding, Env, Var};
use crate::fallback;
use crate::options::Options;
use crate::validate::{self, Annotations, Check, Kind, Model, Node, Passing};
use pbt_stage::errors::Errors;
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Expr, FnArg, Ident, ItemFn, LitStr, Type};

/// `generator!(DSL)`: a staged generator value (`pbt::generators::Staged`).
pub fn generator(input: TokenStream) -> TokenStream {
    let code = syn::parse2::<pbt_stage::Dsl>(pbt_stage::normalize(input)).and_then(|dsl| {
        let src = Ident::new("__pbt_src", Span::call_site());
        pbt_stage::emit(
            &dsl,
            &pbt_stage::Ctx::new(quote!(::pbt::__private), src, None),
        )
    });
    let body = match code {
        Ok(body) => body,
        Err(e) => {
            let e = e.into_compile_error();
            return quote! {{
                #e
                #[allow(unreachable_code)]
                let __pbt_gen = ::pbt::__private::dsl::just(::core::panic!());
                __pbt_gen
            }};
        }
    };
    let size = pbt_stage::Ctx::size_variable();
    let closure = |source: TokenStream| {
        quote! {
            |__pbt_src: &mut #source, #size: ::core::primitive::usize| {
                #[allow(unused_imports)]
                use ::pbt::__private::dsl::*;
                #[allow(unused_variables)]
                let size: ::core::primitive::usize = #size;
                #body
            }
        }
    };
    let (fast, slow) = (
        closure(quote!(::pbt::__private::Rng)),
        closure(quote!(dyn ::pbt::__private::Source)),
    );
    quote! { ::pbt::__private::Staged::new(#fast, #slow) }
}

/// `property! { … }`.
pub fn property(input: TokenStream) -> TokenStream {
    syn::parse2::<PropertyInput>(input)
        .and_then(|input| Ok(property_expr(&validate::property(&input)?, None)))
        .unwrap_or_else(fallback::property)
}

/// `#[property_test(args)] item`.
pub fn property_test(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let options = errors.ok(syn::parse2::<Options>(args)).unwrap_or_default();
    let item = parameter_attributes(item, &mut errors);
    let func = match syn::parse2::<TestFn>(item.clone()) {
        Ok(func) => func,
        Err(error) => return fallback::item(item, errors.fail(error)),
    };
    let model = validate::property_test(&func.item, &func.owned, &mut errors);
    match errors.finish(model) {
        Ok(model) => test_fn(&func.item, &model, &options),
        Err(error) => fallback::test_fn(&func.item, error),
    }
}

/// The item with the DSL forms that its parameters' `#[with = …]` wrote
/// without `!` (`one_of[…]`, `ensure cond;`) rewritten, each one an error:
/// rustc parses an attribute's value as a Rust expression before this macro
/// runs, and rejects them with a parser error that names neither the form
/// nor the fix. Rewritten, the rest of the function is still checked, and
/// the fallback drops the annotations (no "cannot find attribute `with`").
fn parameter_attributes(item: TokenStream, errors: &mut Errors) -> TokenStream {
    use proc_macro2::{Delimiter, Group, TokenTree};
    let mut params = |group: &Group| {
        let mut out = Vec::new();
        let mut trees = group.stream().into_iter().peekable();
        while let Some(tree) = trees.next() {
            let is_pound = matches!(&tree, TokenTree::Punct(p) if p.as_char() == '#');
            out.push(tree);
            let Some(TokenTree::Group(attr)) = trees.peek().filter(|_| is_pound) else {
                continue;
            };
            let mut inside = attr.stream().into_iter();
            let head = inside.next();
            let generator = matches!(&head, Some(TokenTree::Ident(i)) if i == "with" || i == "gen")
                && matches!(inside.next(), Some(TokenTree::Punct(p)) if p.as_char() == '=');
            if attr.delimiter() != Delimiter::Bracket || !generator {
                continue;
            }
            let value: TokenStream = inside.collect();
            let found = pbt_stage::without_bang(value.clone());
            if found.is_empty() {
                continue;
            }
            for ident in found {
                errors.push(syn::Error::new(
                    ident.span(),
                    bang_message(&ident.to_string()),
                ));
            }
            let Some(TokenTree::Group(attr)) = trees.next() else {
                continue;
            };
            let mut rewritten = TokenStream::new();
            rewritten.extend(attr.stream().into_iter().take(2));
            rewritten.extend(pbt_stage::normalize(value));
            let mut group = Group::new(Delimiter::Bracket, rewritten);
            group.set_span(attr.span());
            out.push(TokenTree::Group(group));
        }
        Group::new(group.delimiter(), out.into_iter().collect())
    };
    item.into_iter()
        .map(|tree| match tree {
            TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis => {
                let mut rewritten = params(&g);
                rewritten.set_span(g.span());
                TokenTree::Group(rewritten)
            }
            tree => tree,
        })
        .collect()
}

/// The error for a DSL form written without its `!` in a parameter
/// attribute.
fn bang_message(form: &str) -> String {
    if form == "ensure" {
        "in a parameter attribute, write `ensure!(cond);`: rustc reads an attribute's value as a Rust \
         expression before #[property_test] sees it, and `ensure cond;` is not one \
         (`property!` and `generator!` accept both)"
            .to_owned()
    } else {
        format!(
            "in a parameter attribute, write `{form}![…]`: rustc reads an attribute's value as a Rust \
             expression before #[property_test] sees it, and `{form}[…]` is not one \
             (`property!` and `generator!` accept both)"
        )
    }
}

/// The `#[test]` function: the user's function kept inside, the property
/// over its parameters, the runner, the assertion.
fn test_fn(item: &ItemFn, model: &Model, options: &Options) -> TokenStream {
    let ItemFn {
        attrs, vis, sig, ..
    } = item;
    let name = &sig.ident;
    let has_test = attrs.iter().any(|attr| attr.path().is_ident("test"));
    let test = (!has_test).then(|| quote!(#[::core::prelude::v1::test]));
    let inner = inner_fn(item);
    let property = property_expr(model, Some(name));
    // Checked outside the test, so that `cargo check` reports them too.
    let data_misuses = model.data_misuses.iter().map(data_misuse);
    let data_misuses = (!model.data_misuses.is_empty()).then(|| {
        quote! {
            const _: () = {
                #[allow(dead_code)]
                fn data_misuses() { #(#data_misuses)* }
            };
        }
    });
    let config = options.config();
    let (prop, report) = (hidden("__prop"), hidden("__report"));
    let run = options.run(&quote!(#prop), &config);
    let examples = match options.examples.as_ref() {
        Some(examples) => match explicit_examples(examples, model, &prop) {
            Ok(code) => Some(code),
            Err(error) => return fallback::test_fn(item, error),
        },
        None => None,
    };
    // A failure panics "at" the function's name (`assert_passed` tracks its caller).
    let assert = quote_spanned!(name.span()=> #report.assert_passed());
    // The run goes on a thread of its own that the test abandons if it
    // hangs, so a hang is this test's failure and not the whole binary's.
    quote! {
        #data_misuses
        #(#attrs)*
        #test
        #vis fn #name() {
            #inner
            let #report = ::pbt::__private::abandonable(|| {
                let #prop = #property;
                #examples
                #run
            });
            #assert;
        }
    }
}

/// `examples = [e, …]`: each example as the property's inputs (the
/// environment list, newest variable first), run before the runner. An
/// example is a tuple of one value per parameter, or, for a one-parameter
/// function, the value itself.
fn explicit_examples(
    examples: &syn::ExprArray,
    model: &Model,
    prop: &Ident,
) -> syn::Result<TokenStream> {
    let vars: Vec<Var> = model.vars().copied().collect();
    let passing: &[Passing] = match &model.check {
        Check::Call { passing, .. } => passing,
        Check::Expr(_) => &[],
    };
    let mut errors = Errors::default();
    let inputs: Vec<TokenStream> = examples
        .elems
        .iter()
        .map(|example| {
            let values: Vec<&Expr> = match (example, vars.len()) {
                (_, 1) => vec![example],
                (Expr::Tuple(t), n) if t.elems.len() == n => t.elems.iter().collect(),
                _ => {
                    let names: Vec<String> = vars.iter().map(|v| v.name.label()).collect();
                    errors.at(
                        example.span(),
                        format!(
                            "expected an example with {} value(s), one per parameter: `({})`",
                            vars.len(),
                            names.join(", ")
                        ),
                    );
                    return TokenStream::new();
                }
            };
            // A borrowed parameter's example may be written as borrowed too.
            values
                .iter()
                .zip(passing.iter().chain(std::iter::repeat(&Passing::Owned)))
                .fold(quote!(()), |rest, (value, passing)| match passing {
                    Passing::Owned => quote!((#value, #rest)),
                    Passing::Shared | Passing::Exclusive => quote!((
                        ::pbt::__private::Example::into_example(#value),
                        #rest
                    )),
                })
        })
        .collect();
    errors.finish(())?;
    let ty = Env::new(&vars).ty();
    let bracket = examples.bracket_token.span.join();
    let list = hidden("__examples");
    Ok(quote_spanned! {bracket=>
        #[allow(clippy::type_complexity)]
        let #list: ::std::vec::Vec<#ty> = ::std::vec![#(#inputs),*];
        ::pbt::__private::run_examples(&#prop, #list);
    })
}

/// The user's function as it will run inside the test: its own attributes
/// move to the test, and its parameters keep only lint attributes.
pub fn inner_fn(item: &ItemFn) -> ItemFn {
    let mut inner = item.clone();
    // The property calls it with owned clones, whatever the body does.
    inner.attrs = vec![syn::parse_quote!(#[allow(clippy::needless_pass_by_value)])];
    inner.vis = syn::Visibility::Inherited;
    for input in &mut inner.sig.inputs {
        if let FnArg::Typed(param) = input {
            param.attrs.retain(validate::is_lint);
        }
    }
    inner
}

/// The `Prop` value: helpers in scope, the chain, the origin (the macro's
/// invocation, or the test function's name).
fn property_expr(model: &Model, name: Option<&Ident>) -> TokenStream {
    let helpers = helpers(model);
    // A `#[property_test]` has them checked beside the test (`test_fn`).
    let data_misuses: Vec<TokenStream> = match name {
        None => model.data_misuses.iter().map(data_misuse).collect(),
        Some(_) => Vec::new(),
    };
    let root = chain(model);
    let (name, at) = match name {
        Some(name) => {
            let lit = LitStr::new(&name.unraw().to_string(), name.span());
            (quote!(::core::option::Option::Some(#lit)), name.span())
        }
        None => (quote!(::core::option::Option::None), Span::call_site()),
    };
    let line = quote_spanned!(at=> ::core::line!());
    quote! {{
        #[allow(unused_imports)]
        use ::pbt::__private::{BindCopy as _, BindRef as _, LendClone as _};
        #helpers
        #(#data_misuses)*
        // Variables of non-`Copy` types are bound by reference, so `&xs` in a
        // use site is a needless borrow that users write naturally.
        #[allow(clippy::needless_borrow, clippy::needless_borrows_for_generic_args)]
        let __pbt_prop = ::pbt::__private::Prop::new(#root).with_origin(::pbt::__private::Origin {
            file: ::core::file!(),
            line: #line,
            module: ::core::module_path!(),
            name: #name,
            manifest_dir: ::core::option_env!("CARGO_MANIFEST_DIR"),
        });
        __pbt_prop
    }}
}

/// A variable whose type is written `Data`, used as pbt's `Data` may not
/// be: an error at `span` when its type is pbt's (picked by type, so
/// another type called `Data` passes).
fn data_misuse(misuse: &crate::validate::DataMisuse) -> TokenStream {
    let ty = misuse.ty;
    let require = match misuse.not_mut_ref {
        true => quote_spanned!(misuse.span=> ::pbt::__private::data_taken_as_mut_ref),
        false => quote_spanned!(misuse.span=> ::pbt::__private::data_not_annotated),
    };
    quote_spanned! {misuse.span=>
        {
            #[allow(unused_imports)]
            use ::pbt::__private::DataParamOther as _;
            #require((&::pbt::__private::DataParam::<#ty>::new()).kind());
        }
    }
}

/// The chain from the check outwards: each node wraps the rest.
fn chain(model: &Model) -> TokenStream {
    let vars: Vec<Var> = model.vars().copied().collect();
    let mut rest = check(&model.check, &Env::new(&vars));
    let mut bound = vars.len();
    for node in model.nodes.iter().rev() {
        rest = match node {
            Node::Forall(var, annotations) => {
                bound -= 1;
                // `#[target = …]` sees the variable itself: a node after it.
                if let Some(target) = annotations.get(Kind::Target) {
                    rest = target_node(target, &Env::new(&vars[..=bound]), rest);
                }
                forall(var, annotations, &Env::new(&vars[..bound]), rest)
            }
            Node::Implies(pre, keyword) => implies(pre, *keyword, &Env::new(&vars[..bound]), rest),
        };
    }
    rest
}

/// `Target::new(f, rest)`: the value of `#[target = expr]` over the variables
/// up to and including the annotated one, as an `f64`.
fn target_node(expr: &Expr, env: &Env, rest: TokenStream) -> TokenStream {
    let span = expr.span();
    let body = quote_spanned!(span=> ::core::convert::Into::<::core::primitive::f64>::into(#expr));
    let closure = env.closure(
        Binding::ByName,
        Some(quote!(::core::primitive::f64)),
        TokenStream::new(),
        body,
    );
    quote!(::pbt::__private::Target::new(#closure, #rest))
}

/// `Forall::new(name, type, rest)` and its annotations, in the order the
/// builder requires (see [`Kind::ALL`]).
fn forall(var: &Var, annotations: &Annotations, env: &Env, rest: TokenStream) -> TokenStream {
    let Var { name, ty } = var;
    let name = LitStr::new(&name.label(), name.span());
    let ty_name = LitStr::new(&type_name(ty), ty.span());
    let env_ty = env.ty();
    let mut node = quote! {
        ::pbt::__private::Forall::<#env_ty, #ty, _, _, _, _, _>::new(#name, #ty_name, #rest)
    };
    for (kind, expr) in annotations.iter().filter(|(k, _)| *k != Kind::Target) {
        node = if kind == Kind::Gen {
            let (fast, slow) = staged(expr, ty, env);
            quote!(#node.gen_staged(#fast, #slow))
        } else {
            let method = Ident::new(kind.name(), Span::call_site());
            let closure = annotation(kind, expr, ty, env);
            quote!(#node.#method(#closure))
        };
    }
    // What is by type is picked at the type, so that a type without the
    // trait is an error there (not where the runner is called).
    let by_type = |method: &str, traits: TokenStream| {
        let method = Ident::new(method, ty.span());
        quote_spanned! {ty.span()=> {
            #[allow(unused_imports)]
            use ::pbt::__private::#traits;
            (&::pbt::__private::PickByType::<#ty>::new()).#method()
        }}
    };
    let (gen, shrink) = (annotations.get(Kind::Gen), annotations.get(Kind::Shrink));
    if gen.is_none() {
        let pick = by_type("gen_by_type", quote!({GenAvailable as _, GenMissing as _}));
        node = quote!(#node.gen_by(#pick));
    }
    if gen.is_none() && shrink.is_none() {
        let pick = by_type(
            "shrink_by_type",
            quote!({ShrinkAvailable as _, ShrinkMissing as _}),
        );
        node = quote!(#node.shrink_by(#pick));
    }
    if annotations.get(Kind::Print).is_none() {
        let pick = by_type(
            "print_by_type",
            quote!({PrintAvailable as _, PrintMissing as _}),
        );
        node = quote!(#node.print_by(#pick));
    }
    // The type's constructor view, when it has one (combinatorial runner).
    node = quote! {
        #node.constructors_by({
            #[allow(unused_imports)]
            use ::pbt::__private::{NoView as _, ViewByType as _};
            (&::pbt::__private::PickView::<#ty>::new()).view()
        })
    };
    if let Some(gen) = annotations.get(Kind::Gen) {
        let reads = env.read_by(gen.to_token_stream());
        node = quote!(#node.reads_env(#reads));
    } else if annotations.get(Kind::Mutate).is_none() {
        // Generated by type: mutated by the type's `Mutate` when it has one.
        node = quote! {
            #node.mutate_by({
                #[allow(unused_imports)]
                use ::pbt::__private::{MutatorByGen as _, MutatorByType as _};
                (&::pbt::__private::PickMutator::<#ty>::new()).mutator()
            })
        };
    }
    node
}

/// The two closures of a staged `#[with = …]`: the generator's code over
/// `&mut Rng` (every draw inlined) and over `&mut dyn Source`, both
/// `|env, source, size| -> Generated<T>` (*Fail Faster* §4; `pbt-stage`).
fn staged(expr: &Expr, ty: &Type, env: &Env) -> (TokenStream, TokenStream) {
    let code = crate::validate::staged_dsl(expr).and_then(|dsl| {
        let src = Ident::new("__pbt_src", Span::call_site());
        let ctx = pbt_stage::Ctx::new(quote!(::pbt::__private), src, Some(ty.clone()));
        pbt_stage::emit(&dsl, &ctx)
    });
    let body = code.unwrap_or_else(syn::Error::into_compile_error);
    // The draws read the size through a name of the macro's own; `size` is
    // for the user's expressions, and a variable of that name shadows it.
    let size = pbt_stage::Ctx::size_variable();
    let prelude = quote! {
        #[allow(unused_imports)]
        use ::pbt::__private::dsl::*;
        #[allow(unused_variables)]
        let size: ::core::primitive::usize = #size;
    };
    let ret = quote!(::pbt::__private::Generated<#ty>);
    let closure = |source: TokenStream| {
        env.closure_with(
            quote!(__pbt_src: &mut #source, #size: ::core::primitive::usize),
            Binding::ByName,
            Some(ret.clone()),
            prelude.clone(),
            body.clone(),
        )
    };
    // The fast closure always inlined, as the check is: a dependent
    // generator (`int(0..=x)` after `forall x`) was otherwise called out of
    // line, with the generator's state stored to memory and loaded back
    // around each call (38 instructions a test on the pair of
    // `benches/runner_throughput.rs`, a sixth of it).
    let fast = closure(quote!(::pbt::__private::Rng));
    (
        quote!(#[inline(always)] #fast),
        closure(quote!(dyn ::pbt::__private::Source)),
    )
}

/// The closure of one annotation: the user's expression, typed by its helper.
fn annotation(kind: Kind, expr: &Expr, ty: &Type, env: &Env) -> TokenStream {
    let span = expr.span();
    let mut helper = helper_name(kind);
    helper.set_span(helper.span().located_at(span));
    let (prelude, holes) = match kind {
        // The combinators are imported before the variables are bound, so a
        // variable named like a combinator shadows it.
        Kind::Gen => (
            quote! {
                #[allow(unused_imports)]
                use ::pbt::__private::dsl::*;
            },
            quote!(_),
        ),
        Kind::Mutate | Kind::Target => (TokenStream::new(), quote!(_)),
        Kind::Shrink | Kind::Print => (TokenStream::new(), quote!(_, _)),
    };
    let body = quote_spanned!(span=> #helper::<#ty, #holes>(#expr));
    env.closure(Binding::ByName, None, prelude, body)
}

/// `Implies::new(pre, rest)`; `pre` must be a `bool` (a mismatch points at
/// the `implies` keyword as the reason).
fn implies(pre: &Expr, keyword: Span, env: &Env, rest: TokenStream) -> TokenStream {
    let ret = quote_spanned!(keyword=> ::core::primitive::bool);
    let closure = env.closure(
        Binding::ByName,
        Some(ret),
        TokenStream::new(),
        pre.to_token_stream(),
    );
    // The precondition's utility (*Flexible and Automatic Targeted Property-Based Testing* Fig. 3), for runners that
    // target preconditions.
    let text = quote!(::core::stringify!(#pre));
    let Some(utility) = crate::utility::derive_graded(pre) else {
        return quote!(::pbt::__private::Implies::new(#closure, #rest).text(#text));
    };
    let utility = env.closure(
        Binding::ByName,
        Some(quote!(::core::primitive::f64)),
        quote! {
            #[allow(unused_imports)]
            use ::pbt::__private::utility::{CmpNumber as _, CmpOther as _};
        },
        utility,
    );
    quote!(::pbt::__private::Implies::new(#closure, #rest).text(#text).utility(#utility))
}

/// `Check::new(f)` over the whole environment.
fn check(check: &Check, env: &Env) -> TokenStream {
    let closure = match check {
        // `check` turns the value into a verdict, and a failed `assume!`
        // inside into a discard. The expression is a closure of its own
        // (`body`), so a `return` in it returns the check's value.
        Check::Expr(expr) => {
            let body = quote_spanned!(expr.span()=>
                ::pbt::__private::check(|| ::pbt::__private::IntoOutcome::into_outcome(::pbt::__private::body(|| #expr)))
            );
            env.closure(Binding::ByName, None, TokenStream::new(), body)
        }
        Check::Call {
            func,
            output,
            passing,
        } => {
            let args = env
                .slots()
                .zip(passing)
                .map(|(slot, passing)| passing.arg(&slot));
            let body = quote_spanned!(*output=>
                ::pbt::__private::check(|| ::pbt::__private::IntoOutcome::into_outcome(#func(#(#args),*)))
            );
            env.closure(Binding::Slots, None, TokenStream::new(), body)
        }
    };
    // Inlined into the runner's loop, with `check`'s catch: out of line,
    // the call and the verdict returned through memory cost about a third
    // of a test of a cheap check (`benches/runner_throughput.rs`).
    quote!(::pbt::__private::Check::new(#[inline(always)] #closure))
}

/// The identity functions that give each annotation its expected type (so
/// closures need no parameter types and literals take the variable's type),
/// emitted for the annotations used.
fn helpers(model: &Model) -> TokenStream {
    let used = |kind: Kind| {
        model.nodes.iter().any(|node| match node {
            Node::Forall(_, annotations) => annotations.get(kind).is_some(),
            Node::Implies(..) => false,
        })
    };
    Kind::ALL
        .into_iter()
        .filter(|&kind| !matches!(kind, Kind::Gen | Kind::Target) && used(kind))
        .map(|kind| {
            let name = helper_name(kind);
            match kind {
                Kind::Gen => quote! {
                    fn #name<T, G: ::pbt::__private::Gen<Value = T>>(g: G) -> G { g }
                },
                Kind::Shrink => quote! {
                    fn #name<T, I: ::core::iter::IntoIterator<Item = T>, F: ::core::ops::Fn(&T) -> I>(f: F) -> F { f }
                },
                Kind::Print => quote! {
                    fn #name<T, R: ::core::fmt::Display, F: ::core::ops::Fn(&T) -> R>(f: F) -> F { f }
                },
                Kind::Mutate => quote! {
                    fn #name<
                        T,
                        F: ::core::ops::Fn(&T, &mut dyn ::pbt::__private::Source, ::core::primitive::usize) -> T,
                    >(f: F) -> F { f }
                },
                Kind::Target => TokenStream::new(),
            }
        })
        .collect()
}

/// The name of the helper for annotations of `kind`.
fn helper_name(kind: Kind) -> Ident {
    Ident::new(&format!("__pbt_{}", kind.name()), Span::mixed_site())
}

/// A type as the user would write it: `Vec<u32>`, not `Vec < u32 >`.
/// Spaces are kept only between words (and after `mut`, `dyn`, a lifetime…),
/// after `,` and `;`, and around `->`, `+` and `=`, whatever spacing the
/// token printer chose.
pub fn type_name(ty: &Type) -> String {
    tokens_as_written(ty.to_token_stream())
}

/// Tokens (a type, a pattern) spaced as a user would write them; see
/// [`type_name`].
pub fn tokens_as_written(tokens: TokenStream) -> String {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '\'';
    let spaced = |c: char| matches!(c, '+' | '=');
    // Characters of a multi-character operator (`==`, `..=`, `->`, `<=`),
    // which `TokenStream::to_string` writes with no gap between them.
    let operator = |c: char| "!%&*+-./:<=>?^|".contains(c);
    let mut out = String::new();
    let mut gap = false;
    let text: Vec<char> = tokens.to_string().chars().collect();
    for (i, &c) in text.iter().enumerate() {
        // A comparison or logical operator, spaced as rustfmt spaces it
        // (`<` and `>` alone may be generics, which are not).
        let binary =
            |a: char, b: char| matches!((a, b), ('<' | '>' | '!', '=') | ('&', '&') | ('|', '|'));
        let starts_binary = text.get(i + 1).is_some_and(|&n| binary(c, n));
        if c.is_whitespace() {
            gap = true;
            continue;
        }
        if let Some(p) = out.chars().last() {
            let last = out.rsplit(|c| !word(c)).next().unwrap_or("");
            let keyword = matches!(last, "mut" | "const" | "dyn" | "impl" | "as" | "unsafe")
                || last.starts_with('\'');
            let joint = !gap && operator(p) && operator(c);
            let space = !joint
                && ((gap && word(p) && word(c))
                    || (gap && keyword && matches!(c, '<' | '(' | '[' | '&' | '*'))
                    || matches!(p, ',' | ';')
                    || (spaced(p) && !out.ends_with("..="))
                    || (spaced(c) && !out.ends_with(".."))
                    || c == '-'
                    || (gap && starts_binary)
                    || out.ends_with("&&")
                    || out.ends_with("||")
                    || matches!(c, '{' | '}')
                    || p == '{'
                    || (p == ':' && c != ':' && !out.ends_with("::"))
                    || out.ends_with("->"));
            if space {
                out.push(' ');
            }
        }
        out.push(c);
        gap = false;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::type_name;
    use syn::parse_quote;

    #[test]
    fn type_names_read_as_written() {
        let cases: [(syn::Type, &str); 10] = [
            (parse_quote!(u32), "u32"),
            (parse_quote!(Vec<u32>), "Vec<u32>"),
            (
                parse_quote!(std::collections::HashMap<String, Vec<(u8, i8)>>),
                "std::collections::HashMap<String, Vec<(u8, i8)>>",
            ),
            (parse_quote!([u8; 4]), "[u8; 4]"),
            (parse_quote!(&'static str), "&'static str"),
            (
                parse_quote!(Option<Box<dyn Fn(u8) -> u8>>),
                "Option<Box<dyn Fn(u8) -> u8>>",
            ),
            (
                parse_quote!(Box<dyn Iterator<Item = u8> + Send>),
                "Box<dyn Iterator<Item = u8> + Send>",
            ),
            (
                parse_quote!(&'a mut <T as Tr>::Out),
                "&'a mut <T as Tr>::Out",
            ),
            (
                parse_quote!(&'a [fn(u8) -> *const u8]),
                "&'a [fn(u8) -> *const u8]",
            ),
            (parse_quote!([u8; { N + 1 }]), "[u8; { N + 1 }]"),
        ];
        for (ty, expected) in cases {
            assert_eq!(type_name(&ty), expected);
        }
    }

    #[test]
    fn operators_read_as_written() {
        let cases: [(syn::Expr, &str); 4] = [
            (
                parse_quote!(vec(int(0..1000u32), 1000..=1000)),
                "vec(int(0..1000u32), 1000..=1000)",
            ),
            (parse_quote!(a == b), "a == b"),
            (parse_quote!(x <= 3 && y >= 4), "x <= 3 && y >= 4"),
            (parse_quote!(n += 1), "n += 1"),
        ];
        for (expr, expected) in cases {
            let written = super::tokens_as_written(quote::ToTokens::to_token_stream(&expr));
            assert_eq!(written, expected);
        }
    }

    #[test]
    fn patterns_read_as_written() {
        let cases: [(syn::Pat, &str); 5] = [
            (parse_quote!((a, b)), "(a, b)"),
            (parse_quote!(_), "_"),
            (parse_quote!(&x), "&x"),
            (
                parse_quote!(Point { x, y: (p, q) }),
                "Point { x, y: (p, q) }",
            ),
            (parse_quote!([first, .., last]), "[first, .., last]"),
        ];
        for (pat, expected) in cases {
            let written = super::tokens_as_written(quote::ToTokens::to_token_stream(&pat));
            assert_eq!(written, expected);
        }
    }
}

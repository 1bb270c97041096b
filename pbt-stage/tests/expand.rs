//! Expansion snapshots: what the staging emits for a handful of generators,
//! printed as `cargo expand` would print it. Each snapshot is a function over
//! the source; read them to see that a bind is a `let`, a union one draw and
//! an `if` ladder, `vec` a loop, `recursive` a local `fn`.
//!
//! `PBT_BLESS=1 cargo test -p pbtest-stage --test expand` rewrites the snapshots
//! (read the diff before committing).

use pbt_stage::{emit, normalize, Ctx, Dsl};
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use std::path::PathBuf;

/// The emitted code of `dsl`, as a formatted function returning `ty`.
fn expand(dsl: &str, ty: &str) -> String {
    let tokens: TokenStream = dsl.parse().expect("the DSL lexes");
    let dsl: Dsl = syn::parse2(normalize(tokens)).expect("the DSL parses");
    let ty: syn::Type = syn::parse_str(ty).expect("the type parses");
    let src = Ident::new("src", Span::call_site());
    let ctx = Ctx::new(quote!(::pbt::__private), src, Some(ty.clone()));
    let body = emit(&dsl, &ctx).expect("the DSL stages");
    // The draws read the size through `ctx.size`; `size` is the user's.
    let size = &ctx.size;
    let file: syn::File = syn::parse2(quote! {
        fn generate<S: ::pbt::__private::Source + ?Sized>(
            src: &mut S,
            #size: usize,
        ) -> ::pbt::__private::Generated<#ty> {
            let size = #size;
            #body
        }
    })
    .unwrap_or_else(|e| panic!("the emitted code parses as Rust: {e}\n{body}"));
    prettyplease::unparse(&file)
}

fn snapshot(name: &str, dsl: &str, ty: &str) {
    let actual = format!("// {dsl}\n{}", expand(dsl, ty));
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/expand")
        .join(format!("{name}.rs"));
    if std::env::var_os("PBT_BLESS").is_some() {
        std::fs::write(&path, &actual).expect("write the snapshot");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("no snapshot {}: run with PBT_BLESS=1", path.display()));
    assert_eq!(
        expected, actual,
        "the expansion of {name} changed (PBT_BLESS=1 to accept)"
    );
}

#[test]
fn dependent_pair() {
    snapshot(
        "dependent_pair",
        "{ let x = int(0..1000u32); let y = int(0..=x); (x, y) }",
        "(u32, u32)",
    );
}

#[test]
fn weighted_union_with_runtime_weight() {
    snapshot(
        "weighted_union",
        "frequency[1 => just(0u8), size => int(1..10u8), 3 => map(bool(), |b| b as u8)]",
        "u8",
    );
}

#[test]
fn vec_is_a_loop() {
    snapshot(
        "vec_loop",
        "vec(one_of[int(0..10i64), just(-1)], 0..100)",
        "Vec<i64>",
    );
}

#[test]
fn recursion_is_a_local_fn() {
    snapshot(
        "recursive_tree",
        "recursive(|rec| frequency[1 => just(Tree::Leaf), size => map((rec, rec), node)])",
        "Tree",
    );
}

#[test]
fn ensure_retries_the_latest_draw() {
    snapshot(
        "ensure",
        "{ let x = int(0..50u32); let y = int(0..50u32); ensure y > x; (x, y) }",
        "(u32, u32)",
    );
}

#[test]
fn filter_and_escape_hatch() {
    snapshot(
        "filter_and_runtime",
        "filter((my_runtime_gen(), either(bool(), just(true), 0.25)), |(n, _)| n % 2 == 0)",
        "(u32, bool)",
    );
}

#[test]
fn regex_literal() {
    snapshot(
        "regex_literal",
        r#"regex("(ab|c)[x-z0-3]{1,4}.?")"#,
        "String",
    );
}

#[test]
fn unique_map() {
    snapshot(
        "unique_map",
        "hash_map(int(0..10u8), option(bool()), 1..=3)",
        "std::collections::HashMap<u8, Option<bool>>",
    );
}

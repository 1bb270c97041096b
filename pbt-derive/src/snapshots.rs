//! Expansion snapshots: each `tests/expand/NAME.rs` holds a derive input;
//! its expansion, pretty-printed, must equal `tests/expand/NAME.expanded.rs`.
//! `PBT_BLESS=1 cargo test -p pbtest-derive` rewrites the snapshots (read the
//! diff before committing).

use std::path::Path;

fn expand(source: &str) -> String {
    let input: syn::DeriveInput = syn::parse_str(source).expect("a derive input");
    let tokens = quote::quote!(#input);
    let mut out = crate::expand::arbitrary(tokens.clone());
    let derives_mutate = input.attrs.iter().any(|a| {
        a.path().is_ident("derive")
            && quote::ToTokens::to_token_stream(a)
                .to_string()
                .contains("Mutate")
    });
    if derives_mutate {
        out.extend(crate::expand::mutate(tokens));
    }
    let file: syn::File = syn::parse2(out).expect("the expansion parses as items");
    prettyplease::unparse(&file)
}

#[test]
fn expansions_match_their_snapshots() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand");
    let bless = std::env::var_os("PBT_BLESS").is_some();
    let mut failures = Vec::new();
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/expand exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| {
            p.to_string_lossy().ends_with(".rs") && !p.to_string_lossy().ends_with(".expanded.rs")
        })
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no inputs in {}", dir.display());
    for input in inputs {
        let source = std::fs::read_to_string(&input).expect("readable input");
        let expanded = expand(&source);
        let snapshot = input.with_extension("expanded.rs");
        if bless {
            std::fs::write(&snapshot, &expanded).expect("writable snapshot");
            continue;
        }
        match std::fs::read_to_string(&snapshot) {
            Ok(old) if old == expanded => {}
            _ => failures.push(snapshot.display().to_string()),
        }
    }
    assert!(
        failures.is_empty(),
        "expansions changed: {failures:?}; rerun with PBT_BLESS=1 and read the diff"
    );
}

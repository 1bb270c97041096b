//! The public surface is pinned: `docs/architecture.md` lists every `pub mod`
//! and `pub use` of the facade's entry files (the section "One public path
//! per item"), and this test fails when the code and that listing differ. It
//! also checks the one-path rule on the listing itself: no item re-exported
//! by two of its lines (the prelude aside).

use std::collections::BTreeMap;
use std::path::Path;

/// The entry files, with the module path their statements are in.
const FILES: [(&str, &str); 3] = [
    ("src/lib.rs", "pbt"),
    ("pbt-runners/src/lib.rs", "pbt::runners"),
    (
        "pbt-runners/src/components/mod.rs",
        "pbt::runners::components",
    ),
];

const BEGIN: &str = "<!-- public surface: begin -->";
const END: &str = "<!-- public surface: end -->";

/// Every `pub mod` / `pub use` statement of `source` on one line each, with
/// whitespace collapsed; a `pub mod name { … }` block's statements are
/// prefixed with `name::`. Stops at the hidden `__private` module.
fn statements(source: &str, module: &str) -> Vec<String> {
    let code: String = source
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ");
    let code = code.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = Vec::new();
    let mut scope: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut rest = code.as_str();
    while let Some(i) = rest.find(['{', '}', 'p']) {
        let here = &rest[i..];
        if let Some(inside) = here.strip_prefix('{') {
            depth += 1;
            rest = inside;
            continue;
        }
        if let Some(after) = here.strip_prefix('}') {
            depth = depth.saturating_sub(1);
            if scope.last().is_some_and(|(_, d)| *d == depth) {
                scope.pop();
            }
            rest = after;
            continue;
        }
        let at_word = i == 0 || !rest[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        let prefix = scope
            .iter()
            .map(|(m, _)| format!("{m}::"))
            .collect::<String>();
        if at_word && here.starts_with("pub mod ") {
            let name: String = here["pub mod ".len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if name == "__private" {
                break;
            }
            let after = &here["pub mod ".len() + name.len()..];
            out.push(format!("{module}::{prefix}: pub mod {name}").replace("::: ", ": "));
            if after.trim_start().starts_with('{') {
                scope.push((name.clone(), depth));
            }
            rest = after;
            continue;
        }
        if at_word && here.starts_with("pub use ") {
            let end = here.find(';').expect("a `pub use` ends with `;`");
            let stmt = here[..=end]
                .replace("{ ", "{")
                .replace(" }", "}")
                .replace(",}", "}");
            out.push(format!("{module}::{prefix}: {stmt}").replace("::: ", ": "));
            rest = &here[end + 1..];
            continue;
        }
        rest = &here[1..];
    }
    out
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn surface() -> Vec<String> {
    FILES
        .iter()
        .flat_map(|(file, module)| {
            let source = std::fs::read_to_string(root().join(file)).expect("entry file");
            statements(&source, module)
        })
        .collect()
}

fn listed() -> Vec<String> {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).expect("the doc");
    let begin = doc.find(BEGIN).expect("the listing's begin marker") + BEGIN.len();
    let end = doc.find(END).expect("the listing's end marker");
    doc[begin..end]
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("```"))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_public_surface_is_the_one_docs_architecture_lists() {
    let actual = surface();
    let listed = listed();
    assert!(
        actual == listed,
        "the public surface changed; update the listing in docs/architecture.md to:\n\
         {BEGIN}\n```text\n{}\n```\n{END}",
        actual.join("\n")
    );
}

#[test]
fn no_item_is_re_exported_twice() {
    // Leaf names re-exported by each line, outside the prelude.
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for line in surface().iter().filter(|l| !l.contains("::prelude")) {
        let Some((module, stmt)) = line.split_once(": pub use ") else {
            continue;
        };
        let stmt = stmt.trim_end_matches(';');
        // The derives and attribute macros live in the macro namespace: the
        // derive `Arbitrary` beside the trait `Arbitrary` is one name each.
        let namespace = match stmt.starts_with("pbt_derive::") || stmt.starts_with("pbt_macros::") {
            true => "macro ",
            false => "",
        };
        let leaves: Vec<&str> = match stmt.split_once('{') {
            Some((_, list)) => list.trim_end_matches('}').split(',').collect(),
            None => vec![stmt.rsplit("::").next().unwrap_or(stmt)],
        };
        for leaf in leaves {
            let leaf = leaf.trim();
            let name = leaf.rsplit(" as ").next().unwrap_or(leaf).trim();
            if name.is_empty() || name == "*" {
                continue;
            }
            let path = format!("{namespace}{module}::{name}");
            if let Some(other) = seen.insert(path.clone(), line.clone()) {
                panic!("{path} is re-exported twice:\n  {other}\n  {line}");
            }
        }
    }
    // The node types are `pbt::dbas::…` only; the per-test types `pbt::…` only.
    for path in seen.keys().filter(|p| p.starts_with("pbt::dbas::")) {
        let root = path.replacen("pbt::dbas::", "pbt::", 1);
        assert!(!seen.contains_key(&root), "{path} duplicates {root}");
    }
    // The runners and the run's vocabulary have one path: `pbt::runners::…`.
    for name in [
        "Config",
        "Report",
        "Pool",
        "SeedPool",
        "Utility",
        "Statistics",
    ] {
        assert!(
            !seen.contains_key(&format!("pbt::{name}")),
            "pbt::{name} duplicates pbt::runners::…"
        );
        assert!(
            !seen.contains_key(&format!("pbt::runners::{name}"))
                || matches!(name, "Config" | "Report"),
            "pbt::runners::{name} duplicates its components module's path"
        );
    }
}

#[test]
fn the_one_paths_resolve() {
    // A compile-time check that each family's items are where the doc says.
    use pbt::runners::components::seed_pool::{Energy, Pool, SeedPool};
    use pbt::runners::components::statistics::{CoverageCheck, CoverageOutcome, Statistics};
    use pbt::runners::components::utility::{Maximize, Utility};
    use pbt::runners::components::{InProcess, RunStep};
    let pool: Box<dyn SeedPool> = Pool::FifoQueue(Energy::Fixed(1)).build();
    assert_eq!(pool.best().map(|s| s.size), None);
    let utility: &dyn Utility = &Maximize;
    let _ = utility;
    let config = pbt::runners::Config::default().check_coverage_with(CoverageCheck::default());
    assert_eq!(Statistics::new(&config).tests, 0);
    assert_ne!(CoverageOutcome::Met, CoverageOutcome::Below);
    fn takes_a_step<S: RunStep>(_: Option<S>) {}
    takes_a_step::<InProcess<'_>>(None);
}

#[test]
fn the_components_import_no_runner() {
    // The bottom layer: nothing under components/ names a runner module.
    let runners = [
        "generational",
        "integrated",
        "parallel",
        "combinatorial",
        "fuzz",
        "targeted",
    ];
    let mut stack = vec![root().join("pbt-runners/src/components")];
    let mut checked = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("components dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let source = std::fs::read_to_string(&path).expect("a source file");
            for runner in runners {
                for import in [
                    format!("crate::{runner}"),
                    format!("super::super::{runner}"),
                ] {
                    assert!(
                        !source.contains(&import),
                        "{} imports the runner module {runner}",
                        path.display()
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} files found");
}

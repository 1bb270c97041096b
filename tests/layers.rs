//! The components are layered: `docs/architecture.md` lists the modules of
//! `pbt-runners/src/components/` in order, lowest first, one line per layer
//! (the section "Component layers"), and a module may name only the modules
//! listed before it. This test reads every component file and fails on a
//! path that names a module listed after its own — in a `use` line or
//! written inline in code (`super::isolation::shrink_hang(…)`), through the
//! module (`super::found::Found`) or through a re-export of `mod.rs`
//! (`super::Found`) — and on a module the listing misses or names wrongly.
//! With the order total, an import cycle between components cannot build.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const BEGIN: &str = "<!-- component layers: begin -->";
const END: &str = "<!-- component layers: end -->";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn components() -> PathBuf {
    root().join("pbt-runners/src/components")
}

/// The layers as `docs/architecture.md` lists them, lowest first: each line
/// of the listing is `layer: module, module, … — what it holds`.
fn layers() -> Vec<(String, Vec<String>)> {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).expect("the doc");
    let begin = doc.find(BEGIN).expect("the layers' begin marker") + BEGIN.len();
    let end = doc.find(END).expect("the layers' end marker");
    doc[begin..end]
        .lines()
        .filter_map(|line| {
            let (layer, rest) = line.split_once(':')?;
            let modules = rest.split(" — ").next().unwrap_or("");
            let modules = modules
                .split(',')
                .map(|m| m.trim().trim_matches('`').to_string())
                .collect();
            Some((layer.trim().to_string(), modules))
        })
        .collect()
}

/// Each component module's files: `name.rs`, or everything under `name/`.
fn modules() -> BTreeMap<String, Vec<PathBuf>> {
    let mut out: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for entry in std::fs::read_dir(components()).expect("components dir") {
        let path = entry.expect("entry").path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            let mut stack = vec![path];
            while let Some(dir) = stack.pop() {
                for entry in std::fs::read_dir(&dir).expect("a module's dir") {
                    let path = entry.expect("entry").path();
                    match path.is_dir() {
                        true => stack.push(path),
                        false => out.entry(name.clone()).or_default().push(path),
                    }
                }
            }
        } else if name != "mod" {
            out.entry(name).or_default().push(path);
        }
    }
    out
}

/// `source` with its comments, string literals and character literals
/// blanked (newlines kept, so positions keep their line), so that a path
/// in a doc comment, a doctest or a message is not read as code.
fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    let blank = |out: &mut String, from: &[char]| {
        out.extend(from.iter().map(|&c| if c == '\n' { '\n' } else { ' ' }));
    };
    while i < chars.len() {
        let rest = &chars[i..];
        let word_start = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        let skip = if rest.starts_with(&['/', '/']) {
            rest.iter().position(|&c| c == '\n').unwrap_or(rest.len())
        } else if rest.starts_with(&['/', '*']) {
            (2..rest.len())
                .find(|&j| rest[j - 1] == '*' && rest[j] == '/')
                .map_or(rest.len(), |j| j + 1)
        } else if rest[0] == '"' {
            let mut j = 1;
            while j < rest.len() && rest[j] != '"' {
                j += if rest[j] == '\\' { 2 } else { 1 };
            }
            (j + 1).min(rest.len())
        } else if word_start && rest[0] == 'r' && rest.get(1).is_some_and(|&c| c == '#' || c == '"')
        {
            let hashes = rest[1..].iter().take_while(|&&c| c == '#').count();
            let open = 1 + hashes;
            if rest.get(open) != Some(&'"') {
                0
            } else {
                let close: Vec<char> = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                (open + 1..rest.len())
                    .find(|&j| rest[j..].starts_with(&close))
                    .map_or(rest.len(), |j| j + close.len())
            }
        } else if rest[0] == '\'' && rest.get(1) == Some(&'\\') {
            2 + rest[2..].iter().position(|&c| c == '\'').unwrap_or(0) + 1
        } else if rest[0] == '\'' && rest.get(2) == Some(&'\'') {
            3
        } else {
            0
        };
        if skip == 0 {
            out.push(rest[0]);
            i += 1;
        } else {
            blank(&mut out, &rest[..skip]);
            i += skip;
        }
    }
    out
}

/// The first segments a path's tail names: `found::Found` names `found`,
/// `{found::Found, cases::Plan}` names `found` and `cases`.
fn heads(tail: &str) -> Vec<String> {
    let tail = tail.trim_start();
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let Some(group) = tail.strip_prefix('{') else {
        return vec![ident(tail)];
    };
    let (mut depth, mut start, mut out) = (0usize, 0usize, Vec::new());
    for (j, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                out.push(ident(&group[start..j]));
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(ident(&group[start..j]));
                start = j + 1;
            }
            _ => {}
        }
    }
    out.into_iter().filter(|s| !s.is_empty()).collect()
}

/// Every name a file gives to an item of `components` (a child module or a
/// re-exported item): `super::…` paths that climb exactly to the components
/// module (counting the file's folders and its inline `mod … { }` blocks),
/// and `crate::components::…` paths. Each with its line.
fn references(source: &str, nesting: usize) -> Vec<(usize, String)> {
    let code = code_only(source);
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut inline_mods: Vec<usize> = Vec::new();
    let mut mod_opens = false;
    let mut i = 0;
    while i < bytes.len() {
        let rest = &code[i..];
        let word_start = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        match bytes[i] {
            b'{' => {
                depth += 1;
                if std::mem::take(&mut mod_opens) {
                    inline_mods.push(depth);
                }
            }
            b'}' => {
                if inline_mods.last() == Some(&depth) {
                    inline_mods.pop();
                }
                depth = depth.saturating_sub(1);
            }
            b';' => mod_opens = false,
            _ if word_start && rest.starts_with("mod ") => mod_opens = true,
            _ if word_start && (rest.starts_with("super::") || rest.starts_with("crate::")) => {
                let line = code[..i].matches('\n').count() + 1;
                let mut tail = rest;
                let mut supers = 0;
                while let Some(after) = tail.strip_prefix("super::") {
                    supers += 1;
                    tail = after.trim_start();
                }
                let to_components = if supers > 0 {
                    supers == nesting + inline_mods.len() + 1
                } else {
                    match tail.strip_prefix("crate::components::") {
                        Some(after) => {
                            tail = after;
                            true
                        }
                        None => false,
                    }
                };
                if to_components {
                    out.extend(heads(tail).into_iter().map(|head| (line, head)));
                }
                i += (rest.len() - tail.len()).max(1);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The module each name `mod.rs` re-exports comes from (`Found` → `found`,
/// `held_inputs` → `erased`).
fn re_exports() -> BTreeMap<String, String> {
    let source = std::fs::read_to_string(components().join("mod.rs")).expect("mod.rs");
    let code = code_only(&source);
    let mut out = BTreeMap::new();
    for stmt in code.split(';') {
        let stmt = stmt.split_whitespace().collect::<Vec<_>>().join(" ");
        let Some(at) = stmt.find("use ") else {
            continue;
        };
        let path = &stmt[at + 4..];
        let Some((module, items)) = path.split_once("::") else {
            continue;
        };
        let items = items.trim_start_matches('{').trim_end_matches('}');
        for item in items.split(',') {
            let name = match item.split_once(" as ") {
                Some((_, alias)) => alias,
                None => item.rsplit("::").next().unwrap_or(item),
            };
            out.insert(name.trim().to_string(), module.trim().to_string());
        }
    }
    out
}

#[test]
fn every_component_module_is_in_one_layer() {
    let listed: Vec<String> = layers().into_iter().flat_map(|(_, m)| m).collect();
    let unique: BTreeSet<&String> = listed.iter().collect();
    assert_eq!(
        unique.len(),
        listed.len(),
        "a module listed twice: {listed:?}"
    );
    let found: BTreeSet<String> = modules().into_keys().collect();
    let listed: BTreeSet<String> = listed.into_iter().collect();
    assert_eq!(
        found, listed,
        "the component modules (left) and the layers docs/architecture.md lists (right) differ: \
         a new component goes on its layer's line"
    );
}

#[test]
fn no_component_names_a_module_above_it() {
    let order: BTreeMap<String, (usize, String)> = layers()
        .into_iter()
        .flat_map(|(layer, modules)| modules.into_iter().map(move |m| (m, layer.clone())))
        .enumerate()
        .map(|(rank, (module, layer))| (module, (rank, layer)))
        .collect();
    let re_exported = re_exports();
    let mut upward = Vec::new();
    let mut seen = 0;
    for (module, files) in modules() {
        let Some((rank, layer)) = order.get(&module) else {
            continue; // every_component_module_is_in_one_layer says so
        };
        for file in files {
            let source = std::fs::read_to_string(&file).expect("a source file");
            let relative = file.strip_prefix(components()).unwrap();
            // `name.rs` and `name/mod.rs` are the component module itself;
            // `name/child.rs` is one module down.
            let nesting = relative.components().count()
                - 1
                - usize::from(relative.file_name().is_some_and(|f| f == "mod.rs"));
            for (line, name) in references(&source, nesting) {
                seen += 1;
                let target = match order.contains_key(&name) {
                    true => name.clone(),
                    false => match re_exported.get(&name) {
                        Some(target) => target.clone(),
                        None => continue,
                    },
                };
                let (target_rank, target_layer) = &order[&target];
                if target != module && target_rank > rank {
                    upward.push(format!(
                        "components/{}:{line}: `{module}` ({layer}) names `{name}`, of `{target}` \
                         ({target_layer}), listed after it",
                        relative.display()
                    ));
                }
            }
        }
    }
    assert!(seen > 50, "only {seen} references to components found");
    assert!(
        upward.is_empty(),
        "imports up the layers of docs/architecture.md:\n{}",
        upward.join("\n")
    );
}

#[test]
fn the_reader_sees_inline_and_grouped_paths() {
    // The scanner itself, on the shapes the components use.
    let source = "use super::{found::Found, cases::{Cases, Plan}};\n\
                  // super::comment is not code\n\
                  fn f() { super::isolation::shrink_hang(\"super::string\", 'x'); }\n\
                  mod tests { use super::*; use super::super::watch::Watch; }\n\
                  fn g<'a>(x: &'a u8) { crate::components::erased::held(x); }\n";
    let names: Vec<(usize, String)> = references(source, 0);
    let expected = [
        (1, "found"),
        (1, "cases"),
        (3, "isolation"),
        (4, "watch"),
        (5, "erased"),
    ];
    let expected: Vec<(usize, String)> =
        expected.iter().map(|&(l, n)| (l, n.to_string())).collect();
    assert_eq!(names, expected);
    // One folder down, `super::super` is the components module.
    assert_eq!(
        references(
            "use super::{Reply, CHILD};\nuse super::super::found::Found;",
            1
        ),
        vec![(2, "found".to_string())]
    );
}

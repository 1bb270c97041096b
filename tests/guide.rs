//! The guide (`docs/guide/*.md`, shipped as the `pbt::guide` module) kept
//! honest where its doctests cannot reach:
//!
//! - the `#[property_test]` functions it shows (and the README shows)
//!   compile away in a doctest (outside `cargo test`'s harness a `#[test]`
//!   is not even type-checked), so they are repeated here, run as tests,
//!   and compared with the text;
//! - the configuration chapter must name every `#[property_test]` option,
//!   every `Config` field and every `PBT_*` variable the library reads;
//! - nothing in the repository cites a file that does not ship (the team's
//!   papers folder, the design notes) or an example that does not exist, and
//!   tests and benchmarks are named for what they cover.

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: impl AsRef<Path>) -> String {
    let path = root().join(path);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// Every file under `dir` (recursively) whose name ends with one of `exts`,
/// skipping build output and version control.
fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !(name.starts_with("target") || name.starts_with('.')) {
                files(&path, exts, out);
            }
        } else if exts.iter().any(|ext| name.ends_with(ext)) {
            out.push(path);
        }
    }
}

fn chapters() -> Vec<(String, String)> {
    let mut paths = Vec::new();
    files(&root().join("docs/guide"), &[".md"], &mut paths);
    paths.sort();
    assert!(paths.len() >= 13, "the guide's chapters: {paths:?}");
    paths
        .into_iter()
        .map(|p| {
            let text = fs::read_to_string(&p).unwrap();
            (p.file_name().unwrap().to_string_lossy().into_owned(), text)
        })
        .collect()
}

/// The `#[property_test]` items of the guide's Rust code blocks: from the
/// attribute to the function's closing brace at the start of a line.
fn property_test_items(markdown: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut in_rust = false;
    let mut current: Option<Vec<&str>> = None;
    for line in markdown.lines() {
        if line.starts_with("```") {
            in_rust = line == "```rust";
            continue;
        }
        if !in_rust {
            continue;
        }
        if line.starts_with("#[property_test") {
            current = Some(Vec::new());
        }
        if let Some(item) = current.as_mut() {
            item.push(line);
            if line == "}" {
                items.push(item.join("\n"));
                current = None;
            }
        }
    }
    items
}

/// Lines with their indentation removed, so an item may sit in a module here.
fn unindented(text: &str) -> String {
    text.lines().map(str::trim).collect::<Vec<_>>().join("\n")
}

#[test]
fn every_property_test_of_the_guide_runs_here_verbatim() {
    let here = unindented(&read("tests/guide.rs"));
    let mut count = 0;
    let readme = ("README.md".to_string(), read("README.md"));
    for (chapter, text) in chapters().into_iter().chain([readme]) {
        for item in property_test_items(&text) {
            count += 1;
            assert!(
                here.contains(&unindented(&item)),
                "{chapter}: this #[property_test] is not in tests/guide.rs (copy it into the \
                 chapter's module there):\n{item}"
            );
        }
    }
    assert!(
        count >= 10,
        "found only {count} #[property_test] items in the guide"
    );
}

#[test]
fn the_configuration_chapter_names_every_option_field_and_variable() {
    let chapter = read("docs/guide/13-configuration.md");

    // #[property_test(…)] options: the macro's list of valid names.
    let options = read("pbt-macros/src/options.rs");
    let list = options.split("const VALID").nth(1).unwrap();
    let list = &list[list.find('[').unwrap()..list.find("];").unwrap()];
    let names: Vec<&str> = list.split('"').skip(1).step_by(2).collect();
    assert!(names.contains(&"cases") && names.len() >= 9, "{names:?}");
    for name in names {
        assert!(
            chapter.contains(&format!("`{name}")),
            "option `{name}` is not in the chapter"
        );
    }

    // Config fields: the public fields of `pub struct Config`.
    let config = read("pbt-runners/src/config.rs");
    let body = config.split("pub struct Config {").nth(1).unwrap();
    let body = &body[..body.find("\n}").unwrap()];
    let fields: Vec<&str> = body
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub ")?.split(':').next())
        .collect();
    assert!(
        fields.contains(&"cases") && fields.len() >= 20,
        "{fields:?}"
    );
    for field in fields {
        assert!(
            chapter.contains(&format!("`{field}`")),
            "Config::{field} is not in the chapter"
        );
    }

    // PBT_* variables named anywhere in the library's sources.
    let mut sources = Vec::new();
    for dir in [
        "src",
        "pbt-core/src",
        "pbt-runners/src",
        "pbt-macros/src",
        "pbt-derive/src",
    ] {
        files(&root().join(dir), &[".rs"], &mut sources);
    }
    for dir in ["pbt-stage", "pbt-regex-syntax", "pbt-exhaustive"] {
        files(&root().join(dir), &[".rs"], &mut sources);
    }
    let mut vars = std::collections::BTreeSet::new();
    for path in &sources {
        let text = fs::read_to_string(path).unwrap();
        for (at, _) in text.match_indices("PBT_") {
            let name: String = text[at..]
                .chars()
                .take_while(|c| c.is_ascii_uppercase() || *c == '_')
                .collect();
            let name = name.trim_end_matches('_');
            if name.len() > "PBT".len() {
                vars.insert(name.to_string()); // not `PBT_*` in prose
            }
        }
    }
    assert!(
        vars.contains("PBT_SEED") && vars.contains("PBT_ISOLATE"),
        "{vars:?}"
    );
    for var in &vars {
        assert!(
            chapter.contains(&format!("`{var}`")),
            "{var} is not in the chapter"
        );
    }
}

#[test]
fn nothing_cites_what_does_not_ship() {
    // Spelled in pieces so this file does not match itself.
    let forbidden = [
        ["papers", "/0"].concat(),
        ["shared", "/papers"].concat(),
        // The design notes, cited by section (also across a line break).
        ["DESI", "GN"].concat(),
        ["custom", "_runner"].concat(),
    ];
    let mut paths = Vec::new();
    files(&root(), &[".rs", ".md", ".toml", ".sh"], &mut paths);
    let mut found = Vec::new();
    for path in &paths {
        let Ok(text) = fs::read_to_string(path) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            for bad in &forbidden {
                if line.contains(bad.as_str()) {
                    found.push(format!("{}:{}: {line}", path.display(), n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "references to files that do not ship:\n{}",
        found.join("\n")
    );
}

#[test]
fn tests_and_benchmarks_are_named_for_what_they_cover() {
    let mut paths = Vec::new();
    files(&root().join("tests"), &[".rs", ".sh"], &mut paths);
    files(&root().join("benches"), &[".rs", ".sh"], &mut paths);
    let word = ["iss", "ue"].concat();
    let mut found = Vec::new();
    for path in &paths {
        let text = fs::read_to_string(path).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            let cites_number = lower.match_indices(&word).any(|(at, _)| {
                let rest = lower[at + word.len()..].trim_start_matches([' ', '#', ':']);
                rest.starts_with(|c: char| c.is_ascii_digit())
            });
            if cites_number {
                found.push(format!("{}:{}: {line}", path.display(), n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "name what is covered, not a tracker number:\n{}",
        found.join("\n")
    );
}

// The guide's #[property_test] functions, chapter by chapter, as the guide
// shows them (checked by `every_property_test_of_the_guide_runs_here_verbatim`).

#[rustfmt::skip]
mod readme {
    use pbt::prelude::*;

    #[property_test(cases = 500)]
    fn reverse_twice_is_identity(xs: Vec<u8>) -> bool {
        let mut ys = xs.clone();
        ys.reverse();
        ys.reverse();
        ys == xs
    }
}

#[rustfmt::skip]
mod ch01_first_property {
    use pbt::prelude::*;

    #[property_test]
    fn reverse_twice_is_identity(xs: Vec<u8>) -> bool {
        let mut ys = xs.clone();
        ys.reverse();
        ys.reverse();
        ys == xs
    }
}

#[rustfmt::skip]
mod ch02_generators {
    use pbt::prelude::*;
    use pbt::generators::int;

    #[property_test]
    fn removing_an_element_shortens_the_list(xs: Vec<u8>, data: &mut Data) {
        assume!(!xs.is_empty());
        let i = data.draw_named("i", int(0..xs.len()));
        let mut ys = xs.clone();
        ys.remove(i);
        assert_eq!(ys.len(), xs.len() - 1);
    }
}

#[rustfmt::skip]
mod ch04_preconditions {
    use pbt::prelude::*;

    #[property_test(examples = [("", 0), ("abc", 3)], cases = 300)]
    fn a_prefix_is_a_prefix(#[with = string('a'..='z', 0..10)] s: &str, #[with = int(0..10usize)] n: usize) -> bool {
        assume!(n <= s.len());
        s.starts_with(&s[..n])
    }
}

#[rustfmt::skip]
mod ch05_failures {
    use pbt::prelude::*;

    /// Recurses without end on 0: a stack overflow, which would abort the
    /// whole test binary if a generator ever produced it without isolation.
    fn countdown(n: u8) -> u8 {
        if n == 1 { 0 } else { countdown(n.wrapping_sub(1)) }
    }

    #[property_test(isolated, timeout_ms = 2_000)]
    fn countdown_terminates(#[with = int(1..=255u8)] n: u8) -> bool {
        countdown(n) == 0
    }
}

#[rustfmt::skip]
mod ch06_runners {
    use pbt::prelude::*;

    #[property_test(runner = parallel, cases = 1_000)]
    fn addition_commutes(a: i64, b: i64) -> bool {
        a.wrapping_add(b) == b.wrapping_add(a)
    }

    #[property_test(runner = pbt_exhaustive::exhaustive)]
    fn xor_commutes(a: bool, b: bool) -> bool {
        (a ^ b) == (b ^ a)
    }
}

#[rustfmt::skip]
mod ch08_stateful {
    use pbt::generators::int;
    use pbt::prelude::*;
    use pbt::stateful::{check, Program, StateMachine};

    #[derive(Debug)]
    struct Adder;

    impl StateMachine for Adder {
        type Model = u64;
        type System = u64;
        type Command = u8;
        type Output = u64;
        fn init_model(&self) -> u64 { 0 }
        fn init_system(&self) -> u64 { 0 }
        fn commands<'a>(&'a self, _: &'a u64) -> impl Gen<Value = u8> + 'a { int(0..=9u8) }
        fn apply_model(&self, s: &mut u64, c: &u8) -> u64 { *s += *c as u64; *s }
        fn apply_system(&self, s: &mut u64, c: &u8) -> u64 { *s += *c as u64; *s }
    }

    #[property_test(cases = 100)]
    fn adder_agrees_with_its_model(#[with = Adder.programs()] program: Program<Adder>) -> Outcome {
        check(&Adder, &program)
    }
}

#[rustfmt::skip]
mod ch12_async {
    use pbt::prelude::*;

    async fn double(x: u32) -> u64 { x as u64 * 2 }

    #[property_test]
    fn double_is_even(x: u32) -> bool {
        // With tokio: tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(double(x))
        let out = block_on_spin(double(x));
        out % 2 == 0
    }

    /// A stand-in for your executor's `block_on` (see the example above).
    fn block_on_spin<F: std::future::Future>(fut: F) -> F::Output {
        use std::task::{Context, Poll, Waker};
        let mut cx = Context::from_waker(Waker::noop());
        let mut fut = std::pin::pin!(fut);
        loop {
            if let Poll::Ready(out) = fut.as_mut().poll(&mut cx) {
                return out;
            }
        }
    }
}

#[rustfmt::skip]
mod ch13_configuration {
    use pbt::prelude::*;
    use pbt::runners::Regressions;

    fn quick() -> Config {
        Config::default().max_size(20).regressions(Regressions::Off)
    }

    #[property_test(config = quick(), cases = 50, seed = 7, timeout_ms = 1_000, shrink = "both")]
    fn sum_is_commutative(a: Vec<u8>, b: Vec<u8>) -> bool {
        let s = |v: &[u8]| v.iter().map(|&x| x as u32).sum::<u32>();
        s(&a) + s(&b) == s(&b) + s(&a)
    }
}

#[rustfmt::skip]
mod ch14_from_proptest {
    use pbt::prelude::*;

    #[derive(Debug, Clone, PartialEq)]
    struct Email { user: String, domain: String }

    impl Email {
        fn render(&self) -> String { format!("{}@{}", self.user, self.domain) }
        fn parse(s: &str) -> Option<Email> {
            let (user, domain) = s.split_once('@')?;
            Some(Email { user: user.into(), domain: domain.into() })
        }
    }

    fn arb_email() -> impl Gen<Value = Email> {
        pbt::generator!(map(
            (regex("[a-z][a-z0-9.]{0,9}"), one_of[just("example.com".to_string()), regex("[a-z]{2,8}\\.org")]),
            |(user, domain)| Email { user, domain }
        ))
    }

    #[property_test(cases = 200)]
    fn parse_inverts_render(#[with = arb_email()] e: Email) {
        assert_eq!(Email::parse(&e.render()), Some(e));
    }

    #[property_test(cases = 200)]
    fn short_local_parts(#[with = arb_email()] e: Email, #[with = int(0..20usize)] n: usize) {
        assume!(n <= e.user.len());
        assert!(e.render().starts_with(&e.user[..n]));
    }
}

#[rustfmt::skip]
mod ch15_from_quickcheck {
    use pbt::prelude::*;

    #[derive(Clone, Debug, PartialEq, Arbitrary, Mutate)]
    enum Op { Pop, Push(u8) }

    #[property_test(cases = 200, config = Config::default().max_size(50))]
    fn stack_len(ops: &[Op]) -> bool {
        assume!(!ops.is_empty());
        let mut stack = Vec::new();
        let mut pushes = 0usize;
        for op in ops {
            match op { Op::Push(x) => { stack.push(*x); pushes += 1 } Op::Pop => { stack.pop(); } }
        }
        stack.len() <= pushes
    }

    #[property_test]
    fn reverse_reverse(xs: &[u32]) -> bool {
        xs.iter().rev().rev().eq(xs.iter())
    }
}

#[test]
fn every_chapter_is_shipped_and_listed() {
    let module = read("src/guide/mod.rs");
    let index = read("docs/guide/README.md");
    for (chapter, _) in chapters() {
        if chapter == "README.md" {
            continue;
        }
        assert!(
            module.contains(&format!("include_str!(\"../../docs/guide/{chapter}\")")),
            "{chapter} is not included by src/guide/mod.rs"
        );
        assert!(
            index.contains(&format!("({chapter})")),
            "{chapter} is not listed in docs/guide/README.md"
        );
    }
}

/// The `[package]` name and whether it ships (`publish = false` does not)
/// of every workspace member, and of the root package first.
fn packages() -> Vec<(String, bool)> {
    let root_manifest = read("Cargo.toml");
    let members: Vec<String> = root_manifest
        .lines()
        .skip_while(|l| !l.starts_with("members"))
        .skip(1)
        .take_while(|l| !l.starts_with(']'))
        .filter_map(|l| {
            l.trim()
                .strip_prefix('"')?
                .split('"')
                .next()
                .map(str::to_string)
        })
        .collect();
    let mut manifests = vec![root_manifest];
    manifests.extend(members.iter().map(|m| read(format!("{m}/Cargo.toml"))));
    manifests
        .iter()
        .map(|text| {
            let package = text.split("[package]").nth(1).expect("a [package] table");
            let name = package
                .lines()
                .find_map(|l| l.strip_prefix("name = \""))
                .and_then(|rest| rest.split('"').next())
                .expect("a package name");
            let ships = !package
                .split("\n[")
                .next()
                .unwrap()
                .contains("publish = false");
            (name.to_string(), ships)
        })
        .collect()
}

/// The dependency names of every `toml` block of `markdown` (lines
/// `name = …` under a `[dependencies]`-like table), with the line.
fn install_lines(markdown: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut in_toml = false;
    let mut in_deps = false;
    for line in markdown.lines() {
        let line = line.trim_start_matches("//!").trim();
        if line.starts_with("```") {
            in_toml = line == "```toml";
            in_deps = false;
            continue;
        }
        if !in_toml {
            continue;
        }
        if line.starts_with('[') {
            in_deps = line.ends_with("dependencies]");
        } else if in_deps {
            if let Some((name, _)) = line.split_once('=') {
                out.push((name.trim().to_string(), line.to_string()));
            }
        }
    }
    out
}

#[test]
fn every_install_line_names_a_package_that_ships() {
    let packages = packages();
    let (facade, ships) = &packages[0];
    assert!(ships, "the facade ships");
    let shipped: Vec<&str> = packages
        .iter()
        .filter(|(_, ships)| *ships)
        .map(|(n, _)| n.as_str())
        .collect();
    let mut pages: Vec<(String, String)> = chapters();
    pages.push(("the repository's README.md".into(), read("README.md")));
    pages.push(("src/lib.rs".into(), read("src/lib.rs")));
    let mut bad = Vec::new();
    for (page, text) in &pages {
        for (name, line) in install_lines(text) {
            // Our packages: every name this workspace has, and `pbt` itself
            // (another project's on crates.io).
            let ours = name == "pbt" || packages.iter().any(|(n, _)| *n == name);
            if ours && !shipped.contains(&name.as_str()) {
                bad.push(format!(
                    "{page}: `{line}` names a package that does not ship"
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    for page in [
        "01-first-property.md",
        "src/lib.rs",
        "the repository's README.md",
    ] {
        let text = &pages.iter().find(|(p, _)| p == page).unwrap().1;
        let first = install_lines(text);
        assert_eq!(
            first.first().map(|(n, _)| n.as_str()),
            Some(facade.as_str()),
            "{page}: the first install line names the facade's package"
        );
    }
}

#[test]
fn install_lines_are_read_from_toml_blocks_only() {
    let text = "```toml\n[dev-dependencies]\npbt = \"0.1\"\n```\n```rust\nlet pbt = 1;\n```\n";
    assert_eq!(
        install_lines(text),
        [("pbt".to_string(), "pbt = \"0.1\"".to_string())]
    );
    let names: Vec<String> = packages().into_iter().map(|(n, _)| n).collect();
    assert!(names.contains(&"pbtest-core".to_string()), "{names:?}");
    assert!(names.contains(&"pbt-eval".to_string()), "{names:?}");
}

/// Backquoted words of `text` that look like a path (`a/b.ext`).
fn cited_paths(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| w.contains('/') && !w.contains(' ') && !w.contains("::"))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_pages_on_docs_rs_cite_no_file_of_the_repository() {
    // On docs.rs the repository's files are out of reach: the crate's front
    // page and the guide's chapters link to the guide instead.
    let mut pages: Vec<(String, String)> = chapters()
        .into_iter()
        .filter(|(name, _)| name != "README.md")
        .collect();
    let front: String = read("src/lib.rs")
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .collect::<Vec<_>>()
        .join("\n");
    pages.push(("src/lib.rs".into(), front));
    let mut found = Vec::new();
    for (page, text) in &pages {
        for path in cited_paths(text) {
            // A file of this repository (a folder such as `src/` is every
            // crate's).
            if root().join(&path).is_file() {
                found.push(format!("{page}: `{path}`"));
            }
        }
    }
    assert!(found.is_empty(), "repository paths:\n{}", found.join("\n"));
}

#[test]
fn ci_packages_every_package_that_ships_and_nothing_else() {
    let run = read(".ci/run");
    let command: String = run
        .lines()
        .skip_while(|l| !l.starts_with("cargo package"))
        .take_while(|l| !l.starts_with("echo"))
        .collect();
    let mut named: Vec<&str> = command
        .split_whitespace()
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|w| w[0] == "-p")
        .map(|w| w[1])
        .collect();
    named.sort();
    let packages = packages();
    let mut shipped: Vec<&str> = packages
        .iter()
        .filter(|(_, ships)| *ships)
        .map(|(n, _)| n.as_str())
        .collect();
    shipped.sort();
    assert_eq!(
        named, shipped,
        ".ci/run's cargo package names every package that ships"
    );
}

//! Reading a child test binary's output, for the tests that run scenarios
//! in a child (`tests/hang_neighbours.rs`, `tests/saved_per_test.rs`,
//! `tests/profiles.rs`).

use std::process::Output;

/// The child's status, stdout and stderr, for an assertion's message.
pub fn text(out: &Output) -> String {
    format!(
        "status: {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The report of test `name` in libtest's output: from its `---- name
/// stdout ----` header to the next one.
pub fn report_of<'a>(all: &'a str, name: &str) -> &'a str {
    let header = format!("---- {name} stdout ----");
    let start = all
        .find(&header)
        .unwrap_or_else(|| panic!("no report of {name}:\n{all}"));
    let rest = &all[start + header.len()..];
    let end = rest
        .find("\n---- ")
        .or_else(|| rest.find("\nfailures:"))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The lines of `all` that start with `prefix`, the first line a test
/// prints included (under `--nocapture` it follows libtest's `test name
/// ... ` on the same line).
#[allow(
    dead_code,
    reason = "not every test binary that includes this module reads lines"
)]
pub fn lines_starting<'a>(all: &'a str, prefix: &str) -> Vec<&'a str> {
    all.lines()
        .map(|l| match l.starts_with("test ") {
            true => l.split_once(" ... ").map_or(l, |(_, rest)| rest),
            false => l,
        })
        .filter(|l| l.starts_with(prefix))
        .collect()
}

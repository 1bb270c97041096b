//! The regressions file: failing cases saved next to the test sources and
//! replayed first on the next run, so a found bug is never lost.
//!
//! One case per line, `cc <case seed> <size> # <test>: <counterexample>`;
//! for an input found by mutating choices, `cx <size> <choice>,<choice>,… # …`;
//! for one found by mutating another by value, `cm <step>,<step>,… ` before
//! the `cc` or `cx` it started from (each step seeds one `Property::mutate`).
//! Like proptest's, the file belongs to a source file, and every property in
//! that file replays all of its cases (a seed that fails one property is just
//! another random case for the others). Commit it.

use super::cases::{Case, Found};
use crate::config::{parse_u64, Regressions};
use pbt_core::property::Origin;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

const HEADER: &str = "# pbt regressions: failing cases found by pbt, replayed before new ones.\n\
# Commit this file so a found bug is never lost. One case per line:\n\
# cc <case seed> <size> # <test>: <counterexample>   (or: cx <size> <choices> # …,\n\
# or cm <mutation seeds> cc|cx … # … for an input mutated by value)\n";

/// A regressions file (which may not exist yet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegressionsFile {
    path: PathBuf,
}

impl RegressionsFile {
    /// The file to use under `setting` for a property written at `origin`.
    pub fn locate(setting: &Regressions, origin: Option<&Origin>) -> Option<Self> {
        match setting {
            Regressions::Off => None,
            Regressions::File(path) => Some(RegressionsFile { path: path.clone() }),
            Regressions::Beside => {
                let source = find_source(Path::new(origin?.file))?;
                Some(RegressionsFile {
                    path: source.with_extension("pbt-regressions"),
                })
            }
        }
    }

    /// Where the file is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The saved inputs (none if the file does not exist).
    pub fn load(&self) -> Vec<Found> {
        let Ok(text) = fs::read_to_string(&self.path) else {
            return Vec::new();
        };
        text.lines().filter_map(parse_line).collect()
    }

    /// Append `found` (unless already saved), with a one-line note.
    pub fn save(&self, found: &Found, test: &str, note: &str) -> io::Result<()> {
        if self.load().contains(found) {
            return Ok(());
        }
        if let Some(dir) = self.path.parent() {
            fs::create_dir_all(dir)?;
        }
        let fresh = !self.path.exists();
        let mut f = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)?;
        if fresh {
            f.write_all(HEADER.as_bytes())?;
        }
        let note: String = note.chars().filter(|c| *c != '\n').take(300).collect();
        writeln!(f, "{} # {test}: {note}", encode(found))
    }
}

/// `found` as the start of a line of the file.
fn encode(found: &Found) -> String {
    let hex_list = |xs: &[u64]| {
        let list: Vec<String> = xs.iter().map(|c| format!("{c:x}")).collect();
        list.join(",")
    };
    match found {
        Found::Case(case) => format!("cc {:#x} {}", case.seed, case.size),
        Found::Choices { choices, size } => format!("cx {size} {}", hex_list(choices)),
        Found::Mutated { base, steps } => format!("cm {} {}", hex_list(steps), encode(base)),
    }
}

/// One saved input, or `None` for comments and malformed lines.
fn parse_line(line: &str) -> Option<Found> {
    if let Some(rest) = line.strip_prefix("cm ") {
        let (steps, base) = rest.split_once(' ')?;
        let steps = steps
            .split(',')
            .map(|c| u64::from_str_radix(c, 16).ok())
            .collect::<Option<Vec<u64>>>()?;
        let base = parse_line(base).filter(|b| !matches!(b, Found::Mutated { .. }))?;
        return Some(Found::Mutated {
            base: Box::new(base),
            steps,
        });
    }
    if let Some(rest) = line.strip_prefix("cc ") {
        let mut words = rest.split_whitespace();
        let seed = parse_u64(words.next()?)?;
        let size = words.next()?.parse().ok()?;
        return Some(Found::Case(Case { seed, size }));
    }
    let rest = line.strip_prefix("cx ")?;
    let mut words = rest.split_whitespace();
    let size = words.next()?.parse().ok()?;
    let list = words.next().filter(|w| *w != "#").unwrap_or("");
    let choices = list
        .split(',')
        .filter(|c| !c.is_empty())
        .map(|c| u64::from_str_radix(c, 16).ok())
        .collect::<Option<Vec<u64>>>()?;
    Some(Found::Choices { choices, size })
}

/// The source file `file!()` names, found from the working directory (cargo
/// runs tests in the package root, while `file!()` may be relative to the
/// workspace root).
fn find_source(file: &Path) -> Option<PathBuf> {
    if file.is_absolute() {
        return file.exists().then(|| file.to_path_buf());
    }
    let roots = [
        std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from),
        std::env::current_dir().ok(),
    ];
    for root in roots.into_iter().flatten() {
        let mut rest = file;
        loop {
            let candidate = root.join(rest);
            if candidate.is_file() {
                return Some(candidate);
            }
            let mut parts = rest.components();
            parts.next()?;
            rest = parts.as_path();
            if rest.as_os_str().is_empty() {
                break;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(file: &'static str) -> Origin {
        Origin {
            file,
            line: 1,
            module: "m",
            name: None,
        }
    }

    #[test]
    fn the_file_sits_next_to_the_source_even_from_the_workspace_root() {
        // `file!()` in a workspace member is relative to the workspace root.
        let found = RegressionsFile::locate(
            &Regressions::Beside,
            Some(&origin("pbt-runners/src/components/regressions.rs")),
        )
        .expect("the source file is found");
        assert!(found
            .path()
            .ends_with("pbt-runners/src/components/regressions.pbt-regressions"));
        assert!(
            RegressionsFile::locate(&Regressions::Beside, Some(&origin("no/such/file.rs")))
                .is_none()
        );
        assert!(RegressionsFile::locate(&Regressions::Off, Some(&origin("src/lib.rs"))).is_none());
    }

    #[test]
    fn cases_round_trip_and_are_not_duplicated() {
        let dir = std::env::temp_dir().join(format!("pbt-regressions-unit-{}", std::process::id()));
        let file = RegressionsFile {
            path: dir.join("x.pbt-regressions"),
        };
        let case = Found::Case(Case {
            seed: 0xfeed,
            size: 12,
        });
        let mutated = Found::Choices {
            choices: vec![3, 0, 255],
            size: 4,
        };
        let empty = Found::Choices {
            choices: vec![],
            size: 0,
        };
        file.save(&case, "t", "x = 1").unwrap();
        file.save(&case, "t", "x = 1").unwrap();
        file.save(&mutated, "t", "x = 2\nand more").unwrap();
        file.save(&empty, "t", "x = 3").unwrap();
        let by_value = case.mutated(0xabc).mutated(7);
        let choices_by_value = mutated.mutated(1);
        file.save(&by_value, "t", "x = 4").unwrap();
        file.save(&choices_by_value, "t", "x = 5").unwrap();
        file.save(&by_value, "t", "x = 4").unwrap();
        assert_eq!(
            file.load(),
            vec![case, mutated, empty, by_value, choices_by_value]
        );
        let text = fs::read_to_string(file.path()).unwrap();
        assert!(text.contains("cm abc,7 cc 0xfeed 12 # t: x = 4"), "{text}");
        let _ = fs::remove_dir_all(&dir);
    }
}

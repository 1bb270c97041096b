//! The regressions file: failing cases saved beside the crate and replayed
//! first on the next run, so a found bug is never lost.
//!
//! The cases of a source file `<package>/src/lib.rs` live in
//! `<package>/pbt-regressions/src/lib.txt`: one folder at the package's
//! root mirrors the source paths (as proptest's `proptest-regressions/`
//! does), so nothing is written inside `src/`, where `cargo package` would
//! ship it. A file at the old place, beside the source
//! (`src/lib.pbt-regressions`), is still read, with a one-line note saying
//! where its cases now live.
//!
//! One case per line, `cc <case seed> <size> @ <test> # <counterexample>`;
//! for an input found by mutating choices, `cx <size> <choice>,<choice>,… @ <test> # …`;
//! for one found by mutating another by value, `cm <step>,<step>,… ` before
//! the `cc` or `cx` it started from (each step seeds one `Property::mutate`);
//! for the external shrinker's result, `cs <index>,<index>,… ` before the
//! line of the input it shrank (each index picks one `Property::shrink`
//! candidate).
//! The file belongs to a source file, and each case to the test that saved
//! it: `@ <test>` names the test by its path (`module::path::fn` for a
//! `#[property_test]`, the test's name under libtest for a `property!` run
//! in a `#[test]`), and a test replays only its own cases, the newest (the
//! shrunk one) first ([`RegressionsFile::load_for`]). A line without a key,
//! as older versions wrote them (`cc <seed> <size> # <test>: …`), is
//! replayed by every test of the file, after its own. Commit it.
//!
//! The file is robust to what happens to files: each case is appended with
//! one `write` of the whole line (so concurrent test threads and processes,
//! as under nextest, never interleave), after a newline when the file does
//! not end in one; it is read line by line, so a line that is not UTF-8, is
//! cut short or is malformed is skipped with one warning naming the file
//! and the line, and every good line still replays. A saved size above
//! [`MAX_SAVED_SIZE`] (a corrupt or hand-edited line, say
//! `cc 0x1 1000000000000`) is clamped to it, with a warning, rather than
//! handed to generators that would try to allocate it; pbt itself saves no
//! larger size unless `max_size` is larger.

use super::found::{CaseSeed, Found, MAX_SAVED_SIZE};
use crate::config::{parse_u64, Regressions};
use pbt_core::property::Origin;
use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const HEADER: &str = "# pbt regressions: failing cases found by pbt, replayed before new ones.\n\
# Commit this file so a found bug is never lost. One case per line:\n\
# cc <case seed> <size> @ <test> # <counterexample>   (or: cx <size> <choices> @ … # …,\n\
# cm <mutation seeds> cc|cx … # … for an input mutated by value,\n\
# or cs <shrink steps> cc|cx|cm … # … for an input shrunk by value)\n";

/// A regressions file (which may not exist yet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegressionsFile {
    path: PathBuf,
    /// The file at the old place, beside the source, when one is there: its
    /// cases are replayed too; new ones go to `path`.
    legacy: Option<PathBuf>,
}

/// What reading a regressions file found: the saved inputs, in order, and
/// one warning per line that could not be read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Loaded {
    /// The saved inputs.
    pub cases: Vec<Found>,
    /// The test each of `cases` belongs to (`None`: a line without a key,
    /// replayed by every test of the file).
    pub tests: Vec<Option<String>>,
    /// `<file>:<line>: <what is wrong>`, one per bad line.
    pub warnings: Vec<String>,
}

/// A saved input, and whether it is the replaying test's own (saved by it)
/// or a line without a key, which every test of the file replays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    /// The input.
    pub found: Found,
    /// It was saved by the test replaying it.
    pub own: bool,
}

impl RegressionsFile {
    /// A regressions file at `path`.
    ///
    /// ```
    /// use pbt_runners::components::regressions::RegressionsFile;
    /// let file = RegressionsFile::at("tests/foo.pbt-regressions");
    /// assert!(file.path().ends_with("foo.pbt-regressions"));
    /// ```
    pub fn at(path: impl Into<PathBuf>) -> Self {
        RegressionsFile {
            path: path.into(),
            legacy: None,
        }
    }

    /// The file to use under `setting` for a property written at `origin`.
    /// [`Regressions::Beside`] names `pbt-regressions/<source path>.txt`
    /// at the root of the package that holds the source file (the nearest
    /// folder above it with a `Cargo.toml`). It looks for the source file `file!()` names
    /// from the package directory the macros record at compile time
    /// ([`Origin::manifest_dir`]), the manifest directory of the run, the
    /// working directory, the test executable's directory and their
    /// parents (once per process and source file); when it is found
    /// nowhere, a warning (once per source file) says that failures of its
    /// properties are neither saved nor replayed.
    pub fn locate(setting: &Regressions, origin: Option<&Origin>) -> Option<Self> {
        match setting {
            Regressions::Off => None,
            Regressions::File(path) => Some(RegressionsFile::at(path.clone())),
            Regressions::Beside => {
                let origin = origin?;
                beside(origin.file, origin.manifest_dir)
            }
        }
    }

    /// Where the file is: where new cases are saved.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file at the old place beside the source (`tests/foo.pbt-regressions`
    /// for `tests/foo.rs`), when there is one: [`RegressionsFile::load`]
    /// replays its cases after the file's own.
    pub fn legacy(&self) -> Option<&Path> {
        self.legacy.as_deref()
    }

    /// The saved inputs (none if the file does not exist). Each bad line is
    /// skipped with a warning on stderr (see [`RegressionsFile::read`]),
    /// once per process however often the file is loaded.
    ///
    /// The file is read once per process and again only when it changed:
    /// each load asks the file system for the file's stamp (one `stat`,
    /// cheaper than opening and reading it) and reads the file when the
    /// stamp differs from the one it was read at. So a case saved by
    /// another process, or a line edited or deleted by hand, is replayed
    /// by the next run that starts after the change, as when every run read
    /// the file. A file modified in the last 100 ms is read again at every
    /// load (an edit that keeps its length within the file system's time
    /// granularity would not change the stamp), as is one this process
    /// just saved a case to.
    ///
    /// ```
    /// use pbt_runners::components::{regressions::RegressionsFile, CaseSeed, Found};
    /// let path = std::env::temp_dir().join(format!("pbt-doc-load-{}.txt", std::process::id()));
    /// let file = RegressionsFile::at(&path);
    /// assert!(file.load().is_empty()); // no file yet
    /// std::fs::write(&path, "cc 0x1 3 # t: x = 1\n").unwrap();
    /// assert_eq!(file.load(), vec![Found::Case(CaseSeed { seed: 1, size: 3 })]);
    /// std::fs::remove_file(&path).unwrap();
    /// assert!(file.load().is_empty()); // deleted
    /// ```
    pub fn load(&self) -> Vec<Found> {
        let mut cases = Vec::new();
        for (found, _) in self.load_keyed() {
            if !cases.contains(&found) {
                cases.push(found);
            }
        }
        cases
    }

    /// The inputs `test` replays: those it saved, the newest first (so a
    /// shrunk case comes before the case it was shrunk from), then the
    /// lines without a key in file order; each once. Loaded as
    /// [`RegressionsFile::load`] loads.
    ///
    /// ```
    /// use pbt_runners::components::{regressions::RegressionsFile, CaseSeed, Found};
    /// let path = std::env::temp_dir().join(format!("pbt-doc-load-for-{}.txt", std::process::id()));
    /// std::fs::write(&path, "cc 0x1 3 @ m::a # x = 9\ncc 0x2 3 @ m::b # x = 8\n\
    ///                        cx 3 1 @ m::a # x = 1\ncc 0x4 0 # m::z: an old line\n").unwrap();
    /// let file = RegressionsFile::at(&path);
    /// let a: Vec<(Found, bool)> = file.load_for("m::a").into_iter().map(|s| (s.found, s.own)).collect();
    /// assert_eq!(a, vec![
    ///     (Found::Choices { choices: vec![1], size: 3 }, true),
    ///     (Found::Case(CaseSeed { seed: 1, size: 3 }), true),
    ///     (Found::Case(CaseSeed { seed: 4, size: 0 }), false),
    /// ]);
    /// std::fs::remove_file(&path).unwrap();
    /// ```
    pub fn load_for(&self, test: &str) -> Vec<Saved> {
        let all = self.load_keyed();
        let own = all.iter().rev().filter(|(_, t)| t.as_deref() == Some(test));
        let shared = all.iter().filter(|(_, t)| t.is_none());
        // Each case once, where it first comes: a set, for a file of a
        // million lines is a million cases to compare.
        let mut seen: std::collections::HashSet<&Found> = std::collections::HashSet::new();
        let mut saved: Vec<Saved> = Vec::new();
        for (found, key) in own.chain(shared) {
            if seen.insert(found) {
                saved.push(Saved {
                    found: found.clone(),
                    own: key.is_some(),
                });
            }
        }
        saved
    }

    /// The cases of this file and the legacy one, with their keys.
    fn load_keyed(&self) -> Vec<(Found, Option<String>)> {
        let mut cases = self.load_own();
        if let Some(legacy) = &self.legacy {
            note_moved(legacy, &self.path);
            let known: std::collections::HashSet<_> = cases.iter().cloned().collect();
            for case in RegressionsFile::at(legacy).load_own() {
                if !known.contains(&case) {
                    cases.push(case);
                }
            }
        }
        cases
    }

    /// [`RegressionsFile::load`] of this file alone, with the keys.
    fn load_own(&self) -> Vec<(Found, Option<String>)> {
        static WARNED: Said = Mutex::new(None);
        let loaded = match self.known() {
            Ok(cases) => return cases,
            Err(stamp) => self.read_known(stamp),
        };
        for warning in loaded.warnings {
            if first_time(&WARNED, &warning) {
                eprintln!("pbt: warning: {warning}");
            }
        }
        loaded.cases.into_iter().zip(loaded.tests).collect()
    }

    /// The cases of the copy in memory when the file's stamp is still the
    /// one it was read at, or else the stamp it has now.
    fn known(&self) -> Result<Vec<(Found, Option<String>)>, Stamp> {
        let stamp = Stamp::of(&self.path);
        if stamp == Stamp::Missing {
            // Nothing to replay, and nothing to read.
            return Ok(Vec::new());
        }
        let known = KNOWN.lock().unwrap_or_else(|p| p.into_inner());
        let Some(k) = known
            .iter()
            .find(|k| k.path == self.path && k.stamp == stamp)
        else {
            return Err(stamp);
        };
        // Clamped as `read` clamps (its warnings went out with that read).
        Ok(k.written
            .iter()
            .map(|(found, test)| {
                let mut found = found.clone();
                clamp_size(&mut found);
                (found, test.clone())
            })
            .collect())
    }

    /// Whether the copy in memory, still the file as it is, holds `found`
    /// as written for `test` (or for every test, without a key): then saving it again would add nothing, and
    /// the file need not be opened to find that out.
    fn holds(&self, found: &Found, test: &str) -> bool {
        let stamp = Stamp::of(&self.path);
        let known = KNOWN.lock().unwrap_or_else(|p| p.into_inner());
        known
            .iter()
            .find(|k| k.path == self.path && k.stamp == stamp)
            .is_some_and(|k| {
                k.written
                    .iter()
                    .any(|(f, t)| f == found && t.as_deref().is_none_or(|t| t == test))
            })
    }

    /// Read the file and keep its cases in memory with `stamp`, taken
    /// before reading (a change made meanwhile is read by the next load).
    fn read_known(&self, stamp: Stamp) -> Loaded {
        let bytes = match fs::read(&self.path) {
            Ok(bytes) => bytes,
            // Gone or unreadable: `read` says which, and nothing is kept.
            Err(_) => return self.read(),
        };
        let written = self.parse(&bytes, SizeReading::AsWritten);
        self.remember(
            stamp,
            written.cases.into_iter().zip(written.tests).collect(),
        );
        self.parse(&bytes, SizeReading::Clamped)
    }

    /// Keep `written` (the cases with their sizes as written) as what the
    /// file holds at `stamp`; not when the file was modified so recently
    /// that an edit keeping its length could still leave the stamp as it
    /// is (see [`Stamp::settled`]).
    fn remember(&self, stamp: Stamp, written: Vec<(Found, Option<String>)>) {
        let mut known = KNOWN.lock().unwrap_or_else(|p| p.into_inner());
        known.retain(|k| k.path != self.path);
        if stamp.settled() {
            known.push(Known {
                path: self.path.clone(),
                stamp,
                written,
            });
        }
    }

    /// Drop the copy in memory (this process wrote to the file: the next
    /// load reads it, and keeps it once it has settled).
    fn forget(&self) {
        self.remember(Stamp::Unknown, Vec::new());
    }

    /// The saved inputs and one warning per bad line, without printing.
    ///
    /// ```
    /// use pbt_runners::components::regressions::RegressionsFile;
    /// let path = std::env::temp_dir().join(format!("pbt-doc-read-{}.txt", std::process::id()));
    /// std::fs::write(&path, b"cc 0x1 3 # ok\ncc zz\n\xff\ncc 0x2 4").unwrap();
    /// let loaded = RegressionsFile::at(&path).read();
    /// assert_eq!(loaded.cases.len(), 2);
    /// assert_eq!(loaded.warnings.len(), 2);
    /// assert!(loaded.warnings[0].contains(":2:"), "{:?}", loaded.warnings);
    /// # std::fs::remove_file(&path).unwrap();
    /// ```
    pub fn read(&self) -> Loaded {
        match fs::read(&self.path) {
            Ok(bytes) => self.parse(&bytes, SizeReading::Clamped),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Loaded::default(),
            Err(e) => Loaded {
                cases: Vec::new(),
                tests: Vec::new(),
                warnings: vec![format!("{}: cannot be read ({e})", self.path.display())],
            },
        }
    }

    /// The cases and warnings of the file's `bytes`; sizes above
    /// [`MAX_SAVED_SIZE`] clamped (with a warning) or as written.
    fn parse(&self, bytes: &[u8], sizes: SizeReading) -> Loaded {
        let mut loaded = Loaded::default();
        for (n, raw) in bytes.split(|&b| b == b'\n').enumerate() {
            let at = || format!("{}:{}", self.path.display(), n + 1);
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            let Ok(line) = std::str::from_utf8(raw) else {
                let warning = format!("{}: not UTF-8; the line is skipped", at());
                loaded.warnings.push(warning);
                continue;
            };
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            match parse_saved(trimmed) {
                Some((mut found, test)) => {
                    if sizes == SizeReading::Clamped && clamp_size(&mut found) {
                        loaded.warnings.push(format!(
                            "{}: a saved size above {MAX_SAVED_SIZE} is replayed at {MAX_SAVED_SIZE}",
                            at()
                        ));
                    }
                    loaded.cases.push(found);
                    loaded.tests.push(test);
                }
                None => loaded.warnings.push(format!(
                    "{}: not a saved case (expected `cc <seed> <size>`, `cx <size> <choices>`, \
                     `cm <steps> …` or `cs <steps> …`): {:?}; the line is skipped",
                    at(),
                    shorten(trimmed)
                )),
            }
        }
        loaded
    }

    /// Append `found` as a case of `test` (unless already saved for it),
    /// with a one-line note: `<input> @ <test> # <note>`. `test` is the
    /// key [`RegressionsFile::load_for`] replays it by (whitespace and `#`
    /// in it are replaced). An empty `test` writes the line without a key,
    /// replayed by every test of the file (what a fuzz engine's crash,
    /// found outside any test, is saved as).
    ///
    /// The line goes out in one `write` on a file opened for appending, so
    /// lines from concurrent threads and processes never interleave; a file
    /// that does not end in a newline gets one first. A case that the copy
    /// in memory ([`RegressionsFile::load`]) holds, the file unchanged
    /// since, is already saved: the file is not opened to find that out.
    pub fn save(&self, found: &Found, test: &str, note: &str) -> io::Result<()> {
        let test: String = test
            .chars()
            .map(|c| {
                if c.is_whitespace() || c == '#' {
                    '_'
                } else {
                    c
                }
            })
            .collect();
        if self.holds(found, &test) {
            // Read by this process and unchanged since: one `stat`, where
            // finding it in the file is an `open` and a read of it all.
            return Ok(());
        }
        let note: String = note
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .take(300)
            .collect();
        let line = match test.is_empty() {
            true => format!("{} # {note}\n", encode(found)),
            false => format!("{} @ {test} # {note}\n", encode(found)),
        };
        loop {
            // The file as it is: one open, to read (is the case there? does
            // the file end in a newline?) and to append.
            let existing = fs::OpenOptions::new()
                .read(true)
                .append(true)
                .open(&self.path);
            let mut f = match existing {
                Ok(f) => f,
                Err(e) if e.kind() == io::ErrorKind::NotFound => match self.create(&line)? {
                    Created::Yes => return Ok(()),
                    // Another writer created it meanwhile: append to it.
                    Created::Raced => continue,
                },
                Err(e) => return Err(e),
            };
            let mut bytes = Vec::new();
            f.read_to_end(&mut bytes)?;
            // Compared as written: a size the reader would clamp is still
            // the case it is.
            let there = self.parse(&bytes, SizeReading::AsWritten);
            let mut cases = there.cases.iter().zip(&there.tests);
            // There for this test, or for every test (a line without a key).
            if cases.any(|(f, t)| f == found && t.as_deref().is_none_or(|t| t == test)) {
                return Ok(());
            }
            let written = match bytes.last() {
                Some(&last) if last != b'\n' => format!("\n{line}"),
                _ => line,
            };
            f.write_all(written.as_bytes())?;
            self.forget();
            return Ok(());
        }
    }

    /// Create the file (and its directory) with the header and `line`, in
    /// one write; `Raced` when another writer created it first.
    fn create(&self, line: &str) -> io::Result<Created> {
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir)?;
        }
        // Appending even when this process creates the file: another writer
        // may append between the creation and this write, and a write at
        // offset 0 would overwrite its line.
        let created = fs::OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(&self.path);
        match created {
            Ok(mut f) => {
                f.write_all(format!("{HEADER}{line}").as_bytes())?;
                self.forget();
                Ok(Created::Yes)
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(Created::Raced),
            Err(e) => Err(e),
        }
    }
}

/// What this process read of each regressions file it loaded: the file's
/// stamp when it was read, and its cases.
static KNOWN: Mutex<Vec<Known>> = Mutex::new(Vec::new());

/// How long a file must have been left alone for its stamp to tell every
/// later change (see [`Stamp::settled`]).
const SETTLED: std::time::Duration = std::time::Duration::from_millis(100);

/// One file of [`KNOWN`].
struct Known {
    path: PathBuf,
    stamp: Stamp,
    /// Its cases and their tests, sizes as written.
    written: Vec<(Found, Option<String>)>,
}

/// What the file system says of a file, to tell whether it changed since
/// it was read: one `stat`, where reading it would be an `open`, an
/// `fstat`, `read`s and a `close`.
///
/// The length changes with every case appended (pbt only appends); the
/// modification and status-change times and the inode with an edit or a
/// replacement (an editor's or `git checkout`'s rename over the file). An
/// edit that keeps the length, made within the file system's time
/// granularity (a few milliseconds), would leave the stamp as it is: so
/// a stamp is trusted only once the file has not been modified for a
/// while ([`Stamp::settled`], as git treats an index entry as racily clean).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stamp {
    /// The file does not exist.
    Missing,
    /// It does.
    Present {
        len: u64,
        modified: Option<std::time::SystemTime>,
        #[cfg(unix)]
        identity: (u64, u64, i64, i64),
    },
    /// It could not be asked about (the read says why).
    Unknown,
}

impl Stamp {
    fn of(path: &Path) -> Stamp {
        match fs::metadata(path) {
            Ok(meta) => Stamp::from(&meta),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Stamp::Missing,
            Err(_) => Stamp::Unknown,
        }
    }

    /// Whether the copy read at this stamp may be kept: the file's last
    /// modification is at least [`SETTLED`] old, far beyond any file
    /// system's time granularity, so a later edit gets a later time.
    fn settled(&self) -> bool {
        match self {
            Stamp::Missing => true,
            Stamp::Present { modified, .. } => modified
                .and_then(|m| m.elapsed().ok())
                .is_some_and(|age| age >= SETTLED),
            Stamp::Unknown => false,
        }
    }

    fn from(meta: &fs::Metadata) -> Stamp {
        #[cfg(unix)]
        use std::os::unix::fs::MetadataExt;
        Stamp::Present {
            len: meta.len(),
            modified: meta.modified().ok(),
            // Device, inode, and the status-change time (seconds, ns).
            #[cfg(unix)]
            identity: (meta.dev(), meta.ino(), meta.ctime(), meta.ctime_nsec()),
        }
    }
}

/// How [`RegressionsFile::parse`] reads sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SizeReading {
    /// Above [`MAX_SAVED_SIZE`], clamped to it with a warning (to replay).
    Clamped,
    /// As written (to compare with a case to save).
    AsWritten,
}

/// Whether [`RegressionsFile::create`] made the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Created {
    /// It did, with the line.
    Yes,
    /// Another writer created it first.
    Raced,
}

/// Clamp a saved size to [`MAX_SAVED_SIZE`]; whether it was larger.
fn clamp_size(found: &mut Found) -> bool {
    let size = match found {
        Found::Case(case) => &mut case.size,
        Found::Choices { size, .. } => size,
        Found::Mutated { base, .. } | Found::Shrunk { base, .. } => return clamp_size(base),
    };
    let over = *size > MAX_SAVED_SIZE;
    *size = (*size).min(MAX_SAVED_SIZE);
    over
}

/// At most 60 characters of `line`, for a warning.
fn shorten(line: &str) -> String {
    match line.char_indices().nth(60) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_string(),
    }
}

/// The regressions file of the source file `file` (as `file!()` names it,
/// compiled in the package directory `compiled_in`), looked for once per
/// process: the search asks the file system up to a dozen times, which
/// would cost every run more than the rest of its start-up. (A process that
/// changes its working directory keeps the file found first.) When the
/// source is not found, a warning says so, once.
fn beside(file: &'static str, compiled_in: Option<&'static str>) -> Option<RegressionsFile> {
    type Key = (&'static str, Option<&'static str>);
    static FOUND: Mutex<BTreeMap<Key, Option<RegressionsFile>>> = Mutex::new(BTreeMap::new());
    let mut found = FOUND.lock().unwrap_or_else(|p| p.into_inner());
    found
        .entry((file, compiled_in))
        .or_insert_with(
            || match find_source(Path::new(file), compiled_in.map(Path::new)) {
                Some(source) => Some(for_source(&source)),
                None => {
                    warn_unlocated(file);
                    None
                }
            },
        )
        .clone()
}

/// The folder, at a package's root, that holds its regressions files.
pub const FOLDER: &str = "pbt-regressions";

/// The regressions file of the source file at `source`:
/// `<package>/pbt-regressions/<path in the package>.txt`, where the package
/// is the nearest folder above `source` with a `Cargo.toml`, and the file
/// at the old place beside the source when it exists. A source in no
/// package keeps the old place.
///
/// ```
/// use pbt_runners::components::regressions::for_source;
/// let root = std::env::temp_dir().join(format!("pbt-doc-for-source-{}", std::process::id()));
/// std::fs::create_dir_all(root.join("src/parse")).unwrap();
/// std::fs::write(root.join("Cargo.toml"), "").unwrap();
/// let file = for_source(&root.join("src/parse/number.rs"));
/// assert_eq!(file.path(), root.join("pbt-regressions/src/parse/number.txt"));
/// assert_eq!(file.legacy(), None); // no src/parse/number.pbt-regressions
/// # std::fs::remove_dir_all(&root).unwrap();
/// ```
pub fn for_source(source: &Path) -> RegressionsFile {
    let old = source.with_extension("pbt-regressions");
    let legacy = old.is_file().then(|| old.clone());
    let package = source
        .ancestors()
        .skip(1)
        .find(|dir| dir.join("Cargo.toml").is_file());
    let path = match package.and_then(|root| Some((root, source.strip_prefix(root).ok()?))) {
        Some((root, inside)) => root.join(FOLDER).join(inside).with_extension("txt"),
        None => return RegressionsFile::at(old),
    };
    RegressionsFile { path, legacy }
}

/// What this process already said, for messages said once per process.
type Said = Mutex<Option<HashSet<String>>>;

/// Whether `what` is new to `said` (and remember it).
fn first_time(said: &Said, what: &str) -> bool {
    let mut said = said.lock().unwrap_or_else(|p| p.into_inner());
    let said = said.get_or_insert_with(HashSet::new);
    !said.contains(what) && said.insert(what.to_string())
}

/// Say, once per file and process, that `legacy` is read at its old place
/// and where its cases now belong.
fn note_moved(legacy: &Path, path: &Path) {
    static NOTED: Said = Mutex::new(None);
    if first_time(&NOTED, &legacy.display().to_string()) {
        eprintln!(
            "pbt: note: {} is read at its old place; saved cases now live in {} (move it there: \
             new cases are saved there)",
            legacy.display(),
            path.display()
        );
    }
}

/// Warn, once per source file, that its regressions file cannot be located.
fn warn_unlocated(file: &str) {
    static WARNED: Said = Mutex::new(None);
    if first_time(&WARNED, file) {
        let cwd = std::env::current_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_else(|_| "?".into());
        eprintln!(
            "pbt: warning: cannot find the source file {file} (from the package directory it was \
             compiled in, the working directory {cwd}, \
             CARGO_MANIFEST_DIR or the test executable), so failures of its properties are neither \
             saved nor replayed; run from the package directory or set \
             Config::regressions(Regressions::File(..))"
        );
    }
}

/// `found` as the start of a line of the file (what [`parse_line`] reads).
///
/// ```
/// use pbt_runners::components::{regressions, CaseSeed, Found};
/// let found = Found::Case(CaseSeed { seed: 0xfeed, size: 12 });
/// assert_eq!(regressions::encode(&found), "cc 0xfeed 12");
/// assert_eq!(regressions::parse_line("cc 0xfeed 12 # note"), Some(found));
/// ```
pub fn encode(found: &Found) -> String {
    let hex_list = |xs: &[u64]| {
        let list: Vec<String> = xs.iter().map(|c| format!("{c:x}")).collect();
        list.join(",")
    };
    match found {
        Found::Case(case) => format!("cc {:#x} {}", case.seed, case.size),
        Found::Choices { choices, size } => format!("cx {size} {}", hex_list(choices)),
        Found::Mutated { base, steps } => format!("cm {} {}", hex_list(steps), encode(base)),
        Found::Shrunk { base, path } => format!("cs {} {}", hex_list(path), encode(base)),
    }
}

/// One saved input, or `None` for a line that is not one (comments
/// included). The size is read as written (see [`RegressionsFile::read`]
/// for the clamp); the test it belongs to (`@ <test>`) is not read.
pub fn parse_line(line: &str) -> Option<Found> {
    parse_saved(line).map(|(found, _)| found)
}

/// One saved input and the test it belongs to (`None` for a line without
/// `@ <test>`, as older versions wrote them).
fn parse_saved(line: &str) -> Option<(Found, Option<String>)> {
    let code = line.split_once('#').map_or(line, |(code, _)| code);
    match code.split_once(" @ ") {
        Some((input, test)) => {
            let test = test.trim();
            (!test.is_empty()).then_some(())?;
            Some((parse_input(input.trim())?, Some(test.to_string())))
        }
        None => Some((parse_input(code.trim())?, None)),
    }
}

/// The input of a line (its key and note cut off).
fn parse_input(line: &str) -> Option<Found> {
    if let Some(rest) = line.strip_prefix("cs ") {
        let (path, base) = rest.split_once(' ')?;
        let path = path
            .split(',')
            .filter(|c| !c.is_empty())
            .map(|c| u64::from_str_radix(c, 16).ok())
            .collect::<Option<Vec<u64>>>()?;
        let base = parse_input(base).filter(|b| !matches!(b, Found::Shrunk { .. }))?;
        return Some(Found::Shrunk {
            base: Box::new(base),
            path,
        });
    }
    if let Some(rest) = line.strip_prefix("cm ") {
        let (steps, base) = rest.split_once(' ')?;
        let steps = steps
            .split(',')
            .map(|c| u64::from_str_radix(c, 16).ok())
            .collect::<Option<Vec<u64>>>()?;
        let base = parse_input(base).filter(|b| !matches!(b, Found::Mutated { .. }))?;
        return Some(Found::Mutated {
            base: Box::new(base),
            steps,
        });
    }
    if let Some(rest) = line.strip_prefix("cc ") {
        let mut words = rest.split_whitespace();
        let seed = parse_u64(words.next()?)?;
        let size = words.next()?.parse().ok()?;
        return Some(Found::Case(CaseSeed { seed, size }));
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

/// The source file `file!()` names. `file!()` is relative to the workspace
/// root, while cargo runs a test in its package's directory (a workspace
/// member's tests run one level down) and a test binary may be run from
/// anywhere: so the path is joined to the package directory recorded at
/// compile time (`compiled_in`), the manifest directory of the run, the
/// working directory and the executable's directory, and to each of their
/// parents; failing that, leading components are dropped against the
/// package, manifest and working directories (a path relative to a package
/// inside a workspace).
fn find_source(file: &Path, compiled_in: Option<&Path>) -> Option<PathBuf> {
    if file.is_absolute() {
        return file.is_file().then(|| file.to_path_buf());
    }
    let compiled_in = compiled_in.map(Path::to_path_buf);
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
    let cwd = std::env::current_dir().ok();
    let exe = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf));
    let roots = [compiled_in.clone(), manifest.clone(), cwd.clone(), exe];
    for root in roots.iter().flatten() {
        for dir in root.ancestors() {
            let candidate = dir.join(file);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    for root in [compiled_in, manifest, cwd].into_iter().flatten() {
        let mut rest = file;
        loop {
            let mut parts = rest.components();
            parts.next()?;
            rest = parts.as_path();
            if rest.as_os_str().is_empty() {
                break;
            }
            let candidate = root.join(rest);
            if candidate.is_file() {
                return Some(candidate);
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
            manifest_dir: None,
        }
    }

    #[test]
    fn the_file_sits_beside_the_package_even_from_the_workspace_root() {
        // `file!()` in a workspace member is relative to the workspace root.
        let found = RegressionsFile::locate(
            &Regressions::Beside,
            Some(&origin("pbt-runners/src/components/regressions.rs")),
        )
        .expect("the source file is found");
        assert!(found
            .path()
            .ends_with("pbt-runners/pbt-regressions/src/components/regressions.txt"));
        assert!(
            RegressionsFile::locate(&Regressions::Beside, Some(&origin("no/such/file.rs")))
                .is_none()
        );
        assert!(RegressionsFile::locate(&Regressions::Off, Some(&origin("src/lib.rs"))).is_none());
    }

    #[test]
    fn cases_round_trip_and_are_not_duplicated() {
        let dir = std::env::temp_dir().join(format!("pbt-regressions-unit-{}", std::process::id()));
        let file = RegressionsFile::at(dir.join("x.pbt-regressions"));
        let case = Found::Case(CaseSeed {
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
        let shrunk = Found::Shrunk {
            base: Box::new(by_value.clone()),
            path: vec![0, 0x1f, 2],
        };
        file.save(&shrunk, "t", "x = 6").unwrap();
        assert_eq!(
            file.load(),
            vec![case, mutated, empty, by_value, choices_by_value, shrunk]
        );
        let text = fs::read_to_string(file.path()).unwrap();
        assert!(text.contains("cm abc,7 cc 0xfeed 12 @ t # x = 4"), "{text}");
        assert!(
            text.contains("cs 0,1f,2 cm abc,7 cc 0xfeed 12 @ t # x = 6"),
            "{text}"
        );
        let _ = fs::remove_dir_all(&dir);
    }
}

//! The observations file (`Config::observe`, `PBT_OBSERVE=dir`): one JSON
//! line per test case in Hypothesis's observability format, which the
//! Tyche extension for VS Code reads and charts.
//!
//! A line is a test case (`"type": "test_case"`) with the fields of
//! Hypothesis's schema (`schema_observations.json` in its documentation),
//! all of them present, and a run ends with one information line
//! (`"type": "info"`) holding its statistics. The lines go to
//! `<dir>/<YYYY-MM-DD>_testcases.jsonl` and `<dir>/<YYYY-MM-DD>_info.jsonl`,
//! named as Hypothesis names them in `.hypothesis/observed/`; every run of
//! the day appends to them, and Tyche groups the lines by property and by
//! `run_start` and shows each property's latest run.
//!
//! Writing is buffered: a run collects its lines and appends them in
//! blocks of whole lines (one `write` each, so the runs of several test
//! threads and processes appending to one file do not cut into each
//! other's lines), and the rest when the run's [`ObservationLog`] is
//! dropped. A run not observed pays one branch per test case.

use pbt_core::Binding;
use serde::Serialize;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

/// A run's observations file, shared by the clones of its plan: where its
/// test-case lines and its information line go (see the module's
/// documentation). Cloning shares the file and its buffer.
///
/// ```
/// use pbt_core::Binding;
/// use pbt_runners::components::observations::{ObservationLog, TestCase};
/// let dir = std::env::temp_dir().join(format!("pbt-doc-observe-{}", std::process::id()));
/// let log = ObservationLog::open(&dir, "my_crate::my_property").unwrap();
/// let printed = [Binding { name: "x", ty: "u8", value: "1".into() }];
/// log.test_case(&TestCase {
///     printed: &printed,
///     features: &[("parity", "1"), ("label", "small")],
///     ..TestCase::passed("generated")
/// });
/// let file = log.test_cases_path().to_path_buf();
/// drop(log); // the rest of the buffer is written
/// let line = std::fs::read_to_string(&file).unwrap();
/// assert!(line.starts_with(r#"{"type":"test_case","run_start":"#));
/// assert!(line.contains(r#""representation":"x = 1","arguments":{"x":1}"#));
/// assert!(line.contains(r#""features":{"parity":1,"label":"small"}"#));
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Clone, Debug)]
pub struct ObservationLog {
    shared: Arc<Mutex<Log>>,
    test_cases: Arc<PathBuf>,
}

/// The file, what waits to be written to it, and what every line repeats.
#[derive(Debug)]
struct Log {
    file: File,
    info: PathBuf,
    buffer: Vec<u8>,
    property: String,
    run_start: f64,
    /// `{"type":"test_case","run_start":…,"property":"…",`: the start of
    /// every test-case line, written once.
    prefix: Vec<u8>,
}

/// How many bytes of whole lines a run collects before appending them.
const BLOCK: usize = 64 * 1024;

/// One test case, as Hypothesis's schema describes it; the fields every
/// line repeats (`type`, `property`, `run_start`) are the log's, and
/// `coverage` is `null`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TestCase<'a> {
    /// `"passed"`, `"failed"` or `"gave_up"` (discarded).
    pub status: &'static str,
    /// Why it failed or was discarded; empty when it passed.
    pub status_reason: &'a str,
    /// The input, printed: its `representation` (`x = 1, ys = [2]`), and
    /// its `arguments` by name, each printed value as JSON when it is
    /// JSON on one line (a number, `true`, a list of numbers…), as a string
    /// otherwise.
    pub printed: &'a [Binding],
    /// The `representation` of an input that was not generated (so not
    /// printed), in place of the bindings': something that tells it from
    /// the others, as Tyche counts inputs that print the same as
    /// duplicates.
    pub unprinted: Option<&'a str>,
    /// How the input came about: `"generated"`, `"fuzzed (mutated)"`,
    /// `"replayed from the regressions file"`, `"shrinking"`, …
    pub how_generated: &'a str,
    /// What the check reported, by name; a value that is a number is
    /// written as one (Tyche charts it as ordinal), any other as a string.
    pub features: &'a [(&'a str, &'a str)],
    /// Seconds spent in each part of the test (`generate:inputs`,
    /// `execute:test`).
    pub timing: &'a [(&'a str, f64)],
    /// The rest, by name (how to replay the input, its size), each value
    /// as JSON when it is JSON, as a string otherwise.
    pub metadata: &'a [(&'a str, &'a str)],
}

impl TestCase<'_> {
    /// A passed test of an input that came about `how`, with nothing else
    /// said: the base to fill in.
    pub fn passed(how: &str) -> TestCase<'_> {
        TestCase {
            status: "passed",
            status_reason: "",
            printed: &[],
            unprinted: None,
            how_generated: how,
            features: &[],
            timing: &[],
            metadata: &[],
        }
    }
}

/// An information line of Hypothesis's schema (Tyche reads its content as
/// a string of Markdown).
#[derive(Serialize)]
struct Info<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    run_start: f64,
    property: &'a str,
    title: &'a str,
    content: &'a str,
}

impl ObservationLog {
    /// The log of a run of `property` starting now, appending to today's
    /// files in `dir` (created, with its parents, when missing).
    ///
    /// # Errors
    ///
    /// When `dir` cannot be created or its test-case file opened for
    /// appending; the error names the path.
    pub fn open(dir: &Path, property: &str) -> std::io::Result<ObservationLog> {
        let named = |what: &Path, e: std::io::Error| {
            std::io::Error::new(e.kind(), format!("{}: {e}", what.display()))
        };
        std::fs::create_dir_all(dir).map_err(|e| named(dir, e))?;
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        let day = civil_date(now.as_secs() / 86_400);
        let test_cases = dir.join(format!("{day}_testcases.jsonl"));
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&test_cases)
            .map_err(|e| named(&test_cases, e))?;
        let run_start = now.as_secs_f64();
        let mut prefix = br#"{"type":"test_case","run_start":"#.to_vec();
        let _ = serde_json::to_writer(&mut prefix, &run_start);
        prefix.extend_from_slice(br#","property":"#);
        let _ = serde_json::to_writer(&mut prefix, property);
        prefix.push(b',');
        let log = Log {
            file,
            info: dir.join(format!("{day}_info.jsonl")),
            buffer: Vec::with_capacity(BLOCK),
            property: property.to_string(),
            run_start,
            prefix,
        };
        Ok(ObservationLog {
            shared: Arc::new(Mutex::new(log)),
            test_cases: Arc::new(test_cases),
        })
    }

    /// The file the test-case lines go to.
    pub fn test_cases_path(&self) -> &Path {
        &self.test_cases
    }

    /// Add the line of one test case.
    pub fn test_case(&self, case: &TestCase<'_>) {
        let mut log = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        let log = &mut *log;
        let out = &mut log.buffer;
        out.extend_from_slice(&log.prefix);
        out.extend_from_slice(br#""status":"#);
        string(out, case.status);
        out.extend_from_slice(br#","status_reason":"#);
        string(out, case.status_reason);
        out.extend_from_slice(br#","representation":""#);
        if let Some(text) = case.unprinted {
            escaped(out, text);
        }
        for (i, b) in case.printed.iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(b", ");
            }
            escaped(out, b.name);
            out.extend_from_slice(b" = ");
            escaped(out, &b.value);
        }
        out.extend_from_slice(br#"","arguments":"#);
        let arguments = case.printed.iter().map(|b| (b.name, b.value.as_str()));
        object(out, arguments, json_or_string);
        out.extend_from_slice(br#","how_generated":"#);
        string(out, case.how_generated);
        out.extend_from_slice(br#","features":"#);
        object(out, case.features.iter().copied(), number_or_string);
        out.extend_from_slice(br#","coverage":null,"timing":{"#);
        for (i, (name, seconds)) in case.timing.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            string(out, name);
            out.push(b':');
            let _ = serde_json::to_writer(&mut *out, &seconds.max(0.0));
        }
        out.extend_from_slice(br#"},"metadata":"#);
        object(out, case.metadata.iter().copied(), json_or_string);
        out.extend_from_slice(b"}\n");
        if log.buffer.len() >= BLOCK {
            log.flush();
        }
    }

    /// Add the run's information line (`title`, and `content` in
    /// Markdown) to the information file, and write what waits.
    pub fn info(&self, title: &str, content: &str) {
        let mut log = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        log.flush();
        let line = Info {
            kind: "info",
            run_start: log.run_start,
            property: &log.property,
            title,
            content,
        };
        let Ok(mut bytes) = serde_json::to_vec(&line) else {
            return;
        };
        bytes.push(b'\n');
        let appended = OpenOptions::new().create(true).append(true).open(&log.info);
        // An observations file is a by-product of the run: failing to
        // write it never fails the test.
        let _ = appended.and_then(|mut f| f.write_all(&bytes));
    }
}

/// `text` as a JSON string.
fn string(out: &mut Vec<u8>, text: &str) {
    let _ = serde_json::to_writer(&mut *out, text);
}

/// `text` escaped for the inside of a JSON string (no quotes).
fn escaped(out: &mut Vec<u8>, text: &str) {
    let mark = out.len();
    string(out, text);
    // Drop the quotes `string` put around it.
    out.pop();
    out.remove(mark);
}

/// A JSON object of `entries`, each value written by `value`.
fn object<'a>(
    out: &mut Vec<u8>,
    entries: impl Iterator<Item = (&'a str, &'a str)>,
    value: fn(&mut Vec<u8>, &str),
) {
    out.push(b'{');
    for (i, (name, text)) in entries.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        string(out, name);
        out.push(b':');
        value(out, text);
    }
    out.push(b'}');
}

/// Whether `text` is JSON on one line (a line of the file must not break).
fn is_json(text: &str) -> bool {
    !text.contains(['\n', '\r']) && serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
}

/// `text` as it is when it is JSON (`17`, `[1, 2]`, `true`, `"a"`), as a
/// string otherwise.
fn json_or_string(out: &mut Vec<u8>, text: &str) {
    match is_json(text) {
        true => out.extend_from_slice(text.as_bytes()),
        false => string(out, text),
    }
}

/// `text` as a number when it is one, as a string otherwise.
fn number_or_string(out: &mut Vec<u8>, text: &str) {
    // JSON that starts so is a number.
    match text.starts_with(|c: char| c == '-' || c.is_ascii_digit()) && is_json(text) {
        true => out.extend_from_slice(text.as_bytes()),
        false => string(out, text),
    }
}

impl Log {
    /// Append the whole lines that wait, in one write.
    fn flush(&mut self) {
        if !self.buffer.is_empty() {
            let _ = self.file.write_all(&self.buffer);
            self.buffer.clear();
        }
    }
}

impl Drop for Log {
    fn drop(&mut self) {
        self.flush();
    }
}

/// `YYYY-MM-DD` of the day `days` after 1970-01-01 (the proleptic
/// Gregorian calendar; Howard Hinnant's `civil_from_days`).
fn civil_date(days: u64) -> String {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::civil_date;

    #[test]
    fn civil_dates_of_known_days() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(19_782), "2024-02-29");
        assert_eq!(civil_date(20_454), "2026-01-01");
    }
}

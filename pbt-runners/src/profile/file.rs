//! The profile file: the small subset of TOML `pbt.toml` is written in,
//! read without a TOML library, every value checked against its key.

use super::settings::{set, Key, KEYS};
use crate::config::{parse_u64, Config};
use std::path::{Path, PathBuf};

/// A value as written in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Value {
    Integer(u64),
    Text(String),
    Boolean(bool),
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Integer(n) => write!(f, "{n}"),
            Value::Text(s) => write!(f, "{s:?}"),
            Value::Boolean(b) => write!(f, "{b}"),
        }
    }
}

/// One `key = value` line.
#[derive(Clone, Debug)]
pub(super) struct Entry {
    pub(super) key: Key,
    pub(super) value: Value,
}

/// One `[profile.NAME]` table.
#[derive(Clone, Debug)]
pub(super) struct Table {
    pub(super) name: String,
    pub(super) entries: Vec<Entry>,
}

/// A profile file, read and checked: every value is valid for its key.
#[derive(Clone, Debug)]
pub(super) struct Profiles {
    pub(super) path: PathBuf,
    pub(super) tables: Vec<Table>,
}

/// Parse `text`, the profile file at `path`; the error names the file, the
/// line and, past the header, the key.
pub(super) fn parse(path: &Path, text: &str) -> Result<Profiles, String> {
    let mut tables: Vec<Table> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = |what: String| format!("{}:{}: {what}", path.display(), n + 1);
        let line = without_comment(line).trim();
        if line.is_empty() {
            continue;
        }
        if let Some(header) = line.strip_prefix('[') {
            let name = header
                .strip_suffix(']')
                .map(str::trim)
                .map(|h| h.strip_prefix("profile.").unwrap_or(h).trim())
                .filter(|name| is_name(name))
                .ok_or_else(|| {
                    at(format!(
                        "`{line}` is not a profile header: expected `[profile.NAME]` or `[NAME]`, \
                         NAME made of letters, digits, `-` and `_`"
                    ))
                })?;
            if tables.iter().any(|t| t.name == name) {
                return Err(at(format!("profile `{name}` is defined twice")));
            }
            tables.push(Table {
                name: name.to_string(),
                entries: Vec::new(),
            });
            continue;
        }
        let Some((key, raw)) = line.split_once('=') else {
            return Err(at(format!(
                "`{line}` is neither a `[profile.NAME]` header nor a `key = value` setting"
            )));
        };
        let key = key.trim();
        let Some(table) = tables.last_mut() else {
            return Err(at(format!(
                "`{key}` comes before any profile: put it under a `[profile.NAME]` header"
            )));
        };
        let Some(&(_, _, k)) = KEYS
            .iter()
            .find(|(name, alias, _)| *name == key || *alias == Some(key))
        else {
            return Err(at(format!(
                "`{key}` is not a setting of a profile: expected one of {}",
                KEYS.iter()
                    .map(|(name, _, _)| format!("`{name}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        let value = value(raw.trim()).map_err(|why| at(format!("`{key}`: {why}")))?;
        set(&mut Config::default(), k, &value).map_err(|why| at(format!("`{key}`: {why}")))?;
        if table.entries.iter().any(|e| e.key == k) {
            return Err(at(format!(
                "`{key}` is set twice in profile `{}`",
                table.name
            )));
        }
        table.entries.push(Entry { key: k, value });
    }
    Ok(Profiles {
        path: path.to_path_buf(),
        tables,
    })
}

/// `line` up to a `#` that is not inside a string.
fn without_comment(line: &str) -> &str {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return &line[..i],
            _ => {}
        }
    }
    line
}

fn is_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// A value: an integer, a `"string"` (no escapes) or a boolean.
fn value(raw: &str) -> Result<Value, String> {
    if let Some(inner) = raw.strip_prefix('"') {
        return match inner.strip_suffix('"') {
            Some(s) if !s.contains(['"', '\\']) => Ok(Value::Text(s.to_string())),
            _ => Err(format!(
                "{raw} is not a string this file reads: one `\"…\"` without escapes"
            )),
        };
    }
    match raw {
        "true" => return Ok(Value::Boolean(true)),
        "false" => return Ok(Value::Boolean(false)),
        _ => {}
    }
    match parse_u64(raw) {
        Some(n) if !raw.is_empty() && !raw.starts_with('+') => Ok(Value::Integer(n)),
        _ => Err(format!(
            "`{raw}` is not a value: expected a non-negative integer, a \"string\" or true/false"
        )),
    }
}

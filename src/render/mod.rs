//! Output. Renderers write to a `&mut impl Write`; they never decide or fetch.

pub(crate) mod age;
pub mod columns;
pub mod escape;
pub mod graph;
pub mod human;
pub mod jsonpath;
pub mod markdown;
pub(crate) mod printer;
pub(crate) mod table;
pub mod tree;

pub use printer::{Clock, Printer};

use crate::effective::PolicyStatus;
use owo_colors::OwoColorize;
use serde::Serialize;
use std::io::{self, Write};

/// Colour, decided once by the CLI and handed to every renderer (in its `Printer`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
}

/// What a cell should look like when colour is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tint {
    Plain,
    Good,
    Warn,
    Bad,
    Dim,
    Bold,
}

impl Style {
    pub(crate) fn paint(&self, s: &str, tint: Tint) -> String {
        let mut out = String::new();
        self.paint_into(&mut out, s, tint);
        out
    }

    /// `paint`, written at the end of `out`.
    pub(crate) fn paint_into(&self, out: &mut String, s: &str, tint: Tint) {
        use std::fmt::Write;
        // Text from input is escaped before colour is put around it: the writer lets
        // the colour through and nothing else (`escape::SafeWriter`).
        let s = &*escape::terminal_safe(s);
        if !self.color {
            out.push_str(s);
            return;
        }
        let _ = match tint {
            Tint::Plain => write!(out, "{s}"),
            Tint::Good => write!(out, "{}", s.green()),
            Tint::Warn => write!(out, "{}", s.yellow()),
            Tint::Bad => write!(out, "{}", s.red()),
            Tint::Dim => write!(out, "{}", s.dimmed()),
            Tint::Bold => write!(out, "{}", s.bold()),
        };
    }
}

/// Columns `s` takes on a terminal: East Asian wide characters take two, combining
/// marks none. Alignment is computed on the text before colour is added.
pub(crate) fn width(s: &str) -> usize {
    // Most cells are printable ASCII, one column a byte: told without a table lookup
    // per character.
    if s.bytes().all(|b| (b' '..=b'~').contains(&b)) {
        return s.len();
    }
    unicode_width::UnicodeWidthStr::width(s)
}

pub(crate) fn status_tint(s: PolicyStatus) -> Tint {
    match s {
        PolicyStatus::Enforced => Tint::Good,
        PolicyStatus::PartiallyEnforced | PolicyStatus::SelectorBound => Tint::Warn,
        PolicyStatus::Overridden
        | PolicyStatus::Conflicted
        | PolicyStatus::TargetNotFound
        | PolicyStatus::SectionNotFound
        | PolicyStatus::Invalid => Tint::Bad,
    }
}

/// STATUS as every human view paints it (`get`, `tree`, `describe`): the one word
/// `query::shown_status` gives, escaped (a reason is a controller's text), a
/// controller's refusal tinted as a failure.
pub(crate) fn status_painted(
    s: PolicyStatus,
    word: Option<&crate::query::Reported>,
) -> (String, Tint) {
    match crate::query::shown_reason(s, word) {
        Some(_) => (
            escape::one_line(&crate::query::shown_status(s, word)).into_owned(),
            Tint::Bad,
        ),
        None => (s.as_str().to_string(), status_tint(s)),
    }
}

/// `-o json`: pretty, with a trailing newline.
pub fn json<T: Serialize>(out: &mut impl Write, v: &T) -> io::Result<()> {
    // Serialised first, so a failed write stays an io::Error of its own kind (a
    // closed pipe must read as BrokenPipe, not as a serialisation error).
    let text = serde_json::to_vec_pretty(v).map_err(io::Error::other)?;
    out.write_all(&text)?;
    writeln!(out)
}

/// `-o yaml`.
pub fn yaml<T: Serialize>(out: &mut impl Write, v: &T) -> io::Result<()> {
    // Through serde_json::Value so field order and shapes equal the JSON output.
    let value = serde_json::to_value(v).map_err(io::Error::other)?;
    let text = serde_saphyr::to_string(&value).map_err(io::Error::other)?;
    out.write_all(text.as_bytes())
}

/// `-o json` written as it is serialised, for an answer too large to hold twice over
/// (`dump`): the same text as [`json`]. A failed write stays the io::Error it was.
pub fn json_streamed<T: Serialize>(out: &mut impl Write, v: &T) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, v).map_err(io::Error::from)?;
    writeln!(out)
}

/// `-o yaml` written as it is serialised, for an answer too large to hold twice over
/// (`dump`, `get`'s List). The same text as [`yaml`] for a value whose `Serialize` makes only the
/// calls a `serde_json::Value` makes (mappings, sequences, strings, numbers, booleans,
/// unit), which is what going through a `Value` there ensures.
pub fn yaml_streamed<T: Serialize>(out: &mut impl Write, v: &T) -> io::Result<()> {
    serde_saphyr::to_io_writer(out, v).map_err(|e| match e {
        serde_saphyr::SerializeError::IO { error } => error,
        other => io::Error::other(other),
    })
}

#[cfg(test)]
mod tests {
    use super::width;

    #[test]
    fn width_counts_terminal_columns() {
        // Printable ASCII, told by its length, agrees with the full table.
        let ascii: String = (b' '..=b'~').map(char::from).collect();
        assert_eq!(
            width(&ascii),
            unicode_width::UnicodeWidthStr::width(&*ascii)
        );
        assert_eq!(width(""), 0);
        // Wide characters take two columns, combining marks none, a tab the table's.
        assert_eq!(width("日本"), 4);
        assert_eq!(width("e\u{301}"), 1);
        assert_eq!(width("a\tb"), unicode_width::UnicodeWidthStr::width("a\tb"));
    }
}

//! The typed settings one flag's text is read into: the output format of a command, the
//! colour, the namespace, the label selector, a duration. `plan` reads the command line
//! through these, once; nothing past it looks at a flag's text.

use crate::cli::{self, ColorWhen};
use crate::selector;
use anyhow::{anyhow, bail, Result};
use kubectl_policies::catalog::policy::LabelSelector;
use kubectl_policies::model::namespace_name_problem;
use std::io::IsTerminal;
use std::time::Duration;

/// An output format (`-o`), as a command accepts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Table,
    Wide,
    Name,
    Json,
    Yaml,
    Human,
    Tree,
    Dot,
    Mermaid,
    /// `diff`: a pull-request comment.
    Markdown,
    /// `jsonpath=TEMPLATE`.
    JsonPath,
    /// `jsonpath-file=PATH`: the template read from a file.
    JsonPathFile,
    /// `jsonpath-as-json=TEMPLATE`: the results as JSON arrays.
    JsonPathAsJson,
    /// `custom-columns=SPEC`.
    CustomColumns,
    /// `custom-columns-file=PATH`: a line of headers and a line of paths, from a file.
    CustomColumnsFile,
}

impl Format {
    fn parse(text: &str) -> Option<Format> {
        Some(match text {
            "table" => Format::Table,
            "wide" => Format::Wide,
            "name" => Format::Name,
            "json" => Format::Json,
            "yaml" => Format::Yaml,
            "human" => Format::Human,
            "tree" => Format::Tree,
            "dot" => Format::Dot,
            "mermaid" => Format::Mermaid,
            "markdown" => Format::Markdown,
            "jsonpath=" => Format::JsonPath,
            "jsonpath-file=" => Format::JsonPathFile,
            "jsonpath-as-json=" => Format::JsonPathAsJson,
            "custom-columns=" => Format::CustomColumns,
            "custom-columns-file=" => Format::CustomColumnsFile,
            _ => return None,
        })
    }

    /// `-o` for `command` (as `cli::FORMATS` names it): its default when not given; a
    /// format the command does not take is a usage error that lists the ones it does.
    pub fn for_command(output: Option<&str>, command: &str) -> Result<Format> {
        let allowed = cli::formats(command);
        let text = output.or(allowed.first().copied()).unwrap_or_default();
        // `jsonpath=TEMPLATE`, `custom-columns=SPEC` and the like are named by what comes
        // before `=`.
        let given = text;
        let text = match text.split_once('=') {
            Some((name, _))
                if matches!(
                    name,
                    "jsonpath"
                        | "jsonpath-file"
                        | "jsonpath-as-json"
                        | "custom-columns"
                        | "custom-columns-file"
                ) =>
            {
                text.get(..=name.len()).unwrap_or(text)
            }
            _ => text,
        };
        if !allowed.contains(&text) {
            bail!(
                "{command}: unknown output format {given:?} (use one of: {})",
                allowed.join(", ")
            );
        }
        Format::parse(text).ok_or_else(|| anyhow!("{command}: unknown output format {text:?}"))
    }

    /// JSON or YAML: never coloured.
    pub fn structured(self) -> bool {
        matches!(
            self,
            Format::Json
                | Format::Yaml
                | Format::Name
                | Format::JsonPath
                | Format::JsonPathFile
                | Format::JsonPathAsJson
                | Format::Markdown
        )
    }

    /// The text after `=` of `-o jsonpath=…`, `-o custom-columns-file=…` and the like.
    pub fn argument(output: Option<&str>) -> &str {
        output
            .and_then(|o| o.split_once('='))
            .map(|(_, arg)| arg)
            .unwrap_or_default()
    }
}

/// Colour is decided once, here: `always`, `never`, or a terminal with NO_COLOR unset or
/// empty (structured output is never coloured: `Format::structured`).
pub fn colour(when: ColorWhen) -> bool {
    wants_colour(
        when,
        std::io::stdout().is_terminal(),
        std::env::var_os("NO_COLOR").as_deref(),
    )
}

fn wants_colour(when: ColorWhen, terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => terminal && no_color.is_none_or(|v| v.is_empty()),
    }
}

/// `-n`, checked before anything is read, offline as live: a name that cannot be a
/// namespace's (kubectl and the API server refuse it) is a usage error, and never
/// goes into a URL.
pub fn check_namespace(namespace: Option<&str>) -> Result<()> {
    match namespace.map(|ns| (ns, namespace_name_problem(ns))) {
        Some((ns, Some(problem))) => {
            bail!("-n/--namespace {ns:?}: not a namespace name: {problem}")
        }
        _ => Ok(()),
    }
}

/// `-l`, read before anything is loaded so that a bad selector fails at once.
pub fn label_selector(text: Option<&str>) -> Result<Option<LabelSelector>> {
    text.map(|text| selector::parse(text).map_err(|e| anyhow!("--selector {text:?}: {e}")))
        .transpose()
}

/// A year: what `0` (no limit) means for a request.
const NO_LIMIT: Duration = Duration::from_secs(365 * 24 * 3600);

/// Why a `--request-timeout` is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    #[error("expected a duration such as 30s, 1m or 500ms")]
    Empty,
    #[error("a number needs a unit (ms, s, m, h)")]
    NoUnit,
    #[error("{number:?} is not a number")]
    NotANumber { number: String },
    #[error("unknown unit {unit:?} (use ms, s, m or h)")]
    UnknownUnit { unit: String },
    #[error("{text:?} is out of range")]
    OutOfRange { text: String },
    #[error("{text:?} is longer than a year")]
    TooLong { text: String },
}

/// kubectl's durations: `30s`, `1m30s`, `500ms`, `2h`, a bare number of seconds; `0`
/// means no limit.
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
    let too_long = || DurationError::TooLong {
        text: text.to_string(),
    };
    let trimmed = text.trim();
    if let Ok(secs) = trimmed.parse::<u64>() {
        return match secs {
            0 => Ok(NO_LIMIT),
            secs if secs > NO_LIMIT.as_secs() => Err(too_long()),
            secs => Ok(Duration::from_secs(secs)),
        };
    }
    if trimmed.is_empty() {
        return Err(DurationError::Empty);
    }
    let mut total = Duration::ZERO;
    let mut rest = trimmed;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or(DurationError::NoUnit)?;
        let (num, tail) = rest.split_at(digits);
        let value: f64 = num.parse().map_err(|_| DurationError::NotANumber {
            number: num.to_string(),
        })?;
        let unit_len = tail
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(tail.len());
        let (unit, next) = tail.split_at(unit_len);
        let scale = match unit {
            "ms" => 0.001,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            _ => {
                return Err(DurationError::UnknownUnit {
                    unit: unit.to_string(),
                })
            }
        };
        let part =
            Duration::try_from_secs_f64(value * scale).map_err(|_| DurationError::OutOfRange {
                text: text.to_string(),
            })?;
        total = total
            .checked_add(part)
            .filter(|t| *t <= NO_LIMIT)
            .ok_or_else(too_long)?;
        rest = next;
    }
    Ok(if total.is_zero() { NO_LIMIT } else { total })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn colour_auto_means_a_terminal_and_no_color_unset_or_empty() {
        assert!(wants_colour(ColorWhen::Auto, true, None));
        assert!(wants_colour(ColorWhen::Auto, true, Some(OsStr::new(""))));
        assert!(!wants_colour(ColorWhen::Auto, true, Some(OsStr::new("1"))));
        assert!(!wants_colour(ColorWhen::Auto, false, None));
        assert!(wants_colour(
            ColorWhen::Always,
            false,
            Some(OsStr::new("1"))
        ));
        assert!(!wants_colour(ColorWhen::Never, true, None));
    }

    #[test]
    fn every_format_a_command_lists_parses() {
        for (command, formats) in cli::FORMATS {
            for f in *formats {
                assert!(Format::parse(f).is_some(), "{command}: {f}");
            }
        }
    }

    #[test]
    fn kubectl_durations() {
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("1m30s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("0"), Ok(NO_LIMIT));
        assert_eq!(
            parse_duration("5x"),
            Err(DurationError::UnknownUnit {
                unit: "x".to_string()
            })
        );
        assert_eq!(
            parse_duration("5x").unwrap_err().to_string(),
            "unknown unit \"x\" (use ms, s, m or h)"
        );
        assert_eq!(
            parse_duration("9999999h").unwrap_err().to_string(),
            "\"9999999h\" is longer than a year"
        );
        assert_eq!(parse_duration(" "), Err(DurationError::Empty));
        assert_eq!(parse_duration("5"), Ok(Duration::from_secs(5)));
        assert_eq!(
            parse_duration("1.5.2s").unwrap_err().to_string(),
            "\"1.5.2\" is not a number"
        );
        assert_eq!(parse_duration("3s5"), Err(DurationError::NoUnit));
    }
}

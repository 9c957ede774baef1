//! Flags turned into typed settings once: the output format of the command, the colour,
//! the label selector. Nothing past this point looks at a flag's text.

use crate::cli::{self, ColorWhen, Global};
use crate::selector;
use anyhow::{anyhow, bail, Result};
use kubectl_policies::catalog::policy::LabelSelector;
use kubectl_policies::model::namespace_name_problem;
use kubectl_policies::render::Style;
use std::io::IsTerminal;

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
    pub fn for_command(flags: &Global, command: &str) -> Result<Format> {
        let allowed = cli::formats(command);
        let text = flags
            .output
            .as_deref()
            .or(allowed.first().copied())
            .unwrap_or_default();
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
        )
    }

    /// The text after `=` of `-o jsonpath=…`, `-o custom-columns-file=…` and the like.
    pub fn argument(flags: &Global) -> &str {
        flags
            .output
            .as_deref()
            .and_then(|o| o.split_once('='))
            .map(|(_, arg)| arg)
            .unwrap_or_default()
    }
}

/// Colour is decided once, here: `always`, `never`, or a terminal with NO_COLOR unset or
/// empty; never for structured output.
pub fn style(flags: &Global, format: Format) -> Style {
    let color = !format.structured()
        && wants_colour(
            flags.color,
            std::io::stdout().is_terminal(),
            std::env::var_os("NO_COLOR").as_deref(),
        );
    Style { color }
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
pub fn check_namespace(flags: &Global) -> Result<()> {
    match flags
        .namespace
        .as_deref()
        .map(|ns| (ns, namespace_name_problem(ns)))
    {
        Some((ns, Some(problem))) => {
            bail!("-n/--namespace {ns:?}: not a namespace name: {problem}")
        }
        _ => Ok(()),
    }
}

/// `-l`, read before anything is loaded so that a bad selector fails at once.
pub fn label_selector(flags: &Global) -> Result<Option<LabelSelector>> {
    flags
        .selector
        .as_deref()
        .map(|text| selector::parse(text).map_err(|e| anyhow!("--selector {text:?}: {e}")))
        .transpose()
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
}

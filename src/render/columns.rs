//! `-o custom-columns=HEADER:JSONPATH,…` and `--show-labels`, as kubectl prints them:
//! each column's path evaluated on each item of the `-o json` list, several results
//! joined with `,`, none as `<none>`.

use super::jsonpath::{self, Path, TemplateError};
use super::table::Table;
use super::{Printer, Tint};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// Why a `custom-columns` spec is refused, in kubectl's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ColumnsError {
    #[error("custom-columns format specified but no custom columns given")]
    Empty,
    /// A column (`part`) without `:`.
    #[error("unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>")]
    NoPath { part: String },
    /// `-o custom-columns-file`: the file has no first line (the headers).
    #[error("invalid template, missing header line. Expected format is one line of space separated headers, one line of space separated column specs.")]
    NoHeaderLine,
    /// `-o custom-columns-file`: the file has no second line (the paths).
    #[error("invalid template, missing spec line. Expected format is one line of space separated headers, one line of space separated column specs.")]
    NoSpecLine,
    /// `-o custom-columns-file`: the two lines do not have as many words.
    #[error("number of headers ({headers}) and field specifications ({specs}) don't match")]
    CountMismatch { headers: usize, specs: usize },
    /// The path of the column `header` does not parse.
    #[error("{header}: {path_error}")]
    BadPath {
        header: String,
        path_error: TemplateError,
    },
}

/// The columns of a `custom-columns` spec.
#[derive(Clone, Debug)]
pub struct Columns {
    columns: Vec<(String, Path)>,
}

/// One column: its header, and its path read in kubectl's relaxed form.
fn column(header: &str, path: &str) -> Result<(String, Path), ColumnsError> {
    let path = jsonpath::relaxed(path).map_err(|path_error| ColumnsError::BadPath {
        header: header.to_string(),
        path_error,
    })?;
    Ok((header.to_string(), path))
}

impl Columns {
    /// `NAME:.policy.name,STATUS:.status`; each path in kubectl's relaxed form (`.a`,
    /// `a`, `{.a}`).
    pub fn parse(spec: &str) -> Result<Columns, ColumnsError> {
        if spec.trim().is_empty() {
            return Err(ColumnsError::Empty);
        }
        let columns = spec
            .split(',')
            .map(|part| {
                let (header, path) = part.split_once(':').ok_or_else(|| ColumnsError::NoPath {
                    part: part.to_string(),
                })?;
                column(header, path)
            })
            .collect::<Result<Vec<_>, ColumnsError>>()?;
        Ok(Columns { columns })
    }

    /// `-o custom-columns-file`'s text, as kubectl reads it: a first line of headers and a
    /// second of paths (kubectl's relaxed form), each split on whitespace, as many of
    /// one as of the other; lines after the second are not read.
    pub fn parse_file(text: &str) -> Result<Columns, ColumnsError> {
        let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
        let headers: Vec<&str> = match lines.next() {
            // A file ending with a newline has no line after it.
            Some(line) if !text.is_empty() => line.split_whitespace().collect(),
            _ => return Err(ColumnsError::NoHeaderLine),
        };
        let specs: Vec<&str> = match lines.next() {
            Some(line) if !(line.is_empty() && lines.clone().next().is_none()) => {
                line.split_whitespace().collect()
            }
            _ => return Err(ColumnsError::NoSpecLine),
        };
        if headers.len() != specs.len() {
            return Err(ColumnsError::CountMismatch {
                headers: headers.len(),
                specs: specs.len(),
            });
        }
        if headers.is_empty() {
            return Err(ColumnsError::Empty);
        }
        let columns = headers
            .into_iter()
            .zip(specs)
            .map(|(header, path)| column(header, path))
            .collect::<Result<Vec<_>, ColumnsError>>()?;
        Ok(Columns { columns })
    }

    /// One row per item (the user's headers first unless `--no-headers`).
    pub fn write(
        &self,
        out: &mut impl Write,
        items: &[Value],
        printer: &Printer,
    ) -> io::Result<()> {
        let (headers, style) = (printer.headers, printer.style);
        // The headers are the user's words: written as the first row of a table whose
        // own header row is not printed.
        let mut table = Table::new(vec![""; self.columns.len()]);
        if headers {
            table.start_row();
            for (header, _) in &self.columns {
                table.cell(header, Tint::Plain);
            }
        }
        for item in items {
            table.start_row();
            for (_, path) in &self.columns {
                let found = path.find(item).map_err(io::Error::other)?;
                table.cell_with(Tint::Plain, |cell| {
                    if found.is_empty() {
                        cell.push_str("<none>");
                    }
                    for (i, value) in found.iter().enumerate() {
                        if i > 0 {
                            cell.push(',');
                        }
                        jsonpath::sprint(value, cell);
                    }
                });
            }
        }
        table.write(out, style, false)
    }
}

/// The LABELS cell of `--show-labels`: `k=v,k=v` in key order, `<none>` for none, as
/// kubectl prints it; control characters escaped.
pub(crate) fn labels_cell(labels: &BTreeMap<String, String>) -> String {
    if labels.is_empty() {
        return "<none>".into();
    }
    let mut cell = String::new();
    for (i, (key, value)) in labels.iter().enumerate() {
        if i > 0 {
            cell.push(',');
        }
        jsonpath::sprint(&Value::String(format!("{key}={value}")), &mut cell);
    }
    cell
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_row_per_item_several_results_joined_missing_as_none() {
        let cols = Columns::parse("NAME:.policy.name,TARGETS:.targets[*].name,X:nope").unwrap();
        let items = [
            json!({"policy": {"name": "a"}, "targets": [{"name": "t1"}, {"name": "t2"}]}),
            json!({"policy": {"name": "bbbb"}, "targets": []}),
        ];
        let mut out = Vec::new();
        cols.write(&mut out, &items, &Printer::default()).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "NAME   TARGETS   X\na      t1,t2     <none>\nbbbb   <none>    <none>\n"
        );
    }

    #[test]
    fn specs_without_a_path_are_refused() {
        let no_path = Columns::parse("A:.a,NAME").unwrap_err();
        assert_eq!(
            no_path,
            ColumnsError::NoPath {
                part: "NAME".to_string()
            }
        );
        assert_eq!(
            no_path.to_string(),
            "unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>"
        );
        assert_eq!(Columns::parse(" ").unwrap_err(), ColumnsError::Empty);
        let bad = Columns::parse("A:{}").unwrap_err();
        assert!(
            matches!(&bad, ColumnsError::BadPath { header, .. } if header == "A"),
            "{bad:?}"
        );
        assert_eq!(bad.to_string(), "A: \"{}\" is not a JSONPath");
    }

    #[test]
    fn a_columns_file_is_a_line_of_headers_and_a_line_of_paths() {
        let cols =
            Columns::parse_file("NAME   TEAM\r\n.policy.name\t{.labels.team}\nignored\n").unwrap();
        let items = [json!({"policy": {"name": "a"}, "labels": {"team": "web"}})];
        let mut out = Vec::new();
        cols.write(&mut out, &items, &Printer::default()).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "NAME   TEAM\na      web\n");
        assert_eq!(
            Columns::parse_file("").unwrap_err(),
            ColumnsError::NoHeaderLine
        );
        assert_eq!(
            Columns::parse_file("NAME\n").unwrap_err(),
            ColumnsError::NoSpecLine
        );
        assert_eq!(
            Columns::parse_file("NAME").unwrap_err(),
            ColumnsError::NoSpecLine
        );
        let mismatch = Columns::parse_file("NAME TEAM\n.policy.name\n").unwrap_err();
        assert_eq!(
            mismatch,
            ColumnsError::CountMismatch {
                headers: 2,
                specs: 1
            }
        );
        assert_eq!(
            mismatch.to_string(),
            "number of headers (2) and field specifications (1) don't match"
        );
        assert_eq!(
            Columns::parse_file(" \n \n").unwrap_err(),
            ColumnsError::Empty
        );
    }

    #[test]
    fn labels_as_kubectl_shows_them() {
        let mut l = BTreeMap::new();
        assert_eq!(labels_cell(&l), "<none>");
        l.insert("team".to_string(), "web".to_string());
        l.insert("env".to_string(), "prod\u{1b}".to_string());
        assert_eq!(labels_cell(&l), "env=prod^[,team=web");
    }
}

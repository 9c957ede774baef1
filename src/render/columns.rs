//! `-o custom-columns=HEADER:JSONPATH,…` and `--show-labels`, as kubectl prints them:
//! each column's path evaluated on each item of the `-o json` list, several results
//! joined with `,`, none as `<none>`.

use super::jsonpath::{self, Path};
use super::table::Table;
use super::{Style, Tint};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// The columns of a `custom-columns` spec.
#[derive(Clone, Debug)]
pub struct Columns {
    columns: Vec<(String, Path)>,
}

impl Columns {
    /// `NAME:.policy.name,STATUS:.status`; each path in kubectl's relaxed form (`.a`,
    /// `a`, `{.a}`).
    pub fn parse(spec: &str) -> Result<Columns, String> {
        if spec.trim().is_empty() {
            return Err("custom-columns format specified but no custom columns given".into());
        }
        let columns = spec
            .split(',')
            .map(|part| {
                let (header, path) = part.split_once(':').ok_or_else(|| {
                    format!(
                        "unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>"
                    )
                })?;
                let path = jsonpath::relaxed(path).map_err(|e| format!("{header}: {e}"))?;
                Ok((header.to_string(), path))
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Columns { columns })
    }

    /// One row per item.
    pub fn write(
        &self,
        out: &mut impl Write,
        items: &[Value],
        headers: bool,
        style: Style,
    ) -> io::Result<()> {
        // The headers are the user's words: written as the first row of a table whose
        // own header row is not printed.
        let mut t = Table::new(vec![""; self.columns.len()]);
        if headers {
            t.start_row();
            for (h, _) in &self.columns {
                t.cell(h, Tint::Plain);
            }
        }
        for item in items {
            t.start_row();
            for (_, path) in &self.columns {
                let found = path.find(item).map_err(io::Error::other)?;
                t.cell_with(Tint::Plain, |s| {
                    if found.is_empty() {
                        s.push_str("<none>");
                    }
                    for (i, v) in found.iter().enumerate() {
                        if i > 0 {
                            s.push(',');
                        }
                        jsonpath::sprint(v, s);
                    }
                });
            }
        }
        t.write(out, style, false)
    }
}

/// The LABELS cell of `--show-labels`: `k=v,k=v` in key order, `<none>` for none, as
/// kubectl prints it; control characters escaped.
pub fn labels_cell(labels: &BTreeMap<String, String>) -> String {
    if labels.is_empty() {
        return "<none>".into();
    }
    let mut s = String::new();
    for (i, (k, v)) in labels.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        jsonpath::sprint(&Value::String(format!("{k}={v}")), &mut s);
    }
    s
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
        cols.write(&mut out, &items, true, Style::default())
            .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "NAME   TARGETS   X\na      t1,t2     <none>\nbbbb   <none>    <none>\n"
        );
    }

    #[test]
    fn specs_without_a_path_are_refused() {
        assert!(Columns::parse("NAME")
            .unwrap_err()
            .contains("expected <header>:<json-path-expr>"));
        assert!(Columns::parse("").is_err());
        assert!(Columns::parse("A:{}").is_err());
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

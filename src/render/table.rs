//! kubectl's table style: no borders, UPPERCASE headers, columns three spaces apart,
//! the last column not padded.

use super::{width, Style, Tint};
use std::io::{self, Write};

/// A kubectl-style table: columns as wide as their widest cell (by display width),
/// two spaces apart, colour that never shifts a column.
pub struct Table {
    pub headers: Vec<&'static str>,
    pub rows: Vec<Vec<(String, Tint)>>,
}

impl Table {
    pub fn new(headers: Vec<&'static str>) -> Table {
        Table {
            headers,
            rows: Vec::new(),
        }
    }

    pub fn row(&mut self, cells: Vec<(String, Tint)>) {
        self.rows.push(cells);
    }

    pub fn write(&self, out: &mut impl Write, style: Style, headers: bool) -> io::Result<()> {
        let cols = self.headers.len();
        let mut widths: Vec<usize> = if headers {
            self.headers.iter().map(|h| width(h)).collect()
        } else {
            vec![0; cols]
        };
        for r in &self.rows {
            for (i, (c, _)) in r.iter().enumerate().take(cols) {
                widths[i] = widths[i].max(width(c));
            }
        }
        // One line at a time, in one buffer: a table of every policy of a large cluster
        // has tens of thousands of rows.
        let mut s = String::new();
        let mut line = |out: &mut dyn Write, cells: &mut dyn Iterator<Item = (&str, Tint)>| {
            s.clear();
            let mut pad = 0;
            for (i, (c, tint)) in cells.enumerate() {
                s.extend(std::iter::repeat_n(' ', pad));
                style.paint_into(&mut s, c, tint);
                pad = widths[i] - width(c) + 3;
            }
            s.truncate(s.trim_end().len());
            s.push('\n');
            out.write_all(s.as_bytes())
        };
        if headers {
            line(out, &mut self.headers.iter().map(|h| (&**h, Tint::Plain)))?;
        }
        for r in &self.rows {
            line(out, &mut r.iter().map(|(c, t)| (c.as_str(), *t)))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_three_spaces_apart() {
        let mut t = Table::new(vec!["NAME", "STATUS"]);
        t.row(vec![
            ("a-long-name".into(), Tint::Plain),
            ("Enforced".into(), Tint::Good),
        ]);
        t.row(vec![
            ("b".into(), Tint::Plain),
            ("Overridden".into(), Tint::Bad),
        ]);
        let mut out = Vec::new();
        t.write(&mut out, Style::default(), true).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "NAME          STATUS\na-long-name   Enforced\nb             Overridden\n"
        );
    }

    /// Wide characters (a controller's message in Japanese, say) take two columns;
    /// colour codes take none.
    #[test]
    fn wide_characters_and_colour_keep_columns_aligned() {
        let mut t = Table::new(vec!["NAME", "MESSAGE", "STATUS"]);
        t.row(vec![
            ("a".into(), Tint::Plain),
            ("設定が競合".into(), Tint::Plain),
            ("Conflicted".into(), Tint::Bad),
        ]);
        t.row(vec![
            ("b".into(), Tint::Plain),
            ("ok".into(), Tint::Plain),
            ("Enforced".into(), Tint::Good),
        ]);
        let mut out = Vec::new();
        t.write(&mut out, Style { color: true }, true).unwrap();
        let text = String::from_utf8(out).unwrap();
        let plain: String = {
            // Strip SGR sequences to measure what a terminal shows.
            let mut s = String::new();
            let mut esc = false;
            for c in text.chars() {
                match (esc, c) {
                    (false, '\u{1b}') => esc = true,
                    (true, 'm') => esc = false,
                    (true, _) => {}
                    (false, c) => s.push(c),
                }
            }
            s
        };
        let columns: Vec<usize> = plain
            .lines()
            .map(|l| {
                let last = l.split_whitespace().last().unwrap();
                width(&l[..l.rfind(last).unwrap()])
            })
            .collect();
        // NAME (4) + 3, then the widest MESSAGE (5 wide characters: 10 columns) + 3.
        assert_eq!(columns, [20, 20, 20], "{plain}");
    }
}

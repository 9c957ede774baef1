//! kubectl's table style: no borders, UPPERCASE headers, columns three spaces apart,
//! the last column not padded.

use super::{width, Style, Tint};
use std::io::{self, Write};

/// A kubectl-style table: columns as wide as their widest cell (by display width),
/// two spaces apart, colour that never shifts a column.
///
/// The cells are held one after another in one string: a table of every policy of a
/// large cluster has hundreds of thousands of cells, and each is not an allocation.
pub(crate) struct Table {
    pub(crate) headers: Vec<&'static str>,
    /// Every cell's text, one after another.
    text: String,
    /// Each cell: where its text ends in `text`, and its tint.
    cells: Vec<(usize, Tint)>,
    /// Where each row's cells start in `cells`.
    rows: Vec<usize>,
}

impl Table {
    pub(crate) fn new(headers: Vec<&'static str>) -> Table {
        Table {
            headers,
            text: String::new(),
            cells: Vec::new(),
            rows: Vec::new(),
        }
    }

    pub(crate) fn row(&mut self, cells: Vec<(String, Tint)>) {
        self.start_row();
        for (c, tint) in cells {
            self.cell(&c, tint);
        }
    }

    /// Starts a row: the cells that follow are its own.
    pub(crate) fn start_row(&mut self) {
        self.rows.push(self.cells.len());
    }

    /// A cell of the current row.
    pub(crate) fn cell(&mut self, text: &str, tint: Tint) {
        self.cell_with(tint, |s| s.push_str(text));
    }

    /// A cell of the current row, its text written by `write` in place.
    /// Text from input is escaped here, so columns are measured as they will be shown.
    pub(crate) fn cell_with(&mut self, tint: Tint, write: impl FnOnce(&mut String)) {
        let start = self.text.len();
        write(&mut self.text);
        let written = self.text.get(start..).unwrap_or_default();
        if let std::borrow::Cow::Owned(safe) = super::escape::terminal_safe(written) {
            self.text.truncate(start);
            self.text.push_str(&safe);
        }
        self.cells.push((self.text.len(), tint));
    }

    /// The rows of `other` after this table's own (the headers are this table's).
    pub(crate) fn append(&mut self, other: Table) {
        let (text, cells) = (self.text.len(), self.cells.len());
        self.text.push_str(&other.text);
        self.cells.extend(
            other
                .cells
                .into_iter()
                .map(|(end, tint)| (end + text, tint)),
        );
        self.rows
            .extend(other.rows.into_iter().map(|start| start + cells));
    }

    /// Each row's cells: (text, tint).
    fn each_row(&self) -> impl Iterator<Item = impl Iterator<Item = (&str, Tint)> + '_> + '_ {
        let ends = self.rows.iter().skip(1).copied().chain([self.cells.len()]);
        self.rows.iter().zip(ends).map(move |(&from, to)| {
            (from..to).map(move |c| {
                let start = match c {
                    0 => 0,
                    _ => self.cells[c - 1].0,
                };
                let (end, tint) = self.cells[c];
                (self.text.get(start..end).unwrap_or_default(), tint)
            })
        })
    }

    pub fn write(&self, out: &mut impl Write, style: Style, headers: bool) -> io::Result<()> {
        let cols = self.headers.len();
        let mut widths: Vec<usize> = if headers {
            self.headers.iter().map(|h| width(h)).collect()
        } else {
            vec![0; cols]
        };
        for r in self.each_row() {
            for (i, (c, _)) in r.enumerate().take(cols) {
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
        for mut r in self.each_row() {
            line(out, &mut r)?;
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

    /// A table made in parts (on several cores) prints as the table made in one go.
    #[test]
    fn appended_rows_print_as_rows_made_in_place() {
        let rows = [
            ["a", "Enforced", ""],
            ["bb", "", "x"],
            ["ccc", "Overridden", "yy"],
        ];
        let mut whole = Table::new(vec!["NAME", "STATUS", "MORE"]);
        let mut first = Table::new(vec![]);
        let mut rest = Table::new(vec![]);
        for (i, r) in rows.iter().enumerate() {
            whole.row(r.iter().map(|c| (c.to_string(), Tint::Good)).collect());
            let part = if i == 0 { &mut first } else { &mut rest };
            part.start_row();
            for c in r {
                part.cell_with(Tint::Good, |s| s.push_str(c));
            }
        }
        let mut parts = Table::new(vec!["NAME", "STATUS", "MORE"]);
        parts.append(first);
        parts.append(Table::new(vec![]));
        parts.append(rest);
        for color in [false, true] {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            whole.write(&mut a, Style { color }, true).unwrap();
            parts.write(&mut b, Style { color }, true).unwrap();
            assert_eq!(String::from_utf8(a).unwrap(), String::from_utf8(b).unwrap());
        }
        let mut out = Vec::new();
        parts.write(&mut out, Style::default(), false).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "a     Enforced\nbb                 x\nccc   Overridden   yy\n"
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

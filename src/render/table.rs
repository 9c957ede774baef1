//! kubectl's table style: no borders, UPPERCASE headers, columns three spaces apart,
//! the last column not padded.

use super::{Style, Tint};
use std::io::{self, Write};

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
            self.headers.iter().map(|h| h.chars().count()).collect()
        } else {
            vec![0; cols]
        };
        for r in &self.rows {
            for (i, (c, _)) in r.iter().enumerate().take(cols) {
                widths[i] = widths[i].max(c.chars().count());
            }
        }
        let line = |out: &mut dyn Write, cells: Vec<(String, Tint)>| -> io::Result<()> {
            let mut s = String::new();
            for (i, (c, tint)) in cells.iter().enumerate() {
                let painted = style.paint(c, *tint);
                if i + 1 < cells.len() {
                    let pad = widths[i] - c.chars().count() + 3;
                    s.push_str(&painted);
                    s.push_str(&" ".repeat(pad));
                } else {
                    s.push_str(&painted);
                }
            }
            writeln!(out, "{}", s.trim_end())
        };
        if headers {
            line(
                out,
                self.headers
                    .iter()
                    .map(|h| (h.to_string(), Tint::Plain))
                    .collect(),
            )?;
        }
        for r in &self.rows {
            line(out, r.clone())?;
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
}

//! The demo's manifests, damaged as a careless edit or a broken pipe would damage them:
//! truncated, lines deleted or duplicated, values swapped for odd scalars, list dashes
//! toggled, lines re-indented. The hostile-input tests of the library (scenarios) and of
//! the binary (cli) draw their inputs from here.

use proptest::prelude::*;

const DEMO: &str = kubectl_policies::source::demo::DEMO_YAML;

/// The demo's lines, for mutation.
fn lines() -> Vec<String> {
    DEMO.lines().map(str::to_string).collect()
}

const ODD_SCALARS: &[&str] = &[
    "~",
    "null",
    ".nan",
    "-.inf",
    "0x1F",
    "0o17",
    "yes",
    "NO",
    "1e400",
    "-0",
    "''",
    "\"\\u0000\"",
    "!!binary aGVsbG8=",
    "[]",
    "{}",
    "[[[]]]",
    "&a x",
    "*a",
    "|",
    ">-",
    "99999999999999999999999999",
    "\"\u{202e}rtl\"",
    "{a: [1, {b: c}]}",
];

#[derive(Debug, Clone)]
pub enum Mutation {
    Truncate(usize),
    DeleteLine(usize),
    DuplicateLine(usize),
    /// Replace the value after the first `:` on a line with an odd scalar.
    SwapValue(usize, usize),
    /// Turn a mapping line into a list item or back.
    ToggleDash(usize),
    /// Change the indentation of a line.
    Reindent(usize, usize),
}

pub fn mutation() -> impl Strategy<Value = Mutation> {
    let n = DEMO.lines().count();
    prop_oneof![
        (0..DEMO.len()).prop_map(Mutation::Truncate),
        (0..n).prop_map(Mutation::DeleteLine),
        (0..n).prop_map(Mutation::DuplicateLine),
        ((0..n), (0..ODD_SCALARS.len())).prop_map(|(l, s)| Mutation::SwapValue(l, s)),
        (0..n).prop_map(Mutation::ToggleDash),
        ((0..n), (0..8usize)).prop_map(|(l, i)| Mutation::Reindent(l, i)),
    ]
}

/// The demo with `ms` applied in turn.
pub fn mutated(ms: &[Mutation]) -> String {
    let mut text = lines();
    for m in ms {
        apply(&mut text, m);
    }
    text.join("\n")
}

fn apply(text: &mut Vec<String>, m: &Mutation) {
    match *m {
        Mutation::Truncate(at) => {
            let joined = text.join("\n");
            let mut cut = at.min(joined.len());
            while !joined.is_char_boundary(cut) {
                cut -= 1;
            }
            *text = joined[..cut].lines().map(str::to_string).collect();
        }
        Mutation::DeleteLine(i) if i < text.len() => {
            text.remove(i);
        }
        Mutation::DuplicateLine(i) if i < text.len() => {
            let l = text[i].clone();
            text.insert(i, l);
        }
        Mutation::SwapValue(i, s) if i < text.len() => {
            if let Some((k, _)) = text[i].split_once(':') {
                text[i] = format!("{k}: {}", ODD_SCALARS[s]);
            }
        }
        Mutation::ToggleDash(i) if i < text.len() => {
            let l = &text[i];
            let indent = l.len() - l.trim_start().len();
            text[i] = match l.trim_start().strip_prefix("- ") {
                Some(rest) => format!("{}{rest}", " ".repeat(indent)),
                None => format!("{}- {}", " ".repeat(indent), l.trim_start()),
            };
        }
        Mutation::Reindent(i, by) if i < text.len() => {
            text[i] = format!("{}{}", " ".repeat(by), text[i].trim_start());
        }
        _ => {}
    }
}

//! The house limits on size, as a test: no file in `src/` over 1,000 lines, no function
//! over 100 lines, and none over 80 under `src/bin` (the binary only routes). A
//! function's length is its lines from `fn` to its closing brace, both counted (doc
//! comments and attributes above it are not); test modules (from `#[cfg(test)]` on) are
//! not held to it.
//!
//! `cargo clippy` holds the 100 too (`too_many_lines`, clippy.toml), but counts lines of
//! code only, and has one threshold for the library and the binary: this count, every
//! line, is the stricter, and the only one that holds the binary's 80.

use crate::source_tree;

/// Where each function of `code` starts and ends: (name, first line, last line), 1-based.
/// Braces in strings, characters and comments are skipped.
fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let chars: Vec<char> = code.chars().collect();
    let mut line = 1;
    // Braces open, and for each the function it opens, if any: (name, line of `fn`).
    let mut open: Vec<Option<(String, usize)>> = Vec::new();
    let mut pending: Option<(String, usize)> = None;
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            '\n' => line += 1,
            '/' if next == Some('/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '/' if next == Some('*') => {
                i += 2;
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    line += usize::from(chars[i] == '\n');
                    i += 1;
                }
                i += 2;
                continue;
            }
            'r' if matches!(next, Some('"' | '#')) && !word_char(chars.get(i.wrapping_sub(1))) => {
                // A raw string: r"…", r#"…"#.
                let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
                if chars.get(i + 1 + hashes) == Some(&'"') {
                    i += 2 + hashes;
                    let close: Vec<char> = std::iter::once('"')
                        .chain(std::iter::repeat_n('#', hashes))
                        .collect();
                    while i < chars.len() && !chars[i..].starts_with(&close) {
                        line += usize::from(chars[i] == '\n');
                        i += 1;
                    }
                    i += close.len();
                    continue;
                }
            }
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    line += usize::from(chars[i] == '\n');
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
            }
            '\'' => {
                // A character ('x', '\n', '\u{1F}') and not a lifetime ('a).
                if next == Some('\\') {
                    i += 3;
                    while i < chars.len() && chars[i] != '\'' {
                        i += 1;
                    }
                } else if chars.get(i + 2) == Some(&'\'') {
                    i += 2;
                }
            }
            'f' if next == Some('n')
                && chars.get(i + 2).is_some_and(|c| c.is_whitespace())
                && !word_char(chars.get(i.wrapping_sub(1))) =>
            {
                let name: String = chars[i + 3..]
                    .iter()
                    .skip_while(|c| c.is_whitespace())
                    .take_while(|c| c.is_alphanumeric() || **c == '_')
                    .collect();
                pending = Some((name, line));
            }
            ';' if pending.is_some() && open_parens(&chars[..i]) => pending = None,
            '{' => open.push(pending.take()),
            '}' => {
                if let Some(Some((name, start))) = open.pop() {
                    found.push((name, start, line));
                }
            }
            _ => {}
        }
        i += 1;
    }
    found
}

fn word_char(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

/// Whether a `;` ends a declaration without a body (`fn f();` in a trait) rather than
/// sitting inside its signature (`[u8; 4]`): true when no bracket is open since `fn`.
fn open_parens(before: &[char]) -> bool {
    let text: String = before.iter().collect();
    let since = text.rfind("fn ").map_or("", |at| &text[at..]);
    let depth = since.chars().fold(0i32, |d, c| match c {
        '(' | '[' => d + 1,
        ')' | ']' => d - 1,
        _ => d,
    });
    depth <= 0
}

#[test]
fn no_file_or_function_is_over_the_house_limits() {
    let src = source_tree::src();
    let files = source_tree::rust_files(&src, &[]);
    let mut over = Vec::new();
    let mut counted = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let shown = file.strip_prefix(&src).unwrap().display().to_string();
        let lines = text.lines().count();
        if lines > 1000 {
            over.push(format!("src/{shown}: {lines} lines (limit 1000)"));
        }
        let limit = if file.starts_with(src.join("bin")) {
            80
        } else {
            100
        };
        for (name, start, end) in functions(source_tree::non_test_code(&text)) {
            counted += 1;
            let length = end - start + 1;
            if length > limit {
                over.push(format!(
                    "src/{shown}:{start}: fn {name} is {length} lines (limit {limit})"
                ));
            }
        }
    }
    // The scan found the functions it is meant to hold.
    assert!(counted > 1000, "only {counted} functions found");
    assert!(
        over.is_empty(),
        "over the house limits:\n{}",
        over.join("\n")
    );
}

/// The scan on literal code: lengths from `fn` to its closing brace; braces in strings,
/// characters and comments skipped; a nested function counted on its own; a trait's
/// declaration without a body not a function.
#[test]
fn function_lengths_are_counted_from_fn_to_its_brace() {
    let code = r#####"
/// Doc.
fn one() {
    let s = "}}}";
    let c = '}';
    let r = r#"{"#;
    // }
    /* { */
    fn inner<'a>(x: &'a [u8; 4]) -> u8 {
        x[0]
    }
}
trait T {
    fn declared(&self);
    fn defaulted(&self) -> usize { 1 }
}
"#####;
    let found = functions(code);
    assert_eq!(
        found,
        [
            ("inner".to_string(), 9, 11),
            ("one".to_string(), 3, 12),
            ("defaulted".to_string(), 15, 15),
        ]
    );
}

//! kubectl's JSONPath templates (`-o jsonpath=…`, `-o custom-columns=…`, `--sort-by`),
//! evaluated over the `-o json` shape as kubectl evaluates them.
//!
//! Written here rather than taken from a crate: the JSONPath crates (jsonpath-rust,
//! serde_json_path) implement RFC 9535, and kubectl's dialect is another language: a
//! template of text and `{…}` actions with `{range …}…{end}` and quoted text (`{"\n"}`),
//! filters written `[?(@.a=="b")]`, paths without `$`, a missing key that yields
//! nothing instead of an error, maps walked in key order, and results printed as Go
//! prints them (strings bare, maps and lists as compact JSON with sorted keys, several
//! results separated by one space).
//!
//! Here: the model (a `Template` of text and actions, a `Path` of segments) and a
//! template run over a value. Read by `parse`; a path walked by `eval`; results printed
//! by `print`; `--sort-by`'s order in `sort`.

use serde_json::Value;
use std::cmp::Ordering;
use std::fmt::Write as _;

mod error;
mod eval;
mod parse;
mod print;
mod quantity;
mod sort;

pub(crate) use error::{EvalError, TemplateError, TemplateReason};
use parse::Parser;
use print::push_json_array;
pub(crate) use print::{print_value, sprint};
pub use sort::{sort_order, unsortable};

/// A parsed template: text and actions, ranges nested.
#[derive(Clone, Debug, PartialEq)]
pub struct Template {
    items: Vec<Item>,
}

#[derive(Clone, Debug, PartialEq)]
enum Item {
    Text(String),
    Path(Path),
    /// `{range PATH}…{end}`: the items, once for each result of the path, that result
    /// being the root inside.
    Range(Path, Vec<Item>),
}

/// A path: segments from the root (`$`, `@` or nothing) or, in a filter, from `@`.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    segments: Vec<Segment>,
}

/// One segment of a path (RFC 9535's word): what `.a`, `..`, `.*` or `[…]` does to
/// the values reached so far.
#[derive(Clone, Debug, PartialEq)]
enum Segment {
    Field(String),
    /// `..`: the value and every map or list below it that holds something.
    Recursive,
    Wildcard,
    /// `[i]`: one index, negative from the end.
    Index(i64),
    /// `[start:end:step]`.
    Slice(Option<i64>, Option<i64>, Option<i64>),
    /// `['a','b']`, `[0,2]`: each member over every value, one member after another.
    Union(Vec<Path>),
    Filter(Box<Filter>),
}

#[derive(Clone, Debug, PartialEq)]
struct Filter {
    left: Path,
    /// None: `[?(@.a)]`, the key exists.
    test: Option<(Op, Operand)>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Debug, PartialEq)]
enum Operand {
    Literal(Value),
    Path(Path),
}

impl Template {
    /// Parses a template: text outside braces is printed as it is, `{"…"}` prints the
    /// quoted text (with `\n`, `\t` and the like), `{range P}…{end}`, and `{P}` prints
    /// the results of path P.
    pub fn parse(text: &str) -> Result<Template, TemplateError> {
        let error_at = |position: usize, reason: TemplateReason| TemplateError {
            text: text.to_string(),
            position,
            reason,
        };
        if text.is_empty() {
            return Err(error_at(0, TemplateReason::Empty));
        }
        let mut stack: Vec<(Path, Vec<Item>)> = Vec::new();
        let mut items: Vec<Item> = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let Some(open) = rest.find('{') else {
                items.push(Item::Text(rest.to_string()));
                break;
            };
            // `{` and `}` are one byte each: the splits below fall between characters.
            let (text_before, brace_on) = rest.split_at_checked(open).unwrap_or((rest, ""));
            if open > 0 {
                items.push(Item::Text(text_before.to_string()));
            }
            let after = brace_on.get(1..).unwrap_or_default();
            let brace_at = text.len() - brace_on.len();
            let close = action_end(after)
                .ok_or_else(|| error_at(brace_at, TemplateReason::UnclosedAction))?;
            let (action, closing) = after.split_at_checked(close).unwrap_or((after, ""));
            let action = action.trim();
            rest = closing.get(1..).unwrap_or_default();
            if let Some(quoted) = quoted_text(action) {
                items.push(Item::Text(quoted?));
            } else if action == "end" {
                let (path, outer) = stack
                    .pop()
                    .ok_or_else(|| error_at(brace_at, TemplateReason::NothingToEnd))?;
                let body = std::mem::replace(&mut items, outer);
                items.push(Item::Range(path, body));
            } else if let Some(range_path) = action.strip_prefix("range ") {
                stack.push((Path::parse(range_path.trim())?, std::mem::take(&mut items)));
            } else {
                items.push(Item::Path(Path::parse(action)?));
            }
        }
        // A range without its end runs to the end of the template, as in kubectl.
        while let Some((path, outer)) = stack.pop() {
            let body = std::mem::replace(&mut items, outer);
            items.push(Item::Range(path, body));
        }
        Ok(Template { items })
    }

    /// The template's text for `root`. An index out of bounds is an error, as in kubectl;
    /// a missing key yields nothing.
    pub fn execute(&self, root: &Value) -> Result<String, EvalError> {
        let mut out = String::new();
        run(&self.items, root, &mut out)?;
        Ok(out)
    }

    /// The template's results for `root` as `-o jsonpath-as-json` prints them: one JSON
    /// array (indented, then a newline) for each text and path, as kubectl's
    /// `EnableJSONOutput` does. Errors as `execute`.
    pub fn execute_as_json(&self, root: &Value) -> Result<String, EvalError> {
        let mut out = String::new();
        run_as_json(&self.items, root, &mut out)?;
        Ok(out)
    }
}

/// `-o jsonpath-as-json`: each piece of the template (a text, a path, each once per
/// result of the range it is in) as kubectl's `EnableJSONOutput` prints it: its results
/// as a JSON array, indented by four spaces, maps with sorted keys, then a newline.
fn run_as_json(items: &[Item], root: &Value, out: &mut String) -> Result<(), EvalError> {
    for item in items {
        match item {
            Item::Text(text) => push_json_array(&[&Value::String(text.clone())], out),
            Item::Path(path) => push_json_array(&path.find(root)?, out),
            Item::Range(path, body) => {
                for each in path.find(root)? {
                    run_as_json(body, each, out)?;
                }
            }
        }
    }
    Ok(())
}

fn run(items: &[Item], root: &Value, out: &mut String) -> Result<(), EvalError> {
    for item in items {
        match item {
            Item::Text(text) => out.push_str(text),
            Item::Path(path) => {
                let found = path.find(root)?;
                for (i, v) in found.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    print_value(v, out);
                }
            }
            Item::Range(path, body) => {
                for each in path.find(root)? {
                    run(body, each, out)?;
                }
            }
        }
    }
    Ok(())
}

/// Where the action that starts after `{` ends (the index of its `}`), quotes and
/// brackets respected.
fn action_end(action: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut depth = 0usize;
    for (i, c) in action.char_indices() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '"' | '\'' => quote = Some(c),
                '[' | '(' => depth += 1,
                ']' | ')' => depth = depth.saturating_sub(1),
                '}' if depth == 0 => return Some(i),
                _ => {}
            },
        }
    }
    None
}

/// `"text"` as an action: the text, its escapes read as Go reads them.
fn quoted_text(action: &str) -> Option<Result<String, TemplateError>> {
    let inner = action.strip_prefix('"')?.strip_suffix('"')?;
    Some(unescape(inner))
}

fn unescape(quoted: &str) -> Result<String, TemplateError> {
    let mut out = String::with_capacity(quoted.len());
    let mut chars = quoted.char_indices();
    while let Some((at, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next().map(|(_, escaped)| escaped) {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some('"') => out.push('"'),
            Some('\'') => out.push('\''),
            other => {
                return Err(TemplateError {
                    text: quoted.to_string(),
                    position: at,
                    reason: TemplateReason::UnknownEscape(other),
                })
            }
        }
    }
    Ok(out)
}

impl Path {
    /// Parses a path: `.a.b`, `$.a`, `@.a`, `a.b` (kubectl's relaxed form), `['a']`,
    /// `[0]`, `[-1]`, `[1:3]`, `[*]`, `.*`, `..a`, `[?(@.a=="x")]`, `[?(@.a)]`,
    /// `['a','b']`; `\.` keeps a dot in a key (`.labels.app\.kubernetes\.io/name`).
    pub(crate) fn parse(text: &str) -> Result<Path, TemplateError> {
        let mut parser = Parser {
            text: text.trim(),
            at: 0,
        };
        let path = parser.path()?;
        if parser.at < parser.text.len() {
            return Err(parser.error(TemplateReason::Unexpected));
        }
        Ok(path)
    }
}

/// kubectl's relaxed path for custom columns and `--sort-by`: `.a.b`, `a.b` and
/// `{.a.b}` all mean `{.a.b}`.
pub fn relaxed(text: &str) -> Result<Path, TemplateError> {
    let trimmed = text.trim();
    let inner = trimmed
        .strip_prefix('{')
        .and_then(|braced| braced.strip_suffix('}'))
        .unwrap_or(trimmed);
    if inner.is_empty() {
        return Err(TemplateError {
            text: text.to_string(),
            position: 0,
            reason: TemplateReason::NotAPath,
        });
    }
    Path::parse(inner)
}

/// A relaxed path as kubectl names it in its messages: `{.a.b}` for `.a.b`, `a.b`,
/// `{a.b}` and `{.a.b}` alike (its `RelaxedJSONPathExpression`).
pub fn relaxed_text(text: &str) -> String {
    let trimmed = text.trim();
    let inner = trimmed
        .strip_prefix('{')
        .and_then(|braced| braced.strip_suffix('}'))
        .unwrap_or(trimmed);
    format!("{{.{}}}", inner.strip_prefix('.').unwrap_or(inner))
}

#[cfg(test)]
mod tests;

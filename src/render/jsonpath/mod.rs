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

use serde_json::Value;
use std::cmp::Ordering;
use std::fmt::Write as _;

mod error;
mod parse;
mod quantity;

pub use error::{EvalError, TemplateError, TemplateReason};
use parse::Parser;

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

/// `results` as Go's `json.MarshalIndent(results, "", "    ")` writes them, and a
/// newline: `<`, `>`, `&`, U+2028 and U+2029 in strings escaped as Go escapes them.
fn push_json_array(results: &[&Value], out: &mut String) {
    let array = Value::Array(results.iter().map(|v| sorted(v)).collect());
    let mut bytes = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut serializer = serde_json::Serializer::with_formatter(&mut bytes, formatter);
    // Serializing a Value into a Vec cannot fail.
    if serde::Serialize::serialize(&array, &mut serializer).is_ok() {
        out.push_str(&go_json_escapes(&String::from_utf8_lossy(&bytes)));
    }
    out.push('\n');
}

/// JSON text with the characters Go's encoder escapes and serde_json does not: they
/// can only stand inside strings, so each is replaced wherever it is.
fn go_json_escapes(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
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
    pub fn parse(text: &str) -> Result<Path, TemplateError> {
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

    /// Every value the path reaches from `root`, in order.
    pub fn find<'a>(&self, root: &'a Value) -> Result<Vec<&'a Value>, EvalError> {
        let mut cur = vec![root];
        for segment in &self.segments {
            cur = apply(segment, cur)?;
        }
        Ok(cur)
    }
}

/// A map's values in its keys' order (kubectl sorts map keys when it walks a map).
fn sorted_values(map: &serde_json::Map<String, Value>) -> Vec<&Value> {
    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries.into_iter().map(|(_, v)| v).collect()
}

fn apply<'a>(segment: &Segment, input: Vec<&'a Value>) -> Result<Vec<&'a Value>, EvalError> {
    let mut out = Vec::new();
    if let Segment::Union(members) = segment {
        for member in members {
            let mut cur = input.clone();
            for inner in &member.segments {
                cur = apply(inner, cur)?;
            }
            out.extend(cur);
        }
        return Ok(out);
    }
    for value in input {
        match segment {
            Segment::Field(key) => out.extend(value.as_object().and_then(|m| m.get(key))),
            Segment::Wildcard => match value {
                Value::Array(list) => out.extend(list.iter()),
                Value::Object(map) => out.extend(sorted_values(map)),
                _ => {}
            },
            Segment::Recursive => descend(value, &mut out),
            Segment::Index(_) | Segment::Slice(..) => out.extend(index(segment, value)?),
            Segment::Union(_) => {}
            Segment::Filter(filter) => {
                let elements: Vec<&Value> = match value {
                    Value::Array(list) => list.iter().collect(),
                    Value::Object(map) => sorted_values(map),
                    other => vec![other],
                };
                for element in elements {
                    if filter.passes(element)? {
                        out.push(element);
                    }
                }
            }
        }
    }
    Ok(out)
}

/// `..`: the value, when it is a map or list holding something, then the same below it.
fn descend<'a>(value: &'a Value, out: &mut Vec<&'a Value>) {
    let children: Vec<&Value> = match value {
        Value::Array(list) => list.iter().collect(),
        Value::Object(map) => sorted_values(map),
        _ => return,
    };
    if children.is_empty() {
        return;
    }
    out.push(value);
    for child in children {
        descend(child, out);
    }
}

/// `[i]` and `[start:end:step]` as kubectl reads them: negative from the end, and out of
/// bounds an error.
fn index<'a>(segment: &Segment, value: &'a Value) -> Result<Vec<&'a Value>, EvalError> {
    let list = match value {
        Value::Null => return Ok(Vec::new()),
        Value::Array(list) => list,
        other => {
            return Err(EvalError::NotAList {
                kind: kind_of(other),
            })
        }
    };
    let len = list.len() as i64;
    let (start, end, by) = match *segment {
        Segment::Index(i) => {
            let i = if i < 0 { i + len } else { i };
            (i, i + 1, 1)
        }
        Segment::Slice(start, end, by) => {
            let from_end = |i: i64| if i < 0 { i + len } else { i };
            (
                start.map_or(0, from_end),
                end.map_or(len, from_end),
                by.unwrap_or(1),
            )
        }
        _ => return Ok(Vec::new()),
    };
    if start == end {
        return Ok(Vec::new());
    }
    if start < 0 || start >= len {
        return Err(EvalError::OutOfBounds {
            index: start,
            length: len,
        });
    }
    if end < 0 || end > len {
        return Err(EvalError::OutOfBounds {
            index: end - 1,
            length: len,
        });
    }
    if start > end {
        return Err(EvalError::StartAfterEnd { start, end });
    }
    if by <= 0 {
        return Err(EvalError::StepNotPositive { step: by });
    }
    Ok(list[start as usize..end as usize]
        .iter()
        .step_by(by as usize)
        .collect())
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "map",
    }
}

impl Filter {
    fn passes(&self, element: &Value) -> Result<bool, EvalError> {
        let lefts = self.left.find(element)?;
        let left = match lefts.as_slice() {
            [] => return Ok(false),
            [one] => *one,
            _ => return Err(EvalError::SeveralToCompare),
        };
        let Some((op, right)) = &self.test else {
            return Ok(true);
        };
        let rights = match right {
            Operand::Literal(v) => vec![v],
            Operand::Path(p) => p.find(element)?,
        };
        let right = match rights.as_slice() {
            [] => return Ok(false),
            [one] => *one,
            _ => return Err(EvalError::SeveralToCompare),
        };
        // Values of kinds that do not compare (a string and a number) pass no test.
        let Some(order) = compare(left, right) else {
            return Ok(false);
        };
        Ok(match op {
            Op::Eq => order == Ordering::Equal,
            Op::Ne => order != Ordering::Equal,
            Op::Lt => order == Ordering::Less,
            Op::Le => order != Ordering::Greater,
            Op::Gt => order == Ordering::Greater,
            Op::Ge => order != Ordering::Less,
        })
    }
}

/// Numbers by value, strings by bytes, booleans (only equal or not): None for others.
fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64()?.partial_cmp(&y.as_f64()?),
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        (Value::Bool(x), Value::Bool(y)) if x == y => Some(Ordering::Equal),
        (Value::Bool(_), Value::Bool(_)) => Some(Ordering::Less),
        _ => None,
    }
}

/// One result as kubectl's `-o jsonpath` prints it: a string bare, a number or boolean
/// as text, a map or list as compact JSON with its keys sorted.
pub fn print_value(value: &Value, out: &mut String) {
    match value {
        Value::String(text) => push_escaped(text, out),
        Value::Array(_) | Value::Object(_) => {
            let text = serde_json::to_string(&sorted(value)).unwrap_or_default();
            push_escaped(&go_json_escapes(&text), out)
        }
        Value::Null => out.push_str("<nil>"),
        other => {
            let _ = write!(out, "{other}");
        }
    }
}

/// One result as Go's `fmt.Sprint` prints it (custom columns): maps as `map[k:v]` in
/// key order, lists as `[a b]`.
pub fn sprint(value: &Value, out: &mut String) {
    match value {
        Value::String(text) => push_escaped(text, out),
        Value::Null => out.push_str("<nil>"),
        Value::Array(list) => {
            out.push('[');
            for (i, item) in list.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                sprint(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push_str("map[");
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                push_escaped(key, out);
                out.push(':');
                sprint(item, out);
            }
            out.push(']');
        }
        other => {
            let _ = write!(out, "{other}");
        }
    }
}

/// A copy with every map's keys in order, as Go's encoder writes maps.
fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, x)| (k.clone(), sorted(x)))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// Text from the input, its control characters (but newline and tab) escaped so that
/// they cannot act on a terminal: ESC as `^[`, CR as `\r`, others as `^X` or `\u{…}`.
fn push_escaped(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            '\u{1b}' => out.push_str("^["),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                out.push('^');
                out.push(char::from(b'@' + c as u8));
            }
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
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

/// Why kubectl refuses to sort by these values (`--sort-by`; None: it does not). It
/// compares two values only where both are present and not null, and then only two
/// integers, two non-integer numbers or two strings: a boolean, a map or a list is
/// refused, and so are two values of different types (its `sorter.go`, `isLess`).
pub fn unsortable<'v>(values: impl IntoIterator<Item = Option<&'v Value>>) -> Option<&'static str> {
    let present: Vec<&Value> = values
        .into_iter()
        .flatten()
        .filter(|v| !v.is_null())
        .collect();
    if present.len() < 2 {
        return None;
    }
    let type_of = |v: &Value| match v {
        Value::Number(n) if n.is_f64() => Ok("float64"),
        Value::Number(_) => Ok("int64"),
        Value::String(_) => Ok("string"),
        Value::Bool(_) => Err("unsortable type: bool"),
        Value::Object(_) => Err("unsortable type: map[string]interface {}"),
        Value::Array(_) => Err("unsortable type: []interface {}"),
        Value::Null => Ok("null"),
    };
    let mut types = Vec::new();
    for v in present {
        match type_of(v) {
            Ok(t) => types.push(t),
            Err(reason) => return Some(reason),
        }
    }
    let mixed = types.iter().any(|t| *t != types[0]);
    mixed.then_some("unsortable interface: interface")
}

/// kubectl's `--sort-by` order: a value that is missing first, then numbers by value,
/// two strings that are both resource quantities by amount (`100Mi` before `2Gi`),
/// other strings in natural order (`a2` before `a10`; RFC 3339 times oldest first),
/// other values by their text (what kubectl refuses, `unsortable`, is refused before).
pub fn sort_order(a: Option<&Value>, b: Option<&Value>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(Value::Number(x)), Some(Value::Number(y))) => x
            .as_f64()
            .zip(y.as_f64())
            .and_then(|(x, y)| x.partial_cmp(&y))
            .unwrap_or(Ordering::Equal),
        (Some(Value::String(x)), Some(Value::String(y))) => {
            match quantity::amount(x).zip(quantity::amount(y)) {
                Some((x, y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
                None => natural(x, y),
            }
        }
        (Some(x), Some(y)) => {
            let (mut sx, mut sy) = (String::new(), String::new());
            print_value(x, &mut sx);
            print_value(y, &mut sy);
            natural(&sx, &sy)
        }
    }
}

/// Natural order: runs of digits compare by value.
fn natural(a: &str, b: &str) -> Ordering {
    let (mut left, mut right) = (a.as_bytes(), b.as_bytes());
    let digits = |bytes: &[u8]| bytes.iter().take_while(|c| c.is_ascii_digit()).count();
    let zeros = |bytes: &[u8]| bytes.iter().take_while(|c| **c == b'0').count();
    loop {
        match (left.first(), right.first()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(l), Some(r)) if l.is_ascii_digit() && r.is_ascii_digit() => {
                let (left_run, left_rest) = left.split_at(digits(left));
                let (right_run, right_rest) = right.split_at(digits(right));
                // Leading zeros aside, the longer run is the larger number.
                let left_number = left_run.get(zeros(left_run)..).unwrap_or_default();
                let right_number = right_run.get(zeros(right_run)..).unwrap_or_default();
                let order = left_number
                    .len()
                    .cmp(&right_number.len())
                    .then_with(|| left_number.cmp(right_number));
                if order != Ordering::Equal {
                    return order;
                }
                (left, right) = (left_rest, right_rest);
            }
            (Some(l), Some(r)) => {
                if l != r {
                    return l.cmp(r);
                }
                (left, right) = (
                    left.get(1..).unwrap_or_default(),
                    right.get(1..).unwrap_or_default(),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests;

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

/// Why a template or a path does not parse: the text being read (the template, or a
/// path or quoted text inside it), the byte offset in that text where reading stopped,
/// and why. Its `Display` is the message kubectl-policies has always printed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", describe(.reason, .text, *.position))]
pub struct TemplateError {
    pub text: String,
    pub position: usize,
    pub reason: TemplateReason,
}

/// What is wrong at a [`TemplateError`]'s position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplateReason {
    /// The whole template is empty.
    Empty,
    /// A `{` at the position without its `}`.
    UnclosedAction,
    /// `{end}` at the position, outside any `{range}`.
    NothingToEnd,
    /// A backslash at the position followed by this (nothing: the text ends there).
    UnknownEscape(Option<char>),
    /// Text from the position on that cannot continue the path.
    Unexpected,
    /// A `.` followed by neither a key nor `*` nor `[`.
    KeyExpected,
    /// A `[` not closed at the position.
    CloseBracketExpected,
    /// A `[?(` not closed at the position.
    CloseFilterExpected,
    /// A quote opened before the position and never closed.
    UnclosedQuote,
    /// This word, at the position, where an index belongs.
    NotAnIndex(String),
    /// Nothing at the position that an index, a slice or a key starts with.
    IndexExpected,
    /// This word, at the position, to the right of a filter's operator.
    NotAValue(String),
    /// The text (`--sort-by`, a custom column) holds no path at all.
    NotAPath,
}

fn describe(reason: &TemplateReason, text: &str, position: usize) -> String {
    let rest = text.get(position..).unwrap_or_default();
    match reason {
        TemplateReason::Empty => "the template is empty".to_string(),
        TemplateReason::UnclosedAction => format!("unclosed action: {rest}"),
        TemplateReason::NothingToEnd => "not in range, nothing to end".to_string(),
        TemplateReason::UnknownEscape(escape) => format!(
            "unknown escape \\{} in {text:?}",
            escape.map(String::from).unwrap_or_default()
        ),
        TemplateReason::Unexpected => format!("unexpected {rest:?} in {text:?}"),
        TemplateReason::KeyExpected => format!("expected a key after '.' in {text:?}"),
        TemplateReason::CloseBracketExpected => format!("expected ']' in {text:?}"),
        TemplateReason::CloseFilterExpected => {
            format!("expected ')' to close the filter in {text:?}")
        }
        TemplateReason::UnclosedQuote => format!("unclosed quote in {text:?}"),
        TemplateReason::NotAnIndex(word) => format!("{word:?} is not an index in {text:?}"),
        TemplateReason::IndexExpected => {
            format!("expected an index, a slice or a key in {text:?}")
        }
        TemplateReason::NotAValue(word) => format!("{word:?} is not a value to compare with"),
        TemplateReason::NotAPath => format!("{text:?} is not a JSONPath"),
    }
}

/// Why a template that parsed cannot run on a document, in kubectl's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// An index or a slice applied to a value of this kind.
    #[error("{kind} is not array or slice")]
    NotAList { kind: &'static str },
    #[error("array index out of bounds: index {index}, length {length}")]
    OutOfBounds { index: i64, length: i64 },
    #[error("starting index {start} is greater than ending index {end}")]
    StartAfterEnd { start: i64, end: i64 },
    #[error("step must be > 0")]
    StepNotPositive { step: i64 },
    /// A filter's side that reached several values.
    #[error("can only compare one element at a time")]
    SeveralToCompare,
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

struct Parser<'a> {
    /// The path being read, and where reading stands in it.
    text: &'a str,
    at: usize,
}

impl Parser<'_> {
    /// An error at the current position.
    fn error(&self, reason: TemplateReason) -> TemplateError {
        TemplateError {
            text: self.text.to_string(),
            position: self.at,
            reason,
        }
    }

    /// What is left to read (`at` always stands between characters).
    fn rest(&self) -> &str {
        self.text.get(self.at..).unwrap_or_default()
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn eat(&mut self, prefix: &str) -> bool {
        if self.rest().starts_with(prefix) {
            self.at += prefix.len();
            true
        } else {
            false
        }
    }

    fn skip_spaces(&mut self) {
        while let Some(c) = self.peek().filter(|c| c.is_whitespace()) {
            self.at += c.len_utf8();
        }
    }

    /// Steps until something that cannot continue a path (an operator, `)`, the end).
    fn path(&mut self) -> Result<Path, TemplateError> {
        let mut segments = Vec::new();
        if !self.eat("$") {
            self.eat("@");
        }
        // kubectl's relaxed form: a first key without its dot.
        if self.peek().is_some_and(is_key_char) {
            segments.push(Segment::Field(self.key()));
        }
        loop {
            if self.eat("..") {
                segments.push(Segment::Recursive);
                if self.eat("*") {
                    segments.push(Segment::Wildcard);
                } else if self.peek().is_some_and(is_key_char) {
                    segments.push(Segment::Field(self.key()));
                }
            } else if self.eat(".") {
                if self.eat("*") {
                    segments.push(Segment::Wildcard);
                } else if self.peek().is_some_and(is_key_char) {
                    segments.push(Segment::Field(self.key()));
                } else if self.peek() == Some('[') || self.at == self.text.len() {
                    // `{.}`, `{.[0]}`: the current value.
                } else {
                    return Err(self.error(TemplateReason::KeyExpected));
                }
            } else if self.eat("[") {
                segments.extend(self.bracket()?);
                if !self.eat("]") {
                    return Err(self.error(TemplateReason::CloseBracketExpected));
                }
            } else {
                return Ok(Path { segments });
            }
        }
    }

    /// A key: up to `.`, `[`, an operator or a space; `\.` is a dot of the key.
    fn key(&mut self) -> String {
        let mut key = String::new();
        while let Some(c) = self.peek() {
            if c == '\\' && self.rest().get(1..).is_some_and(|r| r.starts_with('.')) {
                key.push('.');
                self.at += 2;
            } else if is_key_char(c) {
                key.push(c);
                self.at += c.len_utf8();
            } else {
                break;
            }
        }
        key
    }

    /// What is between `[` and `]`: segments, as a quoted key is a path of its own
    /// (`['metadata.name']` is `.metadata.name`; `['a\.b']` one key).
    fn bracket(&mut self) -> Result<Vec<Segment>, TemplateError> {
        self.skip_spaces();
        if self.eat("*") {
            return Ok(vec![Segment::Wildcard]);
        }
        if self.eat("?(") {
            let filter = self.filter()?;
            if !self.eat(")") {
                return Err(self.error(TemplateReason::CloseFilterExpected));
            }
            return Ok(vec![Segment::Filter(Box::new(filter))]);
        }
        let mut parts: Vec<Vec<Segment>> = Vec::new();
        loop {
            self.skip_spaces();
            parts.push(match self.peek() {
                Some('\'' | '"') => self.quoted_keys()?,
                _ => vec![self.index_or_slice()?],
            });
            self.skip_spaces();
            if !self.eat(",") {
                break;
            }
        }
        Ok(match parts.len() {
            1 => parts.remove(0),
            _ => vec![Segment::Union(
                parts
                    .into_iter()
                    .map(|segments| Path { segments })
                    .collect(),
            )],
        })
    }

    /// A quoted key, split at its dots (`\.` is a dot of a key).
    fn quoted_keys(&mut self) -> Result<Vec<Segment>, TemplateError> {
        let raw = self.quoted_raw()?;
        let (mut keys, mut key) = (Vec::new(), String::new());
        let mut chars = raw.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek() == Some(&'.') => {
                    chars.next();
                    key.push('.');
                }
                '.' => keys.push(std::mem::take(&mut key)),
                c => key.push(c),
            }
        }
        keys.push(key);
        keys.into_iter()
            .filter(|k| !k.is_empty())
            .map(|k| unescape(&k).map(Segment::Field))
            .collect()
    }

    fn quoted(&mut self) -> Result<String, TemplateError> {
        unescape(&self.quoted_raw()?)
    }

    /// The text between quotes, as written.
    fn quoted_raw(&mut self) -> Result<String, TemplateError> {
        let q = self.peek().unwrap_or('\'');
        self.at += 1;
        let start = self.at;
        let mut escaped = false;
        while let Some(c) = self.peek() {
            self.at += c.len_utf8();
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                let quoted = self.text.get(start..self.at - 1).unwrap_or_default();
                return Ok(quoted.to_string());
            }
        }
        Err(self.error(TemplateReason::UnclosedQuote))
    }

    fn int(&mut self) -> Result<Option<i64>, TemplateError> {
        self.skip_spaces();
        let start = self.at;
        self.eat("-");
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let text = self.text.get(start..self.at).unwrap_or_default();
        self.skip_spaces();
        match text {
            "" => Ok(None),
            word => word.parse().map(Some).map_err(|_| TemplateError {
                text: self.text.to_string(),
                position: start,
                reason: TemplateReason::NotAnIndex(word.to_string()),
            }),
        }
    }

    fn index_or_slice(&mut self) -> Result<Segment, TemplateError> {
        let first = self.int()?;
        if !self.eat(":") {
            return first
                .map(Segment::Index)
                .ok_or_else(|| self.error(TemplateReason::IndexExpected));
        }
        let end = self.int()?;
        let step = if self.eat(":") { self.int()? } else { None };
        Ok(Segment::Slice(first, end, step))
    }

    fn filter(&mut self) -> Result<Filter, TemplateError> {
        self.skip_spaces();
        let left = self.path()?;
        self.skip_spaces();
        let op = [
            ("==", Op::Eq),
            ("!=", Op::Ne),
            ("<=", Op::Le),
            (">=", Op::Ge),
            ("<", Op::Lt),
            (">", Op::Gt),
        ]
        .into_iter()
        .find(|(text, _)| self.eat(text))
        .map(|(_, op)| op);
        let Some(op) = op else {
            return Ok(Filter { left, test: None });
        };
        self.skip_spaces();
        let right = match self.peek() {
            Some('\'' | '"') => Operand::Literal(Value::String(self.quoted()?)),
            Some('@' | '$' | '.') => Operand::Path(self.path()?),
            _ => {
                let start = self.at;
                while let Some(c) = self.peek().filter(|c| !c.is_whitespace() && *c != ')') {
                    self.at += c.len_utf8();
                }
                let word = self.text.get(start..self.at).unwrap_or_default();
                let v: Value = serde_json::from_str(word).map_err(|_| TemplateError {
                    text: self.text.to_string(),
                    position: start,
                    reason: TemplateReason::NotAValue(word.to_string()),
                })?;
                Operand::Literal(v)
            }
        };
        self.skip_spaces();
        Ok(Filter {
            left,
            test: Some((op, right)),
        })
    }
}

fn is_key_char(c: char) -> bool {
    !matches!(
        c,
        '.' | '[' | ']' | '(' | ')' | '=' | '!' | '<' | '>' | ',' | '{' | '}' | '\'' | '"'
    ) && !c.is_whitespace()
        || c == '\\'
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
            push_escaped(&text, out)
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

/// kubectl's `--sort-by` order: a value that is missing first, then numbers by value,
/// strings in natural order (`a2` before `a10`), other values by their text.
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
        (Some(Value::String(x)), Some(Value::String(y))) => natural(x, y),
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
mod tests {
    use super::*;
    use serde_json::json;

    /// The example of kubectl's JSONPath page (a list of nodes and users).
    fn doc() -> Value {
        json!({
            "kind": "List",
            "items": [
                {"kind": "None", "metadata": {"name": "127.0.0.1", "labels": {"kubernetes.io/hostname": "127.0.0.1"}},
                 "status": {"capacity": {"cpu": "4"}, "addresses": [{"type": "LegacyHostIP", "address": "127.0.0.1"}]}},
                {"kind": "None", "metadata": {"name": "127.0.0.2"},
                 "status": {"capacity": {"cpu": "8"}, "addresses": [
                     {"type": "LegacyHostIP", "address": "127.0.0.2"},
                     {"type": "another", "address": "127.0.0.3"}]}}
            ],
            "users": [
                {"name": "myself", "user": {}},
                {"name": "e2e", "user": {"username": "admin", "password": "secret"}}
            ]
        })
    }

    fn eval(t: &str) -> String {
        Template::parse(t).unwrap().execute(&doc()).unwrap()
    }

    #[test]
    fn kubectls_documented_examples() {
        assert_eq!(eval("kind is {.kind}"), "kind is List");
        assert_eq!(eval("{.kind}"), "List");
        assert_eq!(eval("{['kind']}"), "List");
        assert_eq!(eval("{..name}"), "127.0.0.1 127.0.0.2 myself e2e");
        assert_eq!(eval("{.items[*].metadata.name}"), "127.0.0.1 127.0.0.2");
        assert_eq!(eval("{.users[0].name}"), "myself");
        // Each member of a union over every item, one member after the other; a quoted
        // key is a path (maps print as JSON, as kubectl prints them today).
        assert_eq!(
            eval("{.items[*]['metadata.name', 'status.capacity']}"),
            r#"127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}"#
        );
        assert_eq!(
            eval("{.items[0].metadata.labels['kubernetes\\.io/hostname']}"),
            "127.0.0.1"
        );
        assert_eq!(eval("{.users[?(@.name==\"e2e\")].user.password}"), "secret");
        assert_eq!(
            eval("{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}"),
            "[127.0.0.1, {\"cpu\":\"4\"}] [127.0.0.2, {\"cpu\":\"8\"}] "
        );
        assert_eq!(
            eval("{range .items[*]}{.metadata.name}{\"\\t\"}{end}"),
            "127.0.0.1\t127.0.0.2\t"
        );
        assert_eq!(eval("{.items[-1:].metadata.name}"), "127.0.0.2");
        assert_eq!(eval("{$.users[1].name}"), "e2e");
        assert_eq!(
            eval("{.items[0].metadata.labels.kubernetes\\.io/hostname}"),
            "127.0.0.1"
        );
    }

    #[test]
    fn missing_keys_yield_nothing_and_bad_indices_are_errors() {
        assert_eq!(eval("a{.nope.deeper}b"), "ab");
        assert_eq!(eval("{.users[?(@.nope==\"x\")].name}"), "");
        let t = Template::parse("{.users[5].name}").unwrap();
        let e = t.execute(&doc()).unwrap_err();
        assert_eq!(
            e,
            EvalError::OutOfBounds {
                index: 5,
                length: 2
            }
        );
        assert_eq!(
            e.to_string(),
            "array index out of bounds: index 5, length 2"
        );
        let e = Template::parse("{.kind[0]}")
            .unwrap()
            .execute(&doc())
            .unwrap_err();
        assert_eq!(e.to_string(), "string is not array or slice");
    }

    #[test]
    fn filters_compare_numbers_strings_and_test_existence() {
        let v = json!({"xs": [{"n": 1, "s": "a"}, {"n": 10, "s": "b", "flag": true}, {"n": 2}]});
        let run = |t: &str| Template::parse(t).unwrap().execute(&v).unwrap();
        assert_eq!(run("{.xs[?(@.n>1)].n}"), "10 2");
        assert_eq!(run("{.xs[?(@.n<=2)].n}"), "1 2");
        assert_eq!(run("{.xs[?(@.s!='a')].n}"), "10");
        assert_eq!(run("{.xs[?(@.flag)].n}"), "10");
        assert_eq!(run("{.xs[?(@.flag==true)].s}"), "b");
        // A string does not compare with a number: no match, no error.
        assert_eq!(run("{.xs[?(@.s==1)].n}"), "");
        assert_eq!(run("{.xs[0:2].n}"), "1 10");
        assert_eq!(run("{.xs[0,2].n}"), "1 2");
        assert_eq!(run("{.xs[::2].n}"), "1 2");
    }

    #[test]
    fn maps_print_as_sorted_json_and_wildcards_walk_keys_in_order() {
        let v = json!({"m": {"b": 2, "a": {"z": 1, "y": [1, "x"]}}});
        let run = |t: &str| Template::parse(t).unwrap().execute(&v).unwrap();
        assert_eq!(run("{.m}"), r#"{"a":{"y":[1,"x"],"z":1},"b":2}"#);
        assert_eq!(run("{.m.*}"), r#"{"y":[1,"x"],"z":1} 2"#);
        let mut s = String::new();
        sprint(&v["m"], &mut s);
        assert_eq!(s, "map[a:map[y:[1 x] z:1] b:2]");
    }

    #[test]
    fn templates_that_do_not_parse_say_why() {
        let error = |template: &str| Template::parse(template).unwrap_err();
        assert_eq!(error("").reason, TemplateReason::Empty);
        let unclosed = error("x {.a");
        assert_eq!(
            (unclosed.position, &unclosed.reason),
            (2, &TemplateReason::UnclosedAction)
        );
        assert_eq!(unclosed.to_string(), "unclosed action: {.a");
        let end = error("{.a}{end}");
        assert_eq!(
            (end.position, &end.reason),
            (4, &TemplateReason::NothingToEnd)
        );
        assert_eq!(end.to_string(), "not in range, nothing to end");
        // A path's error names the path and where in it reading stopped.
        assert_eq!(error("{.a[}").reason, TemplateReason::UnclosedAction);
        let bracket = error("{.a[ ]}");
        assert_eq!(bracket.text, ".a[ ]");
        assert_eq!(
            (bracket.position, &bracket.reason),
            (4, &TemplateReason::IndexExpected)
        );
        assert_eq!(
            bracket.to_string(),
            "expected an index, a slice or a key in \".a[ ]\""
        );
        let unexpected = error("{.a)b}");
        assert_eq!(
            (unexpected.position, &unexpected.reason),
            (2, &TemplateReason::Unexpected)
        );
        assert_eq!(unexpected.to_string(), "unexpected \")b\" in \".a)b\"");
        assert_eq!(
            error("{.a[?(@.b==)]}").reason,
            TemplateReason::NotAValue(String::new())
        );
        assert_eq!(
            error("{.a[-]}").reason,
            TemplateReason::NotAnIndex("-".to_string())
        );
        let escape = error("{\"a\\qb\"}");
        assert_eq!(
            (escape.position, &escape.reason),
            (1, &TemplateReason::UnknownEscape(Some('q')))
        );
        assert_eq!(escape.to_string(), "unknown escape \\q in \"a\\\\qb\"");
        // A space of more than one byte (found by the property below) is skipped whole.
        assert!(relaxed("[\u{3000}a").is_err());
        assert_eq!(
            Template::parse("{.a[\u{3000}0\u{3000}]}")
                .unwrap()
                .execute(&json!({"a": [7]})),
            Ok("7".to_string())
        );
        // A range without its end runs to the end of the template.
        let v = json!({"a": [1, 2]});
        assert_eq!(
            Template::parse("{range .a[*]}<{@}>")
                .unwrap()
                .execute(&v)
                .unwrap(),
            "<1><2>"
        );
    }

    #[test]
    fn control_characters_from_the_input_are_escaped() {
        let v = json!({"a": "x\u{1b}[31my\r", "b": "one\ntwo"});
        let run = |t: &str| Template::parse(t).unwrap().execute(&v).unwrap();
        assert_eq!(run("{.a}"), "x^[[31my\\r");
        assert_eq!(run("{.b}"), "one\ntwo");
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(4000))]
        /// Whatever a user types, the template is read or refused, never a panic; and
        /// one that is read runs on any document without one.
        #[test]
        fn any_text_parses_or_is_refused_without_a_panic(text in "[{}\\[\\]().@$*?,:'\"=!<>0-9a-z\\\\ \u{3000}é-]{0,24}") {
            if let Ok(t) = Template::parse(&text) {
                let _ = t.execute(&doc());
            }
            let _ = relaxed(&text);
        }
    }

    #[test]
    fn relaxed_paths_and_sort_order() {
        let v = json!({"a": {"b": 3}});
        for p in [".a.b", "a.b", "{.a.b}", "{a.b}"] {
            assert_eq!(relaxed(p).unwrap().find(&v).unwrap(), [&json!(3)], "{p}");
        }
        assert!(relaxed("{}").is_err());
        assert_eq!(natural("a2", "a10"), Ordering::Less);
        assert_eq!(natural("a10", "a010"), Ordering::Equal);
        assert_eq!(natural("b", "a10"), Ordering::Greater);
        let (one, ten) = (json!(1), json!(10));
        assert_eq!(sort_order(Some(&ten), Some(&one)), Ordering::Greater);
        assert_eq!(sort_order(None, Some(&one)), Ordering::Less);
    }
}

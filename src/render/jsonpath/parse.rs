//! A path inside a template's action, read into its segments.

use super::*;

pub(super) struct Parser<'a> {
    /// The path being read, and where reading stands in it.
    pub(super) text: &'a str,
    pub(super) at: usize,
}

impl Parser<'_> {
    /// An error at the current position.
    pub(super) fn error(&self, reason: TemplateReason) -> TemplateError {
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
    pub(super) fn path(&mut self) -> Result<Path, TemplateError> {
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

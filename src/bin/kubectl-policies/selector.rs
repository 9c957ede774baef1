//! `-l/--selector`: kubectl's label selector syntax, read into a [`LabelSelector`].
//!
//! Requirements are separated by commas and must all hold: `key=value` (or `==`),
//! `key!=value`, `key in (v1,v2)`, `key notin (v1,v2)`, `key` (the label exists) and
//! `!key` (it does not). Whitespace between words is allowed. Keys and values are
//! checked as Kubernetes checks label keys and values.

use kube::core::Expression;
use kubectl_policies::catalog::policy::LabelSelector;

/// Why a selector is refused: what was expected, and the token or word found instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelectorError {
    /// `key<…` or `key>…`: kubectl's numeric comparisons.
    #[error("{key}{operator}...: numeric comparisons (< and >) are not supported; use =, !=, in, notin, KEY or !KEY")]
    Comparison { key: String, operator: char },
    #[error("after {key:?} expected =, ==, !=, in, notin or a comma, found {found}")]
    OperatorExpected { key: String, found: Token },
    /// Something else where `what` (a label key, a label value) belongs.
    #[error("expected {what}, found {found}")]
    Expected { what: &'static str, found: Token },
    /// The text ends where `what` belongs.
    #[error("expected {what} at the end")]
    EndsBefore { what: &'static str },
    #[error("expected a label key after the last comma")]
    KeyAfterComma,
    #[error("expected a comma between requirements, found {found}")]
    CommaExpected { found: Token },
    /// `key in`/`key notin` not followed by `(`.
    #[error("{key} in/notin: expected a parenthesised list of values, such as ({key} in (a,b))")]
    ListExpected { key: String },
    #[error("{key}: expected a value, found {found}")]
    ListValueExpected { key: String, found: Token },
    #[error("{key}: expected , or ) in the list of values, found {found}")]
    ListSeparatorExpected { key: String, found: Token },
    #[error("{key}: the list of values is not closed with )")]
    ListNotClosed { key: String },
    #[error("{key}: in and notin need at least one value")]
    ListEmpty { key: String },
    #[error("{key:?} is not a valid label key (name or prefix/name: alphanumerics, '-', '_', '.', at most 63 characters)")]
    InvalidKey { key: String },
    #[error("{value:?} is not a valid label value (alphanumerics, '-', '_', '.', at most 63 characters)")]
    InvalidValue { value: String },
}

/// A word or a sign of the selector's syntax; shown quoted, as in messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    Word(String),
    Comma,
    Open,
    Close,
    /// `=` or `==`.
    Equals,
    NotEquals,
    Bang,
    /// `<` or `>`: kubectl's numeric comparisons, not supported here.
    Compare(char),
}

fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            c if c.is_whitespace() => {
                chars.next();
            }
            ',' | '(' | ')' | '<' | '>' => {
                chars.next();
                out.push(match c {
                    ',' => Token::Comma,
                    '(' => Token::Open,
                    ')' => Token::Close,
                    other => Token::Compare(other),
                });
            }
            '=' => {
                chars.next();
                if chars.peek() == Some(&'=') {
                    chars.next();
                }
                out.push(Token::Equals);
            }
            '!' => {
                chars.next();
                if chars.peek() == Some(&'=') {
                    chars.next();
                    out.push(Token::NotEquals);
                } else {
                    out.push(Token::Bang);
                }
            }
            _ => {
                let mut word = String::new();
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() || ",()=!<>".contains(c) {
                        break;
                    }
                    word.push(c);
                    chars.next();
                }
                out.push(Token::Word(word));
            }
        }
    }
    out
}

/// Reads a selector. An empty one selects everything.
pub fn parse(text: &str) -> Result<LabelSelector, SelectorError> {
    let toks = tokens(text);
    let mut expressions: Vec<Expression> = Vec::new();
    let mut at = 0;
    let next = |at: &mut usize| {
        let token = toks.get(*at).cloned();
        *at += 1;
        token
    };
    if toks.is_empty() {
        return Ok(LabelSelector::default());
    }
    loop {
        match next(&mut at) {
            Some(Token::Bang) => {
                let key = key(next(&mut at), "a label key after !")?;
                expressions.push(Expression::DoesNotExist(key));
            }
            Some(Token::Word(w)) => {
                let key = key(Some(Token::Word(w)), "a label key")?;
                match toks.get(at) {
                    None | Some(Token::Comma) => expressions.push(Expression::Exists(key)),
                    Some(Token::Equals) => {
                        at += 1;
                        let label = value(&toks, &mut at)?;
                        expressions.push(Expression::Equal(key, label));
                    }
                    Some(Token::NotEquals) => {
                        at += 1;
                        let label = value(&toks, &mut at)?;
                        expressions.push(Expression::NotEqual(key, label));
                    }
                    Some(Token::Word(op)) if op == "in" || op == "notin" => {
                        let is_in = op == "in";
                        at += 1;
                        let values = set(&toks, &mut at, &key)?.into_iter().collect();
                        expressions.push(match is_in {
                            true => Expression::In(key, values),
                            false => Expression::NotIn(key, values),
                        });
                    }
                    Some(Token::Compare(operator)) => {
                        return Err(SelectorError::Comparison {
                            key,
                            operator: *operator,
                        })
                    }
                    Some(other) => {
                        return Err(SelectorError::OperatorExpected {
                            key,
                            found: other.clone(),
                        })
                    }
                }
            }
            Some(found) => {
                return Err(SelectorError::Expected {
                    what: "a label key",
                    found,
                })
            }
            None => return Err(SelectorError::KeyAfterComma),
        }
        match next(&mut at) {
            None => return Ok(expressions.into_iter().collect()),
            Some(Token::Comma) => {}
            Some(found) => return Err(SelectorError::CommaExpected { found }),
        }
    }
}

impl std::fmt::Display for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Token::Word(w) => write!(f, "{w:?}"),
            Token::Comma => f.write_str("\",\""),
            Token::Open => f.write_str("\"(\""),
            Token::Close => f.write_str("\")\""),
            Token::Equals => f.write_str("\"=\""),
            Token::NotEquals => f.write_str("\"!=\""),
            Token::Bang => f.write_str("\"!\""),
            Token::Compare(c) => write!(f, "\"{c}\""),
        }
    }
}

fn key(token: Option<Token>, what: &'static str) -> Result<String, SelectorError> {
    match token {
        Some(Token::Word(w)) => check_key(&w).map(|()| w),
        Some(found) => Err(SelectorError::Expected { what, found }),
        None => Err(SelectorError::EndsBefore { what }),
    }
}

/// A value after `=`/`!=`: a word, or nothing (an empty value) before a comma or the end.
fn value(toks: &[Token], at: &mut usize) -> Result<String, SelectorError> {
    match toks.get(*at) {
        Some(Token::Word(w)) => {
            *at += 1;
            check_value(w)?;
            Ok(w.clone())
        }
        None | Some(Token::Comma) => Ok(String::new()),
        Some(found) => Err(SelectorError::Expected {
            what: "a label value",
            found: found.clone(),
        }),
    }
}

/// `(v1, v2, ...)` after `in`/`notin`.
fn set(toks: &[Token], at: &mut usize, key: &str) -> Result<Vec<String>, SelectorError> {
    let key_string = || key.to_string();
    if toks.get(*at) != Some(&Token::Open) {
        return Err(SelectorError::ListExpected { key: key_string() });
    }
    *at += 1;
    let mut values = Vec::new();
    loop {
        match toks.get(*at) {
            Some(Token::Word(w)) => {
                check_value(w)?;
                values.push(w.clone());
                *at += 1;
            }
            // An empty value between commas, as kubectl allows.
            Some(Token::Comma) | Some(Token::Close) => values.push(String::new()),
            Some(found) => {
                return Err(SelectorError::ListValueExpected {
                    key: key_string(),
                    found: found.clone(),
                })
            }
            None => return Err(SelectorError::ListNotClosed { key: key_string() }),
        }
        match toks.get(*at) {
            Some(Token::Comma) => *at += 1,
            Some(Token::Close) => {
                *at += 1;
                break;
            }
            Some(found) => {
                return Err(SelectorError::ListSeparatorExpected {
                    key: key_string(),
                    found: found.clone(),
                })
            }
            None => return Err(SelectorError::ListNotClosed { key: key_string() }),
        }
    }
    if values.iter().all(String::is_empty) {
        return Err(SelectorError::ListEmpty { key: key_string() });
    }
    Ok(values)
}

/// A name part of a label key or a value: at most 63 characters, alphanumerics,
/// `-`, `_` and `.`, starting and ending with an alphanumeric.
fn is_name(part: &str) -> bool {
    let bytes = part.as_bytes();
    bytes.len() <= 63
        && starts_and_ends_alphanumeric(bytes)
        && bytes
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// Not empty, and alphanumeric at both ends.
fn starts_and_ends_alphanumeric(bytes: &[u8]) -> bool {
    bytes.first().is_some_and(u8::is_ascii_alphanumeric)
        && bytes.last().is_some_and(u8::is_ascii_alphanumeric)
}

/// `[prefix/]name`, the prefix a DNS subdomain.
fn check_key(label_key: &str) -> Result<(), SelectorError> {
    let (prefix, name) = match label_key.rsplit_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, label_key),
    };
    let prefix_ok = prefix.is_none_or(|prefix| {
        !prefix.is_empty()
            && prefix.len() <= 253
            && prefix.split('.').all(|label| {
                let bytes = label.as_bytes();
                bytes.len() <= 63
                    && starts_and_ends_alphanumeric(bytes)
                    && bytes
                        .iter()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
            })
    });
    if prefix_ok && is_name(name) {
        Ok(())
    } else {
        Err(SelectorError::InvalidKey {
            key: label_key.to_string(),
        })
    }
}

fn check_value(label_value: &str) -> Result<(), SelectorError> {
    if label_value.is_empty() || is_name(label_value) {
        Ok(())
    } else {
        Err(SelectorError::InvalidValue {
            value: label_value.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn matches(sel: &str, pairs: &[(&str, &str)]) -> bool {
        parse(sel).unwrap().matches(&labels(pairs))
    }

    #[test]
    fn equality_inequality_and_existence() {
        assert!(matches("team=a", &[("team", "a")]));
        assert!(matches("team==a", &[("team", "a")]));
        assert!(!matches("team=a", &[("team", "b")]));
        assert!(matches("team!=a", &[("team", "b")]));
        // As in Kubernetes, != also matches objects without the label.
        assert!(matches("team!=a", &[]));
        assert!(!matches("team!=a", &[("team", "a")]));
        assert!(matches("team", &[("team", "")]));
        assert!(!matches("team", &[]));
        assert!(matches("!team", &[]));
        assert!(!matches("!team", &[("team", "a")]));
        assert!(matches("team=", &[("team", "")]));
    }

    #[test]
    fn sets() {
        assert!(matches("env in (prod,staging)", &[("env", "prod")]));
        assert!(matches("env in (prod, staging)", &[("env", "staging")]));
        assert!(!matches("env in (prod)", &[("env", "dev")]));
        assert!(!matches("env in (prod)", &[]));
        assert!(matches("env notin (prod)", &[("env", "dev")]));
        assert!(matches("env notin (prod)", &[]));
        assert!(!matches("env notin (prod,dev)", &[("env", "dev")]));
    }

    #[test]
    fn each_requirement_is_kubes_expression() {
        let set = |values: &[&str]| values.iter().map(|v| v.to_string()).collect();
        let expected: LabelSelector = [
            Expression::Equal("team".into(), "a".into()),
            Expression::NotEqual("tier".into(), "b".into()),
            Expression::In("env".into(), set(&["prod", "dev"])),
            Expression::NotIn("zone".into(), set(&["x"])),
            Expression::Exists("owner".into()),
            Expression::DoesNotExist("legacy".into()),
        ]
        .into_iter()
        .collect();
        let sel = "team==a, tier!=b, env in (prod,dev), zone notin (x), owner, !legacy";
        assert_eq!(parse(sel), Ok(expected));
        assert_eq!(
            parse(sel).unwrap().to_string(),
            "team=a,tier!=b,env in (dev,prod),zone notin (x),owner,!legacy"
        );
    }

    #[test]
    fn requirements_are_anded_and_whitespace_is_allowed() {
        let sel = "team = a , env in (prod), !legacy,example.com/owner";
        assert!(matches(
            sel,
            &[("team", "a"), ("env", "prod"), ("example.com/owner", "x")]
        ));
        assert!(!matches(
            sel,
            &[
                ("team", "a"),
                ("env", "prod"),
                ("legacy", "1"),
                ("example.com/owner", "x")
            ]
        ));
        assert!(matches("", &[]));
        assert!(matches("  ", &[("a", "b")]));
    }

    #[test]
    fn bad_syntax_is_refused_with_a_reason() {
        for (bad, says) in [
            ("a=b,", "after the last comma"),
            ("a in x", "parenthesised list"),
            ("a in (x", "not closed"),
            ("a in ()", "at least one value"),
            ("a b", "expected =, ==, !=, in, notin or a comma"),
            ("=b", "expected a label key"),
            ("a>1", "not supported"),
            ("-a=b", "not a valid label key"),
            ("a=b c", "expected a comma"),
            ("a=-b", "not a valid label value"),
            ("Example.COM/a=b", "not a valid label key"),
            ("a=(b)", "expected a label value"),
            ("!", "at the end"),
        ] {
            let e = parse(bad).expect_err(bad).to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
        let long = format!("{}=b", "k".repeat(64));
        assert!(parse(&long).is_err());
        assert_eq!(
            parse("a b"),
            Err(SelectorError::OperatorExpected {
                key: "a".to_string(),
                found: Token::Word("b".to_string())
            })
        );
        assert_eq!(
            parse("a>1").unwrap_err().to_string(),
            "a>...: numeric comparisons (< and >) are not supported; use =, !=, in, notin, KEY or !KEY"
        );
    }
}

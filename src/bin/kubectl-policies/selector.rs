//! `-l/--selector`: kubectl's label selector syntax, read into a [`LabelSelector`].
//!
//! Requirements are separated by commas and must all hold: `key=value` (or `==`),
//! `key!=value`, `key in (v1,v2)`, `key notin (v1,v2)`, `key` (the label exists) and
//! `!key` (it does not). Whitespace between words is allowed. Keys and values are
//! checked as Kubernetes checks label keys and values.

use kubectl_policies::catalog::policy::LabelSelector;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
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
pub fn parse(text: &str) -> Result<LabelSelector, String> {
    let toks = tokens(text);
    let mut sel = LabelSelector::default();
    let mut at = 0;
    let next = |at: &mut usize| {
        let token = toks.get(*at).cloned();
        *at += 1;
        token
    };
    if toks.is_empty() {
        return Ok(sel);
    }
    loop {
        match next(&mut at) {
            Some(Token::Bang) => {
                let key = key(next(&mut at), "a label key after !")?;
                sel.match_expressions
                    .push((key, "DoesNotExist".into(), Vec::new()));
            }
            Some(Token::Word(w)) => {
                let key = key(Some(Token::Word(w)), "a label key")?;
                match toks.get(at) {
                    None | Some(Token::Comma) => {
                        sel.match_expressions.push((key, "Exists".into(), Vec::new()))
                    }
                    Some(Token::Equals) => {
                        at += 1;
                        let v = value(&toks, &mut at)?;
                        sel.match_labels.push((key, v));
                    }
                    Some(Token::NotEquals) => {
                        at += 1;
                        let v = value(&toks, &mut at)?;
                        sel.match_expressions.push((key, "NotIn".into(), vec![v]));
                    }
                    Some(Token::Word(op)) if op == "in" || op == "notin" => {
                        let op = if op == "in" { "In" } else { "NotIn" };
                        at += 1;
                        let values = set(&toks, &mut at, &key)?;
                        sel.match_expressions.push((key, op.into(), values));
                    }
                    Some(Token::Compare(c)) => {
                        return Err(format!(
                            "{key}{c}...: numeric comparisons (< and >) are not supported; use =, !=, in, notin, KEY or !KEY"
                        ))
                    }
                    Some(other) => {
                        return Err(format!(
                            "after {key:?} expected =, ==, !=, in, notin or a comma, found {}",
                            show(other)
                        ))
                    }
                }
            }
            Some(other) => return Err(format!("expected a label key, found {}", show(&other))),
            None => return Err("expected a label key after the last comma".into()),
        }
        match next(&mut at) {
            None => return Ok(sel),
            Some(Token::Comma) => {}
            Some(other) => {
                return Err(format!(
                    "expected a comma between requirements, found {}",
                    show(&other)
                ))
            }
        }
    }
}

fn show(token: &Token) -> String {
    match token {
        Token::Word(word) => format!("{word:?}"),
        Token::Comma => "\",\"".into(),
        Token::Open => "\"(\"".into(),
        Token::Close => "\")\"".into(),
        Token::Equals => "\"=\"".into(),
        Token::NotEquals => "\"!=\"".into(),
        Token::Bang => "\"!\"".into(),
        Token::Compare(c) => format!("\"{c}\""),
    }
}

fn key(token: Option<Token>, what: &str) -> Result<String, String> {
    match token {
        Some(Token::Word(word)) => check_key(&word).map(|()| word),
        Some(other) => Err(format!("expected {what}, found {}", show(&other))),
        None => Err(format!("expected {what} at the end")),
    }
}

/// A value after `=`/`!=`: a word, or nothing (an empty value) before a comma or the end.
fn value(toks: &[Token], at: &mut usize) -> Result<String, String> {
    match toks.get(*at) {
        Some(Token::Word(word)) => {
            *at += 1;
            check_value(word)?;
            Ok(word.clone())
        }
        None | Some(Token::Comma) => Ok(String::new()),
        Some(other) => Err(format!("expected a label value, found {}", show(other))),
    }
}

/// `(v1, v2, ...)` after `in`/`notin`.
fn set(toks: &[Token], at: &mut usize, key: &str) -> Result<Vec<String>, String> {
    if toks.get(*at) != Some(&Token::Open) {
        return Err(format!(
            "{key} in/notin: expected a parenthesised list of values, such as ({key} in (a,b))"
        ));
    }
    *at += 1;
    let mut values = Vec::new();
    loop {
        match toks.get(*at) {
            Some(Token::Word(word)) => {
                check_value(word)?;
                values.push(word.clone());
                *at += 1;
            }
            // An empty value between commas, as kubectl allows.
            Some(Token::Comma) | Some(Token::Close) => values.push(String::new()),
            Some(other) => return Err(format!("{key}: expected a value, found {}", show(other))),
            None => return Err(format!("{key}: the list of values is not closed with )")),
        }
        match toks.get(*at) {
            Some(Token::Comma) => *at += 1,
            Some(Token::Close) => {
                *at += 1;
                break;
            }
            Some(other) => {
                return Err(format!(
                    "{key}: expected , or ) in the list of values, found {}",
                    show(other)
                ))
            }
            None => return Err(format!("{key}: the list of values is not closed with )")),
        }
    }
    if values.iter().all(String::is_empty) {
        return Err(format!("{key}: in and notin need at least one value"));
    }
    Ok(values)
}

/// A name part of a label key or a value: at most 63 characters, alphanumerics,
/// `-`, `_` and `.`, starting and ending with an alphanumeric.
fn is_name(text: &str) -> bool {
    let bytes = text.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 63
        && bytes[0].is_ascii_alphanumeric()
        && bytes[bytes.len() - 1].is_ascii_alphanumeric()
        && bytes
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// `[prefix/]name`, the prefix a DNS subdomain.
fn check_key(key: &str) -> Result<(), String> {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, key),
    };
    let prefix_ok = prefix.is_none_or(|p| {
        !p.is_empty()
            && p.len() <= 253
            && p.split('.').all(|part| {
                let bytes = part.as_bytes();
                !bytes.is_empty()
                    && bytes.len() <= 63
                    && bytes[0].is_ascii_alphanumeric()
                    && bytes[bytes.len() - 1].is_ascii_alphanumeric()
                    && bytes
                        .iter()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
            })
    });
    if prefix_ok && is_name(name) {
        Ok(())
    } else {
        Err(format!("{key:?} is not a valid label key (name or prefix/name: alphanumerics, '-', '_', '.', at most 63 characters)"))
    }
}

fn check_value(value: &str) -> Result<(), String> {
    if value.is_empty() || is_name(value) {
        Ok(())
    } else {
        Err(format!("{value:?} is not a valid label value (alphanumerics, '-', '_', '.', at most 63 characters)"))
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
            let e = parse(bad).expect_err(bad);
            assert!(e.contains(says), "{bad}: {e}");
        }
        let long = format!("{}=b", "k".repeat(64));
        assert!(parse(&long).is_err());
    }
}

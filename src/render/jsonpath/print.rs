//! Results printed as kubectl prints them: `-o jsonpath`'s text (strings bare, maps and
//! lists as compact JSON with sorted keys, Go's escapes), `-o jsonpath-as-json`'s
//! arrays, custom columns' `fmt.Sprint`; control characters from the input escaped.

use super::*;

/// `results` as Go's `json.MarshalIndent(results, "", "    ")` writes them, and a
/// newline: `<`, `>`, `&`, U+2028 and U+2029 in strings escaped as Go escapes them.
pub(super) fn push_json_array(results: &[&Value], out: &mut String) {
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

/// One result as kubectl's `-o jsonpath` prints it: a string bare, a number or boolean
/// as text, a map or list as compact JSON with its keys sorted.
pub(crate) fn print_value(value: &Value, out: &mut String) {
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
pub(crate) fn sprint(value: &Value, out: &mut String) {
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

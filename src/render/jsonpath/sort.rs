//! `--sort-by`'s order, as kubectl's `sorter.go` sorts: which values it refuses to
//! compare, and the order of those it does (numbers, quantities, natural order).

use super::*;

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
pub(super) fn natural(a: &str, b: &str) -> Ordering {
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

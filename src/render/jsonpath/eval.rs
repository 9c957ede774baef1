//! A path evaluated over a value, as kubectl's JSONPath walks it: keys, indexes, slices,
//! wildcards (maps in key order), recursive descent, unions and filters; a missing key
//! yields nothing, not an error.

use super::*;

impl Path {
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

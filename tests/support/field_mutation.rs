//! Structure-aware damage: the demo's documents, parsed, mutated field by field, and
//! written back as YAML or JSON with any line ending. Where `mutation.rs` damages the
//! text as a careless edit would, this damages the objects as a hostile or buggy writer
//! would: a field of another type, a name with control characters, a timestamp that is
//! not one, a list of thousands, nesting deeper than any object, CR line breaks.
#![allow(dead_code)] // each test binary uses its own part

use proptest::prelude::*;
use serde_json::{json, Map, Value};

const DEMO: &str = kubectl_policies::source::demo::DEMO_YAML;

/// The demo's documents, as JSON values.
pub fn documents() -> Vec<Value> {
    serde_saphyr::from_multiple::<Value>(DEMO)
        .unwrap()
        .into_iter()
        .filter(|d| !d.is_null())
        .collect()
}

/// Names and texts that would do harm on a terminal, or are not names at all.
pub const HOSTILE_TEXT: &[&str] = &[
    "x\u{1b}[2J",
    "\u{1b}]0;pwned\u{7}",
    "a\rb",
    "nul\u{0}byte",
    "\u{202e}evil",
    "c1\u{9b}31m",
    "",
    "UPPER",
    "a/b",
    "日本",
];

/// Strings in `creationTimestamp` that are not RFC 3339 times, or barely are.
pub const ODD_TIMESTAMPS: &[&str] = &[
    "2024-01-01T00:00:0é",
    "２０２４-01-01T00:00:00Z",
    "yesterday",
    "2024-13-01T00:00:00Z",
    "2024-12-31T23:59:60Z",
    "9999-12-31T23:59:59-23:59",
    "2024-01-01T00:00:00",
    "2024-01-01 00:00:00Z",
    "",
];

#[derive(Debug, Clone)]
pub enum FieldMutation {
    /// Replace the value at the `n`th place of a document (in a walk of every value)
    /// with one of another type.
    ChangeType { doc: usize, place: usize, to: usize },
    /// `metadata.name` (or, `in_ref`, the first `name` under spec) becomes hostile text.
    HostileName {
        doc: usize,
        text: usize,
        in_ref: bool,
    },
    /// A label or a status condition message becomes hostile text.
    HostileLabel { doc: usize, text: usize },
    /// `metadata.creationTimestamp` becomes an odd string.
    Timestamp { doc: usize, stamp: usize },
    /// The list at the `n`th place grows to `len` copies of its first item.
    HugeList {
        doc: usize,
        place: usize,
        len: usize,
    },
    /// The value at the `n`th place is wrapped in `depth` single-key mappings.
    DeepNesting {
        doc: usize,
        place: usize,
        depth: usize,
    },
}

#[derive(Debug, Clone, Copy)]
pub enum Written {
    Yaml,
    Json,
}

#[derive(Debug, Clone, Copy)]
pub enum LineEnding {
    Lf,
    CrLf,
    Cr,
}

pub fn field_mutation() -> impl Strategy<Value = FieldMutation> {
    let docs = documents().len();
    prop_oneof![
        ((0..docs), (0..400usize), (0..6usize))
            .prop_map(|(doc, place, to)| FieldMutation::ChangeType { doc, place, to }),
        ((0..docs), (0..HOSTILE_TEXT.len()), any::<bool>())
            .prop_map(|(doc, text, in_ref)| FieldMutation::HostileName { doc, text, in_ref }),
        ((0..docs), (0..HOSTILE_TEXT.len()))
            .prop_map(|(doc, text)| FieldMutation::HostileLabel { doc, text }),
        ((0..docs), (0..ODD_TIMESTAMPS.len()))
            .prop_map(|(doc, stamp)| FieldMutation::Timestamp { doc, stamp }),
        (
            (0..docs),
            (0..400usize),
            prop_oneof![Just(50usize), Just(5_000)]
        )
            .prop_map(|(doc, place, len)| FieldMutation::HugeList { doc, place, len }),
        (
            (0..docs),
            (0..400usize),
            prop_oneof![Just(20usize), Just(150), Just(260)]
        )
            .prop_map(|(doc, place, depth)| FieldMutation::DeepNesting {
                doc,
                place,
                depth
            }),
    ]
}

pub fn written() -> impl Strategy<Value = (Written, LineEnding)> {
    (
        prop_oneof![Just(Written::Yaml), Just(Written::Json)],
        prop_oneof![
            Just(LineEnding::Lf),
            Just(LineEnding::CrLf),
            Just(LineEnding::Cr)
        ],
    )
}

/// The demo's documents with `ms` applied in turn, written as asked.
pub fn field_mutated(ms: &[FieldMutation], (how, ending): (Written, LineEnding)) -> String {
    let mut docs = documents();
    for m in ms {
        apply(&mut docs, m);
    }
    let text = match how {
        Written::Yaml => docs
            .iter()
            .map(|d| serde_saphyr::to_string(d).unwrap())
            .collect::<Vec<_>>()
            .join("---\n"),
        Written::Json => serde_json::to_string_pretty(
            &json!({"apiVersion": "v1", "kind": "List", "items": docs}),
        )
        .unwrap(),
    };
    match ending {
        LineEnding::Lf => text,
        LineEnding::CrLf => text.replace('\n', "\r\n"),
        LineEnding::Cr => text.replace('\n', "\r"),
    }
}

fn apply(docs: &mut [Value], m: &FieldMutation) {
    match *m {
        FieldMutation::ChangeType { doc, place, to } => {
            if let Some(v) = nth_place(&mut docs[doc], place) {
                *v = other_type(v, to);
            }
        }
        FieldMutation::HostileName { doc, text, in_ref } => {
            let hostile = Value::from(HOSTILE_TEXT[text]);
            let d = &mut docs[doc];
            let name = match in_ref {
                false => d.pointer_mut("/metadata/name"),
                true => first_key(d.get_mut("spec"), "name"),
            };
            if let Some(n) = name {
                *n = hostile;
            }
        }
        FieldMutation::HostileLabel { doc, text } => {
            let d = &mut docs[doc];
            if let Some(meta) = d.get_mut("metadata").and_then(Value::as_object_mut) {
                let labels = meta.entry("labels").or_insert_with(|| json!({}));
                if let Some(l) = labels.as_object_mut() {
                    l.insert("team".into(), Value::from(HOSTILE_TEXT[text]));
                }
            }
            if let Some(message) = first_key(d.get_mut("status"), "message") {
                *message = Value::from(HOSTILE_TEXT[text]);
            }
        }
        FieldMutation::Timestamp { doc, stamp } => {
            if let Some(meta) = docs[doc].get_mut("metadata").and_then(Value::as_object_mut) {
                meta.insert(
                    "creationTimestamp".into(),
                    Value::from(ODD_TIMESTAMPS[stamp]),
                );
            }
        }
        FieldMutation::HugeList { doc, place, len } => {
            if let Some(Value::Array(items)) = nth_place(&mut docs[doc], place) {
                if let Some(first) = items.first().cloned() {
                    items.resize(len, first);
                }
            }
        }
        FieldMutation::DeepNesting { doc, place, depth } => {
            if let Some(v) = nth_place(&mut docs[doc], place) {
                let mut nested = v.take();
                for _ in 0..depth {
                    nested = Value::Object(Map::from_iter([("n".to_string(), nested)]));
                }
                *v = nested;
            }
        }
    }
}

/// The `n`th value of a walk over every value of `v` (itself first), wrapping around.
fn nth_place(v: &mut Value, n: usize) -> Option<&mut Value> {
    let count = count_places(v);
    let mut left = n % count;
    find_place(v, &mut left)
}

fn count_places(v: &Value) -> usize {
    1 + match v {
        Value::Array(a) => a.iter().map(count_places).sum(),
        Value::Object(o) => o.values().map(count_places).sum(),
        _ => 0,
    }
}

fn find_place<'v>(v: &'v mut Value, left: &mut usize) -> Option<&'v mut Value> {
    if *left == 0 {
        return Some(v);
    }
    *left -= 1;
    match v {
        Value::Array(a) => a.iter_mut().find_map(|c| find_place(c, left)),
        Value::Object(o) => o.values_mut().find_map(|c| find_place(c, left)),
        _ => None,
    }
}

/// The first value under `key` anywhere below `v`.
fn first_key<'v>(v: Option<&'v mut Value>, key: &str) -> Option<&'v mut Value> {
    match v? {
        Value::Object(o) => {
            if o.contains_key(key) {
                return o.get_mut(key);
            }
            o.values_mut().find_map(|c| first_key(Some(c), key))
        }
        Value::Array(a) => a.iter_mut().find_map(|c| first_key(Some(c), key)),
        _ => None,
    }
}

/// A value of another type than `v`'s (`to` picks which).
fn other_type(v: &Value, to: usize) -> Value {
    let candidates = [
        json!(7),
        json!(true),
        Value::Null,
        json!(["x"]),
        json!({"k": "v"}),
        json!("text"),
    ];
    let pick = &candidates[to % candidates.len()];
    if std::mem::discriminant(pick) == std::mem::discriminant(v) {
        candidates[(to + 1) % candidates.len()].clone()
    } else {
        pick.clone()
    }
}

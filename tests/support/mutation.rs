//! The demo's manifests, damaged as a careless edit or a broken pipe would damage them:
//! truncated, lines deleted or duplicated, values swapped for odd scalars, list dashes
//! toggled, lines re-indented. The hostile-input tests of the library (scenarios) and of
//! the binary (cli) draw their inputs from here.

use proptest::prelude::*;

const DEMO: &str = kubectl_policies::source::demo::DEMO_YAML;

/// The demo's lines, for mutation.
fn lines() -> Vec<String> {
    DEMO.lines().map(str::to_string).collect()
}

const ODD_SCALARS: &[&str] = &[
    "~",
    "null",
    ".nan",
    "-.inf",
    "0x1F",
    "0o17",
    "yes",
    "NO",
    "1e400",
    "-0",
    "''",
    "\"\\u0000\"",
    "!!binary aGVsbG8=",
    "[]",
    "{}",
    "[[[]]]",
    "&a x",
    "*a",
    "|",
    ">-",
    "99999999999999999999999999",
    "\"\u{202e}rtl\"",
    "{a: [1, {b: c}]}",
];

#[derive(Debug, Clone)]
pub enum Mutation {
    Truncate(usize),
    DeleteLine(usize),
    DuplicateLine(usize),
    /// Replace the value after the first `:` on a line with an odd scalar.
    SwapValue(usize, usize),
    /// Turn a mapping line into a list item or back.
    ToggleDash(usize),
    /// Change the indentation of a line.
    Reindent(usize, usize),
    /// Make the `.0`-th reference list (parentRefs, backendRefs, targetRef(s)) of the
    /// demo name the `.1`-th object of the demo instead: itself (a self-reference), a
    /// route that names it back (a cycle), a policy (a policy on a policy)...
    Refer(usize, usize),
    /// Add `len` routes of one kind (`kind` picks among `RING_KINDS`) that name each
    /// other in a ring, the first also naming the `through`-th object of the demo.
    Ring {
        len: usize,
        kind: usize,
        through: usize,
    },
}

/// An object of the demo: (group, kind, namespace, name).
type Named = (String, String, Option<String>, String);

/// The objects of the demo, in order, read from their documents' lines.
fn objects() -> Vec<Named> {
    let mut out = Vec::new();
    for doc in DEMO.split("\n---") {
        let mut group = String::new();
        let (mut kind, mut name, mut namespace) = (None, None, None);
        for line in doc.lines() {
            if let Some(v) = line.strip_prefix("apiVersion: ") {
                group = v.rsplit_once('/').map_or("", |(g, _)| g).to_string();
            } else if let Some(v) = line.strip_prefix("kind: ") {
                kind = Some(v.to_string());
            } else if let Some(v) = line.strip_prefix("  name: ") {
                name = name.or(Some(v.to_string()));
            } else if let Some(v) = line.strip_prefix("  namespace: ") {
                namespace = namespace.or(Some(v.to_string()));
            }
        }
        if let (Some(kind), Some(name)) = (kind, name) {
            out.push((group, kind, namespace, name));
        }
    }
    out
}

/// The keys whose value lists references to objects.
const REF_KEYS: &[&str] = &["parentRefs", "backendRefs", "targetRefs", "targetRef"];

/// Route kinds a `Ring` is made of: parentRefs between TCPRoutes, backendRefs from a
/// GRPCRoute's rules, and HTTPRoute delegation.
const RING_KINDS: &[&str] = &["TCPRoute", "GRPCRoute", "HTTPRoute"];

/// Where a reference list starts: (line, indentation of its key, key), in order.
fn reference_lists(text: &[String]) -> Vec<(usize, usize, &'static str)> {
    let mut out = Vec::new();
    for (i, line) in text.iter().enumerate() {
        let body = line.trim_start();
        let indent = line.len() - body.len();
        let (body, indent) = match body.strip_prefix("- ") {
            Some(rest) => (rest, indent + 2),
            None => (body, indent),
        };
        if let Some(&key) = REF_KEYS.iter().find(|k| body == format!("{k}:")) {
            out.push((i, indent, key));
        }
    }
    out
}

/// A reference to `o` as a flow mapping.
fn reference(o: &Named) -> String {
    let (group, kind, namespace, name) = o;
    let ns = namespace
        .as_ref()
        .map_or(String::new(), |ns| format!(", namespace: {ns}"));
    format!("{{group: \"{group}\", kind: {kind}, name: {name}{ns}}}")
}

pub fn mutation() -> impl Strategy<Value = Mutation> {
    let n = DEMO.lines().count();
    prop_oneof![
        (0..DEMO.len()).prop_map(Mutation::Truncate),
        (0..n).prop_map(Mutation::DeleteLine),
        (0..n).prop_map(Mutation::DuplicateLine),
        ((0..n), (0..ODD_SCALARS.len())).prop_map(|(l, s)| Mutation::SwapValue(l, s)),
        (0..n).prop_map(Mutation::ToggleDash),
        ((0..n), (0..8usize)).prop_map(|(l, i)| Mutation::Reindent(l, i)),
        ((0..32usize), (0..32usize)).prop_map(|(at, to)| Mutation::Refer(at, to)),
        ((1..5usize), (0..RING_KINDS.len()), (0..32usize))
            .prop_map(|(len, kind, through)| Mutation::Ring { len, kind, through }),
    ]
}

/// The demo with `ms` applied in turn.
pub fn mutated(ms: &[Mutation]) -> String {
    let mut text = lines();
    for m in ms {
        apply(&mut text, m);
    }
    text.join("\n")
}

fn apply(text: &mut Vec<String>, m: &Mutation) {
    match *m {
        Mutation::Truncate(at) => {
            let joined = text.join("\n");
            let mut cut = at.min(joined.len());
            while !joined.is_char_boundary(cut) {
                cut -= 1;
            }
            *text = joined[..cut].lines().map(str::to_string).collect();
        }
        Mutation::DeleteLine(i) if i < text.len() => {
            text.remove(i);
        }
        Mutation::DuplicateLine(i) if i < text.len() => {
            let l = text[i].clone();
            text.insert(i, l);
        }
        Mutation::SwapValue(i, s) if i < text.len() => {
            if let Some((k, _)) = text[i].split_once(':') {
                text[i] = format!("{k}: {}", ODD_SCALARS[s]);
            }
        }
        Mutation::ToggleDash(i) if i < text.len() => {
            let l = &text[i];
            let indent = l.len() - l.trim_start().len();
            text[i] = match l.trim_start().strip_prefix("- ") {
                Some(rest) => format!("{}{rest}", " ".repeat(indent)),
                None => format!("{}- {}", " ".repeat(indent), l.trim_start()),
            };
        }
        Mutation::Reindent(i, by) if i < text.len() => {
            text[i] = format!("{}{}", " ".repeat(by), text[i].trim_start());
        }
        Mutation::Refer(at, to) => {
            let lists = reference_lists(text);
            let objects = objects();
            let (Some(&(line, indent, key)), false) =
                (lists.get(at % lists.len().max(1)), objects.is_empty())
            else {
                return;
            };
            let target = reference(&objects[to % objects.len()]);
            let value = match key {
                "targetRef" => target,
                _ => format!("[{target}]"),
            };
            let head = &text[line][..indent];
            let replaced = format!("{head}{key}: {value}");
            // The list's own lines: those indented deeper than its key.
            let end = (line + 1..text.len())
                .find(|&j| {
                    let l = &text[j];
                    !l.trim().is_empty() && l.len() - l.trim_start().len() <= indent
                })
                .unwrap_or(text.len());
            text.splice(line..end, [replaced]);
        }
        Mutation::Ring { len, kind, through } => {
            let objects = objects();
            let Some(through) = objects.get(through % objects.len().max(1)) else {
                return;
            };
            let kind = RING_KINDS[kind];
            let ns = through.2.as_deref().unwrap_or("default");
            let ring = |i: usize| {
                let o = (
                    "gateway.networking.k8s.io".into(),
                    kind.into(),
                    Some(ns.into()),
                    format!("ring-{}", i % len),
                );
                reference(&o)
            };
            for i in 0..len {
                let parent = match kind {
                    // A delegated child names its parent route: the parent's rule names it.
                    "HTTPRoute" => reference(through),
                    _ => format!("{}, {}", ring(i + len - 1), reference(through)),
                };
                let backend = match kind {
                    "TCPRoute" => reference(through),
                    _ => ring(i + 1),
                };
                text.push("---".into());
                text.push(format!("apiVersion: gateway.networking.k8s.io/v1\nkind: {kind}\nmetadata: {{name: ring-{i}, namespace: {ns}}}\nspec:\n  parentRefs: [{parent}]\n  rules: [{{backendRefs: [{backend}]}}]"));
            }
        }
        _ => {}
    }
}

//! A JSON value whose every leaf remembers the policy that set it, and the merge
//! strategies of GEP-713 over such values. Objects merge; scalars and arrays are
//! leaves (RFC 7396 replaces arrays whole).
//!
//! Keys and leaves are the spec's own shared strings and compact values (`Text`,
//! `Val`): the folds make and merge thousands of these trees, and a merge copies no
//! string.

use crate::model::{FastMap, Text, Val};
use crate::topology::PolicyId;
use serde_json::{Map, Value};
use std::rc::Rc;

/// A JSON value whose every leaf remembers the policy that set it: what the merge
/// strategies combine, so that the effective spec can say who set each setting.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Sourced {
    Leaf { value: Val, source: PolicyId },
    Object(Vec<(Text, Rc<Sourced>)>),
}

impl Sourced {
    /// A policy's spec proper, every leaf sourced to it. An empty object is one leaf.
    pub(crate) fn from_value(v: &Val, source: PolicyId) -> Rc<Sourced> {
        match v {
            Val::Object(m) if !m.is_empty() => Rc::new(Sourced::Object(
                m.iter()
                    .map(|(k, v)| (k.clone(), Sourced::from_value(v, source)))
                    .collect(),
            )),
            _ => Rc::new(Sourced::Leaf {
                value: v.clone(),
                source,
            }),
        }
    }

    /// `from_value` of the mapping these settings make; none when there are none (an
    /// empty stanza states no intent).
    pub(crate) fn from_settings<'v>(
        settings: impl IntoIterator<Item = (&'v Text, &'v Val)>,
        source: PolicyId,
    ) -> Option<Rc<Sourced>> {
        let fields: Vec<(Text, Rc<Sourced>)> = settings
            .into_iter()
            .map(|(k, v)| (k.clone(), Sourced::from_value(v, source)))
            .collect();
        (!fields.is_empty()).then(|| Rc::new(Sourced::Object(fields)))
    }

    pub(crate) fn to_value(&self) -> Value {
        match self {
            Sourced::Leaf { value, .. } => value.to_value(),
            Sourced::Object(fields) => Value::Object(
                fields
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_value()))
                    .collect::<Map<String, Value>>(),
            ),
        }
    }

    /// True when the tree sets nothing (`{}`): such a policy has no opinion.
    pub(crate) fn is_empty(&self) -> bool {
        match self {
            Sourced::Leaf { value, .. } => value.as_object().is_some_and(|m| m.is_empty()),
            Sourced::Object(f) => f.is_empty(),
        }
    }

    /// The subtree under `key`, by a scan (for answers that look up a few paths).
    fn get(&self, key: &str) -> Option<&Rc<Sourced>> {
        match self {
            Sourced::Object(f) => f.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            Sourced::Leaf { .. } => None,
        }
    }

    /// Every leaf as (JSON pointer per RFC 6901, source).
    pub(crate) fn sources(&self) -> Vec<(String, PolicyId)> {
        let mut out = Vec::new();
        self.walk_sources(&mut String::new(), &mut out);
        out
    }

    fn walk_sources(&self, path: &mut String, out: &mut Vec<(String, PolicyId)>) {
        match self {
            Sourced::Leaf { source, .. } => out.push((path.clone(), *source)),
            Sourced::Object(fields) => {
                for (k, v) in fields {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&k.replace('~', "~0").replace('/', "~1"));
                    v.walk_sources(path, out);
                    path.truncate(len);
                }
            }
        }
    }

    /// The JSON pointer of every leaf that sets something (no null).
    pub(crate) fn set_leaf_pointers(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.set_leaves(&mut String::new(), &mut out);
        out
    }

    /// The pointer of every leaf that sets something (no null), `path` being where
    /// this tree is.
    fn set_leaves(&self, path: &mut String, out: &mut Vec<String>) {
        match self {
            Sourced::Leaf {
                value: Val::Null, ..
            } => {}
            Sourced::Leaf { .. } => out.push(path.clone()),
            Sourced::Object(fields) => {
                for (k, v) in fields {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&k.replace('~', "~0").replace('/', "~1"));
                    v.set_leaves(path, out);
                    path.truncate(len);
                }
            }
        }
    }

    /// How many leaves of this tree come from each policy: one walk, whatever the
    /// number of policies folded in.
    pub(crate) fn count_by_source(&self, out: &mut FastMap<PolicyId, usize>) {
        match self {
            Sourced::Leaf { source, .. } => *out.entry(*source).or_default() += 1,
            Sourced::Object(f) => f.iter().for_each(|(_, v)| v.count_by_source(out)),
        }
    }
}

/// The settings of `own` (one policy's stanza as it joins the fold, every leaf its
/// own: `p`'s) that do not survive in `result` (the fold's result in one context), as
/// (JSON pointer, the policy holding its place): the policy whose leaf is at or above
/// that path in `result`; where `result` has nothing there, the one with the most
/// leaves where the path ends; None when no other policy holds anything there (the
/// caller knows better: a conflict's winner, a patch's `null`).
pub(crate) fn lost_leaves(
    own: &Sourced,
    result: &Sourced,
    policy: PolicyId,
) -> Vec<(String, Option<PolicyId>)> {
    let mut lost = Lost {
        policy,
        path: String::new(),
        out: Vec::new(),
    };
    lost.walk(own, Some(result), result);
    lost.out
}

/// The walk of `lost_leaves`: the policy whose settings are looked for, the JSON
/// pointer of the field walked now, and the settings found lost so far.
struct Lost {
    policy: PolicyId,
    path: String,
    out: Vec<(String, Option<PolicyId>)>,
}

impl Lost {
    /// The lost settings of `own` (at `path`) against `here`, what the result has at
    /// that path (none: nothing), `nearest` the closest object above it that it has.
    fn walk(&mut self, own: &Sourced, here: Option<&Sourced>, nearest: &Sourced) {
        let policy = self.policy;
        match (own, here) {
            // A null sets nothing (it only deletes, in a patch).
            (
                Sourced::Leaf {
                    value: Val::Null, ..
                },
                _,
            ) => {}
            (_, Some(Sourced::Leaf { source, .. })) if *source == policy => {}
            // Replaced whole, at this level or above.
            (_, Some(Sourced::Leaf { source, .. })) => {
                let mut lost = Vec::new();
                own.set_leaves(&mut self.path, &mut lost);
                self.out
                    .extend(lost.into_iter().map(|at| (at, Some(*source))));
            }
            (Sourced::Leaf { .. }, Some(other @ Sourced::Object(_))) => self
                .out
                .push((self.path.clone(), main_other(other, policy))),
            (Sourced::Leaf { .. }, None) => self
                .out
                .push((self.path.clone(), main_other(nearest, policy))),
            (Sourced::Object(fields), _) => {
                let nearest = here.unwrap_or(nearest);
                for (k, v) in fields {
                    let len = self.path.len();
                    self.path.push('/');
                    self.path.push_str(&k.replace('~', "~0").replace('/', "~1"));
                    let below = here.and_then(|h| h.get(k)).map(|r| &**r);
                    self.walk(v, below, nearest);
                    self.path.truncate(len);
                }
            }
        }
    }
}

/// The policy other than `p` that sets the most leaves of `tree` (the first of equals).
fn main_other(tree: &Sourced, policy: PolicyId) -> Option<PolicyId> {
    let mut counts: Vec<(PolicyId, usize)> = Vec::new();
    for (_, q) in tree.sources() {
        if q == policy {
            continue;
        }
        match counts.iter_mut().find(|(r, _)| *r == q) {
            Some((_, n)) => *n += 1,
            None => counts.push((q, 1)),
        }
    }
    let most = counts.iter().map(|&(_, n)| n).max()?;
    counts.into_iter().find(|&(_, n)| n == most).map(|(q, _)| q)
}

/// The JSON pointer of every leaf of `v` that sets something (an empty mapping is a leaf,
/// a null is not), into `out`; `path` is where `v` is.
pub(crate) fn leaf_pointers(v: &Val, path: &mut String, out: &mut Vec<String>) {
    match v {
        Val::Object(m) if !m.is_empty() => {
            for (k, v) in m {
                let len = path.len();
                path.push('/');
                path.push_str(&k.replace('~', "~0").replace('/', "~1"));
                leaf_pointers(v, path, out);
                path.truncate(len);
            }
        }
        Val::Null => {}
        _ => out.push(path.clone()),
    }
}

/// An object's fields, looked up by key: by a scan when they are few, through an
/// index when they are many (the rules of ten thousand policies merged on one target
/// are ten thousand lookups among ten thousand, at every join).
struct Fields<'a> {
    fields: &'a [(Text, Rc<Sourced>)],
    index: Option<FastMap<&'a str, usize>>,
}

impl<'a> Fields<'a> {
    /// `fields`, to be looked up about `lookups` times: indexed when both are many
    /// (a few lookups among many fields are cheaper as scans than as an index).
    fn new(fields: &'a [(Text, Rc<Sourced>)], lookups: usize) -> Self {
        let index = (fields.len() > 16 && lookups > 8).then(|| {
            let mut index: FastMap<&str, usize> = FastMap::default();
            index.reserve(fields.len());
            for (i, (k, _)) in fields.iter().enumerate() {
                // The first of a key, as a scan finds it.
                index.entry(k.as_str()).or_insert(i);
            }
            index
        });
        Fields { fields, index }
    }

    fn get(&self, key: &str) -> Option<&'a Rc<Sourced>> {
        let fields = self.fields;
        match &self.index {
            Some(index) => index.get(key).map(|&i| &fields[i].1),
            None => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
        }
    }
}

/// RFC 7396 JSON Merge Patch over sourced trees: objects merge key by key, `null`
/// in the patch removes the key, anything else in the patch replaces the target's.
/// Unchanged subtrees are shared, not copied.
pub(crate) fn merge_patch(target: &Rc<Sourced>, patch: &Rc<Sourced>) -> Rc<Sourced> {
    match (&**target, &**patch) {
        (Sourced::Object(tf), Sourced::Object(pf)) => {
            let mut out: Vec<(Text, Rc<Sourced>)> = Vec::with_capacity(tf.len() + pf.len());
            let (t_fields, p_fields) = (Fields::new(tf, pf.len()), Fields::new(pf, tf.len()));
            for (k, tv) in tf {
                match p_fields.get(k) {
                    None => out.push((k.clone(), tv.clone())),
                    Some(pv) if is_null(pv) => {}
                    Some(pv) => out.push((k.clone(), merge_patch(tv, pv))),
                }
            }
            for (k, pv) in pf {
                if !is_null(pv) && t_fields.get(k).is_none() {
                    out.push((k.clone(), strip_nulls(pv)));
                }
            }
            Rc::new(Sourced::Object(out))
        }
        (_, Sourced::Object(_)) => strip_nulls(patch),
        (_, Sourced::Leaf { .. }) => patch.clone(),
    }
}

fn is_null(t: &Sourced) -> bool {
    matches!(
        t,
        Sourced::Leaf {
            value: Val::Null,
            ..
        }
    )
}

/// A patch's nulls never land in the result (RFC 7396 §2, applied to a new member).
fn strip_nulls(t: &Rc<Sourced>) -> Rc<Sourced> {
    match &**t {
        Sourced::Object(f)
            if f.iter()
                .any(|(_, v)| is_null(v) || matches!(**v, Sourced::Object(_))) =>
        {
            Rc::new(Sourced::Object(
                f.iter()
                    .filter(|(_, v)| !is_null(v))
                    .map(|(k, v)| (k.clone(), strip_nulls(v)))
                    .collect(),
            ))
        }
        Sourced::Object(_) | Sourced::Leaf { .. } => t.clone(),
    }
}

/// Keyed-rule merge (Kuadrant's `strategy: merge`, kgateway's shallow merge): the
/// union of both sides' rules, and for a rule on both sides the preferred side's
/// rule whole. Rules are the children of each pointer in `rule_paths`; fields
/// outside them count as one rule each (with no paths: every top-level field).
pub(crate) fn merge_rules(
    a: &Rc<Sourced>,
    b: &Rc<Sourced>,
    prefer_b: bool,
    rule_paths: &[&str],
) -> Rc<Sourced> {
    merge_rules_at(a, b, prefer_b, rule_paths, "")
}

fn merge_rules_at(
    a: &Rc<Sourced>,
    b: &Rc<Sourced>,
    prefer_b: bool,
    rule_paths: &[&str],
    here: &str,
) -> Rc<Sourced> {
    let (Sourced::Object(af), Sourced::Object(bf)) = (&**a, &**b) else {
        return if prefer_b { b.clone() } else { a.clone() };
    };
    let is_collection = rule_paths.is_empty() && here.is_empty() || rule_paths.contains(&here);
    let mut out: Vec<(Text, Rc<Sourced>)> = Vec::with_capacity(af.len() + bf.len());
    let lookups = af.len() + bf.len();
    let (a_fields, b_fields) = (
        Fields::new(af, lookups + bf.len()),
        Fields::new(bf, lookups),
    );
    let mut keys: Vec<&Text> = af.iter().map(|(k, _)| k).collect();
    for (k, _) in bf {
        if a_fields.get(k).is_none() {
            keys.push(k);
        }
    }
    for k in keys {
        let v = match (a_fields.get(k), b_fields.get(k)) {
            (Some(x), None) => x.clone(),
            (None, Some(y)) => y.clone(),
            (Some(x), Some(y)) => {
                let path = format!("{here}/{}", k.replace('~', "~0").replace('/', "~1"));
                let leads_to_rules = rule_paths
                    .iter()
                    .any(|p| p.starts_with(&format!("{path}/")) || *p == path);
                if !is_collection && leads_to_rules {
                    merge_rules_at(x, y, prefer_b, rule_paths, &path)
                } else if prefer_b {
                    y.clone()
                } else {
                    x.clone()
                }
            }
            (None, None) => continue,
        };
        out.push((k.clone(), v));
    }
    Rc::new(Sourced::Object(out))
}

/// A field of a sourced object.
type Field = (Text, Rc<Sourced>);

/// How a run of values is merged with `merge_rules`, least specific (or oldest) first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Run {
    /// `merge_rules(x1, merge_rules(x2, … xn))` preferring the second side: each value
    /// over the ones before it (`strategy: merge` defaults on one target).
    PreferLast,
    /// The same nesting preferring the first side: each value over the ones after it
    /// (`strategy: merge` overrides on one target).
    PreferFirst,
    /// `merge_rules(merge_rules(x1, x2), … xn)` preferring the first side: the oldest
    /// keeps a rule several set (Gloo's options, merged on one target).
    OldestFirst,
}

/// The values `xs` merged with `merge_rules` as `run` says, in one pass over all of
/// them, equal to the merges one by one (a test holds them equal), which would copy the
/// growing result at each step: ten thousand policies, ten thousand copies.
pub(crate) fn merge_rules_run(xs: &[&Rc<Sourced>], run: Run, rule_paths: &[&str]) -> Rc<Sourced> {
    merge_run_at(xs, run, rule_paths, "")
}

fn merge_run_at(xs: &[&Rc<Sourced>], run: Run, rule_paths: &[&str], here: &str) -> Rc<Sourced> {
    let (Some(&first), Some(&last)) = (xs.first(), xs.last()) else {
        return Rc::new(Sourced::Object(Vec::new()));
    };
    fn fields<'a>(x: &&'a Rc<Sourced>) -> Option<&'a [Field]> {
        match &***x {
            Sourced::Object(f) => Some(f.as_slice()),
            Sourced::Leaf { .. } => None,
        }
    }
    // Merged one by one, a pair that is not two objects is its preferred side whole.
    // Preferring the more specific side: a value that is no object leaves what is below
    // it as it is, and the most specific one, if no object, is the result. Preferring
    // the less specific side: a value that is no object replaces what is below it, and
    // an object above it replaces it in turn; what counts is the run of objects from the
    // least specific down to the first that is none. Oldest first: the first value, if
    // no object, stays; else every later object merges into it.
    let (objects, preferred): (Vec<&[Field]>, _) = match run {
        Run::PreferLast => (xs.iter().filter_map(fields).collect(), last),
        Run::PreferFirst => (xs.iter().map_while(fields).collect(), first),
        Run::OldestFirst => (xs.iter().filter_map(fields).collect(), first),
    };
    if fields(&preferred).is_none() || objects.len() == 1 {
        return preferred.clone();
    }
    let is_collection = rule_paths.is_empty() && here.is_empty() || rule_paths.contains(&here);
    // Each key where it first appears, with every value it has (least specific first).
    let mut at: FastMap<&str, usize> = FastMap::default();
    let mut keys: Vec<(&Text, Vec<&Rc<Sourced>>)> = Vec::new();
    for fields in &objects {
        for (k, v) in fields.iter() {
            match at.get(k.as_str()) {
                Some(&i) => keys[i].1.push(v),
                None => {
                    at.insert(k.as_str(), keys.len());
                    keys.push((k, vec![v]));
                }
            }
        }
    }
    let out = keys
        .into_iter()
        .map(|(k, values)| {
            // Every key has one value at least; with several, the preferred side wins
            // whole, unless rules lie further down.
            let preferred = match run {
                Run::PreferLast => values[values.len() - 1],
                Run::PreferFirst | Run::OldestFirst => values[0],
            };
            let v = if values.len() == 1 {
                preferred.clone()
            } else {
                let path = format!("{here}/{}", k.replace('~', "~0").replace('/', "~1"));
                let leads_to_rules = rule_paths
                    .iter()
                    .any(|p| p.starts_with(&format!("{path}/")) || *p == path);
                if !is_collection && leads_to_rules {
                    merge_run_at(&values, run, rule_paths, &path)
                } else {
                    preferred.clone()
                }
            };
            (k.clone(), v)
        })
        .collect();
    Rc::new(Sourced::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn t(v: Value, s: u32) -> Rc<Sourced> {
        let s = PolicyId(s);
        Sourced::from_value(&Val::from_value(v), s)
    }

    #[test]
    fn merge_patch_follows_rfc_7396_examples() {
        // RFC 7396 §3 example.
        let target = t(json!({"a": "b", "c": {"d": "e", "f": "g"}}), 0);
        let patch = t(json!({"a": "z", "c": {"f": null}}), 1);
        let out = merge_patch(&target, &patch);
        assert_eq!(out.to_value(), json!({"a": "z", "c": {"d": "e"}}));
        assert_eq!(
            out.sources(),
            vec![("/a".into(), PolicyId(1)), ("/c/d".into(), PolicyId(0))]
        );
        // Arrays are replaced whole.
        let out = merge_patch(&t(json!({"l": [1, 2]}), 0), &t(json!({"l": [3]}), 1));
        assert_eq!(out.to_value(), json!({"l": [3]}));
        // New members lose their nulls.
        let out = merge_patch(&t(json!({}), 0), &t(json!({"x": {"y": null, "z": 1}}), 1));
        assert_eq!(out.to_value(), json!({"x": {"z": 1}}));
    }

    /// A small tree from a seed: objects of a few keys (shared among trees, so they
    /// meet), some leaves where others have objects, some keys leading to rules.
    fn tree(seed: &mut u64, depth: u32, source: u32) -> Value {
        fn next(seed: &mut u64, n: u64) -> u64 {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (*seed >> 33) % n
        }
        if depth == 0 || next(seed, 5) == 0 {
            return json!(next(seed, 3) + u64::from(source) * 10);
        }
        let keys = ["limits", "a", "b", "shared", "x"];
        let mut m = serde_json::Map::new();
        for _ in 0..=next(seed, 4) {
            let k = keys[next(seed, keys.len() as u64) as usize].to_string();
            let inner = tree(seed, depth - 1, source);
            m.insert(k, inner);
        }
        Value::Object(m)
    }

    #[test]
    fn merging_a_run_at_once_equals_merging_one_by_one() {
        let mut seed = 7;
        for case in 0..600 {
            let n = 2 + case % 6;
            let xs: Vec<Rc<Sourced>> = (0..n)
                .map(|i| t(tree(&mut seed, 3, i as u32), i as u32))
                .collect();
            let runs = [Run::PreferLast, Run::PreferFirst, Run::OldestFirst];
            for (rule_paths, run) in [&[][..], &["/limits"][..], &["/a/limits", "/b"][..]]
                .into_iter()
                .flat_map(|r| runs.map(|run| (r, run)))
            {
                let one_by_one = match run {
                    Run::PreferLast | Run::PreferFirst => {
                        let mut v = xs[n - 1].clone();
                        for x in xs[..n - 1].iter().rev() {
                            v = merge_rules(x, &v, run == Run::PreferLast, rule_paths);
                        }
                        v
                    }
                    Run::OldestFirst => {
                        let mut v = xs[0].clone();
                        for x in &xs[1..] {
                            v = merge_rules(&v, x, false, rule_paths);
                        }
                        v
                    }
                };
                let refs: Vec<&Rc<Sourced>> = xs.iter().collect();
                let at_once = merge_rules_run(&refs, run, rule_paths);
                assert_eq!(at_once, one_by_one, "case {case}, {rule_paths:?} {run:?}");
                assert_eq!(
                    at_once.to_value().to_string(),
                    one_by_one.to_value().to_string(),
                    "and in the same order"
                );
            }
        }
    }

    #[test]
    fn lost_leaves_names_who_holds_each_place() {
        let p = PolicyId(0);
        let own = t(json!({"a": 1, "b": {"c": 2, "d": null}, "e": 3}), 0);
        // b replaced whole by policy 1's scalar, a set by policy 2, e kept; d is a null,
        // which sets nothing and so cannot lose.
        let result = merge_patch(
            &merge_patch(&own, &t(json!({"b": "x"}), 1)),
            &t(json!({"a": 9}), 2),
        );
        assert_eq!(
            lost_leaves(&own, &result, p),
            vec![
                ("/a".into(), Some(PolicyId(2))),
                ("/b/c".into(), Some(PolicyId(1)))
            ]
        );
        // Gone, with nothing in its place: the caller decides who took it.
        let empty = t(json!({"z": 1}), 3);
        assert_eq!(
            lost_leaves(&t(json!({"a": 1}), 0), &empty, p),
            vec![("/a".into(), Some(PolicyId(3)))]
        );
        assert_eq!(
            lost_leaves(&t(json!({"a": 1, "q": 2}), 0), &t(json!({"q": 2}), 0), p),
            vec![("/a".into(), None)]
        );
        // An empty mapping set over it is a leaf of its own: it replaced the whole.
        assert_eq!(
            lost_leaves(&t(json!({"a": 1}), 0), &t(json!({}), 3), p),
            vec![("/a".into(), Some(PolicyId(3)))]
        );
    }

    #[test]
    fn pointers_escape_tilde_and_slash() {
        let tree = t(json!({"a/b": {"c~d": 1}}), 3);
        assert_eq!(tree.sources(), vec![("/a~1b/c~0d".into(), PolicyId(3))]);
    }

    #[test]
    fn rule_merge_defaults_and_overrides_as_policy_machinery_describes() {
        // Source {r1 Blue, r2 Red} merged with targets; defaults let the target win
        // conflicts, overrides let the source win.
        let source = t(json!({"r1": "Blue", "r2": "Red"}), 0);
        let target = t(json!({"r1": "Yellow", "r3": "Green"}), 1);
        let defaults = merge_rules(&source, &target, true, &[]);
        assert_eq!(
            defaults.to_value(),
            json!({"r1": "Yellow", "r2": "Red", "r3": "Green"})
        );
        let overrides = merge_rules(&source, &target, false, &[]);
        assert_eq!(
            overrides.to_value(),
            json!({"r1": "Blue", "r2": "Red", "r3": "Green"})
        );
    }

    #[test]
    fn rule_merge_keys_by_rule_paths() {
        let a = t(
            json!({"limits": {"global": {"rates": [1]}, "per-user": {"rates": [2]}}, "when": ["a"]}),
            0,
        );
        let b = t(
            json!({"limits": {"global": {"rates": [9]}}, "when": ["b"]}),
            1,
        );
        let out = merge_rules(&a, &b, false, &["/limits"]);
        assert_eq!(
            out.to_value(),
            json!({"limits": {"global": {"rates": [1]}, "per-user": {"rates": [2]}}, "when": ["a"]})
        );
        let out = merge_rules(&a, &b, true, &["/limits"]);
        assert_eq!(out.to_value()["limits"]["global"], json!({"rates": [9]}));
        assert_eq!(out.to_value()["limits"]["per-user"], json!({"rates": [2]}));
    }
}

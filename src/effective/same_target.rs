//! The same-target rules that are neither GEP-713's None nor a plain stack or field
//! merge (`SameTarget`'s vendor rules, issue 28): several policies of one kind on one
//! target, oldest first, as the groups that enter the fold, and the ones that lose
//! there as (loser, winner). A group of several is merged into one entry
//! (`SameTarget::first_wins_each_field` says how); a group of one is pushed on its own.

use crate::catalog::ValueKey;
use crate::model::Val;
use crate::topology::{PolicyId, Topology};

/// Groups and losers, as `same_target_groups` returns them.
pub(super) type Outcome = (Vec<Vec<PolicyId>>, Vec<(PolicyId, PolicyId)>);

/// A value of the policy's spec (a JSON pointer into `spec`).
fn spec_value<'t>(t: &'t Topology, p: PolicyId, field: &str) -> Option<&'t Val> {
    let spec: &Val = &t.snapshot.objects[t.policies[p].object].spec;
    spec.pointer(field).filter(|v| !v.is_null())
}

/// An integer setting: a number, or a string holding one (annotations are strings).
fn integer(v: Option<&Val>) -> Option<i64> {
    match v? {
        Val::Number(n) => n.as_i64(),
        Val::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// kgateway: one entry merged by field, the higher `annotation` weight first, then the
/// older (the sort is stable, and `mine` is oldest first). A weight that is not an
/// integer counts as 0, as kgateway reads it.
pub(super) fn weighted_field_wins(t: &Topology, mine: &[PolicyId], annotation: &str) -> Outcome {
    let weight = |p: PolicyId| {
        let o = &t.snapshot.objects[t.policies[p].object];
        o.annotations
            .get(annotation)
            .and_then(|w| w.trim().parse::<i64>().ok())
            .unwrap_or(0)
    };
    let mut ordered = mine.to_vec();
    ordered.sort_by_key(|&p| std::cmp::Reverse(weight(p)));
    (vec![ordered], Vec::new())
}

/// The last applied applies; each other one loses to it. Without a record of when each
/// was applied, the newest creationTimestamp (then the last `namespace/name`) stands
/// for it: the last of `mine`.
pub(super) fn last_applied_wins(mine: &[PolicyId]) -> Outcome {
    match mine.split_last() {
        Some((&last, rest)) => (
            vec![vec![last]],
            rest.iter().map(|&loser| (loser, last)).collect(),
        ),
        None => (Vec::new(), Vec::new()),
    }
}

/// All apply, each on its own, ordered by `field` (missing or not an integer: 0), lower
/// first unless `higher_first`, then the older first.
pub(super) fn all_by_priority(
    t: &Topology,
    mine: &[PolicyId],
    field: &str,
    higher_first: bool,
) -> Outcome {
    let mut ordered = mine.to_vec();
    ordered.sort_by_key(|&p| {
        let priority = integer(spec_value(t, p, field)).unwrap_or(0);
        if higher_first {
            -priority
        } else {
            priority
        }
    });
    (ordered.into_iter().map(|p| vec![p]).collect(), Vec::new())
}

/// The value `OnePerValue` compares (missing: the empty value, shared by every policy
/// that leaves the field out).
fn key_of(t: &Topology, p: PolicyId, field: &str, key: ValueKey) -> String {
    let v = spec_value(t, p, field);
    let text = match v {
        Some(Val::String(s)) => s.to_string(),
        Some(other) => other.to_value().to_string(),
        None => String::new(),
    };
    match key {
        ValueKey::Whole => text,
        // arn:PARTITION:SERVICE:REGION:ACCOUNT:RESOURCE
        ValueKey::ArnService => match text.split(':').collect::<Vec<_>>()[..] {
            ["arn", _, service, ..] => service.to_string(),
            _ => text,
        },
    }
}

/// One per value: the oldest with each value applies (each on its own, side by side);
/// a later one with the same value loses to it.
pub(super) fn one_per_value(
    t: &Topology,
    mine: &[PolicyId],
    field: &str,
    key: ValueKey,
) -> Outcome {
    let mut winners: Vec<(String, PolicyId)> = Vec::new();
    let mut lost = Vec::new();
    for &p in mine {
        let k = key_of(t, p, field, key);
        match winners.iter().find(|(w, _)| *w == k) {
            Some(&(_, winner)) => lost.push((p, winner)),
            None => winners.push((k, p)),
        }
    }
    (winners.into_iter().map(|(_, p)| vec![p]).collect(), lost)
}

/// All apply (each on its own) while they agree on `field`; when two differ, every one
/// loses, to the first policy whose value differs from its own.
pub(super) fn all_conflicted_on_mismatch(t: &Topology, mine: &[PolicyId], field: &str) -> Outcome {
    let values: Vec<Option<&Val>> = mine.iter().map(|&p| spec_value(t, p, field)).collect();
    let lost: Vec<(PolicyId, PolicyId)> = mine
        .iter()
        .zip(&values)
        .filter_map(|(&p, v)| {
            let other = values.iter().position(|w| w != v)?;
            Some((p, mine[other]))
        })
        .collect();
    if lost.is_empty() {
        (mine.iter().map(|&p| vec![p]).collect(), lost)
    } else {
        (Vec::new(), lost)
    }
}

/// With several, none applies: each loses to the next (the last to the first), so
/// every one of them shows whom it conflicts with.
pub(super) fn several_conflict(mine: &[PolicyId]) -> Outcome {
    match mine {
        [] => (Vec::new(), Vec::new()),
        [one] => (vec![vec![*one]], Vec::new()),
        _ => {
            let next = mine.iter().cycle().skip(1);
            (
                Vec::new(),
                mine.iter().copied().zip(next.copied()).collect(),
            )
        }
    }
}

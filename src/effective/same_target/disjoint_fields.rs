//! `SameTarget::DisjointFields`: several policies on one target are merged field by
//! field, but no two may set the same field. Walking them oldest first, a policy that
//! sets one of the listed fields (JSON pointers into the spec proper; none listed: any
//! field) that an accepted policy already sets is Conflicted whole (NGINX Gateway
//! Fabric, "Merging Policies": `markConflictedPolicies` in its
//! internal/controller/state/graph/policies.go, and each policy's validator).

use super::Outcome;
use crate::effective::joining::Layer;
use crate::effective::sourced::{leaf_pointers, merge_patch};
use crate::effective::Joining;
use crate::model::Val;
use crate::topology::{PolicyId, Topology};

/// The accepted policies one group, oldest first; each clashing one loses to the
/// accepted policy it clashes with.
pub(super) fn groups(topology: &Topology, mine: &[PolicyId], fields: &[&str]) -> Outcome {
    let mut lost = Vec::new();
    let mut accepted: Vec<(PolicyId, Vec<String>)> = Vec::new();
    for &p in mine {
        let sets = set_fields(topology, p, fields);
        let clash = accepted
            .iter()
            .find(|(_, theirs)| sets.iter().any(|f| theirs.iter().any(|g| overlap(f, g))));
        match clash {
            Some(&(winner, _)) => lost.push((p, winner)),
            None => accepted.push((p, sets)),
        }
    }
    (vec![accepted.into_iter().map(|(p, _)| p).collect()], lost)
}

/// The group as one entry: their stanzas merged as JSON Merge Patches, the later over
/// the earlier (no field being set twice, the order decides nothing).
pub(super) fn merged(entries: &[Joining]) -> Joining {
    let join = |a: &Option<Layer>, b: &Option<Layer>| match (a, b) {
        (Some(a), Some(b)) => Some(Layer {
            how: a.how,
            value: merge_patch(&a.value, &b.value),
        }),
        (a, b) => a.clone().or_else(|| b.clone()),
    };
    let mut out = Joining {
        policies: Vec::new(),
        defaults: None,
        overrides: None,
        merges_into_parent: false,
        route_level: entries.iter().any(|e| e.route_level),
        narrowed: Vec::new(),
    };
    for e in entries {
        out.policies.extend(&e.policies);
        out.narrowed.extend(&e.narrowed);
        out.defaults = join(&out.defaults, &e.defaults);
        out.overrides = join(&out.overrides, &e.overrides);
        out.merges_into_parent |= e.merges_into_parent;
    }
    out
}

/// The fields policy `p` sets among `fields` (JSON pointers into its spec proper; none
/// listed: every leaf it sets).
fn set_fields(topology: &Topology, p: PolicyId, fields: &[&str]) -> Vec<String> {
    let policy = topology.policy(p);
    let spec = &topology.object(policy.object).spec;
    let proper = Val::Object(
        policy
            .intent
            .settings(spec)
            .into_iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    );
    if fields.is_empty() {
        let mut out = Vec::new();
        leaf_pointers(&proper, &mut String::new(), &mut out);
        return out;
    }
    fields
        .iter()
        .filter(|f| proper.pointer(f).is_some_and(|v| !v.is_null()))
        .map(|f| f.to_string())
        .collect()
}

/// Two JSON pointers name overlapping settings: one is the other or lies below it.
fn overlap(a: &str, b: &str) -> bool {
    let below = |x: &str, y: &str| x.strip_prefix(y).is_some_and(|r| r.starts_with('/'));
    a == b || below(a, b) || below(b, a)
}

//! Blast radius: what changes if a policy is deleted, if an object policies name is
//! deleted, or if some objects are applied. Each builds the world as it would be after
//! the change and compares, node by node and context by context, the effective spec of
//! every policy kind involved.
//!
//! Here: the answer (`BlastRadius`, its `Change`s and `Summary`) and the words that
//! count it. The three forms: `policy` (deleting a policy), `object` (deleting an
//! object policies name), `apply` (`--apply`, and the findings it brings). What they
//! share: `reach` (the objects a change can touch) and `compare` (the effective specs
//! of two worlds, context by context; `diff` answers with it too).

mod apply;
mod compare;
mod object;
mod policy;
mod reach;

pub use apply::apply_objects;
pub(super) use compare::effective_changes;
pub use object::{delete_object, delete_object_by_reanalysis};
pub use policy::{delete_policy, delete_policy_by_reanalysis};

use super::PolicyKindRef;
use crate::model::BlindSpot;
use crate::model::{plural, ObjRef};
use crate::topology::Finding;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// One object (or section) whose effective spec of one kind changes, on the contexts
/// that share the same before and after.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Change {
    pub target: ObjRef,
    #[serde(rename = "policyKind")]
    pub policy_kind: PolicyKindRef,
    pub contexts: Vec<Vec<ObjRef>>,
    /// Shared: many objects change from and to the same spec.
    pub before: Option<Arc<Value>>,
    pub after: Option<Arc<Value>>,
}

/// What a blast radius touches, counted: objects, their namespaces, objects by kind.
#[derive(Clone, Debug, Serialize, PartialEq, Default)]
pub struct Summary {
    pub objects: usize,
    pub namespaces: Vec<String>,
    #[serde(rename = "byKind")]
    pub by_kind: BTreeMap<String, usize>,
}

/// `blast-radius`: every object (or section) whose effective spec changes if a policy
/// is deleted or the objects of `--apply` are applied, before and after, per context.
#[derive(Clone, Debug, Serialize)]
pub struct BlastRadius {
    pub(crate) kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) policy: Option<ObjRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) apply: Option<Vec<String>>,
    /// An object policies' specs name (a Secret, a ConfigMap, a Service), deleted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object: Option<ObjRef>,
    /// The policies its deletion makes Invalid (their controller refuses them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invalidated: Option<Vec<ObjRef>>,
    pub changes: Vec<Change>,
    pub summary: Summary,
    /// `--apply`: the findings the applied objects would bring (a new Conflicted,
    /// Invalid, TargetNotFound, a missing ReferenceGrant…): those of the world after
    /// that the world before did not have. None for a deletion.
    pub findings: Vec<Finding>,
    #[serde(rename = "blindSpots")]
    pub(crate) blind_spots: Vec<BlindSpot>,
    /// One sentence for people: what the change does.
    #[serde(skip)]
    pub headline: String,
}

/// What a change does, as its headline tells it (`object_headline`, `apply_headline`):
/// the effective changes, their summary, and the findings it brings.
struct Outcome {
    changes: Vec<Change>,
    summary: Summary,
    findings: Vec<Finding>,
}

impl Outcome {
    /// The outcome of going from `before` to `after`, whose effective changes are
    /// `changes`.
    fn of(
        before: &crate::query::World,
        after: &crate::query::World,
        changes: Vec<Change>,
    ) -> Outcome {
        Outcome {
            summary: summarize(&changes),
            findings: apply::brought(before, after),
            changes,
        }
    }
}

pub(crate) fn summarize(changes: &[Change]) -> Summary {
    let objects: BTreeSet<ObjRef> = changes.iter().map(|c| c.target.object()).collect();
    let namespaces: BTreeSet<String> = objects
        .iter()
        .filter_map(|o| o.namespace.as_deref().map(str::to_string))
        .collect();
    let mut by_kind = BTreeMap::new();
    for o in &objects {
        *by_kind.entry(o.kind.to_string()).or_insert(0) += 1;
    }
    Summary {
        objects: objects.len(),
        namespaces: namespaces.into_iter().collect(),
        by_kind,
    }
}

/// `a`, `a and b`, `a, b and c`.
pub(super) fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `4 HTTPRoutes and 4 Services in 1 namespace (baker)`.
pub(crate) fn describe_summary(summary: &Summary) -> String {
    let parts: Vec<String> = summary
        .by_kind
        .iter()
        .map(|(k, &n)| {
            if n == 1 {
                format!("1 {k}")
            } else {
                format!("{n} {}", plural(k))
            }
        })
        .collect();
    let mut out = join_and(&parts);
    match summary.namespaces.len() {
        0 => {}
        1 => out.push_str(&format!(" in 1 namespace ({})", summary.namespaces[0])),
        n => out.push_str(&format!(
            " in {n} namespaces ({})",
            summary.namespaces.join(", ")
        )),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_and_lists() {
        assert_eq!(plural("HTTPRoute"), "HTTPRoutes");
        assert_eq!(plural("Service"), "Services");
        assert_eq!(plural("GatewayClass"), "GatewayClasses");
        assert_eq!(plural("Policy"), "Policies");
        assert_eq!(join_and(&["a".into()]), "a");
        assert_eq!(
            join_and(&["a".into(), "b".into(), "c".into()]),
            "a, b and c"
        );
    }
}

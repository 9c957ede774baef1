//! Deleting an object policies' specs name (a Secret, a ConfigMap, a Service): the
//! policies its controller then refuses, and every effective change that follows.

use super::compare::compare;
use super::reach::{may_change, reach_of_policy};
use super::{describe_summary, join_and, BlastRadius, Outcome};
use crate::catalog::Declared;
use crate::effective::KindFold;
use crate::model::{GroupKind, ObjRef, Object};
use crate::query::Rebuildable;
use std::collections::BTreeSet;

/// What changes if `object` (a Secret, a ConfigMap, a Service… that policies' specs
/// name) is deleted: the policies its controller then refuses (Invalid), the findings
/// that brings (an entry dropped), and every effective change that follows.
pub fn delete_object(world: &Rebuildable, object: &ObjRef, declared: &[Declared]) -> BlastRadius {
    deleting_object(world, object, declared, false)
}

/// The same answer as `delete_object`, comparing every object of both worlds for every
/// kind in use: slower, and obviously right. Tests hold the two equal.
pub fn delete_object_by_reanalysis(
    world: &Rebuildable,
    object: &ObjRef,
    declared: &[Declared],
) -> BlastRadius {
    deleting_object(world, object, declared, true)
}

/// `delete_object`; `everywhere`: compared on every object for every kind, not only
/// where the object's dependents reach and below the object.
fn deleting_object(
    world: &Rebuildable,
    object: &ObjRef,
    declared: &[Declared],
    everywhere: bool,
) -> BlastRadius {
    let topology = &world.topology;
    let is_it = |o: &Object| {
        o.name == object.name
            && o.kind == object.kind
            && o.namespace.as_deref() == object.namespace.as_deref()
            && o.group() == object.group.as_str()
    };
    let found = topology.objects().iter().any(is_it);
    let snapshot = crate::model::Snapshot {
        // What files said exists still says so: the object is gone, not unknown.
        listed: Some(match &topology.snapshot().listed {
            Some(listed) => listed.clone(),
            None => crate::model::listed_in_files(topology.objects()),
        }),
        ..world.snapshot_of(
            topology
                .objects()
                .iter()
                .filter(|o| !is_it(o))
                .cloned()
                .collect(),
        )
    };
    let after = crate::query::analyze(snapshot, declared, &[]);
    let dependents = crate::query::dependents::dependents(world, object);
    let mut candidates = BTreeSet::new();
    let mut kinds: Vec<GroupKind> = Vec::new();
    for d in &dependents {
        let pol = topology.policy(d.policy_id);
        candidates.extend(
            reach_of_policy(topology, d.policy_id)
                .into_iter()
                .map(|n| topology.node(n).obj_ref.clone()),
        );
        kinds.push(pol.kind.clone());
    }
    if topology.lookup(object).is_some() || after.topology.lookup(object).is_some() {
        candidates.extend(may_change(world, &after, std::slice::from_ref(object)));
        kinds.extend(KindFold::kinds_in_use(topology));
        kinds.extend(KindFold::kinds_in_use(&after.topology));
    }
    if everywhere {
        for t in [topology, &after.topology] {
            candidates.extend(t.nodes().iter().map(|n| n.obj_ref.clone()));
            kinds.extend(KindFold::kinds_in_use(t));
        }
    }
    kinds.sort();
    kinds.dedup();
    let changes = compare(world, &after, &candidates, &kinds);
    let invalidated: Vec<ObjRef> = topology
        .policies()
        .iter()
        .filter(|p| p.rejected.is_none())
        .filter(|p| {
            after
                .topology
                .policy_id(&p.obj_ref)
                .is_some_and(|q| after.topology.policy(q).rejected.is_some())
        })
        .map(|p| p.obj_ref.clone())
        .collect();
    let outcome = Outcome::of(world, &after, changes);
    let headline = object_headline(object, found, dependents.len(), &invalidated, &outcome);
    let Outcome {
        changes,
        summary,
        findings,
    } = outcome;
    BlastRadius {
        kind: "BlastRadius",
        policy: None,
        apply: None,
        object: Some(object.clone()),
        invalidated: Some(invalidated),
        changes,
        summary,
        findings,
        blind_spots: topology.snapshot().blind_spots.clone(),
        headline,
    }
}

/// What deleting an object `named_by` policies name does, in one sentence.
fn object_headline(
    object: &ObjRef,
    found: bool,
    named_by: usize,
    invalidated: &[ObjRef],
    outcome: &Outcome,
) -> String {
    let Outcome {
        changes, summary, ..
    } = outcome;
    let brought = outcome.findings.len();
    let what = format!("Deleting {} {}", object.kind, object.ns_name());
    if !found {
        let by = match named_by {
            0 => "and no policy names it".to_string(),
            1 => "and the 1 policy that names it already does without it".to_string(),
            n => format!("and the {n} policies that name it already do without it"),
        };
        return format!("{what} changes nothing: it is not in the input, {by}");
    }
    if named_by == 0 && changes.is_empty() {
        return format!("{what} changes nothing: no policy names it");
    }
    let mut parts = Vec::new();
    if !invalidated.is_empty() {
        let names: Vec<String> = invalidated
            .iter()
            .map(|p| format!("{} {}", p.kind, p.ns_name()))
            .collect();
        parts.push(format!("makes {} Invalid", join_and(&names)));
    }
    if !changes.is_empty() {
        let mut kinds: Vec<String> = changes.iter().map(|c| c.policy_kind.kind.clone()).collect();
        kinds.sort();
        kinds.dedup();
        parts.push(format!(
            "changes the effective {} of {}",
            join_and(&kinds),
            describe_summary(summary)
        ));
    }
    if parts.is_empty() {
        let by = match named_by {
            1 => "the 1 policy naming it does".to_string(),
            n => format!("the {n} policies naming it do"),
        };
        let see = if brought > 0 {
            " (see the findings)"
        } else {
            ""
        };
        return format!("{what} changes no effective spec: {by} without it{see}");
    }
    format!("{what} {}", parts.join(", and "))
}

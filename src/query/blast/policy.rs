//! Deleting a policy: only what lies at or below its attachment points is folded
//! again, without it (`delete_policy`), or the whole world is rebuilt without it when
//! its kind's vendor weighs policies against each other (`delete_policy_by_reanalysis`).

use super::compare::{compare, diff, sort_changes, Specs};
use super::reach::reach_of_policy;
use super::{describe_summary, summarize, BlastRadius, Change};
use crate::catalog::Declared;
use crate::effective::{KindFold, PathStep, PolicyStatus};
use crate::model::{GroupKind, ObjRef, ObjectId};
use crate::query::{Rebuildable, World};
use crate::topology::PolicyId;
use std::collections::BTreeSet;

/// What changes if `policy` is deleted.
///
/// Only what lies at or below the policy's attachment points can change, so only
/// that is folded again, without the policy; everything above is shared with the
/// world as it is. (`declared` kinds are already in the world's catalog.) A kind
/// whose vendor refuses a policy for what the others of its kind are aimed at or set,
/// or translates a route's policy merged with its parent's
/// (`PolicyKind::others_turn_on_it`), is answered by rebuilding: deleting one may
/// accept or refuse another; hence a `Rebuildable` world, whose links are kept
/// (`analyze`, not `analyze_once`).
pub fn delete_policy(world: &Rebuildable, policy: PolicyId, declared: &[Declared]) -> BlastRadius {
    let topology = &world.topology;
    let pol = topology.policy(policy);
    if topology.kind_of(policy).others_turn_on_it() {
        return delete_policy_by_reanalysis(world, policy, declared);
    }
    let reach = reach_of_policy(topology, policy);
    let mut below = vec![false; topology.nodes().len()];
    for &n in &reach {
        below[n] = true;
    }
    let present = reach;
    // The before side first: the contexts it folds above the policy are then shared.
    let mut before = KindFold::new(topology, &pol.kind);
    for &n in &present {
        before.contexts(n);
    }
    let mut after = before.without(policy, &below);
    let mut specs = Specs::default();
    let mut changes = Vec::new();
    for &n in &present {
        let sb = specs.by_path(&mut before, n);
        let sa = specs.by_path(&mut after, n);
        let target = &topology.node(n).obj_ref;
        for (paths, b, a) in diff(sb, sa, |x, y| specs.same(*x, *y)) {
            let mut contexts: Vec<Vec<ObjRef>> = paths
                .iter()
                .map(|path| PathStep::refs(topology, path))
                .collect();
            contexts.sort();
            changes.push(Change {
                target: target.clone(),
                policy_kind: (&pol.kind).into(),
                contexts,
                before: b.map(|i| specs.values[i].clone()),
                after: a.map(|i| specs.values[i].clone()),
            });
        }
    }
    sort_changes(&mut changes);
    deleted(world, policy, changes)
}

/// The same answer as `delete_policy`, by rebuilding the whole world without the
/// policy and comparing: slower, and obviously right. Tests hold the two equal.
pub fn delete_policy_by_reanalysis(
    world: &Rebuildable,
    policy: PolicyId,
    declared: &[Declared],
) -> BlastRadius {
    let pol = world.topology.policy(policy);
    let snapshot = world.snapshot_of(
        world
            .topology
            .objects()
            .iter()
            .zip(ObjectId::all(usize::MAX))
            .filter(|&(_, i)| i != pol.object)
            .map(|(o, _)| o.clone())
            .collect(),
    );
    let after = crate::query::analyze(snapshot, declared, &[]);
    let mut candidates: BTreeSet<ObjRef> = reach_of_policy(&world.topology, policy)
        .into_iter()
        .map(|n| world.topology.node(n).obj_ref.clone())
        .collect();
    // A policy of its kind that its controller refused beside it, and accepts without
    // it (or the other way round: its `SharedPort` rule), changes where it reaches.
    candidates.extend(validity_changed(world, &after, &pol.kind));
    let kinds = vec![pol.kind.clone()];
    let changes = compare(world, &after, &candidates, &kinds);
    deleted(world, policy, changes)
}

/// The objects reached, before or after, by the policies of `kind` whose controller
/// accepts them in one world and refuses them in the other.
fn validity_changed(before: &World, after: &World, kind: &GroupKind) -> BTreeSet<ObjRef> {
    let mut out = BTreeSet::new();
    for (q, now) in after.topology.each_policy() {
        if &now.kind != kind {
            continue;
        }
        let Some(p) = before.topology.policy_id(&now.obj_ref) else {
            continue;
        };
        if before.topology.policy(p).rejected.is_some() == now.rejected.is_some() {
            continue;
        }
        for (t, id) in [(&before.topology, p), (&after.topology, q)] {
            out.extend(
                reach_of_policy(t, id)
                    .into_iter()
                    .map(|n| t.node(n).obj_ref.clone()),
            );
        }
    }
    out
}

/// The answer for deleting `policy`, given what changes.
fn deleted(world: &World, policy: PolicyId, changes: Vec<Change>) -> BlastRadius {
    let pol = world.topology.policy(policy);
    let summary = summarize(&changes);
    let what = format!("Deleting {} {}", pol.kind.kind, pol.obj_ref.ns_name());
    let headline = if changes.is_empty() {
        let why = if world.statuses().overall[policy] == PolicyStatus::Overridden {
            ": it is overridden everywhere it reaches"
        } else if world.statuses().overall[policy] == PolicyStatus::Conflicted {
            ": it loses to an older policy on every target (Conflicted)"
        } else if world.statuses().reached(policy).is_empty() {
            ": it reaches no object"
        } else {
            ""
        };
        format!("{what} changes nothing{why}")
    } else {
        format!(
            "{what} changes the effective {} of {}",
            pol.kind.kind,
            describe_summary(&summary)
        )
    };
    BlastRadius {
        kind: "BlastRadius",
        policy: Some(pol.obj_ref.clone()),
        apply: None,
        object: None,
        invalidated: None,
        changes,
        summary,
        findings: Vec::new(),
        blind_spots: world.topology.snapshot().blind_spots.clone(),
        headline,
    }
}

//! What a change can touch: the nodes a policy reaches, what lies below a changed
//! object, what the policies naming a Secret reach. Effective specs are compared only
//! there.

use crate::model::ObjRef;
use crate::query::World;
use crate::topology::{NodeId, PolicyId, Resolution, Topology};
use std::collections::BTreeSet;

/// The objects whose effective specs the `changed` objects may change, before or
/// after: what a changed policy reaches, what lies below a changed object, a changed
/// Namespace's objects; anything at all for any other kind (a CRD, a ReferenceGrant).
pub(super) fn may_change(world: &World, after: &World, changed: &[ObjRef]) -> BTreeSet<ObjRef> {
    let mut candidates = BTreeSet::new();
    for r in changed {
        let mut found = false;
        for topology in [&world.topology, &after.topology] {
            if let Some(p) = topology.policy_id(r) {
                candidates.extend(
                    reach_of_policy(topology, p)
                        .into_iter()
                        .map(|n| topology.node(n).obj_ref.clone()),
                );
                found = true;
            }
            if let Some(n) = topology.lookup(r) {
                add_below(topology, n, &mut candidates);
                found = true;
            }
        }
        if found {
            continue;
        }
        if r.kind == "Namespace" && r.group.is_empty() {
            for topology in [&world.topology, &after.topology] {
                let below = topology.at_or_below(topology.nodes_in_namespace(&r.name));
                candidates.extend(below.into_iter().map(|n| topology.node(n).obj_ref.clone()));
            }
        } else {
            // A CRD, a ReferenceGrant, anything else: it may change anything.
            for topology in [&world.topology, &after.topology] {
                candidates.extend(topology.nodes().iter().map(|n| n.obj_ref.clone()));
            }
        }
    }
    candidates
}

/// For an object outside the hierarchy and no policy, of a kind policies' specs name
/// (a Secret, a ConfigMap): what the policies naming it reach, on either side (all it
/// can change). None for any other object.
pub(super) fn referenced_reach(
    before: &World,
    after: &World,
    r: &ObjRef,
) -> Option<BTreeSet<ObjRef>> {
    let mut reach = BTreeSet::new();
    for world in [before, after] {
        let t = &world.topology;
        if t.policy_id(r).is_some() || t.lookup(r).is_some() {
            return None;
        }
        if !crate::query::dependents::is_referenced_kind(world, &r.group_kind()) {
            return None;
        }
        for d in crate::query::dependents::dependents(world, r) {
            let nodes = reach_of_policy(t, d.policy_id);
            reach.extend(nodes.into_iter().map(|n| t.node(n).obj_ref.clone()));
        }
    }
    Some(reach)
}

/// The nodes a policy can affect: its resolved targets (namespace targets: every
/// object of the namespace) and everything below them, in node order.
pub(super) fn reach_of_policy(topology: &Topology, policy: PolicyId) -> Vec<NodeId> {
    let mut starts = Vec::new();
    for r in topology.targets_of(policy) {
        match &r.resolution {
            Resolution::Node(node) => starts.push(*node),
            Resolution::Namespace(ns) => starts.extend(topology.nodes_in_namespace(ns)),
            Resolution::NotFound(_) => {}
        }
    }
    topology.at_or_below(starts)
}

fn add_below(topology: &Topology, node: NodeId, out: &mut BTreeSet<ObjRef>) {
    out.extend(
        topology
            .at_or_below([node])
            .into_iter()
            .map(|d| topology.node(d).obj_ref.clone()),
    );
}

//! `describe -o tree`: the part of the hierarchy one description is about, drawn
//! with the tree renderer.

use super::{
    namespace_entries, reported_word, role_then_ref, unresolved_status, Reported,
    TargetDescription, TreeNode, TreeView, World,
};
use crate::effective::PolicyStatus;
use crate::model::ObjRef;
use crate::topology::{NodeId, PolicyId, Resolution};
use serde::Serialize;
use std::collections::HashMap;

/// For a target: every path from a root down to it and its own sections, with the
/// policies that reach it hung where they attach, each with its status at the target
/// (as `describe` lists them).
pub fn target(world: &World, node: NodeId, description: &TargetDescription) -> Vec<TreeNode> {
    let topology = &world.topology;
    let mut keep = vec![false; topology.nodes().len()];
    keep[node] = true;
    for a in topology.ancestors(node) {
        keep[a] = true;
    }
    for &c in &topology.node(node).children {
        if topology.node(c).owner == Some(node) {
            keep[c] = true;
        }
    }
    let reaching: HashMap<PolicyId, PolicyStatus> = description
        .policies
        .iter()
        .filter_map(|r| topology.policy_id(&r.policy).map(|p| (p, r.status)))
        .collect();
    let mut roots: Vec<NodeId> = NodeId::all(topology.nodes().len())
        .filter(|&i| keep[i] && !topology.node(i).parents.iter().any(|&p| keep[p]))
        .collect();
    roots.sort_by(|a, b| role_then_ref(topology, *a, *b));
    let entries = namespace_entries(topology);
    TreeView {
        child: &|_, c| keep[c],
        policy: &|p| reaching.get(&p).copied(),
        status: &|_| None,
        ns_entries: &entries,
    }
    .forest(world, roots)
}

/// `describe POLICY -o tree`: the policy, each of its targets, and below each target
/// the objects the policy reaches with its status at every one.
#[derive(Clone, Debug, Serialize)]
pub struct PolicyOutline {
    pub(crate) policy: ObjRef,
    pub(crate) status: PolicyStatus,
    /// What controllers say of its current generation (shown as `get` shows it).
    #[serde(skip_serializing_if = "Reported::is_none")]
    pub(crate) reported: Option<Reported>,
    pub(crate) targets: Vec<TreeNode>,
}

pub fn policy(world: &World, policy: PolicyId) -> PolicyOutline {
    let topology = &world.topology;
    let reached = world.statuses().reached(policy);
    // Going down from a target: the nodes reached and the nodes on the way to them.
    let mut on_the_way = vec![false; topology.nodes().len()];
    for node in reached.nodes() {
        on_the_way[node] = true;
        for a in topology.ancestors(node) {
            on_the_way[a] = true;
        }
    }
    let entries = namespace_entries(topology);
    let view = TreeView {
        child: &|_, c| on_the_way[c],
        policy: &|_| None,
        status: &|node| reached.get(node),
        ns_entries: &entries,
    };
    let mut expanded = vec![false; topology.nodes().len()];
    let targets = topology
        .targets_of(policy)
        .iter()
        .map(|r| match &r.resolution {
            Resolution::Node(node) => view.node(world, *node, &mut expanded, 0),
            Resolution::Namespace(ns) => {
                // The namespace level sits above the objects where a path enters the
                // namespace (where `tree` hangs the policy).
                let mut tops: Vec<NodeId> = reached
                    .nodes()
                    .filter(|&node| {
                        entries[node] && topology.namespace_level(node) == Some(ns.as_str())
                    })
                    .collect();
                tops.sort_by(|a, b| role_then_ref(topology, *a, *b));
                TreeNode {
                    obj_ref: r.target.clone(),
                    status: None,
                    policies: Vec::new(),
                    children: tops
                        .into_iter()
                        .map(|node| view.node(world, node, &mut expanded, 1))
                        .collect(),
                    repeated: false,
                    truncated: false,
                }
            }
            Resolution::NotFound(code) => TreeNode {
                obj_ref: r.target.clone(),
                status: Some(unresolved_status(*code)),
                policies: Vec::new(),
                children: Vec::new(),
                repeated: false,
                truncated: false,
            },
        })
        .collect();
    PolicyOutline {
        policy: topology.policy(policy).obj_ref.clone(),
        status: world.statuses().overall[policy],
        reported: reported_word(topology, policy),
        targets,
    }
}

/// `describe namespace/NAME -o tree`: the Namespace and the policies that target it.
pub fn namespace(description: &TargetDescription) -> Vec<TreeNode> {
    vec![TreeNode {
        obj_ref: description.target.clone(),
        status: None,
        policies: description
            .policies
            .iter()
            .map(|p| super::TreePolicy {
                policy: p.policy.clone(),
                status: p.status,
                reported: p.reported.clone(),
                via_namespace: false,
                references: Vec::new(),
            })
            .collect(),
        children: Vec::new(),
        repeated: false,
        truncated: false,
    }]
}

//! `tree`: the hierarchy with policies hung on the nodes they attach to; after it, the
//! policies that attach nowhere.

use super::*;
use crate::topology::{LevelId, PolicyReference};

/// One line of `tree`: a node, the policies attached to it, and its children.
#[derive(Clone, Debug, Serialize)]
pub struct TreeNode {
    #[serde(rename = "ref")]
    pub obj_ref: ObjRef,
    /// The status of one policy at this node, in a tree drawn for that policy
    /// (`describe POLICY -o tree`); for an unresolved target, why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) status: Option<PolicyStatus>,
    pub policies: Vec<TreePolicy>,
    pub children: Vec<TreeNode>,
    /// Shown once already elsewhere in this tree (a DAG node with several parents).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) repeated: bool,
    /// It has children, left out: the tree is `MAX_DEPTH` levels deep here.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// The most levels a tree is drawn to. A hierarchy is about ten levels deep
/// (GatewayClass, Gateway, ListenerSet, listener, route, rule, backend, port, and a
/// few delegations); deeper comes only from references that chain routes to routes,
/// and drawing, writing and freeing a tree each take one call per level.
pub const MAX_DEPTH: usize = 64;

/// A policy hung on a node of a tree, with its status (and whether it hangs there
/// through the node's namespace).
#[derive(Clone, Debug, Serialize)]
pub struct TreePolicy {
    pub policy: ObjRef,
    pub(crate) status: PolicyStatus,
    /// What controllers say of its current generation (`Reported`): where it refuses
    /// the policy, STATUS shows that (`shown_status`), as `get` does.
    #[serde(skip_serializing_if = "Reported::is_none")]
    pub(crate) reported: Option<Reported>,
    #[serde(rename = "viaNamespace", skip_serializing_if = "std::ops::Not::not")]
    pub(crate) via_namespace: bool,
    /// The objects its spec names besides its targets (`Topology::references_of`): the
    /// edges of what it depends on, drawn under it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) references: Vec<PolicyReference>,
}

/// The hierarchy from `root` (or every root in scope) down, policies hung on nodes.
pub fn tree(world: &World, root: Option<NodeId>, namespace: Option<&str>) -> Vec<TreeNode> {
    let topology = &world.topology;
    let scope = nodes_in_scope(topology, namespace);
    let scope = scope.as_deref();
    let roots: Vec<NodeId> = match root {
        Some(r) => vec![r],
        None => {
            let mut r: Vec<NodeId> = topology
                .roots()
                .into_iter()
                .filter(|&node| scope.is_none_or(|s| s[node]))
                .collect();
            r.sort_by(|a, b| role_then_ref(topology, *a, *b));
            r
        }
    };
    let entries = namespace_entries(topology);
    let view = TreeView {
        child: &|node, c| match topology.node(c).owner == Some(node) {
            // A backend's port no route sends traffic to, with no policy of its own,
            // is left out (traffic reaches only the ports backendRefs name).
            true => topology.node(c).role != Role::Port || topology.port_shown(node, c),
            false => scope.is_none_or(|s| s[c]),
        },
        policy: &|p| Some(world.statuses().overall[p]),
        status: &|_| None,
        ns_entries: &entries,
    };
    let mut forest = view.forest(world, roots);
    if root.is_none() {
        forest.extend(unattached(world, namespace));
    }
    forest
}

/// The policies in scope that attach nowhere, apart after the hierarchy, each under
/// the target it names (with why it did not attach), so `tree` hides none of them.
fn unattached(world: &World, namespace: Option<&str>) -> Vec<TreeNode> {
    let topology = &world.topology;
    let mut by_target: BTreeMap<ObjRef, TreeNode> = BTreeMap::new();
    for (p, pol) in topology.each_policy() {
        let attached = pol.rejected.is_none()
            && topology
                .targets_of(p)
                .iter()
                .any(|r| !matches!(r.resolution, Resolution::NotFound(_)));
        let in_scope = namespace.is_none_or(|ns| pol.obj_ref.namespace.as_deref() == Some(ns));
        if attached || !in_scope {
            continue;
        }
        let status = world.statuses().overall[p];
        let mut targets: Vec<(ObjRef, PolicyStatus)> = topology
            .targets_of(p)
            .iter()
            .map(|r| match r.resolution {
                Resolution::NotFound(code) => (r.target.clone(), unresolved_status(code)),
                _ => (r.target.clone(), status),
            })
            .collect();
        if targets.is_empty() {
            // Bound by a workload selector, named by no object's annotation (Kong), or
            // naming nothing readable.
            let ns = pol.obj_ref.namespace.as_deref();
            let by_annotation = {
                let k = topology.catalog().kind_of(&pol.kind);
                k.entry
                    .targeting
                    .target_annotation
                    .zip(k.entry.target_kinds.first())
            }
            .map(|(annotation, kind)| {
                (
                    kind.to_string(),
                    format!("(no {annotation} annotation names it)"),
                )
            });
            let r = match (&pol.workload_selector, by_annotation) {
                (Some(selector), _) => ObjRef::new("", "Workloads", ns, selector),
                (None, Some((kind, none))) => ObjRef::new("", &kind, ns, &none),
                (None, None) => ObjRef::new("", "Workloads", ns, "no target"),
            };
            targets.push((r, status));
        }
        for (target, why) in targets {
            let node = by_target.entry(target.clone()).or_insert_with(|| TreeNode {
                obj_ref: target,
                status: Some(why),
                policies: Vec::new(),
                children: Vec::new(),
                repeated: false,
                truncated: false,
            });
            node.policies.push(TreePolicy {
                policy: pol.obj_ref.clone(),
                status,
                reported: reported_word(topology, p),
                via_namespace: false,
                references: topology.references_of(p).to_vec(),
            });
        }
    }
    by_target.into_values().collect()
}

pub fn role_then_ref(topology: &Topology, a: NodeId, b: NodeId) -> std::cmp::Ordering {
    (topology.node(a).role, &topology.node(a).obj_ref)
        .cmp(&(topology.node(b).role, &topology.node(b).obj_ref))
}

/// The nodes in scope of `-n ns` (none: every node): a node is when it or anything
/// below it lives in ns. One walk up from the nodes of ns, not one walk down per node.
pub fn nodes_in_scope(topology: &Topology, namespace: Option<&str>) -> Option<Vec<bool>> {
    let ns = namespace?;
    let mut in_scope = vec![false; topology.nodes().len()];
    let mut stack: Vec<NodeId> = NodeId::all(topology.nodes().len())
        .filter(|&node| topology.node(node).obj_ref.namespace.as_deref() == Some(ns))
        .collect();
    while let Some(node) = stack.pop() {
        if !std::mem::replace(&mut in_scope[node], true) {
            stack.extend(topology.node(node).parents.iter().copied());
        }
    }
    Some(in_scope)
}

/// The nodes a namespace-level policy hangs on: those at which some path down from a
/// root first enters the namespace (as the fold enters a namespace level: the first
/// object of the namespace on the way down, sections not counted). A property of the
/// node, not of the drawing, so a policy sits at the same place in `tree -A`,
/// `tree TYPE/NAME` and `describe -o tree`. Only namespaces with such policies are
/// looked at, each by one walk up from its objects and one walk down from the roots
/// among their ancestors (a Gateway's few nodes, not the whole topology).
pub fn namespace_entries(topology: &Topology) -> Vec<bool> {
    let len = topology.nodes().len();
    let mut entry = vec![false; len];
    let mut wanted = vec![false; topology.skeleton().levels()];
    let mut levels: Vec<LevelId> = Vec::new();
    for (ns, policies) in topology.namespace_attachments() {
        if let Some(level) = topology
            .skeleton()
            .level_of(ns)
            .filter(|_| !policies.is_empty())
        {
            wanted[level as usize] = true;
            levels.push(level);
        }
    }
    if levels.is_empty() {
        return entry;
    }
    let mut members: Vec<Vec<NodeId>> = vec![Vec::new(); wanted.len()];
    for node in NodeId::all(len) {
        if let Some(level) = topology
            .skeleton()
            .level(node)
            .filter(|&l| wanted[l as usize])
        {
            members[level as usize].push(node);
        }
    }
    // Marks stamped with the level's turn, so no list is cleared between levels.
    let mut above = vec![0u32; len];
    let mut free = vec![0u32; len];
    for (turn, &level) in levels.iter().enumerate() {
        let stamp = turn as u32 + 1;
        let outside = |node: NodeId| topology.skeleton().level(node) != Some(level);
        // Up: the ancestors of the namespace's objects reached without passing through it.
        let mut stack: Vec<NodeId> = Vec::new();
        let mut tops: Vec<NodeId> = Vec::new();
        let mut push_up = |from: NodeId, stack: &mut Vec<NodeId>, tops: &mut Vec<NodeId>| {
            for &p in &topology.node(from).parents {
                if outside(p) && std::mem::replace(&mut above[p], stamp) != stamp {
                    stack.push(p);
                    if topology.node(p).parents.is_empty() {
                        tops.push(p);
                    }
                }
            }
        };
        for &node in &members[level as usize] {
            push_up(node, &mut stack, &mut tops);
        }
        while let Some(q) = stack.pop() {
            push_up(q, &mut stack, &mut tops);
        }
        // Down from the roots among them: the ancestors some path reaches from a root
        // without entering the namespace.
        for &r in &tops {
            free[r] = stamp;
        }
        while let Some(q) = tops.pop() {
            for &c in &topology.node(q).children {
                if above[c] == stamp && std::mem::replace(&mut free[c], stamp) != stamp {
                    tops.push(c);
                }
            }
        }
        for &node in &members[level as usize] {
            let parents = &topology.node(node).parents;
            entry[node] = parents.is_empty() || parents.iter().any(|&p| free[p] == stamp);
        }
    }
    entry
}

/// What one drawing of the hierarchy shows: which children to go down into (given
/// the parent), which policies to hang on a node and with what status, and a status
/// for the node itself.
pub struct TreeView<'a> {
    pub(crate) child: &'a dyn Fn(NodeId, NodeId) -> bool,
    pub(crate) policy: &'a dyn Fn(PolicyId) -> Option<PolicyStatus>,
    pub(crate) status: &'a dyn Fn(NodeId) -> Option<PolicyStatus>,
    /// Where namespace-level policies hang ([`namespace_entries`]).
    pub(crate) ns_entries: &'a [bool],
}

impl TreeView<'_> {
    /// Each root drawn down; a node reached twice is expanded the first time only.
    pub(crate) fn forest(&self, world: &World, roots: Vec<NodeId>) -> Vec<TreeNode> {
        let mut expanded = vec![false; world.topology.nodes().len()];
        roots
            .into_iter()
            .map(|r| self.node(world, r, &mut expanded, 0))
            .collect()
    }

    pub(crate) fn node(
        &self,
        world: &World,
        id: NodeId,
        expanded: &mut Vec<bool>,
        depth: usize,
    ) -> TreeNode {
        let topology = &world.topology;
        let node = topology.node(id);
        let hang = |p: PolicyId, via_namespace: bool| {
            (self.policy)(p).map(|status| TreePolicy {
                policy: topology.policy(p).obj_ref.clone(),
                status,
                reported: reported_word(topology, p),
                via_namespace,
                references: topology.references_of(p).to_vec(),
            })
        };
        let mut policies: Vec<TreePolicy> = topology
            .attached_to(id)
            .iter()
            .filter_map(|&p| hang(p, false))
            .collect();
        // Namespace-level policies hang where a path down enters their namespace.
        if let Some(ns) = topology.namespace_level(id).filter(|_| self.ns_entries[id]) {
            policies.extend(
                topology
                    .attached_to_namespace(ns)
                    .iter()
                    .filter_map(|&p| hang(p, true)),
            );
        }
        let mut kids: Vec<NodeId> = node
            .children
            .iter()
            .copied()
            .filter(|&c| (self.child)(id, c))
            .collect();
        let truncated = depth + 1 >= MAX_DEPTH && !kids.is_empty();
        let repeated = !truncated && std::mem::replace(&mut expanded[id], true) && !kids.is_empty();
        if repeated || truncated {
            kids.clear();
        }
        kids.sort_by(|a, b| role_then_ref(topology, *a, *b));
        let children = kids
            .into_iter()
            .map(|c| self.node(world, c, expanded, depth + 1))
            .collect();
        TreeNode {
            obj_ref: node.obj_ref.clone(),
            status: (self.status)(id),
            policies,
            children,
            repeated,
            truncated,
        }
    }
}

//! `tree`: the hierarchy with policies hung on the nodes they attach to; after it, the
//! policies that attach nowhere.

use super::*;

/// One line of `tree`: a node, the policies attached to it, and its children.
#[derive(Clone, Debug, Serialize)]
pub struct TreeNode {
    #[serde(rename = "ref")]
    pub obj_ref: ObjRef,
    /// The status of one policy at this node, in a tree drawn for that policy
    /// (`describe POLICY -o tree`); for an unresolved target, why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<PolicyStatus>,
    pub policies: Vec<TreePolicy>,
    pub children: Vec<TreeNode>,
    /// Shown once already elsewhere in this tree (a DAG node with several parents).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub repeated: bool,
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
    pub status: PolicyStatus,
    #[serde(rename = "viaNamespace", skip_serializing_if = "std::ops::Not::not")]
    pub via_namespace: bool,
}

/// The hierarchy from `root` (or every root in scope) down, policies hung on nodes.
pub fn tree(w: &World, root: Option<NodeId>, namespace: Option<&str>) -> Vec<TreeNode> {
    let t = &w.topology;
    let scope = nodes_in_scope(t, namespace);
    let scope = scope.as_deref();
    let roots: Vec<NodeId> = match root {
        Some(r) => vec![r],
        None => {
            let mut r: Vec<NodeId> = t
                .roots()
                .into_iter()
                .filter(|&n| scope.is_none_or(|s| s[n]))
                .collect();
            r.sort_by(|a, b| role_then_ref(t, *a, *b));
            r
        }
    };
    let view = TreeView {
        child: &|n, c| t.nodes[c].owner == Some(n) || scope.is_none_or(|s| s[c]),
        policy: &|p| Some(w.statuses.overall[p]),
        status: &|_| None,
    };
    let mut forest = view.forest(w, roots);
    if root.is_none() {
        forest.extend(unattached(w, namespace));
    }
    forest
}

/// The policies in scope that attach nowhere, apart after the hierarchy, each under
/// the target it names (with why it did not attach), so `tree` hides none of them.
fn unattached(w: &World, namespace: Option<&str>) -> Vec<TreeNode> {
    let t = &w.topology;
    let mut by_target: BTreeMap<ObjRef, TreeNode> = BTreeMap::new();
    for (p, pol) in t.each_policy() {
        let attached = pol.rejected.is_none()
            && t.targets[p]
                .iter()
                .any(|r| !matches!(r.resolution, Resolution::NotFound(_)));
        let in_scope = namespace.is_none_or(|ns| pol.obj_ref.namespace.as_deref() == Some(ns));
        if attached || !in_scope {
            continue;
        }
        let status = w.statuses.overall[p];
        let mut targets: Vec<(ObjRef, PolicyStatus)> = t.targets[p]
            .iter()
            .map(|r| match r.resolution {
                Resolution::NotFound(code) => (r.target.clone(), unresolved_status(code)),
                _ => (r.target.clone(), status),
            })
            .collect();
        if targets.is_empty() {
            // Bound by a workload selector, or naming nothing readable.
            let what = pol.workload_selector.as_deref().unwrap_or("no target");
            let r = ObjRef::new("", "Workloads", pol.obj_ref.namespace.as_deref(), what);
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
                via_namespace: false,
            });
        }
    }
    by_target.into_values().collect()
}

pub(crate) fn role_then_ref(t: &Topology, a: NodeId, b: NodeId) -> std::cmp::Ordering {
    (t.nodes[a].role, &t.nodes[a].obj_ref).cmp(&(t.nodes[b].role, &t.nodes[b].obj_ref))
}

/// The nodes in scope of `-n ns` (none: every node): a node is when it or anything
/// below it lives in ns. One walk up from the nodes of ns, not one walk down per node.
pub(crate) fn nodes_in_scope(t: &Topology, namespace: Option<&str>) -> Option<Vec<bool>> {
    let ns = namespace?;
    let mut in_scope = vec![false; t.nodes.len()];
    let mut stack: Vec<NodeId> = NodeId::all(t.nodes.len())
        .filter(|&n| t.nodes[n].obj_ref.namespace.as_deref() == Some(ns))
        .collect();
    while let Some(n) = stack.pop() {
        if !std::mem::replace(&mut in_scope[n], true) {
            stack.extend(t.nodes[n].parents.iter().copied());
        }
    }
    Some(in_scope)
}

/// What one drawing of the hierarchy shows: which children to go down into (given
/// the parent), which policies to hang on a node and with what status, and a status
/// for the node itself.
pub(crate) struct TreeView<'a> {
    pub(crate) child: &'a dyn Fn(NodeId, NodeId) -> bool,
    pub(crate) policy: &'a dyn Fn(PolicyId) -> Option<PolicyStatus>,
    pub(crate) status: &'a dyn Fn(NodeId) -> Option<PolicyStatus>,
}

impl TreeView<'_> {
    /// Each root drawn down; a node reached twice is expanded the first time only.
    pub(crate) fn forest(&self, w: &World, roots: Vec<NodeId>) -> Vec<TreeNode> {
        let mut expanded = vec![false; w.topology.nodes.len()];
        roots
            .into_iter()
            .map(|r| self.node(w, r, &mut expanded, None, 0))
            .collect()
    }

    pub(crate) fn node(
        &self,
        w: &World,
        n: NodeId,
        expanded: &mut Vec<bool>,
        parent_ns: Option<&str>,
        depth: usize,
    ) -> TreeNode {
        let t = &w.topology;
        let node = &t.nodes[n];
        let hang = |p: PolicyId, via_namespace: bool| {
            (self.policy)(p).map(|status| TreePolicy {
                policy: t.policies[p].obj_ref.clone(),
                status,
                via_namespace,
            })
        };
        let mut policies: Vec<TreePolicy> = t.attached[n]
            .iter()
            .filter_map(|&p| hang(p, false))
            .collect();
        // Namespace-level policies hang on the first object of that namespace on the way down.
        if let Some(ns) = t.namespace_level(n) {
            if parent_ns != Some(ns) {
                policies.extend(
                    t.ns_attached
                        .get(ns)
                        .into_iter()
                        .flatten()
                        .filter_map(|&p| hang(p, true)),
                );
            }
        }
        let mut kids: Vec<NodeId> = node
            .children
            .iter()
            .copied()
            .filter(|&c| (self.child)(n, c))
            .collect();
        let truncated = depth + 1 >= MAX_DEPTH && !kids.is_empty();
        let repeated = !truncated && std::mem::replace(&mut expanded[n], true) && !kids.is_empty();
        if repeated || truncated {
            kids.clear();
        }
        kids.sort_by(|a, b| role_then_ref(t, *a, *b));
        let here_ns = node.obj_ref.namespace.as_deref().or(parent_ns);
        let children = kids
            .into_iter()
            .map(|c| self.node(w, c, expanded, here_ns, depth + 1))
            .collect();
        TreeNode {
            obj_ref: node.obj_ref.clone(),
            status: (self.status)(n),
            policies,
            children,
            repeated,
            truncated,
        }
    }
}

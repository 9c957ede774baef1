//! `graph`: the hierarchy and the policies on it as nodes and edges, whole (in a
//! namespace scope) or around one object. The renderer only draws what this selects.

use super::{nodes_in_scope, role_then_ref, unresolved_status, World};
use crate::effective::PolicyStatus;
use crate::model::ObjRef;
use crate::topology::{NodeId, PolicyId, RefReason, Resolution, Role, Topology};
use std::collections::{BTreeSet, HashMap};

/// What a node of the picture stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GraphNodeKind {
    /// An object or a section of the hierarchy.
    Object(Role),
    /// The namespace level a Namespace-targeted policy attaches to.
    Namespace,
    /// A target a policy names that did not resolve, and what that means for it.
    Unresolved(PolicyStatus),
    /// An object a policy's spec names besides its targets (a Secret, a ConfigMap, a
    /// Service outside the picture), and whether it is missing (does not resolve, for a
    /// reason other than that the input does not say).
    Referenced(bool),
}

/// A node of the picture: an object or section, a namespace level, or a target that
/// does not resolve.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphNode {
    pub obj_ref: ObjRef,
    pub(crate) kind: GraphNodeKind,
    /// The namespace it is drawn in (None: cluster-scoped).
    pub(crate) namespace: Option<String>,
}

/// A policy in the picture, with the nodes it attaches to and its status.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GraphPolicy {
    pub(crate) policy: ObjRef,
    pub(crate) status: PolicyStatus,
    /// Indices into `Graph::nodes`.
    pub(crate) targets: Vec<usize>,
    /// What its spec names besides its targets: an edge of its own kind each.
    pub(crate) references: Vec<GraphReference>,
}

/// An edge from a policy to an object its spec names (`Topology::references_of`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GraphReference {
    /// Index into `Graph::nodes`: the object drawn, or a node of its own.
    pub(crate) node: usize,
    /// The field, as a JSON pointer.
    pub(crate) path: String,
    /// Why it does not resolve, where it does not.
    pub(crate) reason: Option<RefReason>,
}

/// `graph`: what the picture holds; the renderers only draw it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graph {
    /// Objects first, sorted by role then reference; then namespace levels and
    /// unresolved targets in the order the policies name them.
    pub nodes: Vec<GraphNode>,
    /// Parent → child, as indices into `nodes`, sorted.
    pub(crate) edges: Vec<(usize, usize)>,
    /// A namespace level → the first objects of that namespace below it (GEP-713: the
    /// level sits above the first object of its namespace on every path), sorted.
    pub(crate) levels: Vec<(usize, usize)>,
    /// Sorted by reference.
    pub(crate) policies: Vec<GraphPolicy>,
}

impl Graph {
    /// The namespaces drawn, sorted.
    pub fn namespaces(&self) -> Vec<&str> {
        let set: BTreeSet<&str> = self
            .nodes
            .iter()
            .filter_map(|n| n.namespace.as_deref())
            .chain(
                self.policies
                    .iter()
                    .filter_map(|p| p.policy.namespace.as_deref()),
            )
            .collect();
        set.into_iter().collect()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty() && self.policies.is_empty()
    }
}

/// `focus`: that object's ancestors, itself and its descendants, with the policies
/// attached to any of them (Namespace-targeted ones included). Otherwise everything in
/// scope of `namespace` (None: all), as `tree` selects it, plus every policy of that
/// scope, dangling ones included.
pub fn graph(world: &World, focus: Option<NodeId>, namespace: Option<&str>) -> Graph {
    let keep = kept(&world.topology, focus, namespace);
    let scope = focus.is_none().then_some(namespace);
    drawn(world, keep, scope, &[])
}

/// `nodes` and their ancestors, with the policies attached to any of them, and the
/// `policies` wherever they attach (or do not): the part of the hierarchy a change
/// touches (`diff -o markdown`).
pub(crate) fn around(world: &World, nodes: &[NodeId], policies: &[ObjRef]) -> Graph {
    let topology = &world.topology;
    let mut keep = vec![false; topology.nodes().len()];
    for &node in nodes {
        keep[node] = true;
        for m in topology.ancestors(node) {
            keep[m] = true;
        }
    }
    drawn(world, keep, None, policies)
}

/// The picture of the objects `keep` marks, with the policies attached to them; with
/// a `scope` (a namespace, or all of them), every policy of that scope as well, and
/// the policies named in `also`.
fn drawn(world: &World, keep: Vec<bool>, scope: Option<Option<&str>>, also: &[ObjRef]) -> Graph {
    let topology = &world.topology;
    let mut ids: Vec<NodeId> = NodeId::all(topology.nodes().len())
        .filter(|&node| keep[node])
        .collect();
    ids.sort_by(|a, b| role_then_ref(topology, *a, *b));
    let (mut picture, index) = objects(topology, &ids);
    let drawn_namespaces: BTreeSet<&str> = ids
        .iter()
        .filter_map(|&node| topology.namespace_level(node))
        .collect();
    let mut order: Vec<PolicyId> = PolicyId::all(topology.policies().len()).collect();
    order.sort_by(|&a, &b| topology.policy(a).obj_ref.cmp(&topology.policy(b).obj_ref));
    // Namespace levels and unresolved targets, shared by the policies that name them.
    let mut extra: HashMap<(ObjRef, bool), usize> = HashMap::new();
    // The objects policies' specs name that the picture does not hold otherwise.
    let mut named: HashMap<ObjRef, usize> = HashMap::new();
    for p in order {
        let pol = topology.policy(p);
        let attached = topology.targets_of(p).iter().any(|r| match &r.resolution {
            Resolution::Node(node) => keep[*node],
            Resolution::Namespace(ns) => drawn_namespaces.contains(ns.as_str()),
            Resolution::NotFound(_) => false,
        });
        let of_scope = scope.is_some_and(|namespace| {
            namespace.is_none() || pol.obj_ref.namespace.as_deref() == namespace
        });
        if !attached && !of_scope && !also.contains(&pol.obj_ref) {
            continue;
        }
        let targets = policy_targets(topology, p, &index, &mut extra, &mut picture);
        let references = policy_references(topology, p, &index, &mut named, &mut picture);
        picture.policies.push(GraphPolicy {
            policy: pol.obj_ref.clone(),
            status: world.statuses().overall[p],
            targets,
            references,
        });
    }
    picture.levels = namespace_levels(topology, &picture, &ids, &index);
    picture
}

/// Which objects the picture holds: around `focus` (its ancestors, itself and its
/// descendants), else everything in scope of `namespace` with its sections; of a
/// backend's ports, those traffic reaches.
fn kept(topology: &Topology, focus: Option<NodeId>, namespace: Option<&str>) -> Vec<bool> {
    let mut keep = match focus {
        Some(node) => {
            let mut keep = vec![false; topology.nodes().len()];
            keep[node] = true;
            for m in topology
                .ancestors(node)
                .into_iter()
                .chain(topology.descendants(node))
            {
                keep[m] = true;
            }
            keep
        }
        None => {
            let mut keep = nodes_in_scope(topology, namespace)
                .unwrap_or_else(|| vec![true; topology.nodes().len()]);
            // A kept object shows all its sections, as `tree` does.
            for node in NodeId::all(topology.nodes().len()) {
                if topology.node(node).owner.is_some_and(|o| keep[o]) {
                    keep[node] = true;
                }
            }
            keep
        }
    };
    // A backend's port no route sends traffic to, with no policy of its own, is left
    // out, as `tree` leaves it out (traffic reaches only the ports backendRefs name).
    for id in NodeId::all(topology.nodes().len()) {
        let node = topology.node(id);
        if let (true, Role::Port, Some(backend)) = (keep[id], node.role, node.owner) {
            keep[id] = Some(id) == focus || topology.port_shown(backend, id);
        }
    }
    keep
}

/// The objects `ids` as the picture's first nodes, with the edges among them; and where
/// each object is among the nodes.
fn objects(topology: &Topology, ids: &[NodeId]) -> (Graph, HashMap<NodeId, usize>) {
    let mut picture = Graph::default();
    let mut index: HashMap<NodeId, usize> = HashMap::new();
    for &node in ids {
        index.insert(node, picture.nodes.len());
        let r = &topology.node(node).obj_ref;
        picture.nodes.push(GraphNode {
            obj_ref: r.clone(),
            kind: GraphNodeKind::Object(topology.node(node).role),
            namespace: r.namespace.as_deref().map(str::to_string),
        });
    }
    for &node in ids {
        for c in &topology.node(node).children {
            if let Some(&ci) = index.get(c) {
                picture.edges.push((index[&node], ci));
            }
        }
    }
    picture.edges.sort_unstable();
    picture.edges.dedup();
    (picture, index)
}

/// The edges of what `policy`'s spec names: to the object where the picture holds it,
/// else to a node of its own (made once, shared through `named`).
fn policy_references(
    topology: &Topology,
    policy: PolicyId,
    index: &HashMap<NodeId, usize>,
    named: &mut HashMap<ObjRef, usize>,
    picture: &mut Graph,
) -> Vec<GraphReference> {
    let mut out = Vec::new();
    for r in topology.references_of(policy) {
        let object = r.target.object();
        let drawn = topology
            .lookup(&object)
            .and_then(|n| index.get(&n))
            .copied();
        let node = drawn.unwrap_or_else(|| {
            *named.entry(object.clone()).or_insert_with(|| {
                picture.nodes.push(GraphNode {
                    namespace: object.namespace.as_deref().map(str::to_string),
                    obj_ref: object,
                    kind: GraphNodeKind::Referenced(!matches!(
                        r.reason,
                        None | Some(RefReason::Unchecked)
                    )),
                });
                picture.nodes.len() - 1
            })
        });
        out.push(GraphReference {
            node,
            path: r.path.clone(),
            reason: r.reason,
        });
    }
    out
}

/// The picture's nodes `policy` points at: its drawn targets, and a node for each
/// namespace level or unresolved target it names (made once, shared through `extra`).
fn policy_targets(
    topology: &Topology,
    policy: PolicyId,
    index: &HashMap<NodeId, usize>,
    extra: &mut HashMap<(ObjRef, bool), usize>,
    picture: &mut Graph,
) -> Vec<usize> {
    let mut targets = Vec::new();
    for r in topology.targets_of(policy) {
        let (key, kind, ns) = match &r.resolution {
            Resolution::Node(node) => {
                // Outside the picture: drawing it would widen the picture.
                if let Some(&i) = index.get(node) {
                    targets.push(i);
                }
                continue;
            }
            Resolution::Namespace(ns) => (
                (ObjRef::new("", "Namespace", None, ns), true),
                GraphNodeKind::Namespace,
                Some(ns.clone()),
            ),
            Resolution::NotFound(code) => (
                (r.target.clone(), false),
                GraphNodeKind::Unresolved(unresolved_status(*code)),
                r.target.namespace.as_deref().map(str::to_string),
            ),
        };
        let i = *extra.entry(key.clone()).or_insert_with(|| {
            picture.nodes.push(GraphNode {
                obj_ref: key.0,
                kind,
                namespace: ns,
            });
            picture.nodes.len() - 1
        });
        targets.push(i);
    }
    targets.sort_unstable();
    targets.dedup();
    targets
}

/// Each namespace level drawn, linked to the first objects of its namespace (those no
/// parent of the same namespace leads to).
fn namespace_levels(
    topology: &Topology,
    picture: &Graph,
    ids: &[NodeId],
    index: &HashMap<NodeId, usize>,
) -> Vec<(usize, usize)> {
    let mut levels = Vec::new();
    for (i, level) in picture.nodes.iter().enumerate() {
        if level.kind != GraphNodeKind::Namespace {
            continue;
        }
        let ns = level.namespace.as_deref();
        for &id in ids {
            let node = topology.node(id);
            let first = !node.is_section()
                && node.obj_ref.namespace.as_deref() == ns
                && !node
                    .parents
                    .iter()
                    .any(|&q| topology.node(q).obj_ref.namespace.as_deref() == ns);
            if first {
                levels.push((i, index[&id]));
            }
        }
    }
    levels.sort_unstable();
    levels
}

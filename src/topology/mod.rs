//! The hierarchy (GEP-713 §"Hierarchy of target kinds"): a DAG of targetables with
//! sections (listeners, rules, ports) as their own nodes, parents and children
//! indexed both ways, and every policy attached to the nodes its targets resolve to.

mod annotation;
mod build;
mod cycles;
pub mod findings;
mod index;
mod ports;
mod skeleton;

pub use findings::{Code, Finding, Severity};

impl Topology {
    /// The references policy `pid` names besides its targets, as they resolved.
    pub fn references_of(&self, pid: PolicyId) -> &[PolicyReference] {
        self.references.get(pid.index()).map_or(&[], Vec::as_slice)
    }
}
pub use index::{RefIndex, RefKey, Slot};
pub use skeleton::{LevelId, Skeleton};

use crate::catalog::policy::Policy;
use crate::catalog::{Catalog, PolicyKind};
use crate::model::{FastMap, ObjRef, ObjectId};
use crate::model::{Held, Snapshot};
use std::collections::{BTreeMap, HashSet};

/// A node of the hierarchy: an index into `Topology::nodes` (and every per-node list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct NodeId(pub u32);

/// A policy: an index into `Topology::policies` (and every per-policy list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct PolicyId(pub u32);

crate::model::index_type!(NodeId);
crate::model::index_type!(PolicyId);

/// A Direct policy (or one of a kind that conflicts) that loses to another on a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Conflict {
    pub loser: PolicyId,
    pub winner: PolicyId,
    /// The node they both attach to.
    pub at: NodeId,
}

/// What a node stands for; the order is the order of specificity in GEP-713's hierarchy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// A Namespace as the target of a Direct policy (it affects the Namespace itself;
    /// an inherited policy on a Namespace applies at its level above each object).
    Namespace,
    GatewayClass,
    Gateway,
    ListenerSet,
    Listener,
    Route,
    Rule,
    Backend,
    Port,
    /// A Pod a policy picks by label (GKE), below the Services that select it: in the
    /// hierarchy only when a policy picks it.
    Pod,
}

impl Role {
    pub(crate) fn is_section(self) -> bool {
        matches!(self, Role::Listener | Role::Rule | Role::Port)
    }

    /// A backend, one of its ports or its Pods: the upstream side of the proxy.
    pub fn is_backend_side(self) -> bool {
        match self {
            Role::Backend | Role::Port | Role::Pod => true,
            Role::Namespace
            | Role::GatewayClass
            | Role::Gateway
            | Role::ListenerSet
            | Role::Listener
            | Role::Route
            | Role::Rule => false,
        }
    }
}

/// One node of the hierarchy: an object, or a section of one (a listener, a rule, a
/// port), with its parents and children.
#[derive(Clone, Debug)]
pub struct Node {
    pub obj_ref: ObjRef,
    pub role: Role,
    /// Index in the snapshot's objects (sections: their object's).
    pub object: Option<ObjectId>,
    /// For a section, the node of the object it belongs to.
    pub owner: Option<NodeId>,
    pub parents: Edges,
    pub children: Edges,
}

/// A node's parents or children: up to four held in the node itself (most nodes have
/// one parent and few children), more on the heap.
pub type Edges = smallvec::SmallVec<[NodeId; 4]>;

impl Node {
    pub(crate) fn is_section(&self) -> bool {
        self.role.is_section()
    }

    /// The namespace whose level sits above this node, if it is a namespaced object
    /// (sections share their object's level).
    pub(crate) fn namespace_level(&self) -> Option<&str> {
        match self.is_section() {
            true => None,
            false => self.obj_ref.namespace.as_deref(),
        }
    }
}

/// One object a policy's spec names besides its targets (its kind's `references`),
/// and whether it resolved: docs/reference.md's `references` of `describe POLICY`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PolicyReference {
    /// The JSON pointer to the reference (`/spec/extAuth/http/backendRef`).
    pub path: String,
    /// The object it names; `sectionName` is the port it names.
    #[serde(rename = "ref")]
    pub target: ObjRef,
    /// Whether it names an object that exists (where it may, as its kind allows).
    pub resolved: bool,
    /// Why not, when not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<RefReason>,
    /// Index of its field among the kind's reference fields (`RefField`).
    #[serde(skip)]
    pub field: usize,
}

/// Why a policy's reference does not resolve, or was not checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum RefReason {
    /// No such object.
    NotFound,
    /// The object has no such port.
    PortNotFound,
    /// In another namespace, where the kind refuses one or no ReferenceGrant allows it.
    RefNotPermitted,
    /// A kind the field may not name.
    InvalidKind,
    /// An object its controller refuses to be named, for its `spec.type` (an
    /// ExternalName Service, for Envoy Gateway: `RefusedReferent`).
    UnsupportedType,
    /// The source did not list that kind there: not known.
    Unchecked,
}

impl PolicyReference {
    /// `/spec/…: names service/ns/auth#8080, which does not exist (NotFound)`.
    pub fn describe(&self) -> String {
        let why = match self.reason {
            None => "which resolves",
            Some(RefReason::NotFound) => "which does not exist (NotFound)",
            Some(RefReason::PortNotFound) if self.target.section.is_none() => {
                "but no port of it, which the field must name (PortNotFound)"
            }
            Some(RefReason::PortNotFound) => "a port the object does not have (PortNotFound)",
            Some(RefReason::RefNotPermitted) => {
                "in another namespace, which no ReferenceGrant allows (RefNotPermitted)"
            }
            Some(RefReason::InvalidKind) => "a kind the field may not name (InvalidKind)",
            Some(RefReason::UnsupportedType) => {
                "whose type its controller refuses to be named (UnsupportedType)"
            }
            Some(RefReason::Unchecked) => "which the input does not say exists or not (Unchecked)",
        };
        format!("{}: names {}, {why}", self.path, self.target)
    }
}

/// How one target entry of a policy resolved.
#[derive(Clone, Debug)]
pub struct ResolvedTarget {
    /// The reference as written (for selectors: each object the selector matched).
    pub target: ObjRef,
    pub resolution: Resolution,
}

/// What one target of a policy resolved to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    Node(NodeId),
    /// A Namespace target: the namespace level of every object in it.
    Namespace(String),
    NotFound(Code),
}

/// A namespace the input knows of (from a Namespace object or from the objects in it).
#[derive(Clone, Debug, Default)]
pub struct NamespaceInfo {
    pub labels: BTreeMap<String, String>,
    /// There is a Namespace object for it (not just objects inside it).
    pub has_object: bool,
}

/// The hierarchy a snapshot makes (GEP-713's DAG of targetables), the policies read
/// from it and where each attaches, and the findings: what every later stage reads.
#[derive(Debug, Default)]
pub struct Topology {
    /// What it was built from, as a topology holds it: never built again from here
    /// (`Held`; `query::Rebuildable` makes a `Snapshot` of it again).
    pub snapshot: Held,
    pub catalog: Catalog,
    pub nodes: Vec<Node>,
    pub index: RefIndex,
    pub namespaces: BTreeMap<String, NamespaceInfo>,
    pub policies: Vec<Policy>,
    pub policy_index: FastMap<ObjRef, PolicyId>,
    /// Per policy, how each of its targets resolved.
    pub targets: Vec<Vec<ResolvedTarget>>,
    /// Per node, the policies attached to it directly (sorted: oldest first, then namespace/name).
    pub attached: Vec<Vec<PolicyId>>,
    /// Per namespace, the policies that target the Namespace.
    pub ns_attached: BTreeMap<String, Vec<PolicyId>>,
    /// Per edge from a rule to a backend whose backendRefs name a port: the port
    /// sections they name (traffic reaches only those). An edge not here, or one
    /// of whose backendRefs names no port, reaches every port. Held in place up to
    /// two (a large cluster has an edge like this per route rule, mostly naming one).
    pub backend_ports: FastMap<(NodeId, NodeId), smallvec::SmallVec<[NodeId; 2]>>,
    /// Per node, how traffic reaches it if it is a backend's port (`PortTraffic`), told
    /// once from `backend_ports`: every fold asks it of every port.
    pub port_traffic: Vec<PortTraffic>,
    /// Nodes that exist only because a policy targets them (a kind outside the
    /// hierarchy, such as an Istio ServiceEntry), in node order.
    pub target_only: Vec<NodeId>,
    pub findings: Vec<Finding>,
    /// Per policy (by `PolicyId` index), the objects its spec names besides its
    /// targets and how each resolved; empty for one that names none (the list may be
    /// shorter than the policies: those past its end name none).
    pub references: Vec<Vec<PolicyReference>>,
    /// The nodes' edges, owners and namespace levels in compact form, made once the
    /// nodes are final: what the walks over every node read.
    pub skeleton: Skeleton,
}

/// How traffic reaches a port of a backend from the rules into that backend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PortTraffic {
    /// From every rule into the backend (or the node is no port).
    #[default]
    Every,
    /// From none of them: only what starts at the backend reaches it.
    None,
    /// From some: rule by rule.
    Some,
}

impl Topology {
    /// `port_traffic` of every node, from the backend ports the rules name.
    pub(crate) fn told_port_traffic(&self) -> Vec<PortTraffic> {
        let mut out = vec![PortTraffic::Every; self.nodes.len()];
        if self.backend_ports.is_empty() {
            return out;
        }
        for n in NodeId::all(self.nodes.len()) {
            let Some(backend) = self.skeleton.owner(n) else {
                continue;
            };
            if self.skeleton.role(n) != Role::Port {
                continue;
            }
            let into = self.skeleton.parents(backend);
            let reach = |q: &NodeId| self.reaches_port(*q, backend, n);
            out[n.index()] = if into.iter().all(reach) {
                PortTraffic::Every
            } else if !into.iter().any(reach) {
                PortTraffic::None
            } else {
                PortTraffic::Some
            };
        }
        out
    }

    /// Builds the hierarchy from a snapshot. Pure: no I/O.
    pub fn build(snapshot: Snapshot, catalog: Catalog) -> Topology {
        build::build(snapshot, catalog)
    }

    /// What the catalog says of policy `pid`'s kind: every policy read has an entry.
    pub fn kind_of(&self, pid: PolicyId) -> &PolicyKind {
        self.catalog.kind_of(&self.policies[pid].kind)
    }

    /// Every policy with its id.
    pub(crate) fn each_policy(&self) -> impl Iterator<Item = (PolicyId, &Policy)> {
        PolicyId::all(self.policies.len()).zip(&self.policies)
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }

    pub fn lookup(&self, obj_ref: &ObjRef) -> Option<NodeId> {
        self.find(RefKey::of(obj_ref))
    }

    /// `lookup` from borrowed parts.
    pub fn find(&self, key: RefKey) -> Option<NodeId> {
        self.index.get(&self.nodes, key)
    }

    /// The namespace whose level sits above this node, if it is a namespaced object
    /// (sections share their object's level).
    pub fn namespace_level(&self, id: NodeId) -> Option<&str> {
        self.nodes[id].namespace_level()
    }

    /// Every node below `id` (not `id` itself), each once, in a stable order.
    pub fn descendants(&self, id: NodeId) -> Vec<NodeId> {
        let mut seen = vec![false; self.nodes.len()];
        let mut out = Vec::new();
        let mut stack: Vec<NodeId> = self.nodes[id].children.iter().rev().copied().collect();
        while let Some(n) = stack.pop() {
            if std::mem::replace(&mut seen[n], true) {
                continue;
            }
            out.push(n);
            stack.extend(self.nodes[n].children.iter().rev().copied());
        }
        out
    }

    /// Every node above `id`, each once. (A node has few ancestors: the work is
    /// proportional to them, not to the size of the topology.)
    pub fn ancestors(&self, id: NodeId) -> Vec<NodeId> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        let mut stack: Vec<NodeId> = self.nodes[id].parents.to_vec();
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            out.push(n);
            stack.extend(self.nodes[n].parents.iter().copied());
        }
        out
    }

    /// Whether `a` is above `id`.
    pub(crate) fn is_ancestor(&self, a: NodeId, id: NodeId) -> bool {
        self.ancestors(id).contains(&a)
    }

    /// Every node at or below any of `starts`, each once, in node order: one walk
    /// however many starting points share their descendants.
    pub fn at_or_below(&self, starts: impl IntoIterator<Item = NodeId>) -> Vec<NodeId> {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack: Vec<NodeId> = starts.into_iter().collect();
        while let Some(n) = stack.pop() {
            if std::mem::replace(&mut seen[n], true) {
                continue;
            }
            stack.extend_from_slice(self.skeleton.children(n));
        }
        NodeId::all(self.nodes.len()).filter(|&n| seen[n]).collect()
    }

    /// Nodes with no parents: where every context path starts.
    pub fn roots(&self) -> Vec<NodeId> {
        NodeId::all(self.nodes.len())
            .filter(|&i| self.nodes[i].parents.is_empty())
            .collect()
    }

    /// Whether traffic from `parent` into backend `backend` reaches its port section
    /// `port` (the ports its backendRefs name; every port when they name none).
    pub fn reaches_port(&self, parent: NodeId, backend: NodeId, port: NodeId) -> bool {
        self.backend_ports
            .get(&(parent, backend))
            .is_none_or(|ports| ports.contains(&port))
    }

    /// The nodes whose namespace level is `ns`.
    pub(crate) fn nodes_in_namespace(&self, ns: &str) -> Vec<NodeId> {
        NodeId::all(self.nodes.len())
            .filter(|&i| self.namespace_level(i) == Some(ns))
            .collect()
    }
}

//! The hierarchy (GEP-713 §"Hierarchy of target kinds"): a DAG of targetables with
//! sections (listeners, rules, ports) as their own nodes, parents and children
//! indexed both ways, and every policy attached to the nodes its targets resolve to.

mod annotation;
mod build;
mod cycles;
pub(crate) mod findings;
mod index;
mod ports;
mod skeleton;

pub use findings::{Code, Finding, Severity};

pub(crate) use index::{RefIndex, RefKey};
pub(crate) use skeleton::{LevelId, Skeleton};

use crate::catalog::policy::Policy;
use crate::catalog::{Catalog, PolicyKind};
use crate::model::{FastMap, ObjRef, ObjectId};
use crate::model::{Held, Object, Snapshot};
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
    pub(crate) fn is_backend_side(self) -> bool {
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
pub(crate) type Edges = smallvec::SmallVec<[NodeId; 4]>;

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
    pub(crate) resolved: bool,
    /// Why not, when not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<RefReason>,
    /// Index of its field among the kind's reference fields (`RefField`).
    #[serde(skip)]
    pub(crate) field: usize,
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
    pub(crate) fn describe(&self) -> String {
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
    pub(crate) labels: BTreeMap<String, String>,
    /// There is a Namespace object for it (not just objects inside it).
    pub(crate) has_object: bool,
}

/// The hierarchy a snapshot makes (GEP-713's DAG of targetables), the policies read
/// from it and where each attaches, and the findings: what every later stage reads.
#[derive(Debug, Default)]
pub struct Topology {
    /// What it was built from, as a topology holds it: never built again from here
    /// (`Held`; `query::Rebuildable` makes a `Snapshot` of it again).
    pub(in crate::topology) snapshot: Held,
    pub(in crate::topology) catalog: Catalog,
    pub(in crate::topology) nodes: Vec<Node>,
    pub(in crate::topology) index: RefIndex,
    pub(in crate::topology) namespaces: BTreeMap<String, NamespaceInfo>,
    pub(in crate::topology) policies: Vec<Policy>,
    pub(in crate::topology) policy_index: FastMap<ObjRef, PolicyId>,
    /// Per policy, how each of its targets resolved.
    pub(in crate::topology) targets: Vec<Vec<ResolvedTarget>>,
    /// Per node, the policies attached to it directly (sorted: oldest first, then namespace/name).
    pub(in crate::topology) attached: Vec<Vec<PolicyId>>,
    /// Per namespace, the policies that target the Namespace.
    pub(in crate::topology) ns_attached: BTreeMap<String, Vec<PolicyId>>,
    /// Per edge from a rule to a backend whose backendRefs name a port: the port
    /// sections they name (traffic reaches only those). An edge not here, or one
    /// of whose backendRefs names no port, reaches every port. Held in place up to
    /// two (a large cluster has an edge like this per route rule, mostly naming one).
    pub(in crate::topology) backend_ports:
        FastMap<(NodeId, NodeId), smallvec::SmallVec<[NodeId; 2]>>,
    /// Per node, how traffic reaches it if it is a backend's port (`PortTraffic`), told
    /// once from `backend_ports`: every fold asks it of every port.
    pub(in crate::topology) port_traffic: Vec<PortTraffic>,
    /// Nodes that exist only because a policy targets them (a kind outside the
    /// hierarchy, such as an Istio ServiceEntry), in node order.
    pub(in crate::topology) target_only: Vec<NodeId>,
    pub(in crate::topology) findings: Vec<Finding>,
    /// Per policy (by `PolicyId` index), the objects its spec names besides its
    /// targets and how each resolved; empty for one that names none (the list may be
    /// shorter than the policies: those past its end name none).
    pub(in crate::topology) references: Vec<Vec<PolicyReference>>,
    /// The nodes' edges, owners and namespace levels in compact form, made once the
    /// nodes are final: what the walks over every node read.
    pub(in crate::topology) skeleton: Skeleton,
}

/// How traffic reaches a port of a backend from the rules into that backend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum PortTraffic {
    /// From every rule into the backend (or the node is no port).
    #[default]
    AllRules,
    /// From none of them: only what starts at the backend reaches it.
    NoRule,
    /// From some of them: each context is asked whether its rule names the port.
    PerRule,
}

/// What a topology answers. Its parts are built together (`build`) and read only through
/// these: a caller asks for one node, one policy, what one policy targets or what one
/// node has attached, never for the parallel lists behind them.
impl Topology {
    /// What the topology was built from, as it holds it.
    #[inline]
    pub fn snapshot(&self) -> &Held {
        &self.snapshot
    }

    /// Every object of the snapshot, in `ObjectId` order.
    #[inline]
    pub fn objects(&self) -> &[Object] {
        &self.snapshot.objects
    }

    /// Object `id` of the snapshot.
    #[inline]
    pub(crate) fn object(&self, id: ObjectId) -> &Object {
        &self.snapshot.objects[id]
    }

    /// The object policy `pid` was read from.
    #[inline]
    pub(crate) fn policy_object(&self, pid: PolicyId) -> &Object {
        self.object(self.policy(pid).object)
    }

    /// The policy kinds the topology was built with.
    #[inline]
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Every node, in `NodeId` order.
    #[inline]
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }

    /// The nodes' edges, owners and namespace levels in compact form.
    #[inline]
    pub fn skeleton(&self) -> &Skeleton {
        &self.skeleton
    }

    /// The namespaces the input knows of, by name.
    #[inline]
    pub fn namespaces(&self) -> &BTreeMap<String, NamespaceInfo> {
        &self.namespaces
    }

    /// Every policy, in `PolicyId` order.
    #[inline]
    pub fn policies(&self) -> &[Policy] {
        &self.policies
    }

    #[inline]
    pub fn policy(&self, pid: PolicyId) -> &Policy {
        &self.policies[pid]
    }

    /// The policy `obj_ref` names, if it is one the topology read.
    #[inline]
    pub fn policy_id(&self, obj_ref: &ObjRef) -> Option<PolicyId> {
        self.policy_index.get(obj_ref).copied()
    }

    /// How each target of policy `pid` resolved, in the order it names them.
    #[inline]
    pub fn targets_of(&self, pid: PolicyId) -> &[ResolvedTarget] {
        &self.targets[pid]
    }

    /// The policies attached to node `id` directly (oldest first, then namespace/name).
    #[inline]
    pub fn attached_to(&self, id: NodeId) -> &[PolicyId] {
        &self.attached[id]
    }

    /// The policies that target the Namespace `ns`.
    #[inline]
    pub(crate) fn attached_to_namespace(&self, ns: &str) -> &[PolicyId] {
        self.ns_attached.get(ns).map_or(&[], Vec::as_slice)
    }

    /// Each namespace some policy targets, by name, with those policies.
    pub(crate) fn namespace_attachments(&self) -> impl Iterator<Item = (&str, &[PolicyId])> {
        self.ns_attached
            .iter()
            .map(|(ns, ps)| (ns.as_str(), ps.as_slice()))
    }

    /// Whether some rule's backendRefs name a port: if none does, traffic into a backend
    /// reaches every port of it.
    #[inline]
    pub(crate) fn backend_refs_name_ports(&self) -> bool {
        !self.backend_ports.is_empty()
    }

    /// How traffic reaches node `id` if it is a backend's port (`PortTraffic::AllRules`
    /// for any other node).
    #[inline]
    pub(crate) fn port_traffic(&self, id: NodeId) -> PortTraffic {
        self.port_traffic
            .get(id.index())
            .copied()
            .unwrap_or_default()
    }

    /// What the hierarchy's build found wrong or worth saying.
    #[inline]
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// The references policy `pid` names besides its targets, as they resolved.
    #[inline]
    pub fn references_of(&self, pid: PolicyId) -> &[PolicyReference] {
        self.references.get(pid.index()).map_or(&[], Vec::as_slice)
    }

    /// Every reference of every policy, policy by policy.
    pub(crate) fn all_references(&self) -> impl Iterator<Item = &PolicyReference> {
        self.references.iter().flatten()
    }
}

/// What a topology's holder may change once it is built: never its hierarchy.
impl Topology {
    /// Lets go what the snapshot's routes and backends said of the hierarchy, now that it
    /// is built (memory on large clusters: `query::analyze_once`).
    pub(crate) fn release_links(&mut self) {
        self.snapshot.release_links();
    }

    /// A finding about the input the topology was built from that only its reader saw
    /// (an object defined twice, a document that does not parse).
    pub(crate) fn add_finding(&mut self, finding: Finding) {
        self.findings.push(finding);
    }

    /// A topology with no object: this one's catalog and namespaces alone.
    pub(crate) fn catalog_and_namespaces(&self) -> Topology {
        Topology {
            catalog: self.catalog.clone(),
            namespaces: self.namespaces.clone(),
            ..Topology::default()
        }
    }

    /// The snapshot's objects, taken out of a topology that is about to be let go.
    pub(crate) fn take_objects(&mut self) -> Vec<Object> {
        std::mem::take(&mut self.snapshot.objects)
    }
}

impl Topology {
    /// `port_traffic` of every node, from the backend ports the rules name.
    pub(crate) fn told_port_traffic(&self) -> Vec<PortTraffic> {
        let mut out = vec![PortTraffic::AllRules; self.nodes.len()];
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
                PortTraffic::AllRules
            } else if !into.iter().any(reach) {
                PortTraffic::NoRule
            } else {
                PortTraffic::PerRule
            };
        }
        out
    }

    /// Builds the hierarchy from a snapshot. Pure: no I/O.
    pub(crate) fn build(snapshot: Snapshot, catalog: Catalog) -> Topology {
        build::build(snapshot, catalog)
    }

    /// What the catalog says of policy `pid`'s kind: every policy read has an entry.
    pub(crate) fn kind_of(&self, pid: PolicyId) -> &PolicyKind {
        self.catalog.kind_of(&self.policies[pid].kind)
    }

    /// Every policy with its id.
    pub(crate) fn each_policy(&self) -> impl Iterator<Item = (PolicyId, &Policy)> {
        PolicyId::all(self.policies.len()).zip(&self.policies)
    }

    pub fn lookup(&self, obj_ref: &ObjRef) -> Option<NodeId> {
        self.find(RefKey::of(obj_ref))
    }

    /// `lookup` from borrowed parts.
    pub(crate) fn find(&self, key: RefKey) -> Option<NodeId> {
        self.index.get(&self.nodes, key)
    }

    /// The namespace whose level sits above this node, if it is a namespaced object
    /// (sections share their object's level).
    pub fn namespace_level(&self, id: NodeId) -> Option<&str> {
        self.nodes[id].namespace_level()
    }

    /// Every node below `id` (not `id` itself), each once, in a stable order.
    pub(crate) fn descendants(&self, id: NodeId) -> Vec<NodeId> {
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
    pub(crate) fn ancestors(&self, id: NodeId) -> Vec<NodeId> {
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
    pub(crate) fn at_or_below(&self, starts: impl IntoIterator<Item = NodeId>) -> Vec<NodeId> {
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
    pub(crate) fn roots(&self) -> Vec<NodeId> {
        NodeId::all(self.nodes.len())
            .filter(|&i| self.nodes[i].parents.is_empty())
            .collect()
    }

    /// Whether traffic from `parent` into backend `backend` reaches its port section
    /// `port` (the ports its backendRefs name; every port when they name none).
    pub(crate) fn reaches_port(&self, parent: NodeId, backend: NodeId, port: NodeId) -> bool {
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

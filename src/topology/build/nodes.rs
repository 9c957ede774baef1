//! Objects become nodes: each object of the hierarchy a node (`role_of`), its listeners,
//! rules and ports nodes of their own below it; and the namespaces the input knows of.

use super::{each_object, invalid, listed, Builder};
use crate::model::{is_gateway_group, ObjRef, Object, ObjectId, Val, ROUTE_KINDS};
use crate::topology::{Edges, Finding, NamespaceInfo, Node, NodeId, RefKey, Role};

fn role_of(o: &Object) -> Option<Role> {
    let g = o.group();
    match o.kind.as_str() {
        "GatewayClass" if is_gateway_group(g) => Some(Role::GatewayClass),
        "Gateway" if is_gateway_group(g) => Some(Role::Gateway),
        "ListenerSet" | "XListenerSet" if is_gateway_group(g) => Some(Role::ListenerSet),
        k if ROUTE_KINDS.contains(&k) && is_gateway_group(g) => Some(Role::Route),
        "Service" if g.is_empty() => Some(Role::Backend),
        "ServiceImport" if g == "multicluster.x-k8s.io" => Some(Role::Backend),
        _ => None,
    }
}

/// An object's node and its sections' nodes, each reference with its index hash, and
/// what is wrong with them: worked out on any core, added in object order.
struct PlannedNodes {
    object: ObjectId,
    role: Role,
    node: (ObjRef, u64),
    sections: Vec<((ObjRef, u64), Role)>,
    findings: Vec<Finding>,
}

/// The nodes object `o` (number `i`) becomes, if it is in the hierarchy.
fn plan_nodes(o: &Object, i: ObjectId) -> Option<PlannedNodes> {
    let role = role_of(o)?;
    let r = o.obj_ref();
    let mut findings = Vec::new();
    let mut sections = Vec::new();
    let mut section = |name: &str, role: Role| {
        let s = r.clone().with_section(Some(name));
        let hash = RefKey::of(&s).hash();
        sections.push(((s, hash), role));
    };
    match role {
        Role::Gateway | Role::ListenerSet => {
            let listeners: &[Val] = match o.spec.get("listeners") {
                None | Some(Val::Null) => &[],
                Some(Val::Array(a)) => a,
                Some(_) => {
                    findings.push(invalid(&r, "spec.listeners", "must be a list"));
                    &[]
                }
            };
            for (j, l) in listeners.iter().enumerate() {
                match l.get("name").and_then(Val::as_str) {
                    Some(name) if !name.is_empty() => section(name, Role::Listener),
                    _ => findings.push(invalid(
                        &r,
                        &format!("spec.listeners[{j}].name"),
                        "is missing",
                    )),
                }
            }
        }
        Role::Route => {
            let rules = listed(&o.links().rules, "rules", &r, |f| findings.push(f));
            for (j, rule) in rules.iter().enumerate() {
                section(&rule.section(j), Role::Rule);
            }
        }
        Role::Backend => {
            let ports = listed(&o.links().ports, "ports", &r, |f| findings.push(f));
            for name in ports.iter().flatten() {
                section(name, Role::Port);
            }
        }
        _ => {}
    }
    let hash = RefKey::of(&r).hash();
    Some(PlannedNodes {
        object: i,
        role,
        node: (r, hash),
        sections,
        findings,
    })
}

impl<'s> Builder<'s> {
    pub(super) fn index_namespaces(&mut self) {
        for o in self.objects {
            if o.kind == "Namespace" && o.group().is_empty() {
                let e = self.t.namespaces.entry(o.name.to_string()).or_default();
                e.labels = o.labels.clone();
                // The API server labels every namespace with its own name.
                e.labels
                    .entry("kubernetes.io/metadata.name".to_string())
                    .or_insert_with(|| o.name.to_string());
                e.has_object = true;
            } else if let Some(ns) = &o.namespace {
                if self.t.namespaces.contains_key(ns.as_str()) {
                    continue;
                }
                self.t
                    .namespaces
                    .entry(ns.to_string())
                    .or_insert_with(|| NamespaceInfo {
                        // The API server labels every namespace with its own name.
                        labels: [("kubernetes.io/metadata.name".to_string(), ns.to_string())]
                            .into(),
                        has_object: false,
                    });
            }
        }
    }

    pub(super) fn add_node(
        &mut self,
        obj_ref: ObjRef,
        role: Role,
        object: Option<ObjectId>,
        owner: Option<NodeId>,
    ) -> NodeId {
        let hash = RefKey::of(&obj_ref).hash();
        self.add_hashed_node((obj_ref, hash), role, object, owner)
    }

    /// `add_node` for a reference whose hash was taken beforehand (on another core).
    fn add_hashed_node(
        &mut self,
        (obj_ref, hash): (ObjRef, u64),
        role: Role,
        object: Option<ObjectId>,
        owner: Option<NodeId>,
    ) -> NodeId {
        let slot = match self.t.index.probe_hashed(&self.t.nodes, &obj_ref, hash) {
            Ok(id) => return id,
            Err(slot) => slot,
        };
        let id = NodeId::at(self.t.nodes.len());
        self.t.nodes.push(Node {
            obj_ref,
            role,
            object,
            owner,
            parents: Edges::new(),
            children: Edges::new(),
        });
        self.t.index.insert(slot, id);
        id
    }

    pub(super) fn edge(&mut self, parent: NodeId, child: NodeId) {
        // A child has few parents; a listener may have thousands of children.
        if parent == child || self.t.nodes[child].parents.contains(&parent) {
            return;
        }
        self.t.nodes[parent].children.push(child);
        self.t.nodes[child].parents.push(parent);
    }

    pub(super) fn add_section(&mut self, owner: NodeId, role: Role, name: &str) -> NodeId {
        let r = self.t.nodes[owner].obj_ref.clone().with_section(Some(name));
        let object = self.t.nodes[owner].object;
        let id = self.add_node(r, role, object, Some(owner));
        self.edge(owner, id);
        id
    }

    /// Objects and their sections become nodes (edges come after, once every node exists).
    /// What each object's nodes are is worked out on every core (`plan_nodes`); they
    /// are added here, in object order.
    pub(super) fn create_nodes(&mut self) {
        let objects = self.objects;
        // Room made at once (pages never written are never taken): an object in the
        // hierarchy is a node with a few sections, and the rest are not nodes at all.
        self.t.nodes.reserve(objects.len() * 3);
        self.t.index.reserve(objects.len() * 3);
        for plan in each_object(objects, plan_nodes) {
            let id = self.add_hashed_node(plan.node, plan.role, Some(plan.object), None);
            let object = self.t.nodes[id].object;
            for (section, role) in plan.sections {
                let s = self.add_hashed_node(section, role, object, Some(id));
                self.edge(id, s);
            }
            self.t.findings.extend(plan.findings);
        }
    }
}

//! Objects become nodes: each object of the hierarchy a node (`role_of`), its listeners,
//! rules and ports nodes of their own below it; and the namespaces the input knows of.

use super::{each_object, invalid, listed, Builder};
use crate::model::{is_gateway_group, ObjRef, Object, ObjectId, Val, ROUTE_KINDS};
use crate::topology::{Edges, Finding, NamespaceInfo, Node, NodeId, RefKey, Role};

/// What an object is in the hierarchy, if it is in it.
fn role_of(object: &Object) -> Option<Role> {
    let group = object.group();
    match object.kind.as_str() {
        "GatewayClass" if is_gateway_group(group) => Some(Role::GatewayClass),
        "Gateway" if is_gateway_group(group) => Some(Role::Gateway),
        "ListenerSet" | "XListenerSet" if is_gateway_group(group) => Some(Role::ListenerSet),
        kind if ROUTE_KINDS.contains(&kind) && is_gateway_group(group) => Some(Role::Route),
        "Service" if group.is_empty() => Some(Role::Backend),
        "ServiceImport" if group == "multicluster.x-k8s.io" => Some(Role::Backend),
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

/// The nodes `object` (number `id`) becomes, if it is in the hierarchy.
fn plan_nodes(object: &Object, id: ObjectId) -> Option<PlannedNodes> {
    let role = role_of(object)?;
    let obj_ref = object.obj_ref();
    let mut findings = Vec::new();
    let mut sections = Vec::new();
    let mut section = |name: &str, role: Role| {
        let section_ref = obj_ref.clone().with_section(Some(name));
        let hash = RefKey::of(&section_ref).hash();
        sections.push(((section_ref, hash), role));
    };
    match role {
        Role::Gateway | Role::ListenerSet => {
            let listeners: &[Val] = match object.spec.get("listeners") {
                None | Some(Val::Null) => &[],
                Some(Val::Array(entries)) => entries,
                Some(_) => {
                    findings.push(invalid(&obj_ref, "spec.listeners", "must be a list"));
                    &[]
                }
            };
            for (j, listener) in listeners.iter().enumerate() {
                match listener.get("name").and_then(Val::as_str) {
                    Some(name) if !name.is_empty() => section(name, Role::Listener),
                    _ => findings.push(invalid(
                        &obj_ref,
                        &format!("spec.listeners[{j}].name"),
                        "is missing",
                    )),
                }
            }
        }
        Role::Route => {
            let rules = listed(&object.links().rules, "rules", &obj_ref, |f| {
                findings.push(f)
            });
            for (j, rule) in rules.iter().enumerate() {
                section(&rule.section(j), Role::Rule);
            }
        }
        Role::Backend => {
            let ports = listed(&object.links().ports, "ports", &obj_ref, |f| {
                findings.push(f)
            });
            for name in ports.iter().flatten() {
                section(name, Role::Port);
            }
        }
        _ => {}
    }
    let hash = RefKey::of(&obj_ref).hash();
    Some(PlannedNodes {
        object: id,
        role,
        node: (obj_ref, hash),
        sections,
        findings,
    })
}

impl<'s> Builder<'s> {
    pub(super) fn index_namespaces(&mut self) {
        for object in self.objects {
            if object.kind == "Namespace" && object.group().is_empty() {
                let info = self
                    .topology
                    .namespaces
                    .entry(object.name.to_string())
                    .or_default();
                info.labels = object.labels.clone();
                // The API server labels every namespace with its own name.
                info.labels
                    .entry("kubernetes.io/metadata.name".to_string())
                    .or_insert_with(|| object.name.to_string());
                info.has_object = true;
            } else if let Some(ns) = &object.namespace {
                if self.topology.namespaces.contains_key(ns.as_str()) {
                    continue;
                }
                self.topology
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
        let slot = match self
            .topology
            .index
            .probe_hashed(&self.topology.nodes, &obj_ref, hash)
        {
            Ok(id) => return id,
            Err(slot) => slot,
        };
        let id = NodeId::at(self.topology.nodes.len());
        self.topology.nodes.push(Node {
            obj_ref,
            role,
            object,
            owner,
            parents: Edges::new(),
            children: Edges::new(),
        });
        self.topology.index.insert(slot, id);
        id
    }

    pub(super) fn edge(&mut self, parent: NodeId, child: NodeId) {
        // A child has few parents; a listener may have thousands of children.
        if parent == child || self.topology.nodes[child].parents.contains(&parent) {
            return;
        }
        self.topology.nodes[parent].children.push(child);
        self.topology.nodes[child].parents.push(parent);
    }

    pub(super) fn add_section(&mut self, owner: NodeId, role: Role, name: &str) -> NodeId {
        let section_ref = self.topology.nodes[owner]
            .obj_ref
            .clone()
            .with_section(Some(name));
        let object = self.topology.nodes[owner].object;
        let id = self.add_node(section_ref, role, object, Some(owner));
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
        self.topology.nodes.reserve(objects.len() * 3);
        self.topology.index.reserve(objects.len() * 3);
        for plan in each_object(objects, plan_nodes) {
            let id = self.add_hashed_node(plan.node, plan.role, Some(plan.object), None);
            let object = self.topology.nodes[id].object;
            for (section, role) in plan.sections {
                let section = self.add_hashed_node(section, role, object, Some(id));
                self.edge(id, section);
            }
            self.topology.findings.extend(plan.findings);
        }
    }
}

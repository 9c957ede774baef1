//! Backends and their ports: each rule's backendRefs become edges from the rule to its
//! backends, restricted to the ports they name; a backend of a kind outside the
//! hierarchy becomes a node when a route or a policy names it.

use super::{invalid, Borrowed, Builder, Delegation, Ref, RouteChange, View};
use crate::model::{
    is_gateway_group, normalize_group, port_section, Links, ObjRef, Object, ObjectId, Val,
};
use crate::topology::{Code, Finding, NodeId, RefKey, Role};

/// A backendRef of rule `rule` naming `target`, object `object` of a kind outside the
/// hierarchy, which becomes a node the first time one names it.
pub(super) struct NewBackend {
    pub(super) rule: NodeId,
    pub(super) target: ObjRef,
    pub(super) object: ObjectId,
    pub(super) port: Option<u64>,
}

/// The ports of a backend kind outside Kubernetes' own, as the sections a policy's
/// `sectionName` names: an Istio ServiceEntry's named ports (`spec.ports[].name`, as
/// Istio resolves BackendTLSPolicy sectionNames), an Envoy Gateway Backend's endpoint
/// port numbers ("SectionName is port number for EG Backend object",
/// internal/gatewayapi/backendtlspolicy.go).
fn port_sections(object: &Object) -> Vec<String> {
    let mut out: Vec<String> = match (object.group(), object.kind.as_str()) {
        ("networking.istio.io", "ServiceEntry") => object
            .spec
            .get("ports")
            .and_then(Val::as_array)
            .into_iter()
            .flatten()
            .filter_map(port_section)
            .map(String::from)
            .collect(),
        ("gateway.envoyproxy.io", "Backend") => object
            .spec
            .get("endpoints")
            .and_then(Val::as_array)
            .into_iter()
            .flatten()
            .filter_map(|e| e.as_object())
            .flat_map(|e| e.values())
            .filter_map(|address| address.get("port").and_then(Val::as_u64))
            .map(|port| port.to_string())
            .collect(),
        _ => Vec::new(),
    };
    let mut seen = std::collections::HashSet::new();
    out.retain(|p| seen.insert(p.clone()));
    out
}

impl<'s> Builder<'s> {
    /// Links a rule to its backend, unless that closes a cycle: a mesh route whose
    /// backend is its own parent Service. Only a backend with routes below it (GAMMA)
    /// can be above a rule.
    pub(super) fn backend_edge(&mut self, rule: NodeId, backend: NodeId, port: Option<u64>) {
        let has_routes = self.topology.nodes[backend]
            .children
            .iter()
            .any(|&c| self.topology.nodes[c].owner != Some(backend));
        if has_routes && self.topology.is_ancestor(backend, rule) {
            return;
        }
        self.edge(rule, backend);
        // The port section the backendRef's port names: the port of that number
        // (by its name when it has one), none when the backend has no such port.
        let named = |builder: &Self, port: u64| {
            let node = &builder.topology.nodes[backend];
            let by_number = node.object.and_then(|oi| {
                let links = builder.objects[oi].links();
                links
                    .port_numbers
                    .iter()
                    .find(|(_, n)| *n == port)
                    .map(|(s, _)| s.clone())
            });
            let section = by_number.map_or_else(|| port.to_string(), |s| s.to_string());
            node.children.iter().copied().find(|&c| {
                builder.topology.nodes[c].owner == Some(backend)
                    && builder.topology.nodes[c].obj_ref.section.as_deref()
                        == Some(section.as_str())
            })
        };
        let has_ports = self.topology.nodes[backend]
            .children
            .iter()
            .any(|&c| self.topology.nodes[c].owner == Some(backend));
        let key = (rule, backend);
        match port.filter(|_| has_ports) {
            // Every port: a backendRef naming none, or a backend without port sections.
            None => {
                self.topology.backend_ports.remove(&key);
                self.unrestricted.insert(key);
            }
            Some(_) if self.unrestricted.contains(&key) => {}
            Some(port) => {
                let section = named(self, port);
                let ports = self.topology.backend_ports.entry(key).or_default();
                ports.extend(section.filter(|s| !ports.contains(s)));
            }
        }
    }

    /// A node for an object of a kind outside the hierarchy the tool models (an Envoy
    /// Gateway Backend, an Istio ServiceEntry...), with its ports as sections.
    pub(super) fn add_backend(&mut self, target: ObjRef, object: ObjectId) -> NodeId {
        let before = self.topology.nodes.len();
        let id = self.add_node(target, Role::Backend, Some(object), None);
        if self.topology.nodes.len() > before {
            for name in port_sections(&self.objects[object]) {
                self.add_section(id, Role::Port, &name);
            }
        }
        id
    }
}

/// A rule of a route, as its backendRefs are linked.
struct RouteRule<'r> {
    route: NodeId,
    route_ref: &'r ObjRef,
    /// The rule's own node, a section of the route's.
    id: NodeId,
    /// Its index in `spec.rules`, and the section it is.
    index: usize,
    section: &'r str,
}

impl<'s> View<'_, 's> {
    /// A route's rules' backendRefs: the edges from each rule to its backends.
    pub(super) fn backends(
        &self,
        id: NodeId,
        route: &ObjRef,
        links: &Links,
        out: &mut Vec<RouteChange>,
    ) {
        for (j, rule) in links.rules.items().iter().enumerate() {
            let Some(refs) = &rule.backend_refs else {
                continue;
            };
            let section = rule.section(j);
            // The rule is one of the route's own sections.
            let nodes = &self.topology.nodes;
            let Some(rule_id) = nodes[id].children.iter().copied().find(|&c| {
                nodes[c].owner == Some(id) && nodes[c].obj_ref.section.as_deref() == Some(&section)
            }) else {
                continue;
            };
            let rule = RouteRule {
                route: id,
                route_ref: route,
                id: rule_id,
                index: j,
                section: &section,
            };
            for (k, backend_ref) in refs.iter().enumerate() {
                out.push(self.backend_ref_change(&rule, k, backend_ref.borrowed()));
            }
        }
    }

    /// What backendRef `k` of `rule` links: an edge to its backend (a node made for
    /// it when of a kind outside the hierarchy), a delegation, or the finding it makes.
    fn backend_ref_change(&self, rule: &RouteRule, k: usize, backend_ref: Ref) -> RouteChange {
        let route = rule.route_ref;
        let field = || format!("spec.rules[{}].backendRefs[{k}]", rule.index);
        let Some(name) = backend_ref.name else {
            return RouteChange::found(invalid(route, &format!("{}.name", field()), "is missing"));
        };
        let group = normalize_group(backend_ref.group.unwrap_or(""));
        let kind = backend_ref.kind.unwrap_or("Service");
        let ns = backend_ref.namespace.or(route.namespace.as_deref());
        let target = RefKey::new(group, kind, ns, name);
        let rule_ref = || route.clone().with_section(Some(rule.section));
        if kind == "HTTPRoute" && is_gateway_group(group) {
            return RouteChange::Delegate(Box::new(Delegation {
                rule: rule.id,
                route: rule.route,
                namespace: ns.map(str::to_string),
                name: name.to_string(),
                rule_ref: rule_ref(),
                field: field(),
            }));
        }
        if ns != route.namespace.as_deref() && !self.reference_granted(route, target) {
            return RouteChange::found(Finding::new(
                Code::RefNotPermitted,
                rule_ref(),
                format!(
                    "{}: {kind} {} is in another namespace and no ReferenceGrant in {} allows {} from {}",
                    field(),
                    target.ns_name(),
                    ns.unwrap_or_default(),
                    route.kind,
                    route.namespace.as_deref().unwrap_or_default()
                ),
            ));
        }
        if let Some(backend) = self.topology.find(target) {
            return RouteChange::Backend {
                rule: rule.id,
                backend,
                port: backend_ref.port,
            };
        }
        // Backends of kinds the tool does not model (an InferencePool, an
        // implementation's Backend) are nodes when they are in the input.
        let present = self.by_kind.get(&(group, kind, ns)).and_then(|ids| {
            ids.iter()
                .copied()
                .find(|&oi| self.objects[oi].name == name)
        });
        match present {
            Some(object) => RouteChange::AddBackend(Box::new(NewBackend {
                rule: rule.id,
                target: target.to_obj_ref(),
                object,
                port: backend_ref.port,
            })),
            None => RouteChange::found(Finding::new(
                Code::BackendNotFound,
                rule_ref(),
                format!(
                    "{}: {kind} {} is not in the input",
                    field(),
                    target.ns_name()
                ),
            )),
        }
    }
}

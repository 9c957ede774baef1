//! Backends and their ports: each rule's backendRefs become edges from the rule to its
//! backends, restricted to the ports they name; a backend of a kind outside the
//! hierarchy becomes a node when a route or a policy names it.

use super::{invalid, Borrowed, Builder, Delegation, RouteChange, View};
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
fn port_sections(o: &Object) -> Vec<String> {
    let mut out: Vec<String> = match (o.group(), o.kind.as_str()) {
        ("networking.istio.io", "ServiceEntry") => o
            .spec
            .get("ports")
            .and_then(Val::as_array)
            .into_iter()
            .flatten()
            .filter_map(port_section)
            .map(String::from)
            .collect(),
        ("gateway.envoyproxy.io", "Backend") => o
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
        let has_routes = self.t.nodes[backend]
            .children
            .iter()
            .any(|&c| self.t.nodes[c].owner != Some(backend));
        if has_routes && self.t.is_ancestor(backend, rule) {
            return;
        }
        self.edge(rule, backend);
        // The port section the backendRef's port names: the port of that number
        // (by its name when it has one), none when the backend has no such port.
        let named = |b: &Self, port: u64| {
            let node = &b.t.nodes[backend];
            let by_number = node.object.and_then(|oi| {
                let links = b.objects[oi].links();
                links
                    .port_numbers
                    .iter()
                    .find(|(_, n)| *n == port)
                    .map(|(s, _)| s.clone())
            });
            let section = by_number.map_or_else(|| port.to_string(), |s| s.to_string());
            node.children.iter().copied().find(|&c| {
                b.t.nodes[c].owner == Some(backend)
                    && b.t.nodes[c].obj_ref.section.as_deref() == Some(section.as_str())
            })
        };
        let has_ports = self.t.nodes[backend]
            .children
            .iter()
            .any(|&c| self.t.nodes[c].owner == Some(backend));
        let key = (rule, backend);
        match port.filter(|_| has_ports) {
            // Every port: a backendRef naming none, or a backend without port sections.
            None => {
                self.t.backend_ports.remove(&key);
                self.unrestricted.insert(key);
            }
            Some(_) if self.unrestricted.contains(&key) => {}
            Some(port) => {
                let section = named(self, port);
                let ports = self.t.backend_ports.entry(key).or_default();
                ports.extend(section.filter(|s| !ports.contains(s)));
            }
        }
    }

    /// A node for an object of a kind outside the hierarchy the tool models (an Envoy
    /// Gateway Backend, an Istio ServiceEntry...), with its ports as sections.
    pub(super) fn add_backend(&mut self, r: ObjRef, oi: ObjectId) -> NodeId {
        let before = self.t.nodes.len();
        let id = self.add_node(r, Role::Backend, Some(oi), None);
        if self.t.nodes.len() > before {
            for name in port_sections(&self.objects[oi]) {
                self.add_section(id, Role::Port, &name);
            }
        }
        id
    }
}

impl<'s> View<'_, 's> {
    /// A route's rules' backendRefs: the edges from each rule to its backends.
    pub(super) fn backends(
        &self,
        id: NodeId,
        r: &ObjRef,
        links: &Links,
        out: &mut Vec<RouteChange>,
    ) {
        for (j, rule) in links.rules.items().iter().enumerate() {
            let Some(refs) = &rule.backend_refs else {
                continue;
            };
            let section = rule.section(j);
            // The rule is one of the route's own sections.
            let nodes = &self.t.nodes;
            let Some(rule_id) = nodes[id].children.iter().copied().find(|&c| {
                nodes[c].owner == Some(id) && nodes[c].obj_ref.section.as_deref() == Some(&section)
            }) else {
                continue;
            };
            for (k, b) in refs.iter().enumerate() {
                let field = || format!("spec.rules[{j}].backendRefs[{k}]");
                let b = b.borrowed();
                let Some(name) = b.name else {
                    out.push(RouteChange::found(invalid(
                        r,
                        &format!("{}.name", field()),
                        "is missing",
                    )));
                    continue;
                };
                let group = normalize_group(b.group.unwrap_or(""));
                let kind = b.kind.unwrap_or("Service");
                let ns = b.namespace.or(r.namespace.as_deref());
                let target = RefKey::new(group, kind, ns, name);
                let rule_ref = || r.clone().with_section(Some(&section));
                if kind == "HTTPRoute" && is_gateway_group(group) {
                    out.push(RouteChange::Delegate(Box::new(Delegation {
                        rule: rule_id,
                        route: id,
                        namespace: ns.map(str::to_string),
                        name: name.to_string(),
                        rule_ref: rule_ref(),
                        field: field(),
                    })));
                    continue;
                }
                if ns != r.namespace.as_deref() && !self.reference_granted(r, target) {
                    out.push(RouteChange::found(Finding::new(
                        Code::RefNotPermitted,
                        rule_ref(),
                        format!(
                            "{}: {kind} {} is in another namespace and no ReferenceGrant in {} allows {} from {}",
                            field(),
                            target.ns_name(),
                            ns.unwrap_or_default(),
                            r.kind,
                            r.namespace.as_deref().unwrap_or_default()
                        ),
                    )));
                    continue;
                }
                match self.t.find(target) {
                    Some(backend) => out.push(RouteChange::Backend {
                        rule: rule_id,
                        backend,
                        port: b.port,
                    }),
                    None => {
                        // Backends of kinds the tool does not model (an InferencePool, an
                        // implementation's Backend) are nodes when they are in the input.
                        let present = self.by_kind.get(&(group, kind, ns)).and_then(|v| {
                            v.iter().copied().find(|&oi| self.objects[oi].name == name)
                        });
                        out.push(match present {
                            Some(object) => RouteChange::AddBackend(Box::new(NewBackend {
                                rule: rule_id,
                                target: target.to_obj_ref(),
                                object,
                                port: b.port,
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
                        });
                    }
                }
            }
        }
    }
}

//! A vendor rule: a policy's section on a backend is matched against the port a
//! route's backendRef names (`SectionByRefPort`: Envoy Gateway's BackendTLSPolicy on a
//! port of its Backend); a section no backendRef names gets nothing, and no status:
//! the target is left unresolved (`SectionNotReached`).
//! The references policies make to backends (an OIDC provider's, an ext-auth
//! service's) are not modelled: a port one of them may name is never said unreached.

use super::Builder;
use crate::model::{normalize_group, Val};
use crate::topology::{Code, Finding, NodeId, PolicyId, Resolution, ResolvedTarget, Role};

impl<'s> Builder<'s> {
    /// Leaves unresolved each target of policy `pid` that is such a section no
    /// backendRef names (`Code::SectionNotReached`), telling why: its controller applies
    /// the policy to no traffic there and writes it no status, so it attaches nowhere
    /// there and a policy with no other target reaches nothing.
    pub(super) fn unreach_sections_no_ref_names(
        &mut self,
        pid: PolicyId,
        resolved: &mut [ResolvedTarget],
    ) {
        let policy = &self.topology.policies[pid];
        let rules = self.topology.kind_of(pid).entry.sections_by_ref_port;
        if rules.is_empty() || policy.rejected.is_some() {
            return;
        }
        let mut found = Vec::new();
        for rt in resolved.iter_mut() {
            let Resolution::Node(port) = rt.resolution else {
                continue;
            };
            let nodes = &self.topology.nodes;
            let Some(backend) = nodes[port].owner.filter(|_| nodes[port].role == Role::Port) else {
                continue;
            };
            let b = &nodes[backend].obj_ref;
            let ruled = rules
                .iter()
                .any(|r| r.target == (normalize_group(&b.group), b.kind.as_str()));
            if ruled
                && !self.a_backend_ref_names(backend, port)
                && !self.named_elsewhere(backend, port)
            {
                found.push(Finding::new(
                    Code::SectionNotReached,
                    self.topology.policies[pid].obj_ref.clone(),
                    format!(
                        "names port {} of {} {}, which no route's backendRef names: its controller matches the sectionName against the port of the backendRef it translates (a backendRef naming no port does not match), so the policy applies to no traffic there and gets no status",
                        nodes[port].obj_ref.section.as_deref().unwrap_or_default(),
                        b.kind,
                        b.ns_name()
                    ),
                ));
                rt.resolution = Resolution::NotFound(Code::SectionNotReached);
            }
        }
        self.topology.findings.extend(found);
    }

    /// Whether a backendRef of a rule into `backend` names its port section `port`.
    fn a_backend_ref_names(&self, backend: NodeId, port: NodeId) -> bool {
        self.topology.nodes[backend].parents.iter().any(|&rule| {
            self.topology
                .backend_ports
                .get(&(rule, backend))
                .is_some_and(|ports| ports.contains(&port))
        })
    }
}

impl<'s> Builder<'s> {
    /// Whether some object's spec, outside the routes' backendRefs, holds a reference
    /// to `backend` naming port section `port` (a policy's backendRefs: Envoy Gateway
    /// applies a BackendTLSPolicy there too).
    fn named_elsewhere(&self, backend: NodeId, port: NodeId) -> bool {
        let b = &self.topology.nodes[backend].obj_ref;
        let Some(number) = self.topology.nodes[port]
            .obj_ref
            .section
            .as_deref()
            .and_then(|s| s.parse::<u64>().ok())
        else {
            return false;
        };
        self.objects.iter().any(|o| {
            let home = o.namespace.as_deref();
            o.spec
                .with(|spec| names_backend_port(spec, b, home, number))
        })
    }
}

/// Whether `value` holds, at any depth, a reference to backend `b` naming port `port`
/// (its namespace, when it names none, `home`).
fn names_backend_port(
    value: &Val,
    b: &crate::model::ObjRef,
    home: Option<&str>,
    port: u64,
) -> bool {
    match value {
        Val::Array(items) => items.iter().any(|v| names_backend_port(v, b, home, port)),
        Val::Object(map) => {
            let text = |key: &str| map.get(key).and_then(Val::as_str);
            let names = text("name") == Some(b.name.as_str())
                && text("kind") == Some(b.kind.as_str())
                && normalize_group(text("group").unwrap_or_default()) == normalize_group(&b.group)
                && text("namespace").or(home) == b.namespace.as_deref()
                && map.get("port").and_then(Val::as_u64) == Some(port);
            names || map.values().any(|v| names_backend_port(v, b, home, port))
        }
        _ => false,
    }
}

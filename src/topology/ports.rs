//! Service ports in the hierarchy: which a picture shows (the ports traffic reaches),
//! and the port a policy names by its number (`targetRefs[].ports`, `targetRefs[].port`),
//! resolved to the port's section as `sectionName` is.

use super::{Code, Finding, NodeId, PolicyId, RefKey, Resolution, Role, Topology};
use crate::model::{ObjRef, Object, Val};

impl Topology {
    /// Whether `tree` and `graph` draw port section `port` of backend `backend`: some
    /// path into the backend sends traffic to it (or none comes in), or a policy
    /// attaches to it.
    pub fn port_shown(&self, backend: NodeId, port: NodeId) -> bool {
        let parents = &self.nodes[backend].parents;
        parents.is_empty()
            || !self.attached[port].is_empty()
            || parents.iter().any(|&q| self.reaches_port(q, backend, port))
    }
}

impl Topology {
    /// Target `r` of policy `pid`, whose object is node `id`, when its section is a port
    /// number and the policy's kind names ports by number (the registry's `Sections`:
    /// `ports` lists, agentgateway's `port`): a Service's port of that number (by its
    /// name when it has one), as `sectionName` names it; a Gateway or ListenerSet as a
    /// whole, when one of its listeners has that port. A port it does not have is a
    /// SectionNotFound finding. None: not a port number, or not such a kind.
    pub(super) fn port_by_number(
        &self,
        objects: &[Object],
        pid: PolicyId,
        r: &ObjRef,
        id: NodeId,
    ) -> Option<(Resolution, Option<Finding>)> {
        let policy = &self.policies[pid];
        let by_number = self
            .catalog
            .get(&policy.kind)
            .is_some_and(|pk| pk.sections.names_ports_by_number());
        let number: u64 = r.section.as_deref()?.parse().ok().filter(|_| by_number)?;
        let node = &self.nodes[id];
        let object = &objects[node.object?];
        let found = match node.role {
            Role::Backend => object
                .links()
                .port_numbers
                .iter()
                .find(|(_, n)| *n == number)
                .and_then(|(section, _)| {
                    self.find(RefKey::of(&node.obj_ref).with_section(Some(section)))
                }),
            Role::Gateway | Role::ListenerSet => {
                listener_ports(object).contains(&number).then_some(id)
            }
            _ => return None,
        };
        Some(match found {
            Some(n) => (Resolution::Node(n), None),
            None => {
                let what = match node.role {
                    Role::Backend => "port",
                    _ => "listener on port",
                };
                let finding = Finding::new(
                    Code::SectionNotFound,
                    policy.obj_ref.clone(),
                    format!("{} {} has no {what} {number}", r.kind, r.ns_name()),
                );
                (Resolution::NotFound(Code::SectionNotFound), Some(finding))
            }
        })
    }
}

/// The ports a Gateway's or ListenerSet's listeners listen on.
fn listener_ports(o: &Object) -> Vec<u64> {
    o.spec
        .get("listeners")
        .and_then(Val::as_array)
        .into_iter()
        .flatten()
        .filter_map(|l| l.get("port").and_then(Val::as_u64))
        .collect()
}

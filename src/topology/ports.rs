//! Service ports in the hierarchy: which a picture shows (the ports traffic reaches),
//! and the port a policy names by its number (`targetRefs[].ports`, `targetRefs[].port`),
//! resolved to the port's section as `sectionName` is.

use super::{Code, Finding, NodeId, PolicyId, RefKey, Resolution, Role, Topology};
use crate::catalog::policy::{Policy, TargetSpec};
use crate::model::{ObjRef, Object, Val};

impl Topology {
    /// Whether `tree` and `graph` draw port section `port` of backend `backend`: some
    /// path into the backend sends traffic to it (or none comes in), or a policy
    /// attaches to it.
    pub(crate) fn port_shown(&self, backend: NodeId, port: NodeId) -> bool {
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
        let by_number = self.kind_of(pid).entry.sections.names_ports_by_number();
        let number: u64 = r.section.as_deref()?.parse().ok().filter(|_| by_number)?;
        let node = &self.nodes[id];
        let found = match node.role {
            Role::Backend => objects[node.object?]
                .links()
                .port_numbers
                .iter()
                .find(|(_, n)| *n == number)
                .and_then(|(section, _)| {
                    self.find(RefKey::of(&node.obj_ref).with_section(Some(section)))
                }),
            // A listener named by those digits keeps its name. The ports some listener
            // is on were made listener targets (`listener_port_targets`): what is left
            // names none.
            Role::Gateway | Role::ListenerSet => {
                let named = RefKey::of(&node.obj_ref).with_section(r.section.as_deref());
                if self.find(named).is_some() {
                    return None;
                }
                None
            }
            _ => return None,
        };
        Some(match found {
            Some(port) => (Resolution::Node(port), None),
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

impl Topology {
    /// A Gateway target whose section is a port number, of a kind that names a
    /// Gateway's port so (agentgateway's `port`: "scope the policy to a single listener
    /// port on the Gateway"), becomes one target per listener of the Gateway on that
    /// port, before targets are resolved. One no listener is on stays as written and
    /// resolves to SectionNotFound (`port_by_number`); a listener named by those digits
    /// keeps its name.
    pub(super) fn listener_port_targets(&self, objects: &[Object], policies: &mut [Policy]) {
        for policy in policies {
            let by_number = self
                .catalog
                .kind_of(&policy.kind)
                .entry
                .sections
                .names_ports_by_number();
            if !by_number {
                continue;
            }
            let on_port = |target: &TargetSpec| -> Option<Vec<TargetSpec>> {
                let TargetSpec::Ref(r) = target else {
                    return None;
                };
                let number: u64 = r.section.as_deref()?.parse().ok()?;
                let id = self.lookup(&r.object())?;
                let node = &self.nodes[id];
                let gateway = matches!(node.role, Role::Gateway | Role::ListenerSet);
                if !gateway || self.lookup(r).is_some() {
                    return None;
                }
                let listeners = listeners_on(&objects[node.object?], number);
                let each = |name: &String| TargetSpec::Ref(r.clone().with_section(Some(name)));
                (!listeners.is_empty()).then(|| listeners.iter().map(each).collect())
            };
            if !policy.targets.iter().any(|t| on_port(t).is_some()) {
                continue;
            }
            let targets = std::mem::take(&mut policy.targets);
            let mut by_port = Vec::new();
            let mut named = Vec::new();
            for target in targets {
                match on_port(&target) {
                    Some(listeners) => {
                        by_port.extend(listeners.iter().filter_map(|t| match t {
                            TargetSpec::Ref(r) => Some(r.clone()),
                            TargetSpec::Selector { .. } | TargetSpec::Pods(_) => None,
                        }));
                        policy.targets.extend(listeners)
                    }
                    None => {
                        if let TargetSpec::Ref(r) = &target {
                            named.push(r.clone());
                        }
                        policy.targets.push(target)
                    }
                }
            }
            // A listener the policy also names is reached by name.
            by_port.retain(|r| !named.contains(r));
            if !by_port.is_empty() {
                policy.rare_mut().by_port = by_port;
            }
        }
    }
}

/// The names of the listeners of a Gateway or ListenerSet on port `number`.
fn listeners_on(object: &Object, number: u64) -> Vec<String> {
    object
        .spec
        .get("listeners")
        .and_then(Val::as_array)
        .into_iter()
        .flatten()
        .filter(|l| l.get("port").and_then(Val::as_u64) == Some(number))
        .filter_map(|l| l.get("name").and_then(Val::as_str).map(str::to_string))
        .collect()
}

impl Topology {
    /// Where policy `p` attaches at node `at`, as a policy whose spec lists settings per
    /// port reads it (`spec_at_port`): `Some(Some(n))` by its target naming port number
    /// `n` there, `Some(None)` by a target naming the object whole; None when no target
    /// of it resolved to `at` so, or one named a section otherwise than by number.
    pub(crate) fn spec_port_at(&self, p: PolicyId, at: NodeId) -> Option<Option<u64>> {
        self.targets[p]
            .iter()
            .filter(|t| matches!(t.resolution, Resolution::Node(n) if n == at))
            .find_map(|t| match t.target.section.as_deref() {
                None => Some(None),
                Some(section) => section.parse().ok().map(Some),
            })
    }
}

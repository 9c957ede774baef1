//! A vendor rule: a policy aimed at a plain HTTP listener that shares its port with
//! others is refused by its controller (`SharedPort`), for the settings would reach
//! the one proxy listener they all make.

use super::Builder;
use crate::catalog::policy::{FieldError, FieldProblem};
use crate::catalog::SharedPort;
use crate::model::Val;
use crate::topology::{Code, Finding, NodeId, PolicyId, Resolution, ResolvedTarget, Role};

impl<'s> Builder<'s> {
    /// Refuses policy `pid` (Invalid) when its kind's controller refuses one aimed at a
    /// listener that shares its port with others (`SharedPort`) and one of its targets
    /// is such a listener.
    pub(super) fn refuse_on_shared_port(&mut self, pid: PolicyId, resolved: &[ResolvedTarget]) {
        let kind = &self.topology.policies[pid].kind;
        let rule = self.topology.catalog.get(kind).map(|k| k.shared_port);
        match rule {
            None | Some(SharedPort::Allowed) => return,
            Some(SharedPort::RefusedOnSharedHttpListener) => {}
        }
        if self.topology.policies[pid].rejected.is_some() {
            return;
        }
        let shared = resolved.iter().find_map(|rt| match rt.resolution {
            Resolution::Node(node) if self.topology.nodes[node].role == Role::Listener => {
                let others = self.http_listeners_sharing_port(node);
                (!others.is_empty()).then_some((rt.target.clone(), others))
            }
            _ => None,
        });
        let Some((target, others)) = shared else {
            return;
        };
        let why = format!(
            "is aimed at {target}, a plain HTTP listener sharing its port with {}: one Envoy listener, which the settings would reach whole; its controller refuses the policy",
            others.join(", ")
        );
        let policy = &mut self.topology.policies[pid];
        self.topology.findings.push(Finding::new(
            Code::Invalid,
            policy.obj_ref.clone(),
            format!("spec.targetRefs: {why}"),
        ));
        policy.invalid.push(FieldError::new(
            "spec.targetRefs",
            FieldProblem::Refused(why.clone()),
        ));
        policy.rejected = Some(why);
    }

    /// The other plain HTTP listeners with `listener`'s port, when `listener` is plain
    /// HTTP: those of its Gateway and of the ListenerSets attached to that Gateway,
    /// named as `describe` names sections.
    fn http_listeners_sharing_port(&self, listener: NodeId) -> Vec<String> {
        let nodes = &self.topology.nodes;
        // (port, protocol) of a listener section, from its object's spec.
        let read = |section: NodeId| -> Option<(u64, String)> {
            let owner = nodes[section].owner?;
            let oi = nodes[owner].object?;
            let name = nodes[section].obj_ref.section.as_deref()?;
            let listeners = self.objects[oi]
                .spec
                .get("listeners")
                .and_then(Val::as_array)?;
            let entry = listeners
                .iter()
                .find(|entry| entry.get("name").and_then(Val::as_str) == Some(name))?;
            let port = entry.get("port").and_then(Val::as_u64)?;
            let protocol = entry.get("protocol").and_then(Val::as_str)?;
            Some((port, protocol.to_string()))
        };
        let Some((port, protocol)) = read(listener) else {
            return Vec::new();
        };
        if protocol != "HTTP" {
            return Vec::new();
        }
        let Some(owner) = nodes[listener].owner else {
            return Vec::new();
        };
        let gateways: Vec<NodeId> = match nodes[owner].role {
            Role::Gateway => vec![owner],
            Role::ListenerSet => nodes[owner]
                .parents
                .iter()
                .copied()
                .filter(|&parent| nodes[parent].role == Role::Gateway)
                .collect(),
            Role::Namespace
            | Role::GatewayClass
            | Role::Listener
            | Role::Route
            | Role::Rule
            | Role::Backend
            | Role::Pod
            | Role::Port => Vec::new(),
        };
        // The listener-owning objects of each Gateway: itself and its ListenerSets.
        let mut owners: Vec<NodeId> = Vec::new();
        for gateway in gateways {
            owners.push(gateway);
            owners.extend(
                nodes[gateway]
                    .children
                    .iter()
                    .copied()
                    .filter(|&c| nodes[c].role == Role::ListenerSet),
            );
        }
        owners.sort();
        owners.dedup();
        let mut out = Vec::new();
        for owner in owners {
            for &other in &nodes[owner].children {
                let node = &nodes[other];
                if other == listener || node.owner != Some(owner) || node.role != Role::Listener {
                    continue;
                }
                if read(other).is_some_and(|(p, proto)| p == port && proto == "HTTP") {
                    let obj_ref = &node.obj_ref;
                    out.push(format!(
                        "listener {} of {} {}",
                        obj_ref.section.as_deref().unwrap_or_default(),
                        obj_ref.kind,
                        obj_ref.ns_name()
                    ));
                }
            }
        }
        out
    }
}

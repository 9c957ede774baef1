//! A vendor rule: a policy whose settings would reach plain HTTP listeners it is not
//! aimed at is refused by its controller (`SharedPort`). Plain HTTP listeners on one
//! port of one proxy (a Gateway with its ListenerSets; every Gateway of a class that
//! merges them) are one proxy listener, told apart by nothing the settings could key on.

use super::Builder;
use crate::catalog::policy::{FieldError, FieldProblem};
use crate::catalog::SharedPort;
use crate::model::{FastSet, GroupKind, Val};
use crate::topology::{Code, Finding, NodeId, PolicyId, Resolution, ResolvedTarget, Role};

/// The listeners each kind with a `SharedPort` rule is aimed at by section.
pub(super) type Claimed = FastSet<(GroupKind, NodeId)>;

impl<'s> Builder<'s> {
    /// The listeners that policies of the kinds with a `SharedPort` rule are aimed at by
    /// section, among `resolved` (each policy's targets, in policy order).
    pub(super) fn claimed_listeners(&self, resolved: &[Vec<ResolvedTarget>]) -> Claimed {
        let mut claimed = Claimed::default();
        for (policy, targets) in self.topology.policies.iter().zip(resolved) {
            if self
                .topology
                .catalog
                .kind_of(&policy.kind)
                .entry
                .shared_port
                == SharedPort::Allowed
            {
                continue;
            }
            for rt in targets {
                if let Resolution::Node(node) = rt.resolution {
                    if self.topology.nodes[node].role == Role::Listener {
                        claimed.insert((policy.kind.clone(), node));
                    }
                }
            }
        }
        claimed
    }

    /// Refuses policy `pid` (Invalid) when its kind's controller refuses one whose
    /// settings would reach plain HTTP listeners it is not aimed at (`SharedPort`):
    /// aimed at such a listener that shares its port with others, or at a whole
    /// Gateway or ListenerSet one of whose plain HTTP listeners shares its port with
    /// another Gateway's or ListenerSet's (its listeners aimed at by a policy of the
    /// kind of their own, `claimed`, are left to that policy).
    pub(super) fn refuse_on_shared_port(
        &mut self,
        pid: PolicyId,
        resolved: &[ResolvedTarget],
        claimed: &Claimed,
    ) {
        let kind = &self.topology.policies[pid].kind;
        match self.topology.kind_of(pid).entry.shared_port {
            SharedPort::Allowed => return,
            SharedPort::RefusedOnSharedHttpListener => {}
        }
        if self.topology.policies[pid].rejected.is_some() {
            return;
        }
        let nodes = &self.topology.nodes;
        let shared = resolved.iter().find_map(|rt| match rt.resolution {
            Resolution::Node(node) => {
                let (own, others) = match nodes[node].role {
                    Role::Listener => (None, self.http_listeners_sharing_port(node)),
                    Role::Gateway | Role::ListenerSet => {
                        self.sharing_with_others(node, kind, claimed)?
                    }
                    _ => return None,
                };
                (!others.is_empty()).then(|| (rt.target.clone(), own, others))
            }
            _ => None,
        });
        let Some((target, own, others)) = shared else {
            return;
        };
        let others: Vec<String> = others.iter().map(|&n| self.listener_name(n)).collect();
        let why = match own {
            None => format!(
                "is aimed at {target}, a plain HTTP listener sharing its port with {}: one Envoy listener, which the settings would reach whole; its controller refuses the policy",
                others.join(", ")
            ),
            Some(own) => format!(
                "is aimed at {target}, whose plain HTTP {} shares its port with {}: one Envoy listener, which the settings would reach too; its controller refuses the policy",
                self.listener_name(own),
                others.join(", ")
            ),
        };
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

    /// For a policy of kind `kind` aimed at the whole of `owner` (a Gateway or a
    /// ListenerSet): its first plain HTTP listener sharing a port with those of other
    /// Gateways or ListenerSets, and those, its listeners aimed at by a policy of the
    /// kind of their own (`claimed`) left out. None: no listener of it does.
    fn sharing_with_others(
        &self,
        owner: NodeId,
        kind: &GroupKind,
        claimed: &Claimed,
    ) -> Option<(Option<NodeId>, Vec<NodeId>)> {
        let nodes = &self.topology.nodes;
        nodes[owner].children.iter().copied().find_map(|listener| {
            let own =
                nodes[listener].owner == Some(owner) && nodes[listener].role == Role::Listener;
            if !own || claimed.contains(&(kind.clone(), listener)) {
                return None;
            }
            let others: Vec<NodeId> = self
                .http_listeners_sharing_port(listener)
                .into_iter()
                .filter(|&other| nodes[other].owner != Some(owner))
                .collect();
            (!others.is_empty()).then_some((Some(listener), others))
        })
    }

    /// A listener section as `describe` names it.
    fn listener_name(&self, listener: NodeId) -> String {
        let obj_ref = &self.topology.nodes[listener].obj_ref;
        format!(
            "listener {} of {} {}",
            obj_ref.section.as_deref().unwrap_or_default(),
            obj_ref.kind,
            obj_ref.ns_name()
        )
    }

    /// (port, protocol) of a listener section, from its object's spec.
    fn port_and_protocol(&self, section: NodeId) -> Option<(u64, String)> {
        let nodes = &self.topology.nodes;
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
    }

    /// The other plain HTTP listeners with `listener`'s port, when `listener` is plain
    /// HTTP: those of the Gateways of its proxy (`proxy_gateways`) and of the
    /// ListenerSets attached to them.
    fn http_listeners_sharing_port(&self, listener: NodeId) -> Vec<NodeId> {
        let nodes = &self.topology.nodes;
        let Some((port, protocol)) = self.port_and_protocol(listener) else {
            return Vec::new();
        };
        if protocol != "HTTP" {
            return Vec::new();
        }
        let Some(owner) = nodes[listener].owner else {
            return Vec::new();
        };
        let gateways: Vec<NodeId> = match nodes[owner].role {
            Role::Gateway => self.proxy_gateways(owner),
            Role::ListenerSet => nodes[owner]
                .parents
                .iter()
                .copied()
                .filter(|&parent| nodes[parent].role == Role::Gateway)
                .flat_map(|gateway| self.proxy_gateways(gateway))
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
                if self
                    .port_and_protocol(other)
                    .is_some_and(|(p, proto)| p == port && proto == "HTTP")
                {
                    out.push(other);
                }
            }
        }
        out
    }
}

//! The edges above the listeners: a Gateway below its GatewayClass, a ListenerSet below
//! the Gateway it names when that Gateway lets it attach (GEP-1713's `allowedListeners`).

use super::Builder;
use crate::catalog::policy::{FieldError, LabelSelector};
use crate::model::{ObjRef, Val, GATEWAY_GROUP, GATEWAY_X_GROUP};
use crate::topology::{Code, Finding, NodeId, RefKey};
use std::collections::BTreeMap;

/// Why a Gateway refuses a ListenerSet, by its `spec.allowedListeners` (GEP-1713): the
/// end of a finding that starts with the Gateway's name.
#[derive(Debug, thiserror::Error)]
enum ListenerSetRefused<'a> {
    #[error("allows ListenerSets from namespace {gateway_namespace} only")]
    OtherNamespace { gateway_namespace: &'a str },
    #[error("allows ListenerSets from the namespaces its selector matches, not {namespace}")]
    NamespaceNotSelected { namespace: &'a str },
    /// Its selector is misshapen: the field under `spec.allowedListeners.namespaces`.
    #[error("spec.allowedListeners.namespaces.{} {}", .0.field, .0.problem)]
    InvalidSelector(FieldError),
    /// `from: None`, or no `allowedListeners` at all.
    #[error("allows no ListenerSets (spec.allowedListeners)")]
    NoneAllowed,
    #[error("has an unknown spec.allowedListeners.namespaces.from {0:?}")]
    UnknownFrom(&'a str),
}

impl<'s> Builder<'s> {
    /// The edge from the GatewayClass Gateway `id` names.
    pub(super) fn link_gateway(&mut self, id: NodeId, gateway: &ObjRef, spec: &Val) {
        match spec.get("gatewayClassName").and_then(Val::as_str) {
            Some(class) => {
                let class_in = |group| RefKey::new(group, "GatewayClass", None, class);
                match self
                    .topology
                    .find(class_in(GATEWAY_GROUP))
                    .or_else(|| self.topology.find(class_in(GATEWAY_X_GROUP)))
                {
                    Some(class_node) => self.edge(class_node, id),
                    None => self.topology.findings.push(Finding::new(
                        Code::ParentNotFound,
                        gateway.clone(),
                        format!("GatewayClass {class} is not in the input"),
                    )),
                }
            }
            None => self.invalid(gateway, "spec.gatewayClassName", "is missing"),
        }
    }

    /// The edge from the Gateway ListenerSet `id` names, if that Gateway lets it attach.
    pub(super) fn link_listener_set(&mut self, id: NodeId, listener_set: &ObjRef, spec: &Val) {
        let Some(parent_ref) = spec.get("parentRef") else {
            self.invalid(listener_set, "spec.parentRef", "is missing");
            return;
        };
        let Some(name) = parent_ref.get("name").and_then(Val::as_str) else {
            self.invalid(listener_set, "spec.parentRef.name", "is missing");
            return;
        };
        let ns = parent_ref
            .get("namespace")
            .and_then(Val::as_str)
            .or(listener_set.namespace.as_deref());
        let gw = RefKey::new(GATEWAY_GROUP, "Gateway", ns, name);
        match self.topology.find(gw) {
            Some(gateway) => match self.allows_listener_sets(gateway, listener_set) {
                Ok(()) => self.edge(gateway, id),
                Err(why) => self.topology.findings.push(Finding::new(
                    Code::NotAdmitted,
                    listener_set.clone(),
                    format!("spec.parentRef: Gateway {} {why}", gw.ns_name()),
                )),
            },
            None => self.topology.findings.push(Finding::new(
                Code::ParentNotFound,
                listener_set.clone(),
                format!("parent Gateway {} is not in the input", gw.ns_name()),
            )),
        }
    }

    /// Whether Gateway `gateway` lets ListenerSet `listener_set` attach: its
    /// `spec.allowedListeners` (`from: None` when unset, so no ListenerSet: GEP-1713).
    fn allows_listener_sets<'a>(
        &'a self,
        gateway: NodeId,
        listener_set: &'a ObjRef,
    ) -> Result<(), ListenerSetRefused<'a>> {
        let spec = self.topology.nodes[gateway]
            .object
            .map(|oi| &self.objects[oi].spec);
        let ns_cfg = spec.and_then(|s| s.pointer("/allowedListeners/namespaces"));
        let from = ns_cfg
            .and_then(|n| n.get("from"))
            .and_then(Val::as_str)
            .unwrap_or("None");
        let gw_ns = self.topology.nodes[gateway].obj_ref.namespace.as_deref();
        let ls_ns = listener_set.namespace.as_deref().unwrap_or_default();
        match from {
            "All" => Ok(()),
            "Same" if listener_set.namespace.as_deref() == gw_ns => Ok(()),
            "Same" => Err(ListenerSetRefused::OtherNamespace {
                gateway_namespace: gw_ns.unwrap_or_default(),
            }),
            "Selector" => {
                let no_labels = BTreeMap::new();
                let labels = self
                    .topology
                    .namespaces
                    .get(ls_ns)
                    .map_or(&no_labels, |n| &n.labels);
                let selector = ns_cfg
                    .and_then(|n| n.get("selector"))
                    .map(|s| LabelSelector::parse(s, "selector"))
                    .unwrap_or(Ok(LabelSelector::default()));
                match selector {
                    Ok(sel) if sel.matches(labels) => Ok(()),
                    Ok(_) => Err(ListenerSetRefused::NamespaceNotSelected { namespace: ls_ns }),
                    Err(invalid) => Err(ListenerSetRefused::InvalidSelector(invalid)),
                }
            }
            "None" => Err(ListenerSetRefused::NoneAllowed),
            other => Err(ListenerSetRefused::UnknownFrom(other)),
        }
    }
}

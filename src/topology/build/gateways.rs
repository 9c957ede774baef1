//! The edges above the listeners: a Gateway below its GatewayClass, a ListenerSet below
//! the Gateway it names when that Gateway lets it attach (GEP-1713's `allowedListeners`).

use super::Builder;
use crate::catalog::policy::LabelSelector;
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
    #[error("spec.allowedListeners.namespaces.{field} {message}")]
    InvalidSelector { field: String, message: String },
    /// `from: None`, or no `allowedListeners` at all.
    #[error("allows no ListenerSets (spec.allowedListeners)")]
    NoneAllowed,
    #[error("has an unknown spec.allowedListeners.namespaces.from {0:?}")]
    UnknownFrom(&'a str),
}

impl<'s> Builder<'s> {
    pub(super) fn link_gateway(&mut self, id: NodeId, r: &ObjRef, spec: &Val) {
        match spec.get("gatewayClassName").and_then(Val::as_str) {
            Some(class) => {
                let class_in = |group| RefKey::new(group, "GatewayClass", None, class);
                match self
                    .t
                    .find(class_in(GATEWAY_GROUP))
                    .or_else(|| self.t.find(class_in(GATEWAY_X_GROUP)))
                {
                    Some(c) => self.edge(c, id),
                    None => self.t.findings.push(Finding::new(
                        Code::ParentNotFound,
                        r.clone(),
                        format!("GatewayClass {class} is not in the input"),
                    )),
                }
            }
            None => self.invalid(r, "spec.gatewayClassName", "is missing"),
        }
    }

    pub(super) fn link_listener_set(&mut self, id: NodeId, r: &ObjRef, spec: &Val) {
        let Some(p) = spec.get("parentRef") else {
            self.invalid(r, "spec.parentRef", "is missing");
            return;
        };
        let Some(name) = p.get("name").and_then(Val::as_str) else {
            self.invalid(r, "spec.parentRef.name", "is missing");
            return;
        };
        let ns = p
            .get("namespace")
            .and_then(Val::as_str)
            .or(r.namespace.as_deref());
        let gw = RefKey::new(GATEWAY_GROUP, "Gateway", ns, name);
        match self.t.find(gw) {
            Some(g) => match self.allows_listener_sets(g, r) {
                Ok(()) => self.edge(g, id),
                Err(why) => self.t.findings.push(Finding::new(
                    Code::NotAdmitted,
                    r.clone(),
                    format!("spec.parentRef: Gateway {} {why}", gw.ns_name()),
                )),
            },
            None => self.t.findings.push(Finding::new(
                Code::ParentNotFound,
                r.clone(),
                format!("parent Gateway {} is not in the input", gw.ns_name()),
            )),
        }
    }

    /// Whether Gateway `g` lets ListenerSet `ls` attach: its `spec.allowedListeners`
    /// (`from: None` when unset, so no ListenerSet: GEP-1713).
    fn allows_listener_sets<'a>(
        &'a self,
        g: NodeId,
        ls: &'a ObjRef,
    ) -> Result<(), ListenerSetRefused<'a>> {
        let spec = self.t.nodes[g].object.map(|o| &self.objects[o].spec);
        let ns_cfg = spec.and_then(|s| s.pointer("/allowedListeners/namespaces"));
        let from = ns_cfg
            .and_then(|n| n.get("from"))
            .and_then(Val::as_str)
            .unwrap_or("None");
        let gw_ns = self.t.nodes[g].obj_ref.namespace.as_deref();
        let ls_ns = ls.namespace.as_deref().unwrap_or_default();
        match from {
            "All" => Ok(()),
            "Same" if ls.namespace.as_deref() == gw_ns => Ok(()),
            "Same" => Err(ListenerSetRefused::OtherNamespace {
                gateway_namespace: gw_ns.unwrap_or_default(),
            }),
            "Selector" => {
                let no_labels = BTreeMap::new();
                let labels = self
                    .t
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
                    Err((field, message)) => {
                        Err(ListenerSetRefused::InvalidSelector { field, message })
                    }
                }
            }
            "None" => Err(ListenerSetRefused::NoneAllowed),
            other => Err(ListenerSetRefused::UnknownFrom(other)),
        }
    }
}

//! A route's parentRefs: the edges from the listeners that admit it (or from the
//! Service it is a mesh route of), and why none does when none does.

use super::listeners::{Admission, ListenerRefusal, ParentSection};
use super::{invalid, listed, Borrowed, RouteChange, View};
use crate::model::{
    is_gateway_group, normalize_group, Links, ObjRef, GATEWAY_GROUP, GATEWAY_X_GROUP,
};
use crate::topology::{Code, Finding, NodeId, RefKey, Role};
use std::fmt::Write as _;

/// One entry of a route's parentRefs, read: the object it names and the listeners it
/// narrows to (`sectionName`, `port`).
struct ParentRef<'v> {
    /// Its index in `spec.parentRefs`.
    index: usize,
    target: RefKey<'v>,
    section: Option<&'v str>,
    port: Option<u64>,
}

impl ParentRef<'_> {
    /// The field it was read from, for findings.
    fn field(&self) -> String {
        format!("spec.parentRefs[{}]", self.index)
    }
}

/// The route whose parentRefs are linked: its node, its reference and the hostnames it
/// lists, which every listener it names is asked to admit.
struct Child<'r> {
    id: NodeId,
    route: &'r ObjRef,
    hostnames: &'r [&'r str],
}

impl<'s> View<'_, 's> {
    /// A route's parentRefs: the edges from the listeners (or parents) that admit it.
    pub(super) fn parents(
        &self,
        id: NodeId,
        route: &ObjRef,
        links: &Links,
        out: &mut Vec<RouteChange>,
    ) {
        let parent_refs = listed(&links.parent_refs, "parentRefs", route, |f| {
            out.push(RouteChange::found(f))
        });
        let hostnames: Vec<&str> = links.hostnames.iter().map(|h| h.as_str()).collect();
        for (index, entry) in parent_refs.iter().enumerate() {
            let entry = entry.borrowed();
            let Some(name) = entry.name else {
                let field = format!("spec.parentRefs[{index}].name");
                out.push(RouteChange::found(invalid(route, &field, "is missing")));
                continue;
            };
            let group = normalize_group(entry.group.unwrap_or(GATEWAY_GROUP));
            let kind = entry.kind.unwrap_or("Gateway");
            if kind == "HTTPRoute" && is_gateway_group(group) {
                // A delegated child names its parent route: the parent's backendRef links
                // them (`delegate`).
                continue;
            }
            let parent_ref = ParentRef {
                index,
                target: RefKey::new(
                    group,
                    kind,
                    entry.namespace.or(route.namespace.as_deref()),
                    name,
                ),
                section: entry.section_name,
                port: entry.port,
            };
            if kind == "Service" && group.is_empty() {
                out.push(self.mesh_parent(id, route, &parent_ref));
                continue;
            }
            match self.gateway_parent(id, route, &parent_ref) {
                Ok(parent) => {
                    let child = Child {
                        id,
                        route,
                        hostnames: &hostnames,
                    };
                    self.link_listeners(&child, parent, &parent_ref, out)
                }
                Err(finding) => out.push(RouteChange::found(finding)),
            }
        }
    }

    /// GAMMA: the Service a mesh route names is its parent.
    fn mesh_parent(&self, id: NodeId, route: &ObjRef, parent_ref: &ParentRef) -> RouteChange {
        let target = parent_ref.target;
        match self.topology.find(target) {
            Some(service) => RouteChange::Edge(service, id),
            None => RouteChange::found(Finding::new(
                Code::ParentNotFound,
                route.clone(),
                format!(
                    "{}: Service {} is not in the input",
                    parent_ref.field(),
                    target.ns_name()
                ),
            )),
        }
    }

    /// The node of the Gateway (or ListenerSet...) a parentRef names, or the finding
    /// it makes: not in the input, or the route itself.
    fn gateway_parent(
        &self,
        id: NodeId,
        route: &ObjRef,
        parent_ref: &ParentRef,
    ) -> Result<NodeId, Finding> {
        let target = parent_ref.target;
        let kind = target.kind;
        // ListenerSet is still XListenerSet in the experimental channel.
        let experimental = RefKey::new(
            GATEWAY_X_GROUP,
            if kind == "ListenerSet" {
                "XListenerSet"
            } else {
                kind
            },
            target.namespace,
            target.name,
        );
        let Some(parent) = self
            .topology
            .find(target)
            .or_else(|| self.topology.find(experimental))
        else {
            return Err(Finding::new(
                Code::ParentNotFound,
                route.clone(),
                format!(
                    "{}: {kind} {} is not in the input",
                    parent_ref.field(),
                    target.ns_name()
                ),
            ));
        };
        if parent == id {
            return Err(Finding::new(
                Code::Cycle,
                route.clone(),
                format!(
                    "{}: the route names itself as its parent, a cycle ({} → {}); \
                     the reference is left out",
                    parent_ref.field(),
                    route.short(),
                    route.short()
                ),
            ));
        }
        Ok(parent)
    }

    /// The edges from the listeners of `parent` that admit route `child` (from `parent`
    /// itself when it has no listeners), or the finding that none does and why.
    fn link_listeners(
        &self,
        child: &Child,
        parent: NodeId,
        parent_ref: &ParentRef,
        out: &mut Vec<RouteChange>,
    ) {
        let Child {
            id,
            route,
            hostnames,
        } = *child;
        let listeners: Vec<NodeId> = self.topology.nodes[parent]
            .children
            .iter()
            .copied()
            .filter(|&c| self.topology.nodes[c].role == Role::Listener)
            .collect();
        if listeners.is_empty() {
            out.push(RouteChange::Edge(parent, id));
            return;
        }
        let mut admitted = 0;
        let mut reasons = Vec::new();
        let named = ParentSection {
            section: parent_ref.section,
            port: parent_ref.port,
        };
        for listener in listeners {
            match self.admits(listener, route, hostnames, named) {
                Admission::Admitted => {
                    out.push(RouteChange::Edge(listener, id));
                    admitted += 1;
                }
                Admission::Refused(reason) => reasons.push(reason),
                Admission::NotNamed => {}
            }
        }
        if admitted == 0 {
            out.push(RouteChange::found(not_admitted(
                route, parent_ref, &reasons,
            )));
        }
    }
}

/// The finding a parentRef makes when no listener admits the route: why each listener
/// it names refuses, or that the listener it names does not exist.
fn not_admitted(route: &ObjRef, parent_ref: &ParentRef, reasons: &[ListenerRefusal]) -> Finding {
    let field = parent_ref.field();
    let (kind, parent) = (parent_ref.target.kind, parent_ref.target.ns_name());
    let mut msg = format!("{field}: no listener of {kind} {parent} admits this route");
    if let Some(section) = parent_ref.section {
        if !reasons.iter().any(|reason| reason.listener == section) {
            msg = format!("{field}: {kind} {parent} has no listener named {section}");
        }
    }
    for (index, reason) in reasons.iter().enumerate() {
        let before = if index == 0 { " (" } else { "; " };
        // Writing to a String cannot fail.
        let _ = write!(msg, "{before}{reason}");
    }
    if !reasons.is_empty() {
        msg.push(')');
    }
    Finding::new(Code::NotAdmitted, route.clone(), msg)
}

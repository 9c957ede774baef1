//! A route's parentRefs: the edges from the listeners that admit it (or from the
//! Service it is a mesh route of), and why none does when none does.

use super::{invalid, listed, Borrowed, Step, View};
use crate::model::{
    is_gateway_group, normalize_group, Links, ObjRef, GATEWAY_GROUP, GATEWAY_X_GROUP,
};
use crate::topology::{Code, Finding, NodeId, RefKey, Role};

impl<'s> View<'_, 's> {
    /// A route's parentRefs: the edges from the listeners (or parents) that admit it.
    pub(super) fn parents(&self, id: NodeId, r: &ObjRef, links: &Links, out: &mut Vec<Step>) {
        let parent_refs = listed(&links.parent_refs, "parentRefs", r, |f| {
            out.push(Step::found(f))
        });
        let hostnames: Vec<&str> = links.hostnames.iter().map(|h| h.as_str()).collect();
        for (j, p) in parent_refs.iter().enumerate() {
            let field = || format!("spec.parentRefs[{j}]");
            let p = p.borrowed();
            let Some(name) = p.name else {
                out.push(Step::found(invalid(
                    r,
                    &format!("{}.name", field()),
                    "is missing",
                )));
                continue;
            };
            let group = normalize_group(p.group.unwrap_or(GATEWAY_GROUP));
            let kind = p.kind.unwrap_or("Gateway");
            if kind == "HTTPRoute" && is_gateway_group(group) {
                // A delegated child names its parent route: the parent's backendRef links
                // them (`delegate`).
                continue;
            }
            let ns = p.namespace.or(r.namespace.as_deref());
            let (section, port) = (p.section_name, p.port);
            let target = RefKey::new(group, kind, ns, name);
            if kind == "Service" && group.is_empty() {
                // GAMMA: the Service is the route's parent (mesh).
                match self.t.find(target) {
                    Some(s) => out.push(Step::Edge(s, id)),
                    None => out.push(Step::found(Finding::new(
                        Code::ParentNotFound,
                        r.clone(),
                        format!(
                            "{}: Service {} is not in the input",
                            field(),
                            target.ns_name()
                        ),
                    ))),
                }
                continue;
            }
            // ListenerSet is still XListenerSet in the experimental channel.
            let experimental = RefKey::new(
                GATEWAY_X_GROUP,
                if kind == "ListenerSet" {
                    "XListenerSet"
                } else {
                    kind
                },
                ns,
                name,
            );
            let Some(parent) = self.t.find(target).or_else(|| self.t.find(experimental)) else {
                out.push(Step::found(Finding::new(
                    Code::ParentNotFound,
                    r.clone(),
                    format!(
                        "{}: {kind} {} is not in the input",
                        field(),
                        target.ns_name()
                    ),
                )));
                continue;
            };
            if parent == id {
                out.push(Step::found(Finding::new(
                    Code::Cycle,
                    r.clone(),
                    format!(
                        "{}: the route names itself as its parent, a cycle ({} → {}); \
                         the reference is left out",
                        field(),
                        r.short(),
                        r.short()
                    ),
                )));
                continue;
            }
            let listeners: Vec<NodeId> = self.t.nodes[parent]
                .children
                .iter()
                .copied()
                .filter(|&c| self.t.nodes[c].role == Role::Listener)
                .collect();
            if listeners.is_empty() {
                out.push(Step::Edge(parent, id));
                continue;
            }
            let mut admitted = 0;
            let mut reasons = Vec::new();
            for l in listeners {
                match self.admits(l, r, &hostnames, section, port) {
                    Ok(()) => {
                        out.push(Step::Edge(l, id));
                        admitted += 1;
                    }
                    Err(Some(reason)) => reasons.push(reason),
                    Err(None) => {}
                }
            }
            if admitted == 0 {
                let field = field();
                let mut msg = format!(
                    "{field}: no listener of {} {} admits this route",
                    kind,
                    target.ns_name()
                );
                if let Some(s) = section {
                    if !reasons
                        .iter()
                        .any(|x| x.starts_with(&format!("listener {s}:")))
                    {
                        msg = format!(
                            "{field}: {kind} {} has no listener named {s}",
                            target.ns_name()
                        );
                    }
                }
                if !reasons.is_empty() {
                    msg.push_str(" (");
                    msg.push_str(&reasons.join("; "));
                    msg.push(')');
                }
                out.push(Step::found(Finding::new(Code::NotAdmitted, r.clone(), msg)));
            }
        }
    }
}

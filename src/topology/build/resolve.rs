//! A policy's targets resolved to nodes: a targetRef (its object, or the section it
//! names), a targetSelectors entry (the objects whose labels match), a Namespace, or
//! an object of a kind outside the hierarchy (made a node of its own).

use super::{Builder, View};
use crate::catalog::policy::{LabelSelector, SelectorScope};
use crate::catalog::Class;
use crate::model::{is_cluster_scoped, ObjRef, ObjectId, GATEWAY_X_GROUP, ROUTE_KINDS};
use crate::topology::{
    Code, Finding, NodeId, PolicyId, RefKey, Resolution, ResolvedTarget, Role, Severity,
};

/// A target's resolution and the finding it makes, if any.
pub(super) type Resolved = (Resolution, Option<Finding>);

/// Whether objects of `r`'s kind are nodes of the hierarchy the tool models.
fn is_modelled_kind(r: &ObjRef) -> bool {
    matches!(
        r.kind.as_str(),
        "GatewayClass" | "Gateway" | "ListenerSet" | "XListenerSet" | "Service" | "ServiceImport"
    ) || ROUTE_KINDS.contains(&r.kind.as_str())
}

impl<'s> Builder<'s> {
    /// The objects a `targetSelectors` entry of policy `pid` selects: of its kind, in
    /// the namespaces it names, with matching labels. One in another namespace than
    /// the policy's needs a ReferenceGrant there (Envoy Gateway); without one it is a
    /// finding, not a target.
    pub(super) fn select(
        &mut self,
        pid: PolicyId,
        gk: &crate::model::GroupKind,
        scope: &SelectorScope,
        selector: &LabelSelector,
    ) -> Vec<ObjRef> {
        let policy = self.t.policies[pid].obj_ref.clone();
        let in_scope = |ns: Option<&str>| match scope {
            SelectorScope::Same(same) => ns == same.as_deref(),
            SelectorScope::All => true,
            SelectorScope::Labelled(sel) => ns
                .and_then(|ns| self.t.namespaces.get(ns))
                .is_some_and(|info| sel.matches(&info.labels)),
        };
        let mut matched: Vec<ObjectId> = self
            .by_kind()
            .iter()
            .filter(|((g, k, ns), _)| *g == gk.group && *k == gk.kind && in_scope(*ns))
            .flat_map(|(_, v)| v.iter().copied())
            .filter(|&oi| selector.matches(&self.objects[oi].labels))
            .collect();
        matched.sort_unstable();
        let mut out = Vec::new();
        for oi in matched {
            let r = self.objects[oi].obj_ref();
            if r.namespace != policy.namespace && !self.reference_granted(&policy, RefKey::of(&r)) {
                self.t.findings.push(Finding::new(
                    Code::RefNotPermitted,
                    policy.clone(),
                    format!(
                        "targetSelectors: {} {} matches, but no ReferenceGrant in {} allows {} from {}",
                        r.kind,
                        r.ns_name(),
                        r.namespace.as_deref().unwrap_or_default(),
                        policy.kind,
                        policy.namespace.as_deref().unwrap_or_default()
                    ),
                ));
                continue;
            }
            out.push(r);
        }
        if out.is_empty() {
            let where_ = match scope {
                SelectorScope::Same(ns) => {
                    format!("namespace {}", ns.as_deref().unwrap_or("(cluster)"))
                }
                SelectorScope::All => "any namespace".to_string(),
                SelectorScope::Labelled(_) => {
                    "the namespaces its namespace selector matches".to_string()
                }
            };
            self.t.findings.push(Finding::new(
                Code::SelectorMatchesNothing,
                policy,
                format!("targetSelectors: no {} in {where_} matches", gk.kind),
            ));
        }
        out
    }

    pub(super) fn resolve_ref(&mut self, pid: PolicyId, r: ObjRef) -> ResolvedTarget {
        let read = self.view().resolve(pid, &r);
        self.resolved(pid, r, read)
    }

    /// Target `r` of policy `pid`, as `View::resolve` read it beforehand (perhaps on
    /// another core); when it could not, because resolving it makes a node, resolved here.
    pub(super) fn resolved(
        &mut self,
        pid: PolicyId,
        r: ObjRef,
        read: Option<Resolved>,
    ) -> ResolvedTarget {
        let (resolution, finding) = match read {
            Some(read) => read,
            None => self.resolve_making_node(pid, &r),
        };
        if let Some(f) = finding {
            self.t.findings.push(f);
        }
        ResolvedTarget {
            target: r,
            resolution,
        }
    }

    /// The targets `View::resolve` leaves to the builder: a Direct policy's Namespace,
    /// and an object of a kind outside the hierarchy that has no node yet.
    fn resolve_making_node(&mut self, pid: PolicyId, r: &ObjRef) -> Resolved {
        if r.kind == "Namespace" && r.group.is_empty() {
            // A Direct policy on a Namespace affects the Namespace itself: a node of its
            // own, outside the hierarchy, where several conflict as on any other target.
            let before = self.t.nodes.len();
            let object = self.by_kind().get(&("", "Namespace", None)).and_then(|v| {
                v.iter()
                    .copied()
                    .find(|&oi| self.objects[oi].name == r.name)
            });
            let id = self.add_node(r.object(), Role::Namespace, object, None);
            if self.t.nodes.len() > before {
                self.t.attached.push(Vec::new());
                self.t.target_only.push(id);
            }
            return (Resolution::Node(id), None);
        }
        // A target kind outside the hierarchy the tool models (a Server, a
        // ServiceEntry): it exists, and the policy reaches it alone.
        let before = self.t.nodes.len();
        let id = match self.find_object(r) {
            Some(oi) => self.add_backend(r.object(), oi),
            None => self.add_node(r.object(), Role::Backend, None, None),
        };
        for _ in before..self.t.nodes.len() {
            self.t.attached.push(Vec::new());
        }
        if self.t.nodes.len() > before {
            self.t.target_only.push(id);
        }
        self.view().section_or_node(pid, r, id)
    }

    /// The object `r` names (its section aside).
    fn find_object(&self, r: &ObjRef) -> Option<ObjectId> {
        self.view().find_object(r)
    }
}

impl<'s> View<'_, 's> {
    /// How target `r` of policy `pid` resolves among the nodes as they are, with the
    /// finding it makes; None when resolving it makes a node (a Direct policy's
    /// Namespace, an object of a kind outside the hierarchy), which only the builder does.
    pub(super) fn resolve(&self, pid: PolicyId, r: &ObjRef) -> Option<Resolved> {
        let (code, msg) = if r.kind == "Namespace" && r.group.is_empty() {
            if self.t.namespaces.contains_key(r.name.as_str()) {
                if self.t.policies[pid].class == Class::Direct {
                    return None;
                }
                return Some((Resolution::Namespace(r.name.to_string()), None));
            }
            (
                Code::TargetNotFound,
                format!("Namespace {} is not in the input", r.name),
            )
        } else if self.t.catalog.get(&r.group_kind()).is_some() {
            let policy = &self.t.policies[pid].obj_ref;
            let what = if r.object() == policy.object() {
                "the policy itself".to_string()
            } else {
                format!("{} {}, a policy", r.kind, r.ns_name())
            };
            let msg = format!(
                "its target is {what}: a policy attaches to an object of the hierarchy \
                 (a Gateway, a route, a Service...), never to a policy"
            );
            let finding = Finding::new(Code::TargetIsPolicy, policy.clone(), msg);
            return Some((Resolution::NotFound(Code::TargetIsPolicy), Some(finding)));
        } else {
            let whole = RefKey::of(r).with_section(None);
            let found = self.t.find(whole).or_else(|| {
                // ListenerSet is still XListenerSet in the experimental channel.
                (r.kind == "ListenerSet")
                    .then(|| {
                        self.t.find(RefKey {
                            group: GATEWAY_X_GROUP,
                            kind: "XListenerSet",
                            ..whole
                        })
                    })
                    .flatten()
            });
            match found {
                None if !is_modelled_kind(r) && self.object_exists(r) => return None,
                None => (
                    Code::TargetNotFound,
                    format!("{} {} is not in the input", r.kind, r.ns_name()),
                ),
                Some(id) => return Some(self.section_or_node(pid, r, id)),
            }
        };
        let policy = self.t.policies[pid].obj_ref.clone();
        let mut finding = Finding::new(code, policy, msg);
        if let Some(blind) = self.blind_spots.iter().find(|b| {
            b.group == r.group
                && b.kind == r.kind
                && (b.namespace.is_none() || b.namespace.as_deref() == r.namespace.as_deref())
        }) {
            // Not seen is not the same as not there: say which, and do not fail `check`.
            finding.severity = Severity::Warning;
            finding.message = format!(
                "{} {} could not be read ({}): whether it exists is unknown",
                r.kind,
                r.ns_name(),
                blind.message
            );
        }
        Some((Resolution::NotFound(code), Some(finding)))
    }

    /// Target `r`, whose object is node `id`: that node, or the section `r` names.
    fn section_or_node(&self, pid: PolicyId, r: &ObjRef, id: NodeId) -> Resolved {
        let Some(section) = &r.section else {
            return (Resolution::Node(id), None);
        };
        match self
            .t
            .find(RefKey::of(&self.t.nodes[id].obj_ref).with_section(Some(section)))
        {
            Some(s) => (Resolution::Node(s), None),
            None => {
                let what = match self.t.nodes[id].role {
                    Role::Gateway | Role::ListenerSet => "listener",
                    Role::Route => "rule",
                    Role::Backend => "port",
                    _ => "section",
                };
                let finding = Finding::new(
                    Code::SectionNotFound,
                    self.t.policies[pid].obj_ref.clone(),
                    format!("{} {} has no {what} named {section}", r.kind, r.ns_name()),
                );
                (Resolution::NotFound(Code::SectionNotFound), Some(finding))
            }
        }
    }

    /// The object `r` names (its section aside).
    fn find_object(&self, r: &ObjRef) -> Option<ObjectId> {
        self.by_kind
            .get(&(r.group.as_str(), r.kind.as_str(), r.namespace.as_deref()))
            .and_then(|v| {
                v.iter()
                    .copied()
                    .find(|&oi| self.objects[oi].name == r.name)
            })
    }

    fn object_exists(&self, r: &ObjRef) -> bool {
        self.find_object(r).is_some() && !is_cluster_scoped(&r.kind)
    }
}

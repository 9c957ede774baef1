//! A policy's targets resolved to nodes: a targetRef (its object, or the section it
//! names), a targetSelectors entry (the objects whose labels match), a Namespace, or
//! an object of a kind outside the hierarchy (made a node of its own).

use super::{Builder, View};
use crate::catalog::policy::{LabelSelector, SelectorScope, TargetRefusal};
use crate::catalog::Class;
use crate::model::{is_cluster_scoped, ObjRef, ObjectId, GATEWAY_X_GROUP, ROUTE_KINDS};
use crate::topology::{
    Code, Finding, NodeId, PolicyId, RefKey, Resolution, ResolvedTarget, Role, Severity,
};

/// A target's resolution and the finding it makes, if any.
pub(super) type Resolved = (Resolution, Option<Finding>);

/// Whether objects of `target`'s kind are nodes of the hierarchy the tool models.
fn is_modelled_kind(target: &ObjRef) -> bool {
    matches!(
        target.kind.as_str(),
        "GatewayClass" | "Gateway" | "ListenerSet" | "XListenerSet" | "Service" | "ServiceImport"
    ) || ROUTE_KINDS.contains(&target.kind.as_str())
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
        let policy = self.topology.policies[pid].obj_ref.clone();
        let in_scope = |ns: Option<&str>| match scope {
            SelectorScope::Same(same) => ns == same.as_deref(),
            SelectorScope::All => true,
            SelectorScope::Labelled(sel) => ns
                .and_then(|ns| self.topology.namespaces.get(ns))
                .is_some_and(|info| sel.matches(&info.labels)),
        };
        let mut matched: Vec<ObjectId> = self
            .by_kind()
            .iter()
            .filter(|((group, kind, ns), _)| {
                *group == gk.group && *kind == gk.kind && in_scope(*ns)
            })
            .flat_map(|(_, ids)| ids.iter().copied())
            .filter(|&oi| selector.matches(&self.objects[oi].labels))
            .collect();
        matched.sort_unstable();
        let mut out = Vec::new();
        for oi in matched {
            let selected = self.objects[oi].obj_ref();
            if selected.namespace != policy.namespace
                && !self.reference_granted(&policy, RefKey::of(&selected))
            {
                self.topology.findings.push(Finding::new(
                    Code::RefNotPermitted,
                    policy.clone(),
                    format!(
                        "targetSelectors: {} {} matches, but no ReferenceGrant in {} allows {} from {}",
                        selected.kind,
                        selected.ns_name(),
                        selected.namespace.as_deref().unwrap_or_default(),
                        policy.kind,
                        policy.namespace.as_deref().unwrap_or_default()
                    ),
                ));
                continue;
            }
            out.push(selected);
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
            self.topology.findings.push(Finding::new(
                Code::SelectorMatchesNothing,
                policy,
                format!("targetSelectors: no {} in {where_} matches", gk.kind),
            ));
        }
        out
    }

    pub(super) fn resolve_ref(&mut self, pid: PolicyId, target: ObjRef) -> ResolvedTarget {
        let read = self.view().resolve(pid, &target);
        self.resolved(pid, target, read)
    }

    /// Target `target` of policy `pid`, as `View::resolve` read it beforehand (perhaps on
    /// another core); when it could not, because resolving it makes a node, resolved here.
    pub(super) fn resolved(
        &mut self,
        pid: PolicyId,
        target: ObjRef,
        read: Option<Resolved>,
    ) -> ResolvedTarget {
        let (resolution, finding) = match read {
            Some(read) => read,
            None => self.resolve_making_node(pid, &target),
        };
        if let Some(finding) = finding {
            self.topology.findings.push(finding);
        }
        ResolvedTarget { target, resolution }
    }

    /// The targets `View::resolve` leaves to the builder: a Direct policy's Namespace,
    /// and an object of a kind outside the hierarchy that has no node yet.
    fn resolve_making_node(&mut self, pid: PolicyId, target: &ObjRef) -> Resolved {
        if target.kind == "Namespace" && target.group.is_empty() {
            // A Direct policy on a Namespace affects the Namespace itself: a node of its
            // own, outside the hierarchy, where several conflict as on any other target.
            let before = self.topology.nodes.len();
            let object = self
                .by_kind()
                .get(&("", "Namespace", None))
                .and_then(|ids| {
                    ids.iter()
                        .copied()
                        .find(|&oi| self.objects[oi].name == target.name)
                });
            let id = self.add_node(target.object(), Role::Namespace, object, None);
            if self.topology.nodes.len() > before {
                self.topology.attached.push(Vec::new());
                self.topology.target_only.push(id);
            }
            return (Resolution::Node(id), None);
        }
        // A target kind outside the hierarchy the tool models (a Server, a
        // ServiceEntry): it exists, and the policy reaches it alone.
        let before = self.topology.nodes.len();
        let id = match self.find_object(target) {
            Some(oi) => self.add_backend(target.object(), oi),
            None => self.add_node(target.object(), Role::Backend, None, None),
        };
        for _ in before..self.topology.nodes.len() {
            self.topology.attached.push(Vec::new());
        }
        if self.topology.nodes.len() > before {
            self.topology.target_only.push(id);
        }
        self.view().section_or_node(pid, target, id)
    }

    /// The object `target` names (its section aside).
    fn find_object(&self, target: &ObjRef) -> Option<ObjectId> {
        self.view().find_object(target)
    }
}

impl<'s> View<'_, 's> {
    /// How target `target` of policy `pid` resolves among the nodes as they are, with the
    /// finding it makes; None when resolving it makes a node (a Direct policy's
    /// Namespace, an object of a kind outside the hierarchy), which only the builder does.
    pub(super) fn resolve(&self, pid: PolicyId, target: &ObjRef) -> Option<Resolved> {
        let is_policy = self.topology.catalog.get(&target.group_kind()).is_some();
        if self.topology.policies[pid].refuses_kind(&target.kind) && !is_policy {
            // Its vendor refuses a target of this kind: the policy's `invalid` says
            // which reference, and the finding is made from it. (A policy named as a
            // target is told as such below.)
            return Some((Resolution::NotFound(Code::Invalid), None));
        }
        if let Some(refusal) = self.topology.policies[pid].refusal_on(target) {
            // Its vendor refuses it on this target alone (`Rare::refused_targets`);
            // the finding that says why was made where the refusal was found.
            let code = match refusal {
                TargetRefusal::Invalid => Code::Invalid,
                TargetRefusal::Conflicted => Code::Conflicted,
            };
            return Some((Resolution::NotFound(code), None));
        }
        let (code, msg) = if target.kind == "Namespace" && target.group.is_empty() {
            if self.topology.namespaces.contains_key(target.name.as_str()) {
                if self.topology.policies[pid].class == Class::Direct {
                    return None;
                }
                return Some((Resolution::Namespace(target.name.to_string()), None));
            }
            (
                Code::TargetNotFound,
                format!("Namespace {} is not in the input", target.name),
            )
        } else if is_policy {
            let policy = &self.topology.policies[pid].obj_ref;
            let what = if target.object() == policy.object() {
                "the policy itself".to_string()
            } else {
                format!("{} {}, a policy", target.kind, target.ns_name())
            };
            let msg = format!(
                "its target is {what}: a policy attaches to an object of the hierarchy \
                 (a Gateway, a route, a Service...), never to a policy"
            );
            let finding = Finding::new(Code::TargetIsPolicy, policy.clone(), msg);
            return Some((Resolution::NotFound(Code::TargetIsPolicy), Some(finding)));
        } else {
            let whole = RefKey::of(target).with_section(None);
            let found = self.topology.find(whole).or_else(|| {
                // ListenerSet is still XListenerSet in the experimental channel.
                (target.kind == "ListenerSet")
                    .then(|| {
                        self.topology.find(RefKey {
                            group: GATEWAY_X_GROUP,
                            kind: "XListenerSet",
                            ..whole
                        })
                    })
                    .flatten()
            });
            match found {
                None if !is_modelled_kind(target) && self.object_exists(target) => return None,
                None => (
                    Code::TargetNotFound,
                    format!("{} {} is not in the input", target.kind, target.ns_name()),
                ),
                Some(id) => return Some(self.section_or_node(pid, target, id)),
            }
        };
        let policy = self.topology.policies[pid].obj_ref.clone();
        let mut finding = Finding::new(code, policy, msg);
        if let Some(blind) = self.blind_spots.iter().find(|blind| {
            blind.group == target.group
                && blind.kind == target.kind
                && (blind.namespace.is_none()
                    || blind.namespace.as_deref() == target.namespace.as_deref())
        }) {
            // Not seen is not the same as not there: say which, and do not fail `check`.
            finding.severity = Severity::Warning;
            finding.message = format!(
                "{} {} could not be read ({}): whether it exists is unknown",
                target.kind,
                target.ns_name(),
                blind.message
            );
        }
        Some((Resolution::NotFound(code), Some(finding)))
    }

    /// Target `target`, whose object is node `id`: that node, or the section `target` names.
    fn section_or_node(&self, pid: PolicyId, target: &ObjRef, id: NodeId) -> Resolved {
        if let Some(by_number) = self.topology.port_by_number(self.objects, pid, target, id) {
            return by_number;
        }
        let Some(section) = &target.section else {
            return (Resolution::Node(id), None);
        };
        match self
            .topology
            .find(RefKey::of(&self.topology.nodes[id].obj_ref).with_section(Some(section)))
        {
            Some(section_node) => (Resolution::Node(section_node), None),
            None => {
                let what = match self.topology.nodes[id].role {
                    Role::Gateway | Role::ListenerSet => "listener",
                    Role::Route => "rule",
                    Role::Backend => "port",
                    _ => "section",
                };
                let finding = Finding::new(
                    Code::SectionNotFound,
                    self.topology.policies[pid].obj_ref.clone(),
                    format!(
                        "{} {} has no {what} named {section}",
                        target.kind,
                        target.ns_name()
                    ),
                );
                (Resolution::NotFound(Code::SectionNotFound), Some(finding))
            }
        }
    }

    /// The object `target` names (its section aside).
    fn find_object(&self, target: &ObjRef) -> Option<ObjectId> {
        self.by_kind
            .get(&(
                target.group.as_str(),
                target.kind.as_str(),
                target.namespace.as_deref(),
            ))
            .and_then(|ids| {
                ids.iter()
                    .copied()
                    .find(|&oi| self.objects[oi].name == target.name)
            })
    }

    fn object_exists(&self, target: &ObjRef) -> bool {
        self.find_object(target).is_some() && !is_cluster_scoped(&target.kind)
    }
}

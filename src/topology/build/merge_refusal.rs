//! A vendor rule: a route policy that asks to be merged into its closest parent's
//! (Envoy Gateway's `mergeType`) is checked again, merged, against the settings its
//! controller refuses on the route's kind (`RefusedOn::after_merge`). A parent's policy
//! setting one refuses the route's policy on that route, as one of its own would.

use super::Builder;
use crate::catalog::policy::{precedence, FieldError, FieldProblem, TargetRefusal};
use crate::catalog::{RefusedOn, Refuses};
use crate::model::{FastMap, GroupKind};
use crate::topology::{Code, Finding, NodeId, PolicyId, Resolution, ResolvedTarget, Role};

/// Per (policy kind, Gateway, ListenerSet or listener): the policy of the kind aimed
/// at it that a route policy merges into there (the first by precedence).
pub(super) type ParentPolicies = FastMap<(GroupKind, NodeId), PolicyId>;

impl<'s> Builder<'s> {
    /// The policy of each kind with an `after_merge` rule aimed at each Gateway,
    /// ListenerSet and listener, among `resolved` (each policy's targets, in policy
    /// order): the first by precedence, as its controller keeps the first it meets.
    pub(super) fn parent_policies(&self, resolved: &[Vec<ResolvedTarget>]) -> ParentPolicies {
        let mut parents = ParentPolicies::default();
        let policies = &self.topology.policies;
        for (pid, targets) in PolicyId::all(policies.len()).zip(resolved) {
            let policy = &policies[pid];
            if policy.rejected.is_some() || self.merge_rule(pid).is_none() {
                continue;
            }
            for rt in targets {
                let Resolution::Node(node) = rt.resolution else {
                    continue;
                };
                let role = self.topology.nodes[node].role;
                if !matches!(role, Role::Gateway | Role::ListenerSet | Role::Listener) {
                    continue;
                }
                let slot = parents.entry((policy.kind.clone(), node)).or_insert(pid);
                if precedence(policy, &policies[*slot]).is_lt() {
                    *slot = pid;
                }
            }
        }
        parents
    }

    /// The kind's `RefusedOn` rule checked again after merging, if it has one.
    fn merge_rule(&self, pid: PolicyId) -> Option<&'static RefusedOn> {
        self.topology
            .kind_of(pid)
            .entry
            .refused_on
            .iter()
            .find(|rule| rule.after_merge && rule.refuses == Refuses::ThatTarget)
    }

    /// Refuses policy `pid` (Invalid) on each of its targets of a kind its `after_merge`
    /// rule names when it sets `mergeType` and, at every listener the route is
    /// attached through, the closest parent policy of its kind sets a field refused
    /// there: the merged policy fails the check, and is not applied there.
    pub(super) fn refuse_after_merge(
        &mut self,
        pid: PolicyId,
        resolved: &mut [ResolvedTarget],
        parents: &ParentPolicies,
    ) {
        let Some(rule) = self.merge_rule(pid) else {
            return;
        };
        let policy = &self.topology.policies[pid];
        if policy.merge_type.is_none() || policy.rejected.is_some() {
            return;
        }
        let policy_kind = policy.kind.clone();
        let mut refused = Vec::new();
        for rt in resolved.iter_mut() {
            let Resolution::Node(node) = rt.resolution else {
                continue;
            };
            if self.topology.nodes[node].obj_ref.kind != rule.kind {
                continue;
            }
            let Some((parent, field)) =
                self.refusing_parent(node, (&policy_kind, rule.kind), parents)
            else {
                continue;
            };
            rt.resolution = Resolution::NotFound(Code::Invalid);
            refused.push((rt.target.clone(), parent, field));
        }
        for (target, parent, field) in refused {
            let parent = self.topology.policies[parent].obj_ref.ns_name();
            let why = format!(
                "sets mergeType and targets {target}: merged into {kind} {parent}, which sets {field}, it carries a setting its controller accepts no {field} on a {rule} for; the policy is refused on that {rule} and stands on its other targets",
                kind = self.topology.policies[pid].kind.kind,
                rule = rule.kind,
            );
            let policy = &mut self.topology.policies[pid];
            policy.refuse_on(target, TargetRefusal::Invalid);
            let error = FieldError::new("spec.mergeType", FieldProblem::Refused(why));
            let finding = Finding::new(Code::Invalid, policy.obj_ref.clone(), error.to_string());
            policy.invalid.push(error);
            self.topology.findings.push(finding);
        }
    }

    /// For route (or route rule) `node` and a policy of kind `policy_kind`: the parent
    /// policy of that kind and its field refused on route kind `kind` that every listener the route is attached through merges it with, or
    /// None when one of them merges it cleanly (or has no parent policy: then it is
    /// applied alone there).
    fn refusing_parent(
        &self,
        node: NodeId,
        (policy_kind, kind): (&GroupKind, &str),
        parents: &ParentPolicies,
    ) -> Option<(PolicyId, &'static str)> {
        let nodes = &self.topology.nodes;
        let route = match nodes[node].role {
            Role::Rule => nodes[node].owner?,
            _ => node,
        };
        let mut found = None;
        for &listener in &nodes[route].parents {
            if nodes[listener].role != Role::Listener {
                return None;
            }
            let parent = self
                .scopes_above(listener)
                .into_iter()
                .find_map(|scope| parents.get(&(policy_kind.clone(), scope)).copied())?;
            let (_, field) = self.topology.policies[parent].setting_refused_on(kind)?;
            found = Some((parent, field));
        }
        found
    }

    /// The scopes whose policy a route attached through `listener` merges into, the
    /// closest first: the listener, its Gateway; or the listener, its ListenerSet and
    /// the ListenerSet's Gateway (a Gateway listener beside it is not above it). From a
    /// ListenerSet itself: it and its Gateway; from any other node: that node alone.
    pub(super) fn scopes_above(&self, listener: NodeId) -> Vec<NodeId> {
        let nodes = &self.topology.nodes;
        let mut level = Some(listener);
        std::iter::from_fn(|| {
            let at = level?;
            level = match nodes[at].role {
                Role::Listener => nodes[at].owner,
                Role::ListenerSet => nodes[at]
                    .parents
                    .iter()
                    .copied()
                    .find(|&p| nodes[p].role == Role::Gateway),
                _ => None,
            };
            Some(at)
        })
        .collect()
    }
}

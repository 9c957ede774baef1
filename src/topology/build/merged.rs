//! A vendor rule on a GatewayClass that merges its Gateways into one proxy (Envoy
//! Gateway: the class's EnvoyProxy parameters with `mergeGateways`): the class's
//! Gateways then share one proxy config, which the shared-port rule looks across, and
//! a policy kind may refuse a target of one kind there (`WhenMerged`: an
//! EnvoyPatchPolicy aimed at a Gateway, where it takes the GatewayClass). And a route's
//! policy translated merged with its parent's (Envoy Gateway's `mergeType`), refused
//! with the parent for a reference of a field the parent owns there
//! (`MergedParentFields`).

use super::Builder;
use crate::catalog::policy::{FieldError, FieldProblem};
use crate::catalog::registry::class_parameters;
use crate::model::{normalize_group, FastMap, Val};
use crate::topology::{
    Code, Finding, NodeId, PolicyId, PolicyReference, RefReason, Resolution, ResolvedTarget, Role,
};

impl<'s> Builder<'s> {
    /// The GatewayClass node above Gateway `gateway`, if the input holds it.
    fn class_of(&self, gateway: NodeId) -> Option<NodeId> {
        let nodes = &self.topology.nodes;
        nodes[gateway]
            .parents
            .iter()
            .copied()
            .find(|&p| nodes[p].role == Role::GatewayClass)
    }

    /// The parameters object that makes class `class` merge its Gateways, named as
    /// `describe` names objects: the class's `spec.parametersRef`, of a kind the
    /// registry knows (`class_parameters`), held in the input and saying so. None:
    /// not merged, or not known to be (parameters not in the input).
    pub(super) fn merging_parameters(&self, class: NodeId) -> Option<String> {
        let object = &self.objects[self.topology.nodes[class].object?];
        let (group, kind, namespace, name) = object.spec.with(|spec| {
            let r = spec.get("parametersRef")?;
            let text = |key: &str| r.get(key).and_then(Val::as_str).map(str::to_string);
            Some((
                normalize_group(&text("group").unwrap_or_default()).to_string(),
                text("kind")?,
                text("namespace"),
                text("name")?,
            ))
        })?;
        let rule = class_parameters().find(|p| p.group == group && p.kind == kind)?;
        let ids = self
            .by_kind()
            .get(&(rule.group, rule.kind, namespace.as_deref()))?;
        let params = ids
            .iter()
            .map(|&id| &self.objects[id])
            .find(|o| o.name.as_str() == name)?;
        let at = match namespace {
            Some(ns) => format!("{ns}/{name}"),
            None => name,
        };
        rule.merges(params).then(|| format!("{} {at}", rule.kind))
    }

    /// The Gateways that share `gateway`'s proxy: those of its class when the class
    /// merges its Gateways, else itself alone.
    pub(super) fn proxy_gateways(&self, gateway: NodeId) -> Vec<NodeId> {
        let nodes = &self.topology.nodes;
        let merged = self
            .class_of(gateway)
            .filter(|&class| self.merging_parameters(class).is_some());
        match merged {
            Some(class) => nodes[class]
                .children
                .iter()
                .copied()
                .filter(|&c| nodes[c].role == Role::Gateway)
                .collect(),
            None => vec![gateway],
        }
    }

    /// Refuses policy `pid` (Invalid) when its kind's controller refuses a target of
    /// one kind while the target's GatewayClass merges its Gateways (`WhenMerged`) and
    /// one of its targets is such a target.
    pub(super) fn refuse_when_merged(&mut self, pid: PolicyId, resolved: &[ResolvedTarget]) {
        let policy = &self.topology.policies[pid];
        let Some(rule) = self.topology.kind_of(pid).entry.when_merged else {
            return;
        };
        if policy.rejected.is_some() {
            return;
        }
        let nodes = &self.topology.nodes;
        let refused = resolved.iter().find_map(|rt| match rt.resolution {
            Resolution::Node(node)
                if nodes[node].role == Role::Gateway
                    && nodes[node].obj_ref.kind == rule.refused =>
            {
                let class = self.class_of(node)?;
                let params = self.merging_parameters(class)?;
                Some((rt.target.clone(), nodes[class].obj_ref.name.clone(), params))
            }
            _ => None,
        });
        let Some((target, class, params)) = refused else {
            return;
        };
        let why = format!(
            "is aimed at {target}, whose GatewayClass {class} merges its Gateways into one proxy ({params} sets it): its controller then takes only a {instead} target and refuses the policy ({reason}); aim it at {instead} {class}",
            instead = rule.instead,
            reason = rule.reason,
        );
        let policy = &mut self.topology.policies[pid];
        self.topology.findings.push(Finding::new(
            Code::Invalid,
            policy.obj_ref.clone(),
            format!("spec.targetRef: {why}"),
        ));
        policy.invalid.push(FieldError::new(
            "spec.targetRef",
            FieldProblem::Refused(why.clone()),
        ));
        policy.rejected = Some(why);
    }
}

impl<'s> Builder<'s> {
    /// Refuses each route policy with `mergeType` whose kind is translated merged with
    /// its closest parent policy (`MergedParentFields`), where that parent is refused
    /// for a reference in a field the route's policy leaves to it. `all`: every
    /// policy's resolved targets, in policy order.
    pub(super) fn refuse_merged_with_refused(&mut self, all: &[Vec<ResolvedTarget>]) {
        let policies = &self.topology.policies;
        let topology = &self.topology;
        let ruled = |pid: PolicyId| topology.kind_of(pid).entry.merged_parent_fields;
        // The policies of kinds with the rule, refused or not, by the node they target.
        let mut on_node: FastMap<NodeId, Vec<PolicyId>> = FastMap::default();
        let mut any_refused = false;
        for (pid, resolved) in PolicyId::all(all.len()).zip(all) {
            if ruled(pid).is_none() {
                continue;
            }
            any_refused |= policies[pid].rejected.is_some();
            for rt in resolved {
                if let Resolution::Node(node) = rt.resolution {
                    on_node.entry(node).or_default().push(pid);
                }
            }
        }
        if !any_refused {
            return;
        }
        let mut refusals = Vec::new();
        for (pid, resolved) in PolicyId::all(all.len()).zip(all) {
            let policy = &policies[pid];
            let Some(rule) = ruled(pid) else {
                continue;
            };
            if policy.rejected.is_some() || policy.merge_type.is_none() {
                continue;
            }
            let left = |field: &&str| {
                !self.objects[policy.object]
                    .spec
                    .with(|spec| spec.get(field).is_some_and(|v| !v.is_null()))
            };
            let fields: Vec<&str> = rule.fields.iter().copied().filter(left).collect();
            let why = resolved.iter().find_map(|rt| match rt.resolution {
                Resolution::Node(node) if self.topology.nodes[node].role == Role::Route => {
                    self.refused_parent(pid, node, &on_node, &fields)
                }
                _ => None,
            });
            if let Some(why) = why {
                refusals.push((pid, why));
            }
        }
        for (pid, why) in refusals {
            self.refuse_for_reference(pid, why);
        }
    }

    /// Why the policy the route `route`'s policy `pid` merges into is refused for a
    /// reference in one of `fields`: the closest policy of its kind above the route
    /// (on a listener the route is attached to, else on its ListenerSet or Gateway).
    fn refused_parent(
        &self,
        pid: PolicyId,
        route: NodeId,
        on_node: &FastMap<NodeId, Vec<PolicyId>>,
        fields: &[&str],
    ) -> Option<String> {
        let nodes = &self.topology.nodes;
        let policies = &self.topology.policies;
        let kind = &policies[pid].kind;
        let of_kind = |node: NodeId| {
            on_node
                .get(&node)?
                .iter()
                .copied()
                .filter(|&p| policies[p].kind == *kind)
                .min_by(|&a, &b| crate::catalog::policy::precedence(&policies[a], &policies[b]))
        };
        for &listener in &nodes[route].parents {
            let parent = self.scopes_above(listener).into_iter().find_map(of_kind);
            let Some(parent) = parent else {
                continue;
            };
            if policies[parent].rejected.is_none() {
                continue;
            }
            let refs = self.topology.references.get(parent.index())?;
            let failed = |r: &&PolicyReference| {
                !matches!(r.reason, None | Some(RefReason::Unchecked))
                    && fields.iter().any(|f| {
                        r.path
                            .strip_prefix("/spec/")
                            .and_then(|rest| rest.strip_prefix(f))
                            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
                    })
            };
            if let Some(bad) = refs.iter().find(failed) {
                return Some(format!(
                    "merged (mergeType) with {}, whose {}: its controller translates the two as one and refuses this policy too",
                    policies[parent].obj_ref,
                    bad.describe()
                ));
            }
        }
        None
    }
}

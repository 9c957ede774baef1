//! A vendor rule on a GatewayClass that merges its Gateways into one proxy (Envoy
//! Gateway: the class's EnvoyProxy parameters with `mergeGateways`): the class's
//! Gateways then share one proxy config, which the shared-port rule looks across, and
//! a policy kind may refuse a target of one kind there (`WhenMerged`: an
//! EnvoyPatchPolicy aimed at a Gateway, where it takes the GatewayClass).

use super::Builder;
use crate::catalog::policy::{FieldError, FieldProblem};
use crate::catalog::registry::class_parameters;
use crate::model::{normalize_group, Val};
use crate::topology::{Code, Finding, NodeId, PolicyId, Resolution, ResolvedTarget, Role};

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
        let Some(rule) = self.topology.kind_of(pid).when_merged else {
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

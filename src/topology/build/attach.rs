//! Policies read from the objects and attached where their targets resolve (GEP-713
//! §"Policy Attachment"): by targetRefs and targetSelectors, and by a route rule's
//! ExtensionRef filter for the kinds whose project documents it.

use super::{each_object, Borrowed, Builder, Resolved};
use crate::catalog::policy::{
    precedence, read_policy, FieldError, FieldProblem, Policy, TargetRefusal, TargetSpec,
};
use crate::catalog::{Catalog, PolicyKind};
use crate::model::{normalize_group, FastMap, ObjRef, Object};
use crate::topology::{
    Code, Finding, NodeId, PolicyId, RefKey, Resolution, ResolvedTarget, Role, Topology,
};
use rayon::prelude::*;

/// The policies among `objects`, read in input order.
pub(super) fn read_policies(objects: &[Object], catalog: &Catalog) -> Vec<Policy> {
    // Policy kinds by borrowed (group, kind): most objects are not policies, and
    // asking costs no allocation.
    let kinds: FastMap<(&str, &str), &PolicyKind> = catalog
        .kinds
        .iter()
        .map(|(gk, pk)| ((gk.group.as_str(), gk.kind.as_str()), pk))
        .collect();
    // Reading each policy's spec is most of the work here: on every core.
    each_object(objects, |object, id| {
        let kind = kinds.get(&(normalize_group(object.group()), object.kind.as_str()))?;
        Some(read_policy(object, id, kind))
    })
}

impl<'s> Builder<'s> {
    /// Resolves the policies' targets and attaches them.
    pub(super) fn attach_policies(&mut self, mut policies: Vec<Policy>) {
        self.topology
            .listener_port_targets(self.objects, &mut policies);
        self.topology.policies = policies;
        self.index_policies();
        self.unchecked = self.resolve_references();
        self.topology.targets = vec![Vec::new(); self.topology.policies.len()];
        self.topology.attached = vec![Vec::new(); self.topology.nodes.len()];
        let read = self.read_targets();
        let mut all = Vec::with_capacity(read.len());
        for (pid, read) in PolicyId::all(self.topology.policies.len()).zip(read) {
            let targets = std::mem::take(&mut self.topology.policies[pid].targets);
            all.push(self.resolve_targets(pid, &targets, read));
            self.topology.policies[pid].targets = targets;
        }
        // A vendor's refusal may turn on what other policies of the kind are aimed at.
        let claimed = self.claimed_listeners(&all);
        self.refuse_merged_with_refused(&all);
        let parents = self.parent_policies(&all);
        for (pid, mut resolved) in PolicyId::all(all.len()).zip(all) {
            self.refuse_on_shared_port(pid, &resolved, &claimed);
            self.refuse_when_merged(pid, &resolved);
            self.refuse_after_merge(pid, &mut resolved, &parents);
            self.unreach_sections_no_ref_names(pid, &mut resolved);
            self.attach_to_targets(pid, &resolved);
            resolved.shrink_to_fit();
            self.topology.targets[pid] = resolved;
        }
        self.attach_by_extension_refs();
        self.sort_attached();
    }

    /// Indexes the policies by reference, and tells what makes one of them partly or
    /// wholly unresolvable: a misshapen field, a workload selector.
    fn index_policies(&mut self) {
        for (policy, pid) in self.topology.policies.iter().zip(PolicyId::all(usize::MAX)) {
            for invalid in &policy.invalid {
                self.topology.findings.push(Finding::new(
                    Code::Invalid,
                    policy.obj_ref.clone(),
                    invalid.to_string(),
                ));
            }
            if let Some(sel) = &policy.workload_selector {
                self.topology.findings.push(Finding::new(
                    Code::SelectorBound,
                    policy.obj_ref.clone(),
                    format!("{sel} binds it to workloads, outside the Gateway API hierarchy; not resolved"),
                ));
            }
            self.topology
                .policy_index
                .insert(policy.obj_ref.clone(), pid);
        }
    }

    /// What the targetRefs of each policy resolve to, read on every core: the nodes
    /// that resolving may make (`resolve_making_node`) are made afterwards, in policy
    /// order, and no target read here could name one of them. (None: left to the
    /// builder; targetSelectors and Pod selectors are not read here.)
    fn read_targets(&self) -> Vec<Vec<Option<Resolved>>> {
        let view = self.view();
        let policies: Vec<(PolicyId, &Policy)> = PolicyId::all(usize::MAX)
            .zip(&view.topology.policies)
            .collect();
        policies
            .par_iter()
            .with_min_len(512)
            .map(|&(pid, policy)| {
                policy
                    .targets
                    .iter()
                    .filter_map(|target| match target {
                        TargetSpec::Ref(target) => Some(view.resolve(pid, target)),
                        TargetSpec::Selector { .. } | TargetSpec::Pods(_) => None,
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Policy `pid`'s `targets` resolved, in order: each targetRef as `read_targets`
    /// read it (or resolved here when it could not), each targetSelectors entry as the
    /// objects it selects, each Pod selector as the Pods it picks.
    fn resolve_targets(
        &mut self,
        pid: PolicyId,
        targets: &[TargetSpec],
        read: Vec<Option<Resolved>>,
    ) -> Vec<ResolvedTarget> {
        let mut resolved = Vec::new();
        let mut read = read.into_iter();
        for target in targets {
            match target {
                TargetSpec::Ref(target) => {
                    let read = read.next().flatten();
                    resolved.push(self.resolved(pid, target.clone(), read))
                }
                TargetSpec::Selector {
                    group_kind,
                    namespaces,
                    selector,
                } => {
                    if self.topology.policies[pid].refuses_kind(&group_kind.kind) {
                        // A kind its vendor refuses (`Rare::refused_kinds`): selects nothing.
                        continue;
                    }
                    for selected in self.select(pid, group_kind, namespaces, selector) {
                        self.refuse_selected(pid, &selected);
                        resolved.push(self.resolve_ref(pid, selected));
                    }
                }
                TargetSpec::Pods(pods) => {
                    let policy = self.topology.policies[pid].obj_ref.clone();
                    for pod in self.resolve_pods(&policy, pods) {
                        resolved.push(ResolvedTarget {
                            target: self.topology.nodes[pod].obj_ref.clone(),
                            resolution: Resolution::Node(pod),
                        });
                    }
                }
            }
        }
        resolved
    }

    /// A target a `targetSelectors` entry of policy `pid` picked, of a kind its
    /// controller refuses one of its settings on (`Rare::refused_on_kinds`): refused
    /// there alone, as a targetRef naming it is when the policy is read.
    fn refuse_selected(&mut self, pid: PolicyId, selected: &ObjRef) {
        let policy = &mut self.topology.policies[pid];
        let Some((kind, field)) = policy.setting_refused_on(&selected.kind) else {
            return;
        };
        if policy.refusal_on(selected).is_some() {
            return;
        }
        let refused = FieldError::new(
            format!("spec.{field}"),
            FieldProblem::UnsupportedOnTarget {
                target: selected.clone(),
                field,
                kind,
                whole: false,
            },
        );
        policy.refuse_on(selected.clone(), TargetRefusal::Invalid);
        let finding = Finding::new(Code::Invalid, policy.obj_ref.clone(), refused.to_string());
        policy.invalid.push(refused);
        self.topology.findings.push(finding);
    }

    /// Attaches policy `pid` to the nodes and namespaces its targets resolved to,
    /// unless its controller refuses it: then it applies nowhere.
    fn attach_to_targets(&mut self, pid: PolicyId, resolved: &[ResolvedTarget]) {
        let refused = self.topology.policies[pid].rejected.is_some();
        // Policies attach in order: one already on a target is the last there (a
        // target may hold ten thousand; looking through them all, for each, would not do).
        for rt in resolved.iter().filter(|_| !refused) {
            match &rt.resolution {
                Resolution::Node(node) => {
                    if self.topology.attached[*node].last() != Some(&pid) {
                        self.topology.attached[*node].push(pid)
                    }
                }
                Resolution::Namespace(ns) => {
                    let policies = self.topology.ns_attached.entry(ns.clone()).or_default();
                    if policies.last() != Some(&pid) {
                        policies.push(pid)
                    }
                }
                Resolution::NotFound(_) => {}
            }
        }
    }

    /// Orders the policies on each node and namespace by precedence (GEP-713: oldest
    /// first, then by namespace/name).
    fn sort_attached(&mut self) {
        let order = |topology: &Topology, a: &PolicyId, b: &PolicyId| {
            precedence(&topology.policies[*a], &topology.policies[*b])
        };
        let mut attached = std::mem::take(&mut self.topology.attached);
        for policies in &mut attached {
            policies.sort_by(|a, b| order(&self.topology, a, b));
        }
        self.topology.attached = attached;
        let mut ns_attached = std::mem::take(&mut self.topology.ns_attached);
        for policies in ns_attached.values_mut() {
            policies.sort_by(|a, b| order(&self.topology, a, b));
        }
        self.topology.ns_attached = ns_attached;
    }

    /// Policies a route rule's `ExtensionRef` filter names attach to that rule, for the
    /// kinds whose project documents it (Gloo and kgateway: "RouteOption ... by an
    /// extensionRef filter"). A policy that nothing names and that names no target is
    /// a finding.
    fn attach_by_extension_refs(&mut self) {
        let objects = self.objects;
        let mut found: Vec<(PolicyId, NodeId)> = Vec::new();
        for id in NodeId::all(self.topology.nodes.len()) {
            let node = &self.topology.nodes[id];
            let (Role::Route, Some(oi)) = (node.role, node.object) else {
                continue;
            };
            let ns = node.obj_ref.namespace.as_deref();
            for (j, rule) in objects[oi].links().rules.items().iter().enumerate() {
                for extension_ref in &rule.extension_refs {
                    let extension_ref = extension_ref.borrowed();
                    let (Some(kind), Some(name)) = (extension_ref.kind, extension_ref.name) else {
                        continue;
                    };
                    let group = extension_ref.group.unwrap_or("");
                    let policy = ObjRef::new(group, kind, ns, name);
                    let Some(&pid) = self.topology.policy_index.get(&policy) else {
                        continue;
                    };
                    let by_filter = self.topology.kind_of(pid).entry.targeting.extension_ref;
                    let section = rule.section(j);
                    let rule_ref = RefKey::of(&node.obj_ref).with_section(Some(&section));
                    if let (true, Some(rule_id)) = (by_filter, self.topology.find(rule_ref)) {
                        found.push((pid, rule_id));
                    }
                }
            }
        }
        for (pid, rule_id) in found {
            if !self.topology.attached[rule_id].contains(&pid) {
                self.topology.attached[rule_id].push(pid);
                self.topology.targets[pid].push(ResolvedTarget {
                    target: self.topology.nodes[rule_id].obj_ref.clone(),
                    resolution: Resolution::Node(rule_id),
                });
            }
        }
        for pid in PolicyId::all(self.topology.policies.len()) {
            let policy = &self.topology.policies[pid];
            if self.topology.kind_of(pid).entry.targeting.extension_ref
                && self.topology.targets[pid].is_empty()
                && policy.invalid.is_empty()
            {
                self.topology.findings.push(Finding::new(
                    Code::TargetNotFound,
                    policy.obj_ref.clone(),
                    "it names no target, and no route's ExtensionRef filter names it",
                ));
            }
        }
    }
}

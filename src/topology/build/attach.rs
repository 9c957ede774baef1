//! Policies read from the objects and attached where their targets resolve (GEP-713
//! §"Policy Attachment"): by targetRefs and targetSelectors, and by a route rule's
//! ExtensionRef filter for the kinds whose project documents it.

use super::{each_object, Borrowed, Builder, Resolved};
use crate::catalog::policy::{precedence, read_policy, Policy, TargetSpec};
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
    each_object(objects, |o, i| {
        let pk = kinds.get(&(normalize_group(o.group()), o.kind.as_str()))?;
        Some(read_policy(o, i, pk))
    })
}

impl<'s> Builder<'s> {
    /// Resolves the policies' targets and attaches them.
    pub(super) fn attach_policies(&mut self, policies: Vec<Policy>) {
        self.t.policies = policies;
        self.index_policies();
        self.t.targets = vec![Vec::new(); self.t.policies.len()];
        self.t.attached = vec![Vec::new(); self.t.nodes.len()];
        let read = self.read_targets();
        for (pid, read) in PolicyId::all(self.t.policies.len()).zip(read) {
            let targets = std::mem::take(&mut self.t.policies[pid].targets);
            let mut resolved = self.resolve_targets(pid, &targets, read);
            self.refuse_on_shared_port(pid, &resolved);
            self.attach_to_targets(pid, &resolved);
            resolved.shrink_to_fit();
            self.t.targets[pid] = resolved;
            self.t.policies[pid].targets = targets;
        }
        self.attach_by_extension_refs();
        self.sort_attached();
    }

    /// Indexes the policies by reference, and tells what makes one of them partly or
    /// wholly unresolvable: a misshapen field, a workload selector.
    fn index_policies(&mut self) {
        for (p, pid) in self.t.policies.iter().zip(PolicyId::all(usize::MAX)) {
            for (field, msg) in &p.invalid {
                self.t.findings.push(Finding::new(
                    Code::Invalid,
                    p.obj_ref.clone(),
                    format!("{field}: {msg}"),
                ));
            }
            if let Some(sel) = &p.workload_selector {
                self.t.findings.push(Finding::new(
                    Code::SelectorBound,
                    p.obj_ref.clone(),
                    format!("{sel} binds it to workloads, outside the Gateway API hierarchy; not resolved"),
                ));
            }
            self.t.policy_index.insert(p.obj_ref.clone(), pid);
        }
    }

    /// What the targetRefs of each policy resolve to, read on every core: the nodes
    /// that resolving may make (`resolve_making_node`) are made afterwards, in policy
    /// order, and no target read here could name one of them. (None: left to the
    /// builder; targetSelectors are not read here.)
    fn read_targets(&self) -> Vec<Vec<Option<Resolved>>> {
        let view = self.view();
        let policies: Vec<(PolicyId, &Policy)> =
            PolicyId::all(usize::MAX).zip(&view.t.policies).collect();
        policies
            .par_iter()
            .with_min_len(512)
            .map(|&(pid, p)| {
                p.targets
                    .iter()
                    .filter_map(|t| match t {
                        TargetSpec::Ref(r) => Some(view.resolve(pid, r)),
                        TargetSpec::Selector { .. } => None,
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Policy `pid`'s `targets` resolved, in order: each targetRef as `read_targets`
    /// read it (or resolved here when it could not), each targetSelectors entry as the
    /// objects it selects.
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
                TargetSpec::Ref(r) => {
                    let read = read.next().flatten();
                    resolved.push(self.resolved(pid, r.clone(), read))
                }
                TargetSpec::Selector {
                    group_kind,
                    namespaces,
                    selector,
                } => {
                    for r in self.select(pid, group_kind, namespaces, selector) {
                        resolved.push(self.resolve_ref(pid, r));
                    }
                }
            }
        }
        resolved
    }

    /// Attaches policy `pid` to the nodes and namespaces its targets resolved to,
    /// unless its controller refuses it: then it applies nowhere.
    fn attach_to_targets(&mut self, pid: PolicyId, resolved: &[ResolvedTarget]) {
        let refused = self.t.policies[pid].rejected.is_some();
        // Policies attach in order: one already on a target is the last there (a
        // target may hold ten thousand; looking through them all, for each, would not do).
        for rt in resolved.iter().filter(|_| !refused) {
            match &rt.resolution {
                Resolution::Node(n) => {
                    if self.t.attached[*n].last() != Some(&pid) {
                        self.t.attached[*n].push(pid)
                    }
                }
                Resolution::Namespace(ns) => {
                    let v = self.t.ns_attached.entry(ns.clone()).or_default();
                    if v.last() != Some(&pid) {
                        v.push(pid)
                    }
                }
                Resolution::NotFound(_) => {}
            }
        }
    }

    /// Orders the policies on each node and namespace by precedence (GEP-713: oldest
    /// first, then by namespace/name).
    fn sort_attached(&mut self) {
        let order =
            |t: &Topology, a: &PolicyId, b: &PolicyId| precedence(&t.policies[*a], &t.policies[*b]);
        let mut attached = std::mem::take(&mut self.t.attached);
        for v in &mut attached {
            v.sort_by(|a, b| order(&self.t, a, b));
        }
        self.t.attached = attached;
        let mut ns_attached = std::mem::take(&mut self.t.ns_attached);
        for v in ns_attached.values_mut() {
            v.sort_by(|a, b| order(&self.t, a, b));
        }
        self.t.ns_attached = ns_attached;
    }

    /// Policies a route rule's `ExtensionRef` filter names attach to that rule, for the
    /// kinds whose project documents it (Gloo and kgateway: "RouteOption ... by an
    /// extensionRef filter"). A policy that nothing names and that names no target is
    /// a finding.
    fn attach_by_extension_refs(&mut self) {
        let objects = self.objects;
        let mut found: Vec<(PolicyId, NodeId)> = Vec::new();
        for id in NodeId::all(self.t.nodes.len()) {
            let node = &self.t.nodes[id];
            let (Role::Route, Some(oi)) = (node.role, node.object) else {
                continue;
            };
            let ns = node.obj_ref.namespace.as_deref();
            for (j, rule) in objects[oi].links().rules.items().iter().enumerate() {
                for x in &rule.extension_refs {
                    let x = x.borrowed();
                    let (Some(kind), Some(name)) = (x.kind, x.name) else {
                        continue;
                    };
                    let r = ObjRef::new(x.group.unwrap_or(""), kind, ns, name);
                    let Some(&pid) = self.t.policy_index.get(&r) else {
                        continue;
                    };
                    let by_filter = self
                        .t
                        .catalog
                        .get(&r.group_kind())
                        .is_some_and(|k| k.targeting.extension_ref);
                    let section = rule.section(j);
                    let rule_ref = RefKey::of(&node.obj_ref).with_section(Some(&section));
                    if let (true, Some(rule_id)) = (by_filter, self.t.find(rule_ref)) {
                        found.push((pid, rule_id));
                    }
                }
            }
        }
        for (pid, rule_id) in found {
            if !self.t.attached[rule_id].contains(&pid) {
                self.t.attached[rule_id].push(pid);
                self.t.targets[pid].push(ResolvedTarget {
                    target: self.t.nodes[rule_id].obj_ref.clone(),
                    resolution: Resolution::Node(rule_id),
                });
            }
        }
        for pid in PolicyId::all(self.t.policies.len()) {
            let p = &self.t.policies[pid];
            let kind = self.t.catalog.get(&p.kind);
            if kind.is_some_and(|k| k.targeting.extension_ref)
                && self.t.targets[pid].is_empty()
                && p.invalid.is_empty()
            {
                self.t.findings.push(Finding::new(
                    Code::TargetNotFound,
                    p.obj_ref.clone(),
                    "it names no target, and no route's ExtensionRef filter names it",
                ));
            }
        }
    }
}

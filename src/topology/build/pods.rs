//! Pods, for the policies that pick them by label (`TargetSpec::Pods`: GKE's
//! GCPAuthzPolicy and GCPServerTLSPolicy, as the registry says). The Pods in the input
//! such a policy picks become nodes (role Pod), each below the Services of its
//! namespace whose `spec.selector` selects it, or alone when none does. Pods are read
//! from files only (the live reader does not list them): a policy whose namespace has
//! no Pod in the input is SelectorBound, never "no Pod matches". When no policy picks
//! Pods, no Pod is looked at.

use super::Builder;
use crate::catalog::policy::{PodSelector, Policy, TargetSpec};
use crate::model::{ObjectId, Val};
use crate::topology::{Code, Finding, NodeId, Role};
use std::collections::{BTreeMap, BTreeSet};

impl<'s> Builder<'s> {
    /// Makes nodes of the Pods `policies` pick, below the Services that select them;
    /// tells each policy that picks Pods where none is in the input that it binds
    /// outside what was read (its `workload_selector`).
    pub(super) fn add_picked_pods(&mut self, policies: &mut [Policy]) {
        let mut picked: BTreeSet<ObjectId> = BTreeSet::new();
        for policy in policies.iter_mut() {
            for target in &policy.targets {
                let TargetSpec::Pods(pods) = target else {
                    continue;
                };
                if self.pods_in(pods).is_empty() {
                    policy.workload_selector.get_or_insert_with(|| unseen(pods));
                }
                picked.extend(self.picked(pods));
            }
        }
        for pod in picked {
            let object = &self.objects[pod];
            let id = self.add_node(object.obj_ref(), Role::Pod, Some(pod), None);
            for service in self.services_selecting(pod) {
                self.edge(service, id);
            }
        }
    }

    /// The Pods in the input of the namespace `pods` looks in, in input order.
    fn pods_in<'b>(&'b self, pods: &'b PodSelector) -> &'b [ObjectId] {
        let ns = pods.namespace.as_deref();
        self.by_kind()
            .get(&("", "Pod", ns))
            .map_or(&[], Vec::as_slice)
    }

    /// The Pods in the input `pods` picks, in input order.
    fn picked<'b>(&'b self, pods: &'b PodSelector) -> impl Iterator<Item = ObjectId> + 'b {
        self.pods_in(pods)
            .iter()
            .copied()
            .filter(|&oi| pods.selector.matches(&self.objects[oi].labels))
    }

    /// The nodes of the Pods `pods` picks (made by `add_picked_pods`); when Pods of its
    /// namespace are in the input but none matches, the finding that says so.
    pub(super) fn resolve_pods(
        &mut self,
        policy: &crate::model::ObjRef,
        pods: &PodSelector,
    ) -> Vec<NodeId> {
        let objects = self.objects;
        let nodes: Vec<NodeId> = self
            .picked(pods)
            .filter_map(|oi| self.topology.lookup(&objects[oi].obj_ref()))
            .collect();
        if nodes.is_empty() && !self.pods_in(pods).is_empty() {
            self.topology.findings.push(Finding::new(
                Code::SelectorMatchesNothing,
                policy.clone(),
                format!(
                    "{}.selector: no Pod in namespace {} matches ({})",
                    pods.field,
                    pods.namespace.as_deref().unwrap_or_default(),
                    pods.picks
                ),
            ));
        }
        nodes
    }

    /// The nodes of the Services of Pod `pod`'s namespace whose `spec.selector` selects
    /// it: every label it names, with its value (an empty or missing selector selects
    /// no Pod: its endpoints are managed by hand).
    fn services_selecting(&self, pod: ObjectId) -> Vec<NodeId> {
        let pod = &self.objects[pod];
        let services = self
            .by_kind()
            .get(&("", "Service", pod.namespace.as_deref()))
            .map_or(&[][..], Vec::as_slice);
        services
            .iter()
            .filter(|&&oi| selects(self.objects[oi].spec.get("selector"), &pod.labels))
            .filter_map(|&oi| self.topology.lookup(&self.objects[oi].obj_ref()))
            .collect()
    }
}

/// Whether a Service's `spec.selector` selects a Pod with `labels`.
fn selects(selector: Option<&Val>, labels: &BTreeMap<String, String>) -> bool {
    let Some(wanted) = selector.and_then(Val::as_object).filter(|m| !m.is_empty()) else {
        return false;
    };
    wanted.iter().all(|(key, value)| {
        value
            .as_str()
            .is_some_and(|v| labels.get(&**key).map(String::as_str) == Some(v))
    })
}

/// What a policy whose Pod selector looks where no Pod was read says (SelectorBound).
fn unseen(pods: &PodSelector) -> String {
    format!(
        "{}.selector ({}; no Pod of namespace {} is in the input, and the tool does not \
         read Pods from a cluster)",
        pods.field,
        pods.picks,
        pods.namespace.as_deref().unwrap_or_default()
    )
}

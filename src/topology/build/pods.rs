//! Pods, for the policies that pick them by label (`TargetSpec::Pods`: GKE's
//! GCPAuthzPolicy and GCPServerTLSPolicy, as the registry says). The Pods in the input
//! such a policy picks become nodes (role Pod), each below the Services of its
//! namespace whose `spec.selector` selects it, or alone when none does. Pods come from
//! files and dumps, and from a live read in the namespaces of such policies (listed
//! with their selector, `Snapshot::pods_read_in`): a policy whose namespace's Pods were
//! neither in the input nor listed is SelectorBound (with the blind spot, when the list
//! was refused), never "no Pod matches". When no policy picks Pods, no Pod is looked at.

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
                if !self.pods_read(pods) {
                    let blind = self.pods_blind_spot(pods);
                    policy
                        .workload_selector
                        .get_or_insert_with(|| unseen(pods, blind));
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

    /// Whether the Pods of the namespace `pods` looks in were read: some are in the
    /// input, or a live read listed them (with this selector: none came back when none
    /// matches).
    fn pods_read(&self, pods: &PodSelector) -> bool {
        !self.pods_in(pods).is_empty()
            || pods
                .namespace
                .as_ref()
                .is_some_and(|ns| self.pods_read_in.contains(ns))
    }

    /// Why the Pods of the namespace `pods` looks in could not be read, when a live read
    /// tried (its blind spot's message).
    fn pods_blind_spot(&self, pods: &PodSelector) -> Option<&'s str> {
        let blind_spots: &'s [crate::model::BlindSpot] = self.blind_spots;
        blind_spots
            .iter()
            .find(|blind| {
                blind.group.is_empty()
                    && blind.kind == "Pod"
                    && (blind.namespace.is_none() || blind.namespace == pods.namespace)
            })
            .map(|blind| blind.message.as_str())
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
        if nodes.is_empty() && self.pods_read(pods) {
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

/// What a policy whose Pod selector looks where no Pod was read says (SelectorBound):
/// none in the input, or why a live read could not list them (`blind`).
fn unseen(pods: &PodSelector, blind: Option<&str>) -> String {
    let namespace = pods.namespace.as_deref().unwrap_or_default();
    let why = match blind {
        Some(message) => format!("the Pods of namespace {namespace} could not be read: {message}"),
        None => format!("no Pod of namespace {namespace} is in the input"),
    };
    format!("{}.selector ({}; {why})", pods.field, pods.picks)
}

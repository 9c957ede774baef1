//! GKE's label `selector`s inside targetRefs (issue 28, item 3): a Namespace entry names
//! the policy's own namespace, which the tool resolves; a Pod entry picks Pods, which
//! the tool does not read: SelectorBound, said with its labels.

use super::{s, statuses, ROUTES};
use crate::common::*;
use kubectl_policies::effective::PolicyStatus::{Enforced, SelectorBound};
use kubectl_policies::topology::{Code, PolicyId, Resolution, Role};

fn server_tls(name: &str, target: &str, day: u8) -> String {
    format!(
        "---\napiVersion: networking.gke.io/v1\nkind: GCPServerTLSPolicy\nmetadata: {{name: {name}, namespace: app, creationTimestamp: \"2026-01-{day:02}T00:00:00Z\"}}\nspec:\n  targetRefs: [{target}]\n  mtlsMode: Strict\n"
    )
}

#[test]
fn a_namespace_entry_with_an_empty_selector_targets_the_policys_namespace() {
    let policy = server_tls("whole", "{kind: Namespace, selector: {}}", 1);
    let w = world(&[ROUTES, &policy].concat());
    assert_eq!(statuses(&w), [s("app/whole", Enforced)]);
    let target = &w.topology.targets[PolicyId::at(0)][0];
    assert_eq!(target.target.to_string(), "namespace/app");
    // Direct on a Namespace: the Namespace's own node, as GCPClientTLSPolicy's is.
    let Resolution::Node(n) = target.resolution else {
        panic!("{target:?}")
    };
    assert_eq!(w.topology.node(n).role, Role::Namespace);
    // Two at that level: the oldest applies (GKE: oldest creationTimestamp).
    let newer = server_tls("newer", "{kind: Namespace, selector: {}}", 2);
    let w = world(&[ROUTES, &policy, &newer].concat());
    let mine = statuses(&w);
    assert_eq!(mine[1], s("app/whole", Enforced), "{mine:?}");
    assert_ne!(mine[0].1, Enforced, "{mine:?}");
}

#[test]
fn a_pod_selector_stays_selector_bound_and_says_its_labels() {
    let policy = server_tls(
        "pods",
        "{kind: Pod, selector: {matchLabels: {app: payments}}}",
        1,
    );
    let w = world(&[ROUTES, &policy].concat());
    assert_eq!(statuses(&w), [s("app/pods", SelectorBound)]);
    let said = w
        .topology
        .findings
        .iter()
        .find(|f| f.code == Code::SelectorBound)
        .expect("a SelectorBound finding");
    assert!(
        said.message.contains("spec.targetRefs[0].selector (Pods labelled app=payments; this tool does not read Pods)"),
        "{}",
        said.message
    );
}

#[test]
fn a_pod_selector_beside_a_named_target_is_said_too() {
    // GCPAuthzPolicy: a Gateway by name and Pods by label in one list.
    let authz = "---\napiVersion: networking.gke.io/v1\nkind: GCPAuthzPolicy\nmetadata: {name: both, namespace: app}\nspec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}, {kind: Pod, selector: {matchLabels: {app: coffee}}}]\n  action: ALLOW\n";
    let w = world(&[ROUTES, authz].concat());
    assert_eq!(statuses(&w), [s("app/both", Enforced)]);
    assert!(w
        .topology
        .findings
        .iter()
        .any(|f| f.code == Code::SelectorBound
            && f.message
                .contains("spec.targetRefs[1].selector (Pods labelled app=coffee")));
}

#[test]
fn match_labels_on_a_namespace_entry_is_invalid_but_the_namespace_is_taken() {
    let policy = server_tls(
        "labelled",
        "{kind: Namespace, selector: {matchLabels: {team: a}}}",
        1,
    );
    let w = world(&[ROUTES, &policy].concat());
    let invalid = &w.topology.policies[PolicyId::at(0)].invalid;
    assert_eq!(invalid.len(), 1, "{invalid:?}");
    assert_eq!(invalid[0].field, "spec.targetRefs[0].selector.matchLabels");
    assert_eq!(
        w.topology.targets[PolicyId::at(0)][0].target.to_string(),
        "namespace/app"
    );
}

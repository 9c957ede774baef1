//! GKE's label `selector`s inside targetRefs (issue 28, item 3): a Namespace entry names
//! the policy's own namespace, which the tool resolves; a Pod entry picks the Pods of
//! the policy's namespace in the input (each below the Services that select it), and
//! is SelectorBound, said with its labels, when no Pod of that namespace was read.

use super::{s, statuses, ROUTES};
use crate::common::*;
use kubectl_policies::effective::PolicyStatus::{
    Conflicted, Enforced, PartiallyEnforced, SelectorBound, TargetNotFound,
};
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
    let target = &w.topology.targets_of(PolicyId::at(0))[0];
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
        .findings()
        .iter()
        .find(|f| f.code == Code::SelectorBound)
        .expect("a SelectorBound finding");
    assert!(
        said.message.contains("spec.targetRefs[0].selector (Pods labelled app=payments; no Pod of namespace app is in the input)"),
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
        .findings()
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
    let invalid = &w.topology.policy(PolicyId::at(0)).invalid;
    assert_eq!(invalid.len(), 1, "{invalid:?}");
    assert_eq!(invalid[0].field, "spec.targetRefs[0].selector.matchLabels");
    assert_eq!(
        w.topology.targets_of(PolicyId::at(0))[0].target.to_string(),
        "namespace/app"
    );
}

/// A Service that selects `app: payments`, two of its Pods, a Pod no Service selects
/// and a Pod of another namespace.
const PODS: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec: {gatewayClassName: gc, listeners: [{name: http, port: 80, protocol: HTTP}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: pay, namespace: app}
spec: {parentRefs: [{name: gw}], rules: [{name: main, backendRefs: [{name: payments, port: 80}]}]}
---
apiVersion: v1
kind: Service
metadata: {name: payments, namespace: app}
spec: {selector: {app: payments}, ports: [{name: http, port: 80}]}
---
apiVersion: v1
kind: Pod
metadata: {name: pay-1, namespace: app, labels: {app: payments, track: stable}}
spec: {containers: [{name: c, image: pay}]}
---
apiVersion: v1
kind: Pod
metadata: {name: pay-2, namespace: app, labels: {app: payments, track: canary}}
spec: {containers: [{name: c, image: pay}]}
---
apiVersion: v1
kind: Pod
metadata: {name: batch-1, namespace: app, labels: {app: batch}}
spec: {containers: [{name: c, image: batch}]}
---
apiVersion: v1
kind: Pod
metadata: {name: pay-1, namespace: other, labels: {app: payments}}
spec: {containers: [{name: c, image: pay}]}
"#;

fn targets(w: &kubectl_policies::query::World, p: usize) -> Vec<String> {
    w.topology
        .targets_of(PolicyId::at(p))
        .iter()
        .map(|t| t.target.to_string())
        .collect()
}

#[test]
fn pods_a_service_selects_are_targets_below_it_and_the_policy_is_enforced_there() {
    let policy = server_tls(
        "pods",
        "{kind: Pod, selector: {matchLabels: {app: payments}}}",
        1,
    );
    let w = world(&[PODS, &policy].concat());
    assert_eq!(statuses(&w), [s("app/pods", Enforced)]);
    // The Pods of its own namespace only, each a node of its own below the Service.
    assert_eq!(targets(&w, 0), ["pod/app/pay-1", "pod/app/pay-2"]);
    let service = node(&w, "Service", Some("app"), "payments", None);
    for t in w.topology.targets_of(PolicyId::at(0)) {
        let Resolution::Node(pod) = t.resolution else {
            panic!("{t:?}")
        };
        assert_eq!(w.topology.node(pod).role, Role::Pod);
        assert_eq!(&w.topology.node(pod).parents[..], [service]);
        assert!(w.statuses().reached(PolicyId::at(0)).get(pod) == Some(Enforced));
    }
    assert_eq!(w.statuses().affects_count(PolicyId::at(0)), 2);
    // Deleting it changes the two Pods, and nothing else.
    let blast = kubectl_policies::query::blast::delete_policy(&w, PolicyId::at(0), &[]);
    let changed: Vec<String> = blast.changes.iter().map(|c| c.target.to_string()).collect();
    assert_eq!(changed, ["pod/app/pay-1", "pod/app/pay-2"]);
    // A Pod no policy picks is no node.
    assert!(w
        .topology
        .nodes()
        .iter()
        .all(|n| n.obj_ref.name.as_str() != "batch-1"));
}

#[test]
fn a_pod_no_service_selects_is_a_target_all_the_same() {
    let policy = server_tls(
        "batch",
        "{kind: Pod, selector: {matchExpressions: [{key: app, operator: In, values: [batch]}]}}",
        1,
    );
    let w = world(&[PODS, &policy].concat());
    assert_eq!(statuses(&w), [s("app/batch", Enforced)]);
    assert_eq!(targets(&w, 0), ["pod/app/batch-1"]);
    let Resolution::Node(pod) = w.topology.targets_of(PolicyId::at(0))[0].resolution else {
        panic!("resolved")
    };
    assert!(w.topology.node(pod).parents.is_empty());
}

#[test]
fn pods_read_but_none_matching_is_target_not_found_not_selector_bound() {
    let policy = server_tls(
        "nobody",
        "{kind: Pod, selector: {matchLabels: {app: nobody}}}",
        1,
    );
    let w = world(&[PODS, &policy].concat());
    assert_eq!(statuses(&w), [s("app/nobody", TargetNotFound)]);
    let said: Vec<_> = w
        .topology
        .findings()
        .iter()
        .filter(|f| f.object.name.as_str() == "nobody")
        .collect();
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(said[0].code, Code::SelectorMatchesNothing);
    assert_eq!(
        said[0].message,
        "spec.targetRefs[0].selector: no Pod in namespace app matches (Pods labelled app=nobody)"
    );
}

#[test]
fn pods_of_another_namespace_only_leave_the_policy_selector_bound() {
    // Pods of `other` were read, not those of `app`: whether any there matches is unknown.
    let other_only: String = PODS
        .split("---")
        .filter(|doc| !doc.contains("kind: Pod") || doc.contains("namespace: other"))
        .collect::<Vec<_>>()
        .join("---");
    let policy = server_tls(
        "pods",
        "{kind: Pod, selector: {matchLabels: {app: payments}}}",
        1,
    );
    let w = world(&[&other_only, &policy[..]].concat());
    assert_eq!(statuses(&w), [s("app/pods", SelectorBound)]);
    assert!(targets(&w, 0).is_empty());
}

#[test]
fn two_server_tls_policies_on_one_pod_the_oldest_applies() {
    let older = server_tls(
        "older",
        "{kind: Pod, selector: {matchLabels: {track: canary}}}",
        1,
    );
    let newer = server_tls(
        "newer",
        "{kind: Pod, selector: {matchLabels: {app: payments}}}",
        2,
    );
    let w = world(&[PODS, &older, &newer].concat());
    // `newer` loses on pay-2 (Conflicted there) and holds on pay-1.
    assert_eq!(
        statuses(&w),
        [s("app/newer", PartiallyEnforced), s("app/older", Enforced)]
    );
    let pay_2 = w
        .topology
        .lookup(&kubectl_policies::model::ObjRef::new(
            "",
            "Pod",
            Some("app"),
            "pay-2",
        ))
        .expect("pay-2 is a node");
    assert_eq!(
        w.statuses().reached(PolicyId::at(1)).get(pay_2),
        Some(Conflicted)
    );
    let lost: Vec<_> = w
        .statuses()
        .conflicts
        .iter()
        .map(|c| (c.loser, c.winner, c.at))
        .collect();
    assert_eq!(lost, [(PolicyId::at(1), PolicyId::at(0), pay_2)]);
}

#[test]
fn a_kind_the_registry_does_not_say_picks_pods_stays_selector_bound() {
    // GCPClientTLSPolicy targets Services and Namespaces: a Pod selector there is not
    // resolved, even with Pods in the input.
    let client = "---\napiVersion: networking.gke.io/v1\nkind: GCPClientTLSPolicy\nmetadata: {name: client, namespace: app}\nspec:\n  targetRefs: [{kind: Pod, selector: {matchLabels: {app: payments}}}]\n";
    let w = world(&[PODS, client].concat());
    assert_eq!(statuses(&w), [s("app/client", SelectorBound)]);
    assert!(w.topology.findings().iter().any(|f| f.code == Code::SelectorBound
        && f.message.contains(
            "spec.targetRefs[0].selector (Pods labelled app=payments; the registry does not say its kind picks Pods)"
        )));
    // No policy picks Pods: none is a node.
    assert!(w.topology.nodes().iter().all(|n| n.role != Role::Pod));
}

#[test]
fn applying_a_pod_selector_changes_the_pods_it_picks_and_nothing_that_reached_them_before() {
    // An inherited policy whose load balancing reaches the Service: the Pods below it,
    // nodes once a policy picks them, are no change of its.
    let btp = "---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: BackendTrafficPolicy\nmetadata: {name: lb, namespace: app}\nspec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]\n  loadBalancer: {type: Random}\n";
    let w = world(&[PODS, btp].concat());
    let policy = server_tls(
        "pods",
        "{kind: Pod, selector: {matchLabels: {app: payments}}}",
        1,
    );
    let mut loaded = kubectl_policies::source::files::Loaded::default();
    kubectl_policies::source::files::load_text(&policy, "tls.yaml", &mut loaded).unwrap();
    let blast = kubectl_policies::query::blast::apply_objects(
        &w,
        loaded.snapshot.objects,
        vec!["tls.yaml".into()],
        &[],
    );
    let changed: Vec<(String, String)> = blast
        .changes
        .iter()
        .map(|c| (c.target.to_string(), c.policy_kind.kind.to_string()))
        .collect();
    let tls = "GCPServerTLSPolicy".to_string();
    assert_eq!(
        changed,
        [
            ("pod/app/pay-1".to_string(), tls.clone()),
            ("pod/app/pay-2".to_string(), tls)
        ]
    );
    assert!(blast.changes.iter().all(|c| c.before.is_none()));
}

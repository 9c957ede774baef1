//! References that lead round in a cycle (a route naming itself as a backend, routes
//! naming each other as parents, delegations that come back) and policies that target
//! policies: every stage answers, the reference that closes the cycle is left out, and
//! a finding names the whole cycle in order.

use crate::common::*;
use kubectl_policies::effective::PolicyStatus;
use kubectl_policies::query::{self, Rebuildable, World};
use kubectl_policies::topology::{Code, Finding, NodeId, PolicyId};

const GATEWAY: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: default}
spec:
  gatewayClassName: gc
  listeners: [{name: http, port: 80, protocol: HTTP}, {name: tcp, port: 9000, protocol: TCP}]
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: default}
spec: {ports: [{name: http, port: 80}]}
"#;

/// A policy of an inherited kind on `target` (a `kind/name` in namespace default).
fn timeout_on(name: &str, group: &str, kind: &str, target: &str) -> String {
    format!(
        "---\napiVersion: example.io/v1\nkind: TimeoutPolicy\nmetadata: {{name: {name}, namespace: default}}\nspec:\n  targetRef: {{group: \"{group}\", kind: {kind}, name: {target}}}\n  defaults: {{request: 3s}}\n"
    )
}

const TLS_ON_SVC: &str = r#"
---
apiVersion: gateway.networking.k8s.io/v1alpha3
kind: BackendTLSPolicy
metadata: {name: tls, namespace: default}
spec:
  targetRefs: [{group: "", kind: Service, name: svc}]
  validation: {hostname: svc.example, wellKnownCACertificates: System}
"#;

fn cycle_findings(w: &World) -> Vec<&Finding> {
    w.topology
        .findings()
        .iter()
        .filter(|f| f.code == Code::Cycle)
        .collect()
}

/// Every question the tool answers, on every node and policy: none may crash, and
/// each walks a DAG.
fn answer_everything(w: &Rebuildable) {
    let _ = query::policy_rows(w, None);
    let _ = query::check(w);
    let _ = query::tree(w, None, None);
    let _ = query::graph::graph(w, None, None);
    for n in NodeId::all(w.topology.nodes().len()) {
        let _ = query::describe_target(w, n);
        let _ = query::effective(w, n, None);
        let _ = query::graph::graph(w, Some(n), None);
    }
    for p in PolicyId::all(w.topology.policies().len()) {
        let _ = query::describe_policy(w, p);
        let _ = query::outline::policy(w, p);
        let _ = query::blast::delete_policy(w, p, &[]);
    }
}

#[test]
fn a_grpcroute_whose_backend_is_itself_is_a_cycle_left_out() {
    let yaml = [
        GATEWAY,
        r#"
---
apiVersion: gateway.networking.k8s.io/v1
kind: GRPCRoute
metadata: {name: loop, namespace: default}
spec:
  parentRefs: [{name: gw}]
  rules:
  - backendRefs: [{group: gateway.networking.k8s.io, kind: GRPCRoute, name: loop}]
"#,
        &timeout_on("slow", "gateway.networking.k8s.io", "Gateway", "gw"),
    ]
    .concat();
    let w = world(&yaml);
    answer_everything(&w);
    let cycles = cycle_findings(&w);
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    assert_eq!(cycles[0].object.name, "loop");
    assert!(
        cycles[0].message.contains(
            "GRPCRoute default/loop → GRPCRoute default/loop#rule-1 → GRPCRoute default/loop;"
        ),
        "{}",
        cycles[0].message
    );
    // The Gateway's policy still reaches the route and its rule, by the one real path.
    let rule = node(&w, "GRPCRoute", Some("default"), "loop", Some("rule-1"));
    let eff = effective(&w, &gk("example.io", "TimeoutPolicy"), rule);
    assert_eq!(
        eff.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(),
        ["gc>gw>gw#http>loop>loop#rule-1"]
    );
    assert_eq!(status(&w, "slow"), PolicyStatus::Enforced);
}

#[test]
fn tcproutes_that_name_each_other_as_parents_are_one_cycle_named_on_both() {
    let yaml = [
        GATEWAY,
        r#"
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: a, namespace: default}
spec:
  parentRefs: [{group: gateway.networking.k8s.io, kind: TCPRoute, name: b}]
  rules: [{backendRefs: [{name: svc, port: 80}]}]
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: b, namespace: default}
spec:
  parentRefs: [{group: gateway.networking.k8s.io, kind: TCPRoute, name: a}]
  rules: [{backendRefs: [{name: svc, port: 80}]}]
"#,
        TLS_ON_SVC,
        &timeout_on("on-a", "gateway.networking.k8s.io", "TCPRoute", "a"),
    ]
    .concat();
    let w = world(&yaml);
    answer_everything(&w);
    let cycles = cycle_findings(&w);
    let on: Vec<&str> = cycles.iter().map(|f| f.object.name.as_str()).collect();
    assert_eq!(on, ["a", "b"], "one finding on each member");
    for f in &cycles {
        assert!(
            f.message
                .contains("TCPRoute default/a → TCPRoute default/b → TCPRoute default/a;"),
            "{}",
            f.message
        );
        assert!(f
            .message
            .contains("the one from TCPRoute default/b to TCPRoute default/a is left out"));
    }
    // What is left is a DAG: a above b; the policy on a reaches the Service both ways.
    let svc = node(&w, "Service", Some("default"), "svc", None);
    let eff = effective(&w, &gk("example.io", "TimeoutPolicy"), svc);
    let paths: Vec<&str> = eff.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(paths, ["a>a#rule-1>svc", "a>b>b#rule-1>svc"]);
    assert_eq!(status(&w, "tls"), PolicyStatus::Enforced);
    // `tree` shows the members: a is a root now.
    let tree = query::tree(&w, None, None);
    assert!(tree.iter().any(|t| t.obj_ref.name == "a"));
}

#[test]
fn a_longer_cycle_across_namespaces_is_named_in_order() {
    let routes: String = [("ra", "rc"), ("rb", "ra"), ("rc", "rb")]
        .iter()
        .map(|(name, parent)| {
            format!(
                "---\napiVersion: gateway.networking.k8s.io/v1alpha2\nkind: TCPRoute\nmetadata: {{name: {name}, namespace: ns-{name}}}\nspec:\n  parentRefs: [{{group: gateway.networking.k8s.io, kind: TCPRoute, name: {parent}, namespace: ns-{parent}}}]\n"
            )
        })
        .collect();
    let yaml = [GATEWAY, &routes].concat();
    let w = world(&yaml);
    answer_everything(&w);
    let cycles = cycle_findings(&w);
    assert_eq!(cycles.len(), 3, "{cycles:?}");
    let chain = "TCPRoute ns-ra/ra → TCPRoute ns-rb/rb → TCPRoute ns-rc/rc → TCPRoute ns-ra/ra;";
    assert!(
        cycles.iter().all(|f| f.message.contains(chain)),
        "{cycles:?}"
    );
}

#[test]
fn a_route_below_a_cycle_still_gets_what_flows_into_it() {
    // gw → r1, and r1 ⇄ r2 by parentRefs: the cycle is cut where it closes, below
    // the Gateway, so the Gateway's policy reaches both.
    let yaml = [
        GATEWAY,
        r#"
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: r1, namespace: default}
spec:
  parentRefs: [{name: gw}, {group: gateway.networking.k8s.io, kind: TCPRoute, name: r2}]
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: r2, namespace: default}
spec:
  parentRefs: [{group: gateway.networking.k8s.io, kind: TCPRoute, name: r1}]
"#,
        &timeout_on("slow", "gateway.networking.k8s.io", "Gateway", "gw"),
    ]
    .concat();
    let w = world(&yaml);
    answer_everything(&w);
    let cycles = cycle_findings(&w);
    assert_eq!(cycles.len(), 2, "{cycles:?}");
    assert!(cycles[0]
        .message
        .contains("TCPRoute default/r1 → TCPRoute default/r2 → TCPRoute default/r1;"));
    let r2 = node(&w, "TCPRoute", Some("default"), "r2", None);
    let eff = effective(&w, &gk("example.io", "TimeoutPolicy"), r2);
    assert_eq!(
        eff.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(),
        ["gc>gw>gw#tcp>r1>r2"]
    );
}

#[test]
fn an_httproute_delegation_cycle_names_the_routes_that_make_it() {
    let yaml = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: a, namespace: default}
spec:
  rules:
  - backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: b}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: b, namespace: default}
spec:
  rules:
  - backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: c}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: c, namespace: default}
spec:
  rules:
  - backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: a}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: self, namespace: default}
spec:
  rules:
  - backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: self}]
"#;
    let w = world(
        &[
            yaml,
            &timeout_on("t", "gateway.networking.k8s.io", "HTTPRoute", "a"),
        ]
        .concat(),
    );
    answer_everything(&w);
    let cycles = cycle_findings(&w);
    let messages: Vec<&str> = cycles.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(cycles.len(), 2, "{messages:?}");
    let abc = cycles
        .iter()
        .find(|f| f.object.name == "c")
        .expect("c's delegation closes the cycle");
    assert_eq!(abc.object.section.as_deref(), Some("rule-1"));
    assert_eq!(
        abc.message,
        "spec.rules[0].backendRefs[0]: delegating to HTTPRoute default/a would close a cycle \
         (HTTPRoute default/a → HTTPRoute default/a#rule-1 → HTTPRoute default/b → \
         HTTPRoute default/b#rule-1 → HTTPRoute default/c → HTTPRoute default/c#rule-1 → \
         HTTPRoute default/a); the delegation is left out"
    );
    let own = cycles.iter().find(|f| f.object.name == "self").unwrap();
    assert!(
        own.message.contains(
            "(HTTPRoute default/self → HTTPRoute default/self#rule-1 → HTTPRoute default/self)"
        ),
        "{}",
        own.message
    );
    // Nowhere the old message that blamed a missing route.
    assert!(
        !messages.iter().any(|m| m.contains("not in the input")),
        "{messages:?}"
    );
    let c = node(&w, "HTTPRoute", Some("default"), "c", None);
    let eff = effective(&w, &gk("example.io", "TimeoutPolicy"), c);
    assert_eq!(eff.len(), 1);
    assert_eq!(eff[0].0, "a>a#rule-1>b>b#rule-1>c");
}

#[test]
fn a_policy_that_targets_itself_or_another_policy_is_a_finding() {
    let yaml = [
        GATEWAY,
        TLS_ON_SVC,
        &timeout_on("me", "example.io", "TimeoutPolicy", "me"),
        &timeout_on(
            "on-tls",
            "gateway.networking.k8s.io",
            "BackendTLSPolicy",
            "tls",
        ),
    ]
    .concat();
    let w = world(&yaml);
    answer_everything(&w);
    let found: Vec<(&str, &str)> = w
        .topology
        .findings()
        .iter()
        .filter(|f| f.code == Code::TargetIsPolicy)
        .map(|f| (f.object.name.as_str(), f.message.as_str()))
        .collect();
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].0 == "me" && found[0].1.contains("its target is the policy itself"));
    assert!(
        found[1].0 == "on-tls"
            && found[1]
                .1
                .contains("its target is BackendTLSPolicy default/tls, a policy"),
        "{found:?}"
    );
    assert_eq!(status(&w, "me"), PolicyStatus::Invalid);
    assert_eq!(status(&w, "on-tls"), PolicyStatus::Invalid);
    // `check` and `describe` of the policy both say it.
    let check = query::check(&w);
    assert!(check
        .iter()
        .any(|f| f.code == Code::TargetIsPolicy && f.object.name == "me"));
    let me = w
        .topology
        .policies()
        .iter()
        .position(|p| p.obj_ref.name == "me")
        .map(PolicyId::at)
        .unwrap();
    let d = serde_json::to_value(query::describe_policy(&w, me)).unwrap();
    assert!(d.to_string().contains("TargetIsPolicy"), "{d}");
    // The policy it targets is no node of the hierarchy.
    assert_eq!(status(&w, "tls"), PolicyStatus::Enforced);
}

#[test]
fn a_long_chain_of_routes_costs_no_stack() {
    // 3,000 TCPRoutes, each the parent of the next, and a policy at the top: every
    // walk down the chain (the fold, its paths, the tree) is a loop, not recursion.
    let mut yaml = String::from(GATEWAY);
    for i in 0..3000 {
        let parent = match i {
            0 => "{name: gw}".to_string(),
            _ => format!(
                "{{group: gateway.networking.k8s.io, kind: TCPRoute, name: r{}}}",
                i - 1
            ),
        };
        yaml.push_str(&format!(
            "---\napiVersion: gateway.networking.k8s.io/v1alpha2\nkind: TCPRoute\nmetadata: {{name: r{i}, namespace: default}}\nspec:\n  parentRefs: [{parent}]\n"
        ));
    }
    yaml.push_str(&timeout_on(
        "slow",
        "gateway.networking.k8s.io",
        "Gateway",
        "gw",
    ));
    let w = kubectl_policies::analyze_yaml(&yaml).unwrap();
    let last = node(&w, "TCPRoute", Some("default"), "r2999", None);
    let eff = effective(&w, &gk("example.io", "TimeoutPolicy"), last);
    assert_eq!(eff.len(), 1);
    assert_eq!(
        eff[0].0.matches('>').count(),
        3002,
        "gc, gw, its listener, then each route"
    );
    let tree = query::tree(&w, None, None);
    let mut depth = 0;
    let mut at = &tree[0];
    while let Some(c) = at
        .children
        .iter()
        .find(|c| !c.children.is_empty() || c.truncated)
    {
        at = c;
        depth += 1;
    }
    assert_eq!(depth + 1, query::MAX_DEPTH, "drawn to the bound");
    assert!(at.truncated, "and says so");
    assert!(cycle_findings(&w).is_empty());
}

#[test]
fn a_route_that_names_itself_as_its_parent_is_a_cycle() {
    let yaml = [
        GATEWAY,
        r#"
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: me, namespace: default}
spec:
  parentRefs: [{name: gw}, {group: gateway.networking.k8s.io, kind: TCPRoute, name: me}]
"#,
    ]
    .concat();
    let w = world(&yaml);
    answer_everything(&w);
    let cycles = cycle_findings(&w);
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    assert_eq!(
        cycles[0].message,
        "spec.parentRefs[1]: the route names itself as its parent, a cycle \
         (TCPRoute default/me → TCPRoute default/me); the reference is left out"
    );
}

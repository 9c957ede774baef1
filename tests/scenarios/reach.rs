//! Reach only what traffic reaches: how far down each kind's settings flow, as its
//! vendor configures them.

use crate::common::*;
use kubectl_policies::effective::PolicyStatus;
use kubectl_policies::query::World;
use kubectl_policies::topology::PolicyId;
use serde_json::json;

/// A Gateway with two listeners, a route on each, both to one Service.
const EG: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec:
  gatewayClassName: eg
  listeners:
  - {name: http, port: 80, protocol: HTTP}
  - {name: plain, port: 8080, protocol: HTTP}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: app}
spec:
  parentRefs: [{name: gw, sectionName: http}]
  rules: [{name: main, backendRefs: [{name: svc, port: 80}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: other, namespace: app}
spec:
  parentRefs: [{name: gw, sectionName: plain}]
  rules: [{name: main, backendRefs: [{name: svc, port: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: app}
spec: {ports: [{name: http, port: 80}]}
"#;

fn ctp(name: &str, section: Option<&str>, day: u32, spec: &str) -> String {
    let section = section.map_or(String::new(), |s| format!(", sectionName: {s}"));
    format!(
        "---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: ClientTrafficPolicy\nmetadata: {{name: {name}, namespace: app, creationTimestamp: \"2026-01-0{day}T00:00:00Z\"}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw{section}}}]\n{spec}\n"
    )
}

fn pid(w: &World, name: &str) -> PolicyId {
    let i = w
        .topology
        .policies()
        .iter()
        .position(|p| p.obj_ref.name == name)
        .unwrap_or_else(|| panic!("no policy {name}"));
    PolicyId::at(i)
}

fn ctp_kind() -> kubectl_policies::model::GroupKind {
    gk("gateway.envoyproxy.io", "ClientTrafficPolicy")
}

#[test]
fn client_traffic_policy_sets_the_client_side_and_only_http1_reaches_backends() {
    let yaml = [
        EG,
        &ctp(
            "client",
            None,
            1,
            "  http1: {preserveHeaderCase: true}\n  timeout: {http: {idleTimeout: 5s}}",
        ),
    ]
    .concat();
    let w = world(&yaml);
    let k = ctp_kind();
    // The route's rule: the whole policy (the client side of its listener).
    let rule = node(&w, "HTTPRoute", Some("app"), "web", Some("main"));
    let at_rule = effective(&w, &k, rule);
    assert_eq!(
        at_rule[0].1,
        json!({"http1": {"preserveHeaderCase": true}, "timeout": {"http": {"idleTimeout": "5s"}}})
    );
    // The Service and its port: only http1 (copied onto the upstream cluster).
    for section in [None, Some("http")] {
        let n = node(&w, "Service", Some("app"), "svc", section);
        for (path, spec) in effective(&w, &k, n) {
            assert_eq!(
                spec,
                json!({"http1": {"preserveHeaderCase": true}}),
                "{path}"
            );
        }
    }
    // Everything it sets applies where it applies: Enforced, at the Service too.
    let p = pid(&w, "client");
    assert_eq!(status(&w, "client"), PolicyStatus::Enforced);
    let svc = node(&w, "Service", Some("app"), "svc", None);
    assert_eq!(
        w.statuses().reached(p).get(svc),
        Some(PolicyStatus::Enforced)
    );
}

#[test]
fn a_client_traffic_policy_without_http1_does_not_reach_backends() {
    let yaml = [
        EG,
        &ctp("client", None, 1, "  timeout: {http: {idleTimeout: 5s}}"),
    ]
    .concat();
    let w = world(&yaml);
    let k = ctp_kind();
    let svc = node(&w, "Service", Some("app"), "svc", None);
    assert!(effective(&w, &k, svc).is_empty());
    let p = pid(&w, "client");
    assert_eq!(w.statuses().reached(p).get(svc), None);
    // The Gateway, its two listeners and the two routes (sections with their object).
    assert_eq!(w.statuses().affects_count(p), 3);
    assert_eq!(status(&w, "client"), PolicyStatus::Enforced);
}

#[test]
fn http1_reaches_backends_from_the_policy_that_wins_the_listener() {
    // The listener's policy replaces the Gateway's whole (no merging): through the
    // http listener no http1 reaches the Service; through the other, the Gateway's.
    let yaml = [
        EG,
        &ctp("gateway", None, 1, "  http1: {preserveHeaderCase: true}"),
        &ctp(
            "listener",
            Some("http"),
            2,
            "  timeout: {http: {idleTimeout: 5s}}",
        ),
    ]
    .concat();
    let w = world(&yaml);
    let k = ctp_kind();
    let port = node(&w, "Service", Some("app"), "svc", Some("http"));
    let at_port = effective(&w, &k, port);
    assert_eq!(at_port.len(), 1, "{at_port:?}");
    assert!(at_port[0].0.contains("gw#plain"), "{at_port:?}");
    assert_eq!(at_port[0].1, json!({"http1": {"preserveHeaderCase": true}}));
    assert_eq!(status(&w, "gateway"), PolicyStatus::PartiallyEnforced);
    assert_eq!(status(&w, "listener"), PolicyStatus::Enforced);
    assert_eq!(w.statuses().reached(pid(&w, "listener")).get(port), None);
}

#[test]
fn backend_traffic_policy_sets_only_its_cluster_settings_on_backends() {
    // Envoy Gateway copies a BackendTrafficPolicy's connect timeout onto each route's
    // upstream cluster; its request timeout and rate limit stay route config.
    let yaml = [
        EG,
        "---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: BackendTrafficPolicy\nmetadata: {name: btp, namespace: app}\nspec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]\n  timeout: {tcp: {connectTimeout: 2s}, http: {requestTimeout: 5s}}\n  rateLimit: {type: Local, local: {rules: [{limit: {requests: 10, unit: Second}}]}}\n",
    ]
    .concat();
    let w = world(&yaml);
    let k = gk("gateway.envoyproxy.io", "BackendTrafficPolicy");
    let rule = node(&w, "HTTPRoute", Some("app"), "web", Some("main"));
    let at_rule = effective(&w, &k, rule);
    assert_eq!(at_rule.len(), 1);
    assert!(at_rule[0].1.get("rateLimit").is_some() && at_rule[0].1.get("timeout").is_some());
    let at = effective(&w, &k, svc_node(&w));
    assert!(!at.is_empty());
    assert!(at
        .iter()
        .all(|(_, s)| *s == json!({"timeout": {"tcp": {"connectTimeout": "2s"}}})));
    assert_eq!(status(&w, "btp"), PolicyStatus::Enforced);
    // A policy setting only route config does not reach the Service at all.
    let route_only = yaml.replace("tcp: {connectTimeout: 2s}, ", "");
    let w = world(&route_only);
    assert!(effective(&w, &k, svc_node(&w)).is_empty());
}

/// The Service `svc`'s port `http`.
fn svc_node(w: &World) -> kubectl_policies::topology::NodeId {
    node(w, "Service", Some("app"), "svc", Some("http"))
}

/// One policy `p` of `kind`, aimed by `target` (a targeting line), setting `spec`.
fn one_policy(api: &str, kind: &str, target: &str, spec: &str) -> String {
    format!(
        "---\napiVersion: {api}\nkind: {kind}\nmetadata: {{name: p, namespace: app}}\nspec:\n  {target}\n{spec}\n"
    )
}

#[test]
fn kinds_that_configure_listeners_and_routes_stop_before_the_backends() {
    let gw_refs = "targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]";
    let gw_ref = "targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}";
    let web_refs = "targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: web}]";
    // (apiVersion, kind, target, spec, what reaches the Service: None for nothing)
    let cases = [
        (
            "gateway.envoyproxy.io/v1alpha1",
            "SecurityPolicy",
            gw_refs,
            "  cors: {allowOrigins: [\"*\"]}",
            None,
        ),
        (
            "gateway.envoyproxy.io/v1alpha1",
            "EnvoyExtensionPolicy",
            gw_refs,
            // An ext-proc Service of the input: one it does not hold would refuse the
            // policy (tests/scenarios/references.rs).
            "  extProc: [{backendRefs: [{name: svc, port: 80}]}]",
            None,
        ),
        (
            "kuadrant.io/v1",
            "AuthPolicy",
            gw_ref,
            "  rules: {authorization: {allow-all: {opa: {rego: allow = true}}}}",
            None,
        ),
        (
            "kuadrant.io/v1",
            "RateLimitPolicy",
            gw_ref,
            "  limits: {global: {rates: [{limit: 5, window: 10s}]}}",
            None,
        ),
        (
            "gateway.nginx.org/v1alpha1",
            "ClientSettingsPolicy",
            gw_ref,
            "  body: {maxSize: 10m}",
            None,
        ),
        (
            "gateway.nginx.org/v1alpha1",
            "ProxySettingsPolicy",
            gw_refs,
            "  buffering: {disable: true}",
            None,
        ),
        (
            "gateway.kgateway.dev/v1alpha1",
            "TrafficPolicy",
            gw_refs,
            "  timeouts: {request: 5s}",
            None,
        ),
        (
            "gateway.solo.io/v1",
            "RouteOption",
            web_refs,
            "  options: {timeout: 5s}",
            None,
        ),
        (
            "agentgateway.dev/v1alpha1",
            "AgentgatewayPolicy",
            gw_refs,
            "  traffic: {timeouts: {request: 5s}}\n  backend: {tcp: {keepalive: {time: 5s}}}",
            Some(json!({"backend": {"tcp": {"keepalive": {"time": "5s"}}}})),
        ),
    ];
    for (api, kind, target, spec, at_backend) in cases {
        let w = world(&[EG, &one_policy(api, kind, target, spec)].concat());
        let group = api.split('/').next().unwrap_or_default();
        let k = gk(group, kind);
        let rule = node(&w, "HTTPRoute", Some("app"), "web", Some("main"));
        assert_eq!(effective(&w, &k, rule).len(), 1, "{kind} at the rule");
        let svc = node(&w, "Service", Some("app"), "svc", Some("http"));
        let at = effective(&w, &k, svc);
        match &at_backend {
            None => assert!(at.is_empty(), "{kind} at the Service: {at:?}"),
            Some(want) => {
                assert!(!at.is_empty(), "{kind} at the Service");
                assert!(at.iter().all(|(_, s)| s == want), "{kind}: {at:?}");
            }
        }
        assert_eq!(status(&w, "p"), PolicyStatus::Enforced, "{kind}");
    }
}

/// A Service with two ports; `web` sends traffic to port 80 only.
const PORTS: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec:
  gatewayClassName: eg
  listeners: [{name: http, port: 80, protocol: HTTP}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: app}
spec:
  parentRefs: [{name: gw}]
  rules: [{name: main, backendRefs: [{name: svc, port: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: app}
spec: {ports: [{name: http, port: 80}, {name: admin, port: 9090}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: btp, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  timeout: {tcp: {connectTimeout: 5s}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: tls, namespace: app}
spec:
  targetRefs: [{group: "", kind: Service, name: svc}]
  validation: {hostname: svc.example, wellKnownCACertificates: System}
"#;

fn drawn(forest: &[kubectl_policies::query::TreeNode]) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack: Vec<&kubectl_policies::query::TreeNode> = forest.iter().collect();
    while let Some(n) = stack.pop() {
        out.push(n.obj_ref.to_string());
        stack.extend(n.children.iter());
    }
    out
}

#[test]
fn a_service_port_is_reached_through_the_ports_backend_refs_name() {
    let w = world(PORTS);
    let btp = gk("gateway.envoyproxy.io", "BackendTrafficPolicy");
    let http = node(&w, "Service", Some("app"), "svc", Some("http"));
    let admin = node(&w, "Service", Some("app"), "svc", Some("admin"));
    assert!(!effective(&w, &btp, http).is_empty());
    // No route sends traffic to admin: the Gateway's policy does not reach it.
    assert!(effective(&w, &btp, admin).is_empty());
    let p = pid(&w, "btp");
    assert_eq!(w.statuses().reached(p).get(admin), None);
    assert_eq!(
        w.statuses().reached(p).get(http),
        Some(PolicyStatus::Enforced)
    );
    // A policy on the Service itself covers all its ports.
    let tls = pid(&w, "tls");
    assert_eq!(
        w.statuses().reached(tls).get(admin),
        Some(PolicyStatus::Enforced)
    );
    // tree draws the port traffic reaches, not the other.
    let all = drawn(&kubectl_policies::query::tree(&w, None, None));
    assert!(all.contains(&"service/app/svc#http".to_string()), "{all:?}");
    assert!(
        !all.contains(&"service/app/svc#admin".to_string()),
        "{all:?}"
    );
}

/// The objects and sections `graph` draws.
fn pictured(g: &kubectl_policies::query::graph::Graph) -> Vec<String> {
    g.nodes.iter().map(|n| n.obj_ref.to_string()).collect()
}

#[test]
fn graph_draws_only_the_ports_traffic_reaches() {
    let w = world(PORTS);
    let whole = pictured(&kubectl_policies::query::graph::graph(&w, None, None));
    assert!(
        whole.contains(&"service/app/svc#http".to_string()),
        "{whole:?}"
    );
    assert!(
        !whole.contains(&"service/app/svc#admin".to_string()),
        "{whole:?}"
    );
    // Around the Gateway, as around everything.
    let gw = node(&w, "Gateway", Some("app"), "gw", None);
    let around = pictured(&kubectl_policies::query::graph::graph(&w, Some(gw), None));
    assert!(
        around.contains(&"service/app/svc#http".to_string()),
        "{around:?}"
    );
    assert!(
        !around.contains(&"service/app/svc#admin".to_string()),
        "{around:?}"
    );
    // A port with a policy of its own is drawn, reached or not.
    let on_admin = "---\napiVersion: gateway.networking.k8s.io/v1\nkind: BackendTLSPolicy\nmetadata: {name: admin-tls, namespace: app}\nspec:\n  targetRefs: [{group: \"\", kind: Service, name: svc, sectionName: admin}]\n  validation: {hostname: svc.example, wellKnownCACertificates: System}\n";
    let w = world(&[PORTS, on_admin].concat());
    let whole = pictured(&kubectl_policies::query::graph::graph(&w, None, None));
    assert!(
        whole.contains(&"service/app/svc#admin".to_string()),
        "{whole:?}"
    );
}

#[test]
fn a_second_route_naming_the_other_port_reaches_it() {
    let yaml = [
        PORTS,
        "---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: ops, namespace: app}\nspec:\n  parentRefs: [{name: gw}]\n  rules: [{name: main, backendRefs: [{name: svc, port: 9090}]}]\n",
    ]
    .concat();
    let w = world(&yaml);
    let btp = gk("gateway.envoyproxy.io", "BackendTrafficPolicy");
    let admin = node(&w, "Service", Some("app"), "svc", Some("admin"));
    let at = effective(&w, &btp, admin);
    assert_eq!(at.len(), 1, "{at:?}");
    assert!(at[0].0.contains(">ops#main>"), "{at:?}");
    let all = drawn(&kubectl_policies::query::tree(&w, None, None));
    assert!(
        all.contains(&"service/app/svc#admin".to_string()),
        "{all:?}"
    );
    let whole = pictured(&kubectl_policies::query::graph::graph(&w, None, None));
    assert!(
        whole.contains(&"service/app/svc#admin".to_string()),
        "{whole:?}"
    );
}

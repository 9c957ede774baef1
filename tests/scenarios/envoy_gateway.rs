//! Envoy Gateway's own rules, as its translator applies them.

use crate::common::*;
use kubectl_policies::effective::PolicyStatus;
use serde_json::json;

const TWO_ROUTES: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec:
  gatewayClassName: eg
  listeners: [{name: http, port: 80, protocol: HTTP}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: a, namespace: app}
spec: {parentRefs: [{name: gw}], rules: [{name: main}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: b, namespace: app}
spec: {parentRefs: [{name: gw}], rules: [{name: main}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: gateway, namespace: app, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  timeout: {http: {requestTimeout: 5s}}
"#;

fn on_route_a(spec: &str) -> String {
    format!("---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: BackendTrafficPolicy\nmetadata: {{name: route, namespace: app, creationTimestamp: \"2026-01-02T00:00:00Z\"}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: a}}]\n{spec}\n")
}

#[test]
fn an_empty_route_policy_replaces_the_gateway_policy_on_its_route() {
    let yaml = [TWO_ROUTES, &on_route_a("")].concat();
    let w = world(&yaml);
    let btp = gk("gateway.envoyproxy.io", "BackendTrafficPolicy");
    let a = node(&w, "HTTPRoute", Some("app"), "a", None);
    let b = node(&w, "HTTPRoute", Some("app"), "b", None);
    assert!(effective(&w, &btp, a).iter().all(|(_, s)| *s == json!({})));
    assert_eq!(
        effective(&w, &btp, b)[0].1,
        json!({"timeout": {"http": {"requestTimeout": "5s"}}})
    );
    // Overridden on a, Enforced on b.
    assert_eq!(status(&w, "gateway"), PolicyStatus::PartiallyEnforced);
}

#[test]
fn an_empty_route_policy_with_merge_type_takes_the_gateway_policy_in() {
    let yaml = [TWO_ROUTES, &on_route_a("  mergeType: StrategicMerge")].concat();
    let w = world(&yaml);
    let btp = gk("gateway.envoyproxy.io", "BackendTrafficPolicy");
    let a = node(&w, "HTTPRoute", Some("app"), "a", None);
    assert_eq!(
        effective(&w, &btp, a)[0].1,
        json!({"timeout": {"http": {"requestTimeout": "5s"}}})
    );
    assert_eq!(status(&w, "gateway"), PolicyStatus::Enforced);
}

//! One case per merge model the built-in registry knows, as each project documents it.

mod common;
use common::*;
use kubectl_policies::effective::PolicyStatus;
use serde_json::json;

const BASE: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec: {gatewayClassName: gc}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: route, namespace: app}
spec: {parentRefs: [{name: gw}], rules: [{name: main}]}
"#;

fn on(api: &str, kind: &str, name: &str, target_kind: &str, target: &str, spec: &str) -> String {
    format!(
        "---\napiVersion: {api}\nkind: {kind}\nmetadata: {{name: {name}, namespace: app, creationTimestamp: \"2026-01-0{}T00:00:00Z\"}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: {target_kind}, name: {target}}}]\n{spec}\n",
        if target_kind == "Gateway" { 1 } else { 2 }
    )
}

fn at_route(yaml: &str, group: &str, kind: &str) -> serde_json::Value {
    let w = world(yaml);
    let route = node(&w, "HTTPRoute", Some("app"), "route", None);
    let eff = effective(&w, &gk(group, kind), route);
    assert_eq!(eff.len(), 1, "{eff:?}");
    eff[0].1.clone()
}

#[test]
fn envoy_gateway_merge_type_merges_into_the_parent() {
    let eg = "gateway.envoyproxy.io/v1alpha1";
    let gw = on(
        eg,
        "BackendTrafficPolicy",
        "gw-btp",
        "Gateway",
        "gw",
        "  timeout: {http: {requestTimeout: 10s}}\n  retry: {numRetries: 1}",
    );
    let merged = on(
        eg,
        "BackendTrafficPolicy",
        "route-btp",
        "HTTPRoute",
        "route",
        "  mergeType: JSONMerge\n  retry: {numRetries: 3}",
    );
    assert_eq!(
        at_route(
            &[BASE, &gw, &merged].concat(),
            "gateway.envoyproxy.io",
            "BackendTrafficPolicy"
        ),
        json!({"timeout": {"http": {"requestTimeout": "10s"}}, "retry": {"numRetries": 3}})
    );
    // Without mergeType the route's policy wins whole.
    let whole = on(
        eg,
        "BackendTrafficPolicy",
        "route-btp",
        "HTTPRoute",
        "route",
        "  retry: {numRetries: 3}",
    );
    assert_eq!(
        at_route(
            &[BASE, &gw, &whole].concat(),
            "gateway.envoyproxy.io",
            "BackendTrafficPolicy"
        ),
        json!({"retry": {"numRetries": 3}})
    );
}

#[test]
fn kuadrant_merge_strategy_is_keyed_by_limit_name() {
    let k = "kuadrant.io/v1";
    let route = on(
        k,
        "RateLimitPolicy",
        "route-rlp",
        "HTTPRoute",
        "route",
        "  limits: {global: {rates: [{limit: 5, window: 10s}]}}",
    );
    let gw_defaults = on(k, "RateLimitPolicy", "gw-rlp", "Gateway", "gw",
        "  defaults:\n    strategy: merge\n    limits: {global: {rates: [{limit: 100, window: 1m}]}, per-user: {rates: [{limit: 10, window: 1m}]}}");
    assert_eq!(
        at_route(
            &[BASE, &gw_defaults, &route].concat(),
            "kuadrant.io",
            "RateLimitPolicy"
        ),
        json!({"limits": {"global": {"rates": [{"limit": 5, "window": "10s"}]}, "per-user": {"rates": [{"limit": 10, "window": "1m"}]}}})
    );
    let gw_overrides = gw_defaults.replace("defaults:", "overrides:");
    assert_eq!(
        at_route(
            &[BASE, &gw_overrides, &route].concat(),
            "kuadrant.io",
            "RateLimitPolicy"
        ),
        json!({"limits": {"global": {"rates": [{"limit": 100, "window": "1m"}]}, "per-user": {"rates": [{"limit": 10, "window": "1m"}]}}})
    );
    // Atomic (the default strategy): the route's policy replaces the Gateway's whole.
    let gw_atomic = gw_defaults.replace("    strategy: merge\n", "");
    assert_eq!(
        at_route(
            &[BASE, &gw_atomic, &route].concat(),
            "kuadrant.io",
            "RateLimitPolicy"
        ),
        json!({"limits": {"global": {"rates": [{"limit": 5, "window": "10s"}]}}})
    );
}

#[test]
fn kgateway_priority_annotation_on_the_parent_picks_the_merge() {
    let kg = "gateway.kgateway.dev/v1alpha1";
    let gw_pol = on(
        kg,
        "TrafficPolicy",
        "gw-tp",
        "Gateway",
        "gw",
        "  timeouts: {request: 10s, idle: 30s}\n  retry: {attempts: 1}",
    );
    let route_pol = on(
        kg,
        "TrafficPolicy",
        "route-tp",
        "HTTPRoute",
        "route",
        "  timeouts: {request: 5s}",
    );
    let with = |annotation: Option<&str>| {
        let base = match annotation {
            Some(a) => BASE.replace("metadata: {name: gw, namespace: app}", &format!("metadata: {{name: gw, namespace: app, annotations: {{kgateway.dev/inherited-policy-priority: {a}}}}}")),
            None => BASE.to_string(),
        };
        at_route(
            &[base, gw_pol.clone(), route_pol.clone()].concat(),
            "gateway.kgateway.dev",
            "TrafficPolicy",
        )
    };
    // Default ShallowMergePreferChild: top-level fields merge, the child's win whole.
    assert_eq!(
        with(None),
        json!({"timeouts": {"request": "5s"}, "retry": {"attempts": 1}})
    );
    assert_eq!(
        with(Some("ShallowMergePreferParent")),
        json!({"timeouts": {"request": "10s", "idle": "30s"}, "retry": {"attempts": 1}})
    );
    assert_eq!(
        with(Some("DeepMergePreferChild")),
        json!({"timeouts": {"request": "5s", "idle": "30s"}, "retry": {"attempts": 1}})
    );
    assert_eq!(
        with(Some("DeepMergePreferParent")),
        json!({"timeouts": {"request": "10s", "idle": "30s"}, "retry": {"attempts": 1}})
    );
}

#[test]
fn nginx_client_settings_route_settings_beat_gateway_settings_per_field() {
    let ngf = "gateway.nginx.org/v1alpha1";
    let gw = on(
        ngf,
        "ClientSettingsPolicy",
        "gw-csp",
        "Gateway",
        "gw",
        "  body: {maxSize: 1m, timeout: 30s}",
    );
    let route = on(
        ngf,
        "ClientSettingsPolicy",
        "route-csp",
        "HTTPRoute",
        "route",
        "  body: {maxSize: 5m}",
    );
    assert_eq!(
        at_route(
            &[BASE, &gw, &route].concat(),
            "gateway.nginx.org",
            "ClientSettingsPolicy"
        ),
        json!({"body": {"maxSize": "5m", "timeout": "30s"}})
    );
}

#[test]
fn direct_registry_kinds_conflict_and_the_oldest_wins() {
    let svc = "---\napiVersion: v1\nkind: Service\nmetadata: {name: svc, namespace: app}\n";
    let p = |name: &str, ts: &str, host: &str| {
        format!("---\napiVersion: gateway.networking.k8s.io/v1\nkind: BackendTLSPolicy\nmetadata: {{name: {name}, namespace: app, creationTimestamp: \"{ts}\"}}\nspec:\n  targetRefs: [{{group: \"\", kind: Service, name: svc}}]\n  validation: {{hostname: {host}}}\n")
    };
    let yaml = [
        BASE,
        svc,
        &p("newer", "2026-03-01T00:00:00Z", "b"),
        &p("older", "2026-01-01T00:00:00Z", "a"),
    ]
    .concat();
    let w = world(&yaml);
    let n = node(&w, "Service", Some("app"), "svc", None);
    assert_eq!(
        effective(&w, &gk("gateway.networking.k8s.io", "BackendTLSPolicy"), n)[0].1,
        json!({"validation": {"hostname": "a"}})
    );
    assert_eq!(status(&w, "older"), PolicyStatus::Enforced);
    assert_eq!(status(&w, "newer"), PolicyStatus::Conflicted);
}

#[test]
fn istio_authorization_policies_apply_side_by_side() {
    let gw1 = "---\napiVersion: security.istio.io/v1\nkind: AuthorizationPolicy\nmetadata: {name: deny-bots, namespace: app}\nspec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]\n  action: DENY\n";
    let gw2 = "---\napiVersion: security.istio.io/v1\nkind: AuthorizationPolicy\nmetadata: {name: allow-all, namespace: app}\nspec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]\n  action: ALLOW\n";
    let w = world(&[BASE, gw1, gw2].concat());
    let n = node(&w, "Gateway", Some("app"), "gw", None);
    let eff = effective(&w, &gk("security.istio.io", "AuthorizationPolicy"), n);
    assert_eq!(
        eff[0].1,
        json!({"app/allow-all": {"action": "ALLOW"}, "app/deny-bots": {"action": "DENY"}})
    );
    assert_eq!(status(&w, "deny-bots"), PolicyStatus::Enforced);
    assert_eq!(status(&w, "allow-all"), PolicyStatus::Enforced);
}

#[test]
fn workload_selector_policies_are_shown_not_resolved() {
    let p = "---\napiVersion: security.istio.io/v1\nkind: AuthorizationPolicy\nmetadata: {name: by-label, namespace: app}\nspec:\n  selector: {matchLabels: {app: baker}}\n  action: ALLOW\n";
    let w = world(&[BASE, p].concat());
    assert_eq!(status(&w, "by-label"), PolicyStatus::SelectorBound);
    assert!(w
        .t
        .findings
        .iter()
        .any(|f| f.code == kubectl_policies::topology::Code::SelectorBound));
}

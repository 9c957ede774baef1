//! How kgateway merges its policies, as its translator does, so that a policy whose
//! settings still reach Envoy is never called Overridden.

use crate::common::*;
use kubectl_policies::effective::PolicyStatus;
use serde_json::json;

const GATEWAY: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec:
  gatewayClassName: kgateway
  listeners: [{name: http, port: 80, protocol: HTTP}]
"#;

/// A ListenerPolicy on the Gateway, created at second `second`, with `default`.
fn listener_policy(name: &str, second: u8, default: &str) -> String {
    format!(
        "---\napiVersion: gateway.kgateway.dev/v1alpha1\nkind: ListenerPolicy\nmetadata: {{name: {name}, namespace: app, creationTimestamp: '2024-01-01T00:00:0{second}Z'}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]\n  default: {default}\n"
    )
}

#[test]
fn listener_policies_on_one_gateway_merge_setting_by_setting() {
    let yaml = [
        GATEWAY,
        &listener_policy(
            "logs",
            1,
            "{httpSettings: {accessLog: [{fileSink: {path: /dev/stdout, stringFormat: x}}], idleTimeout: 30s}}",
        ),
        &listener_policy(
            "tracing",
            2,
            "{perConnectionBufferLimitBytes: 1024, httpSettings: {idleTimeout: 60s, useRemoteAddress: true}}",
        ),
    ]
    .concat();
    let w = world(&yaml);
    // Each sets something the other does not: both act (`default` merged as one field,
    // the newer one would be Overridden whole); the newer loses its idle timeout only.
    assert_eq!(status(&w, "logs"), PolicyStatus::Enforced);
    assert_eq!(status(&w, "tracing"), PolicyStatus::PartiallyEnforced);
    let gw = node(&w, "Gateway", Some("app"), "gw", None);
    let kind = gk("gateway.kgateway.dev", "ListenerPolicy");
    let spec = &effective(&w, &kind, gw)[0].1;
    assert_eq!(
        spec["default"],
        json!({
            "httpSettings": {
                "accessLog": [{"fileSink": {"path": "/dev/stdout", "stringFormat": "x"}}],
                // Both set it: the oldest wins.
                "idleTimeout": "30s",
                "useRemoteAddress": true
            },
            "perConnectionBufferLimitBytes": 1024
        })
    );
    let by: Vec<(String, String)> = sources(&w, &kind, gw);
    assert!(by.contains(&(
        "/default/httpSettings/useRemoteAddress".to_string(),
        "tracing".to_string()
    )));
    assert!(by.contains(&(
        "/default/httpSettings/idleTimeout".to_string(),
        "logs".to_string()
    )));
}

#[test]
fn a_listener_policy_whose_every_setting_an_older_one_sets_is_overridden() {
    let yaml = [
        GATEWAY,
        &listener_policy("first", 1, "{httpSettings: {idleTimeout: 30s}}"),
        &listener_policy("second", 2, "{httpSettings: {idleTimeout: 60s}}"),
    ]
    .concat();
    let w = world(&yaml);
    assert_eq!(status(&w, "first"), PolicyStatus::Enforced);
    assert_eq!(status(&w, "second"), PolicyStatus::Overridden);
}

/// Service `auth` with a BackendConfigPolicy of `spec`, and, if `with_tls`, a
/// BackendTLSPolicy on the same Service.
fn backend_config(spec: &str, with_tls: bool) -> String {
    let tls = "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: ca, namespace: app}\n---\napiVersion: gateway.networking.k8s.io/v1\nkind: BackendTLSPolicy\nmetadata: {name: btls, namespace: app}\nspec:\n  targetRefs: [{group: '', kind: Service, name: auth}]\n  validation: {hostname: auth.example.com, caCertificateRefs: [{group: '', kind: ConfigMap, name: ca}]}\n";
    format!(
        "apiVersion: v1\nkind: Service\nmetadata: {{name: auth, namespace: app}}\nspec: {{ports: [{{name: http, port: 8080}}]}}\n---\napiVersion: gateway.kgateway.dev/v1alpha1\nkind: BackendConfigPolicy\nmetadata: {{name: bcp, namespace: app}}\nspec:\n  targetRefs: [{{group: '', kind: Service, name: auth}}]\n{spec}{}",
        if with_tls { tls } else { "" }
    )
}

#[test]
fn a_backend_tls_policy_replaces_a_backend_config_policys_tls_only() {
    let both = "  connectTimeout: 5s\n  tls: {insecureSkipVerify: true}\n";
    let w = world(&backend_config(both, false));
    assert_eq!(status(&w, "bcp"), PolicyStatus::Enforced);
    let w = world(&backend_config(both, true));
    // Its TLS is the BackendTLSPolicy's there; its timeout is enforced unchanged.
    assert_eq!(status(&w, "bcp"), PolicyStatus::PartiallyEnforced);
    assert_eq!(status(&w, "btls"), PolicyStatus::Enforced);
    let auth = node(&w, "Service", Some("app"), "auth", None);
    let kind = gk("gateway.kgateway.dev", "BackendConfigPolicy");
    let spec = &effective(&w, &kind, auth)[0].1;
    assert_eq!(spec, &json!({"connectTimeout": "5s"}));
    // A policy that sets only TLS is overridden there.
    let w = world(&backend_config("  tls: {insecureSkipVerify: true}\n", true));
    assert_eq!(status(&w, "bcp"), PolicyStatus::Overridden);
}

/// A Gateway with an HTTPRoute of two named rules, two GatewayExtensions (`ext-a`,
/// `ext-b`) whose backend Service exists, and `policies`.
fn traffic_world(policies: &[String]) -> String {
    let mut yaml = String::from(GATEWAY);
    yaml.push_str("---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: r, namespace: app}\nspec:\n  parentRefs: [{name: gw}]\n  rules:\n  - {name: one, backendRefs: [{name: web, port: 80}]}\n  - {name: two, backendRefs: [{name: web, port: 80}]}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: app}\nspec: {ports: [{port: 80}]}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: authz, namespace: app}\nspec: {ports: [{port: 9000}]}\n");
    for ext in ["ext-a", "ext-b"] {
        yaml.push_str(&format!("---\napiVersion: gateway.kgateway.dev/v1alpha1\nkind: GatewayExtension\nmetadata: {{name: {ext}, namespace: app}}\nspec:\n  type: ExtAuth\n  extAuth: {{grpcService: {{backendRef: {{name: authz, port: 9000}}}}}}\n"));
    }
    for p in policies {
        yaml.push_str(p);
    }
    yaml
}

/// A TrafficPolicy on `target` (`kind/name` or `kind/name#section`) with `spec`.
fn traffic_policy(name: &str, second: u8, target: &str, spec: &str) -> String {
    let (kind, rest) = target.split_once('/').expect("kind/name");
    let (target, section) = match rest.split_once('#') {
        Some((n, s)) => (n, format!(", sectionName: {s}")),
        None => (rest, String::new()),
    };
    format!(
        "---\napiVersion: gateway.kgateway.dev/v1alpha1\nkind: TrafficPolicy\nmetadata: {{name: {name}, namespace: app, creationTimestamp: '2024-01-01T00:00:0{second}Z'}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: {kind}, name: {target}{section}}}]\n  {spec}\n"
    )
}

#[test]
fn header_modifiers_of_a_gateway_and_a_route_both_act() {
    let yaml = traffic_world(&[
        traffic_policy(
            "gw-headers",
            1,
            "Gateway/gw",
            "headerModifiers: {request: {add: [{name: x-gw, value: '1'}]}}",
        ),
        traffic_policy(
            "route-headers",
            2,
            "HTTPRoute/r",
            "headerModifiers: {request: {add: [{name: x-route, value: '1'}]}}",
        ),
    ]);
    let w = world(&yaml);
    // Envoy's header mutation filter evaluates every level's config: neither shadows.
    assert_eq!(status(&w, "gw-headers"), PolicyStatus::Enforced);
    assert_eq!(status(&w, "route-headers"), PolicyStatus::Enforced);
    let r = node(&w, "HTTPRoute", Some("app"), "r", None);
    let kind = gk("gateway.kgateway.dev", "TrafficPolicy");
    let spec = &effective(&w, &kind, r)[0].1;
    let levels = spec["headerModifiers"].as_object().expect("keyed by level");
    assert_eq!(levels.len(), 2, "{spec}");
    // Another setting both set is still the route's alone.
    let yaml = traffic_world(&[
        traffic_policy("gw-timeouts", 1, "Gateway/gw", "timeouts: {request: 10s}"),
        traffic_policy(
            "route-timeouts",
            2,
            "HTTPRoute/r",
            "timeouts: {request: 5s}",
        ),
    ]);
    let w = world(&yaml);
    assert_eq!(status(&w, "gw-timeouts"), PolicyStatus::Overridden);
    assert_eq!(status(&w, "route-timeouts"), PolicyStatus::Enforced);
}

#[test]
fn a_gateways_ext_auth_provider_is_shadowed_only_by_the_same_provider() {
    let gw = traffic_policy(
        "gw-auth",
        1,
        "Gateway/gw",
        "extAuth: {extensionRef: {name: ext-a}}",
    );
    // Another provider on the route: the Gateway's filter keeps running there.
    let w = world(&traffic_world(&[
        gw.clone(),
        traffic_policy(
            "route-auth",
            2,
            "HTTPRoute/r",
            "extAuth: {extensionRef: {name: ext-b}}",
        ),
    ]));
    assert_eq!(status(&w, "gw-auth"), PolicyStatus::Enforced);
    assert_eq!(status(&w, "route-auth"), PolicyStatus::Enforced);
    let r = node(&w, "HTTPRoute", Some("app"), "r", None);
    let kind = gk("gateway.kgateway.dev", "TrafficPolicy");
    let spec = &effective(&w, &kind, r)[0].1;
    assert_eq!(
        spec["extAuth"],
        json!({
            "app/ext-a": {"extensionRef": {"name": "ext-a"}},
            "app/ext-b": {"extensionRef": {"name": "ext-b"}}
        })
    );
    // The same provider (its namespace written out): the route's config wins there.
    let w = world(&traffic_world(&[
        gw.clone(),
        traffic_policy(
            "route-auth",
            2,
            "HTTPRoute/r",
            "extAuth: {extensionRef: {name: ext-a, namespace: app}}",
        ),
    ]));
    assert_eq!(status(&w, "gw-auth"), PolicyStatus::Overridden);
    // `disable` on the route turns every provider off there.
    let w = world(&traffic_world(&[
        gw.clone(),
        traffic_policy("route-off", 2, "HTTPRoute/r", "extAuth: {disable: {}}"),
    ]));
    assert_eq!(status(&w, "gw-auth"), PolicyStatus::Overridden);
    assert_eq!(status(&w, "route-off"), PolicyStatus::Enforced);
    // The same provider on one rule only: the Gateway's still runs on the other.
    let w = world(&traffic_world(&[
        gw,
        traffic_policy(
            "rule-auth",
            2,
            "HTTPRoute/r#one",
            "extAuth: {extensionRef: {name: ext-a}}",
        ),
    ]));
    assert_eq!(status(&w, "gw-auth"), PolicyStatus::PartiallyEnforced);
    assert_eq!(status(&w, "rule-auth"), PolicyStatus::Enforced);
}

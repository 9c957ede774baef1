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

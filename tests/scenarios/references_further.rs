//! References one step further (`catalog::Further`): a policy whose reference resolves
//! is still refused when what it names cannot do its part. Envoy Gateway fails a
//! policy whose ext-auth or ext-proc Service has a BackendTLSPolicy with a CA that is
//! not there; kgateway fails a TrafficPolicy whose GatewayExtension cannot reach its
//! own backend, and asks a ReferenceGrant of a Secret named in another namespace.

use crate::common::*;
use kubectl_policies::effective::PolicyStatus;
use kubectl_policies::query::World;
use kubectl_policies::topology::{Code, RefReason};

/// A Gateway, Service `auth` (port 9000 named `grpc`, port 9443 named `tls`) and
/// ConfigMap `present` in namespace `app`.
const BASE: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec:
  gatewayClassName: eg
  listeners: [{name: http, port: 80, protocol: HTTP}]
---
apiVersion: v1
kind: Service
metadata: {name: auth, namespace: app}
spec: {ports: [{name: grpc, port: 9000}, {name: tls, port: 9443}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: present, namespace: app}
"#;

/// An EnvoyExtensionPolicy on the Gateway whose ext-proc service is `auth` at `port`.
fn ext_proc(port: u16) -> String {
    format!(
        "---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: EnvoyExtensionPolicy\nmetadata: {{name: eep, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]\n  extProc: [{{backendRefs: [{{name: auth, port: {port}}}]}}]\n"
    )
}

/// A SecurityPolicy on the Gateway whose ext-auth service is `auth` at port 9000.
const EXT_AUTH: &str = r#"
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: sp, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  extAuth: {grpc: {backendRef: {name: auth, port: 9000}}}
"#;

/// A BackendTLSPolicy on Service `auth` (its `section`, if any) with CA ConfigMap `ca`.
fn backend_tls(ca: &str, section: Option<&str>) -> String {
    let section = section.map_or(String::new(), |s| format!(", sectionName: {s}"));
    format!(
        "---\napiVersion: gateway.networking.k8s.io/v1\nkind: BackendTLSPolicy\nmetadata: {{name: tls, namespace: app}}\nspec:\n  targetRefs: [{{group: '', kind: Service, name: auth{section}}}]\n  validation: {{hostname: auth.example.com, caCertificateRefs: [{{group: '', kind: ConfigMap, name: {ca}}}]}}\n"
    )
}

fn invalid_because(w: &World, name: &str) -> Vec<String> {
    findings(w, name)
        .into_iter()
        .filter(|(code, _, _)| *code == Code::Invalid)
        .map(|(_, _, message)| message)
        .collect()
}

#[test]
fn envoy_gateway_ext_proc_whose_backend_tls_ca_is_missing_is_invalid() {
    let w = world(&[BASE, &ext_proc(9000), &backend_tls("ca-cmap", None)].concat());
    // The ext-proc Service itself resolves; its BackendTLSPolicy's CA does not.
    assert_eq!(
        references(&w, "eep"),
        one("/spec/extProc/0/backendRefs/0", None)
    );
    assert_eq!(status(&w, "eep"), PolicyStatus::Invalid);
    let why = invalid_because(&w, "eep");
    assert_eq!(why.len(), 1, "{why:?}");
    assert!(
        why[0].contains("backendtlspolicy") && why[0].contains("ca-cmap"),
        "{why:?}"
    );
    // With its CA there, the same policy stands.
    let w = world(&[BASE, &ext_proc(9000), &backend_tls("present", None)].concat());
    assert_eq!(status(&w, "eep"), PolicyStatus::Enforced);
    assert!(invalid_because(&w, "eep").is_empty());
}

#[test]
fn envoy_gateway_ext_auth_is_refused_with_its_backend_tls_policy() {
    let w = world(&[BASE, EXT_AUTH, &backend_tls("gone", None)].concat());
    assert_eq!(status(&w, "sp"), PolicyStatus::Invalid);
    let w = world(&[BASE, EXT_AUTH].concat());
    assert_eq!(status(&w, "sp"), PolicyStatus::Enforced);
}

#[test]
fn envoy_gateway_matches_the_backend_tls_section_by_the_ports_name() {
    // On section `tls` (port 9443): an ext-proc reaching port 9000 (`grpc`) does not use
    // it, one reaching 9443 does.
    let tls = backend_tls("gone", Some("tls"));
    let w = world(&[BASE, &ext_proc(9000), &tls].concat());
    assert_eq!(status(&w, "eep"), PolicyStatus::Enforced);
    let w = world(&[BASE, &ext_proc(9443), &tls].concat());
    assert_eq!(status(&w, "eep"), PolicyStatus::Invalid);
}

#[test]
fn envoy_gateway_leaves_the_policy_standing_where_the_ca_kind_is_not_in_the_input() {
    // No ConfigMap at all: the CA may exist where the policy is applied.
    let yaml = [BASE, &ext_proc(9000), &backend_tls("ca-cmap", None)]
        .concat()
        .replace(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: present, namespace: app}\n",
            "",
        );
    let w = world(&yaml);
    assert_eq!(status(&w, "eep"), PolicyStatus::Enforced);
}

/// Namespace `shared` holding Service `authz` and Secret `creds`.
const SHARED: &str = r#"
---
apiVersion: v1
kind: Service
metadata: {name: authz, namespace: shared}
spec: {ports: [{name: grpc, port: 9000}]}
---
apiVersion: v1
kind: Secret
metadata: {name: creds, namespace: shared}
"#;

/// A ReferenceGrant in `shared` letting `from_kind` objects of `app` name `to_kind`.
fn grant(from_kind: &str, to_kind: &str) -> String {
    format!(
        "---\napiVersion: gateway.networking.k8s.io/v1beta1\nkind: ReferenceGrant\nmetadata: {{name: g, namespace: shared}}\nspec:\n  from: [{{group: gateway.kgateway.dev, kind: {from_kind}, namespace: app}}]\n  to: [{{group: '', kind: {to_kind}}}]\n"
    )
}

/// A GatewayExtension `ext` in `app` whose ext-auth service is `shared/authz`, and a
/// TrafficPolicy on the Gateway naming it.
const KGATEWAY_EXT_AUTH: &str = r#"
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: GatewayExtension
metadata: {name: ext, namespace: app}
spec:
  extAuth: {grpcService: {backendRef: {name: authz, namespace: shared, port: 9000}}}
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: tp, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  extAuth: {extensionRef: {name: ext}}
"#;

#[test]
fn kgateway_gateway_extension_backend_in_another_namespace_needs_a_grant() {
    let w = world(&[BASE, SHARED, KGATEWAY_EXT_AUTH].concat());
    assert_eq!(
        references(&w, "tp"),
        one("/spec/extAuth/extensionRef", None)
    );
    assert_eq!(status(&w, "tp"), PolicyStatus::Invalid);
    let why = invalid_because(&w, "tp");
    assert!(
        why.iter()
            .any(|m| m.contains("gatewayextension") && m.contains("RefNotPermitted")),
        "{why:?}"
    );
    // A grant to TrafficPolicy is not one to the GatewayExtension, which makes the call.
    let w = world(
        &[
            BASE,
            SHARED,
            KGATEWAY_EXT_AUTH,
            &grant("TrafficPolicy", "Service"),
        ]
        .concat(),
    );
    assert_eq!(status(&w, "tp"), PolicyStatus::Invalid);
    let w = world(
        &[
            BASE,
            SHARED,
            KGATEWAY_EXT_AUTH,
            &grant("GatewayExtension", "Service"),
        ]
        .concat(),
    );
    assert_eq!(status(&w, "tp"), PolicyStatus::Enforced);
}

#[test]
fn kgateway_gateway_extension_whose_backend_is_missing_fails_the_policy() {
    let yaml = [BASE, SHARED, KGATEWAY_EXT_AUTH]
        .concat()
        .replace("namespace: shared, port", "namespace: app, port")
        .replace(
            "name: authz, namespace: app",
            "name: nowhere, namespace: app",
        );
    let w = world(&yaml);
    assert_eq!(status(&w, "tp"), PolicyStatus::Invalid);
}

/// A TrafficPolicy on the Gateway whose basic auth Secret is `secret_ref`.
fn basic_auth(secret_ref: &str) -> String {
    format!(
        "---\napiVersion: gateway.kgateway.dev/v1alpha1\nkind: TrafficPolicy\nmetadata: {{name: tp, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]\n  basicAuth: {{secretRef: {secret_ref}}}\n"
    )
}

#[test]
fn kgateway_secret_in_another_namespace_needs_a_grant() {
    let refer = "{name: creds, namespace: shared}";
    let w = world(&[BASE, SHARED, &basic_auth(refer)].concat());
    assert_eq!(
        references(&w, "tp"),
        one(
            "/spec/basicAuth/secretRef",
            Some(RefReason::RefNotPermitted)
        )
    );
    assert_eq!(status(&w, "tp"), PolicyStatus::Invalid);
    let w = world(
        &[
            BASE,
            SHARED,
            &basic_auth(refer),
            &grant("TrafficPolicy", "Secret"),
        ]
        .concat(),
    );
    assert_eq!(references(&w, "tp"), one("/spec/basicAuth/secretRef", None));
    assert_eq!(status(&w, "tp"), PolicyStatus::Enforced);
}

/// A Gateway in `infra` with a BackendTrafficPolicy whose response override's body is
/// ConfigMap `error-page` (absent: the ConfigMap `other` is there), and a route in `app`
/// whose own BackendTrafficPolicy has `route_spec`.
fn merged_with_gateway_policy(route_spec: &str) -> String {
    format!(
        r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {{name: gw, namespace: infra}}
spec:
  gatewayClassName: eg
  listeners: [{{name: http, port: 80, protocol: HTTP, allowedRoutes: {{namespaces: {{from: All}}}}}}]
---
apiVersion: v1
kind: ConfigMap
metadata: {{name: other, namespace: infra}}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {{name: gateway-errors, namespace: infra, creationTimestamp: '2024-01-01T00:00:00Z'}}
spec:
  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]
  responseOverride:
  - match: {{statusCodes: [{{type: Value, value: 503}}]}}
    response: {{body: {{type: ValueRef, valueRef: {{group: '', kind: ConfigMap, name: error-page}}}}}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: shop, namespace: app}}
spec:
  parentRefs: [{{name: gw, namespace: infra}}]
  rules: [{{matches: [{{path: {{type: PathPrefix, value: /}}}}]}}]
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {{name: shop-limits, namespace: app, creationTimestamp: '2024-01-01T00:00:01Z'}}
spec:
  targetRefs: [{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}}]
{route_spec}"#
    )
}

const RATE_LIMIT: &str = "  rateLimit: {local: {rules: [{limit: {requests: 10, unit: Minute}}]}}\n";

/// The world of `yaml` with every oracle of `world`: deleting the refused Gateway
/// policy frees the route's, which `delete_policy` answers by building the world again
/// (`MergedParentFields`), as `delete_policy_by_reanalysis` does.
fn merged_world(yaml: &str) -> kubectl_policies::query::Rebuildable {
    world(yaml)
}

#[test]
fn envoy_gateway_route_policy_merged_with_a_refused_gateway_policy_is_refused_too() {
    let merged = format!("  mergeType: StrategicMerge\n{RATE_LIMIT}");
    let w = merged_world(&merged_with_gateway_policy(&merged));
    assert_eq!(status(&w, "gateway-errors"), PolicyStatus::Invalid);
    assert_eq!(status(&w, "shop-limits"), PolicyStatus::Invalid);
    let why = invalid_because(&w, "shop-limits");
    assert!(
        why.iter()
            .any(|m| m.contains("mergeType") && m.contains("error-page")),
        "{why:?}"
    );
}

#[test]
fn envoy_gateway_route_policy_stands_when_it_does_not_merge_or_owns_the_field() {
    // Without mergeType the route's policy replaces the Gateway's there.
    let w = merged_world(&merged_with_gateway_policy(RATE_LIMIT));
    assert_eq!(status(&w, "gateway-errors"), PolicyStatus::Invalid);
    assert_ne!(status(&w, "shop-limits"), PolicyStatus::Invalid);
    // Merged, but with a response override of its own: the parent's is not looked up.
    let own = "  mergeType: JSONMerge\n  responseOverride:\n  - match: {statusCodes: [{type: Value, value: 500}]}\n    response: {body: {type: Inline, inline: oops}}\n";
    let w = merged_world(&merged_with_gateway_policy(own));
    assert_ne!(status(&w, "shop-limits"), PolicyStatus::Invalid);
}

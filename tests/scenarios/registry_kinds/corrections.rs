//! The rules issue 28 corrected, and the same-target rules it added, each on a fixture
//! of its own, as the vendor documents them.

use super::{pol, s, statuses, Kind, ROUTES};
use crate::common::*;
use kubectl_policies::catalog::{Catalog, Class};
use kubectl_policies::effective::PolicyStatus::{
    Conflicted, Enforced, Overridden, PartiallyEnforced,
};
use serde_json::json;

const KG: &str = "gateway.kgateway.dev/v1alpha1";

fn route_node(w: &kubectl_policies::query::World) -> kubectl_policies::topology::NodeId {
    node(w, "HTTPRoute", Some("app"), "coffee", None)
}

#[test]
fn kgateway_traffic_policies_on_one_target_merge_by_field_the_oldest_first() {
    let old = pol(
        Kind {
            api: KG,
            kind: "TrafficPolicy",
        },
        "old",
        "Gateway/gw",
        Some(1),
        "  timeouts: {request: 10s}\n  retry: {attempts: 1}",
    );
    let new = pol(
        Kind {
            api: KG,
            kind: "TrafficPolicy",
        },
        "new",
        "Gateway/gw",
        Some(2),
        "  timeouts: {request: 5s}\n  cors: {allowOrigins: [a.example]}",
    );
    let w = world(&[ROUTES, &old, &new].concat());
    let eff = effective(
        &w,
        &gk("gateway.kgateway.dev", "TrafficPolicy"),
        route_node(&w),
    );
    assert_eq!(
        eff[0].1,
        json!({"timeouts": {"request": "10s"}, "retry": {"attempts": 1}, "cors": {"allowOrigins": ["a.example"]}})
    );
    assert_eq!(
        statuses(&w),
        [s("app/new", PartiallyEnforced), s("app/old", Enforced)]
    );
}

#[test]
fn kgateway_policy_weight_orders_traffic_policies_before_age() {
    let old = pol(
        Kind {
            api: KG,
            kind: "TrafficPolicy",
        },
        "old",
        "Gateway/gw",
        Some(1),
        "  timeouts: {request: 10s}",
    );
    let heavy = pol(
        Kind {
            api: KG,
            kind: "TrafficPolicy",
        },
        "heavy",
        "Gateway/gw",
        Some(2),
        "  timeouts: {request: 5s}",
    )
    .replace(
        "namespace: app,",
        "namespace: app, annotations: {kgateway.dev/policy-weight: \"10\"},",
    );
    let w = world(&[ROUTES, &old, &heavy].concat());
    let eff = effective(
        &w,
        &gk("gateway.kgateway.dev", "TrafficPolicy"),
        route_node(&w),
    );
    assert_eq!(eff[0].1, json!({"timeouts": {"request": "5s"}}));
    assert_eq!(
        statuses(&w),
        [
            s("app/heavy", Enforced),
            s(
                "app/old",
                kubectl_policies::effective::PolicyStatus::Overridden
            )
        ]
    );
}

#[test]
fn kgateway_backend_config_policies_merge_by_top_level_field_the_oldest_wins() {
    let old = pol(
        Kind {
            api: KG,
            kind: "BackendConfigPolicy",
        },
        "old",
        "Service/coffee",
        Some(1),
        "  connectTimeout: 5s\n  tcpKeepalive: {keepAliveTime: 10s}",
    );
    let new = pol(
        Kind {
            api: KG,
            kind: "BackendConfigPolicy",
        },
        "new",
        "Service/coffee",
        Some(2),
        "  connectTimeout: 1s\n  perConnectionBufferLimitBytes: 1024",
    );
    let w = world(&[ROUTES, &old, &new].concat());
    let svc = node(&w, "Service", Some("app"), "coffee", None);
    let eff = effective(&w, &gk("gateway.kgateway.dev", "BackendConfigPolicy"), svc);
    assert_eq!(
        eff[0].1,
        json!({"connectTimeout": "5s", "tcpKeepalive": {"keepAliveTime": "10s"}, "perConnectionBufferLimitBytes": 1024})
    );
    // Neither is Conflicted: they merge.
    assert_eq!(
        statuses(&w),
        [s("app/new", PartiallyEnforced), s("app/old", Enforced)]
    );
}

#[test]
fn kgateway_http_listener_policies_merge_setting_by_setting() {
    let old = pol(
        Kind {
            api: KG,
            kind: "HTTPListenerPolicy",
        },
        "old",
        "Gateway/gw",
        Some(1),
        "  useRemoteAddress: true",
    );
    let new = pol(
        Kind {
            api: KG,
            kind: "HTTPListenerPolicy",
        },
        "new",
        "Gateway/gw",
        Some(2),
        "  xffNumTrustedHops: 2",
    );
    let w = world(&[ROUTES, &old, &new].concat());
    // kgateway merges them as ListenerPolicies' HTTP settings: each sets its own.
    assert_eq!(
        statuses(&w),
        [s("app/new", Enforced), s("app/old", Enforced)]
    );
    // Both set the same setting: the oldest keeps it, the newer is Overridden.
    let newer = pol(
        Kind {
            api: KG,
            kind: "HTTPListenerPolicy",
        },
        "new",
        "Gateway/gw",
        Some(2),
        "  useRemoteAddress: false",
    );
    let w = world(&[ROUTES, &old, &newer].concat());
    assert_eq!(
        statuses(&w),
        [s("app/new", Overridden), s("app/old", Enforced)]
    );
}

#[test]
fn istio_telemetry_the_most_specific_wins_per_telemetry_type() {
    // A namespace-wide Telemetry (no selector, no targetRef) and one on the Gateway:
    // the Gateway's tracing replaces the namespace's, the namespace's metrics stay.
    let ns_wide = "---\napiVersion: telemetry.istio.io/v1\nkind: Telemetry\nmetadata: {name: mesh, namespace: app, creationTimestamp: \"2026-01-01T00:00:00Z\"}\nspec:\n  tracing: [{randomSamplingPercentage: 1}]\n  metrics: [{providers: [{name: prometheus}]}]\n";
    let on_gw = pol(
        Kind {
            api: "telemetry.istio.io/v1",
            kind: "Telemetry",
        },
        "gw",
        "Gateway/gw",
        Some(2),
        "  tracing: [{randomSamplingPercentage: 100}]",
    );
    let w = world(&[ROUTES, ns_wide, &on_gw].concat());
    let gw = node(&w, "Gateway", Some("app"), "gw", None);
    let eff = effective(&w, &gk("telemetry.istio.io", "Telemetry"), gw);
    assert_eq!(
        eff[0].1,
        json!({"tracing": [{"randomSamplingPercentage": 100}], "metrics": [{"providers": [{"name": "prometheus"}]}]})
    );
    // Two on one workload: only one is used (the oldest), the other is ignored.
    let again = pol(
        Kind {
            api: "telemetry.istio.io/v1",
            kind: "Telemetry",
        },
        "gw2",
        "Gateway/gw",
        Some(3),
        "  accessLogging: [{disabled: true}]",
    );
    let w = world(&[ROUTES, &on_gw, &again].concat());
    assert_eq!(
        statuses(&w),
        [s("app/gw", Enforced), s("app/gw2", Conflicted)]
    );
}

#[test]
fn registry_data_corrected_from_the_survey() {
    let c = Catalog::build(&[], &[]);
    let k = |g: &str, kind: &str| c.get(&gk(g, kind)).unwrap();
    // Kuadrant's TelemetryPolicy accepts only Gateways (CEL self.kind == 'Gateway').
    assert_eq!(
        k("extensions.kuadrant.io", "TelemetryPolicy")
            .entry
            .target_kinds,
        ["Gateway"]
    );
    // kgateway's BackendConfigPolicy also targets Istio Hostnames.
    assert!(k("gateway.kgateway.dev", "BackendConfigPolicy")
        .entry
        .target_kinds
        .contains(&"Hostname"));
    // XBackendTrafficPolicy: Service or ServiceImport.
    assert_eq!(
        k("gateway.networking.x-k8s.io", "XBackendTrafficPolicy")
            .entry
            .target_kinds,
        ["Service", "ServiceImport"]
    );
    // GCPGatewayPolicy lives in its Gateway's namespace: read per namespace.
    let reading = c.kinds_for_reading();
    let namespaced = |g: &str, kind: &str| {
        reading
            .iter()
            .find(|(gk_, _)| *gk_ == gk(g, kind))
            .map(|(_, n)| *n)
            .unwrap()
    };
    assert!(namespaced("networking.gke.io", "GCPGatewayPolicy"));
    assert!(!namespaced("networking.gke.io", "GCPBackendPolicy"));
    // Istio's kinds reach a GatewayClass (from the root namespace): never per namespace.
    assert!(!namespaced("telemetry.istio.io", "Telemetry"));
    assert_eq!(
        k("telemetry.istio.io", "Telemetry").entry.class,
        Class::Inherited
    );
}

#[test]
fn envoy_patch_policies_all_apply_none_overridden() {
    let eg = "gateway.envoyproxy.io/v1alpha1";
    let a = pol(
        Kind {
            api: eg,
            kind: "EnvoyPatchPolicy",
        },
        "a",
        "Gateway/gw",
        Some(1),
        "  priority: 5\n  type: JSONPatch",
    )
    .replace("targetRefs: [", "targetRef: ")
    .replace("}]\n", "}\n");
    let b = pol(
        Kind {
            api: eg,
            kind: "EnvoyPatchPolicy",
        },
        "b",
        "Gateway/gw",
        Some(2),
        "  priority: -1\n  type: JSONPatch",
    )
    .replace("targetRefs: [", "targetRef: ")
    .replace("}]\n", "}\n");
    let w = world(&[ROUTES, &a, &b].concat());
    assert_eq!(statuses(&w), [s("app/a", Enforced), s("app/b", Enforced)]);
}

#[test]
fn aws_access_logs_one_per_destination_type() {
    let aws = "application-networking.k8s.aws/v1alpha1";
    let log = |name: &str, day: u8, arn: &str| {
        pol(
            Kind {
                api: aws,
                kind: "AccessLogPolicy",
            },
            name,
            "Gateway/gw",
            Some(day),
            &format!("  destinationArn: {arn}"),
        )
        .replace("targetRefs: [", "targetRef: ")
        .replace("}]\n", "}\n")
    };
    let s3 = log("s3", 1, "arn:aws:s3:::bucket");
    let cw = log("cw", 2, "arn:aws:logs:us-west-2:123:log-group:g");
    let s3b = log("s3-again", 3, "arn:aws:s3:::other");
    let w = world(&[ROUTES, &s3, &cw, &s3b].concat());
    assert_eq!(
        statuses(&w),
        [
            s("app/cw", Enforced),
            s("app/s3", Enforced),
            s("app/s3-again", Conflicted)
        ]
    );
}

#[test]
fn apisix_route_policies_stack_until_their_priorities_differ() {
    let ax = "apisix.apache.org/v1alpha1";
    let p = |name: &str, day: u8, prio: u8| {
        pol(
            Kind {
                api: ax,
                kind: "HTTPRoutePolicy",
            },
            name,
            "HTTPRoute/coffee",
            Some(day),
            &format!("  priority: {prio}"),
        )
    };
    let w = world(&[ROUTES, &p("a", 1, 10), &p("b", 2, 10)].concat());
    assert_eq!(statuses(&w), [s("app/a", Enforced), s("app/b", Enforced)]);
    let w = world(&[ROUTES, &p("a", 1, 10), &p("b", 2, 20)].concat());
    assert_eq!(
        statuses(&w),
        [s("app/a", Conflicted), s("app/b", Conflicted)]
    );
}

#[test]
fn envoy_ai_backend_security_policies_several_on_one_backend_all_conflict() {
    // A Service stands for the backend: the rule is about the count, not the kind.
    let ai = "aigateway.envoyproxy.io/v1beta1";
    let one = pol(
        Kind {
            api: ai,
            kind: "BackendSecurityPolicy",
        },
        "one",
        "Service/coffee",
        Some(1),
        "  type: APIKey",
    );
    let two = pol(
        Kind {
            api: ai,
            kind: "BackendSecurityPolicy",
        },
        "two",
        "Service/coffee",
        Some(2),
        "  type: APIKey",
    );
    let w = world(&[ROUTES, &one].concat());
    assert_eq!(statuses(&w), [s("app/one", Enforced)]);
    let w = world(&[ROUTES, &one, &two].concat());
    assert_eq!(
        statuses(&w),
        [s("app/one", Conflicted), s("app/two", Conflicted)]
    );
}

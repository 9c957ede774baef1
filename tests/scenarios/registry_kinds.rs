//! One case per merge model the built-in registry knows, as each project documents it.

mod corrections;
mod gke_selectors;
mod policies_page;
mod ports;
mod shapes;
mod survey;
mod target_kinds;

use crate::common::*;
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

/// A policy's kind: its `apiVersion` and `kind`, which always travel together.
#[derive(Clone, Copy)]
struct Kind<'a> {
    api: &'a str,
    kind: &'a str,
}

fn on(kind: Kind<'_>, name: &str, target_kind: &str, target: &str, spec: &str) -> String {
    let Kind { api, kind } = kind;
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
        Kind {
            api: eg,
            kind: "BackendTrafficPolicy",
        },
        "gw-btp",
        "Gateway",
        "gw",
        "  timeout: {http: {requestTimeout: 10s}}\n  retry: {numRetries: 1}",
    );
    let merged = on(
        Kind {
            api: eg,
            kind: "BackendTrafficPolicy",
        },
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
        Kind {
            api: eg,
            kind: "BackendTrafficPolicy",
        },
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
        Kind {
            api: k,
            kind: "RateLimitPolicy",
        },
        "route-rlp",
        "HTTPRoute",
        "route",
        "  limits: {global: {rates: [{limit: 5, window: 10s}]}}",
    );
    let gw_defaults = on(Kind { api: k, kind: "RateLimitPolicy" }, "gw-rlp", "Gateway", "gw",
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
        Kind {
            api: kg,
            kind: "TrafficPolicy",
        },
        "gw-tp",
        "Gateway",
        "gw",
        "  timeouts: {request: 10s, idle: 30s}\n  retry: {attempts: 1}",
    );
    let route_pol = on(
        Kind {
            api: kg,
            kind: "TrafficPolicy",
        },
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
        Kind {
            api: ngf,
            kind: "ClientSettingsPolicy",
        },
        "gw-csp",
        "Gateway",
        "gw",
        "  body: {maxSize: 1m, timeout: 30s}",
    );
    let route = on(
        Kind {
            api: ngf,
            kind: "ClientSettingsPolicy",
        },
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
        .topology
        .findings()
        .iter()
        .any(|f| f.code == kubectl_policies::topology::Code::SelectorBound));
}

// ------------------------------------------------ vendors' own rules (issue #14)

/// (namespace/name → status) of every policy in a world.
fn statuses(w: &kubectl_policies::query::World) -> Vec<(String, PolicyStatus)> {
    let mut out: Vec<(String, PolicyStatus)> = w
        .topology
        .policies()
        .iter()
        .enumerate()
        .map(|(p, pol)| (pol.obj_ref.ns_name(), w.statuses().overall[p]))
        .collect();
    out.sort();
    out
}

fn s(name: &str, status: PolicyStatus) -> (String, PolicyStatus) {
    (name.to_string(), status)
}

const ROUTES: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec: {gatewayClassName: gc, listeners: [{name: http, port: 80, protocol: HTTP}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: coffee, namespace: app}
spec: {parentRefs: [{name: gw}], rules: [{name: main, backendRefs: [{name: coffee, port: 80}]}]}
---
apiVersion: v1
kind: Service
metadata: {name: coffee, namespace: app}
spec: {ports: [{name: http, port: 80}]}
"#;

/// A policy on one target, created at `day` of January 2026 (None: no timestamp).
fn pol(kind: Kind<'_>, name: &str, target: &str, day: Option<u8>, spec: &str) -> String {
    let Kind { api, kind } = kind;
    let (tgroup, tkind, tname) = match target.split_once('/') {
        Some(("Service", n)) => ("core", "Service", n),
        Some((k, n)) => ("gateway.networking.k8s.io", k, n),
        None => panic!("target as Kind/name"),
    };
    let ts = day
        .map(|d| format!(", creationTimestamp: \"2026-01-{d:02}T00:00:00Z\""))
        .unwrap_or_default();
    format!(
        "---\napiVersion: {api}\nkind: {kind}\nmetadata: {{name: {name}, namespace: app{ts}}}\nspec:\n  targetRefs: [{{group: {tgroup}, kind: {tkind}, name: {tname}}}]\n{spec}\n"
    )
}

#[test]
fn nginx_policies_on_one_target_merge_unless_they_set_the_same_field() {
    // NGF markConflictedPolicies: oldest first (then name); a later policy that sets a
    // field an accepted one sets is Conflicted whole; the others merge field by field.
    let ngf = "gateway.nginx.org/v1alpha1";
    let csp = "ClientSettingsPolicy";
    let yaml = [
        ROUTES,
        &pol(
            Kind {
                api: ngf,
                kind: csp,
            },
            "size",
            "HTTPRoute/coffee",
            Some(1),
            "  body: {maxSize: 10m}",
        ),
        &pol(
            Kind {
                api: ngf,
                kind: csp,
            },
            "keepalive",
            "HTTPRoute/coffee",
            Some(2),
            "  keepAlive: {requests: 5}",
        ),
        &pol(
            Kind {
                api: ngf,
                kind: csp,
            },
            "size-again",
            "HTTPRoute/coffee",
            Some(3),
            "  body: {maxSize: 1m, timeout: 5s}",
        ),
        // No timestamps: name order decides, `a-...` before `z-...`.
        &pol(
            Kind {
                api: ngf,
                kind: "UpstreamSettingsPolicy",
            },
            "z-zone",
            "Service/coffee",
            None,
            "  zoneSize: 1m",
        ),
        &pol(
            Kind {
                api: ngf,
                kind: "UpstreamSettingsPolicy",
            },
            "a-zone",
            "Service/coffee",
            None,
            "  zoneSize: 2m\n  keepAlive: {connections: 3}",
        ),
        &pol(
            Kind {
                api: ngf,
                kind: "UpstreamSettingsPolicy",
            },
            "m-lb",
            "Service/coffee",
            None,
            "  loadBalancingMethod: random",
        ),
    ]
    .concat();
    let w = world(&yaml);
    use PolicyStatus::*;
    assert_eq!(
        statuses(&w),
        [
            s("app/a-zone", Enforced),
            s("app/keepalive", Enforced),
            s("app/m-lb", Enforced),
            s("app/size", Enforced),
            s("app/size-again", Conflicted),
            s("app/z-zone", Conflicted),
        ]
    );
    let route = node(&w, "HTTPRoute", Some("app"), "coffee", None);
    assert_eq!(
        effective(&w, &gk("gateway.nginx.org", csp), route)[0].1,
        json!({"body": {"maxSize": "10m"}, "keepAlive": {"requests": 5}})
    );
    let svc = node(&w, "Service", Some("app"), "coffee", None);
    assert_eq!(
        effective(&w, &gk("gateway.nginx.org", "UpstreamSettingsPolicy"), svc)[0].1,
        json!({"zoneSize": "2m", "keepAlive": {"connections": 3}, "loadBalancingMethod": "random"})
    );
    assert!(
        w.topology.findings().is_empty()
            || w.topology
                .findings()
                .iter()
                .all(|f| f.code != kubectl_policies::topology::Code::Invalid)
    );
}

#[test]
fn nginx_snippets_never_conflict_and_kinds_not_named_policy_are_known() {
    let ngf = "gateway.nginx.org/v1alpha1";
    let yaml = [
        ROUTES,
        &pol(Kind { api: ngf, kind: "SnippetsPolicy" }, "first", "Gateway/gw", Some(1), "  snippets: [{context: http, value: a}]"),
        &pol(Kind { api: ngf, kind: "SnippetsPolicy" }, "second", "Gateway/gw", Some(2), "  snippets: [{context: http, value: b}]"),
        &pol(Kind { api: ngf, kind: "ExternalLoadBalancer" }, "elb-old", "Gateway/gw", Some(1), "  addresses: [a]"),
        &pol(Kind { api: ngf, kind: "ExternalLoadBalancer" }, "elb-new", "Gateway/gw", Some(2), "  addresses: [b]"),
        "---\napiVersion: gateway.nginx.org/v1alpha1\nkind: PayloadProcessor\nmetadata: {name: guard, namespace: app}\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: coffee}\n  processors: [x]\n",
    ]
    .concat();
    let w = world(&yaml);
    use PolicyStatus::*;
    assert_eq!(
        statuses(&w),
        [
            s("app/elb-new", Conflicted),
            s("app/elb-old", Enforced),
            s("app/first", Enforced),
            s("app/guard", Enforced),
            s("app/second", Enforced),
        ]
    );
}

#[test]
fn envoy_gateway_several_on_one_target_the_oldest_applies() {
    let eg = "gateway.envoyproxy.io/v1alpha1";
    let yaml = [
        ROUTES,
        &pol(
            Kind {
                api: eg,
                kind: "BackendTrafficPolicy",
            },
            "newer",
            "HTTPRoute/coffee",
            Some(2),
            "  retry: {numRetries: 2}",
        ),
        &pol(
            Kind {
                api: eg,
                kind: "BackendTrafficPolicy",
            },
            "older",
            "HTTPRoute/coffee",
            Some(1),
            "  retry: {numRetries: 1}",
        ),
    ]
    .concat();
    let w = world(&yaml);
    use PolicyStatus::*;
    assert_eq!(
        statuses(&w),
        [s("app/newer", Conflicted), s("app/older", Enforced)]
    );
}

#[test]
fn envoy_gateway_target_selectors_honour_namespaces_and_reference_grants() {
    let yaml = r#"
apiVersion: v1
kind: Namespace
metadata: {name: shop, labels: {team: shop}}
---
apiVersion: v1
kind: Namespace
metadata: {name: bank, labels: {team: bank}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r1, namespace: shop}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r2, namespace: bank}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: own, namespace: ops}
---
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: let-ops-in, namespace: shop}
spec:
  from: [{group: gateway.envoyproxy.io, kind: BackendTrafficPolicy, namespace: ops}]
  to: [{group: gateway.networking.k8s.io, kind: HTTPRoute}]
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: every-route-here, namespace: ops}
spec:
  targetSelectors: [{group: gateway.networking.k8s.io, kind: HTTPRoute}]
  retry: {numRetries: 1}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: shop-granted, namespace: ops}
spec:
  targetSelectors: [{kind: HTTPRoute, namespaces: {from: Selector, selector: {matchLabels: {team: shop}}}}]
  retry: {numRetries: 2}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: bank-denied, namespace: ops}
spec:
  targetSelectors: [{kind: HTTPRoute, namespaces: {from: Selector, selector: {matchLabels: {team: bank}}}}]
  retry: {numRetries: 3}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: all-granted, namespace: ops}
spec:
  targetSelectors: [{kind: HTTPRoute, namespaces: {from: All}}]
  timeout: {http: {requestTimeout: 1s}}
"#;
    let w = world(yaml);
    let targets = |name: &str| -> Vec<String> {
        let p = w
            .topology
            .policies()
            .iter()
            .position(|p| p.obj_ref.name == name)
            .unwrap();
        w.topology
            .targets_of(kubectl_policies::topology::PolicyId(p as u32))
            .iter()
            .map(|r| r.target.ns_name())
            .collect()
    };
    // An empty selector: every HTTPRoute of the policy's namespace.
    assert_eq!(targets("every-route-here"), ["ops/own"]);
    assert_eq!(targets("shop-granted"), ["shop/r1"]);
    assert_eq!(targets("bank-denied"), Vec::<String>::new());
    // All: its own namespace and those a ReferenceGrant opens.
    assert_eq!(targets("all-granted"), ["shop/r1", "ops/own"]);
    use PolicyStatus::*;
    assert_eq!(
        w.statuses().overall[w
            .topology
            .policies()
            .iter()
            .position(|p| p.obj_ref.name == "bank-denied")
            .unwrap()],
        TargetNotFound
    );
    let refused: Vec<&str> = w
        .topology
        .findings()
        .iter()
        .filter(|f| f.code == kubectl_policies::topology::Code::RefNotPermitted)
        .map(|f| f.object.name.as_str())
        .collect();
    assert_eq!(refused, ["bank-denied", "all-granted"]);
}

#[test]
fn backend_ports_outside_kubernetes_are_sections() {
    // Envoy Gateway Backend: the endpoints' port numbers; Istio ServiceEntry: named ports.
    let yaml = r#"
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: idp, namespace: app}
spec: {endpoints: [{fqdn: {hostname: idp.example.com, port: 443}}]}
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: external, namespace: app}
spec: {hosts: [x.example.com], ports: [{number: 443, name: https, protocol: TLS}, {number: 80, name: http}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: idp-tls, namespace: app}
spec:
  targetRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: idp, sectionName: "443"}]
  validation: {hostname: idp.example.com, wellKnownCACertificates: System}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: external-whole, namespace: app, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  targetRefs: [{group: networking.istio.io, kind: ServiceEntry, name: external}]
  validation: {hostname: a.example.com, wellKnownCACertificates: System}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: external-https, namespace: app, creationTimestamp: "2026-01-02T00:00:00Z"}
spec:
  targetRefs: [{group: networking.istio.io, kind: ServiceEntry, name: external, sectionName: https}]
  validation: {hostname: b.example.com, wellKnownCACertificates: System}
"#;
    let w = world(yaml);
    use PolicyStatus::*;
    assert_eq!(
        statuses(&w),
        [
            s("app/external-https", Enforced),
            s("app/external-whole", PartiallyEnforced),
            // Its port found, as a section, but no route's backendRef names it, so
            // Envoy Gateway applies the policy to no traffic there (SectionNotReached).
            s("app/idp-tls", TargetNotFound),
        ]
    );
    let idp: Vec<_> = w
        .topology
        .findings()
        .iter()
        .filter(|f| f.object.name == "idp-tls")
        .map(|f| f.code)
        .collect();
    assert_eq!(
        idp,
        [kubectl_policies::topology::Code::SectionNotReached],
        "found as a section, never SectionNotFound"
    );
}

#[test]
fn istio_workload_policies_without_selector_are_namespace_wide() {
    let yaml = r#"
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: deny-all, namespace: shop}
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: allow-nothing, namespace: shop}
spec: {}
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: by-label, namespace: shop}
spec: {selector: {matchLabels: {app: web}}}
---
apiVersion: telemetry.istio.io/v1
kind: Telemetry
metadata: {name: both, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: missing}]
"#;
    let w = world(yaml);
    use PolicyStatus::*;
    assert_eq!(
        statuses(&w),
        [
            s("shop/allow-nothing", Enforced),
            s("shop/both", TargetNotFound),
            s("shop/by-label", SelectorBound),
            s("shop/deny-all", Enforced),
        ]
    );
    let ns = w
        .topology
        .lookup(&kubectl_policies::model::ObjRef::new(
            "",
            "Namespace",
            None,
            "shop",
        ))
        .expect("a Namespace node for the namespace-wide policies");
    assert_eq!(w.topology.attached_to(ns).len(), 2);
}

#[test]
fn direct_policies_on_one_namespace_conflict_like_any_direct_policy() {
    let yaml = format!(
        "{DIRECT_TIMEOUT_CRD}---\napiVersion: v1\nkind: Namespace\nmetadata: {{name: shop}}\n{}{}",
        ns_timeout("old", "2026-01-01T00:00:00Z"),
        ns_timeout("new", "2026-02-01T00:00:00Z"),
    );
    let w = world(&yaml);
    use PolicyStatus::*;
    assert_eq!(
        statuses(&w),
        [s("shop/new", Conflicted), s("shop/old", Enforced)]
    );
}

const DIRECT_TIMEOUT_CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: timeoutpolicies.example.io
  labels: {gateway.networking.k8s.io/policy: Direct}
spec: {group: example.io, scope: Namespaced, names: {kind: TimeoutPolicy, plural: timeoutpolicies}}
"#;

fn ns_timeout(name: &str, ts: &str) -> String {
    format!("---\napiVersion: example.io/v1\nkind: TimeoutPolicy\nmetadata: {{name: {name}, namespace: shop, creationTimestamp: \"{ts}\"}}\nspec:\n  targetRef: {{group: \"\", kind: Namespace, name: shop}}\n  timeout: 1s\n")
}

#[test]
fn route_options_merge_by_option_the_rules_extension_ref_first() {
    // Gloo/kgateway golden test route_options/merge: two RouteOptions on the route
    // (oldest, then name, wins each option) and two named by the rule's ExtensionRef
    // filters (above the route's).
    let yaml = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: example, namespace: app}
spec:
  rules:
  - backendRefs: [{name: httpbin, port: 8000}]
    filters:
    - {type: ExtensionRef, extensionRef: {group: gateway.solo.io, kind: RouteOption, name: extref1}}
    - {type: ExtensionRef, extensionRef: {group: gateway.solo.io, kind: RouteOption, name: extref2}}
---
apiVersion: v1
kind: Service
metadata: {name: httpbin, namespace: app}
spec: {ports: [{name: http, port: 8000}]}
---
apiVersion: gateway.solo.io/v1
kind: RouteOption
metadata: {name: extref1, namespace: app}
spec: {options: {headerManipulation: {add: extref}}}
---
apiVersion: gateway.solo.io/v1
kind: RouteOption
metadata: {name: extref2, namespace: app}
spec: {options: {appendXForwardedHost: true}}
---
apiVersion: gateway.solo.io/v1
kind: RouteOption
metadata: {name: target-1, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: example}]
  options: {headerManipulation: {add: target-1}, prefixRewrite: /rewrite}
---
apiVersion: gateway.solo.io/v1
kind: RouteOption
metadata: {name: target-2, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: example}]
  options: {headerManipulation: {add: target-2}, hostRewrite: foo.com}
---
apiVersion: gateway.solo.io/v1
kind: RouteOption
metadata: {name: unused, namespace: app}
spec: {options: {hostRewrite: bar.com}}
"#;
    let w = world(yaml);
    use PolicyStatus::*;
    assert_eq!(
        statuses(&w),
        [
            s("app/extref1", Enforced),
            s("app/extref2", Enforced),
            s("app/target-1", PartiallyEnforced),
            s("app/target-2", PartiallyEnforced),
            s("app/unused", TargetNotFound),
        ]
    );
    let rule = node(&w, "HTTPRoute", Some("app"), "example", Some("rule-1"));
    assert_eq!(
        effective(&w, &gk("gateway.solo.io", "RouteOption"), rule)[0].1,
        json!({"options": {
            "headerManipulation": {"add": "extref"},
            "prefixRewrite": "/rewrite",
            "hostRewrite": "foo.com",
            "appendXForwardedHost": true
        }})
    );
}

#[test]
fn a_delegating_route_passes_its_policies_to_its_child_routes() {
    let yaml = r#"
apiVersion: v1
kind: Namespace
metadata: {name: infra}
---
apiVersion: v1
kind: Namespace
metadata: {name: a}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: parent, namespace: infra}
spec:
  rules:
  - backendRefs: [{name: infra-svc, port: 80}]
  - backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: "*", namespace: a}]
---
apiVersion: v1
kind: Service
metadata: {name: infra-svc, namespace: infra}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: child, namespace: a}
spec: {rules: [{backendRefs: [{name: svc-a, port: 8080}]}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: other-parent-only, namespace: a}
spec:
  parentRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: someone-else, namespace: infra}]
---
apiVersion: v1
kind: Service
metadata: {name: svc-a, namespace: a}
---
apiVersion: gateway.solo.io/v1
kind: RouteOption
metadata: {name: faults, namespace: infra}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: parent}]
  options: {faults: {abort: {httpStatus: 418}}}
"#;
    let w = world(yaml);
    let p = w
        .topology
        .policies()
        .iter()
        .position(|p| p.obj_ref.name == "faults")
        .map(kubectl_policies::topology::PolicyId::at)
        .unwrap();
    // Route options are route config: the routes, not the Services behind them.
    assert_eq!(w.statuses().affects_count(p), 2, "parent and child");
    let child = node(&w, "HTTPRoute", Some("a"), "child", None);
    assert_eq!(
        effective(&w, &gk("gateway.solo.io", "RouteOption"), child)[0].1,
        json!({"options": {"faults": {"abort": {"httpStatus": 418}}}})
    );
    let refuser = node(&w, "HTTPRoute", Some("a"), "other-parent-only", None);
    assert!(
        w.topology.node(refuser).parents.is_empty(),
        "it accepts another parent only"
    );
}

#[test]
fn the_controllers_behaviour_decides_the_class_over_a_labelled_crd() {
    // kgateway's TrafficPolicy merges down the hierarchy (registry: inherited), but
    // its CRD is labelled Direct: the behaviour decides, with or without the CRD in the
    // input, and `describe` says the label differs (issue 28).
    let policy = pol(
        Kind {
            api: "gateway.kgateway.dev/v1alpha1",
            kind: "TrafficPolicy",
        },
        "gw-policy",
        "Gateway/gw",
        Some(1),
        "  timeout: 5s",
    );
    let crd = "---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: trafficpolicies.gateway.kgateway.dev\n  labels: {gateway.networking.k8s.io/policy: Direct}\nspec: {group: gateway.kgateway.dev, scope: Namespaced, names: {kind: TrafficPolicy, plural: trafficpolicies}}\n";
    let class = |yaml: &str| {
        let w = world(yaml);
        let p = w
            .topology
            .policies()
            .iter()
            .position(|p| p.obj_ref.name == "gw-policy")
            .map(kubectl_policies::topology::PolicyId::at)
            .unwrap();
        let d = kubectl_policies::query::describe_policy(&w, p);
        (
            w.topology.policy(p).class,
            w.statuses().affects_count(p),
            d.class_origin,
            d.label_class,
        )
    };
    use kubectl_policies::catalog::Class;
    assert_eq!(
        // The Gateway and its route; not the Service (a TrafficPolicy sets route
        // filters, not clusters).
        class(&[ROUTES, &policy].concat()),
        (Class::Inherited, 2, "registry", Some(Class::Direct))
    );
    assert_eq!(
        class(&[ROUTES, &policy, crd].concat()),
        (Class::Inherited, 2, "registry", Some(Class::Direct))
    );
    // A label that agrees is the class's source, and nothing differs.
    let agreeing = crd.replace("policy: Direct", "policy: inherited");
    assert_eq!(
        class(&[ROUTES, &policy, &agreeing].concat()),
        (Class::Inherited, 2, "label", None)
    );
}

#[test]
fn a_listener_set_attaches_only_where_its_gateway_allows_listener_sets() {
    let yaml = |allowed: &str| {
        format!(
            "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {{name: gw, namespace: app}}\nspec: {{gatewayClassName: gc{allowed}, listeners: [{{name: http, port: 80, protocol: HTTP}}]}}\n---\napiVersion: gateway.networking.k8s.io/v1\nkind: ListenerSet\nmetadata: {{name: extra, namespace: app}}\nspec: {{parentRef: {{name: gw}}, listeners: [{{name: more, port: 81, protocol: HTTP}}]}}\n"
        )
    };
    let parents = |yaml: &str| {
        let w = world(yaml);
        let ls = node(&w, "ListenerSet", Some("app"), "extra", None);
        let codes: Vec<_> = w
            .topology
            .findings()
            .iter()
            .map(|f| f.code)
            .filter(|&c| c == kubectl_policies::topology::Code::NotAdmitted)
            .collect();
        (w.topology.node(ls).parents.len(), codes)
    };
    use kubectl_policies::topology::Code::NotAdmitted;
    assert_eq!(parents(&yaml("")), (0, vec![NotAdmitted]), "unset: None");
    assert_eq!(
        parents(&yaml(", allowedListeners: {namespaces: {from: Same}}")),
        (1, vec![])
    );
}

#[test]
fn a_backend_tls_policy_naming_a_ca_of_no_resolvable_kind_is_refused() {
    let yaml = [
        ROUTES,
        "---\napiVersion: gateway.networking.k8s.io/v1\nkind: BackendTLSPolicy\nmetadata: {name: bad-ca, namespace: app}\nspec:\n  targetRefs: [{group: \"\", kind: Service, name: coffee}]\n  validation: {hostname: x, caCertificateRefs: [{group: invalid.io, kind: InvalidKind, name: ca}]}\n",
        "---\napiVersion: gateway.networking.k8s.io/v1\nkind: BackendTLSPolicy\nmetadata: {name: good-ca, namespace: app}\nspec:\n  targetRefs: [{group: \"\", kind: Service, name: coffee, sectionName: http}]\n  validation: {hostname: x, caCertificateRefs: [{group: \"\", kind: ConfigMap, name: ca}]}\n",
    ]
    .concat();
    let w = world(&yaml);
    use PolicyStatus::*;
    assert_eq!(
        statuses(&w),
        [s("app/bad-ca", Invalid), s("app/good-ca", Enforced)]
    );
}

#[test]
fn virtual_host_options_on_one_gateway_merge_by_option_the_oldest_first() {
    let solo = "gateway.solo.io/v1";
    let yaml = [
        ROUTES,
        &pol(
            Kind {
                api: solo,
                kind: "VirtualHostOption",
            },
            "older",
            "Gateway/gw",
            Some(1),
            "  options: {cors: {allowOrigin: [a]}, retries: {numRetries: 1}}",
        ),
        &pol(
            Kind {
                api: solo,
                kind: "VirtualHostOption",
            },
            "newer",
            "Gateway/gw",
            Some(2),
            "  options: {retries: {numRetries: 5}, headerManipulation: {add: z}}",
        ),
    ]
    .concat();
    let w = world(&yaml);
    use PolicyStatus::*;
    assert_eq!(
        statuses(&w),
        [s("app/newer", PartiallyEnforced), s("app/older", Enforced)]
    );
    let gw = node(&w, "Gateway", Some("app"), "gw", None);
    assert_eq!(
        effective(&w, &gk("gateway.solo.io", "VirtualHostOption"), gw)[0].1,
        json!({"options": {"cors": {"allowOrigin": ["a"]}, "retries": {"numRetries": 1}, "headerManipulation": {"add": "z"}}})
    );
}

#[test]
fn ten_thousand_merging_rate_limit_policies_on_one_gateway_fold_once() {
    // Kuadrant RateLimitPolicies whose `strategy: merge` stanzas all merge on one
    // Gateway: each keeps its own limit; of the limit they all set, defaults keep the
    // newest's (the most specific), overrides the oldest's. Folded one by one, 800 of
    // them took minutes (issue 27); the bound is twenty times what it takes.
    let started = std::time::Instant::now();
    let n = 10_000;
    for (stanza, keeper, partial) in [
        ("defaults", "p-09999", "p-00000"),
        ("overrides", "p-00000", "p-09999"),
    ] {
        let mut yaml = String::from(
            "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: gw, namespace: one}\nspec:\n  gatewayClassName: gc\n  listeners: [{name: http, port: 80, protocol: HTTP}]\n",
        );
        for i in 0..n {
            yaml.push_str(&format!(
                "---\napiVersion: kuadrant.io/v1\nkind: RateLimitPolicy\nmetadata: {{name: p-{i:05}, namespace: one, creationTimestamp: \"2025-01-01T{:02}:{:02}:{:02}Z\"}}\nspec:\n  targetRef: {{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}\n  {stanza}:\n    strategy: merge\n    limits:\n      own-{i:05}: {{rates: [{{limit: {i}, window: 1m}}]}}\n      shared: {{rates: [{{limit: {i}, window: 1s}}]}}\n",
                i / 3600,
                i / 60 % 60,
                i % 60
            ));
        }
        let w = kubectl_policies::analyze_yaml(&yaml).unwrap();
        let gw = node(&w, "Gateway", Some("one"), "gw", None);
        let eff = effective(&w, &gk("kuadrant.io", "RateLimitPolicy"), gw);
        assert_eq!(eff.len(), 1);
        let limits = eff[0].1["limits"].as_object().unwrap();
        assert_eq!(limits.len(), n + 1, "{stanza}");
        let kept: usize = keeper[2..].parse().unwrap();
        assert_eq!(limits["shared"]["rates"][0]["limit"], kept, "{stanza}");
        assert_eq!(status(&w, keeper), PolicyStatus::Enforced, "{stanza}");
        assert_eq!(
            status(&w, partial),
            PolicyStatus::PartiallyEnforced,
            "{stanza}"
        );
        assert_eq!(
            status(&w, "p-05000"),
            PolicyStatus::PartiallyEnforced,
            "{stanza}"
        );
    }
    let elapsed = started.elapsed();
    assert!(
        elapsed < std::time::Duration::from_secs(40),
        "took {elapsed:?}"
    );
}

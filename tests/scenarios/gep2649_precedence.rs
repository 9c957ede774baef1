//! GEP-2649's precedence tables (Namespace → Gateway → HTTPRoute, a RetryOnPolicy),
//! sectionName precedence (GEP-2648), the timestamp tie and the older
//! `default:`/`override:` shape.

use crate::common::*;
use serde_json::{json, Value};

const BASE: &str = r#"
apiVersion: v1
kind: Namespace
metadata: {name: appns}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: appns}
spec:
  gatewayClassName: gc
  listeners: [{name: http, port: 80, protocol: HTTP}, {name: https, port: 443, protocol: HTTPS}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: route, namespace: appns}
spec:
  parentRefs: [{name: gw, sectionName: http}]
  rules: [{name: orders}, {name: other}]
"#;

#[derive(Clone, Copy, Debug)]
enum Level {
    Namespace,
    Gateway,
    Route,
}

fn retry_on(name: &str, level: Level, mode: &str, ts: &str) -> String {
    let target = match level {
        Level::Namespace => "{group: \"\", kind: Namespace, name: appns}",
        Level::Gateway => "{group: gateway.networking.k8s.io, kind: Gateway, name: gw}",
        Level::Route => "{group: gateway.networking.k8s.io, kind: HTTPRoute, name: route}",
    };
    format!(
        "---\napiVersion: networking.example.io/v1alpha1\nkind: RetryOnPolicy\nmetadata: {{name: {name}, namespace: appns, creationTimestamp: \"{ts}\"}}\nspec:\n  targetRef: {target}\n  {mode}: {{retryOn: [\"{name}\"]}}\n"
    )
}

/// Whose retryOn the route ends up with (None: no policy).
fn winner(policies: &[String]) -> Option<String> {
    let yaml = [BASE.to_string()]
        .into_iter()
        .chain(policies.iter().cloned())
        .collect::<String>();
    let w = world(&yaml);
    let route = node(&w, "HTTPRoute", Some("appns"), "route", None);
    let eff = effective(&w, &gk("networking.example.io", "RetryOnPolicy"), route);
    let values: Vec<&Value> = eff.iter().map(|(_, v)| v).collect();
    assert!(values.len() <= 1, "one context expected: {eff:?}");
    values
        .first()
        .map(|v| v["retryOn"][0].as_str().unwrap_or_default().to_string())
}

const T1: &str = "2026-01-01T00:00:00Z";
const T2: &str = "2026-02-01T00:00:00Z";

#[test]
fn overrides_interacting_with_defaults() {
    use Level::*;
    // Rows: a default at a level; columns: an override at a level. Every override wins.
    for d in [Namespace, Gateway, Route] {
        for o in [Namespace, Gateway, Route] {
            for (dts, ots) in [(T1, T2), (T2, T1)] {
                let got = winner(&[
                    retry_on("default", d, "defaults", dts),
                    retry_on("override", o, "overrides", ots),
                ]);
                assert_eq!(
                    got.as_deref(),
                    Some("override"),
                    "default at {d:?}, override at {o:?}"
                );
            }
        }
        assert_eq!(
            winner(&[retry_on("default", d, "defaults", T1)]).as_deref(),
            Some("default")
        );
    }
    assert_eq!(
        winner(&[]),
        None,
        "no policy: the route keeps its own (empty) value"
    );
}

#[test]
fn overrides_interacting_with_other_overrides() {
    use Level::*;
    let table = [
        // (A's level, B's level, winner): the higher override wins.
        (Namespace, Gateway, "a"),
        (Namespace, Route, "a"),
        (Gateway, Namespace, "b"),
        (Gateway, Route, "a"),
        (Route, Namespace, "b"),
        (Route, Gateway, "b"),
    ];
    for (a, b, want) in table {
        let got = winner(&[
            retry_on("a", a, "overrides", T2),
            retry_on("b", b, "overrides", T1),
        ]);
        assert_eq!(
            got.as_deref(),
            Some(want),
            "override A at {a:?}, B at {b:?}"
        );
    }
    // Same level: first created wins, otherwise first alphabetically.
    for l in [Namespace, Gateway, Route] {
        assert_eq!(
            winner(&[
                retry_on("a", l, "overrides", T2),
                retry_on("b", l, "overrides", T1)
            ])
            .as_deref(),
            Some("b")
        );
        assert_eq!(
            winner(&[
                retry_on("a", l, "overrides", T1),
                retry_on("b", l, "overrides", T1)
            ])
            .as_deref(),
            Some("a")
        );
    }
}

#[test]
fn defaults_interacting_with_other_defaults() {
    use Level::*;
    let table = [
        // The lower (more specific) default wins.
        (Namespace, Gateway, "b"),
        (Namespace, Route, "b"),
        (Gateway, Namespace, "a"),
        (Gateway, Route, "b"),
        (Route, Namespace, "a"),
        (Route, Gateway, "a"),
    ];
    for (a, b, want) in table {
        let got = winner(&[
            retry_on("a", a, "defaults", T1),
            retry_on("b", b, "defaults", T2),
        ]);
        assert_eq!(got.as_deref(), Some(want), "default A at {a:?}, B at {b:?}");
    }
    // Same level: GEP-2649's table says "first created wins", but the current GEP-713
    // (authoritative) makes the older one established and, under Atomic Defaults, the
    // challenger (the newer) wins. The tool follows GEP-713.
    for l in [Namespace, Gateway, Route] {
        assert_eq!(
            winner(&[
                retry_on("a", l, "defaults", T1),
                retry_on("b", l, "defaults", T2)
            ])
            .as_deref(),
            Some("b")
        );
    }
}

#[test]
fn timestamp_tie_goes_to_namespace_name_order() {
    // Same level, same timestamp: `appns/alpha` is established; with overrides it wins.
    let got = winner(&[
        retry_on("zulu", Level::Gateway, "overrides", T1),
        retry_on("alpha", Level::Gateway, "overrides", T1),
    ]);
    assert_eq!(got.as_deref(), Some("alpha"));
}

/// A policy of any kind in `appns`, created at `ts`, targeting `target` ("gw", "route"
/// or the Service) or its `section`, with `spec` appended under `spec:`.
struct KindPolicy<'a> {
    kind: &'a str,
    group: &'a str,
    name: &'a str,
    target: &'a str,
    section: Option<&'a str>,
    ts: &'a str,
    spec: &'a str,
}

fn kind_policy(p: KindPolicy<'_>) -> String {
    let KindPolicy {
        kind,
        group,
        name,
        target,
        section,
        ts,
        spec,
    } = p;
    let (tkind, tgroup) = match target {
        "gw" => ("Gateway", "gateway.networking.k8s.io"),
        "route" => ("HTTPRoute", "gateway.networking.k8s.io"),
        _ => ("Service", "\"\""),
    };
    let section = section
        .map(|s| format!(", sectionName: {s}"))
        .unwrap_or_default();
    format!(
        "---\napiVersion: {group}/v1\nkind: {kind}\nmetadata: {{name: {name}, namespace: appns, creationTimestamp: \"{ts}\"}}\nspec:\n  targetRefs: [{{group: {tgroup}, kind: {tkind}, name: {target}{section}}}]\n{spec}\n"
    )
}

#[test]
fn listener_section_beats_the_gateway() {
    // Envoy Gateway ClientTrafficPolicy: the listener-scoped policy applies to its
    // listener; the Gateway-wide one to the other listener.
    let yaml = [
        BASE,
        &kind_policy(KindPolicy {
            kind: "ClientTrafficPolicy",
            group: "gateway.envoyproxy.io",
            name: "whole",
            target: "gw",
            section: None,
            ts: T1,
            spec: "  timeout: {idle: 10s}",
        }),
        &kind_policy(KindPolicy {
            kind: "ClientTrafficPolicy",
            group: "gateway.envoyproxy.io",
            name: "tls-only",
            target: "gw",
            section: Some("https"),
            ts: T2,
            spec: "  timeout: {idle: 60s}",
        }),
    ]
    .concat();
    let w = world(&yaml);
    let kind = gk("gateway.envoyproxy.io", "ClientTrafficPolicy");
    let https = node(&w, "Gateway", Some("appns"), "gw", Some("https"));
    let http = node(&w, "Gateway", Some("appns"), "gw", Some("http"));
    assert_eq!(
        effective(&w, &kind, https)[0].1,
        json!({"timeout": {"idle": "60s"}})
    );
    assert_eq!(
        effective(&w, &kind, http)[0].1,
        json!({"timeout": {"idle": "10s"}})
    );
    assert_eq!(
        status(&w, "whole"),
        kubectl_policies::effective::PolicyStatus::PartiallyEnforced
    );
    assert_eq!(
        status(&w, "tls-only"),
        kubectl_policies::effective::PolicyStatus::Enforced
    );
}

#[test]
fn rule_section_beats_the_route() {
    let yaml = [
        BASE,
        &retry_on("route-wide", Level::Route, "defaults", T1),
        "---\napiVersion: networking.example.io/v1alpha1\nkind: RetryOnPolicy\nmetadata: {name: orders-only, namespace: appns}\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: route, sectionName: orders}\n  retryOn: [\"502\"]\n",
    ]
    .concat();
    let w = world(&yaml);
    let kind = gk("networking.example.io", "RetryOnPolicy");
    let orders = node(&w, "HTTPRoute", Some("appns"), "route", Some("orders"));
    let other = node(&w, "HTTPRoute", Some("appns"), "route", Some("other"));
    assert_eq!(
        effective(&w, &kind, orders)[0].1,
        json!({"retryOn": ["502"]})
    );
    assert_eq!(
        effective(&w, &kind, other)[0].1,
        json!({"retryOn": ["route-wide"]})
    );
}

#[test]
fn direct_policy_on_a_port_beats_the_one_on_the_service() {
    // GEP-2648: the policy with a sectionName has its spec applied to that port; the
    // other one applies to every other port.
    let svc = "---\napiVersion: v1\nkind: Service\nmetadata: {name: svc, namespace: appns}\nspec: {ports: [{name: http, port: 80}, {name: https, port: 443}]}\n";
    let yaml = [
        BASE,
        svc,
        &kind_policy(KindPolicy {
            kind: "BackendTLSPolicy",
            group: "gateway.networking.k8s.io",
            name: "whole",
            target: "svc",
            section: None,
            ts: T1,
            spec: "  validation: {hostname: a}",
        }),
        &kind_policy(KindPolicy {
            kind: "BackendTLSPolicy",
            group: "gateway.networking.k8s.io",
            name: "port",
            target: "svc",
            section: Some("https"),
            ts: T2,
            spec: "  validation: {hostname: b}",
        }),
    ]
    .concat();
    let w = world(&yaml);
    let kind = gk("gateway.networking.k8s.io", "BackendTLSPolicy");
    let https = node(&w, "Service", Some("appns"), "svc", Some("https"));
    let http = node(&w, "Service", Some("appns"), "svc", Some("http"));
    assert_eq!(
        effective(&w, &kind, https)[0].1,
        json!({"validation": {"hostname": "b"}})
    );
    assert_eq!(
        effective(&w, &kind, http)[0].1,
        json!({"validation": {"hostname": "a"}})
    );
    assert_eq!(
        status(&w, "port"),
        kubectl_policies::effective::PolicyStatus::Enforced
    );
    assert_eq!(
        status(&w, "whole"),
        kubectl_policies::effective::PolicyStatus::PartiallyEnforced
    );
}

#[test]
fn older_default_and_override_stanzas_merge_per_field() {
    // GEP-2649's CDNCachingPolicy example: the Gateway's override keeps cdn enabled,
    // the route's default changes includeQueryString, the rest defaults from the Gateway.
    let yaml = [
        BASE,
        r#"---
apiVersion: networking.example.io/v1alpha1
kind: CDNCachingPolicy
metadata: {name: gateway-cdn, namespace: appns}
spec:
  override:
    cdn: {enabled: true}
  default:
    cdn:
      cachePolicy: {includeHost: true, includeProtocol: true, includeQueryString: true}
  targetRef: {kind: Gateway, name: gw}
---
apiVersion: networking.example.io/v1alpha1
kind: CDNCachingPolicy
metadata: {name: route-cdn, namespace: appns}
spec:
  default:
    cdn:
      enabled: false
      cachePolicy: {includeQueryString: false}
  targetRef: {kind: HTTPRoute, name: route}
"#,
    ]
    .concat();
    let w = world(&yaml);
    let kind = gk("networking.example.io", "CDNCachingPolicy");
    let route = node(&w, "HTTPRoute", Some("appns"), "route", None);
    assert_eq!(
        effective(&w, &kind, route)[0].1,
        json!({"cdn": {"enabled": true, "cachePolicy": {"includeHost": true, "includeProtocol": true, "includeQueryString": false}}})
    );
    assert_eq!(
        sources(&w, &kind, route),
        vec![
            ("/cdn/cachePolicy/includeHost".into(), "gateway-cdn".into()),
            (
                "/cdn/cachePolicy/includeProtocol".into(),
                "gateway-cdn".into()
            ),
            (
                "/cdn/cachePolicy/includeQueryString".into(),
                "route-cdn".into()
            ),
            ("/cdn/enabled".into(), "gateway-cdn".into()),
        ]
    );
}

#[test]
fn namespace_level_applies_once_at_its_highest_position() {
    // Gateway and route share appns: a namespace default sits above the Gateway only,
    // so a Gateway default still beats it for the route (GEP-2649's table).
    let got = winner(&[
        retry_on("ns", Level::Namespace, "defaults", T2),
        retry_on("gwd", Level::Gateway, "defaults", T1),
    ]);
    assert_eq!(got.as_deref(), Some("gwd"));
}

#[test]
fn an_override_holds_against_everything_below_it_at_three_levels() {
    // Gateway override, route default, rule default. Read literally, GEP-713's stack
    // process hands the rule's default the last word once the route's default sits
    // between them; GEP-2649's order (which this tool follows) keeps the override.
    let yaml = [
        BASE,
        &retry_on("gw-override", Level::Gateway, "overrides", T1),
        &retry_on("route-default", Level::Route, "defaults", T1),
        "---\napiVersion: networking.example.io/v1alpha1\nkind: RetryOnPolicy\nmetadata: {name: rule-default, namespace: appns, creationTimestamp: \"2026-01-01T00:00:00Z\"}\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: route, sectionName: orders}\n  defaults: {retryOn: [\"rule-default\"]}\n",
    ]
    .concat();
    let w = world(&yaml);
    let kind = gk("networking.example.io", "RetryOnPolicy");
    for rule in ["orders", "other"] {
        let n = node(&w, "HTTPRoute", Some("appns"), "route", Some(rule));
        assert_eq!(
            effective(&w, &kind, n)[0].1,
            json!({"retryOn": ["gw-override"]}),
            "rule {rule}"
        );
    }
    use kubectl_policies::effective::PolicyStatus::*;
    assert_eq!(status(&w, "gw-override"), Enforced);
    assert_eq!(status(&w, "route-default"), Overridden);
    assert_eq!(status(&w, "rule-default"), Overridden);
}

#[test]
fn a_parent_default_stanza_and_a_child_override_stanza_make_their_union() {
    // GEP-2649's shape with one stanza each: neither side's missing stanza says
    // anything, so nothing is wiped.
    let yaml = [
        BASE,
        r#"---
apiVersion: networking.example.io/v1alpha1
kind: TimeoutPolicy
metadata: {name: gw-timeouts, namespace: appns}
spec:
  targetRef: {kind: Gateway, name: gw}
  default: {idle: 10s}
---
apiVersion: networking.example.io/v1alpha1
kind: TimeoutPolicy
metadata: {name: route-timeouts, namespace: appns}
spec:
  targetRef: {kind: HTTPRoute, name: route}
  override: {request: 5s}
"#,
    ]
    .concat();
    let w = world(&yaml);
    let kind = gk("networking.example.io", "TimeoutPolicy");
    let route = node(&w, "HTTPRoute", Some("appns"), "route", None);
    assert_eq!(
        effective(&w, &kind, route)[0].1,
        json!({"idle": "10s", "request": "5s"})
    );
    use kubectl_policies::effective::PolicyStatus::*;
    assert_eq!(status(&w, "gw-timeouts"), Enforced);
    assert_eq!(status(&w, "route-timeouts"), Enforced);
}

#[test]
fn an_empty_defaults_stanza_never_wipes_the_rules_of_another_policy() {
    // `defaults: {}` (and one holding only its strategy) states no intent: under patch
    // and under keyed merge, above or below, the other policy's rules stay whole.
    for (strategy, kind, group) in [
        ("patch", "RetryOnPolicy", "networking.example.io"),
        ("merge", "RateLimitPolicy", "kuadrant.io"),
        ("atomic", "RateLimitPolicy", "kuadrant.io"),
    ] {
        for (empty_at, rules_at) in [("Gateway", "HTTPRoute"), ("HTTPRoute", "Gateway")] {
            let (en, rn) = (
                if empty_at == "Gateway" { "gw" } else { "route" },
                if rules_at == "Gateway" { "gw" } else { "route" },
            );
            let yaml = format!(
                "{BASE}---\napiVersion: {group}/v1\nkind: {kind}\nmetadata: {{name: empty, namespace: appns}}\nspec:\n  targetRef: {{group: gateway.networking.k8s.io, kind: {empty_at}, name: {en}}}\n  defaults: {{strategy: {strategy}}}\n---\napiVersion: {group}/v1\nkind: {kind}\nmetadata: {{name: rules, namespace: appns}}\nspec:\n  targetRef: {{group: gateway.networking.k8s.io, kind: {rules_at}, name: {rn}}}\n  defaults:\n    strategy: {strategy}\n    limits: {{global: {{rates: [{{limit: 5, window: 10s}}]}}}}\n"
            );
            let w = world(&yaml);
            let route = node(&w, "HTTPRoute", Some("appns"), "route", None);
            let case = format!("{strategy}: empty on {empty_at}, rules on {rules_at}");
            assert_eq!(
                effective(&w, &gk(group, kind), route)[0].1,
                json!({"limits": {"global": {"rates": [{"limit": 5, "window": "10s"}]}}}),
                "{case}"
            );
            use kubectl_policies::effective::PolicyStatus::*;
            assert_eq!(status(&w, "rules"), Enforced, "{case}");
            assert_eq!(status(&w, "empty"), Enforced, "{case}: nothing to enforce");
        }
    }
}

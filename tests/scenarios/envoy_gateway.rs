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

const TCP: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec:
  gatewayClassName: eg
  listeners:
  - {name: tcp, port: 9000, protocol: TCP}
  - {name: http, port: 80, protocol: HTTP}
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: t, namespace: app}
spec: {parentRefs: [{name: gw, sectionName: tcp}], rules: [{name: main}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: h, namespace: app}
spec: {parentRefs: [{name: gw, sectionName: http}], rules: [{name: main}]}
"#;

fn security_policy(name: &str, kind: &str, target: &str, spec: &str) -> String {
    format!("---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: SecurityPolicy\nmetadata: {{name: {name}, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: {kind}, name: {target}}}]\n{spec}\n")
}

#[test]
fn security_policy_on_a_tcp_route_supports_only_authorization() {
    let jwt = "  jwt: {providers: [{name: p, remoteJWKS: {uri: \"https://example/jwks\"}}]}";
    let authz = "  authorization: {defaultAction: Deny}";
    let yaml = [
        TCP,
        &security_policy("jwt-tcp", "TCPRoute", "t", jwt),
        &security_policy(
            "cors-tcp",
            "TCPRoute",
            "t",
            "  cors: {allowOrigins: [\"*\"]}",
        ),
        &security_policy("authz-tcp", "TCPRoute", "t", authz),
        &security_policy("jwt-http", "HTTPRoute", "h", jwt),
    ]
    .concat();
    let w = world(&yaml);
    assert_eq!(status(&w, "jwt-tcp"), PolicyStatus::Invalid);
    assert_eq!(status(&w, "cors-tcp"), PolicyStatus::Invalid);
    assert_eq!(status(&w, "authz-tcp"), PolicyStatus::Enforced);
    assert_eq!(status(&w, "jwt-http"), PolicyStatus::Enforced);
    let why: Vec<&str> = w
        .topology
        .findings()
        .iter()
        .filter(|f| f.object.name == "jwt-tcp")
        .map(|f| f.message.as_str())
        .collect();
    assert_eq!(
        why,
        [
            "spec.jwt: is set and the policy targets TCPRoute app/t: its controller accepts no \
          jwt on a TCPRoute: the policy is refused on that TCPRoute and stands on its other \
          targets"
        ]
    );
}

/// A SecurityPolicy naming `targets` (kind/name), with `spec`.
fn security_policy_on(name: &str, targets: &[(&str, &str)], spec: &str) -> String {
    let refs: Vec<String> = targets
        .iter()
        .map(|(kind, target)| {
            format!("{{group: gateway.networking.k8s.io, kind: {kind}, name: {target}}}")
        })
        .collect();
    format!("---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: SecurityPolicy\nmetadata: {{name: {name}, namespace: app}}\nspec:\n  targetRefs: [{}]\n{spec}\n", refs.join(", "))
}

#[test]
fn an_http_only_setting_refuses_a_security_policy_on_its_tcp_route_alone() {
    // Envoy Gateway validates a SecurityPolicy per target (processSecurityPolicyForRoute):
    // on the TCPRoute, jwt fails validateSecurityPolicyForTCP and that target is
    // skipped; the HTTPRoute is translated.
    let jwt = "  jwt: {providers: [{name: p, remoteJWKS: {uri: \"https://example/jwks\"}}]}";
    let both = security_policy_on("both", &[("HTTPRoute", "h"), ("TCPRoute", "t")], jwt);
    let w = world(&[TCP, &both].concat());
    let policy = w
        .topology
        .policy(kubectl_policies::topology::PolicyId::at(0));
    assert_eq!(policy.rejected, None, "not refused whole");
    // Its settings apply on the HTTPRoute, not on the TCPRoute.
    let sp = gk("gateway.envoyproxy.io", "SecurityPolicy");
    let h = node(&w, "HTTPRoute", Some("app"), "h", None);
    let t = node(&w, "TCPRoute", Some("app"), "t", None);
    assert_eq!(
        effective(&w, &sp, h)[0].1,
        json!({"jwt": {"providers": [{"name": "p", "remoteJWKS": {"uri": "https://example/jwks"}}]}})
    );
    assert!(effective(&w, &sp, t).iter().all(|(_, s)| *s == json!({})));
    // The TCPRoute is an Invalid target; the policy holds elsewhere: PartiallyEnforced.
    let targets: Vec<(String, Option<kubectl_policies::topology::Code>)> = w
        .topology
        .targets_of(kubectl_policies::topology::PolicyId::at(0))
        .iter()
        .map(|r| {
            let code = match r.resolution {
                kubectl_policies::topology::Resolution::NotFound(code) => Some(code),
                _ => None,
            };
            (r.target.name.to_string(), code)
        })
        .collect();
    assert_eq!(
        targets,
        [
            ("h".to_string(), None),
            (
                "t".to_string(),
                Some(kubectl_policies::topology::Code::Invalid)
            )
        ]
    );
    assert_eq!(status(&w, "both"), PolicyStatus::PartiallyEnforced);
    let findings: Vec<String> = w
        .topology
        .findings()
        .iter()
        .filter(|f| f.object.name == "both")
        .map(|f| format!("{:?}: {}", f.code, f.message))
        .collect();
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert!(
        findings[0].starts_with("Invalid: spec.jwt: ")
            && findings[0].contains("TCPRoute app/t")
            && findings[0].contains("stands on its other targets"),
        "{findings:?}"
    );
    // Authorization alone is accepted on both: Enforced.
    let authz = security_policy_on(
        "both",
        &[("HTTPRoute", "h"), ("TCPRoute", "t")],
        "  authorization: {defaultAction: Deny}",
    );
    assert_eq!(
        status(&world(&[TCP, &authz].concat()), "both"),
        PolicyStatus::Enforced
    );
    // Refused on its only target: Invalid.
    let tcp_only = security_policy_on("tcp", &[("TCPRoute", "t")], jwt);
    assert_eq!(
        status(&world(&[TCP, &tcp_only].concat()), "tcp"),
        PolicyStatus::Invalid
    );
}

#[test]
fn a_backend_tls_policy_may_name_a_cluster_trust_bundle() {
    let policy = |name: &str, group: &str, kind: &str| {
        format!("---\napiVersion: gateway.networking.k8s.io/v1\nkind: BackendTLSPolicy\nmetadata: {{name: {name}, namespace: app}}\nspec:\n  targetRefs: [{{group: \"\", kind: Service, name: svc}}]\n  validation:\n    hostname: svc.example\n    caCertificateRefs: [{{group: {group}, kind: {kind}, name: ca}}]\n")
    };
    let yaml = [
        "apiVersion: v1\nkind: Service\nmetadata: {name: svc, namespace: app}\nspec: {ports: [{name: https, port: 443}]}\n",
        &policy("bundle", "certificates.k8s.io", "ClusterTrustBundle"),
        &policy("deployment", "apps", "Deployment"),
    ]
    .concat();
    let w = world(&yaml);
    assert_eq!(status(&w, "bundle"), PolicyStatus::Enforced);
    // Envoy Gateway reads the kind alone: its own translator tests name the bundle
    // with the core group, and it is accepted.
    let core_group = yaml.replace("group: certificates.k8s.io", "group: \"\"");
    assert!(core_group.contains("group: \"\", kind: ClusterTrustBundle"));
    assert_eq!(
        status(&world(&core_group), "bundle"),
        PolicyStatus::Enforced
    );
    assert_eq!(status(&w, "deployment"), PolicyStatus::Invalid);
    // The refusal names the field, the object and why.
    let why = w
        .topology
        .policies()
        .iter()
        .find(|p| p.obj_ref.name == "deployment")
        .and_then(|p| p.rejected.clone())
        .unwrap_or_default();
    assert_eq!(
        why,
        "/spec/validation/caCertificateRefs/0: names deployment.apps/app/ca, a kind the field \
         may not name (InvalidKind) (none of its entries resolves); its controller refuses the \
         policy"
    );
}

#[test]
fn a_rule_level_policy_with_merge_type_merges_into_the_gateway_policy_passing_the_route_one_over() {
    let btp = |name: &str, day: u32, target: &str, spec: &str| {
        format!("---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: BackendTrafficPolicy\nmetadata: {{name: {name}, namespace: app, creationTimestamp: \"2026-01-0{day}T00:00:00Z\"}}\nspec:\n  targetRefs: [{target}]\n{spec}\n")
    };
    let route = "{group: gateway.networking.k8s.io, kind: HTTPRoute, name: a}";
    let rule = "{group: gateway.networking.k8s.io, kind: HTTPRoute, name: a, sectionName: main}";
    let yaml = [
        TWO_ROUTES.replace(
            "name: a, namespace: app}\nspec: {parentRefs: [{name: gw}], rules: [{name: main}]}",
            "name: a, namespace: app}\nspec: {parentRefs: [{name: gw}], rules: [{name: main}, {name: other}]}",
        ),
        btp("route", 2, route, "  retry: {numRetries: 3}"),
        btp(
            "rule",
            3,
            rule,
            "  mergeType: StrategicMerge\n  circuitBreaker: {maxConnections: 10}",
        ),
    ]
    .concat();
    let w = world(&yaml);
    let kind = gk("gateway.envoyproxy.io", "BackendTrafficPolicy");
    let main = node(&w, "HTTPRoute", Some("app"), "a", Some("main"));
    let other = node(&w, "HTTPRoute", Some("app"), "a", Some("other"));
    assert_eq!(
        effective(&w, &kind, main)[0].1,
        json!({"timeout": {"http": {"requestTimeout": "5s"}}, "circuitBreaker": {"maxConnections": 10}})
    );
    assert_eq!(
        effective(&w, &kind, other)[0].1,
        json!({"retry": {"numRetries": 3}})
    );
    // The route's policy loses on rule main, applies on rule other.
    assert_eq!(status(&w, "route"), PolicyStatus::PartiallyEnforced);
    assert_eq!(status(&w, "rule"), PolicyStatus::Enforced);
}

#[test]
fn an_empty_client_traffic_policy_on_a_listener_replaces_the_gateway_one_there() {
    let ctp = |name: &str, day: u32, section: &str, spec: &str| {
        format!("---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: ClientTrafficPolicy\nmetadata: {{name: {name}, namespace: app, creationTimestamp: \"2026-01-0{day}T00:00:00Z\"}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw{section}}}]\n{spec}\n")
    };
    let yaml = [
        TCP,
        &ctp("gateway", 1, "", "  timeout: {http: {idleTimeout: 5s}}"),
        &ctp("listener", 2, ", sectionName: http", ""),
    ]
    .concat();
    let w = world(&yaml);
    let kind = gk("gateway.envoyproxy.io", "ClientTrafficPolicy");
    let http = node(&w, "Gateway", Some("app"), "gw", Some("http"));
    let tcp = node(&w, "Gateway", Some("app"), "gw", Some("tcp"));
    assert!(effective(&w, &kind, http)
        .iter()
        .all(|(_, s)| *s == json!({})));
    assert_eq!(
        effective(&w, &kind, tcp)[0].1,
        json!({"timeout": {"http": {"idleTimeout": "5s"}}})
    );
    assert_eq!(status(&w, "gateway"), PolicyStatus::PartiallyEnforced);
}

#[test]
fn a_client_traffic_policy_on_a_listener_sharing_its_http_port_is_refused() {
    let yaml = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec:
  gatewayClassName: eg
  allowedListeners: {namespaces: {from: Same}}
  listeners:
  - {name: a, port: 80, protocol: HTTP, hostname: a.example}
  - {name: secure, port: 443, protocol: HTTPS, hostname: a.example}
  - {name: also-secure, port: 443, protocol: HTTPS, hostname: b.example}
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: ls, namespace: app}
spec:
  parentRef: {name: gw, kind: Gateway, group: gateway.networking.k8s.io}
  listeners:
  - {name: b, port: 80, protocol: HTTP, hostname: b.example}
  - {name: c, port: 8080, protocol: HTTP, hostname: c.example}
"#;
    let ctp = |name: &str, kind: &str, target: &str, section: &str| {
        format!("---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: ClientTrafficPolicy\nmetadata: {{name: {name}, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: {kind}, name: {target}, sectionName: {section}}}]\n  timeout: {{http: {{idleTimeout: 5s}}}}\n")
    };
    let yaml = [
        yaml,
        &ctp("on-a", "Gateway", "gw", "a"),
        &ctp("on-b", "ListenerSet", "ls", "b"),
        &ctp("on-c", "ListenerSet", "ls", "c"),
        &ctp("on-secure", "Gateway", "gw", "secure"),
    ]
    .concat();
    let w = world(&yaml);
    // a (Gateway) and b (its ListenerSet) are one Envoy listener on port 80.
    assert_eq!(status(&w, "on-a"), PolicyStatus::Invalid);
    assert_eq!(status(&w, "on-b"), PolicyStatus::Invalid);
    // c has its port alone; HTTPS listeners are told apart by their TLS.
    assert_eq!(status(&w, "on-c"), PolicyStatus::Enforced);
    assert_eq!(status(&w, "on-secure"), PolicyStatus::Enforced);
    let why = w
        .topology
        .policies()
        .iter()
        .find(|p| p.obj_ref.name == "on-a")
        .and_then(|p| p.rejected.clone())
        .unwrap_or_default();
    assert!(why.contains("listener b of ListenerSet app/ls"), "{why}");
}

/// A BackendTrafficPolicy named `name`, made on day `day` of 2026, aimed at `target`
/// (a targetRefs entry), with `spec` (indented lines, or nothing).
fn btp(name: &str, day: u32, target: &str, spec: &str) -> String {
    format!("---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: BackendTrafficPolicy\nmetadata: {{name: {name}, namespace: app, creationTimestamp: \"2026-01-0{day}T00:00:00Z\"}}\nspec:\n  targetRefs: [{target}]\n{spec}\n")
}

const GATEWAY: &str = "{group: gateway.networking.k8s.io, kind: Gateway, name: gw}";
const ROUTE_A: &str = "{group: gateway.networking.k8s.io, kind: HTTPRoute, name: a}";
const ROUTE_B: &str = "{group: gateway.networking.k8s.io, kind: HTTPRoute, name: b}";

/// Per object policy `name` reaches: `name[#section]`, its status there, and what of
/// it loses there as `pointer<policy`, as `describe` says.
fn affects(
    w: &kubectl_policies::query::World,
    name: &str,
) -> Vec<(String, PolicyStatus, Vec<String>)> {
    let t = &w.topology;
    let p = kubectl_policies::topology::PolicyId::all(t.policies().len())
        .find(|&p| t.policy(p).obj_ref.name == name)
        .unwrap();
    kubectl_policies::query::describe_policy(w, p)
        .affects
        .iter()
        .map(|a| {
            let at = match &a.target.section {
                Some(s) => format!("{}#{s}", a.target.name),
                None => a.target.name.to_string(),
            };
            let lost = a
                .overridden
                .iter()
                .map(|o| format!("{}<{}", o.path, o.by.name))
                .collect();
            (at, a.status, lost)
        })
        .collect()
}

/// Two routes on one Gateway, a Gateway-level policy that sets nothing, and the
/// policies `more` more specific than it.
fn empty_gateway_policy(more: &[String]) -> String {
    let only_routes = TWO_ROUTES
        .split("---\napiVersion: gateway.envoyproxy.io")
        .next()
        .unwrap_or_default();
    let mut yaml = [only_routes, &btp("gateway", 1, GATEWAY, "")].concat();
    for m in more {
        yaml.push_str(m);
    }
    yaml
}

#[test]
fn an_empty_gateway_policy_replaced_on_one_route_is_overridden_there() {
    let yaml = empty_gateway_policy(&[btp("route", 2, ROUTE_A, "  retry: {numRetries: 3}")]);
    let w = world(&yaml);
    // It sets nothing, so nothing of it is lost; but route a has a policy of its own,
    // which replaces it whole there (Envoy Gateway: Overridden for route a).
    assert_eq!(status(&w, "gateway"), PolicyStatus::PartiallyEnforced);
    assert_eq!(status(&w, "route"), PolicyStatus::Enforced);
    let whole = vec!["<route".to_string()];
    assert_eq!(
        affects(&w, "gateway"),
        vec![
            ("gw".into(), PolicyStatus::Enforced, vec![]),
            ("gw#http".into(), PolicyStatus::Enforced, vec![]),
            ("a".into(), PolicyStatus::Overridden, whole.clone()),
            ("a#main".into(), PolicyStatus::Overridden, whole),
            ("b".into(), PolicyStatus::Enforced, vec![]),
            ("b#main".into(), PolicyStatus::Enforced, vec![]),
        ]
    );
    assert_incremental_matches_full(&w);
}

#[test]
fn an_empty_gateway_policy_replaced_on_every_route_is_overridden() {
    // Even by policies that set nothing either.
    let yaml = empty_gateway_policy(&[
        btp("route-a", 2, ROUTE_A, ""),
        btp("route-b", 3, ROUTE_B, ""),
    ]);
    let w = world(&yaml);
    assert_eq!(status(&w, "gateway"), PolicyStatus::Overridden);
    assert_eq!(status(&w, "route-a"), PolicyStatus::Enforced);
    assert_eq!(status(&w, "route-b"), PolicyStatus::Enforced);
    let lost: Vec<_> = affects(&w, "gateway")
        .into_iter()
        .filter(|(at, ..)| at.starts_with("b"))
        .collect();
    let whole = vec!["<route-b".to_string()];
    assert_eq!(
        lost,
        vec![
            ("b".into(), PolicyStatus::Overridden, whole.clone()),
            ("b#main".into(), PolicyStatus::Overridden, whole),
        ]
    );
    assert_incremental_matches_full(&w);
}

#[test]
fn an_empty_gateway_policy_merged_into_by_a_route_policy_is_not_overridden() {
    let merging = "  mergeType: StrategicMerge\n  retry: {numRetries: 3}";
    let yaml = empty_gateway_policy(&[
        btp("route-a", 2, ROUTE_A, merging),
        btp("route-b", 3, ROUTE_B, merging),
    ]);
    let w = world(&yaml);
    assert_eq!(status(&w, "gateway"), PolicyStatus::Enforced);
    assert!(affects(&w, "gateway")
        .iter()
        .all(|(_, s, lost)| *s == PolicyStatus::Enforced && lost.is_empty()));
    assert_incremental_matches_full(&w);
}

#[test]
fn an_empty_rule_policy_without_merge_type_replaces_a_merging_route_policy_and_the_gateway_one() {
    let rule = "{group: gateway.networking.k8s.io, kind: HTTPRoute, name: a, sectionName: main}";
    let yaml = [
        TWO_ROUTES,
        &btp(
            "route",
            2,
            ROUTE_A,
            "  mergeType: StrategicMerge\n  retry: {numRetries: 3}",
        ),
        &btp("rule", 3, rule, ""),
    ]
    .concat();
    let w = world(&yaml);
    let kind = gk("gateway.envoyproxy.io", "BackendTrafficPolicy");
    let main = node(&w, "HTTPRoute", Some("app"), "a", Some("main"));
    // The rule's own policy is its traffic settings: what is above it is passed over,
    // whether it would merge or not.
    assert_eq!(effective(&w, &kind, main)[0].1, json!({}));
    assert_eq!(status(&w, "route"), PolicyStatus::Overridden);
    assert_eq!(status(&w, "gateway"), PolicyStatus::PartiallyEnforced);
    assert_incremental_matches_full(&w);
}

/// A ClientTrafficPolicy named `name`, made on day `day`, aimed at Gateway gw (at its
/// listener `section` when one is given).
fn ctp(name: &str, day: u32, section: Option<&str>, spec: &str) -> String {
    let section = section
        .map(|s| format!(", sectionName: {s}"))
        .unwrap_or_default();
    format!("---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: ClientTrafficPolicy\nmetadata: {{name: {name}, namespace: app, creationTimestamp: \"2026-01-0{day}T00:00:00Z\"}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw{section}}}]\n{spec}\n")
}

#[test]
fn an_empty_client_traffic_policy_replaced_on_a_listener_is_overridden_there() {
    let one = [
        TCP,
        &ctp("gateway", 1, None, ""),
        &ctp("http", 2, Some("http"), ""),
    ]
    .concat();
    let w = world(&one);
    assert_eq!(status(&w, "gateway"), PolicyStatus::PartiallyEnforced);
    assert_eq!(status(&w, "http"), PolicyStatus::Enforced);
    let lost: Vec<_> = affects(&w, "gateway")
        .into_iter()
        .filter(|(_, s, _)| *s != PolicyStatus::Enforced)
        .collect();
    let whole = vec!["<http".to_string()];
    assert_eq!(
        lost,
        vec![
            ("gw#http".into(), PolicyStatus::Overridden, whole.clone()),
            ("h".into(), PolicyStatus::Overridden, whole.clone()),
            ("h#main".into(), PolicyStatus::Overridden, whole),
        ]
    );
    assert_incremental_matches_full(&w);
    let both = [one.as_str(), &ctp("tcp", 3, Some("tcp"), "")].concat();
    let w = world(&both);
    assert_eq!(status(&w, "gateway"), PolicyStatus::Overridden);
    assert_incremental_matches_full(&w);
}

#[test]
fn a_client_traffic_policy_has_no_merge_type_to_read() {
    // Its kind has no such field: one written anyway (a CRD would prune it) merges
    // nothing into the Gateway's policy, and describe's "Kind merges" does not name it.
    let yaml = [
        TCP,
        &ctp("gateway", 1, None, "  timeout: {http: {idleTimeout: 5s}}"),
        &ctp(
            "http",
            2,
            Some("http"),
            "  mergeType: StrategicMerge\n  path: {escapedSlashesAction: KeepUnchanged}",
        ),
    ]
    .concat();
    let w = world(&yaml);
    let kind = gk("gateway.envoyproxy.io", "ClientTrafficPolicy");
    let http = node(&w, "Gateway", Some("app"), "gw", Some("http"));
    assert_eq!(
        effective(&w, &kind, http)[0].1,
        json!({"path": {"escapedSlashesAction": "KeepUnchanged"}})
    );
    assert_eq!(status(&w, "gateway"), PolicyStatus::PartiallyEnforced);
    let t = &w.topology;
    let p = kubectl_policies::topology::PolicyId::all(t.policies().len())
        .find(|&p| t.policy(p).obj_ref.name == "http")
        .unwrap();
    let d = kubectl_policies::query::describe_policy(&w, p);
    assert!(!d.merge.contains("mergeType"), "{}", d.merge);
    assert!(
        d.merge.contains("even one that sets nothing"),
        "{}",
        d.merge
    );
    assert_eq!(d.strategy, "Atomic Defaults");
}

#[test]
fn an_http_only_setting_refuses_a_security_policy_on_the_tcp_routes_its_selectors_pick() {
    // Envoy Gateway resolves targetSelectors into target references before it
    // validates each one: a TCPRoute picked by label is refused as one named is.
    let labelled = TCP.replace(
        "kind: TCPRoute\nmetadata: {name: t, namespace: app}",
        "kind: TCPRoute\nmetadata: {name: t, namespace: app, labels: {tier: edge}}",
    );
    assert_ne!(labelled, TCP);
    let policy = "---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: SecurityPolicy\nmetadata: {name: picked, namespace: app}\nspec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: h}]\n  targetSelectors: [{group: gateway.networking.k8s.io, kind: TCPRoute, matchLabels: {tier: edge}}]\n  basicAuth: {users: {name: htpasswd}}\n";
    let w = world(&[labelled.as_str(), policy].concat());
    assert_eq!(status(&w, "picked"), PolicyStatus::PartiallyEnforced);
    let findings: Vec<&str> = w
        .topology
        .findings()
        .iter()
        .filter(|f| f.object.name == "picked")
        .map(|f| f.message.as_str())
        .collect();
    assert_eq!(
        findings,
        [
            "spec.basicAuth: is set and the policy targets TCPRoute app/t: its controller accepts \
          no basicAuth on a TCPRoute: the policy is refused on that TCPRoute and stands on its \
          other targets"
        ]
    );
    let sp = gk("gateway.envoyproxy.io", "SecurityPolicy");
    let t = node(&w, "TCPRoute", Some("app"), "t", None);
    assert!(effective(&w, &sp, t).iter().all(|(_, s)| *s == json!({})));
    // Picking the TCPRoute alone: Invalid.
    let alone = policy.replace(
        "  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: h}]\n",
        "",
    );
    let w = world(&[labelled.as_str(), &alone].concat());
    assert_eq!(status(&w, "picked"), PolicyStatus::Invalid);
}

#[test]
fn deleting_a_client_traffic_policy_a_shared_port_leaves_to_makes_another_refused() {
    let yaml = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec:
  gatewayClassName: eg
  allowedListeners: {namespaces: {from: Same}}
  listeners:
  - {name: a, port: 80, protocol: HTTP, hostname: a.example}
  - {name: c, port: 8080, protocol: HTTP, hostname: c.example}
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: ls, namespace: app}
spec:
  parentRef: {name: gw, kind: Gateway, group: gateway.networking.k8s.io}
  listeners:
  - {name: b, port: 80, protocol: HTTP, hostname: b.example}
"#;
    let ctp = |name: &str, kind: &str, target: &str, section: &str| {
        let section = match section {
            "" => String::new(),
            s => format!(", sectionName: {s}"),
        };
        format!("---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: ClientTrafficPolicy\nmetadata: {{name: {name}, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: {kind}, name: {target}{section}}}]\n  timeout: {{http: {{idleTimeout: 5s}}}}\n")
    };
    let yaml = [
        yaml,
        &ctp("whole", "Gateway", "gw", ""),
        &ctp("on-a", "Gateway", "gw", "a"),
    ]
    .concat();
    // `world` also holds `delete_policy` equal to `delete_policy_by_reanalysis` here.
    let w = world(&yaml);
    // on-a is refused (its listener shares port 80 with b), and leaves listener a to
    // itself: whole is accepted.
    assert_eq!(status(&w, "on-a"), PolicyStatus::Invalid);
    assert_eq!(status(&w, "whole"), PolicyStatus::Enforced);
    let on_a = kubectl_policies::topology::PolicyId::all(w.topology.policies().len())
        .find(|&p| w.topology.policy(p).obj_ref.name == "on-a")
        .unwrap();
    // Without on-a, whole is refused: every object it reached loses its settings,
    // though on-a itself reached none.
    let blast = kubectl_policies::query::blast::delete_policy(&w, on_a, &[]);
    assert_eq!(
        blast.headline,
        "Deleting ClientTrafficPolicy app/on-a changes the effective ClientTrafficPolicy of 1 Gateway and 1 ListenerSet in 1 namespace (app)"
    );
    let changed: Vec<String> = blast.changes.iter().map(|c| c.target.to_string()).collect();
    assert_eq!(changed.len(), 5, "{changed:?}");
    for c in &blast.changes {
        assert_eq!(
            c.before.as_deref(),
            Some(&json!({"timeout": {"http": {"idleTimeout": "5s"}}}))
        );
        assert_eq!(c.after, None);
    }
}

//! The targeting shapes real kinds use beyond Gateway API's (issue 28, item 3).

use super::{s, statuses, ROUTES};
use crate::common::*;
use kubectl_policies::effective::PolicyStatus::{self, Enforced, TargetNotFound};
use serde_json::json;

#[test]
fn a_services_annotation_attaches_its_kong_upstream_policy() {
    let policy = "---\napiVersion: configuration.konghq.com/v1beta1\nkind: KongUpstreamPolicy\nmetadata: {name: sticky, namespace: app}\nspec: {algorithm: sticky-sessions}\n";
    let unnamed = "---\napiVersion: configuration.konghq.com/v1beta1\nkind: KongUpstreamPolicy\nmetadata: {name: unused, namespace: app}\nspec: {algorithm: round-robin}\n";
    let annotated = ROUTES.replace(
        "metadata: {name: coffee, namespace: app}\nspec: {ports",
        "metadata: {name: coffee, namespace: app, annotations: {konghq.com/upstream-policy: sticky}}\nspec: {ports",
    );
    assert_ne!(annotated, ROUTES);
    let w = world(&[&annotated, policy, unnamed].concat());
    assert_eq!(
        statuses(&w),
        [s("app/sticky", Enforced), s("app/unused", TargetNotFound)]
    );
    let svc = node(&w, "Service", Some("app"), "coffee", None);
    assert_eq!(
        effective(
            &w,
            &gk("configuration.konghq.com", "KongUpstreamPolicy"),
            svc
        )[0]
        .1,
        serde_json::json!({"algorithm": "sticky-sessions"})
    );
    assert!(w
        .topology
        .findings()
        .iter()
        .any(|f| f.object.name == "unused" && f.message.contains("konghq.com/upstream-policy")));
}

#[test]
fn a_target_ref_with_section_names_names_each_listener() {
    // Azure Application Gateway for Containers: one targetRef, a sectionNames list.
    let gw = ROUTES.replace(
        "listeners: [{name: http, port: 80, protocol: HTTP}]",
        "listeners: [{name: http, port: 80, protocol: HTTP}, {name: https, port: 443, protocol: HTTPS}, {name: other, port: 8080, protocol: HTTP}]",
    );
    let policy = "---\napiVersion: alb.networking.azure.io/v1\nkind: FrontendTLSPolicy\nmetadata: {name: tls, namespace: app}\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionNames: [http, https]}\n  default: {policyType: {type: predefined, name: 2023-06}}\n";
    let w = world(&[&gw, policy].concat());
    let reached: Vec<String> = w
        .topology
        .targets_of(kubectl_policies::topology::PolicyId::at(0))
        .iter()
        .map(|t| t.target.to_string())
        .collect();
    assert_eq!(reached.len(), 2, "{reached:?}");
    assert!(reached.iter().any(|r| r.ends_with("#http")), "{reached:?}");
    assert!(reached.iter().any(|r| r.ends_with("#https")), "{reached:?}");
    let other = node(&w, "Gateway", Some("app"), "gw", Some("other"));
    assert!(effective(
        &w,
        &gk("alb.networking.azure.io", "FrontendTLSPolicy"),
        other
    )
    .is_empty());
}

#[test]
fn targets_outside_gateway_api_are_reached_when_they_exist() {
    // Envoy AI Gateway: an AIServiceBackend and an InferencePool.
    let backend = "---\napiVersion: aigateway.envoyproxy.io/v1alpha1\nkind: AIServiceBackend\nmetadata: {name: llm, namespace: app}\nspec: {schema: {name: OpenAI}}\n";
    let bsp = |name: &str, kind: &str, group: &str, target: &str| {
        format!(
        "---\napiVersion: aigateway.envoyproxy.io/v1beta1\nkind: BackendSecurityPolicy\nmetadata: {{name: {name}, namespace: app}}\nspec:\n  targetRefs: [{{group: {group}, kind: {kind}, name: {target}}}]\n  type: APIKey\n"
    )
    };
    let w = world(
        &[
            ROUTES,
            backend,
            &bsp(
                "llm-key",
                "AIServiceBackend",
                "aigateway.envoyproxy.io",
                "llm",
            ),
            &bsp(
                "pool-key",
                "InferencePool",
                "inference.networking.k8s.io",
                "missing",
            ),
        ]
        .concat(),
    );
    assert_eq!(
        statuses(&w),
        [
            s("app/llm-key", Enforced),
            s("app/pool-key", TargetNotFound)
        ]
    );
}

#[test]
fn a_target_ref_with_a_label_selector_binds_workloads_outside_the_hierarchy() {
    // GKE: `{kind: Pod, selector}` picks Pods by label, not by name.
    let authz = "---\napiVersion: networking.gke.io/v1\nkind: GCPAuthzPolicy\nmetadata: {name: pods, namespace: app}\nspec:\n  targetRefs: [{kind: Pod, selector: {matchLabels: {app: coffee}}}]\n  action: ALLOW\n";
    let w = world(&[ROUTES, authz].concat());
    assert_eq!(
        statuses(&w),
        [s(
            "app/pods",
            kubectl_policies::effective::PolicyStatus::SelectorBound
        )]
    );
    assert!(w
        .topology
        .findings()
        .iter()
        .all(|f| f.code != kubectl_policies::topology::Code::Invalid));
}

#[test]
fn istio_refuses_a_target_in_another_namespace() {
    let other = ROUTES.replace("namespace: app", "namespace: other");
    let ap = "---\napiVersion: security.istio.io/v1\nkind: AuthorizationPolicy\nmetadata: {name: cross, namespace: app}\nspec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw, namespace: other}]\n  action: DENY\n";
    let w = world(&[&other, ap].concat());
    assert_eq!(
        statuses(&w),
        [s(
            "app/cross",
            kubectl_policies::effective::PolicyStatus::Invalid
        )]
    );
    // In its own namespace the same reference is fine.
    let own = ap.replace(", namespace: other}", "}");
    let w = world(&[ROUTES, &own].concat());
    assert_eq!(statuses(&w), [s("app/cross", Enforced)]);
}

#[test]
fn a_flomesh_target_ref_names_a_route_rule_by_its_rule_field() {
    let tcp = "---\napiVersion: gateway.networking.k8s.io/v1alpha2\nkind: TCPRoute\nmetadata: {name: db, namespace: app}\nspec: {parentRefs: [{name: gw}], rules: [{name: primary, backendRefs: [{name: coffee, port: 80}]}, {name: replica, backendRefs: [{name: coffee, port: 80}]}]}\n";
    let policy = "---\napiVersion: gateway.flomesh.io/v1alpha2\nkind: RouteRuleFilterPolicy\nmetadata: {name: filters, namespace: app}\nspec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: TCPRoute, name: db, rule: primary}]\n  filterRefs: [{group: extension.gateway.flomesh.io, kind: Filter, name: f}]\n";
    let w = world(&[ROUTES, tcp, policy].concat());
    let targets: Vec<String> = w
        .topology
        .targets_of(kubectl_policies::topology::PolicyId::at(0))
        .iter()
        .map(|t| t.target.to_string())
        .collect();
    assert_eq!(targets.len(), 1);
    assert!(targets[0].ends_with("#primary"), "{targets:?}");
    assert_eq!(statuses(&w), [s("app/filters", Enforced)]);
}

/// Three Services (`a` names KongUpstreamPolicy `p1`, `b` names `p2`, `c` none), the
/// policies, and an HTTPRoute whose rules send to `rules` (each a list of Services).
fn kong(rules: &[&[&str]]) -> String {
    let mut yaml = String::from(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: gw, namespace: app}\nspec: {gatewayClassName: gc, listeners: [{name: http, port: 80, protocol: HTTP}]}\n",
    );
    for (service, policy) in [("a", Some("p1")), ("b", Some("p2")), ("c", None)] {
        let annotations = policy
            .map(|p| format!(", annotations: {{konghq.com/upstream-policy: {p}}}"))
            .unwrap_or_default();
        yaml += &format!("---\napiVersion: v1\nkind: Service\nmetadata: {{name: {service}, namespace: app{annotations}}}\nspec: {{ports: [{{port: 80}}]}}\n");
    }
    for policy in ["p1", "p2"] {
        yaml += &format!("---\napiVersion: configuration.konghq.com/v1beta1\nkind: KongUpstreamPolicy\nmetadata: {{name: {policy}, namespace: app}}\nspec: {{algorithm: round-robin}}\n");
    }
    let rules: Vec<String> = rules
        .iter()
        .enumerate()
        .map(|(i, services)| {
            let refs: Vec<String> = services
                .iter()
                .map(|s| format!("{{name: {s}, port: 80}}"))
                .collect();
            format!("{{name: r{i}, backendRefs: [{}]}}", refs.join(", "))
        })
        .collect();
    yaml += &format!("---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: web, namespace: app}}\nspec: {{parentRefs: [{{name: gw}}], rules: [{}]}}\n", rules.join(", "));
    yaml
}

/// The Conflicted findings, as (policy, message).
fn conflicts(yaml: &str) -> Vec<(String, String)> {
    let w = world(yaml);
    w.topology
        .findings()
        .iter()
        .filter(|f| f.code == kubectl_policies::topology::Code::Conflicted)
        .map(|f| (f.object.name.to_string(), f.message.clone()))
        .collect()
}

#[test]
fn kong_services_of_one_rule_must_name_the_same_upstream_policy() {
    // Kong's controller: a Service sent to with Services that do not name its
    // KongUpstreamPolicy makes it Conflicted there.
    let found = conflicts(&kong(&[&["a", "b"]]));
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].0, "p1");
    assert_eq!(
        found[0].1,
        "Service app/a names it (konghq.com/upstream-policy) but rule r0 of HTTPRoute app/web \
         also sends to Service app/b, which names p2: the Services of one rule must name the \
         same KongUpstreamPolicy, so its controller sets it Conflicted on Service app/a \
         (Accepted=False) and does not apply it there"
    );
    assert_eq!(found[1].0, "p2");
    // A Service that names none differs too; only the named policy is told.
    let found = conflicts(&kong(&[&["c", "a"]]));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].1.contains("Service app/c, which names none"),
        "{found:?}"
    );
    // In rules of their own, or alone with itself, nothing differs.
    assert!(conflicts(&kong(&[&["a"], &["b"], &["c"]])).is_empty());
    assert!(conflicts(&kong(&[&["a", "a"]])).is_empty());
}

/// Services `a` and `d` name KongUpstreamPolicy `p1`, `b` names `p2`, `x` (namespace
/// `other`) names a `p1` of its own namespace; `rules` are an HTTPRoute's rules, each
/// a list of Services (`x` as `other/x`).
fn kong_spread(rules: &[&[&str]]) -> String {
    let mut yaml = String::from(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: gw, namespace: app}\nspec: {gatewayClassName: gc, listeners: [{name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}]}\n",
    );
    for (ns, service, policy) in [
        ("app", "a", "p1"),
        ("app", "d", "p1"),
        ("app", "b", "p2"),
        ("other", "x", "p1"),
    ] {
        yaml += &format!("---\napiVersion: v1\nkind: Service\nmetadata: {{name: {service}, namespace: {ns}, annotations: {{konghq.com/upstream-policy: {policy}}}}}\nspec: {{ports: [{{name: http, port: 80}}]}}\n");
    }
    for (ns, policy) in [("app", "p1"), ("app", "p2"), ("other", "p1")] {
        yaml += &format!("---\napiVersion: configuration.konghq.com/v1beta1\nkind: KongUpstreamPolicy\nmetadata: {{name: {policy}, namespace: {ns}}}\nspec: {{algorithm: round-robin}}\n");
    }
    yaml += "---\napiVersion: gateway.networking.k8s.io/v1beta1\nkind: ReferenceGrant\nmetadata: {name: from-app, namespace: other}\nspec: {from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: app}], to: [{group: \"\", kind: Service}]}\n";
    let rules: Vec<String> = rules
        .iter()
        .enumerate()
        .map(|(i, services)| {
            let refs: Vec<String> = services
                .iter()
                .map(|s| match s.split_once('/') {
                    Some((ns, name)) => format!("{{name: {name}, namespace: {ns}, port: 80}}"),
                    None => format!("{{name: {s}, port: 80}}"),
                })
                .collect();
            format!("{{name: r{i}, backendRefs: [{}]}}", refs.join(", "))
        })
        .collect();
    yaml += &format!("---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: web, namespace: app}}\nspec: {{parentRefs: [{{name: gw}}], rules: [{}]}}\n", rules.join(", "));
    yaml
}

/// Each policy's computed status and the objects it reaches (AFFECTS), as
/// `namespace/name`.
fn status_and_reach(w: &kubectl_policies::query::World) -> Vec<(String, PolicyStatus, usize)> {
    w.topology
        .policies()
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let id = kubectl_policies::topology::PolicyId::at(i);
            (
                p.obj_ref.ns_name(),
                w.statuses().overall[i],
                w.statuses().affects_count(id),
            )
        })
        .collect()
}

#[test]
fn kong_refuses_an_upstream_policy_on_the_services_of_a_rule_that_disagree_only() {
    use kubectl_policies::effective::PolicyStatus::{Conflicted, PartiallyEnforced};
    use kubectl_policies::topology::{Code, Resolution};
    let kup = gk("configuration.konghq.com", "KongUpstreamPolicy");
    // Rule r0 sends to a (p1) and b (p2): Kong sets p1 Conflicted on a and p2 on b
    // (Accepted=False there). d sends alone: p1 holds there.
    let w = world(&kong_spread(&[&["a", "b"], &["d"]]));
    assert_eq!(
        status_and_reach(&w),
        [
            ("app/p1".to_string(), PartiallyEnforced, 1),
            ("app/p2".to_string(), Conflicted, 0),
            ("other/p1".to_string(), Enforced, 1),
        ]
    );
    // Nothing of p1 applies on a; it does on d.
    let a = node(&w, "Service", Some("app"), "a", None);
    let d = node(&w, "Service", Some("app"), "d", None);
    assert!(effective(&w, &kup, a).iter().all(|(_, s)| *s == json!({})));
    assert_eq!(
        effective(&w, &kup, d)[0].1,
        json!({"algorithm": "round-robin"})
    );
    // Its target a is Conflicted (not attached), d resolved.
    let p1 = w
        .topology
        .policy_id(&kubectl_policies::model::ObjRef::new(
            "configuration.konghq.com",
            "KongUpstreamPolicy",
            Some("app"),
            "p1",
        ))
        .unwrap();
    let targets: Vec<(String, Option<Code>)> = w
        .topology
        .targets_of(p1)
        .iter()
        .map(|r| {
            let code = match r.resolution {
                Resolution::NotFound(code) => Some(code),
                _ => None,
            };
            (r.target.name.to_string(), code)
        })
        .collect();
    assert_eq!(
        targets,
        [
            ("a".to_string(), Some(Code::Conflicted)),
            ("d".to_string(), None)
        ]
    );
    // Agreeing Services in one rule: Enforced everywhere.
    let w = world(&kong_spread(&[&["a", "d"], &["b"]]));
    assert_eq!(
        status_and_reach(&w),
        [
            ("app/p1".to_string(), Enforced, 2),
            ("app/p2".to_string(), Enforced, 1),
            ("other/p1".to_string(), Enforced, 1),
        ]
    );
    // The same name in another namespace names another policy: a and x disagree.
    let w = world(&kong_spread(&[&["a", "other/x"], &["d"], &["b"]]));
    assert_eq!(
        status_and_reach(&w),
        [
            ("app/p1".to_string(), PartiallyEnforced, 1),
            ("app/p2".to_string(), Enforced, 1),
            ("other/p1".to_string(), Conflicted, 0),
        ]
    );
    let told: Vec<&str> = w
        .topology
        .findings()
        .iter()
        .filter(|f| f.code == Code::Conflicted)
        .map(|f| f.message.as_str())
        .collect();
    assert!(
        told.iter()
            .any(|m| m.contains("Service other/x, which names p1 of namespace other")),
        "{told:?}"
    );
}

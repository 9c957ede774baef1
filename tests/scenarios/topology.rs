//! The hierarchy: admission, ReferenceGrants, GAMMA, Namespace targets, findings.

use crate::common::*;
use kubectl_policies::effective::PolicyStatus;
use kubectl_policies::model::ObjRef;
use kubectl_policies::topology::Code;

const GATEWAY: &str = r#"
apiVersion: v1
kind: Namespace
metadata: {name: infra}
---
apiVersion: v1
kind: Namespace
metadata: {name: shop, labels: {team: web}}
---
apiVersion: v1
kind: Namespace
metadata: {name: other}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: gc
  listeners:
  - {name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}
  - {name: https, port: 443, protocol: HTTPS, hostname: "*.shop.example", allowedRoutes: {namespaces: {from: Selector, selector: {matchLabels: {team: web}}}}}
  - {name: local, port: 8080, protocol: HTTP}
  - {name: tcp, port: 9000, protocol: TCP, allowedRoutes: {namespaces: {from: All}}}
"#;

fn route(ns: &str, name: &str, parent: &str) -> String {
    format!("---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: {name}, namespace: {ns}}}\nspec:\n  parentRefs: [{parent}]\n  rules: [{{backendRefs: [{{name: svc, port: 80}}]}}]\n")
}

fn codes(w: &kubectl_policies::query::World) -> Vec<(Code, String)> {
    w.topology
        .findings()
        .iter()
        .map(|f| (f.code, f.object.name.to_string()))
        .collect()
}

#[test]
fn route_attaches_to_the_listeners_that_admit_it() {
    let yaml = [
        GATEWAY,
        &route("shop", "web", "{name: gw, namespace: infra}"),
    ]
    .concat();
    let w = world(&yaml);
    let r = node(&w, "HTTPRoute", Some("shop"), "web", None);
    let parents: Vec<String> = w
        .topology
        .node(r)
        .parents
        .iter()
        .map(|&p| {
            w.topology
                .node(p)
                .obj_ref
                .section
                .as_deref()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    // http (All) and https (Selector matches team=web); not local (Same: infra only), not tcp (kind).
    assert_eq!(parents, vec!["http", "https"]);
}

#[test]
fn section_name_and_port_narrow_the_listeners() {
    let yaml = [
        GATEWAY,
        &route(
            "shop",
            "by-section",
            "{name: gw, namespace: infra, sectionName: https}",
        ),
        &route("shop", "by-port", "{name: gw, namespace: infra, port: 80}"),
    ]
    .concat();
    let w = world(&yaml);
    let sec = |n: &str| {
        let r = node(&w, "HTTPRoute", Some("shop"), n, None);
        w.topology
            .node(r)
            .parents
            .iter()
            .map(|&p| {
                w.topology
                    .node(p)
                    .obj_ref
                    .section
                    .clone()
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(sec("by-section"), vec!["https"]);
    assert_eq!(sec("by-port"), vec!["http"]);
}

#[test]
fn disallowed_namespace_is_not_admitted_and_says_why() {
    let yaml = [
        GATEWAY,
        &route(
            "other",
            "nope",
            "{name: gw, namespace: infra, sectionName: https}",
        ),
    ]
    .concat();
    let w = world(&yaml);
    let f = w
        .topology
        .findings()
        .iter()
        .find(|f| f.code == Code::NotAdmitted)
        .expect("NotAdmitted");
    assert_eq!(f.object.name, "nope");
    assert!(
        f.message.contains("namespace other does not match"),
        "{}",
        f.message
    );
    let r = node(&w, "HTTPRoute", Some("other"), "nope", None);
    assert!(w.topology.node(r).parents.is_empty());
}

#[test]
fn listener_hostname_must_intersect_the_routes() {
    let yaml = [
        GATEWAY,
        "---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: elsewhere, namespace: shop}\nspec:\n  hostnames: [api.other.example]\n  parentRefs: [{name: gw, namespace: infra, sectionName: https}]\n",
    ]
    .concat();
    let w = world(&yaml);
    assert!(codes(&w).contains(&(Code::NotAdmitted, "elsewhere".into())));
}

#[test]
fn cross_namespace_backend_needs_a_reference_grant() {
    let svc = "---\napiVersion: v1\nkind: Service\nmetadata: {name: db, namespace: data}\n";
    let r = "---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: web, namespace: shop}\nspec:\n  parentRefs: [{name: gw, namespace: infra}]\n  rules: [{backendRefs: [{name: db, namespace: data, port: 5432}]}]\n";
    let without = world(&[GATEWAY, svc, r].concat());
    assert!(codes(&without).contains(&(Code::RefNotPermitted, "web".into())));
    let db = node(&without, "Service", Some("data"), "db", None);
    assert!(
        without.topology.node(db).parents.is_empty(),
        "no edge without a grant"
    );

    let grant = "---\napiVersion: gateway.networking.k8s.io/v1beta1\nkind: ReferenceGrant\nmetadata: {name: allow-shop, namespace: data}\nspec:\n  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: shop}]\n  to: [{group: \"\", kind: Service}]\n";
    let with = world(&[GATEWAY, svc, r, grant].concat());
    assert!(!codes(&with)
        .iter()
        .any(|(c, _)| *c == Code::RefNotPermitted));
    let db = node(&with, "Service", Some("data"), "db", None);
    assert_eq!(with.topology.node(db).parents.len(), 1);
}

#[test]
fn gamma_route_hangs_under_its_service() {
    let yaml = r#"
apiVersion: v1
kind: Service
metadata: {name: api, namespace: mesh}
spec: {ports: [{name: http, port: 80}]}
---
apiVersion: v1
kind: Service
metadata: {name: api-v2, namespace: mesh}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: split, namespace: mesh}
spec:
  parentRefs: [{group: "", kind: Service, name: api}]
  rules: [{backendRefs: [{name: api, port: 80}, {name: api-v2, port: 80}]}]
---
apiVersion: example.io/v1
kind: TimeoutPolicy
metadata: {name: mesh-timeouts, namespace: mesh}
spec:
  targetRef: {group: "", kind: Service, name: api}
  defaults: {request: 3s}
"#;
    let w = world(yaml);
    let r = node(&w, "HTTPRoute", Some("mesh"), "split", None);
    let api = node(&w, "Service", Some("mesh"), "api", None);
    assert_eq!(w.topology.node(r).parents.as_slice(), [api]);
    // The policy on the parent Service flows to the route and its other backend; the
    // route's edge back to its own parent would be a cycle and is not drawn.
    let v2 = node(&w, "Service", Some("mesh"), "api-v2", None);
    let eff = effective(&w, &gk("example.io", "TimeoutPolicy"), v2);
    assert_eq!(eff.len(), 1);
    assert_eq!(eff[0].0, "api>split>split#rule-1>api-v2");
}

#[test]
fn namespace_target_reaches_every_object_in_it() {
    let yaml = [
        GATEWAY,
        &route("shop", "a", "{name: gw, namespace: infra}"),
        &route("shop", "b", "{name: gw, namespace: infra}"),
        "---\napiVersion: v1\nkind: Service\nmetadata: {name: svc, namespace: shop}\n",
        "---\napiVersion: example.io/v1\nkind: RetryPolicy\nmetadata: {name: ns-wide, namespace: shop}\nspec:\n  targetRef: {group: \"\", kind: Namespace, name: shop}\n  attempts: 3\n",
    ]
    .concat();
    let w = world(&yaml);
    let p = w
        .topology
        .policies()
        .iter()
        .position(|p| p.obj_ref.name == "ns-wide")
        .map(kubectl_policies::topology::PolicyId::at)
        .unwrap();
    // Two routes and the Service (sections count with their object).
    assert_eq!(w.statuses().affects_count(p), 3);
    // The Gateway in infra is not reached.
    let gw = node(&w, "Gateway", Some("infra"), "gw", None);
    assert!(effective(&w, &gk("example.io", "RetryPolicy"), gw).is_empty());
}

#[test]
fn dangling_target_and_missing_section_are_findings() {
    let yaml = [
        GATEWAY,
        "---\napiVersion: example.io/v1\nkind: RetryPolicy\nmetadata: {name: gone, namespace: infra}\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: old-gw}\n",
        "---\napiVersion: example.io/v1\nkind: RetryPolicy\nmetadata: {name: typo, namespace: infra}\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: htps}\n",
    ]
    .concat();
    let w = world(&yaml);
    assert!(codes(&w).contains(&(Code::TargetNotFound, "gone".into())));
    assert!(codes(&w).contains(&(Code::SectionNotFound, "typo".into())));
    assert_eq!(status(&w, "gone"), PolicyStatus::TargetNotFound);
    assert_eq!(status(&w, "typo"), PolicyStatus::SectionNotFound);
}

/// A target in a kind and namespace the user could not list is not "not found":
/// the finding says it could not be read, and is a warning rather than an error.
#[test]
fn a_target_behind_a_blind_spot_is_unknown_not_missing() {
    let yaml = [
        GATEWAY,
        "---\napiVersion: example.io/v1\nkind: RetryPolicy\nmetadata: {name: unseen, namespace: shop}\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: hidden}\n",
    ]
    .concat();
    let mut loaded = kubectl_policies::source::files::Loaded::default();
    kubectl_policies::source::files::load_text(&yaml, "<literal>", &mut loaded).unwrap();
    loaded
        .snapshot
        .blind_spots
        .push(kubectl_policies::model::BlindSpot {
            group: "gateway.networking.k8s.io".into(),
            kind: "HTTPRoute".into(),
            namespace: Some("shop".into()),
            reason: kubectl_policies::model::BlindReason::Forbidden,
            message:
                "cannot list httproutes.gateway.networking.k8s.io in namespace shop: forbidden"
                    .into(),
            file: None,
            document: None,
        });
    let w = kubectl_policies::analyze(loaded.snapshot, &[], &[]);
    crate::sweep::answer_everything(&w);
    let f = w
        .topology
        .findings()
        .iter()
        .find(|f| f.object.name == "unseen")
        .unwrap();
    assert_eq!(f.code, Code::TargetNotFound);
    assert_eq!(f.severity, kubectl_policies::topology::Severity::Warning);
    assert!(f.message.contains("could not be read"), "{}", f.message);
    assert!(
        f.message.contains("whether it exists is unknown"),
        "{}",
        f.message
    );
}

#[test]
fn wrong_shape_is_an_invalid_finding_naming_the_field() {
    let yaml = [
        GATEWAY,
        "---\napiVersion: example.io/v1\nkind: RetryPolicy\nmetadata: {name: bad, namespace: infra}\nspec:\n  targetRefs: oops\n",
        "---\napiVersion: example.io/v1\nkind: RetryPolicy\nmetadata: {name: fine, namespace: infra}\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}\n",
    ]
    .concat();
    let w = world(&yaml);
    let f = w
        .topology
        .findings()
        .iter()
        .find(|f| f.object.name == "bad")
        .expect("finding for bad");
    assert_eq!(f.code, Code::Invalid);
    assert!(f.message.starts_with("spec.targetRefs:"), "{}", f.message);
    // Everything else still answers.
    assert_eq!(status(&w, "fine"), PolicyStatus::Enforced);
    assert_eq!(status(&w, "bad"), PolicyStatus::Invalid);
}

#[test]
fn target_selectors_match_labels_in_the_policy_namespace() {
    let yaml = [
        GATEWAY,
        "---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: a, namespace: shop, labels: {tier: gold}}\nspec: {parentRefs: [{name: gw, namespace: infra}]}\n",
        "---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: b, namespace: shop, labels: {tier: bronze}}\nspec: {parentRefs: [{name: gw, namespace: infra}]}\n",
        "---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: BackendTrafficPolicy\nmetadata: {name: gold, namespace: shop}\nspec:\n  targetSelectors: [{group: gateway.networking.k8s.io, kind: HTTPRoute, matchLabels: {tier: gold}}]\n  retry: {numRetries: 5}\n",
    ]
    .concat();
    let w = world(&yaml);
    let p = kubectl_policies::topology::PolicyId(0);
    let targets: Vec<String> = w
        .topology
        .targets_of(p)
        .iter()
        .map(|t| t.target.name.to_string())
        .collect();
    assert_eq!(targets, vec!["a"]);
}

#[test]
fn registry_kinds_need_no_crd_and_labels_are_read_case_insensitively() {
    let crd = "---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: quotas.example.io\n  labels: {gateway.networking.k8s.io/policy: DIRECT}\nspec: {group: example.io, names: {kind: Quota, plural: quotas}}\n";
    let w = world(&[GATEWAY, crd].concat());
    let k = w
        .topology
        .catalog()
        .get(&gk("example.io", "Quota"))
        .unwrap();
    assert_eq!(k.entry.class, kubectl_policies::catalog::Class::Direct);
    assert_eq!(k.origin, kubectl_policies::catalog::ClassOrigin::Label);
    let btls = w
        .topology
        .catalog()
        .get(&gk("gateway.networking.k8s.io", "BackendTLSPolicy"))
        .unwrap();
    assert_eq!(
        btls.origin,
        kubectl_policies::catalog::ClassOrigin::Registry
    );
}

#[test]
fn policy_affected_marks_on_targets_are_read_and_checked() {
    let yaml = [
        GATEWAY,
        "---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: marked\n  namespace: shop\n  annotations: {gateway.nginx.org/ClientSettingsPolicyAffected: \"true\"}\nspec: {parentRefs: [{name: gw, namespace: infra}]}\nstatus:\n  conditions: [{type: kuadrant.io/AuthPolicyAffected, status: \"True\", reason: Accepted}]\n",
        "---\napiVersion: kuadrant.io/v1\nkind: AuthPolicy\nmetadata: {name: auth, namespace: shop}\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: marked}\n  rules: {}\n",
    ]
    .concat();
    let w = world(&yaml);
    let n = node(&w, "HTTPRoute", Some("shop"), "marked", None);
    let d = kubectl_policies::query::describe_target(&w, n);
    let marks: Vec<(&str, &str)> = d
        .reported_affected
        .iter()
        .map(|r| (r.type_.as_str(), r.status.as_str()))
        .collect();
    assert_eq!(
        marks,
        vec![
            ("AuthPolicyAffected", "True"),
            ("ClientSettingsPolicyAffected", "True")
        ]
    );
    // AuthPolicy reaches it: agreed. No ClientSettingsPolicy does: flagged.
    let disagree: Vec<&str> = d
        .findings
        .iter()
        .filter(|f| f.code == Code::StatusDisagrees)
        .map(|f| f.message.as_str())
        .collect();
    assert_eq!(disagree, vec!["the object reports ClientSettingsPolicyAffected=True but no ClientSettingsPolicy reaches it"]);
}

#[test]
fn a_backend_made_a_node_for_one_route_is_the_parent_a_later_route_names() {
    // Routes are worked out on every core from the nodes made before any is linked,
    // then linked in order: the InferencePool becomes a node only as the first route's
    // backend, and the second route must still find it as its parent.
    let yaml = r#"
apiVersion: inference.networking.k8s.io/v1
kind: InferencePool
metadata: {name: pool, namespace: app}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: first, namespace: app}
spec:
  rules: [{backendRefs: [{group: inference.networking.k8s.io, kind: InferencePool, name: pool}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: second, namespace: app}
spec:
  parentRefs: [{group: inference.networking.k8s.io, kind: InferencePool, name: pool}]
"#;
    let w = world(yaml);
    let pool_ref = ObjRef::new(
        "inference.networking.k8s.io",
        "InferencePool",
        Some("app"),
        "pool",
    );
    let pool = w.topology.lookup(&pool_ref).expect("the pool is a node");
    let rule = node(&w, "HTTPRoute", Some("app"), "first", Some("rule-1"));
    let second = node(&w, "HTTPRoute", Some("app"), "second", None);
    assert_eq!(w.topology.node(pool).parents.as_slice(), [rule]);
    assert_eq!(w.topology.node(second).parents.as_slice(), [pool]);
    assert!(codes(&w).is_empty(), "{:?}", codes(&w));
}

/// Every (node, policy) pair a drawing hangs, by the node's reference.
fn placements(forest: &[kubectl_policies::query::TreeNode]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack: Vec<&kubectl_policies::query::TreeNode> = forest.iter().collect();
    while let Some(n) = stack.pop() {
        for p in &n.policies {
            out.push((n.obj_ref.to_string(), p.policy.name.to_string()));
        }
        stack.extend(n.children.iter());
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn a_namespace_policy_hangs_at_the_same_place_whatever_the_tree_is_drawn_from() {
    // shop/a and its Service are in shop: the namespace is entered at the route. The
    // Service shop/shared is also the backend of other/b: entered there from outside.
    let grant = "---\napiVersion: gateway.networking.k8s.io/v1beta1\nkind: ReferenceGrant\nmetadata: {name: allow-other, namespace: shop}\nspec:\n  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: other}]\n  to: [{group: \"\", kind: Service}]\n";
    let yaml = [
        GATEWAY,
        &route("shop", "a", "{name: gw, namespace: infra}"),
        "---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: b, namespace: other}\nspec:\n  parentRefs: [{name: gw, namespace: infra}]\n  rules: [{backendRefs: [{name: shared, namespace: shop, port: 80}]}]\n",
        "---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: c, namespace: shop}\nspec:\n  parentRefs: [{name: gw, namespace: infra}]\n  rules: [{backendRefs: [{name: shared, port: 80}]}]\n",
        grant,
        "---\napiVersion: v1\nkind: Service\nmetadata: {name: svc, namespace: shop}\nspec: {ports: [{name: http, port: 80}]}\n",
        "---\napiVersion: v1\nkind: Service\nmetadata: {name: shared, namespace: shop}\nspec: {ports: [{name: http, port: 80}]}\n",
        "---\napiVersion: example.io/v1\nkind: RetryPolicy\nmetadata: {name: ns-wide, namespace: shop}\nspec:\n  targetRef: {group: \"\", kind: Namespace, name: shop}\n  attempts: 3\n",
    ]
    .concat();
    let w = world(&yaml);
    let whole = placements(&kubectl_policies::query::tree(&w, None, None));
    let on = |r: &str| (r.to_string(), "ns-wide".to_string());
    // Where a path enters shop: its two routes, and shared from other/b. Not svc,
    // below shop/a only.
    for r in [
        "httproute.gateway.networking.k8s.io/shop/a",
        "httproute.gateway.networking.k8s.io/shop/c",
        "service/shop/shared",
    ] {
        assert!(whole.contains(&on(r)), "{r} in {whole:?}");
    }
    assert!(!whole.contains(&on("service/shop/svc")), "{whole:?}");
    // Drawn from any node, or around any node (`describe -o tree`), the policy
    // hangs on exactly the nodes of that drawing it hangs on in the whole tree.
    for i in 0..w.topology.nodes().len() {
        let n = kubectl_policies::topology::NodeId(i as u32);
        for (what, forest) in [
            ("tree", kubectl_policies::query::tree(&w, Some(n), None)),
            (
                "describe -o tree",
                kubectl_policies::query::outline::target(
                    &w,
                    n,
                    &kubectl_policies::query::describe_target(&w, n),
                ),
            ),
        ] {
            let drawn = placements(&forest);
            let mut shown: Vec<String> = Vec::new();
            let mut stack: Vec<&kubectl_policies::query::TreeNode> = forest.iter().collect();
            while let Some(t) = stack.pop() {
                shown.push(t.obj_ref.to_string());
                stack.extend(t.children.iter());
            }
            let expected: Vec<(String, String)> = whole
                .iter()
                .filter(|(r, _)| shown.contains(r))
                .filter(|(_, p)| p == "ns-wide")
                .cloned()
                .collect();
            let got: Vec<(String, String)> =
                drawn.into_iter().filter(|(_, p)| p == "ns-wide").collect();
            assert_eq!(got, expected, "{what} {}", w.topology.node(n).obj_ref);
        }
    }
}

/// A Gateway lets a ListenerSet attach only as its `spec.allowedListeners` says
/// (GEP-1713); each refusal is a NotAdmitted finding on the ListenerSet that says why.
#[test]
fn a_gateway_refuses_listener_sets_its_allowed_listeners_leave_out() {
    let gateway = |name: &str, allowed: &str| {
        format!("---\napiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {{name: {name}, namespace: infra}}\nspec:\n  gatewayClassName: gc\n  {allowed}\n  listeners: [{{name: http, port: 80, protocol: HTTP}}]\n")
    };
    let listener_set = |ns: &str, name: &str, gateway: &str| {
        format!("---\napiVersion: gateway.networking.k8s.io/v1\nkind: ListenerSet\nmetadata: {{name: {name}, namespace: {ns}}}\nspec:\n  parentRef: {{name: {gateway}, namespace: infra}}\n  listeners: [{{name: extra, port: 8080, protocol: HTTP}}]\n")
    };
    let yaml = [
        GATEWAY,
        &gateway("unset", "infrastructure: {}"),
        &gateway("same", "allowedListeners: {namespaces: {from: Same}}"),
        &gateway("web-only", "allowedListeners: {namespaces: {from: Selector, selector: {matchLabels: {team: web}}}}"),
        &gateway("bad-selector", "allowedListeners: {namespaces: {from: Selector, selector: {matchLabels: [web]}}}"),
        &gateway("odd", "allowedListeners: {namespaces: {from: Sometimes}}"),
        &gateway("all", "allowedListeners: {namespaces: {from: All}}"),
        &listener_set("other", "to-unset", "unset"),
        &listener_set("other", "to-same", "same"),
        &listener_set("infra", "to-same-ok", "same"),
        &listener_set("other", "to-web-only", "web-only"),
        &listener_set("shop", "to-web-only-ok", "web-only"),
        &listener_set("other", "to-bad-selector", "bad-selector"),
        &listener_set("other", "to-odd", "odd"),
        &listener_set("other", "to-all", "all"),
    ]
    .concat();
    let w = world(&yaml);
    let mut refused: Vec<(String, String)> = w
        .topology
        .findings()
        .iter()
        .filter(|f| f.code == Code::NotAdmitted && f.object.kind == "ListenerSet")
        .map(|f| (f.object.name.to_string(), f.message.clone()))
        .collect();
    refused.sort();
    let expected = [
        ("to-bad-selector", "spec.parentRef: Gateway infra/bad-selector spec.allowedListeners.namespaces.selector.matchLabels must be a map of strings"),
        ("to-odd", "spec.parentRef: Gateway infra/odd has an unknown spec.allowedListeners.namespaces.from \"Sometimes\""),
        ("to-same", "spec.parentRef: Gateway infra/same allows ListenerSets from namespace infra only"),
        ("to-unset", "spec.parentRef: Gateway infra/unset allows no ListenerSets (spec.allowedListeners)"),
        ("to-web-only", "spec.parentRef: Gateway infra/web-only allows ListenerSets from the namespaces its selector matches, not other"),
    ]
    .map(|(name, message)| (name.to_string(), message.to_string()));
    assert_eq!(refused, expected);
    // The ones admitted sit below their Gateway.
    for (ns, name, gateway) in [
        ("infra", "to-same-ok", "same"),
        ("shop", "to-web-only-ok", "web-only"),
        ("other", "to-all", "all"),
    ] {
        let set = node(&w, "ListenerSet", Some(ns), name, None);
        let gateway = node(&w, "Gateway", Some("infra"), gateway, None);
        assert_eq!(w.topology.node(set).parents.to_vec(), [gateway], "{name}");
    }
}

/// Each way a listener refuses a route its parentRef names, as the NotAdmitted finding
/// tells it: every refusing listener's reason, or the listener named that is not there.
#[test]
fn a_route_no_listener_admits_is_told_why_each_listener_refuses() {
    let strict = r#"
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: strict, namespace: infra}
spec:
  gatewayClassName: gc
  listeners:
  - {name: same, port: 80, protocol: HTTP}
  - {name: web, port: 81, protocol: HTTP, allowedRoutes: {namespaces: {from: Selector, selector: {matchLabels: {team: web}}}}}
  - {name: bad-selector, port: 82, protocol: HTTP, allowedRoutes: {namespaces: {from: Selector, selector: {matchLabels: [web]}}}}
  - {name: odd, port: 83, protocol: HTTP, allowedRoutes: {namespaces: {from: Sometimes}}}
  - {name: tcp, port: 84, protocol: TCP, allowedRoutes: {namespaces: {from: All}}}
  - {name: host, port: 85, protocol: HTTP, hostname: a.example, allowedRoutes: {namespaces: {from: All}}}
"#;
    let route = |name: &str, parent_ref: &str| {
        format!("---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: {name}, namespace: other}}\nspec:\n  hostnames: [b.example]\n  parentRefs: [{{name: strict, namespace: infra{parent_ref}}}]\n")
    };
    let yaml = [
        GATEWAY,
        strict,
        &route("every-listener", ""),
        &route("named-missing", ", sectionName: missing"),
        &route("named-same", ", sectionName: same"),
        &route("no-such-port", ", port: 9999"),
    ]
    .concat();
    let w = world(&yaml);
    let mut refused: Vec<(String, String)> = w
        .topology
        .findings()
        .iter()
        .filter(|f| f.code == Code::NotAdmitted)
        .map(|f| (f.object.name.to_string(), f.message.clone()))
        .collect();
    refused.sort();
    let expected = [
        (
            "every-listener",
            "spec.parentRefs[0]: no listener of Gateway infra/strict admits this route (\
             listener same: allows routes from namespace infra only; \
             listener web: namespace other does not match its namespace selector; \
             listener bad-selector: allowedRoutes.namespaces.selector.matchLabels must be a map of strings; \
             listener odd: unknown allowedRoutes.namespaces.from \"Sometimes\"; \
             listener tcp: does not allow HTTPRoute routes; \
             listener host: hostname a.example matches none of the route's hostnames)",
        ),
        (
            "named-missing",
            "spec.parentRefs[0]: Gateway infra/strict has no listener named missing",
        ),
        (
            "named-same",
            "spec.parentRefs[0]: no listener of Gateway infra/strict admits this route (\
             listener same: allows routes from namespace infra only)",
        ),
        (
            "no-such-port",
            "spec.parentRefs[0]: no listener of Gateway infra/strict admits this route",
        ),
    ]
    .map(|(name, message)| (name.to_string(), message.to_string()));
    assert_eq!(refused, expected);
}

//! Offline answers about one object or one policy are computed on the input narrowed to
//! the namespaces they can depend on (`kubectl_policies::focus`). They must equal the
//! answers computed on the whole input; `common::world` checks that on every scenario,
//! these tests on inputs where much is set aside.

use crate::common::{assert_narrowed_matches_full, world};
use kubectl_policies::focus::narrow;
use kubectl_policies::model::ObjRef;
use kubectl_policies::source::files::{load_text, Loaded};

/// Every link that crosses namespaces: a route in `shop` on a Gateway in `infra` and
/// a ListenerSet in `edge`, with its backend in `backends` (let in by a grant); a mesh
/// route in `mesh` whose parent is that Service; Namespace-level policies; a policy in
/// `ops` on the GatewayClass and one naming a route across namespaces; a Direct
/// conflict in `other`; and `lonely`, linked to nothing.
const CROSSINGS: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: retrypolicies.example.io
  labels: {gateway.networking.k8s.io/policy: inherited}
spec: {group: example.io, names: {kind: RetryPolicy, plural: retrypolicies}, scope: Namespaced}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
spec: {controllerName: example.com/c}
---
apiVersion: v1
kind: Namespace
metadata: {name: shop, labels: {team: a}}
---
apiVersion: v1
kind: Namespace
metadata: {name: other, labels: {team: a}}
---
apiVersion: v1
kind: Namespace
metadata: {name: lonely}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: gc
  allowedListeners: {namespaces: {from: All}}
  listeners:
  - name: http
    port: 80
    protocol: HTTP
    allowedRoutes: {namespaces: {from: Selector, selector: {matchLabels: {team: a}}}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: extra, namespace: edge}
spec:
  parentRef: {name: gw, namespace: infra}
  listeners:
  - name: extra
    port: 8080
    protocol: HTTP
    allowedRoutes: {namespaces: {from: All}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  parentRefs:
  - {name: gw, namespace: infra, sectionName: http}
  - {kind: ListenerSet, name: extra, namespace: edge}
  rules:
  - name: cart
    backendRefs: [{name: cart, namespace: backends, port: 80}]
  - name: home
    backendRefs: [{name: home, port: 80}]
---
apiVersion: v1
kind: Service
metadata: {name: home, namespace: shop}
---
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: let-shop-in, namespace: backends}
spec:
  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: shop}]
  to: [{group: "", kind: Service}]
---
apiVersion: v1
kind: Service
metadata: {name: cart, namespace: backends}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: calls, namespace: mesh}
spec:
  parentRefs: [{group: "", kind: Service, name: cart, namespace: backends}]
  rules: [{backendRefs: [{name: cart, namespace: backends, port: 80}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: other, namespace: other}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules: [{backendRefs: [{name: svc, port: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: other}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: alone, namespace: lonely}
spec:
  parentRefs: [{name: nowhere}]
  rules: [{backendRefs: [{name: solo, port: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: solo, namespace: lonely}
---
apiVersion: example.io/v1
kind: RetryPolicy
metadata: {name: class-wide, namespace: ops, creationTimestamp: "2025-01-01T00:00:00Z"}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: GatewayClass, name: gc}
  override: {attempts: 1}
---
apiVersion: example.io/v1
kind: RetryPolicy
metadata: {name: gw-retries, namespace: infra, creationTimestamp: "2025-02-01T00:00:00Z"}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: http}
  default: {attempts: 2, backoff: 1s}
---
apiVersion: example.io/v1
kind: RetryPolicy
metadata: {name: ns-retries, namespace: shop, creationTimestamp: "2025-03-01T00:00:00Z"}
spec:
  targetRef: {group: "", kind: Namespace, name: shop}
  default: {attempts: 3, timeout: 5s}
---
apiVersion: example.io/v1
kind: RetryPolicy
metadata: {name: ns-retries, namespace: backends, creationTimestamp: "2025-03-01T00:00:00Z"}
spec:
  targetRef: {group: "", kind: Namespace, name: backends}
  default: {attempts: 4}
---
apiVersion: example.io/v1
kind: RetryPolicy
metadata: {name: from-afar, namespace: ops, creationTimestamp: "2025-04-01T00:00:00Z"}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop, namespace: shop, sectionName: cart}
  default: {timeout: 9s}
---
apiVersion: example.io/v1
kind: RetryPolicy
metadata: {name: lonely-retries, namespace: lonely}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: alone}
  default: {attempts: 9}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: cart-tls, namespace: backends, creationTimestamp: "2025-01-01T00:00:00Z"}
spec:
  targetRefs: [{group: "", kind: Service, name: cart}]
  validation: {hostname: cart.example.com, wellKnownCACertificates: System}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: svc-tls-old, namespace: other, creationTimestamp: "2025-01-01T00:00:00Z"}
spec:
  targetRefs: [{group: "", kind: Service, name: svc}]
  validation: {hostname: old.example.com, wellKnownCACertificates: System}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: svc-tls-new, namespace: other, creationTimestamp: "2025-06-01T00:00:00Z"}
spec:
  targetRefs: [{group: "", kind: Service, name: svc}]
  validation: {hostname: new.example.com, wellKnownCACertificates: System}
"#;

fn kept(yaml: &str, focus: &ObjRef) -> Vec<String> {
    let mut loaded = Loaded::default();
    load_text(yaml, "<literal>", &mut loaded).unwrap();
    let catalog = kubectl_policies::catalog::Catalog::build(&loaded.snapshot.objects, &[]);
    narrow(&mut loaded.snapshot, &loaded.links, &catalog, focus);
    let mut names: Vec<String> = loaded
        .snapshot
        .objects
        .iter()
        .filter_map(|o| {
            let ns = o.namespace.as_deref()?;
            Some(format!("{}/{ns}/{}", o.kind, o.name))
        })
        .collect();
    names.sort();
    names
}

#[test]
fn every_answer_on_the_crossings_equals_the_whole_inputs() {
    let w = world(CROSSINGS);
    let narrowed = assert_narrowed_matches_full(CROSSINGS, &w);
    assert!(narrowed > 10, "only {narrowed} answers set anything aside");
}

#[test]
fn every_answer_on_the_demo_equals_the_whole_inputs() {
    let yaml = kubectl_policies::source::demo::DEMO_YAML;
    let w = world(yaml);
    let narrowed = assert_narrowed_matches_full(yaml, &w);
    assert!(narrowed > 0, "the demo's answers set nothing aside");
}

#[test]
fn a_route_keeps_its_ancestors_children_and_the_policies_from_afar() {
    let route = ObjRef::new(
        "gateway.networking.k8s.io",
        "HTTPRoute",
        Some("shop"),
        "shop",
    );
    let got = kept(CROSSINGS, &route);
    // shop's backends are in backends, where the mesh route's parent is too; up from
    // there: infra, edge and mesh. Not other or lonely, but the policies in ops that
    // target the GatewayClass and the route.
    for want in [
        "HTTPRoute/shop/shop",
        "Service/backends/cart",
        "ReferenceGrant/backends/let-shop-in",
        "Gateway/infra/gw",
        "ListenerSet/edge/extra",
        "RetryPolicy/ops/class-wide",
        "RetryPolicy/ops/from-afar",
        "RetryPolicy/shop/ns-retries",
    ] {
        assert!(
            got.contains(&want.to_string()),
            "{want} missing from {got:?}"
        );
    }
    for gone in [
        "HTTPRoute/other/other",
        "Service/other/svc",
        "BackendTLSPolicy/other/svc-tls-old",
        "HTTPRoute/lonely/alone",
        "RetryPolicy/lonely/lonely-retries",
    ] {
        assert!(!got.contains(&gone.to_string()), "{gone} kept: {got:?}");
    }
}

#[test]
fn a_namespace_policy_keeps_what_lies_below_and_above_its_namespace() {
    let policy = ObjRef::new(
        "example.io",
        "RetryPolicy",
        Some("lonely"),
        "lonely-retries",
    );
    assert_eq!(
        kept(CROSSINGS, &policy),
        [
            "HTTPRoute/lonely/alone",
            "RetryPolicy/lonely/lonely-retries",
            "RetryPolicy/ops/class-wide",
            "Service/lonely/solo",
        ]
    );
}

#[test]
fn nothing_is_set_aside_for_a_gatewayclass_policy_or_an_unknown_object() {
    let all = kept(CROSSINGS, &ObjRef::new("", "Namespace", None, "x"));
    let class_wide = ObjRef::new("example.io", "RetryPolicy", Some("ops"), "class-wide");
    assert_eq!(kept(CROSSINGS, &class_wide), all);
    let missing = ObjRef::new(
        "gateway.networking.k8s.io",
        "HTTPRoute",
        Some("shop"),
        "nope",
    );
    assert_eq!(kept(CROSSINGS, &missing), all);
}

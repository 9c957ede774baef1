//! GEP-713 "End-to-end examples" 1–3 and the "Abstract process" example, with
//! Gateway = g, HTTPRoute = r, Service = b (the GEP's Backend).

mod common;
use common::*;
use kubectl_policies::effective::PolicyStatus::*;
use serde_json::json;

fn color() -> kubectl_policies::model::GroupKind {
    gk("example.io", "ColorPolicy")
}

fn policy(name: &str, ts: &str, kind: &str, target: &str, spec: &str) -> String {
    format!(
        "---\napiVersion: example.io/v1\nkind: ColorPolicy\nmetadata: {{name: {name}, namespace: default, creationTimestamp: \"{ts}\"}}\nspec:\n  targetRef: {{group: {group}, kind: {kind}, name: {target}}}\n{spec}\n",
        group = if kind == "Service" { "\"\"" } else { "gateway.networking.k8s.io" }
    )
}

#[test]
fn example_1_direct_policy_oldest_wins() {
    let crd = DIRECT_COLOR_CRD;
    let yaml = [
        TOPOLOGY,
        crd,
        &policy(
            "p1",
            "2026-01-01T00:00:00Z",
            "Service",
            "b1",
            "  color: red",
        ),
        &policy(
            "p2",
            "2026-01-02T00:00:00Z",
            "Service",
            "b1",
            "  color: blue",
        ),
    ]
    .concat();
    let w = world(&yaml);
    let b1 = node(&w, "Service", Some("default"), "b1", None);
    let b2 = node(&w, "Service", Some("default"), "b2", None);
    // All traffic to b1 is red, whatever the path.
    let eff = effective(&w, &color(), b1);
    assert_eq!(eff.len(), 3);
    assert!(
        eff.iter().all(|(_, spec)| *spec == json!({"color": "red"})),
        "{eff:?}"
    );
    // b2 is affected by no policy.
    assert!(effective(&w, &color(), b2).is_empty());
    assert_eq!(status(&w, "p1"), Enforced);
    assert_eq!(status(&w, "p2"), Conflicted);
    // A Direct policy does not flow down: nothing reaches the routes above b1.
    let r1 = node(&w, "HTTPRoute", Some("default"), "r1", None);
    assert!(effective(&w, &color(), r1).is_empty());
}

#[test]
fn example_2_defaults_and_overrides() {
    let yaml = [
        TOPOLOGY,
        &policy(
            "p1",
            "2026-01-01T00:00:00Z",
            "Gateway",
            "g1",
            "  color: red",
        ),
        &policy(
            "p2",
            "2026-01-01T00:00:00Z",
            "HTTPRoute",
            "r1",
            "  color: blue",
        ),
        &policy(
            "p3",
            "2026-01-01T00:00:00Z",
            "Gateway",
            "g2",
            "  overrides: {color: yellow}",
        ),
        &policy(
            "p4",
            "2026-01-01T00:00:00Z",
            "HTTPRoute",
            "r4",
            "  color: green",
        ),
    ]
    .concat();
    let w = world(&yaml);
    let b1 = node(&w, "Service", Some("default"), "b1", None);
    let b2 = node(&w, "Service", Some("default"), "b2", None);
    assert_eq!(
        effective(&w, &color(), b1),
        vec![
            (
                "gc>g1>r1>r1#rule-1>b1".to_string(),
                json!({"color": "blue"})
            ),
            ("gc>g1>r2>r2#rule-1>b1".to_string(), json!({"color": "red"})),
            (
                "gc>g2>r3>r3#rule-1>b1".to_string(),
                json!({"color": "yellow"})
            ),
        ]
    );
    assert_eq!(
        effective(&w, &color(), b2),
        vec![(
            "gc>g2>r4>r4#rule-1>b2".to_string(),
            json!({"color": "yellow"})
        )]
    );
    assert_eq!(status(&w, "p1"), PartiallyEnforced);
    assert_eq!(status(&w, "p2"), Enforced);
    assert_eq!(status(&w, "p3"), Enforced);
    assert_eq!(status(&w, "p4"), Overridden);
}

#[test]
fn example_3_merged_specs() {
    let yaml = [
        TOPOLOGY,
        &policy(
            "p1",
            "2026-01-01T00:00:00Z",
            "Gateway",
            "g1",
            "  colors: {dark: brown, light: red}\n  strategy: atomic",
        ),
        &policy(
            "p2",
            "2026-01-01T00:00:00Z",
            "HTTPRoute",
            "r1",
            "  colors: {light: blue}",
        ),
        &policy(
            "p3",
            "2026-01-01T00:00:00Z",
            "Gateway",
            "g2",
            "  overrides: {colors: {light: yellow}, strategy: patch}",
        ),
        &policy(
            "p4",
            "2026-01-01T00:00:00Z",
            "HTTPRoute",
            "r4",
            "  colors: {dark: olive, light: green}",
        ),
    ]
    .concat();
    let w = world(&yaml);
    let b1 = node(&w, "Service", Some("default"), "b1", None);
    let b2 = node(&w, "Service", Some("default"), "b2", None);
    assert_eq!(
        effective(&w, &color(), b1),
        vec![
            (
                "gc>g1>r1>r1#rule-1>b1".to_string(),
                json!({"colors": {"light": "blue"}})
            ),
            (
                "gc>g1>r2>r2#rule-1>b1".to_string(),
                json!({"colors": {"dark": "brown", "light": "red"}})
            ),
            (
                "gc>g2>r3>r3#rule-1>b1".to_string(),
                json!({"colors": {"light": "yellow"}})
            ),
        ]
    );
    assert_eq!(
        effective(&w, &color(), b2),
        vec![(
            "gc>g2>r4>r4#rule-1>b2".to_string(),
            json!({"colors": {"dark": "olive", "light": "yellow"}})
        )]
    );
    // Per-field sources: dark from p4, light from p3.
    assert_eq!(
        sources(&w, &color(), b2),
        vec![
            ("/colors/dark".into(), "p4".into()),
            ("/colors/light".into(), "p3".into())
        ]
    );
    assert_eq!(status(&w, "p1"), PartiallyEnforced);
    assert_eq!(status(&w, "p2"), Enforced);
    assert_eq!(status(&w, "p3"), Enforced);
    assert_eq!(status(&w, "p4"), PartiallyEnforced);
}

#[test]
fn abstract_process_a1_b1_b2_c1_c2() {
    // a1 > (b1 > c1, b2 > (c1, c2)); p1 → a1, p2 → b2. Patch defaults make the
    // combination p1 + p2 visible field by field.
    let yaml = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: a1, namespace: default}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: b1, namespace: default}
spec: {parentRefs: [{name: a1}], rules: [{name: only, backendRefs: [{name: c1}]}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: b2, namespace: default}
spec: {parentRefs: [{name: a1}], rules: [{name: only, backendRefs: [{name: c1}, {name: c2}]}]}
---
apiVersion: v1
kind: Service
metadata: {name: c1, namespace: default}
---
apiVersion: v1
kind: Service
metadata: {name: c2, namespace: default}
---
apiVersion: example.io/v1
kind: ColorPolicy
metadata: {name: p1, namespace: default}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: a1}
  defaults: {strategy: patch, hue: red, shade: dark}
---
apiVersion: example.io/v1
kind: ColorPolicy
metadata: {name: p2, namespace: default}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: b2}
  shade: light
"#;
    let w = world(yaml);
    let c1 = node(&w, "Service", Some("default"), "c1", None);
    let c2 = node(&w, "Service", Some("default"), "c2", None);
    assert_eq!(
        effective(&w, &color(), c1),
        vec![
            (
                "a1>b1>b1#only>c1".to_string(),
                json!({"hue": "red", "shade": "dark"})
            ),
            (
                "a1>b2>b2#only>c1".to_string(),
                json!({"hue": "red", "shade": "light"})
            ),
        ]
    );
    assert_eq!(
        effective(&w, &color(), c2),
        vec![(
            "a1>b2>b2#only>c2".to_string(),
            json!({"hue": "red", "shade": "light"})
        )]
    );
}

#[test]
fn contexts_with_the_same_result_are_grouped() {
    let yaml = [
        TOPOLOGY,
        &policy(
            "p1",
            "2026-01-01T00:00:00Z",
            "Gateway",
            "g1",
            "  color: red",
        ),
    ]
    .concat();
    let w = world(&yaml);
    let b1 = node(&w, "Service", Some("default"), "b1", None);
    let mut f = kubectl_policies::effective::KindFold::new(&w.t, &color());
    let groups = f.effective_at(b1);
    // Two paths through g1 give red: one group with both contexts.
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0].contexts.len(), 2);
}

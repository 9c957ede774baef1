//! GEP-713 "End-to-end examples" 1–3 and the "Abstract process" example, with
//! Gateway = g, HTTPRoute = r, Service = b (the GEP's Backend).

use crate::common::*;
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
    let mut f = kubectl_policies::effective::KindFold::new(&w.topology, &color());
    let groups = f.effective_at(b1);
    // Two paths through g1 give red: one group with both contexts.
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0].contexts.len(), 2);
}

// -------------------------------------------------------------- peer test suites
//
// The merge tests of the GEP-713 memorandum authors' reference library
// (Kuadrant/policy-machinery, "P" cases) and gwctl's policy tests ("G" cases),
// re-created on our own fixtures. Where a peer's answer differs from GEP-713's current
// text (gwctl's same-level order, policy-machinery's empty atomic override), the case
// holds our answer and says what the peer prints.

/// A Gateway `gw` with one listener, routes `r1` and `r2` (two unnamed rules each:
/// `rule-1`, `rule-2`) to Service `svc`, all in `default`.
const HOUSE: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: default}
spec: {gatewayClassName: gc, listeners: [{name: http, port: 80, protocol: HTTP}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r1, namespace: default}
spec: {parentRefs: [{name: gw}], rules: [{backendRefs: [{name: svc, port: 80}]}, {backendRefs: [{name: svc, port: 80}]}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r2, namespace: default}
spec: {parentRefs: [{name: gw}], rules: [{backendRefs: [{name: svc, port: 80}]}, {backendRefs: [{name: svc, port: 80}]}]}
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: default}
spec: {ports: [{name: http, port: 80}]}
"#;

/// A ColorPolicy on `target` (`gw`, `r1`, `r1#rule-1`...), its spec lines as given.
fn color_on(name: &str, target: &str, spec: &str) -> String {
    let (kind, obj, section) = match target.split_once('#') {
        Some((o, s)) => ("HTTPRoute", o, format!(", sectionName: {s}")),
        None if target == "gw" => ("Gateway", target, String::new()),
        None => ("HTTPRoute", target, String::new()),
    };
    format!(
        "---\napiVersion: example.io/v1\nkind: ColorPolicy\nmetadata: {{name: {name}, namespace: default}}\nspec:\n  targetRef: {{group: gateway.networking.k8s.io, kind: {kind}, name: {obj}{section}}}\n{spec}\n"
    )
}

/// The effective ColorPolicy at a rule of a route (its one context there).
fn at_rule(w: &kubectl_policies::query::World, route: &str, rule: &str) -> serde_json::Value {
    let n = node(w, "HTTPRoute", Some("default"), route, Some(rule));
    let eff = effective(w, &color(), n);
    assert_eq!(eff.len(), 1, "{route}#{rule}: {eff:?}");
    eff[0].1.clone()
}

#[test]
fn policy_machinery_p1_to_p12_and_pj1_to_pj6_one_join_each() {
    // The Gateway's policy is the source (established), the route's the target
    // (challenger): {rule-1: blue, rule-2: red} joining an empty target, a disjoint
    // one and a conflicting one, with each strategy.
    let targets = [
        ("empty", ""),
        ("disjoint", "  rule-3: green\n"),
        ("conflict", "  rule-1: yellow\n  rule-3: green\n"),
    ];
    let source = json!({"rule-1": "blue", "rule-2": "red"});
    let cases = [
        // (family, how, target, expected)
        ("defaults", "atomic", "empty", source.clone()),
        ("defaults", "atomic", "disjoint", json!({"rule-3": "green"})),
        (
            "defaults",
            "atomic",
            "conflict",
            json!({"rule-1": "yellow", "rule-3": "green"}),
        ),
        ("overrides", "atomic", "empty", source.clone()),
        ("overrides", "atomic", "disjoint", source.clone()),
        ("overrides", "atomic", "conflict", source.clone()),
        ("defaults", "merge", "empty", source.clone()),
        (
            "defaults",
            "merge",
            "disjoint",
            json!({"rule-1": "blue", "rule-2": "red", "rule-3": "green"}),
        ),
        (
            "defaults",
            "merge",
            "conflict",
            json!({"rule-1": "yellow", "rule-2": "red", "rule-3": "green"}),
        ),
        ("overrides", "merge", "empty", source.clone()),
        (
            "overrides",
            "merge",
            "disjoint",
            json!({"rule-1": "blue", "rule-2": "red", "rule-3": "green"}),
        ),
        (
            "overrides",
            "merge",
            "conflict",
            json!({"rule-1": "blue", "rule-2": "red", "rule-3": "green"}),
        ),
        ("defaults", "patch", "empty", source.clone()),
        (
            "defaults",
            "patch",
            "disjoint",
            json!({"rule-1": "blue", "rule-2": "red", "rule-3": "green"}),
        ),
        (
            "defaults",
            "patch",
            "conflict",
            json!({"rule-1": "yellow", "rule-2": "red", "rule-3": "green"}),
        ),
        ("overrides", "patch", "empty", source.clone()),
        (
            "overrides",
            "patch",
            "disjoint",
            json!({"rule-1": "blue", "rule-2": "red", "rule-3": "green"}),
        ),
        (
            "overrides",
            "patch",
            "conflict",
            json!({"rule-1": "blue", "rule-2": "red", "rule-3": "green"}),
        ),
    ];
    for (family, how, target, want) in cases {
        let spec = targets.iter().find(|t| t.0 == target).unwrap().1;
        let yaml = [
            HOUSE,
            &color_on(
                "source",
                "gw",
                &format!("  {family}: {{strategy: {how}, rule-1: blue, rule-2: red}}"),
            ),
            &color_on("target", "r1", spec),
        ]
        .concat();
        let w = world(&yaml);
        assert_eq!(
            at_rule(&w, "r1", "rule-1"),
            want,
            "{family} {how} over {target}"
        );
    }
}

#[test]
fn policy_machinery_p13_house_colours_by_rule_key() {
    let yaml = [
        HOUSE,
        &color_on(
            "gw-colors",
            "gw",
            "  defaults: {strategy: atomic, walls: black, doors: blue}",
        ),
        &color_on(
            "r1-colors",
            "r1",
            "  overrides: {strategy: merge, walls: green, roof: orange}",
        ),
        &color_on(
            "r1-rule-1-colors",
            "r1#rule-1",
            "  roof: purple\n  floor: red",
        ),
        &color_on(
            "r2-rule-1-colors",
            "r2#rule-1",
            "  walls: white\n  floor: yellow",
        ),
    ]
    .concat();
    let w = world(&yaml);
    assert_eq!(
        at_rule(&w, "r1", "rule-1"),
        json!({"walls": "green", "roof": "orange", "floor": "red"})
    );
    assert_eq!(
        at_rule(&w, "r1", "rule-2"),
        json!({"walls": "green", "roof": "orange"})
    );
    assert_eq!(
        at_rule(&w, "r2", "rule-1"),
        json!({"walls": "white", "floor": "yellow"})
    );
    assert_eq!(
        at_rule(&w, "r2", "rule-2"),
        json!({"walls": "black", "doors": "blue"})
    );
    assert_eq!(status(&w, "gw-colors"), PartiallyEnforced);
    assert_eq!(status(&w, "r1-colors"), Enforced);
    assert_eq!(status(&w, "r1-rule-1-colors"), PartiallyEnforced);
    assert_eq!(status(&w, "r2-rule-1-colors"), Enforced);
}

#[test]
fn policy_machinery_p14_house_colours_by_json_merge_patch() {
    let yaml = [
        HOUSE,
        &color_on(
            "gw-colors",
            "gw",
            "  defaults: {strategy: patch, walls: black, doors: blue}",
        ),
        &color_on(
            "r1-colors",
            "r1",
            "  overrides: {strategy: patch, walls: green, roof: orange}",
        ),
        &color_on(
            "r1-rule-1-colors",
            "r1#rule-1",
            "  defaults: {strategy: patch, roof: purple, floor: red}",
        ),
        &color_on(
            "r2-rule-1-colors",
            "r2#rule-1",
            "  defaults: {strategy: patch, walls: white, floor: yellow}",
        ),
    ]
    .concat();
    let w = world(&yaml);
    let rule = |r, s| at_rule(&w, r, s);
    assert_eq!(
        rule("r1", "rule-1"),
        json!({"walls": "green", "doors": "blue", "roof": "orange", "floor": "red"})
    );
    assert_eq!(
        rule("r1", "rule-2"),
        json!({"walls": "green", "doors": "blue", "roof": "orange"})
    );
    assert_eq!(
        rule("r2", "rule-1"),
        json!({"walls": "white", "doors": "blue", "floor": "yellow"})
    );
    assert_eq!(
        rule("r2", "rule-2"),
        json!({"walls": "black", "doors": "blue"})
    );
    assert_eq!(status(&w, "gw-colors"), PartiallyEnforced);
    assert_eq!(status(&w, "r1-colors"), Enforced);
    assert_eq!(status(&w, "r1-rule-1-colors"), PartiallyEnforced);
    assert_eq!(status(&w, "r2-rule-1-colors"), Enforced);
}

#[test]
fn policy_machinery_p15_same_level_the_older_is_established() {
    let two = |a: &str, b: &str| {
        [
            HOUSE,
            &color_on("p-old", "gw", a).replace(
                "namespace: default}",
                "namespace: default, creationTimestamp: \"2026-01-01T00:00:00Z\"}",
            ),
            &color_on("p-new", "gw", b).replace(
                "namespace: default}",
                "namespace: default, creationTimestamp: \"2026-02-01T00:00:00Z\"}",
            ),
        ]
        .concat()
    };
    let at = |yaml: String| at_rule(&world(&yaml), "r1", "rule-1");
    assert_eq!(
        at(two("  defaults: {x: 1}", "  defaults: {x: 2}")),
        json!({"x": 2})
    );
    assert_eq!(
        at(two("  overrides: {x: 1}", "  overrides: {x: 2}")),
        json!({"x": 1})
    );
    assert_eq!(
        at(two(
            "  defaults: {strategy: merge, a: 1, b: 1}",
            "  defaults: {strategy: merge, b: 2, c: 2}"
        )),
        json!({"a": 1, "b": 2, "c": 2})
    );
    assert_eq!(
        at(two(
            "  overrides: {strategy: merge, a: 1, b: 1}",
            "  overrides: {strategy: merge, b: 2, c: 2}"
        )),
        json!({"a": 1, "b": 1, "c": 2})
    );
    // Same timestamp: `default/alpha` sorts first and is established.
    let tie = [
        HOUSE,
        &color_on("beta", "gw", "  defaults: {x: beta}"),
        &color_on("alpha", "gw", "  defaults: {x: alpha}"),
    ]
    .concat();
    assert_eq!(at(tie), json!({"x": "beta"}));
}

#[test]
fn policy_machinery_p16_an_override_above_two_defaults_holds() {
    let yaml = [
        HOUSE,
        &color_on("a", "gw", "  overrides: {x: 1}"),
        &color_on("b", "r1", "  defaults: {x: 2}"),
        &color_on("c", "r1#rule-1", "  x: 3"),
    ]
    .concat();
    let w = world(&yaml);
    assert_eq!(at_rule(&w, "r1", "rule-1"), json!({"x": 1}));
    assert_eq!(at_rule(&w, "r1", "rule-2"), json!({"x": 1}));
    assert_eq!(
        (status(&w, "a"), status(&w, "b"), status(&w, "c")),
        (Enforced, Overridden, Overridden)
    );
    let keyed = [
        HOUSE,
        &color_on("a", "gw", "  overrides: {strategy: merge, x: 1}"),
        &color_on("b", "r1", "  defaults: {strategy: merge, x: 2, y: 2}"),
        &color_on(
            "c",
            "r1#rule-1",
            "  defaults: {strategy: merge, x: 3, z: 3}",
        ),
    ]
    .concat();
    let w = world(&keyed);
    assert_eq!(at_rule(&w, "r1", "rule-1"), json!({"x": 1, "y": 2, "z": 3}));
    assert_eq!(
        (status(&w, "a"), status(&w, "b"), status(&w, "c")),
        (Enforced, PartiallyEnforced, PartiallyEnforced)
    );
}

#[test]
fn policy_machinery_p17_empty_policies_contribute_nothing() {
    let at = |gw: &str, route: &str| {
        let yaml = [HOUSE, &color_on("g", "gw", gw), &color_on("r", "r1", route)].concat();
        at_rule(&world(&yaml), "r1", "rule-1")
    };
    assert_eq!(at("  defaults: {x: 1}", ""), json!({"x": 1}));
    // policy-machinery's atomic override of no rules would wipe the route's; an empty
    // stanza states no intent here.
    assert_eq!(at("  overrides: {}", "  x: 2"), json!({"x": 2}));
    assert_eq!(
        at("  overrides: {strategy: merge}", "  x: 2"),
        json!({"x": 2})
    );
    assert_eq!(
        at(
            "  defaults: {strategy: patch, x: 1, y: 1}",
            "  defaults: {strategy: patch}"
        ),
        json!({"x": 1, "y": 1})
    );
}

/// gwctl's kinds: an inherited HealthCheckPolicy and a Direct TimeoutPolicy (CRD labels).
const GWCTL_CRDS: &str = r#"
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: healthcheckpolicies.foo.com, labels: {gateway.networking.k8s.io/policy: inherited}}
spec: {group: foo.com, scope: Namespaced, names: {kind: HealthCheckPolicy, plural: healthcheckpolicies}}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: timeoutpolicies.bar.com, labels: {gateway.networking.k8s.io/policy: direct}}
spec: {group: bar.com, scope: Namespaced, names: {kind: TimeoutPolicy, plural: timeoutpolicies}}
"#;

fn gwctl_policy(kind: &str, name: &str, ts: Option<&str>, target: &str, spec: &str) -> String {
    let group = if kind == "HealthCheckPolicy" {
        "foo.com"
    } else {
        "bar.com"
    };
    let (tgroup, tkind, tname) = match target.split_once('/') {
        Some(("Namespace", n)) => ("\"\"", "Namespace", n),
        Some(("GatewayClass", n)) => ("gateway.networking.k8s.io", "GatewayClass", n),
        Some((k, n)) => ("gateway.networking.k8s.io", k, n),
        None => panic!("Kind/name"),
    };
    let ts = ts
        .map(|t| format!(", creationTimestamp: \"{t}\""))
        .unwrap_or_default();
    format!(
        "---\napiVersion: {group}/v1\nkind: {kind}\nmetadata: {{name: {name}, namespace: default{ts}}}\nspec:\n  targetRef: {{group: {tgroup}, kind: {tkind}, name: {tname}}}\n{spec}\n"
    )
}

#[test]
fn gwctl_g1_same_level_policies_by_the_memorandum() {
    // gwctl merges these to key1 f, key2 d, key4 e (the older one's defaults win, the
    // newer one's overrides): both halves reversed from GEP-713's current text, where
    // the older policy is established (its overrides win, the newer one's defaults).
    let yaml = [
        HOUSE,
        GWCTL_CRDS,
        &gwctl_policy(
            "HealthCheckPolicy",
            "health-check-1",
            Some("2026-01-01T00:00:00Z"),
            "Namespace/default",
            "  override: {key1: a, key3: b}\n  default: {key2: d, key4: e, key5: c}",
        ),
        &gwctl_policy(
            "HealthCheckPolicy",
            "health-check-2",
            Some("2026-02-01T00:00:00Z"),
            "Namespace/default",
            "  override: {key1: f}\n  default: {key2: i, key4: j}",
        ),
        &gwctl_policy(
            "TimeoutPolicy",
            "timeout-policy-1",
            None,
            "Namespace/default",
            "  condition: path=/def\n  seconds: 30",
        ),
        &gwctl_policy(
            "TimeoutPolicy",
            "timeout-policy-2",
            None,
            "Namespace/default",
            "  condition: path=/abc\n  seconds: 60",
        ),
    ]
    .concat();
    let w = world(&yaml);
    let r1 = node(&w, "HTTPRoute", Some("default"), "r1", None);
    let hc = effective(&w, &gk("foo.com", "HealthCheckPolicy"), r1);
    assert_eq!(
        hc[0].1,
        json!({"key1": "a", "key2": "i", "key3": "b", "key4": "j", "key5": "c"})
    );
    assert_eq!(status(&w, "health-check-1"), PartiallyEnforced);
    assert_eq!(status(&w, "health-check-2"), PartiallyEnforced);
    // Direct, same target, no timestamps: the first by namespace/name wins.
    assert_eq!(status(&w, "timeout-policy-1"), Enforced);
    assert_eq!(status(&w, "timeout-policy-2"), Conflicted);
}

#[test]
fn gwctl_g2_to_g4_parent_and_child_stanzas_per_field() {
    let case = |parent: &str, child: &str, child_kind: &str| {
        let yaml = [
            HOUSE,
            GWCTL_CRDS,
            &gwctl_policy("HealthCheckPolicy", "parent", None, "Gateway/gw", parent),
            &gwctl_policy(child_kind, "child", None, "HTTPRoute/r1", child),
        ]
        .concat();
        let w = world(&yaml);
        let r1 = node(&w, "HTTPRoute", Some("default"), "r1", None);
        let eff = |kind: &str, group: &str| {
            effective(&w, &gk(group, kind), r1)
                .first()
                .map(|e| e.1.clone())
        };
        (
            eff("HealthCheckPolicy", "foo.com"),
            eff("TimeoutPolicy", "bar.com"),
            status(&w, "parent"),
            status(&w, "child"),
        )
    };
    // G2: both with override and default.
    let (hc, _, p, c) = case(
        "  override: {key1: P1, key2: P2}\n  default: {key4: P4, key5: P5}",
        "  override: {key1: C1, key3: C3}\n  default: {key4: C4, key6: C6}",
        "HealthCheckPolicy",
    );
    assert_eq!(
        hc,
        Some(
            json!({"key1": "P1", "key2": "P2", "key3": "C3", "key4": "C4", "key5": "P5", "key6": "C6"})
        )
    );
    assert_eq!((p, c), (PartiallyEnforced, PartiallyEnforced));
    // G3: parent defaults only, child overrides only: nothing is wiped.
    let (hc, _, p, c) = case(
        "  default: {key4: P4, key5: P5}",
        "  override: {key1: C1, key3: C3}",
        "HealthCheckPolicy",
    );
    assert_eq!(
        hc,
        Some(json!({"key1": "C1", "key3": "C3", "key4": "P4", "key5": "P5"}))
    );
    assert_eq!((p, c), (Enforced, Enforced));
    // G4: kinds never interact.
    let (hc, timeout, p, c) = case(
        "  override: {key1: a, key3: b}\n  default: {key2: d, key4: e, key5: c}",
        "  condition: path=/x\n  key1: childValue1",
        "TimeoutPolicy",
    );
    assert_eq!(
        hc,
        Some(json!({"key1": "a", "key2": "d", "key3": "b", "key4": "e", "key5": "c"}))
    );
    assert_eq!(
        timeout,
        Some(json!({"condition": "path=/x", "key1": "childValue1"}))
    );
    assert_eq!((p, c), (Enforced, Enforced));
}

#[test]
fn gwctl_g5_and_g7_gateway_class_gateway_route_and_a_direct_namespace_policy() {
    let yaml = [
        "apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata: {name: gc}\n---\n",
        HOUSE,
        GWCTL_CRDS,
        &gwctl_policy("HealthCheckPolicy", "health-check-gatewayclass", None, "GatewayClass/gc",
            "  override: {key1: parent-1, key3: parent-3, key5: parent-5}\n  default: {key2: parent-2, key4: parent-4}"),
        &gwctl_policy("HealthCheckPolicy", "health-check-gateway", None, "Gateway/gw",
            "  override: {key1: child-1}\n  default: {key2: child-2, key5: child-5}"),
        &gwctl_policy("HealthCheckPolicy", "health-check-route", None, "HTTPRoute/r1",
            "  default: {key1: route-1, key2: route-2}"),
        &gwctl_policy("TimeoutPolicy", "timeout-policy-namespace", None, "Namespace/default",
            "  condition: path=/abc\n  seconds: 30"),
    ]
    .concat();
    let w = world(&yaml);
    let hc = gk("foo.com", "HealthCheckPolicy");
    let gw = node(&w, "Gateway", Some("default"), "gw", None);
    assert_eq!(
        effective(&w, &hc, gw)[0].1,
        json!({"key1": "parent-1", "key2": "child-2", "key3": "parent-3", "key4": "parent-4", "key5": "parent-5"})
    );
    // G7: at the Service, the class's and Gateway's overrides beat the route's default.
    let svc = node(&w, "Service", Some("default"), "svc", None);
    let at_svc: Vec<_> = effective(&w, &hc, svc).into_iter().map(|e| e.1).collect();
    assert!(at_svc.contains(
        &json!({"key1": "parent-1", "key2": "route-2", "key3": "parent-3", "key4": "parent-4", "key5": "parent-5"})
    ), "{at_svc:?}");
    // A Direct policy on the Namespace affects the Namespace only: never the Gateway's
    // effective policies (gwctl's older printer listed it there).
    assert!(effective(&w, &gk("bar.com", "TimeoutPolicy"), gw).is_empty());
    assert_eq!(status(&w, "timeout-policy-namespace"), Enforced);
}

//! blast-radius: what changes when a policy is deleted or objects are applied.

use crate::common::*;
use kubectl_policies::model::ObjRef;
use kubectl_policies::query::blast::{apply_objects, delete_policy, BlastRadius, Change};
use kubectl_policies::query::{Rebuildable, World};
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn policy(name: &str, kind: &str, target: &str, spec: &str) -> String {
    format!(
        "---\napiVersion: example.io/v1\nkind: ColorPolicy\nmetadata: {{name: {name}, namespace: default, creationTimestamp: \"2026-01-01T00:00:00Z\"}}\nspec:\n  targetRef: {{group: {group}, kind: {kind}, name: {target}}}\n{spec}\n",
        group = if kind == "Service" { "\"\"" } else { "gateway.networking.k8s.io" }
    )
}

fn example_2() -> Rebuildable {
    world(
        &[
            TOPOLOGY,
            &policy("p1", "Gateway", "g1", "  color: red"),
            &policy("p2", "HTTPRoute", "r1", "  color: blue"),
            &policy("p3", "Gateway", "g2", "  overrides: {color: yellow}"),
            &policy("p4", "HTTPRoute", "r4", "  color: green"),
        ]
        .concat(),
    )
}

fn pid(w: &World, kind: &str, name: &str) -> kubectl_policies::topology::PolicyId {
    w.topology
        .policies()
        .iter()
        .position(|p| p.obj_ref.kind == kind && p.obj_ref.name == name)
        .map(kubectl_policies::topology::PolicyId::at)
        .unwrap_or_else(|| panic!("no policy {kind} {name}"))
}

fn name_of(r: &ObjRef) -> String {
    match &r.section {
        Some(s) => format!("{}#{s}", r.name),
        None => r.name.to_string(),
    }
}

/// Each change as (target, context, before, after), one row per context, contexts
/// written as names along the path (namespace levels left out).
fn rows(b: &BlastRadius) -> Vec<(String, String, Value, Value)> {
    let mut out = Vec::new();
    for Change {
        target,
        contexts,
        before,
        after,
        ..
    } in &b.changes
    {
        for path in contexts {
            let names: Vec<String> = path
                .iter()
                .filter(|r| r.kind != "Namespace")
                .map(name_of)
                .collect();
            out.push((
                name_of(target),
                names.join(">"),
                before.as_deref().cloned().unwrap_or(Value::Null),
                after.as_deref().cloned().unwrap_or(Value::Null),
            ));
        }
    }
    out
}

fn row(target: &str, ctx: &str, before: Value, after: Value) -> (String, String, Value, Value) {
    (target.to_string(), ctx.to_string(), before, after)
}

fn color(c: &str) -> Value {
    json!({ "color": c })
}

fn by_kind(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
    pairs.iter().map(|(k, n)| (k.to_string(), *n)).collect()
}

#[test]
fn deleting_p1_clears_red_where_nothing_more_specific_sets_a_colour() {
    let w = example_2();
    let b = delete_policy(&w, pid(&w, "ColorPolicy", "p1"), &[]);
    assert_eq!(
        rows(&b),
        vec![
            row("g1", "gc>g1", color("red"), Value::Null),
            row("r2", "gc>g1>r2", color("red"), Value::Null),
            row("r2#rule-1", "gc>g1>r2>r2#rule-1", color("red"), Value::Null),
            row("b1", "gc>g1>r2>r2#rule-1>b1", color("red"), Value::Null),
        ]
    );
    assert_eq!(b.summary.objects, 3);
    assert_eq!(
        b.summary.by_kind,
        by_kind(&[("Gateway", 1), ("HTTPRoute", 1), ("Service", 1)])
    );
    assert_eq!(
        b.headline,
        "Deleting ColorPolicy default/p1 changes the effective ColorPolicy of 1 Gateway, 1 HTTPRoute and 1 Service in 1 namespace (default)"
    );
}

#[test]
fn deleting_p2_turns_r1_and_below_from_blue_to_red() {
    let w = example_2();
    let b = delete_policy(&w, pid(&w, "ColorPolicy", "p2"), &[]);
    assert_eq!(
        rows(&b),
        vec![
            row("r1", "gc>g1>r1", color("blue"), color("red")),
            row(
                "r1#rule-1",
                "gc>g1>r1>r1#rule-1",
                color("blue"),
                color("red")
            ),
            row("b1", "gc>g1>r1>r1#rule-1>b1", color("blue"), color("red")),
        ]
    );
    assert_eq!(
        b.summary.by_kind,
        by_kind(&[("HTTPRoute", 1), ("Service", 1)])
    );
}

#[test]
fn deleting_p3_clears_yellow_below_g2_and_lets_p4_show_green() {
    let w = example_2();
    let b = delete_policy(&w, pid(&w, "ColorPolicy", "p3"), &[]);
    assert_eq!(
        rows(&b),
        vec![
            row("g2", "gc>g2", color("yellow"), Value::Null),
            row("r3", "gc>g2>r3", color("yellow"), Value::Null),
            row(
                "r3#rule-1",
                "gc>g2>r3>r3#rule-1",
                color("yellow"),
                Value::Null
            ),
            row("r4", "gc>g2>r4", color("yellow"), color("green")),
            row(
                "r4#rule-1",
                "gc>g2>r4>r4#rule-1",
                color("yellow"),
                color("green")
            ),
            row("b1", "gc>g2>r3>r3#rule-1>b1", color("yellow"), Value::Null),
            row(
                "b2",
                "gc>g2>r4>r4#rule-1>b2",
                color("yellow"),
                color("green")
            ),
        ]
    );
    assert_eq!(b.summary.objects, 5);
    assert_eq!(
        b.summary.by_kind,
        by_kind(&[("Gateway", 1), ("HTTPRoute", 2), ("Service", 2)])
    );
    assert_eq!(b.summary.namespaces, vec!["default".to_string()]);
}

#[test]
fn deleting_p4_changes_nothing_because_p3_overrides_it() {
    let w = example_2();
    let b = delete_policy(&w, pid(&w, "ColorPolicy", "p4"), &[]);
    assert!(b.changes.is_empty(), "{:?}", b.changes);
    assert_eq!(b.summary.objects, 0);
    assert_eq!(
        b.headline,
        "Deleting ColorPolicy default/p4 changes nothing: it is overridden everywhere it reaches"
    );
    let v = serde_json::to_value(&b).unwrap();
    assert_eq!(v["kind"], "BlastRadius");
    assert_eq!(v["policy"]["name"], "p4");
    assert!(v.get("apply").is_none());
    assert!(v.get("headline").is_none());
    assert_eq!(
        v["summary"],
        json!({"objects": 0, "namespaces": [], "byKind": {}})
    );
}

fn objects(yaml: &str, file: &str) -> Vec<kubectl_policies::model::Object> {
    let mut loaded = kubectl_policies::source::files::Loaded::default();
    kubectl_policies::source::files::load_text(yaml, file, &mut loaded).expect("YAML parses");
    loaded.snapshot.objects
}

#[test]
fn applying_an_override_on_g1_paints_everything_below_it() {
    let w = example_2();
    let p5 = policy("p5", "Gateway", "g1", "  overrides: {color: purple}");
    let b = apply_objects(&w, objects(&p5, "p5.yaml"), vec!["p5.yaml".into()], &[]);
    assert_eq!(
        rows(&b),
        vec![
            row("g1", "gc>g1", color("red"), color("purple")),
            row("r1", "gc>g1>r1", color("blue"), color("purple")),
            row(
                "r1#rule-1",
                "gc>g1>r1>r1#rule-1",
                color("blue"),
                color("purple")
            ),
            row("r2", "gc>g1>r2", color("red"), color("purple")),
            row(
                "r2#rule-1",
                "gc>g1>r2>r2#rule-1",
                color("red"),
                color("purple")
            ),
            row(
                "b1",
                "gc>g1>r1>r1#rule-1>b1",
                color("blue"),
                color("purple")
            ),
            row("b1", "gc>g1>r2>r2#rule-1>b1", color("red"), color("purple")),
        ]
    );
    // b1's two contexts differ before, so they are two changes on b1.
    assert_eq!(
        b.changes.iter().filter(|c| c.target.name == "b1").count(),
        2
    );
    assert_eq!(
        b.summary.by_kind,
        by_kind(&[("Gateway", 1), ("HTTPRoute", 2), ("Service", 1)])
    );
    assert_eq!(
        b.headline,
        "Applying 1 object from p5.yaml changes the effective ColorPolicy of 1 Gateway, 2 HTTPRoutes and 1 Service in 1 namespace (default)"
    );
    let v = serde_json::to_value(&b).unwrap();
    assert_eq!(v["apply"], json!(["p5.yaml"]));
    assert!(v.get("policy").is_none());
    assert_eq!(
        v["changes"][0]["policyKind"],
        json!({"group": "example.io", "kind": "ColorPolicy"})
    );
    assert_eq!(v["changes"][0]["before"], color("red"));
}

#[test]
fn applying_an_edited_policy_replaces_it() {
    let w = example_2();
    let p2 = policy("p2", "HTTPRoute", "r1", "  color: white");
    let b = apply_objects(&w, objects(&p2, "p2.yaml"), vec!["p2.yaml".into()], &[]);
    assert_eq!(
        rows(&b),
        vec![
            row("r1", "gc>g1>r1", color("blue"), color("white")),
            row(
                "r1#rule-1",
                "gc>g1>r1>r1#rule-1",
                color("blue"),
                color("white")
            ),
            row("b1", "gc>g1>r1>r1#rule-1>b1", color("blue"), color("white")),
        ]
    );
    // Applying it unchanged changes nothing.
    let same = policy("p2", "HTTPRoute", "r1", "  color: blue");
    let b = apply_objects(&w, objects(&same, "p2.yaml"), vec!["p2.yaml".into()], &[]);
    assert!(b.changes.is_empty());
    assert_eq!(b.headline, "Applying 1 object from p2.yaml changes nothing");
}

#[test]
fn demo_deleting_ns_retries_changes_every_route_and_service_in_baker() {
    let loaded = kubectl_policies::source::demo::load().unwrap();
    let w = kubectl_policies::analyze(loaded.snapshot, &[], &loaded.malformed);
    let p = pid(&w, "RetryPolicy", "ns-retries");
    let b = delete_policy(&w, p, &[]);
    assert_eq!(
        b.summary.by_kind,
        by_kind(&[("HTTPRoute", 4), ("Service", 4)])
    );
    assert_eq!(b.summary.objects, 8);
    assert_eq!(b.summary.namespaces, vec!["baker".to_string()]);
    assert_eq!(
        b.headline,
        "Deleting RetryPolicy baker/ns-retries changes the effective RetryPolicy of 4 HTTPRoutes and 4 Services in 1 namespace (baker)"
    );
    assert!(b
        .changes
        .iter()
        .all(|c| c.policy_kind.kind == "RetryPolicy"));
    // The human page renders, headline first.
    let mut out = Vec::new();
    kubectl_policies::render::human::blast_radius(
        &mut out,
        &b,
        &kubectl_policies::render::Printer::default(),
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with(&b.headline), "{text}");
    assert!(text.contains("BEFORE→AFTER"), "{text}");
}

#[test]
fn incremental_answers_match_the_full_recomputation_on_the_demo() {
    let loaded = kubectl_policies::source::demo::load().unwrap();
    let w = kubectl_policies::analyze(loaded.snapshot, &[], &loaded.malformed);
    assert_incremental_matches_full(&w);
    crate::sweep::answer_everything(&w);
}

/// r has rules a (→ b1) and b (→ b2); the policy targets rule a only.
const SECTIONS: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: g, namespace: default}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: default}
spec:
  parentRefs: [{name: g}]
  rules:
    - {name: a, backendRefs: [{name: b1, port: 80}]}
    - {name: b, backendRefs: [{name: b2, port: 80}]}
---
apiVersion: v1
kind: Service
metadata: {name: b1, namespace: default}
---
apiVersion: v1
kind: Service
metadata: {name: b2, namespace: default}
---
apiVersion: example.io/v1
kind: ColorPolicy
metadata: {name: rule-a, namespace: default}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: r, sectionName: a}
  color: teal
"#;

#[test]
fn deleting_a_rule_scoped_policy_changes_that_rule_only() {
    let w = world(SECTIONS);
    let b = delete_policy(&w, pid(&w, "ColorPolicy", "rule-a"), &[]);
    assert_eq!(
        rows(&b),
        vec![
            row("r#a", "g>r>r#a", color("teal"), Value::Null),
            row("b1", "g>r>r#a>b1", color("teal"), Value::Null),
        ]
    );
    let rule = &b
        .changes
        .iter()
        .find(|c| c.target.kind == "HTTPRoute")
        .unwrap()
        .target;
    assert_eq!(rule.section.as_deref(), Some("a"));
    assert_eq!(serde_json::to_value(rule).unwrap()["sectionName"], "a");
    // The section counts as its route.
    assert_eq!(
        b.summary.by_kind,
        by_kind(&[("HTTPRoute", 1), ("Service", 1)])
    );
}

#[test]
fn deleting_a_direct_rule_scoped_policy_changes_the_rule_section_alone() {
    let crd = DIRECT_COLOR_CRD;
    let w = world(&[SECTIONS, crd].concat());
    let b = delete_policy(&w, pid(&w, "ColorPolicy", "rule-a"), &[]);
    assert_eq!(
        rows(&b),
        vec![row("r#a", "g>r>r#a", color("teal"), Value::Null)]
    );
    assert_eq!(b.summary.by_kind, by_kind(&[("HTTPRoute", 1)]));
}

#[test]
fn human_output_lists_field_differences() {
    let w = example_2();
    let b = delete_policy(&w, pid(&w, "ColorPolicy", "p2"), &[]);
    let mut out = Vec::new();
    kubectl_policies::render::human::blast_radius(
        &mut out,
        &b,
        &kubectl_policies::render::Printer::default(),
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "Deleting ColorPolicy default/p2 changes the effective ColorPolicy of 1 HTTPRoute and 1 Service in 1 namespace (default)"
    );
    assert_eq!(lines[1], "");
    assert!(lines[2].starts_with("KIND"), "{text}");
    assert!(lines[2].contains("BEFORE→AFTER"), "{text}");
    assert!(text.contains("r1#rule-1"), "{text}");
    assert!(text.contains("/color: blue → red"), "{text}");
    assert_eq!(lines.len(), 6, "{text}");
}

#[test]
fn a_world_analysed_once_answers_as_one_kept_for_changes() {
    let yaml = [
        TOPOLOGY,
        &policy("p1", "Gateway", "g1", "  color: red"),
        &policy("p2", "HTTPRoute", "r1", "  color: blue"),
    ]
    .concat();
    let snapshot = || {
        let mut loaded = kubectl_policies::source::files::Loaded::default();
        kubectl_policies::source::files::load_text(&yaml, "<literal>", &mut loaded).unwrap();
        loaded.place_in("default");
        loaded.snapshot.settle();
        loaded.snapshot
    };
    let kept = kubectl_policies::analyze(snapshot(), &[], &[]);
    let once = kubectl_policies::query::analyze_once(snapshot(), &[], &[]);
    let edges = |w: &World| -> Vec<(String, Vec<String>)> {
        let t = &w.topology;
        t.nodes()
            .iter()
            .map(|n| {
                let parents = n.parents.iter().map(|&p| t.node(p).obj_ref.to_string());
                (n.obj_ref.to_string(), parents.collect())
            })
            .collect()
    };
    assert_eq!(edges(&once), edges(&kept));
    assert!(edges(&once).iter().any(|(_, parents)| !parents.is_empty()));
    assert_eq!(
        format!("{:?}", once.statuses().overall),
        format!("{:?}", kept.statuses().overall)
    );
}

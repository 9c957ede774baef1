//! `describe` of a policy: which of its settings lose at each object it reaches, and
//! the policy each loses to (docs/reference.md: `affects[].overridden`).

use crate::common::*;
use kubectl_policies::effective::PolicyStatus::*;
use kubectl_policies::query::describe_policy;

fn policy(name: &str, ts: &str, kind: &str, target: &str, spec: &str) -> String {
    format!(
        "---\napiVersion: example.io/v1\nkind: ColorPolicy\nmetadata: {{name: {name}, namespace: default, creationTimestamp: \"{ts}\"}}\nspec:\n  targetRef: {{group: {group}, kind: {kind}, name: {target}}}\n{spec}\n",
        group = if kind == "Service" { "\"\"" } else { "gateway.networking.k8s.io" }
    )
}

/// Per object the policy reaches where something of it loses: `name[#section]` and
/// its lost settings as `pointer<policy`.
fn losses(yaml: &str, name: &str) -> Vec<(String, Vec<String>)> {
    let w = world(yaml);
    let t = &w.topology;
    let p = kubectl_policies::topology::PolicyId::all(t.policies().len())
        .find(|&p| t.policy(p).obj_ref.name == name)
        .unwrap();
    describe_policy(&w, p)
        .affects
        .iter()
        .filter(|a| !a.overridden.is_empty() || a.status != Enforced)
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
            (at, lost)
        })
        .collect()
}

fn strings(items: &[(&str, &[&str])]) -> Vec<(String, Vec<String>)> {
    items
        .iter()
        .map(|(at, lost)| (at.to_string(), lost.iter().map(|l| l.to_string()).collect()))
        .collect()
}

const T1: &str = "2026-01-01T00:00:00Z";

#[test]
fn a_patch_default_loses_only_the_fields_set_below() {
    let yaml = [
        TOPOLOGY,
        &policy(
            "gw",
            T1,
            "Gateway",
            "g1",
            "  defaults: {strategy: patch, color: red, size: big}",
        ),
        &policy("route", T1, "HTTPRoute", "r1", "  color: blue"),
    ]
    .concat();
    // r1 and everything under it through r1 keep gw's size, not its color. b1 is also
    // reached through r2, where gw is whole: one context loses, so it is partial.
    assert_eq!(
        losses(&yaml, "gw"),
        strings(&[
            ("r1", &["/color<route"]),
            ("r1#rule-1", &["/color<route"]),
            ("b1", &["/color<route"]),
        ])
    );
    assert!(losses(&yaml, "route").is_empty(), "the route's policy wins");
}

#[test]
fn an_atomic_default_loses_every_field_to_the_one_below() {
    let yaml = [
        TOPOLOGY,
        &policy("gw", T1, "Gateway", "g1", "  color: red\n  size: big"),
        &policy("route", T1, "HTTPRoute", "r1", "  color: blue"),
    ]
    .concat();
    // Replaced whole: size is gone too, and it is the route's policy that took its place.
    assert_eq!(
        losses(&yaml, "gw"),
        strings(&[
            ("r1", &["/color<route", "/size<route"]),
            ("r1#rule-1", &["/color<route", "/size<route"]),
            ("b1", &["/color<route", "/size<route"]),
        ])
    );
}

#[test]
fn an_override_above_wins_over_a_route_policy() {
    let yaml = [
        TOPOLOGY,
        &policy(
            "gw",
            T1,
            "Gateway",
            "g2",
            "  overrides: {strategy: patch, color: yellow}",
        ),
        &policy(
            "route",
            T1,
            "HTTPRoute",
            "r4",
            "  color: green\n  size: small",
        ),
    ]
    .concat();
    assert!(losses(&yaml, "gw").is_empty());
    assert_eq!(
        losses(&yaml, "route"),
        strings(&[
            ("r4", &["/color<gw"]),
            ("r4#rule-1", &["/color<gw"]),
            ("b2", &["/color<gw"]),
        ])
    );
}

#[test]
fn a_conflicted_direct_policy_loses_everything_to_the_older_one() {
    let yaml = [
        TOPOLOGY,
        DIRECT_COLOR_CRD,
        &policy("old", T1, "Service", "b1", "  color: red"),
        &policy(
            "new",
            "2026-01-02T00:00:00Z",
            "Service",
            "b1",
            "  color: blue\n  shade: dark",
        ),
    ]
    .concat();
    let lost = losses(&yaml, "new");
    assert!(!lost.is_empty());
    for (at, settings) in &lost {
        assert!(at.starts_with("b1"), "{at}");
        assert_eq!(settings, &["/color<old", "/shade<old"], "at {at}");
    }
}

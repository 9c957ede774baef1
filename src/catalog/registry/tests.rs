//! Tests of the registry as a whole: one entry per group and kind, each filed under its
//! project with its source cited, and rules that agree with the kind's class.

use super::*;
use crate::catalog::parse_class_label;
use std::collections::BTreeSet;

fn get(group: &str, kind: &str) -> &'static Entry {
    lookup(&GroupKind::new(group, kind))
        .unwrap_or_else(|| panic!("no registry entry for {kind}.{group}"))
}

#[test]
fn no_duplicate_group_kind() {
    let mut seen = BTreeSet::new();
    for e in entries() {
        assert!(seen.insert((e.group, e.kind)), "{}.{}", e.kind, e.group);
    }
}

#[test]
fn kind_names_shared_by_projects_are_told_apart_by_group() {
    for (kind, groups) in [
        (
            "RateLimitPolicy",
            &[
                "kuadrant.io",
                "gateway.nginx.org",
                "microgateway.airlock.com",
            ][..],
        ),
        (
            "HealthCheckPolicy",
            &[
                "networking.gke.io",
                "alb.networking.azure.io",
                "gateway.flomesh.io",
            ],
        ),
        (
            "BackendTLSPolicy",
            &["gateway.networking.k8s.io", "alb.networking.azure.io"],
        ),
        (
            "BackendTrafficPolicy",
            &["gateway.envoyproxy.io", "apisix.apache.org"],
        ),
        (
            "AgentgatewayPolicy",
            &["agentgateway.dev", "gateway.kgateway.dev"],
        ),
    ] {
        let projects: BTreeSet<&str> = groups.iter().map(|g| get(g, kind).project).collect();
        assert_eq!(projects.len(), groups.len(), "{kind}: {projects:?}");
    }
    assert_eq!(
        get("kuadrant.io", "RateLimitPolicy").merge,
        MergeModel::Gep713 {
            rule_paths: &["/limits"]
        }
    );
    assert_eq!(
        get("gateway.nginx.org", "RateLimitPolicy").merge,
        MergeModel::PatchDefaults
    );
    assert!(lookup(&GroupKind::new("example.com", "RateLimitPolicy")).is_none());
    assert!(lookup(&GroupKind::new("kuadrant.io", "BackendTLSPolicy")).is_none());
}

#[test]
fn every_entry_is_filed_under_its_project_and_cites_its_source() {
    const SHAPES: &[&str] = &["ancestors", "conditions", "statuses map", "none", "unknown"];
    for p in PROJECTS {
        let (project, list) = (&p.name, p.entries);
        assert!(!list.is_empty(), "{project}");
        for e in list {
            let g = format!("{}.{}", e.kind, e.group);
            assert_eq!(e.project, *project, "{g}");
            assert!(e.documented.starts_with("https://"), "{g}");
            assert!(!e.cite.is_empty() && !e.note.is_empty(), "{g}");
            assert!(SHAPES.contains(&e.status_shape), "{g}");
            assert!(!e.target_kinds.is_empty(), "{g}");
            let t = e.targeting;
            assert!(
                t.target_ref
                    || t.target_refs
                    || t.target_selectors
                    || t.workload_selector
                    || t.target_annotation.is_some(),
                "{g} has no way to target"
            );
            if let Some(label) = e.label {
                assert!(parse_class_label(label).is_some(), "{g}: label {label}");
            }
        }
    }
}

#[test]
fn direct_entries_do_not_merge_across_levels() {
    // A Direct policy reaches only its target and its sections: the only merging is
    // side by side, or among several on one target.
    for e in entries().filter(|e| e.class == Class::Direct) {
        let g = (e.kind, e.group);
        match e.merge {
            MergeModel::None | MergeModel::Accumulated => {}
            MergeModel::PatchDefaults | MergeModel::KeyedFields { .. } => assert!(
                matches!(
                    e.same_target,
                    SameTarget::DisjointFields(_)
                        | SameTarget::OldestFieldWins
                        | SameTarget::WeightedFieldWins { .. }
                ),
                "{g:?}: only kinds that merge policies on one target"
            ),
            other => panic!("{g:?} merges as {other:?}"),
        }
    }
}

#[test]
fn rules_that_keep_several_side_by_side_never_merge_them() {
    // All of them apply: pushed one after the other, an atomic model would let the
    // later replace the earlier.
    for e in entries() {
        if matches!(
            e.same_target,
            SameTarget::AllByPriority { .. }
                | SameTarget::OnePerValue { .. }
                | SameTarget::AllConflictedOnMismatch { .. }
        ) {
            assert_eq!(e.merge, MergeModel::Accumulated, "{}.{}", e.kind, e.group);
        }
    }
}

#[test]
fn labels_that_differ_from_the_behaviour_are_the_known_ones() {
    let differing: Vec<(&str, &str)> = entries()
        .filter(|e| {
            e.label
                .and_then(parse_class_label)
                .is_some_and(|l| l != e.class)
        })
        .map(|e| (e.group, e.kind))
        .collect();
    assert_eq!(
        differing,
        [
            ("gateway.kgateway.dev", "TrafficPolicy"),
            ("gateway.kgateway.dev", "RoutePolicy"),
            ("gateway.kgateway.dev", "AgentgatewayPolicy"),
            ("agentgateway.dev", "AgentgatewayPolicy"),
        ]
    );
}

#[test]
fn the_catalog_hands_out_the_registry_entry_itself() {
    let e = get("gateway.kgateway.dev", "TrafficPolicy");
    let catalog = crate::catalog::Catalog::build(&[], &[]);
    let pk = catalog.kind_of(&GroupKind::new(e.group, e.kind));
    assert!(std::ptr::eq(&*pk.entry, e), "a copy, not the entry");
    assert_eq!(pk.group_kind(), GroupKind::new(e.group, e.kind));
    assert_eq!(pk.entry.class, Class::Inherited);
    assert_eq!(pk.label(), Some(Class::Direct));
    assert_eq!(pk.origin, crate::catalog::ClassOrigin::Registry);
    assert_eq!(pk.entry.merge, MergeModel::KgatewayPriority);
    assert_eq!(pk.entry.project, "kgateway");
}

#[test]
fn a_kind_that_stops_at_the_client_side_is_inherited_and_names_its_own_fields() {
    for e in entries() {
        match e.flow {
            Flow::Down => {}
            Flow::ClientSide { to_backends } => {
                // The fields are the spec's own: side by side (Accumulated) the
                // effective spec's top-level keys are policy names instead.
                assert_eq!(e.class, Class::Inherited, "{}", e.kind);
                assert_ne!(e.merge, MergeModel::Accumulated, "{}", e.kind);
                // Paths of keys, `/` between them: none empty, no leading `/`.
                assert!(to_backends
                    .iter()
                    .all(|path| path.split('/').all(|key| !key.is_empty())));
            }
        }
    }
    let ctp = get("gateway.envoyproxy.io", "ClientTrafficPolicy");
    assert_eq!(
        ctp.flow,
        Flow::ClientSide {
            to_backends: &["http1"]
        }
    );
    // Envoy Gateway's BackendTrafficPolicy: its cluster settings reach the backends,
    // its route filters do not.
    let Flow::ClientSide { to_backends } =
        get("gateway.envoyproxy.io", "BackendTrafficPolicy").flow
    else {
        panic!("BackendTrafficPolicy flows to every level")
    };
    assert!(to_backends.contains(&"loadBalancer") && !to_backends.contains(&"rateLimit"));
    assert!(to_backends.contains(&"timeout/tcp") && !to_backends.contains(&"timeout"));
    // Kinds that set listeners and routes only: nothing reaches a backend.
    for (group, kind) in [
        ("gateway.envoyproxy.io", "SecurityPolicy"),
        ("gateway.envoyproxy.io", "EnvoyExtensionPolicy"),
        ("kuadrant.io", "AuthPolicy"),
        ("kuadrant.io", "RateLimitPolicy"),
        ("gateway.nginx.org", "ClientSettingsPolicy"),
        ("gateway.kgateway.dev", "TrafficPolicy"),
        ("gateway.solo.io", "RouteOption"),
    ] {
        assert_eq!(
            get(group, kind).flow,
            Flow::ClientSide { to_backends: &[] },
            "{kind}"
        );
    }
    // Istio's Telemetry configures the whole proxy, upstream side included.
    assert_eq!(get("telemetry.istio.io", "Telemetry").flow, Flow::Down);
}

#[test]
fn a_kind_that_refuses_other_target_kinds_names_the_ones_it_allows() {
    // Refusing every kind but none would refuse every target.
    for e in entries() {
        if e.other_target_kinds.refused_by().is_some() {
            assert!(!e.target_kinds.is_empty(), "{}.{}", e.kind, e.group);
        }
    }
    let refusing = |group: &str, kind: &str| {
        lookup(&GroupKind::new(group, kind))
            .and_then(|e| e.other_target_kinds.refused_by())
            .is_some()
    };
    // CEL on the reference's kind (survey: Envoy Gateway, Kuadrant, kgateway).
    assert!(refusing("gateway.envoyproxy.io", "ClientTrafficPolicy"));
    assert!(refusing("extensions.kuadrant.io", "TelemetryPolicy"));
    assert!(refusing("gateway.kgateway.dev", "TrafficPolicy"));
    // Other kinds are implementation-specific for Gateway API's BackendTLSPolicy; NGINX
    // Gateway Fabric's ObservabilityPolicy asks only that some reference be a route.
    assert!(!refusing("gateway.networking.k8s.io", "BackendTLSPolicy"));
    assert!(!refusing("gateway.nginx.org", "ObservabilityPolicy"));
}

#[test]
fn every_reference_field_cites_its_source_and_names_the_kinds_it_may_name() {
    for e in entries() {
        for f in e.references {
            let what = format!("{}/{} {}", e.group, e.kind, f.path);
            assert!(f.path.starts_with('/') && !f.path.ends_with('/'), "{what}");
            assert!(!f.kinds.is_empty(), "{what}: names no kind");
            assert!(!f.cite.is_empty(), "{what}: cites nothing");
        }
    }
}

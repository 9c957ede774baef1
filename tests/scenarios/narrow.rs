//! Offline answers about one object or one policy are computed on the input narrowed to
//! the namespaces they can depend on (`kubectl_policies::focus`). They must equal the
//! answers computed on the whole input; `common::world` checks that on every scenario,
//! these tests on inputs where much is set aside.

use crate::common::{assert_narrowed_matches_full, world};
use kubectl_policies::focus::narrow;
use kubectl_policies::model::ObjRef;
use kubectl_policies::source::files::{load_text, Loaded};

/// Every link that crosses namespaces (the file says which), and `lonely`, linked to
/// nothing.
const CROSSINGS: &str = include_str!("../fixtures/crossings.yaml");

fn kept(yaml: &str, focus: &ObjRef) -> Vec<String> {
    let mut loaded = Loaded::default();
    load_text(yaml, "<literal>", &mut loaded).unwrap();
    let catalog = kubectl_policies::catalog::Catalog::build(&loaded.snapshot.objects, &[]);
    narrow(&mut loaded.snapshot, &catalog, focus);
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

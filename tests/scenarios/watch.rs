//! `get -w`'s incremental answers: after every change, the rows `Watched` answers from
//! the parts a change can touch are `get`'s rows computed on the whole input.

use kubectl_policies::model::watch::Change;
use kubectl_policies::model::ObjRef;
use kubectl_policies::model::{Object, Snapshot};
use kubectl_policies::query::watch::events::{Event, Shown, Shows};
use kubectl_policies::query::watch::Watched;
use kubectl_policies::query::{analyze, policy_rows, PolicyRow};
use kubectl_policies::render::human::policy_cells_alike;
use kubectl_policies::render::Printer;
use kubectl_policies::source::files::{load_text, Loaded};

fn objects(yaml: &str) -> Vec<Object> {
    let mut loaded = Loaded::default();
    load_text(yaml, "<literal>", &mut loaded).unwrap();
    loaded.place_in("default");
    loaded.snapshot.settle();
    loaded.snapshot.objects
}

/// Every policy's row, all of it (what `get -A -o json` says of each under `computed`,
/// and more): compared as text.
fn rows_json(rows: &[PolicyRow]) -> String {
    format!("{rows:#?}")
}

fn full(objects: &[Object]) -> String {
    let w = analyze(
        Snapshot {
            objects: objects.to_vec(),
            ..Snapshot::default()
        },
        &[],
        &[],
    );
    rows_json(&policy_rows(&w, None))
}

/// A watch whose first read is `objects`, with no declared kinds.
fn watched(objects: Vec<Object>) -> Watched {
    Watched::new(
        Snapshot {
            objects,
            ..Snapshot::default()
        },
        &[],
    )
}

/// Deletes every namespaced object in turn and puts it back, checking the rows after
/// each change; returns how many answers were incremental.
fn every_object_out_and_back(yaml: &str) -> usize {
    let all = objects(yaml);
    let mut w = watched(all.clone());
    assert_eq!(rows_json(&w.rows()), full(&all));
    for (i, o) in all.iter().enumerate() {
        let mut now = all.clone();
        now.remove(i);
        w.apply(vec![Change::Deleted(o.obj_ref())]);
        w.answer();
        assert_eq!(
            rows_json(&w.rows()),
            full(&now),
            "after deleting {}",
            o.obj_ref()
        );
        w.apply(vec![Change::Applied(o.clone())]);
        w.answer();
        assert_eq!(
            rows_json(&w.rows()),
            full(&all),
            "after putting back {}",
            o.obj_ref()
        );
    }
    w.answered.1
}

#[test]
fn incremental_rows_equal_full_rows_on_the_demo() {
    let incremental = every_object_out_and_back(kubectl_policies::source::demo::DEMO_YAML);
    assert!(
        incremental > 10,
        "only {incremental} answers were incremental"
    );
}

#[test]
fn incremental_rows_equal_full_rows_on_the_fixtures() {
    for f in [
        "crossings.yaml",
        "gep713-topology.yaml",
        "direct-color-crd.yaml",
    ] {
        let path = format!("{}/tests/fixtures/{f}", env!("CARGO_MANIFEST_DIR"));
        let yaml = std::fs::read_to_string(path).unwrap();
        every_object_out_and_back(&yaml);
    }
}

#[test]
fn a_route_added_under_a_gateway_is_answered_incrementally_with_the_gateway_policy() {
    let mut all = objects(kubectl_policies::source::demo::DEMO_YAML);
    let mut w = watched(all.clone());
    let route = objects(
        r#"
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: sprinkles-new, namespace: baker}
spec:
  parentRefs: [{name: cupcake-gw, namespace: infra}]
  hostnames: [new.cupcakes.example]
  rules: [{backendRefs: [{name: oven, port: 8080}]}]
"#,
    );
    all.extend(route.clone());
    w.apply(vec![Change::Applied(route[0].clone())]);
    let answer = w.answer();
    let names: Vec<&str> = answer.changed.iter().map(|r| &*r.policy.name).collect();
    assert!(names.contains(&"gateway-timeouts"), "{names:?}");
    assert_eq!(w.answered.1, 1, "answered from the parts it touches");
    assert_eq!(rows_json(&w.rows()), full(&all));
}

/// A listener with no route is one of the most specific objects a Gateway's policy
/// reaches; its first route takes that place (and here overrides the policy): the
/// listener's part is not counted again, so this is the correction for it.
const EMPTY_LISTENER: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: retrypolicies.resilience.example.io
  labels: {gateway.networking.k8s.io/policy: inherited}
spec:
  group: resilience.example.io
  scope: Namespaced
  names: {kind: RetryPolicy, plural: retrypolicies}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
spec: {controllerName: example.io/gc}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: gc
  listeners:
  - {name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}
---
apiVersion: resilience.example.io/v1alpha1
kind: RetryPolicy
metadata: {name: gw-retries, namespace: infra, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}
  defaults: {attempts: 2}
---
apiVersion: resilience.example.io/v1alpha1
kind: RetryPolicy
metadata: {name: r1-retries, namespace: app, creationTimestamp: "2026-01-02T00:00:00Z"}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: r1}
  defaults: {attempts: 5}
"#;

#[test]
fn the_first_route_under_a_listener_takes_its_place_as_the_most_specific() {
    let mut all = objects(EMPTY_LISTENER);
    let mut w = watched(all.clone());
    let status = |w: &Watched, name: &str| {
        let rows = w.rows();
        rows.iter().find(|r| r.policy.name == name).unwrap().status
    };
    assert_eq!(status(&w, "gw-retries").as_str(), "Enforced");
    let route = objects(
        r#"
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r1, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules: [{backendRefs: [{name: svc, port: 80}]}]
"#,
    );
    all.extend(route.clone());
    w.apply(vec![Change::Applied(route[0].clone())]);
    w.answer();
    assert_eq!(w.answered.1, 1, "answered from the parts it touches");
    assert_eq!(rows_json(&w.rows()), full(&all));
    assert_eq!(status(&w, "gw-retries").as_str(), "Overridden");
    // And back: the listener is the most specific again.
    w.apply(vec![Change::Deleted(route[0].obj_ref())]);
    w.answer();
    assert_eq!(w.answered.1, 2);
    assert_eq!(status(&w, "gw-retries").as_str(), "Enforced");
    all.pop();
    assert_eq!(rows_json(&w.rows()), full(&all));
}

#[test]
fn a_policy_on_a_gateway_class_is_answered_by_folding_its_kind_again() {
    let mut all = objects(EMPTY_LISTENER);
    all.extend(objects(
        r#"
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r1, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules: [{backendRefs: [{name: svc, port: 80}]}]
---
apiVersion: resilience.example.io/v1alpha1
kind: RetryPolicy
metadata: {name: class-retries, namespace: infra, creationTimestamp: "2025-12-01T00:00:00Z"}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: GatewayClass, name: gc}
  overrides: {attempts: 9}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: svc-tls, namespace: app}
spec:
  targetRefs: [{group: "", kind: Service, name: svc}]
  validation: {hostname: svc.example, wellKnownCACertificates: System}
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: app}
spec: {ports: [{name: http, port: 80}]}
"#,
    ));
    let mut w = watched(all.clone());
    assert_eq!(rows_json(&w.rows()), full(&all));
    let class = all
        .iter()
        .position(|o| &*o.name == "class-retries")
        .unwrap();
    let policy = all.remove(class);
    w.apply(vec![Change::Deleted(policy.obj_ref())]);
    let answer = w.answer();
    assert_eq!(answer.deleted.len(), 1);
    assert_eq!(w.answered.2, 1, "its kind folded again");
    assert_eq!(rows_json(&w.rows()), full(&all));
    // Overridden by the class's overrides no more: the route's policy is Enforced again.
    let mut edited = policy.clone();
    all.push(policy.clone());
    w.apply(vec![Change::Applied(policy)]);
    w.answer();
    assert_eq!(w.answered.2, 2);
    assert_eq!(rows_json(&w.rows()), full(&all));
    // Retargeted to a class that does not exist.
    edited = objects(
        &serde_json::to_string(&serde_json::json!({
            "apiVersion": "resilience.example.io/v1alpha1", "kind": "RetryPolicy",
            "metadata": {"name": "class-retries", "namespace": "infra"},
            "spec": {"targetRef": {"group": "gateway.networking.k8s.io", "kind": "GatewayClass", "name": "gone"},
                     "overrides": {"attempts": 9}}
        }))
        .unwrap(),
    )
    .into_iter()
    .next()
    .unwrap_or(edited);
    all.pop();
    all.push(edited.clone());
    w.apply(vec![Change::Applied(edited)]);
    w.answer();
    assert_eq!(rows_json(&w.rows()), full(&all));
    let rows = w.rows();
    let row = rows
        .iter()
        .find(|r| r.policy.name == "class-retries")
        .unwrap();
    assert_eq!(row.status.as_str(), "TargetNotFound");
}

/// A watch's fresh list (its first, or after 410 Gone) as `Change::Relisted`.
fn relisted(kind: &str, group: &str, plural: &str, objects: Vec<Object>) -> Change {
    use kubectl_policies::model::read::Resource;
    use kubectl_policies::model::watch::WatchList;
    Change::Relisted {
        list: WatchList {
            resource: Resource {
                group: group.into(),
                version: "v1".into(),
                kind: kind.into(),
                plural: plural.into(),
                namespaced: true,
            },
            namespace: None,
            selector: None,
        },
        objects,
    }
}

#[test]
fn a_fresh_list_is_answered_as_what_changed_since() {
    let mut all = objects(kubectl_policies::source::demo::DEMO_YAML);
    let mut w = watched(all.clone());
    let routes = |all: &[Object]| -> Vec<Object> {
        all.iter()
            .filter(|o| &*o.kind == "HTTPRoute")
            .cloned()
            .collect()
    };
    let gw = "gateway.networking.k8s.io";
    // The same list again: nothing changed, nothing to answer.
    let (changed, _) = w.apply(vec![relisted("HTTPRoute", gw, "httproutes", routes(&all))]);
    assert!(!changed, "a list of the same objects changes nothing");
    // A list without one route: that route was deleted meanwhile.
    let mut fewer = routes(&all);
    let gone = fewer.remove(0).obj_ref();
    all.retain(|o| o.obj_ref() != gone);
    let (changed, _) = w.apply(vec![relisted("HTTPRoute", gw, "httproutes", fewer)]);
    assert!(changed);
    let before = w.answered;
    w.answer();
    assert_eq!(w.answered.0, before.0, "not answered in full");
    assert_eq!(rows_json(&w.rows()), full(&all));
}

/// The demo's object of this kind and name, and where it is.
fn find(all: &[Object], kind: &str, name: &str) -> usize {
    all.iter()
        .position(|o| &*o.kind == kind && &*o.name == name)
        .unwrap()
}

#[test]
fn a_gateway_deleted_and_a_gateway_class_changed_are_answered_as_get() {
    let mut all = objects(kubectl_policies::source::demo::DEMO_YAML);
    let mut w = watched(all.clone());
    // The first answer's world holds every object (lent to it, not copied).
    assert_eq!(w.world().topology.objects().len(), all.len());
    assert_eq!(rows_json(&w.rows()), full(&all));

    // The Gateway every route attaches to, deleted, then back.
    let gateway = all.remove(find(&all, "Gateway", "cupcake-gw"));
    w.apply(vec![Change::Deleted(gateway.obj_ref())]);
    let answer = w.answer();
    assert!(
        !answer.changed.is_empty(),
        "what its policies reach changes"
    );
    assert_eq!(rows_json(&w.rows()), full(&all));
    all.push(gateway.clone());
    w.apply(vec![Change::Applied(gateway)]);
    w.answer();
    assert_eq!(rows_json(&w.rows()), full(&all));

    // The GatewayClass relabelled (answered in full: it is cluster-scoped) and, in the
    // same batch, a policy relabelled: no status changes, but the policy's row shows
    // its new labels (a row is kept from the last answer only when all of it is the
    // same).
    let in_full = w.answered.0;
    let w_rows_before = w.rows();
    let c = find(&all, "GatewayClass", "cupcake-class");
    all[c].labels.insert("tier".into(), "gold".into());
    let policy = w.rows()[0].policy.clone();
    let p = all.iter().position(|o| o.obj_ref() == policy).unwrap();
    all[p].labels.insert("team".into(), "cupcakes".into());
    w.apply(vec![
        Change::Applied(all[c].clone()),
        Change::Applied(all[p].clone()),
    ]);
    let answer = w.answer();
    // Its row changed in its labels only: a table without LABELS prints nothing, its
    // `-o json` item (and a table with --show-labels) is printed again, MODIFIED.
    let changed: Vec<&ObjRef> = answer.changed.iter().map(|r| &r.policy).collect();
    assert_eq!(changed, [&policy]);
    assert!(answer.deleted.is_empty());
    let was = &answer.was[&policy];
    assert_eq!(was.labels.get("team"), None);
    let mut shown = Shown::new(&w_rows_before);
    let narrow = |a: &PolicyRow, b: &PolicyRow| policy_cells_alike(a, b, &Printer::default());
    assert!(shown
        .events(&answer, |_| true, Shows::Cells(&narrow))
        .is_empty());
    let labelled = |a: &PolicyRow, b: &PolicyRow| {
        policy_cells_alike(
            a,
            b,
            &Printer {
                show_labels: true,
                ..Printer::default()
            },
        )
    };
    let printed = shown.events(&answer, |_| true, Shows::Cells(&labelled));
    assert_eq!(printed.len(), 1);
    assert_eq!(printed[0].1, Event::Modified);
    let printed = shown.events(&answer, |_| true, Shows::Items);
    assert_eq!(printed.len(), 1);
    // With -l team=cupcakes, it comes into view: ADDED; the other rows are not shown.
    let mut selected = Shown::default();
    let team = |r: &PolicyRow| r.labels.get("team").map(String::as_str) == Some("cupcakes");
    let printed = selected.events(&answer, team, Shows::Cells(&narrow));
    assert_eq!(printed.len(), 1);
    assert_eq!(
        (&printed[0].0.policy, printed[0].1),
        (&policy, Event::Added)
    );
    assert_eq!(w.answered.0, in_full + 1, "answered in full");
    assert_eq!(rows_json(&w.rows()), full(&all));
    let row = w.rows().into_iter().find(|r| r.policy == policy).unwrap();
    assert_eq!(row.labels.get("team").map(String::as_str), Some("cupcakes"));

    // The GatewayClass deleted: every Gateway of it loses what it brought.
    let class = all.remove(c);
    w.apply(vec![Change::Deleted(class.obj_ref())]);
    w.answer();
    assert_eq!(w.answered.0, in_full + 2);
    assert_eq!(rows_json(&w.rows()), full(&all));
    all.push(class.clone());
    w.apply(vec![Change::Applied(class)]);
    w.answer();
    assert_eq!(rows_json(&w.rows()), full(&all));
}

#[test]
fn every_object_of_the_demo_changed_in_one_batch_is_answered_as_get() {
    // Changes everywhere, cluster-scoped objects among them, in one batch: answered in
    // full, each policy's last row kept only when nothing of it differs.
    let mut all = objects(kubectl_policies::source::demo::DEMO_YAML);
    let mut w = watched(all.clone());
    for round in 0..2 {
        let mut batch = Vec::new();
        let mut kept = Vec::new();
        for (i, o) in all.iter().enumerate() {
            // Every third object deleted, the rest relabelled.
            if (i + round) % 3 == 0 {
                batch.push(Change::Deleted(o.obj_ref()));
            } else {
                let mut o = o.clone();
                o.labels.insert("round".into(), round.to_string());
                batch.push(Change::Applied(o.clone()));
                kept.push(o);
            }
        }
        all = kept;
        w.apply(batch);
        w.answer();
        assert_eq!(rows_json(&w.rows()), full(&all), "round {round}");
    }
}

#[test]
fn the_first_change_is_answered_from_the_state_counted_once_the_first_table_is_printed() {
    // The first table is `get`'s; what later answers are counted from is counted when
    // its world is let go (`forget_first`, as the command line does after printing).
    let mut all = objects(kubectl_policies::source::demo::DEMO_YAML);
    let mut w = watched(all.clone());
    assert_eq!(rows_json(&w.rows()), full(&all));
    assert!(w.world().topology.policies().len() > 5, "the first world");
    w.forget_first();
    assert_eq!(w.answered, (1, 0, 0));
    let at = find(&all, "HTTPRoute", "sprinkles");
    let route = all.remove(at);
    w.apply(vec![Change::Deleted(route.obj_ref())]);
    w.answer();
    assert_eq!(w.answered, (1, 1, 0), "answered from the parts it touches");
    assert_eq!(rows_json(&w.rows()), full(&all));
}

#[test]
fn the_first_table_keeps_the_last_copy_of_an_object_read_twice() {
    let all = objects(kubectl_policies::source::demo::DEMO_YAML);
    let at = find(&all, "HTTPRoute", "sprinkles");
    // The route read again, last, with no parent: its Gateway's policies no longer
    // reach it.
    let again = objects(
        r#"
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: sprinkles, namespace: baker}
spec:
  rules: [{backendRefs: [{name: sprinkles, port: 8443}]}]
"#,
    )
    .remove(0);
    let mut read = all.clone();
    read.push(again.clone());
    let mut once = all.clone();
    once[at] = again;
    let mut w = watched(read);
    assert_ne!(full(&once), full(&all), "the second copy changes the rows");
    assert_eq!(rows_json(&w.rows()), full(&once));
    // And the state counted from it answers the next change as `get`.
    let route = once.remove(at);
    w.apply(vec![Change::Deleted(route.obj_ref())]);
    w.answer();
    assert_eq!(rows_json(&w.rows()), full(&once));
}

#[test]
fn after_an_answer_in_full_the_next_change_is_answered_from_the_state_counted_from_its_world() {
    // An answer in full is `get`'s rows; its world keeps the objects (lent, not copied)
    // until its rows are printed (`forget_first`) or the next change comes, and what
    // the next answers are counted from is counted from it then.
    let mut all = objects(kubectl_policies::source::demo::DEMO_YAML);
    let mut w = watched(all.clone());
    // The class and a route deleted in one batch: answered in full (a cluster-scoped
    // object changed); what reached the route changes.
    let class = all.remove(find(&all, "GatewayClass", "cupcake-class"));
    let route = all.remove(find(&all, "HTTPRoute", "sprinkles"));
    w.apply(vec![
        Change::Deleted(class.obj_ref()),
        Change::Deleted(route.obj_ref()),
    ]);
    let answer = w.answer();
    assert!(!answer.changed.is_empty(), "what reached the route changes");
    for row in &answer.changed {
        let object = answer.object(&row.policy).expect("a changed row's policy");
        assert_eq!(object.obj_ref(), row.policy);
    }
    assert_eq!(w.answered, (2, 0, 0), "answered in full");
    assert_eq!(w.world().topology.objects().len(), all.len());
    assert_eq!(rows_json(&w.rows()), full(&all));
    // The route back, without `forget_first` first: counted from the parts it touches.
    all.push(route.clone());
    w.apply(vec![Change::Applied(route.clone())]);
    w.answer();
    assert_eq!(w.answered, (2, 1, 0), "answered from the parts it touches");
    assert_eq!(rows_json(&w.rows()), full(&all));
    // The class back (in full again), its rows printed, then a change in a namespace.
    all.push(class.clone());
    w.apply(vec![Change::Applied(class)]);
    w.answer();
    w.forget_first();
    assert_eq!(rows_json(&w.rows()), full(&all));
    all.retain(|o| o.obj_ref() != route.obj_ref());
    w.apply(vec![Change::Deleted(route.obj_ref())]);
    w.answer();
    assert_eq!(w.answered, (3, 2, 0));
    assert_eq!(rows_json(&w.rows()), full(&all));
}

/// Policies whose verdict rests on objects one step beyond what they name
/// (`catalog::Further`, and Envoy Gateway's merged parent): an Envoy Gateway ext-auth
/// Service in another namespace with a BackendTLSPolicy and its CA ConfigMap there; a
/// kgateway GatewayExtension whose backend Service lies in that namespace, let in by a
/// ReferenceGrant; a route's BackendTrafficPolicy merged with its Gateway's, whose
/// response-override ConfigMap lies with the Gateway.
const ONE_STEP_FURTHER: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg}
spec: {controllerName: gateway.envoyproxy.io/gatewayclass-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: eg
  listeners: [{name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules: [{backendRefs: [{name: web, port: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec: {ports: [{name: http, port: 80}]}
---
apiVersion: v1
kind: Service
metadata: {name: authz, namespace: auth}
spec: {ports: [{name: grpc, port: 9000}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: ca, namespace: auth}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: unrelated, namespace: auth}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: authz-tls, namespace: auth, creationTimestamp: '2024-01-01T00:00:00Z'}
spec:
  targetRefs: [{group: '', kind: Service, name: authz}]
  validation: {hostname: authz.example.com, caCertificateRefs: [{group: '', kind: ConfigMap, name: ca}]}
---
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: let-in, namespace: auth}
spec:
  from:
  - {group: gateway.envoyproxy.io, kind: SecurityPolicy, namespace: shop}
  - {group: gateway.kgateway.dev, kind: GatewayExtension, namespace: shop}
  to: [{group: '', kind: Service}]
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: sp, namespace: shop}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}]
  extAuth: {grpc: {backendRef: {name: authz, namespace: auth, port: 9000}}}
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: GatewayExtension
metadata: {name: ext, namespace: shop}
spec:
  extAuth: {grpcService: {backendRef: {name: authz, namespace: auth, port: 9000}}}
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: tp, namespace: shop}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}]
  extAuth: {extensionRef: {name: ext}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: error-page, namespace: infra}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: other, namespace: infra}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: gateway-errors, namespace: infra, creationTimestamp: '2024-01-01T00:00:00Z'}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  responseOverride:
  - match: {statusCodes: [{type: Value, value: 503}]}
    response: {body: {type: ValueRef, valueRef: {group: '', kind: ConfigMap, name: error-page}}}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: shop-limits, namespace: shop, creationTimestamp: '2024-01-01T00:00:01Z'}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}]
  mergeType: StrategicMerge
  rateLimit: {local: {rules: [{limit: {requests: 10, unit: Minute}}]}}
"#;

#[test]
fn objects_one_step_beyond_a_policy_s_references_are_answered_as_get() {
    // Each object out and back: the CA ConfigMap, the BackendTLSPolicy, the
    // GatewayExtension, its backend Service, the ReferenceGrant, the Gateway's policy
    // and its ConfigMap each turn a policy Invalid and back.
    let all = objects(ONE_STEP_FURTHER);
    let full_rows = full(&all);
    for (name, policy) in [
        ("ca", "sp"),
        ("authz-tls", "sp"),
        ("authz", "tp"),
        ("let-in", "tp"),
        ("error-page", "shop-limits"),
    ] {
        let i = all.iter().position(|o| &*o.name == name).unwrap();
        let mut without = all.clone();
        without.remove(i);
        assert_ne!(
            full(&without),
            full_rows,
            "without {name}, {policy}'s row differs"
        );
    }
    every_object_out_and_back(ONE_STEP_FURTHER);
}

/// `ONE_STEP_FURTHER` with the document of `name` edited (`from` replaced by `to`),
/// watched as one change and then changed back: the rows equal `get`'s each time.
fn edited_and_back(name: &str, from: &str, to: &str) {
    let all = objects(ONE_STEP_FURTHER);
    let mut w = watched(all.clone());
    let i = all.iter().position(|o| &*o.name == name).unwrap();
    let document = ONE_STEP_FURTHER
        .split("\n---\n")
        .find(|d| d.contains(&format!("name: {name},")))
        .unwrap();
    assert!(document.contains(from), "{document}");
    let mut now = all.clone();
    now[i] = objects(&document.replace(from, to)).remove(0);
    assert_ne!(full(&now), full(&all), "{name} edited changes a row");
    w.apply(vec![Change::Applied(now[i].clone())]);
    w.answer();
    assert_eq!(rows_json(&w.rows()), full(&now), "{name} edited");
    w.apply(vec![Change::Applied(all[i].clone())]);
    w.answer();
    assert_eq!(rows_json(&w.rows()), full(&all), "{name} back");
}

#[test]
fn a_backend_tls_policy_changed_on_an_ext_auth_service_is_answered_as_get() {
    // Its CA now a ConfigMap not there: nothing the SecurityPolicy names changed, only
    // what its Service's BackendTLSPolicy names.
    edited_and_back("authz-tls", "name: ca}", "name: gone}");
}

#[test]
fn a_gateway_extension_changed_is_answered_as_get() {
    // Its backend now a Service not there, then one the grant does not cover.
    edited_and_back(
        "ext",
        "name: authz, namespace: auth",
        "name: nowhere, namespace: auth",
    );
    edited_and_back("let-in", "kind: GatewayExtension", "kind: Backend");
}

#[test]
fn a_gateway_policy_merged_with_a_route_s_is_answered_as_get() {
    // The Gateway's response-override ConfigMap changed to one not there: the route's
    // merged policy is refused with it.
    edited_and_back("gateway-errors", "name: error-page}", "name: gone}");
}

/// An Envoy Gateway ext-auth Service beside its SecurityPolicy, with a BackendTLSPolicy
/// whose CA is ConfigMap `ca`, and a policy on the GatewayClass: a change to it reaches
/// every namespace, answered by folding again the kinds of the policies changed.
const ONE_STEP_FURTHER_AT_HOME: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: retrypolicies.resilience.example.io
  labels: {gateway.networking.k8s.io/policy: inherited}
spec:
  group: resilience.example.io
  scope: Namespaced
  names: {kind: RetryPolicy, plural: retrypolicies}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg}
spec: {controllerName: gateway.envoyproxy.io/gatewayclass-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: eg
  listeners: [{name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules: [{backendRefs: [{name: authz, port: 9000}]}]
---
apiVersion: v1
kind: Service
metadata: {name: authz, namespace: shop}
spec: {ports: [{name: grpc, port: 9000}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: ca, namespace: shop}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: authz-tls, namespace: shop, creationTimestamp: '2024-01-01T00:00:00Z'}
spec:
  targetRefs: [{group: '', kind: Service, name: authz}]
  validation: {hostname: authz.example.com, caCertificateRefs: [{group: '', kind: ConfigMap, name: ca}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: sp, namespace: shop}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}]
  extAuth: {grpc: {backendRef: {name: authz, port: 9000}}}
---
apiVersion: resilience.example.io/v1alpha1
kind: RetryPolicy
metadata: {name: class-retries, namespace: infra, creationTimestamp: "2025-12-01T00:00:00Z"}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: GatewayClass, name: eg}
  overrides: {attempts: 9}
"#;

/// The document of `yaml` naming `name`, with `from` replaced by `to`, as an object.
fn edited(yaml: &str, name: &str, from: &str, to: &str) -> Object {
    let document = yaml
        .split("\n---\n")
        .find(|d| d.contains(&format!("name: {name},")))
        .unwrap();
    assert!(document.contains(from), "{document}");
    objects(&document.replace(from, to)).remove(0)
}

#[test]
fn a_backend_tls_policy_changed_with_a_class_wide_policy_is_answered_as_get() {
    let yaml = ONE_STEP_FURTHER_AT_HOME;
    let mut all = objects(yaml);
    let mut w = watched(all.clone());
    assert_eq!(rows_json(&w.rows()), full(&all));
    let class = find(&all, "RetryPolicy", "class-retries");
    let tls = find(&all, "BackendTLSPolicy", "authz-tls");
    let sp = find(&all, "SecurityPolicy", "sp");
    // The BackendTLSPolicy's CA gone, with the class's policy: the SecurityPolicy,
    // whose kind did not change, is refused.
    all[class] = edited(yaml, "class-retries", "attempts: 9", "attempts: 8");
    all[tls] = edited(yaml, "authz-tls", "name: ca}", "name: gone}");
    let before = full(&all);
    w.apply(vec![
        Change::Applied(all[class].clone()),
        Change::Applied(all[tls].clone()),
    ]);
    w.answer();
    assert_eq!(rows_json(&w.rows()), before);
    assert!(before.contains("Invalid"), "{before}");
    // The SecurityPolicy edited with the class's policy: judged with its Service's
    // BackendTLSPolicy, a kind that did not change.
    all[class] = edited(yaml, "class-retries", "attempts: 9", "attempts: 7");
    all[sp] = edited(yaml, "sp", "port: 9000}}}", "port: 9000}}}\n  labels: {}");
    w.apply(vec![
        Change::Applied(all[class].clone()),
        Change::Applied(all[sp].clone()),
    ]);
    w.answer();
    assert_eq!(rows_json(&w.rows()), full(&all));
    assert!(w.answered.2 >= 1, "{:?}", w.answered);
}

/// A kgateway TrafficPolicy naming a GatewayExtension in another namespace, whose
/// backend Service lies beside the GatewayExtension (with another Service there, so that
/// one missing is known to be missing).
const GATEWAY_EXTENSION_ACROSS: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: kgateway
  listeners: [{name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules: [{backendRefs: [{name: web, port: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec: {ports: [{name: http, port: 80}]}
---
apiVersion: v1
kind: Service
metadata: {name: authz, namespace: auth}
spec: {ports: [{name: grpc, port: 9000}]}
---
apiVersion: v1
kind: Service
metadata: {name: metrics, namespace: auth}
spec: {ports: [{name: http, port: 9090}]}
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: GatewayExtension
metadata: {name: ext, namespace: auth}
spec:
  extAuth: {grpcService: {backendRef: {name: authz, port: 9000}}}
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: tp, namespace: shop}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}]
  extAuth: {extensionRef: {name: ext, namespace: auth}}
"#;

#[test]
fn a_gateway_extension_s_backend_beside_it_in_another_namespace_is_answered_as_get() {
    let all = objects(GATEWAY_EXTENSION_ACROSS);
    let authz = find(&all, "Service", "authz");
    let mut without = all.clone();
    without.remove(authz);
    assert!(full(&without).contains("Invalid"), "{}", full(&without));
    assert!(!full(&all).contains("Invalid"), "{}", full(&all));
    every_object_out_and_back(GATEWAY_EXTENSION_ACROSS);
}

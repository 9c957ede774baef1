//! What an answer reads: the one home for "which objects can this answer depend on".
//!
//! Policies reach an object through its ancestors, so an answer about one object (or
//! one policy's reach) depends on the namespaces linked to it by parentRefs and
//! backendRefs, not on the whole cluster. Two ways to use that, one rule:
//! - live, [`live_scope`] says what to list, and [`needed_namespaces`] (handed to the
//!   live reader) follows references object by object as namespaces arrive;
//! - offline, [`narrow`] sets aside, before the hierarchy is built, the objects of
//!   namespaces outside the [`namespace_closure`] of the start.
//!
//! Pure. Tests hold both to the answer computed on the whole input.

mod closure;
mod follow;
mod narrow;
mod parameters;
mod pods;
mod references;

pub(crate) use closure::{namespace_closure, namespaces_below};
pub use follow::needed_namespaces;
pub use narrow::{keep_mask, narrow, target_places, TargetPlaces};
pub use pods::pod_lists;
pub use references::{referenced, referring_kinds, resting_on};

use crate::catalog::references::kind_allowed;
use crate::catalog::Catalog;
use crate::model::read::ReadScope;
use crate::model::{hierarchy_kinds, is_cluster_scoped, is_gateway_group, is_listener_set, ObjRef};

/// What a command's answer depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Need {
    /// Everything (`get`, `tree`, `check`, `graph`, blast radius live).
    Everything,
    /// One object's answer (`describe`, `effective`): the object, resolved.
    Object(ObjRef),
    /// A policy's reach (`blast-radius`): offline, what lies below its targets and
    /// above that; live, everything.
    Reach(ObjRef),
    /// One namespace and its objects' ancestors (`dump` without `-A`).
    Namespace,
}

/// What a live read lists for `need`. `namespace` is the one in scope; `catalog` the
/// policy kinds known before reading (registry and declared).
pub fn live_scope(
    need: &Need,
    catalog: &Catalog,
    namespace: &str,
    all_namespaces: bool,
) -> ReadScope {
    let everything = ReadScope::Cluster {
        fallback: vec![namespace.to_string()],
    };
    match need {
        Need::Object(r) => {
            let gk = r.group_kind();
            // A Gateway's or ListenerSet's children (routes) may live in any namespace;
            // a policy's reach, and a cluster-scoped object's (a GatewayClass's
            // Gateways), cross namespaces: read everything.
            let gateway = is_gateway_group(&gk.group) && gk.kind == "Gateway";
            // An object only policies' specs name (a Secret): the policies that name it
            // may be in any namespace a ReferenceGrant lets in.
            let only_named = !hierarchy_kinds().any(|h| h == gk)
                && catalog.kinds.values().any(|k| {
                    k.entry
                        .references
                        .iter()
                        .any(|f| kind_allowed(f, &gk.group, &gk.kind))
                });
            if gateway
                || is_listener_set(&gk.group, &gk.kind)
                || catalog.get(&gk).is_some()
                || is_cluster_scoped(&gk.kind)
                || only_named
            {
                everything
            } else if let (true, Some(ns)) = (gk.group.is_empty() && gk.kind == "Pod", &r.namespace)
            {
                // A Pod's ancestors are the Services of its namespace (and theirs),
                // the policies that pick it are in its namespace: the namespace's read.
                ReadScope::Namespace(ns.to_string())
            } else {
                ReadScope::Object(r.clone())
            }
        }
        Need::Namespace if !all_namespaces => ReadScope::Namespace(namespace.to_string()),
        _ => everything,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{NamespaceLinks, ObjRef, Object, GATEWAY_GROUP};
    use crate::source::files::{load_text, Loaded};

    fn objects(yaml: &str) -> Vec<Object> {
        let mut l = Loaded::default();
        load_text(yaml, "<test>", &mut l).unwrap();
        l.snapshot.objects
    }

    const WORLD: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: shop}
spec:
  parentRefs: [{name: gw, namespace: infra}, {kind: ListenerSet, name: extra, namespace: edge}]
  rules:
  - backendRefs: [{name: cart, namespace: backends, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: extra, namespace: edge}
spec:
  parentRef: {name: gw2, namespace: infra2}
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
"#;

    #[test]
    fn a_route_needs_its_parents_namespaces_and_theirs() {
        let objs = objects(WORLD);
        let start = ObjRef::new(GATEWAY_GROUP, "HTTPRoute", Some("shop"), "shop");
        let got = needed_namespaces(&objs, &[start]);
        // Its backend's too: the route's children are part of its answer.
        assert_eq!(
            got.into_iter().collect::<Vec<_>>(),
            ["backends", "edge", "infra", "infra2", "shop"]
        );
    }

    #[test]
    fn a_service_needs_the_namespaces_a_grant_lets_routes_in_from() {
        let objs = objects(WORLD);
        let start = ObjRef::new("", "Service", Some("backends"), "cart");
        let got = needed_namespaces(&objs, &[start]);
        assert_eq!(
            got.into_iter().collect::<Vec<_>>(),
            ["backends", "edge", "infra", "infra2", "shop"]
        );
    }

    #[test]
    fn without_a_grant_only_the_services_own_namespace_is_searched() {
        let objs = objects(&WORLD.replace("kind: Service}", "kind: Secret}"));
        let start = ObjRef::new("", "Service", Some("backends"), "cart");
        let got = needed_namespaces(&objs, &[start]);
        assert_eq!(got.into_iter().collect::<Vec<_>>(), ["backends"]);
    }

    #[test]
    fn routes_and_listener_sets_link_namespaces_other_objects_do_not() {
        let objs = objects(&format!(
            "{WORLD}---\n{}",
            r#"
apiVersion: gateway.networking.k8s.io/v1
kind: GRPCRoute
metadata: {name: local, namespace: shop}
spec:
  parentRefs: [{name: gw, namespace: infra}, {name: gw2, namespace: infra}, {name: here}]
  rules: [{backendRefs: [{name: a}, {name: b, namespace: shop}]}]
"#
        ));
        let pairs = |l: &NamespaceLinks| -> Vec<String> {
            l.parents()
                .flat_map(|(c, ps)| ps.iter().map(move |p| format!("{c}>{p}")))
                .collect()
        };
        let links = |names: &[&str]| {
            let mut l = NamespaceLinks::default();
            for o in objs.iter().filter(|o| names.contains(&o.name.as_str())) {
                l.note(o);
            }
            pairs(&l)
        };
        // Up to its parents, down to its backends; each link once.
        assert_eq!(
            links(&["shop"]),
            ["backends>shop", "shop>edge", "shop>infra"]
        );
        assert_eq!(links(&["extra"]), ["edge>infra2"]);
        // Its own namespace is no link.
        assert_eq!(links(&["local"]), ["shop>infra"]);
        assert!(links(&["let-shop-in", "cart"]).is_empty());
        // Noted one by one, or over all objects at once: the same.
        let all: Vec<&str> = objs.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(links(&all), pairs(&NamespaceLinks::of(&objs)));
    }

    fn closure(objs: &[Object], starts: &[&str]) -> Vec<String> {
        let starts = starts.iter().map(|s| s.to_string()).collect();
        namespace_closure(&NamespaceLinks::of(objs), &starts)
            .into_iter()
            .collect()
    }

    #[test]
    fn a_namespace_needs_what_lies_below_it_and_everything_above_that() {
        let objs = objects(WORLD);
        // shop's routes go down to backends, and up to infra and, through the
        // ListenerSet in edge, to infra2.
        assert_eq!(
            closure(&objs, &["shop"]),
            ["backends", "edge", "infra", "infra2", "shop"]
        );
        // A Gateway's namespace: every namespace whose routes attach below it.
        assert_eq!(
            closure(&objs, &["infra2"]),
            ["backends", "edge", "infra", "infra2", "shop"]
        );
        // infra holds a parent only: below it shop and backends, above them edge, infra2.
        assert_eq!(
            closure(&objs, &["infra"]),
            ["backends", "edge", "infra", "infra2", "shop"]
        );
    }

    #[test]
    fn an_unlinked_namespace_needs_only_itself() {
        let objs = objects(WORLD);
        assert_eq!(closure(&objs, &["elsewhere"]), ["elsewhere"]);
        // Without the route nothing links backends to anything.
        let alone: Vec<Object> = objs.into_iter().filter(|o| o.kind != "HTTPRoute").collect();
        assert_eq!(closure(&alone, &["backends"]), ["backends"]);
        assert_eq!(closure(&alone, &["edge"]), ["edge", "infra2"]);
    }

    #[test]
    fn a_pod_is_read_with_its_namespace_a_service_with_its_references() {
        let catalog = Catalog::build(&[], &[]);
        let pod = ObjRef::new("", "Pod", Some("app"), "pay-1");
        assert_eq!(
            live_scope(&Need::Object(pod), &catalog, "elsewhere", false),
            ReadScope::Namespace("app".into())
        );
        let service = ObjRef::new("", "Service", Some("app"), "payments");
        assert_eq!(
            live_scope(&Need::Object(service.clone()), &catalog, "elsewhere", false),
            ReadScope::Object(service)
        );
        // A Secret: the policies that name it may be anywhere a grant lets them.
        let secret = ObjRef::new("", "Secret", Some("app"), "users");
        assert_eq!(
            live_scope(&Need::Object(secret), &catalog, "elsewhere", false),
            ReadScope::Cluster {
                fallback: vec!["elsewhere".into()]
            }
        );
    }
}

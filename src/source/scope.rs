//! Which namespaces an answer needs. Policies reach an object through its ancestors
//! (GatewayClass → Gateway/ListenerSet → route → rule → backend), so the answer about
//! one object needs the namespaces of every ancestor: a route's parents, a
//! ListenerSet's Gateway, and for a backend the routes that may point at it — in its
//! own namespace, or in a namespace a ReferenceGrant there lets in — and of its
//! children. Pure: it walks the objects read so far and names the namespaces.
//!
//! Two walks: [`needed_namespaces`] for a live read, which follows references object by
//! object as the namespaces arrive; [`namespace_closure`] for objects already all in
//! hand, which links whole namespaces (never narrower than the objects' own links).

use crate::model::Object;
use crate::model::{is_gateway_group, ObjRef, GATEWAY_GROUP, GATEWAY_X_GROUP, ROUTE_KINDS};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

fn is_route(o: &Object) -> bool {
    is_gateway_group(o.group()) && ROUTE_KINDS.contains(&o.kind.as_str())
}

/// A `parentRefs`/`backendRefs` entry as a reference, with the defaults the spec gives.
fn reference(v: &Value, from_ns: &str, default_group: &str, default_kind: &str) -> Option<ObjRef> {
    let name = v.get("name")?.as_str()?;
    let group = v
        .get("group")
        .and_then(Value::as_str)
        .unwrap_or(default_group);
    let kind = v
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or(default_kind);
    Some(ObjRef::new(
        group,
        kind,
        Some(namespace_of(v, from_ns)),
        name,
    ))
}

/// A reference's namespace: its `namespace`, else the referring object's.
fn namespace_of<'o>(v: &'o Value, from_ns: &'o str) -> &'o str {
    v.get("namespace")
        .and_then(Value::as_str)
        .unwrap_or(from_ns)
}

/// A route's `parentRefs` entries, or a ListenerSet's single `parentRef`.
fn parent_ref_values(o: &Object) -> impl Iterator<Item = &Value> {
    let refs = o.spec.get("parentRefs").and_then(Value::as_array);
    refs.into_iter().flatten().chain(o.spec.get("parentRef"))
}

/// A route's rules' `backendRefs` entries.
fn backend_ref_values(o: &Object) -> impl Iterator<Item = &Value> {
    let rules = o.spec.get("rules").and_then(Value::as_array);
    rules
        .into_iter()
        .flatten()
        .filter_map(|rule| rule.get("backendRefs").and_then(Value::as_array))
        .flatten()
}

fn parent_refs(o: &Object) -> Vec<ObjRef> {
    let ns = o.namespace.as_deref().unwrap_or_default();
    parent_ref_values(o)
        .filter_map(|r| reference(r, ns, GATEWAY_GROUP, "Gateway"))
        .collect()
}

fn backend_refs(o: &Object) -> Vec<ObjRef> {
    let ns = o.namespace.as_deref().unwrap_or_default();
    backend_ref_values(o)
        .filter_map(|b| reference(b, ns, "", "Service"))
        .collect()
}

/// Namespaces whose routes may point at `backend`: its own, and those a
/// ReferenceGrant in its namespace admits routes from.
fn route_namespaces_for(backend: &ObjRef, objects: &[Object]) -> BTreeSet<String> {
    let Some(ns) = backend.namespace.clone() else {
        return BTreeSet::new();
    };
    let mut out = BTreeSet::from([ns.clone()]);
    for grant in objects.iter().filter(|o| {
        o.kind == "ReferenceGrant"
            && is_gateway_group(o.group())
            && o.namespace.as_deref() == Some(&ns)
    }) {
        let to = grant.spec.get("to").and_then(Value::as_array);
        let admits_backend = to.into_iter().flatten().any(|t| {
            let group = t.get("group").and_then(Value::as_str).unwrap_or_default();
            let kind = t.get("kind").and_then(Value::as_str).unwrap_or_default();
            let name = t.get("name").and_then(Value::as_str);
            group == backend.group && kind == backend.kind && name.is_none_or(|n| n == backend.name)
        });
        if !admits_backend {
            continue;
        }
        let from = grant.spec.get("from").and_then(Value::as_array);
        for f in from.into_iter().flatten() {
            let kind = f.get("kind").and_then(Value::as_str).unwrap_or_default();
            if ROUTE_KINDS.contains(&kind) {
                if let Some(n) = f.get("namespace").and_then(Value::as_str) {
                    out.insert(n.to_string());
                }
            }
        }
    }
    out
}

/// Every namespace holding an ancestor of one of `starts` (and the starts' own),
/// as far as the objects read so far tell. Call it again after reading the new
/// namespaces: it stops growing once everything it names has been read.
pub fn needed_namespaces(objects: &[Object], starts: &[ObjRef]) -> BTreeSet<String> {
    let mut by_ref: BTreeMap<ObjRef, &Object> = BTreeMap::new();
    let mut routes_by_ns: BTreeMap<&str, Vec<&Object>> = BTreeMap::new();
    for o in objects {
        by_ref.insert(o.obj_ref(), o);
        if is_route(o) {
            if let Some(ns) = o.namespace.as_deref() {
                routes_by_ns.entry(ns).or_default().push(o);
            }
        }
    }
    let mut needed = BTreeSet::new();
    // A start's children are part of its answer: a route's backends.
    for r in starts {
        let children = by_ref.get(&r.object()).filter(|o| is_route(o));
        needed.extend(
            children
                .into_iter()
                .flat_map(|o| backend_refs(o))
                .filter_map(|b| b.namespace),
        );
    }
    let mut seen: BTreeSet<ObjRef> = BTreeSet::new();
    let mut queue: VecDeque<ObjRef> = starts.iter().map(ObjRef::object).collect();
    while let Some(r) = queue.pop_front() {
        if !seen.insert(r.clone()) {
            continue;
        }
        if let Some(ns) = &r.namespace {
            needed.insert(ns.clone());
        }
        // ListenerSet is still XListenerSet in the experimental channel.
        let object = by_ref.get(&r).copied().or_else(|| {
            (r.kind == "ListenerSet")
                .then(|| {
                    let mut x = r.clone();
                    x.group = GATEWAY_X_GROUP.into();
                    x.kind = "XListenerSet".into();
                    by_ref.get(&x).copied()
                })
                .flatten()
        });
        if let Some(o) = object {
            if is_route(o) || o.kind.ends_with("ListenerSet") {
                queue.extend(parent_refs(o));
            }
        }
        let is_backend = (r.kind == "Service" && r.group.is_empty())
            || (r.kind == "ServiceImport" && r.group == "multicluster.x-k8s.io");
        if is_backend {
            for ns in route_namespaces_for(&r, objects) {
                for route in routes_by_ns.get(ns.as_str()).into_iter().flatten() {
                    if backend_refs(route).contains(&r) {
                        queue.push_back(route.obj_ref());
                    }
                }
                needed.insert(ns);
            }
        }
    }
    needed
}

/// The hierarchy's links between namespaces, each from a child's namespace to its
/// parent's: a route's to its parents' (Gateways, ListenerSets, a mesh Service), a
/// ListenerSet's to its Gateway's, a backend's to the route's that names it. Noted
/// as objects are read (`note`), while their specs are still in cache: walking
/// 20,000 routes' specs again once all are read costs a fifth as much as reading them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NamespaceLinks {
    /// Child namespace → its parents' namespaces (never itself).
    up: BTreeMap<String, BTreeSet<String>>,
}

impl NamespaceLinks {
    pub fn of(objects: &[Object]) -> NamespaceLinks {
        let mut links = NamespaceLinks::default();
        for o in objects {
            links.note(o);
        }
        links
    }

    /// Adds the links `o` makes (a route's, a ListenerSet's; other objects make none).
    pub fn note(&mut self, o: &Object) {
        let Some(ns) = o.namespace.as_deref() else {
            return;
        };
        if !(is_route(o) || (o.kind.ends_with("ListenerSet") && is_gateway_group(o.group()))) {
            return;
        }
        for p in parent_ref_values(o) {
            self.add(ns, namespace_of(p, ns));
        }
        for b in backend_ref_values(o) {
            self.add(namespace_of(b, ns), ns);
        }
    }

    /// Adds `other`'s links.
    pub fn extend(&mut self, other: NamespaceLinks) {
        for (child, parents) in other.up {
            self.up.entry(child).or_default().extend(parents);
        }
    }

    fn add(&mut self, child: &str, parent: &str) {
        // Looked up before anything is allocated: almost every link is there already.
        let known = self.up.get(child).is_some_and(|ps| ps.contains(parent));
        if child != parent && !known {
            let parents = self.up.entry(child.to_string()).or_default();
            parents.insert(parent.to_string());
        }
    }
}

/// Every namespace an answer about `starts` can depend on, the objects being all in
/// hand (`links` are theirs): the namespaces below the starts (where their
/// descendants may live), then every namespace above those (where the ancestors of
/// any of them may live). Namespaces are linked whole, so the result only ever errs
/// on the wide side.
pub fn namespace_closure(links: &NamespaceLinks, starts: &BTreeSet<String>) -> BTreeSet<String> {
    let mut down: HashMap<&str, Vec<&str>> = HashMap::new();
    for (child, parents) in &links.up {
        for parent in parents {
            down.entry(parent).or_default().push(child);
        }
    }
    let below = reach(starts, |ns| down.get(ns).cloned().unwrap_or_default());
    reach(&below, |ns| {
        let parents = links.up.get(ns).into_iter().flatten();
        parents.map(String::as_str).collect()
    })
}

/// `from` and every namespace `next` leads to from them, and on.
fn reach<'l>(from: &BTreeSet<String>, next: impl Fn(&str) -> Vec<&'l str>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<String> = from.iter().cloned().collect();
    while let Some(ns) = stack.pop() {
        if !seen.contains(&ns) {
            stack.extend(next(&ns).into_iter().map(str::to_string));
            seen.insert(ns);
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
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
            let up = l.up.iter();
            up.flat_map(|(c, ps)| ps.iter().map(move |p| format!("{c}>{p}")))
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
}

//! Which namespaces a live read for one object needs, followed object by object as the
//! namespaces arrive. Policies reach an object through its ancestors (GatewayClass →
//! Gateway/ListenerSet → route → rule → backend), so the answer about one object needs
//! the namespaces of every ancestor: a route's parents, a ListenerSet's Gateway, and for
//! a backend the routes that may point at it — in its own namespace, or in a namespace a
//! ReferenceGrant there lets in — and of its children.

use super::references::spec_references;
use crate::catalog::references::kind_allowed;
use crate::catalog::{registry, RefNamespaces};
use crate::model::{
    backend_refs, experimental_alias, is_gateway_group, is_route_object, normalize_group,
    parent_refs, GroupKind, ObjRef, Object, Val, ROUTE_KINDS,
};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Namespaces whose routes may point at `backend`: its own, and those a
/// ReferenceGrant in its namespace admits routes from.
fn route_namespaces_for(backend: &ObjRef, objects: &[Object]) -> BTreeSet<String> {
    let Some(ns) = backend.namespace.as_deref().map(str::to_string) else {
        return BTreeSet::new();
    };
    let mut out = granted_from(backend, objects, |_, kind| ROUTE_KINDS.contains(&kind));
    out.insert(ns);
    out
}

/// Namespaces whose policies may name `object` in their specs through a ReferenceGrant
/// in its namespace (an ext-auth Service of another namespace): those the grants admit
/// a policy kind from whose reference fields may name its kind with a grant
/// (`RefNamespaces::WithGrant`). Their policies are read, so that `describe` of the
/// object says who depends on it (`referencedBy`).
fn referrer_namespaces_for(object: &ObjRef, objects: &[Object]) -> BTreeSet<String> {
    granted_from(object, objects, |group, kind| {
        registry::lookup(&GroupKind::new(group, kind)).is_some_and(|entry| {
            entry.references.iter().any(|f| {
                f.namespaces == RefNamespaces::WithGrant
                    && kind_allowed(f, &object.group, &object.kind)
            })
        })
    })
}

/// The namespaces of the policies that name one of `starts` in their specs, part of
/// its answer too: those a ReferenceGrant lets name it, and those read that name it (a
/// kind read in every namespace because it may name objects of any,
/// `Catalog::kinds_for_reading`).
fn referrers_of(objects: &[Object], starts: &[ObjRef]) -> BTreeSet<String> {
    let mut out = namespaces_naming(objects, starts);
    for r in starts {
        out.extend(referrer_namespaces_for(&r.object(), objects));
    }
    out
}

/// The namespaces of the policies among `objects` whose references name one of
/// `starts`.
fn namespaces_naming(objects: &[Object], starts: &[ObjRef]) -> BTreeSet<String> {
    let starts: BTreeSet<ObjRef> = starts.iter().map(ObjRef::object).collect();
    let mut out = BTreeSet::new();
    for policy in objects {
        let Some(ns) = policy.namespace.as_deref() else {
            continue;
        };
        if out.contains(ns) {
            continue;
        }
        let Some((_, refs)) = spec_references(policy) else {
            continue;
        };
        if refs.iter().any(|r| starts.contains(&r.target.object())) {
            out.insert(ns.to_string());
        }
    }
    out
}

/// The `from` namespaces of the ReferenceGrants in `to`'s namespace that admit a
/// reference to it from a kind `from_kind` accepts (group, kind).
fn granted_from(
    to: &ObjRef,
    objects: &[Object],
    from_kind: impl Fn(&str, &str) -> bool,
) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let Some(ns) = to.namespace.as_deref() else {
        return out;
    };
    for grant in objects.iter().filter(|o| {
        o.kind == "ReferenceGrant"
            && is_gateway_group(o.group())
            && o.namespace.as_deref() == Some(ns)
    }) {
        let admits = grant.spec.get("to").and_then(Val::as_array);
        let admits = admits.into_iter().flatten().any(|t| {
            let group = t.get("group").and_then(Val::as_str).unwrap_or_default();
            let kind = t.get("kind").and_then(Val::as_str).unwrap_or_default();
            let name = t.get("name").and_then(Val::as_str);
            normalize_group(group) == to.group
                && kind == to.kind
                && name.is_none_or(|n| n == to.name)
        });
        if !admits {
            continue;
        }
        let from = grant.spec.get("from").and_then(Val::as_array);
        for f in from.into_iter().flatten() {
            let group = f.get("group").and_then(Val::as_str).unwrap_or_default();
            let kind = f.get("kind").and_then(Val::as_str).unwrap_or_default();
            if from_kind(normalize_group(group), kind) {
                if let Some(n) = f.get("namespace").and_then(Val::as_str) {
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
        if is_route_object(o) {
            if let Some(ns) = o.namespace.as_deref() {
                routes_by_ns.entry(ns).or_default().push(o);
            }
        }
    }
    let mut needed = BTreeSet::new();
    needed.extend(referrers_of(objects, starts));
    // A start's children are part of its answer: a route's backends.
    for r in starts {
        let children = by_ref.get(&r.object()).filter(|o| is_route_object(o));
        needed.extend(
            children
                .into_iter()
                .flat_map(|o| backend_refs(o))
                .filter_map(|b| b.namespace.map(String::from)),
        );
    }
    let mut anywhere = false;
    let mut seen: BTreeSet<ObjRef> = BTreeSet::new();
    let mut queue: VecDeque<ObjRef> = starts.iter().map(ObjRef::object).collect();
    while let Some(r) = queue.pop_front() {
        if !seen.insert(r.clone()) {
            continue;
        }
        if let Some(ns) = &r.namespace {
            needed.insert(ns.to_string());
        }
        let object = by_ref.get(&r).copied().or_else(|| {
            let (group, kind) = experimental_alias(&r.kind)?;
            let mut x = r.clone();
            (x.group, x.kind) = (group.into(), kind.into());
            by_ref.get(&x).copied()
        });
        if let Some(o) = object {
            if is_route_object(o) || o.kind.ends_with("ListenerSet") {
                let parents = parent_refs(o);
                // A route that names no parent may be a delegated child (kgateway): the
                // route delegating to it may be in any namespace.
                anywhere |= parents.is_empty() && is_route_object(o);
                queue.extend(parents);
            }
            if is_route_object(o) {
                // Routes that delegate to it (a backendRef of kind HTTPRoute) are its parents.
                let delegating = routes_by_ns.values().flatten().filter(|p| {
                    backend_refs(p).iter().any(|b| {
                        b.kind == r.kind
                            && b.group == r.group
                            && b.namespace == r.namespace
                            && (b.name == r.name || b.name == "*")
                    })
                });
                queue.extend(delegating.map(|p| p.obj_ref()));
            }
        }
        // A backend: a Service, a ServiceImport, or an object of another project a
        // backendRef may name (an Envoy Gateway Backend); not a Gateway API object.
        let is_backend = (r.kind == "Service" && r.group.is_empty())
            || (r.kind == "ServiceImport" && r.group == "multicluster.x-k8s.io")
            || (r.group.contains('.') && !is_gateway_group(&r.group) && r.section.is_none());
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
    // A GatewayClass's parameters may decide a verdict (Envoy Gateway's mergeGateways):
    // their namespace is read with the classes that name them.
    needed.extend(
        super::parameters::class_parameters_named(objects)
            .into_iter()
            .map(|(_, ns, _)| ns),
    );
    if anywhere {
        needed.extend(
            objects
                .iter()
                .filter_map(|o| match (&o.namespace, o.kind.as_str()) {
                    (None, "Namespace") => Some(o.name.to_string()),
                    (ns, _) => ns.as_deref().map(str::to_string),
                }),
        );
    }
    needed
}

//! The references routes and ListenerSets make to other namespaces (parentRefs,
//! backendRefs), read from their objects' specs, and the links between namespaces they
//! make: what an answer about one object follows to tell which namespaces it needs.

use super::links::reference;
use super::view::{self, MapOr};
use super::{is_gateway_group, is_route, ObjRef, Object, Spec, Val, GATEWAY_GROUP};
use rayon::prelude::*;
use serde::Deserialize;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// A route of the Gateway API, standard or experimental.
pub(crate) fn is_route_object(object: &Object) -> bool {
    is_route(object.group(), &object.kind)
}

/// A route's `parentRefs` entries, or a ListenerSet's single `parentRef`. Read from the
/// spec: for what runs before the snapshot is settled (narrowing, the live plan), since
/// settling keeps only a route's `Links`.
pub(crate) fn parent_ref_values(object: &Object) -> impl Iterator<Item = &Val> {
    let refs = object.spec.get("parentRefs").and_then(Val::as_array);
    refs.into_iter()
        .flatten()
        .chain(object.spec.get("parentRef"))
}

/// A route's rules' `backendRefs` entries.
pub(crate) fn backend_ref_values(object: &Object) -> impl Iterator<Item = &Val> {
    let rules = object.spec.get("rules").and_then(Val::as_array);
    rules
        .into_iter()
        .flatten()
        .filter_map(|rule| rule.get("backendRefs").and_then(Val::as_array))
        .flatten()
}

pub(crate) fn parent_refs(object: &Object) -> Vec<ObjRef> {
    let ns = object.namespace.as_deref().unwrap_or_default();
    parent_ref_values(object)
        .filter_map(|r| reference(r, ns, GATEWAY_GROUP, "Gateway"))
        .collect()
}

pub(crate) fn backend_refs(object: &Object) -> Vec<ObjRef> {
    let ns = object.namespace.as_deref().unwrap_or_default();
    backend_ref_values(object)
        .filter_map(|b| reference(b, ns, "", "Service"))
        .collect()
}

/// The namespaces a route's or ListenerSet's references name: a view of its spec
/// (`model::view`), read from its JSON text without building it. As leniently as
/// `parent_ref_values` and `backend_ref_values` read the built spec: a reference
/// that is not a mapping, or whose namespace is not a string, names its route's own.
#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct RefNamespaces<'t> {
    #[serde(borrow, deserialize_with = "view::list_of")]
    parent_refs: Option<Vec<RefNamespace<'t>>>,
    #[serde(borrow, deserialize_with = "view::present")]
    parent_ref: Option<RefNamespace<'t>>,
    #[serde(borrow, deserialize_with = "view::list_of")]
    rules: Option<Vec<RuleRefs<'t>>>,
}

#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct RuleRefs<'t> {
    #[serde(borrow, deserialize_with = "view::list_of")]
    backend_refs: Option<Vec<RefNamespace<'t>>>,
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct RefNamespace<'t> {
    #[serde(borrow, deserialize_with = "view::borrowed_string")]
    namespace: Option<Cow<'t, str>>,
}

/// The hierarchy's links between namespaces, each from a child's namespace to its
/// parent's: a route's to its parents' (Gateways, ListenerSets, a mesh Service), a
/// ListenerSet's to its Gateway's, a backend's to the route's that names it. Read
/// only by an answer that narrows (`of`, on every core, from the specs' text): an
/// answer about everything never pays for them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct NamespaceLinks {
    /// Child namespace → its parents' namespaces (never itself).
    up: BTreeMap<String, BTreeSet<String>>,
}

impl NamespaceLinks {
    /// The links `objects` make, read on every core.
    pub(crate) fn of(objects: &[Object]) -> NamespaceLinks {
        let parts: Vec<NamespaceLinks> = objects
            .par_chunks(1024)
            .map(|run| {
                let mut links = NamespaceLinks::default();
                for o in run {
                    links.note(o);
                }
                links
            })
            .collect();
        let mut links = NamespaceLinks::default();
        for part in parts {
            links.extend(part);
        }
        links
    }

    /// Adds the links `o` makes (a route's, a ListenerSet's; other objects make none).
    pub(crate) fn note(&mut self, o: &Object) {
        let Some(ns) = o.namespace.as_deref() else {
            return;
        };
        if !(is_route_object(o) || (o.kind.ends_with("ListenerSet") && is_gateway_group(o.group())))
        {
            return;
        }
        // A settled route or backend keeps its links, not its spec.
        if let Spec::Links(links) = &o.spec {
            for p in links.parent_refs.items() {
                self.add(ns, p.namespace.as_deref().unwrap_or(ns));
            }
            let rules = links.rules.items().iter();
            for b in rules.flat_map(|r| r.backend_refs.iter().flatten()) {
                self.add(b.namespace.as_deref().unwrap_or(ns), ns);
            }
            return;
        }
        // Read for its references' namespaces alone: from a spec still held as text
        // without building it (an answer about one object may never look at it), a
        // key written twice from a value built for the read.
        let mut add = |refs: RefNamespaces| {
            for p in refs.parent_refs.iter().flatten().chain(&refs.parent_ref) {
                self.add(ns, p.namespace.as_deref().unwrap_or(ns));
            }
            let rules = refs.rules.iter().flatten();
            for b in rules.flat_map(|r| r.backend_refs.iter().flatten()) {
                self.add(b.namespace.as_deref().unwrap_or(ns), ns);
            }
        };
        match o.spec.view::<MapOr<RefNamespaces>>() {
            Some(MapOr(refs)) => add(refs),
            None => o
                .spec
                .with(|spec| add(spec.view::<MapOr<_>>().unwrap_or_default().0)),
        }
    }

    /// Adds `other`'s links.
    pub(crate) fn extend(&mut self, other: NamespaceLinks) {
        for (child, parents) in other.up {
            self.up.entry(child).or_default().extend(parents);
        }
    }

    /// Each namespace and the namespaces of its parents (never itself).
    pub(crate) fn parents(&self) -> impl Iterator<Item = (&str, &BTreeSet<String>)> {
        self.up.iter().map(|(c, ps)| (c.as_str(), ps))
    }

    /// The namespaces of `child`'s parents.
    pub(crate) fn parents_of(&self, child: &str) -> impl Iterator<Item = &str> {
        self.up.get(child).into_iter().flatten().map(String::as_str)
    }

    fn add(&mut self, child: &str, parent: &str) {
        // Looked up before anything is allocated: almost every link is there already.
        if child == parent || self.up.get(child).is_some_and(|ps| ps.contains(parent)) {
            return;
        }
        let parents = self.up.entry(child.to_string()).or_default();
        parents.insert(parent.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::links::namespace_of;
    use crate::source::files::{load_text, Loaded};

    /// A route in namespace `a` with `spec`, read from JSON: its spec still text.
    fn route(kind: &str, spec: &str) -> Object {
        let json = format!(
            r#"{{"apiVersion":"gateway.networking.k8s.io/v1","kind":"{kind}","metadata":{{"name":"r","namespace":"a"}},"spec":{spec}}}"#
        );
        let mut loaded = Loaded::default();
        load_text(&json, "r.json", &mut loaded).unwrap();
        loaded.snapshot.objects.remove(0)
    }

    /// The links read from the references' values of the built spec, one by one.
    fn by_hand(o: &Object) -> NamespaceLinks {
        let mut links = NamespaceLinks::default();
        let ns = o.namespace.as_deref().unwrap_or_default();
        for p in parent_ref_values(o) {
            links.add(ns, namespace_of(p, ns));
        }
        for b in backend_ref_values(o) {
            links.add(namespace_of(b, ns), ns);
        }
        links
    }

    #[test]
    fn namespaces_read_as_a_view_of_text_or_value_are_those_of_the_references() {
        for (kind, spec) in [
            (
                "HTTPRoute",
                r#"{"parentRefs":[{"name":"gw","namespace":"infra"},{"name":"x"}],
                "rules":[{"backendRefs":[{"name":"s","namespace":"b"},{"name":"t"}]},
                {"matches":[]}],"other":{"deep":[1]}}"#,
            ),
            (
                "HTTPRoute",
                r#"{"parentRefs":[null,1,"gw",{"namespace":5},{"namespace":"c\u0064"}],
                "rules":[null,{"backendRefs":{"namespace":"z"}},{"backendRefs":[7,{"namespace":null},
                {"namespace":"e"}]}]}"#,
            ),
            (
                "HTTPRoute",
                r#"{"parentRefs":{"namespace":"z"},"rules":"r","parentRef":{"namespace":"y"}}"#,
            ),
            (
                "HTTPRoute",
                r#"{"parentRefs":[{"namespace":"p","namespace":"q"}],"rules":[{"backendRefs":
                [{"namespace":"m"}],"backendRefs":[{"namespace":"n"}]}]}"#,
            ),
            (
                "XListenerSet",
                r#"{"parentRef":{"name":"gw","namespace":"infra"}}"#,
            ),
            ("XListenerSet", r#"{"parentRef":null}"#),
            ("HTTPRoute", r#"null"#),
            ("HTTPRoute", r#"[{"parentRefs":[{"namespace":"z"}]}]"#),
        ] {
            let (text, built) = (route(kind, spec), route(kind, spec));
            let expected = by_hand(&built);
            let from_text = NamespaceLinks::of(std::slice::from_ref(&text));
            assert!(text.spec.unbuilt_text().is_some(), "not built: {spec}");
            assert_eq!(from_text, expected, "{spec}");
            assert_eq!(NamespaceLinks::of(&[built]), expected, "{spec}");
        }
    }
}

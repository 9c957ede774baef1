//! The references routes and ListenerSets make to other namespaces (parentRefs,
//! backendRefs), read from their objects' specs, and the links between namespaces they
//! make: what an answer about one object follows to tell which namespaces it needs.

use super::links::{namespace_of, reference, Links};
use super::{is_gateway_group, is_route, ObjRef, Object, Val, GATEWAY_GROUP};
use rayon::prelude::*;
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

/// The namespaces a route's or ListenerSet's references name, read from its spec's
/// JSON text (every other field skipped). Reading fails on any shape it does not
/// expect (a reference that is not a mapping, a namespace that is not a string, a key
/// written twice): the caller then reads the built spec.
#[derive(serde::Deserialize)]
struct RefNamespaces<'t> {
    #[serde(borrow, rename = "parentRefs", default)]
    parent_refs: Option<Vec<RefNamespace<'t>>>,
    #[serde(borrow, rename = "parentRef", default)]
    parent_ref: Option<RefNamespace<'t>>,
    #[serde(borrow, default)]
    rules: Option<Vec<RuleRefs<'t>>>,
}

#[derive(serde::Deserialize)]
struct RuleRefs<'t> {
    #[serde(borrow, rename = "backendRefs", default)]
    backend_refs: Option<Vec<RefNamespace<'t>>>,
}

#[derive(serde::Deserialize)]
struct RefNamespace<'t> {
    #[serde(borrow, default)]
    namespace: Option<std::borrow::Cow<'t, str>>,
}

impl<'t> RefNamespaces<'t> {
    fn read(text: &'t str) -> Option<RefNamespaces<'t>> {
        serde_json::from_str(text).ok()
    }
}

/// The hierarchy's links between namespaces, each from a child's namespace to its
/// parent's: a route's to its parents' (Gateways, ListenerSets, a mesh Service), a
/// ListenerSet's to its Gateway's, a backend's to the route's that names it. Read
/// only by an answer that narrows (`of`, on every core, from the specs' text): an
/// answer about everything never pays for them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NamespaceLinks {
    /// Child namespace → its parents' namespaces (never itself).
    up: BTreeMap<String, BTreeSet<String>>,
}

impl NamespaceLinks {
    /// The links `objects` make, read on every core.
    pub fn of(objects: &[Object]) -> NamespaceLinks {
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
    pub fn note(&mut self, o: &Object) {
        let Some(ns) = o.namespace.as_deref() else {
            return;
        };
        if !(is_route_object(o) || (o.kind.ends_with("ListenerSet") && is_gateway_group(o.group())))
        {
            return;
        }
        // A settled route or backend keeps its links, not its spec.
        if let Some(links) = o
            .links
            .get()
            .filter(|_| Links::kept_for(o.group(), &o.kind))
        {
            for p in links.parent_refs.items() {
                self.add(ns, p.namespace.as_deref().unwrap_or(ns));
            }
            let rules = links.rules.items().iter();
            for b in rules.flat_map(|r| r.backend_refs.iter().flatten()) {
                self.add(b.namespace.as_deref().unwrap_or(ns), ns);
            }
            return;
        }
        // A spec still held as text is read for its references' namespaces alone,
        // without building it (an answer about one object may never look at it); any
        // shape that reading does not expect is read the full way.
        if let Some(refs) = o.spec.unbuilt_text().and_then(RefNamespaces::read) {
            for p in refs.parent_refs.iter().flatten().chain(&refs.parent_ref) {
                self.add(ns, p.namespace.as_deref().unwrap_or(ns));
            }
            let rules = refs.rules.iter().flatten();
            for b in rules.flat_map(|r| r.backend_refs.iter().flatten()) {
                self.add(b.namespace.as_deref().unwrap_or(ns), ns);
            }
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

    /// Each namespace and the namespaces of its parents (never itself).
    pub fn parents(&self) -> impl Iterator<Item = (&str, &BTreeSet<String>)> {
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

//! The references routes and ListenerSets make to other namespaces (parentRefs,
//! backendRefs), read from their specs, and the links between namespaces they make:
//! what an answer about one object follows to tell which namespaces it needs.

use super::{is_gateway_group, is_route, text, ObjRef, Object, Text, Val, GATEWAY_GROUP};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// A route of the Gateway API, standard or experimental.
pub(crate) fn is_route_object(object: &Object) -> bool {
    is_route(object.group(), &object.kind)
}

/// A `parentRefs`/`backendRefs` entry as a reference, with the defaults the spec gives.
pub(crate) fn reference(
    v: &Val,
    from_ns: &str,
    default_group: &str,
    default_kind: &str,
) -> Option<ObjRef> {
    let name = v.get("name")?.as_str()?;
    let group = v
        .get("group")
        .and_then(Val::as_str)
        .unwrap_or(default_group);
    let kind = v.get("kind").and_then(Val::as_str).unwrap_or(default_kind);
    Some(ObjRef::new(
        group,
        kind,
        Some(namespace_of(v, from_ns)),
        name,
    ))
}

/// A reference's namespace: its `namespace`, else the referring object's.
pub(crate) fn namespace_of<'o>(v: &'o Val, from_ns: &'o str) -> &'o str {
    v.get("namespace").and_then(Val::as_str).unwrap_or(from_ns)
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
        if let Some(links) = o.links.get().filter(|_| Links::kept_for(o)) {
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

/// What the hierarchy reads of a route's or a backend's spec, held typed: a route's
/// `parentRefs`, `hostnames` and `rules` (each rule's name, `backendRefs` and the
/// `extensionRef`s of its filters), a backend's `ports`. Read once; the rest of the
/// spec is never built unless an answer looks at it.
///
/// Each field keeps what the hierarchy needs to tell a misshapen spec from a sparse
/// one: a field that is not a list, a reference with no name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Links {
    pub parent_refs: ListField<RefFields>,
    /// The strings among `hostnames`.
    pub hostnames: Vec<Text>,
    pub rules: ListField<RuleLinks>,
    /// Each `ports` entry's section name (`name`, else `port`): none when it has neither.
    pub ports: ListField<Option<Text>>,
    /// The named ports' numbers (section name, `port`): what a backendRef's `port`
    /// names.
    pub port_numbers: Vec<(Text, u64)>,
}

/// A list field of a spec: absent (or null), not a list, or its entries.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum ListField<T> {
    #[default]
    Absent,
    NotAList,
    Items(Vec<T>),
}

impl<T> ListField<T> {
    /// The entries (none unless it is a list).
    pub fn items(&self) -> &[T] {
        match self {
            ListField::Items(v) => v,
            _ => &[],
        }
    }

    fn read(v: Option<&Val>, entry: impl Fn(&Val) -> T) -> ListField<T> {
        match v {
            None | Some(Val::Null) => ListField::Absent,
            Some(Val::Array(a)) => ListField::Items(a.iter().map(entry).collect()),
            Some(_) => ListField::NotAList,
        }
    }
}

/// A port as a section: by its name; an unnamed port by its number (it cannot be
/// targeted).
pub(crate) fn port_section(p: &Val) -> Option<Text> {
    match p.get("name").and_then(Val::as_str) {
        Some(n) if !n.is_empty() => Some(text(n)),
        _ => p
            .get("port")
            .and_then(Val::as_u64)
            .map(|n| text(&n.to_string())),
    }
}

/// One rule of a route.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleLinks {
    /// Its `name`, when that is a non-empty string.
    pub name: Option<Text>,
    /// Its `backendRefs`, when that is a list.
    pub backend_refs: Option<Vec<RefFields>>,
    /// The `extensionRef` of each of its `filters` that has one.
    pub extension_refs: Vec<RefFields>,
}

impl RuleLinks {
    /// The rule's section name: its `name`, else its position (`rule-1` first, as
    /// policy-machinery names them). Only a real name can be targeted by sectionName.
    pub fn section(&self, index: usize) -> String {
        match &self.name {
            Some(n) => n.to_string(),
            None => format!("rule-{}", index + 1),
        }
    }
}

/// The fields of a reference (a parentRef, a backendRef, an extensionRef) the
/// hierarchy reads; a field that is not a string (a number) reads as absent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RefFields {
    pub name: Option<Text>,
    pub group: Option<Text>,
    pub kind: Option<Text>,
    pub namespace: Option<Text>,
    pub section_name: Option<Text>,
    pub port: Option<u64>,
}

impl RefFields {
    pub fn read(v: &Val) -> RefFields {
        let mut f = RefFields::default();
        let s = |v: &Val| v.as_str().map(text);
        for (k, v) in v.as_object().into_iter().flatten() {
            match &**k {
                "name" => f.name = s(v),
                "group" => f.group = s(v),
                "kind" => f.kind = s(v),
                "namespace" => f.namespace = s(v),
                "sectionName" => f.section_name = s(v),
                "port" => f.port = v.as_u64(),
                _ => {}
            }
        }
        f
    }
}

impl Links {
    /// The objects whose links are kept instead of their specs: routes and the
    /// backends the hierarchy models (Services, ServiceImports).
    pub fn kept_for(object: &Object) -> bool {
        let g = object.group();
        is_route_object(object)
            || (object.kind == "Service" && g.is_empty())
            || (object.kind == "ServiceImport" && g == "multicluster.x-k8s.io")
    }

    pub fn read(spec: &Val) -> Links {
        let nonempty =
            |v: Option<&Val>| v.and_then(Val::as_str).filter(|s| !s.is_empty()).map(text);
        let rule = |r: &Val| RuleLinks {
            name: nonempty(r.get("name")),
            backend_refs: r
                .get("backendRefs")
                .and_then(Val::as_array)
                .map(|a| a.iter().map(RefFields::read).collect()),
            extension_refs: r
                .get("filters")
                .and_then(Val::as_array)
                .into_iter()
                .flatten()
                .filter_map(|f| f.get("extensionRef"))
                .map(RefFields::read)
                .collect(),
        };
        Links {
            parent_refs: ListField::read(spec.get("parentRefs"), RefFields::read),
            hostnames: spec
                .get("hostnames")
                .and_then(Val::as_array)
                .into_iter()
                .flatten()
                .filter_map(Val::as_str)
                .map(text)
                .collect(),
            rules: ListField::read(spec.get("rules"), rule),
            ports: ListField::read(spec.get("ports"), port_section),
            port_numbers: spec
                .get("ports")
                .and_then(Val::as_array)
                .into_iter()
                .flatten()
                .filter_map(|p| Some((port_section(p)?, p.get("port").and_then(Val::as_u64)?)))
                .collect(),
        }
    }
}

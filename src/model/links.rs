//! What the hierarchy reads of a route's or a backend's spec (`Links`), and a
//! `parentRefs`/`backendRefs` entry read as a reference. The references read from whole
//! objects, and the links between namespaces they make, are `namespace_links`'.

use super::{is_route, text, ObjRef, Text, Val};

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
    /// Its `type`, when that is a non-empty string (a Service's `ExternalName`): what a
    /// controller may refuse a reference to (`catalog::RefusedReferent`).
    pub spec_type: Option<Text>,
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
    pub fn kept_for(group: &str, kind: &str) -> bool {
        is_route(group, kind)
            || (kind == "Service" && group.is_empty())
            || (kind == "ServiceImport" && group == "multicluster.x-k8s.io")
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
            spec_type: nonempty(spec.get("type")),
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

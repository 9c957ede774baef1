//! What the hierarchy reads of a route's or a backend's spec (`Links`: a lenient view
//! of the spec, `model::view`, read from its text or its built value alike), and a
//! `parentRefs`/`backendRefs` entry read as a reference. The references read from whole
//! objects, and the links between namespaces they make, are `namespace_links`'.

use super::view::{self, MapOr, Str};
use super::{is_route, text, ObjRef, Text, Val};
use serde::de::IgnoredAny;
use serde::Deserialize;

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
/// `extensionRef`s of its filters), a backend's `ports`. Read once, as a view of the
/// spec (`model::view`): from its JSON text, the rest of the spec never built unless an
/// answer looks at it, or from the built spec.
///
/// Each field keeps what the hierarchy needs to tell a misshapen spec from a sparse
/// one: a field that is not a list, a reference with no name. A field of another
/// shape than it reads is absent.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(from = "MapOr<LinksView>")]
pub struct Links {
    pub(crate) parent_refs: ListField<RefFields>,
    /// The strings among `hostnames`.
    pub(crate) hostnames: Vec<Text>,
    pub(crate) rules: ListField<RuleLinks>,
    /// Each `ports` entry's section name (`name`, else `port`): none when it has neither.
    pub(crate) ports: ListField<Option<Text>>,
    /// The named ports' numbers (section name, `port`): what a backendRef's `port`
    /// names.
    pub(crate) port_numbers: Vec<(Text, u64)>,
    /// Its `type`, when that is a non-empty string (a Service's `ExternalName`): what a
    /// controller may refuse a reference to (`catalog::RefusedReferent`).
    pub(crate) spec_type: Option<Text>,
}

/// The spec as `Links` reads it: a mapping (anything else reads as one with no field).
#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct LinksView {
    parent_refs: ListField<RefFields>,
    #[serde(deserialize_with = "view::list")]
    hostnames: Option<Vec<Str>>,
    rules: ListField<RuleLinks>,
    #[serde(rename = "type", deserialize_with = "view::nonempty_string")]
    spec_type: Option<Text>,
    ports: ListField<PortView>,
}

/// A `ports` entry.
#[derive(Default, Deserialize)]
#[serde(default)]
struct PortView {
    #[serde(deserialize_with = "view::string")]
    name: Option<Text>,
    #[serde(deserialize_with = "view::uint")]
    port: Option<u64>,
}

impl PortView {
    /// The port as a section: by its name; an unnamed port by its number (it cannot be
    /// targeted).
    fn section(&self) -> Option<Text> {
        match &self.name {
            Some(n) if !n.is_empty() => Some(n.clone()),
            _ => self.port.map(|n| text(&n.to_string())),
        }
    }
}

impl From<MapOr<LinksView>> for Links {
    fn from(MapOr(spec): MapOr<LinksView>) -> Links {
        let port_numbers = (spec.ports.items().iter())
            .filter_map(|p| Some((p.section()?, p.port?)))
            .collect();
        let ports = match spec.ports {
            ListField::Absent => ListField::Absent,
            ListField::NotAList => ListField::NotAList,
            ListField::Items(v) => ListField::Items(v.iter().map(PortView::section).collect()),
        };
        let hostnames = spec.hostnames.into_iter().flatten().filter_map(|Str(s)| s);
        Links {
            parent_refs: spec.parent_refs,
            // Cut to size: kept for the whole command.
            hostnames: hostnames.collect::<Vec<_>>().into_boxed_slice().into_vec(),
            rules: spec.rules,
            ports,
            port_numbers,
            spec_type: spec.spec_type,
        }
    }
}

/// A list field of a spec: absent (or null), not a list, or its entries (each read as
/// a mapping, `MapOr`).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) enum ListField<T> {
    #[default]
    Absent,
    NotAList,
    Items(Vec<T>),
}

impl<T> ListField<T> {
    /// The entries (none unless it is a list).
    pub(crate) fn items(&self) -> &[T] {
        match self {
            ListField::Items(v) => v,
            _ => &[],
        }
    }
}

impl<'de, T: Deserialize<'de> + Default> Deserialize<'de> for ListField<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ListField<T>, D::Error> {
        struct Of<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de> + Default> serde::de::Visitor<'de> for Of<T> {
            type Value = ListField<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                seq: A,
            ) -> Result<Self::Value, A::Error> {
                let items: Vec<MapOr<T>> = view::read_list(seq)?;
                Ok(ListField::Items(items.into_iter().map(|m| m.0).collect()))
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(ListField::Absent)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(ListField::NotAList)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok(ListField::NotAList)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                Ok(ListField::NotAList)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                Ok(ListField::NotAList)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                Ok(ListField::NotAList)
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(ListField::NotAList)
            }
        }
        d.deserialize_any(Of(std::marker::PhantomData))
    }
}

/// A port as a section: by its name; an unnamed port by its number (it cannot be
/// targeted).
pub(crate) fn port_section(p: &Val) -> Option<Text> {
    p.view::<MapOr<PortView>>()?.0.section()
}

/// One rule of a route.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RuleLinks {
    /// Its `name`, when that is a non-empty string.
    #[serde(deserialize_with = "view::nonempty_string")]
    pub(crate) name: Option<Text>,
    /// Its `backendRefs`, when that is a list.
    #[serde(deserialize_with = "view::list_of")]
    pub(crate) backend_refs: Option<Vec<RefFields>>,
    /// The `extensionRef` of each of its `filters` that has one.
    #[serde(rename = "filters", deserialize_with = "extension_refs")]
    pub(crate) extension_refs: Vec<RefFields>,
}

/// The `extensionRef` of each filter that has the key, whatever its value.
fn extension_refs<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<RefFields>, D::Error> {
    #[derive(Default, Deserialize)]
    #[serde(default, rename_all = "camelCase")]
    struct Filter {
        #[serde(deserialize_with = "view::present")]
        extension_ref: Option<RefFields>,
    }
    let filters: Option<Vec<MapOr<Filter>>> = view::list(d)?;
    let refs = filters
        .into_iter()
        .flatten()
        .filter_map(|f| f.0.extension_ref);
    Ok(refs.collect::<Vec<_>>().into_boxed_slice().into_vec())
}

impl RuleLinks {
    /// The rule's section name: its `name`, else its position (`rule-1` first, as
    /// policy-machinery names them). Only a real name can be targeted by sectionName.
    pub(crate) fn section(&self, index: usize) -> String {
        match &self.name {
            Some(n) => n.to_string(),
            None => format!("rule-{}", index + 1),
        }
    }
}

/// The fields of a reference (a parentRef, a backendRef, an extensionRef) the
/// hierarchy reads; a field that is not a string (a number) reads as absent.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RefFields {
    #[serde(deserialize_with = "view::string")]
    pub(crate) name: Option<Text>,
    #[serde(deserialize_with = "view::string")]
    pub(crate) group: Option<Text>,
    #[serde(deserialize_with = "view::string")]
    pub(crate) kind: Option<Text>,
    #[serde(deserialize_with = "view::string")]
    pub(crate) namespace: Option<Text>,
    #[serde(deserialize_with = "view::string")]
    pub(crate) section_name: Option<Text>,
    #[serde(deserialize_with = "view::uint")]
    pub(crate) port: Option<u64>,
}

impl Links {
    /// The objects whose links are kept instead of their specs: routes and the
    /// backends the hierarchy models (Services, ServiceImports).
    pub(crate) fn kept_for(group: &str, kind: &str) -> bool {
        is_route(group, kind)
            || (kind == "Service" && group.is_empty())
            || (kind == "ServiceImport" && group == "multicluster.x-k8s.io")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Lazy;

    fn list<T>(v: Option<&Val>, entry: impl Fn(&Val) -> T) -> ListField<T> {
        match v {
            None | Some(Val::Null) => ListField::Absent,
            Some(Val::Array(a)) => ListField::Items(a.iter().map(entry).collect()),
            Some(_) => ListField::NotAList,
        }
    }

    /// `Links` as it was read by hand from the built spec before it was a view: the
    /// oracle every shape below is held to.
    fn by_hand(spec: &Val) -> Links {
        let nonempty =
            |v: Option<&Val>| v.and_then(Val::as_str).filter(|s| !s.is_empty()).map(text);
        let reference = |v: &Val| {
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
        };
        let section = |p: &Val| match p.get("name").and_then(Val::as_str) {
            Some(n) if !n.is_empty() => Some(text(n)),
            _ => p
                .get("port")
                .and_then(Val::as_u64)
                .map(|n| text(&n.to_string())),
        };
        let rule = |r: &Val| RuleLinks {
            name: nonempty(r.get("name")),
            backend_refs: (r.get("backendRefs").and_then(Val::as_array))
                .map(|a| a.iter().map(reference).collect()),
            extension_refs: (r.get("filters").and_then(Val::as_array).into_iter())
                .flatten()
                .filter_map(|f| f.get("extensionRef"))
                .map(reference)
                .collect(),
        };
        let ports = spec
            .get("ports")
            .and_then(Val::as_array)
            .into_iter()
            .flatten();
        Links {
            parent_refs: list(spec.get("parentRefs"), reference),
            hostnames: (spec.get("hostnames").and_then(Val::as_array).into_iter())
                .flatten()
                .filter_map(Val::as_str)
                .map(text)
                .collect(),
            rules: list(spec.get("rules"), rule),
            spec_type: nonempty(spec.get("type")),
            ports: list(spec.get("ports"), section),
            port_numbers: ports
                .filter_map(|p| Some((section(p)?, p.get("port").and_then(Val::as_u64)?)))
                .collect(),
        }
    }

    /// Links read from the text (nothing built) and from the built spec are those the
    /// hand-written reader read, on every shape; a key written twice is read from the
    /// built spec, which keeps its last value.
    #[test]
    fn links_read_as_a_view_of_text_or_value_are_those_read_by_hand() {
        for (spec, from_text) in [
            (
                r#"{"parentRefs":[{"name":"gw","namespace":"infra","sectionName":"http","port":80,
                "group":"gateway.networking.k8s.io","kind":"Gateway"}],"hostnames":["a.example",
                7,null,"b"],"rules":[{"name":"api","backendRefs":[{"name":"s","port":8080,
                "weight":1}],"filters":[{"type":"ExtensionRef","extensionRef":{"group":"x.io",
                "kind":"F","name":"f"}},{"type":"RequestHeaderModifier"},{"extensionRef":null}]},
                {"matches":[{"path":{"value":"/"}}]}],"other":{"deep":[[1,{"a":2}]]}}"#,
                true,
            ),
            (
                r#"{"ports":[{"name":"http","port":80},{"port":9090},{"name":"","port":81},{},7,
                {"name":5,"port":"x"},{"port":-1},{"port":1.5}]}"#,
                true,
            ),
            (
                r#"{"parentRefs":null,"rules":null,"ports":null,"hostnames":null}"#,
                true,
            ),
            (
                r#"{"parentRefs":{"name":"gw"},"rules":"r","ports":3,"hostnames":{"a":1}}"#,
                true,
            ),
            (
                r#"{"parentRefs":[null,1,"gw",[{"name":"x"}],{"name":null,"namespace":5,"port":-3}]}"#,
                true,
            ),
            (
                r#"{"rules":[null,{"name":""},{"name":3},{"backendRefs":null,"filters":null},
                {"backendRefs":{"name":"s"},"filters":{"extensionRef":{}}},
                {"backendRefs":[7,null],"filters":[null,1,{"extensionRef":"e"}]}]}"#,
                true,
            ),
            (
                r#"{"parentRefs":[{"name":"a","name":"b"}],"parentRefs":[{"name":"c"}],
                "rules":[{"name":"x","name":7,"filters":[{"extensionRef":{"name":"e1"},
                "extensionRef":{"name":"e2"}}]}],"ports":[{"name":"a","port":1,"name":""}]}"#,
                false,
            ),
            (
                r#"{"rules":[{"backendRefs":[{"port":1,"port":"x"}]}]}"#,
                false,
            ),
            (
                r#"{"parentRefs":[{"name":"caf\u00e9","nam\u0065space":"n\"s"}],"hostnames":["\u00e9"]}"#,
                true,
            ),
            (
                r#"{"type":"ExternalName","externalName":"a.example","ports":[{"port":80}]}"#,
                true,
            ),
            (r#"{"type":"","ports":[]}"#, true),
            (r#"{"type":7}"#, true),
            (r#"{"type":{"a":1},"type":"NodePort"}"#, false),
            (r#"{"type":"ClusterIP","type":null}"#, false),
            (r#"{}"#, true),
            (r#"null"#, true),
            (r#"[{"parentRefs":[]}]"#, true),
            (r#""spec""#, true),
            (r#"18446744073709551616"#, true),
            (r#"-5"#, true),
        ] {
            let built: Val = serde_json::from_str(spec).unwrap();
            let expected = by_hand(&built);
            assert_eq!(built.view::<Links>().as_ref(), Some(&expected), "{spec}");
            let lazy = Lazy::from_text(serde_json::from_str(spec).unwrap());
            assert_eq!(lazy.view::<Links>().is_some(), from_text, "{spec}");
            assert_eq!(lazy.read::<Links>(), expected, "{spec}");
            assert!(
                lazy.unbuilt_text().is_some(),
                "read without keeping: {spec}"
            );
        }
    }
}

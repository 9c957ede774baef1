//! [`Links`] read straight from a spec's JSON text: the same links `Links::read` takes
//! from the built spec, without building it. Every other field is skipped as it
//! streams by. Each field is read as leniently as `Links::read` reads the built value
//! (a field of the wrong type reads as absent, a key written twice keeps its last
//! value), and a test holds the two equal on every shape.

use super::links::{Links, ListField, RefFields, RuleLinks};
use super::{text, Text};
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

impl Links {
    /// `Links::read` of the spec this JSON text holds; `None` if it is not JSON.
    pub(crate) fn read_text(json: &str) -> Option<Links> {
        let mut d = serde_json::Deserializer::from_str(json);
        let links = Any(LinksOf).deserialize(&mut d).ok()?;
        d.end().ok()?;
        Some(links)
    }
}

/// What to make of a value by its shape: a mapping, a list, a string, an unsigned
/// integer, and anything else (which is skipped).
trait ValueReader: Sized {
    type Out;
    fn other(self) -> Self::Out;
    fn map<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Out, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(self.other())
    }
    fn seq<'de, A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Out, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(self.other())
    }
    fn str(self, _: &str) -> Self::Out {
        self.other()
    }
    fn u64(self, _: u64) -> Self::Out {
        self.other()
    }
    fn null(self) -> Self::Out {
        self.other()
    }
}

/// Reads any JSON value through its `ValueReader`.
struct Any<S>(S);

impl<'de, S: ValueReader> DeserializeSeed<'de> for Any<S> {
    type Value = S::Out;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Out, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, S: ValueReader> Visitor<'de> for Any<S> {
    type Value = S::Out;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<S::Out, A::Error> {
        self.0.map(map)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<S::Out, A::Error> {
        self.0.seq(seq)
    }
    fn visit_str<E>(self, v: &str) -> Result<S::Out, E> {
        Ok(self.0.str(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<S::Out, E> {
        Ok(self.0.u64(v))
    }
    fn visit_i64<E>(self, _: i64) -> Result<S::Out, E> {
        Ok(self.0.other())
    }
    fn visit_f64<E>(self, _: f64) -> Result<S::Out, E> {
        Ok(self.0.other())
    }
    fn visit_bool<E>(self, _: bool) -> Result<S::Out, E> {
        Ok(self.0.other())
    }
    fn visit_unit<E>(self) -> Result<S::Out, E> {
        Ok(self.0.null())
    }
}

/// The keys of a mapping, as borrowed as the text allows.
fn next_key<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Option<Key<'de>>, A::Error> {
    map.next_key()
}

/// A key: borrowed from the text, or unescaped.
#[derive(serde::Deserialize)]
struct Key<'a>(#[serde(borrow)] std::borrow::Cow<'a, str>);

impl std::ops::Deref for Key<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// A string, or nothing for any other value.
#[derive(Clone, Copy)]
struct Str;
impl ValueReader for Str {
    type Out = Option<Text>;
    fn other(self) -> Option<Text> {
        None
    }
    fn str(self, v: &str) -> Option<Text> {
        Some(text(v))
    }
}

/// An unsigned integer, or nothing for any other value.
#[derive(Clone, Copy)]
struct U64;
impl ValueReader for U64 {
    type Out = Option<u64>;
    fn other(self) -> Option<u64> {
        None
    }
    fn u64(self, v: u64) -> Option<u64> {
        Some(v)
    }
}

/// Each entry of a list as `S` reads it, the list cut to size (it is kept for the
/// whole command).
fn read_list<'de, S: ValueReader + Copy, A: SeqAccess<'de>>(
    reader: S,
    mut seq: A,
) -> Result<Vec<S::Out>, A::Error> {
    let mut items = Vec::new();
    while let Some(item) = seq.next_element_seed(Any(reader))? {
        items.push(item);
    }
    items.shrink_to_fit();
    Ok(items)
}

/// A list field: absent when null, not a list when anything else.
struct ListOf<S>(S);
impl<S: ValueReader + Copy> ValueReader for ListOf<S> {
    type Out = ListField<S::Out>;
    fn other(self) -> ListField<S::Out> {
        ListField::NotAList
    }
    fn null(self) -> ListField<S::Out> {
        ListField::Absent
    }
    fn seq<'de, A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Out, A::Error> {
        read_list(self.0, seq).map(ListField::Items)
    }
}

/// A list, or nothing for any other value.
struct VecOf<S>(S);
impl<S: ValueReader + Copy> ValueReader for VecOf<S> {
    type Out = Option<Vec<S::Out>>;
    fn other(self) -> Self::Out {
        None
    }
    fn seq<'de, A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Out, A::Error> {
        read_list(self.0, seq).map(Some)
    }
}

#[derive(Clone, Copy)]
struct LinksOf;
impl ValueReader for LinksOf {
    type Out = Links;
    fn other(self) -> Links {
        Links::default()
    }
    fn map<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<Links, A::Error> {
        let mut links = Links::default();
        while let Some(key) = next_key(&mut map)? {
            match &*key {
                "parentRefs" => links.parent_refs = map.next_value_seed(Any(ListOf(RefOf)))?,
                "hostnames" => {
                    let names = map.next_value_seed(Any(VecOf(Str)))?;
                    let names = names.into_iter().flatten().flatten();
                    links.hostnames = names.collect::<Vec<_>>().into_boxed_slice().into_vec();
                }
                "rules" => links.rules = map.next_value_seed(Any(ListOf(RuleOf)))?,
                "type" => {
                    let kind = map.next_value_seed(Any(Str))?;
                    links.spec_type = kind.filter(|t| !t.is_empty());
                }
                "ports" => {
                    let ports = map.next_value_seed(Any(ListOf(PortOf)))?;
                    links.port_numbers = ports
                        .items()
                        .iter()
                        .filter_map(|(s, n): &(Option<Text>, Option<u64>)| {
                            Some((s.clone()?, (*n)?))
                        })
                        .collect();
                    links.ports = match ports {
                        ListField::Absent => ListField::Absent,
                        ListField::NotAList => ListField::NotAList,
                        ListField::Items(v) => {
                            ListField::Items(v.into_iter().map(|(s, _)| s).collect())
                        }
                    };
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(links)
    }
}

#[derive(Clone, Copy)]
struct RefOf;
impl ValueReader for RefOf {
    type Out = RefFields;
    fn other(self) -> RefFields {
        RefFields::default()
    }
    fn map<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<RefFields, A::Error> {
        let mut f = RefFields::default();
        while let Some(key) = next_key(&mut map)? {
            let field = match &*key {
                "name" => &mut f.name,
                "group" => &mut f.group,
                "kind" => &mut f.kind,
                "namespace" => &mut f.namespace,
                "sectionName" => &mut f.section_name,
                "port" => {
                    f.port = map.next_value_seed(Any(U64))?;
                    continue;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            *field = map.next_value_seed(Any(Str))?;
        }
        Ok(f)
    }
}

#[derive(Clone, Copy)]
struct RuleOf;
impl ValueReader for RuleOf {
    type Out = RuleLinks;
    fn other(self) -> RuleLinks {
        RuleLinks::default()
    }
    fn map<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<RuleLinks, A::Error> {
        let mut rule = RuleLinks::default();
        while let Some(key) = next_key(&mut map)? {
            match &*key {
                "name" => {
                    let name = map.next_value_seed(Any(Str))?;
                    rule.name = name.filter(|n| !n.is_empty());
                }
                "backendRefs" => rule.backend_refs = map.next_value_seed(Any(VecOf(RefOf)))?,
                "filters" => {
                    let filters = map.next_value_seed(Any(VecOf(ExtensionRefOf)))?;
                    let refs = filters.into_iter().flatten().flatten();
                    rule.extension_refs = refs.collect::<Vec<_>>().into_boxed_slice().into_vec();
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(rule)
    }
}

/// A filter's `extensionRef`, when it has the key (whatever its value).
#[derive(Clone, Copy)]
struct ExtensionRefOf;
impl ValueReader for ExtensionRefOf {
    type Out = Option<RefFields>;
    fn other(self) -> Option<RefFields> {
        None
    }
    fn map<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Out, A::Error> {
        let mut found = None;
        while let Some(key) = next_key(&mut map)? {
            match &*key {
                "extensionRef" => found = Some(map.next_value_seed(Any(RefOf))?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(found)
    }
}

/// A port as a section: its name, else its number (`port_section`); and its number.
#[derive(Clone, Copy)]
struct PortOf;
impl ValueReader for PortOf {
    type Out = (Option<Text>, Option<u64>);
    fn other(self) -> Self::Out {
        (None, None)
    }
    fn map<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Out, A::Error> {
        let (mut name, mut port) = (None, None);
        while let Some(key) = next_key(&mut map)? {
            match &*key {
                "name" => name = map.next_value_seed(Any(Str))?,
                "port" => port = map.next_value_seed(Any(U64))?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let section = match name.filter(|n| !n.is_empty()) {
            Some(n) => Some(n),
            None => port.map(|n| text(&n.to_string())),
        };
        Ok((section, port))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Val;

    #[test]
    fn links_read_from_the_text_are_those_read_from_the_built_spec() {
        for spec in [
            r#"{"parentRefs":[{"name":"gw","namespace":"infra","sectionName":"http","port":80,
                "group":"gateway.networking.k8s.io","kind":"Gateway"}],"hostnames":["a.example",
                7,null,"b"],"rules":[{"name":"api","backendRefs":[{"name":"s","port":8080,
                "weight":1}],"filters":[{"type":"ExtensionRef","extensionRef":{"group":"x.io",
                "kind":"F","name":"f"}},{"type":"RequestHeaderModifier"},{"extensionRef":null}]},
                {"matches":[{"path":{"value":"/"}}]}],"other":{"deep":[[1,{"a":2}]]}}"#,
            r#"{"ports":[{"name":"http","port":80},{"port":9090},{"name":"","port":81},{},7,
                {"name":5,"port":"x"},{"port":-1},{"port":1.5}]}"#,
            r#"{"parentRefs":null,"rules":null,"ports":null,"hostnames":null}"#,
            r#"{"parentRefs":{"name":"gw"},"rules":"r","ports":3,"hostnames":{"a":1}}"#,
            r#"{"parentRefs":[null,1,"gw",[{"name":"x"}],{"name":null,"namespace":5,"port":-3}]}"#,
            r#"{"rules":[null,{"name":""},{"name":3},{"backendRefs":null,"filters":null},
                {"backendRefs":{"name":"s"},"filters":{"extensionRef":{}}},
                {"backendRefs":[],"filters":[null,1,{"extensionRef":"e"}]}]}"#,
            r#"{"parentRefs":[{"name":"a","name":"b"}],"parentRefs":[{"name":"c"}],
                "rules":[{"name":"x","name":7,"filters":[{"extensionRef":{"name":"e1"},
                "extensionRef":{"name":"e2"}}]}],"ports":[{"name":"a","port":1,"name":""}]}"#,
            r#"{"parentRefs":[{"name":"caf\u00e9","nam\u0065space":"n\"s"}],"hostnames":["\u00e9"]}"#,
            r#"{"type":"ExternalName","externalName":"a.example","ports":[{"port":80}]}"#,
            r#"{"type":"","ports":[]}"#,
            r#"{"type":7}"#,
            r#"{"type":{"a":1},"type":"NodePort"}"#,
            r#"{"type":"ClusterIP","type":null}"#,
            r#"{}"#,
            r#"null"#,
            r#"[{"parentRefs":[]}]"#,
            r#""spec""#,
            r#"18446744073709551616"#,
        ] {
            let built = Links::read(&serde_json::from_str::<Val>(spec).unwrap());
            assert_eq!(Links::read_text(spec), Some(built), "{spec}");
        }
        assert_eq!(Links::read_text("{"), None);
    }
}

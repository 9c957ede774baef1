//! A document as the tool reads it: the fields of a Kubernetes object it uses
//! (apiVersion, kind, metadata's name, namespace, uid, generation, creationTimestamp,
//! labels and annotations, spec, status) and a List's items.
//!
//! Read straight from JSON text, every other field is skipped as it streams by, so
//! nothing is built for `managedFields`, a ConfigMap's `data` or a List's envelope,
//! and a List's items become objects one by one as they are read: no document is ever
//! held whole. Moved out of an already-decoded value (YAML), the same fields give the
//! same `Doc`, and both go through one conversion into objects
//! (`super::objects_from_document`), with the same malformed documents.

use super::{object_alone, MalformedObject, Object, Origin};
use crate::model::{Lazy, Val};
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;
use std::fmt;
use std::marker::PhantomData;

/// A mapping read as `T`, or anything else kept as it is (so its shape can be reported).
#[derive(Debug)]
pub(crate) enum MapOr<T> {
    Map(T),
    Other(Value),
}

/// The fields of one document (an object, or a List of them) the tool reads.
/// Each is `None` when absent; present, it is kept as written (`null` included).
#[derive(Debug, Default)]
pub(crate) struct Doc {
    pub(crate) kind: Option<Value>,
    pub(crate) api_version: Option<Value>,
    pub(crate) metadata: Option<MapOr<Meta>>,
    pub(crate) spec: Option<Lazy>,
    pub(crate) status: Option<Lazy>,
    pub(crate) items: Option<Items>,
}

/// The metadata fields the tool reads, each as it came.
#[derive(Debug, Default)]
pub(crate) struct Meta {
    pub(crate) name: Option<Value>,
    pub(crate) namespace: Option<Value>,
    pub(crate) uid: Option<Value>,
    pub(crate) generation: Option<Value>,
    pub(crate) creation_timestamp: Option<Value>,
    pub(crate) labels: Option<Value>,
    pub(crate) annotations: Option<Value>,
}

/// A List's `items`: documents, or something that is not a list.
#[derive(Debug)]
pub(crate) enum Items {
    List {
        items: Vec<Item>,
        /// The objects of the items converted as they were read, in order: they are
        /// most of a List, and kept together they move over to the snapshot whole.
        read: Vec<Object>,
    },
    Other(Value),
}

/// One item of a List.
#[derive(Debug)]
pub(crate) enum Item {
    Doc(Box<MapOr<Doc>>),
    /// Converted as it was read, because nothing of the List changes it (it carries
    /// its own apiVersion and kind): an object (`true`, the List's next `read` one),
    /// nothing (`false`, a `null`), or why it is not one. Origins are filled in when
    /// the objects are placed.
    Read(Result<bool, MalformedObject>),
}

impl Doc {
    /// `kind: List`, or a typed list (`HTTPRouteList`) with items.
    pub(crate) fn is_list(&self) -> bool {
        let kind = self
            .kind
            .as_ref()
            .and_then(Value::as_str)
            .unwrap_or_default();
        kind == "List" || (kind.ends_with("List") && self.items.is_some())
    }
}

/// An item that becomes the same object (or error) whatever List holds it.
fn stands_alone(item: &MapOr<Doc>) -> bool {
    match item {
        MapOr::Map(d) => d.kind.is_some() && d.api_version.is_some() && !d.is_list(),
        MapOr::Other(_) => true,
    }
}

// ------------------------------------------------------------ from a decoded value

impl From<Value> for MapOr<Doc> {
    fn from(v: Value) -> Self {
        let Value::Object(mut m) = v else {
            return MapOr::Other(v);
        };
        MapOr::Map(Doc {
            kind: m.remove("kind"),
            api_version: m.remove("apiVersion"),
            metadata: m.remove("metadata").map(MapOr::from),
            spec: m.remove("spec").map(|v| Lazy::from(Val::from_value(v))),
            status: m.remove("status").map(|v| Lazy::from(Val::from_value(v))),
            items: m.remove("items").map(|items| match items {
                Value::Array(a) => {
                    let items = a.into_iter().map(|v| Item::Doc(Box::new(MapOr::from(v))));
                    Items::List {
                        items: items.collect(),
                        read: Vec::new(),
                    }
                }
                other => Items::Other(other),
            }),
        })
    }
}

impl From<Value> for MapOr<Meta> {
    fn from(v: Value) -> Self {
        let Value::Object(mut m) = v else {
            return MapOr::Other(v);
        };
        MapOr::Map(Meta {
            name: m.remove("name"),
            namespace: m.remove("namespace"),
            uid: m.remove("uid"),
            generation: m.remove("generation"),
            creation_timestamp: m.remove("creationTimestamp"),
            labels: m.remove("labels"),
            annotations: m.remove("annotations"),
        })
    }
}

// ------------------------------------------------------------ from JSON text

#[derive(serde::Deserialize)]
#[serde(field_identifier, rename_all = "camelCase")]
enum DocField {
    Kind,
    ApiVersion,
    Metadata,
    Spec,
    Status,
    Items,
    #[serde(other)]
    Skipped,
}

#[derive(serde::Deserialize)]
#[serde(field_identifier, rename_all = "camelCase")]
enum MetaField {
    Name,
    Namespace,
    Uid,
    Generation,
    CreationTimestamp,
    Labels,
    Annotations,
    #[serde(other)]
    Skipped,
}

/// Reads the fields of a mapping as they stream by.
trait FromMap: Sized {
    fn from_map<'de, A: MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

impl FromMap for Doc {
    fn from_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut doc = Doc::default();
        while let Some(field) = map.next_key::<DocField>()? {
            match field {
                DocField::Kind => doc.kind = Some(map.next_value()?),
                DocField::ApiVersion => doc.api_version = Some(map.next_value()?),
                DocField::Metadata => doc.metadata = Some(map.next_value()?),
                // Kept as text, built when first looked at.
                DocField::Spec => doc.spec = Some(lazy(map.next_value()?)?),
                DocField::Status => doc.status = Some(lazy(map.next_value()?)?),
                DocField::Items => doc.items = Some(map.next_value_seed(ItemsSeed)?),
                DocField::Skipped => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(doc)
    }
}

/// JSON text kept to be built later. Skipping it over does not limit how deeply it
/// nests, as building it does: it is refused here, as it would have been if built now.
fn lazy<E: serde::de::Error>(text: Box<RawValue>) -> Result<Lazy, E> {
    // Nesting deeper than the limit needs more opening brackets than it: counted first,
    // in one quick pass, since almost no spec has that many.
    let opening = text
        .get()
        .bytes()
        .filter(|&b| b == b'[' || b == b'{')
        .count();
    if opening > NESTING_LIMIT && nesting(text.get()) > NESTING_LIMIT {
        return Err(E::custom("recursion limit exceeded"));
    }
    Ok(Lazy::from_text(text))
}

/// The deepest nesting serde_json builds.
const NESTING_LIMIT: usize = 127;

/// The deepest nesting of arrays and mappings in valid JSON text.
fn nesting(text: &str) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0, false, false);
    for b in text.bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

impl FromMap for Meta {
    fn from_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut meta = Meta::default();
        while let Some(field) = map.next_key::<MetaField>()? {
            match field {
                MetaField::Name => meta.name = Some(map.next_value()?),
                MetaField::Namespace => meta.namespace = Some(map.next_value()?),
                MetaField::Uid => meta.uid = Some(map.next_value()?),
                MetaField::Generation => meta.generation = Some(map.next_value()?),
                MetaField::CreationTimestamp => meta.creation_timestamp = Some(map.next_value()?),
                MetaField::Labels => meta.labels = Some(map.next_value()?),
                MetaField::Annotations => meta.annotations = Some(map.next_value()?),
                MetaField::Skipped => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(meta)
    }
}

/// The visit methods of every value that is neither a mapping nor a sequence: kept
/// as the `Value` it is.
macro_rules! scalars_as_values {
    ($wrap:expr) => {
        fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
            Ok($wrap(Value::Bool(v)))
        }
        fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
            Ok($wrap(Value::from(v)))
        }
        fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
            Ok($wrap(Value::from(v)))
        }
        fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
            Ok($wrap(Value::from(v)))
        }
        fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
            Ok($wrap(Value::String(v.to_string())))
        }
        fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
            Ok($wrap(Value::String(v)))
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok($wrap(Value::Null))
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok($wrap(Value::Null))
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            Ok($wrap(Value::deserialize(d)?))
        }
    };
}

struct MapOrVisitor<T>(PhantomData<T>);

impl<'de, T: FromMap> Visitor<'de> for MapOrVisitor<T> {
    type Value = MapOr<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        T::from_map(map).map(MapOr::Map)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        array(seq).map(MapOr::Other)
    }

    scalars_as_values!(MapOr::Other);
}

impl<'de, T: FromMap> Deserialize<'de> for MapOr<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(MapOrVisitor(PhantomData))
    }
}

/// One item of a List as it is read: converted into an object (pushed on `read`)
/// when nothing of the List changes it, else kept as a document.
pub(crate) fn read_item(item: MapOr<Doc>, read: &mut Vec<Object>) -> Item {
    if !stands_alone(&item) {
        return Item::Doc(Box::new(item));
    }
    Item::Read(
        object_alone(item, &Origin::default()).map(|alone| match alone {
            Some(object) => {
                read.push(object);
                true
            }
            None => false,
        }),
    )
}

/// Reads a List's `items`, each made an object as it is read where it stands alone.
struct ItemsSeed;

impl<'de> serde::de::DeserializeSeed<'de> for ItemsSeed {
    type Value = Items;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Items, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ItemsSeed {
    type Value = Items;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let (mut items, mut read) = (Vec::new(), Vec::new());
        while let Some(item) = seq.next_element::<MapOr<Doc>>()? {
            items.push(read_item(item, &mut read));
        }
        Ok(Items::List { items, read })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some((key, value)) = map.next_entry::<String, Value>()? {
            object.insert(key, value);
        }
        Ok(Items::Other(Value::Object(object)))
    }

    scalars_as_values!(Items::Other);
}

fn array<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Value, A::Error> {
    let mut items = Vec::new();
    while let Some(item) = seq.next_element()? {
        items.push(item);
    }
    Ok(Value::Array(items))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::NamespaceLinks;

    /// The objects and malformed documents the text gives read straight, and decoded first.
    fn both(json: &str) -> (String, String) {
        let origin = Origin {
            file: "f.json".into(),
            document: 1,
        };
        let read = |doc: MapOr<Doc>| {
            let (mut out, mut errors) = (Vec::new(), Vec::new());
            super::super::objects_from_document(doc, &origin, &mut out, &mut errors);
            let links = NamespaceLinks::of(&out);
            format!("{out:?} {errors:?} {links:?}")
        };
        let value: Value = serde_json::from_str(json).unwrap();
        (
            read(serde_json::from_str(json).unwrap()),
            read(MapOr::from(value)),
        )
    }

    #[test]
    fn nesting_counts_brackets_outside_strings() {
        assert_eq!(nesting("1"), 0);
        assert_eq!(nesting(r#"{"a":[1,{"b":[]}],"c":{}}"#), 4);
        assert_eq!(nesting(r#"["[[[{", "\\\"[[", {"x\\": "]"}]"#), 2);
    }

    #[test]
    fn read_straight_or_from_a_value_the_same_fields_come_out() {
        for json in [
            r#"{"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"items":[
                {"apiVersion":"v1","kind":"Service","metadata":{"name":"a","namespace":"n",
                 "uid":"x","labels":{"app":"a"},"managedFields":[{"f":1}]},"spec":{"ports":[]}},
                null, 3, "s", [1, {"a": true}], {"kind": null, "metadata": [1]}]}"#,
            r#"{"kind":"HTTPRouteList","items":{"not":"a list"}}"#,
            r#"{"kind":"X","items":null,"spec":null,"status":{"a":[1.5,-2,null]}}"#,
            r#"[1,2]"#,
            r#""text""#,
            r#"{"metadata":{"name":7,"namespace":null,"labels":"x"},"spec":{"a":1},"spec":{"b":2}}"#,
            r#"{"kind":"ServiceList","apiVersion":"v1","items":[{"metadata":{"name":"a"}},
                {"kind":"Service","metadata":{"name":"b","labels":{"n":1}}},
                {"kind":"List","apiVersion":"v1","items":[{"apiVersion":"v1","kind":"Service"}]}]}"#,
            r#"{"items":[{"apiVersion":"v1","kind":"Service","metadata":{"name":"a"}}],"kind":"List"}"#,
            r#"{"items":[{"apiVersion":"v1","kind":"Service","metadata":{"name":"a"}}],"kind":"Thing",
                "apiVersion":"x/v1","metadata":{"name":"t"}}"#,
        ] {
            let (direct, decoded) = both(json);
            assert_eq!(direct, decoded, "{json}");
        }
    }

    #[test]
    fn the_namespace_links_of_a_lists_items_are_those_of_its_objects() {
        // One route read with the List, one that takes the typed List's kind (read as
        // a document after it), one in a List nested in the List.
        let route = |name: &str, extra: &str| {
            format!(
                r#"{{{extra}"metadata":{{"name":"{name}","namespace":"app"}},"spec":{{
                "parentRefs":[{{"name":"gw","namespace":"infra-{name}"}}],
                "rules":[{{"backendRefs":[{{"name":"s","namespace":"db-{name}"}}]}}]}}}}"#
            )
        };
        let typed = r#""apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","#;
        let json = format!(
            r#"{{"kind":"HTTPRouteList","apiVersion":"gateway.networking.k8s.io/v1","items":[
            {}, {}, {{"kind":"List","apiVersion":"v1","items":[{}]}}]}}"#,
            route("a", typed),
            route("b", ""),
            route("c", typed),
        );
        let (direct, decoded) = both(&json);
        assert_eq!(direct, decoded);
        for link in [
            "\"app\": {\"infra-a\"",
            "\"db-a\": {\"app\"}",
            "\"infra-b\"",
            "\"db-c\"",
        ] {
            assert!(direct.contains(link), "{link} in {direct}");
        }
    }
}

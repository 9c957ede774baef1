//! One page of a list, read as it arrives: its items straight into documents and
//! objects (no `serde_json::Value` is built for one), completed with what the API server
//! leaves out of a built-in kind's items, and a CRD's schemas dropped.

use super::api::ApiError;
use crate::model::read::Resource;
use crate::model::{Lazy, MalformedObject, Object, Origin, Text, Val};
use crate::source::document::{Doc, MapOr};
use crate::source::objects_from_document;
use serde::de::{
    DeserializeSeed, Deserializer, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde::Deserialize;
use serde_json::Value;

/// Reads one page's `body`: its items into `page`'s objects and malformed documents, the rest
/// (the continue token, the count of items left) returned.
pub(super) fn read_page(body: &[u8], page: Page<'_>) -> Result<ListPage, ApiError> {
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    page.deserialize(&mut deserializer)
        .and_then(|read| deserializer.end().map(|()| read))
        .map_err(|e| ApiError::Invalid(format!("the list is not the JSON expected: {e}")))
}

#[derive(Deserialize)]
pub(super) struct ListMeta {
    #[serde(default, rename = "continue")]
    pub(crate) continue_token: Option<String>,
    #[serde(default, rename = "remainingItemCount")]
    pub(crate) remaining_item_count: Option<u64>,
}

/// One page of a list, read by [`Page`].
pub(super) struct ListPage {
    pub(crate) metadata: Option<ListMeta>,
    /// How many items it held.
    pub(crate) items: usize,
}

/// Reads one page of a list. Its items are read straight into documents (no
/// `serde_json::Value` is built for one) and made objects as each is read, into the
/// list's objects and malformed documents: the API server leaves apiVersion
/// and kind out of the items of built-in lists, so an item without them gets its
/// kind's, and a CRD's schemas are dropped.
pub(super) struct Page<'p> {
    pub(crate) resource: &'p Resource,
    pub(crate) origin: &'p Origin,
    pub(crate) objects: &'p mut Vec<Object>,
    pub(crate) errors: &'p mut Vec<MalformedObject>,
}

impl Page<'_> {
    fn item(&mut self, mut item: MapOr<Doc>) {
        complete_item(self.resource, &mut item);
        objects_from_document(item, self.origin, self.objects, self.errors);
    }
}

/// A listed or watched item as a document: the apiVersion and kind built-in kinds'
/// items leave out, a CRD without its schemas.
/// An item of a metadata-only kind (`Resource::metadata_only`) is the kind's (the
/// server says `PartialObjectMetadata`), and keeps its name, namespace, labels and
/// creation time only: its annotations go too (`kubectl apply` writes a Secret's data
/// into `last-applied-configuration`), and anything else a server sends.
pub(crate) fn complete_item(resource: &Resource, item: &mut MapOr<Doc>) {
    if let (true, MapOr::Map(doc)) = (resource.metadata_only(), &mut *item) {
        doc.api_version = Some(Value::String(resource.api_version()));
        doc.kind = Some(Value::String(resource.kind.clone()));
        doc.spec = None;
        doc.status = None;
        doc.items = None;
        if let Some(MapOr::Map(meta)) = &mut doc.metadata {
            meta.annotations = None;
        }
        return;
    }
    if let MapOr::Map(doc) = item {
        doc.api_version
            .get_or_insert_with(|| Value::String(resource.api_version()));
        doc.kind
            .get_or_insert_with(|| Value::String(resource.kind.clone()));
        if resource.kind == "CustomResourceDefinition" {
            if let Some(spec) = &mut doc.spec {
                strip_crd_schemas(spec);
            }
        }
    }
}

#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "camelCase")]
enum PageField {
    Metadata,
    Items,
    #[serde(other)]
    Skipped,
}

impl<'de> DeserializeSeed<'de> for Page<'_> {
    type Value = ListPage;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<ListPage, D::Error> {
        deserializer.deserialize_struct("ListPage", &["metadata", "items"], self)
    }
}

impl<'de> Visitor<'de> for Page<'_> {
    type Value = ListPage;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("struct ListPage")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<ListPage, A::Error> {
        let (mut metadata, mut items) = (None, None);
        while let Some(field) = map.next_key::<PageField>()? {
            match field {
                PageField::Metadata if metadata.is_some() => {
                    return Err(A::Error::duplicate_field("metadata"))
                }
                PageField::Metadata => metadata = Some(map.next_value::<Option<ListMeta>>()?),
                PageField::Items if items.is_some() => {
                    return Err(A::Error::duplicate_field("items"))
                }
                PageField::Items => items = Some(map.next_value_seed(PageItems(&mut self))?),
                PageField::Skipped => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(ListPage {
            metadata: metadata.flatten(),
            items: items.unwrap_or(0),
        })
    }
}

/// A page's `items`, each made objects as it is read; their number.
struct PageItems<'a, 'p>(&'a mut Page<'p>);

impl<'de> DeserializeSeed<'de> for PageItems<'_, '_> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for PageItems<'_, '_> {
    type Value = usize;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<usize, A::Error> {
        let mut count = 0;
        while let Some(item) = seq.next_element::<MapOr<Doc>>()? {
            self.0.item(item);
            count += 1;
        }
        Ok(count)
    }
}

/// The tool reads a CRD's group, names, scope and labels; its schemas are large and
/// unused, so they are dropped as the page is read: the spec is built (CRDs are few),
/// each version's `schema` taken out, and the rest kept built. The version's last
/// member takes the schema's place, as `serde_json::Map::remove` leaves it (how the
/// tool has always dropped them, and so how `dump` has always written a CRD).
fn strip_crd_schemas(spec: &mut Lazy) {
    if let Some(stripped) = spec.with(without_schemas) {
        *spec = Lazy::from(stripped);
    }
}

/// The spec with no `schema` in its `versions`; none when it has no list of versions.
fn without_schemas(spec: &Val) -> Option<Val> {
    let versions = spec.get("versions")?.as_array()?;
    let version = |version: &Val| match version.as_object() {
        Some(fields) => {
            let mut members: Vec<(Text, Val)> =
                fields.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            if let Some(i) = members.iter().position(|(k, _)| k.as_str() == "schema") {
                members.swap_remove(i);
            }
            Val::Object(members.into_iter().collect())
        }
        None => version.clone(),
    };
    let mut versions = Some(Val::Array(versions.iter().map(version).collect()));
    let members = spec.as_object()?.iter().map(|(key, value)| {
        // A mapping holds each key once: `versions` is met once.
        let value = match key.as_str() {
            "versions" => versions.take().unwrap_or_default(),
            _ => value.clone(),
        };
        (key.clone(), value)
    });
    Some(Val::Object(members.collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resource(kind: &str) -> Resource {
        Resource {
            group: String::new(),
            version: "v1".into(),
            kind: kind.into(),
            plural: format!("{}s", kind.to_lowercase()),
            namespaced: true,
        }
    }

    /// A page as kube-apiserver answers a metadata-only list, read into objects.
    fn read(kind: &str, body: &str) -> Vec<Object> {
        let resource = resource(kind);
        let origin = Origin::default();
        let (mut objects, mut errors) = (Vec::new(), Vec::new());
        let page = Page {
            resource: &resource,
            origin: &origin,
            objects: &mut objects,
            errors: &mut errors,
        };
        read_page(body.as_bytes(), page).unwrap();
        assert!(errors.is_empty(), "{errors:?}");
        objects
    }

    #[test]
    fn a_metadata_only_item_is_its_kinds_and_keeps_no_annotation_nor_data() {
        let body = r#"{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{},
            "items":[{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1",
              "metadata":{"name":"users","namespace":"app","labels":{"a":"b"},
                "annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"data\":\"s3cret\"}","x":"s3cret"}},
              "data":{"password":"s3cret"},"spec":{"x":"s3cret"}}]}"#;
        let objects = read("Secret", body);
        assert_eq!(objects.len(), 1);
        let o = &objects[0];
        assert_eq!(
            (&*o.api_version, &*o.kind, &*o.name),
            ("v1", "Secret", "users")
        );
        assert_eq!(o.labels.get("a").map(String::as_str), Some("b"));
        assert!(o.annotations.is_empty(), "{:?}", o.annotations);
        assert!(!format!("{o:?}").contains("s3cret"), "{o:?}");
    }

    #[test]
    fn other_kinds_keep_their_annotations() {
        let body = r#"{"items":[{"metadata":{"name":"web","namespace":"app","annotations":{"x":"y"}},"spec":{"ports":[]}}]}"#;
        let objects = read("Service", body);
        assert_eq!(&*objects[0].kind, "Service");
        assert_eq!(
            objects[0].annotations.get("x").map(String::as_str),
            Some("y")
        );
    }
}

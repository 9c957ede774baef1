//! Where objects come from: files, the bundled demo, a live cluster.
//! The only stage that does I/O; it hands plain objects to the pure stages.
//!
//! A Pod is handed up as its name, namespace, labels and creation time only; a Secret or
//! ConfigMap likewise, read and watched as metadata only (`PartialObjectMetadataList`),
//! so their data is never requested. The live reader is handed what it needs from
//! above (its policy kinds, how to follow references, which Pods to list: `live::Guide`).
//! Its errors are `thiserror` enums carrying the server, file, namespace and status as
//! data (`live::LiveError`, `live::ConfigError`, `live::CredentialError`); only the
//! binary uses `anyhow`.

pub mod demo;
pub(crate) mod document;
pub mod dump;
pub mod files;
pub mod live;
mod split;

use crate::model::{BlindSpot, Lazy, MalformedObject, Object, Origin, Snapshot, Spec, Text};
use document::{Doc, Item, Items, MapOr};
use serde_json::Value;
use std::collections::BTreeMap;

/// The annotation on a `dump`'s List that records the blind spots of the read.
pub(crate) const BLIND_SPOTS_ANNOTATION: &str = "kubectl-policies/blind-spots";

/// The annotation on a `dump`'s List that records which kinds its read listed, and
/// where (`Snapshot::listed`): read back, a reference is judged as the read judged it.
pub(crate) const LISTED_ANNOTATION: &str = "kubectl-policies/listed";

/// `kubectl apply`'s copy of the object as applied: dropped as it is read.
const LAST_APPLIED_ANNOTATION: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The blind spots a `dump` recorded on its List (none for any other document).
pub(crate) fn recorded_blind_spots(
    doc: &Doc,
    origin: &Origin,
) -> Result<Vec<BlindSpot>, MalformedObject> {
    let Some(MapOr::Map(meta)) = &doc.metadata else {
        return Ok(Vec::new());
    };
    let Some(text) = meta
        .annotations
        .as_ref()
        .and_then(|a| a.get(BLIND_SPOTS_ANNOTATION))
    else {
        return Ok(Vec::new());
    };
    let field = format!("metadata.annotations.{BLIND_SPOTS_ANNOTATION}");
    let text = text.as_str().ok_or_else(|| MalformedObject {
        origin: origin.clone(),
        field: field.clone(),
        message: "must be a string (a JSON list of blind spots)".into(),
        ..Default::default()
    })?;
    serde_json::from_str(text).map_err(|e| MalformedObject {
        origin: origin.clone(),
        field,
        message: format!("is not a JSON list of blind spots: {e}"),
        ..Default::default()
    })
}

/// The kinds a `dump` recorded its read listed (`LISTED_ANNOTATION`), as said by the
/// file it is in (`Listed::file`); none for any other document.
pub(crate) fn recorded_listed(
    doc: &Doc,
    origin: &Origin,
) -> Result<Vec<crate::model::Listed>, MalformedObject> {
    let Some(MapOr::Map(meta)) = &doc.metadata else {
        return Ok(Vec::new());
    };
    let Some(text) = meta
        .annotations
        .as_ref()
        .and_then(|a| a.get(LISTED_ANNOTATION))
    else {
        return Ok(Vec::new());
    };
    let field = format!("metadata.annotations.{LISTED_ANNOTATION}");
    let malformed = |message: String| MalformedObject {
        origin: origin.clone(),
        field: field.clone(),
        message,
        ..Default::default()
    };
    let text = text
        .as_str()
        .ok_or_else(|| malformed("must be a string (a JSON list of kinds listed)".into()))?;
    let listed: Vec<crate::model::Listed> = serde_json::from_str(text)
        .map_err(|e| malformed(format!("is not a JSON list of kinds listed: {e}")))?;
    let file = Some(origin.file.to_string());
    Ok(listed
        .into_iter()
        .map(|l| crate::model::Listed {
            file: file.clone(),
            ..l
        })
        .collect())
}

fn string_map(
    value: Option<&Value>,
    field: &str,
    origin: &Origin,
) -> Result<BTreeMap<String, String>, MalformedObject> {
    let mut out = BTreeMap::new();
    match value {
        None | Some(Value::Null) => {}
        Some(Value::Object(map)) => {
            for (key, item) in map {
                let text = match item {
                    Value::String(s) => s.clone(),
                    Value::Bool(b) => b.to_string(),
                    Value::Number(n) => n.to_string(),
                    Value::Null => String::new(),
                    _ => {
                        return Err(MalformedObject {
                            origin: origin.clone(),
                            field: format!("{field}.{key}"),
                            message: "must be a string".into(),
                            ..Default::default()
                        })
                    }
                };
                out.insert(key.clone(), text);
            }
        }
        Some(_) => {
            return Err(MalformedObject {
                origin: origin.clone(),
                field: field.into(),
                message: "must be a map of strings".into(),
                ..Default::default()
            })
        }
    }
    Ok(out)
}

/// Turns one decoded document into objects: a single object, or the items of a
/// `List` / `HTTPRouteList` (as `kubectl get -o yaml` prints). Items of a typed list
/// that lack `apiVersion` and `kind` (list items from the API server do) get the list's.
pub(crate) fn objects_from_document(
    doc: MapOr<Doc>,
    origin: &Origin,
    out: &mut Vec<Object>,
    errors: &mut Vec<MalformedObject>,
) {
    let mut doc = match doc {
        MapOr::Map(doc) if doc.is_list() => doc,
        other => {
            match object_alone(other, origin) {
                Ok(Some(o)) => out.push(o),
                Ok(None) => {}
                Err(e) => errors.push(e),
            }
            return;
        }
    };
    let text = |v: &Option<Value>| {
        v.as_ref()
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let kind = text(&doc.kind);
    let item_kind = kind.strip_suffix("List").unwrap_or_default().to_string();
    let api_version = text(&doc.api_version);
    match doc.items.take() {
        Some(Items::List { items, mut read }) => {
            if items.iter().all(|item| matches!(item, Item::Read(_))) {
                // No other item comes between the objects read with the List: they
                // move over whole (the first List of an input: not even copied).
                let from = out.len();
                if out.is_empty() {
                    std::mem::swap(out, &mut read);
                } else {
                    out.append(&mut read);
                }
                for o in &mut out[from..] {
                    o.origin = origin.clone();
                }
            }
            let mut read = read.into_iter();
            for (i, item) in items.into_iter().enumerate() {
                let before = errors.len();
                match item {
                    Item::Read(Ok(true)) => {
                        // Taken above, unless documents come between them.
                        if let Some(mut o) = read.next() {
                            o.origin = origin.clone();
                            out.push(o);
                        }
                    }
                    Item::Read(Ok(false)) => {}
                    Item::Read(Err(mut e)) => {
                        e.origin = origin.clone();
                        errors.push(e);
                    }
                    Item::Doc(item) => {
                        let mut item = *item;
                        if let MapOr::Map(m) = &mut item {
                            if !item_kind.is_empty() && m.kind.is_none() {
                                m.kind = Some(Value::String(item_kind.clone()));
                            }
                            if !item_kind.is_empty() && m.api_version.is_none() {
                                m.api_version = Some(Value::String(api_version.clone()));
                            }
                        }
                        objects_from_document(item, origin, out, errors);
                    }
                }
                for e in &mut errors[before..] {
                    e.field = format!("items[{i}].{}", e.field);
                }
            }
        }
        None | Some(Items::Other(Value::Null)) => {}
        Some(Items::Other(_)) => errors.push(MalformedObject {
            origin: origin.clone(),
            field: "items".into(),
            message: "must be a list".into(),
            ..Default::default()
        }),
    }
}

/// A document that is not a List, as the one object it is (none for `null`).
fn object_alone(doc: MapOr<Doc>, origin: &Origin) -> Result<Option<Object>, MalformedObject> {
    match doc {
        MapOr::Map(doc) => object_from_doc(doc, origin),
        MapOr::Other(Value::Null) => Ok(None),
        MapOr::Other(_) => Err(MalformedObject {
            origin: origin.clone(),
            field: "(document)".into(),
            message: "is not a mapping".into(),
            ..Default::default()
        }),
    }
}

fn object_from_doc(mut doc: Doc, origin: &Origin) -> Result<Option<Object>, MalformedObject> {
    object_shape(&mut doc, origin).map_err(|e| MalformedObject {
        says: Some(Box::new(says(&doc))),
        ..e
    })
}

/// What a document that is not a valid object says it is, for its blind spot: read only
/// then (`object_shape` leaves these fields in place).
fn says(doc: &Doc) -> crate::model::DocumentSays {
    fn said(v: &Option<Value>) -> &str {
        v.as_ref().and_then(Value::as_str).unwrap_or_default()
    }
    let namespace = match &doc.metadata {
        Some(MapOr::Map(m)) => Some(said(&m.namespace)).filter(|n| !n.is_empty()),
        _ => None,
    };
    crate::model::DocumentSays {
        group: crate::model::group_of_api_version(said(&doc.api_version)).to_string(),
        kind: said(&doc.kind).to_string(),
        namespace: namespace.map(str::to_string),
    }
}

/// The object `doc` is, its fields read in place (its spec, status and timestamp taken):
/// what the blind spot of an invalid one says is still there to read.
fn object_shape(doc: &mut Doc, origin: &Origin) -> Result<Option<Object>, MalformedObject> {
    let err = |field: &str, message: &str| MalformedObject {
        origin: origin.clone(),
        field: field.into(),
        message: message.into(),
        ..Default::default()
    };
    let kind = match &doc.kind {
        Some(Value::String(k)) if !k.is_empty() => Text::from(k),
        None | Some(Value::Null) => return Err(err("kind", "is missing")),
        Some(_) => return Err(err("kind", "must be a non-empty string")),
    };
    let api_version = match &doc.api_version {
        Some(Value::String(v)) if !v.is_empty() => Text::from(v),
        None | Some(Value::Null) => return Err(err("apiVersion", "is missing")),
        Some(_) => return Err(err("apiVersion", "must be a non-empty string")),
    };
    let meta = match &mut doc.metadata {
        Some(MapOr::Map(m)) => m,
        None | Some(MapOr::Other(Value::Null)) => return Err(err("metadata", "is missing")),
        Some(MapOr::Other(_)) => return Err(err("metadata", "must be a mapping")),
    };
    let name = match &meta.name {
        Some(Value::String(n)) if !n.is_empty() => Text::from(n),
        None | Some(Value::Null) => return Err(err("metadata.name", "is missing")),
        Some(_) => return Err(err("metadata.name", "must be a non-empty string")),
    };
    let namespace = match &meta.namespace {
        Some(Value::String(n)) if !n.is_empty() => Some(Text::from(n)),
        None | Some(Value::Null) => None,
        Some(Value::String(_)) => None,
        Some(_) => return Err(err("metadata.namespace", "must be a string")),
    };
    let uid = match &meta.uid {
        Some(Value::String(u)) if !u.is_empty() => Some(Text::from(u)),
        None | Some(Value::Null) | Some(Value::String(_)) => None,
        Some(_) => return Err(err("metadata.uid", "must be a string")),
    };
    // An integer, as the API server writes it (kubectl refuses anything else too).
    let generation = match &meta.generation {
        Some(Value::Number(n)) if n.is_i64() => n.as_i64(),
        None | Some(Value::Null) => None,
        Some(_) => return Err(err("metadata.generation", "must be an integer")),
    };
    let creation_timestamp = match meta.creation_timestamp.take() {
        Some(Value::String(t)) if crate::model::parse_timestamp(&t).is_some() => Some(t),
        None | Some(Value::Null) => None,
        Some(Value::String(t)) if t.is_empty() => None,
        // kubectl refuses such an object too (metav1.Time reads RFC 3339 only).
        Some(Value::String(_)) => {
            return Err(err(
                "metadata.creationTimestamp",
                "must be an RFC 3339 time such as 2026-02-03T09:00:00Z",
            ))
        }
        Some(_) => return Err(err("metadata.creationTimestamp", "must be a string")),
    };
    let labels = string_map(meta.labels.as_ref(), "metadata.labels", origin)?;
    let mut annotations = string_map(meta.annotations.as_ref(), "metadata.annotations", origin)?;
    // The object again as its owner last applied it, secrets included: no answer reads
    // it, and `dump` must not write it out (nor `managedFields`, never kept at all).
    annotations.remove(LAST_APPLIED_ANNOTATION);
    let mut object = Object {
        api_version,
        kind,
        name,
        namespace,
        labels,
        annotations,
        uid,
        generation,
        creation_timestamp,
        spec: Spec::whole(doc.spec.take().unwrap_or_default()),
        status: doc.status.take().unwrap_or_default(),
        origin: origin.clone(),
    };
    if object.is_pod() {
        // Pods are many, and read only for the policies that pick them by label: their
        // name, namespace and labels are all that is kept.
        object.annotations = BTreeMap::new();
        (object.uid, object.generation) = (None, None);
        object.spec = Spec::default();
        object.status = Lazy::default();
    }
    Ok(Some(object))
}

//! Reading JSON files for an answer about one object or one policy (`describe`,
//! `effective`, `blast-radius` of a policy).
//!
//! Such an answer depends on a few namespaces (`crate::narrow`), but a dump holds them
//! all, and building every object's spec is most of the cost of reading it. So the
//! reading takes two passes over the text. The first reads each object's skeleton: its
//! apiVersion, kind and metadata, and of its spec only the fields that link it to
//! others (`parentRefs`, `parentRef`, the rules' `backendRefs`, `targetRef`,
//! `targetRefs`, `targetSelectors`). The skeletons decide what the answer needs, as
//! `narrow` decides it on whole objects. The second pass reads in full only those.
//!
//! Anything out of the ordinary (a document that is not an object or a List, a
//! nested List, a CRD, a skeleton that does not read) is read in full in the first
//! pass, as `load_text` would, shape errors included. The JSON syntax of the whole
//! text is checked in the first pass. Tests hold the objects equal to reading
//! everything and then narrowing.

use super::document::{Doc, MapOr};
use super::files::{Loaded, SyntaxError};
use super::{object_alone, objects_from_document, recorded_blind_spots, Object, Origin};
use crate::catalog::Catalog;
use crate::model::ObjRef;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// One object as the first pass leaves it.
struct Entry<'t> {
    /// The skeleton, or the whole object when it was read in full.
    object: Object,
    /// What to read in full if the answer needs it: the item's text, its List's
    /// apiVersion and item kind, its place in the List (None: the document itself).
    unread: Option<Unread<'t>>,
}

struct Unread<'t> {
    text: &'t RawValue,
    list: Option<(String, String, usize)>,
}

/// A document's envelope: enough to tell a List, and its items as texts.
#[derive(Deserialize)]
struct Head<'t> {
    kind: Option<Value>,
    #[serde(rename = "apiVersion")]
    api_version: Option<Value>,
    metadata: Option<Value>,
    #[serde(borrow)]
    items: Option<Vec<&'t RawValue>>,
}

/// What the skeleton of an object keeps.
#[derive(Deserialize)]
struct Skeleton {
    kind: Option<Value>,
    #[serde(rename = "apiVersion")]
    api_version: Option<Value>,
    metadata: Option<Value>,
    spec: Option<Links>,
    items: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Links {
    parent_refs: Option<Value>,
    parent_ref: Option<Value>,
    rules: Option<Vec<Rule>>,
    target_ref: Option<Value>,
    target_refs: Option<Value>,
    target_selectors: Option<Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    backend_refs: Option<Value>,
}

impl Links {
    fn into_spec(self) -> Value {
        let mut m = Map::new();
        let mut put = |k: &str, v: Option<Value>| {
            if let Some(v) = v {
                m.insert(k.into(), v);
            }
        };
        put("parentRefs", self.parent_refs);
        put("parentRef", self.parent_ref);
        put(
            "rules",
            self.rules.map(|rules| {
                let rule = |r: Rule| {
                    let mut m = Map::new();
                    if let Some(b) = r.backend_refs {
                        m.insert("backendRefs".into(), b);
                    }
                    Value::Object(m)
                };
                Value::Array(rules.into_iter().map(rule).collect())
            }),
        );
        put("targetRef", self.target_ref);
        put("targetRefs", self.target_refs);
        put("targetSelectors", self.target_selectors);
        Value::Object(m)
    }
}

/// The first pass over one JSON text: documents, skeletons, recorded blind spots.
/// `Err` only for a syntax error, as `load_text` gives it.
fn first_pass<'t>(
    text: &'t str,
    file: &str,
    entries: &mut Vec<Entry<'t>>,
    loaded: &mut Loaded,
) -> Result<(), SyntaxError> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    let skipped_lines = text[..text.len() - trimmed.len()].matches('\n').count();
    let stream = serde_json::Deserializer::from_str(trimmed).into_iter::<&'t RawValue>();
    for (i, doc) in stream.enumerate() {
        let document = i + 1;
        let doc = doc.map_err(|e| SyntaxError {
            file: file.into(),
            document,
            line: Some((e.line() + skipped_lines) as u64),
            message: format!("invalid JSON: {e}"),
        })?;
        let origin = Origin {
            file: file.into(),
            document,
        };
        let head = serde_json::from_str::<Head>(doc.get()).ok();
        match head {
            Some(head) if is_list(&head) => {
                let envelope = Doc {
                    metadata: head.metadata.map(MapOr::from),
                    ..Doc::default()
                };
                match recorded_blind_spots(&envelope, &origin) {
                    Ok(spots) => loaded.snapshot.blind_spots.extend(spots),
                    Err(e) => loaded.shape_errors.push(e),
                }
                let text_of = |v: &Option<Value>| {
                    v.as_ref()
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string()
                };
                let list_kind = text_of(&head.kind);
                let item_kind = list_kind.strip_suffix("List").unwrap_or_default();
                let api_version = text_of(&head.api_version);
                for (n, item) in head.items.into_iter().flatten().enumerate() {
                    let list = (api_version.clone(), item_kind.to_string(), n);
                    skeleton_or_whole(item, Some(list), &origin, entries, loaded);
                }
            }
            Some(_) => skeleton_or_whole(doc, None, &origin, entries, loaded),
            // Not an object (or `items` is not a list): read as `load_text` would.
            None => whole(doc, None, &origin, entries, loaded),
        }
    }
    Ok(())
}

fn is_list(head: &Head) -> bool {
    let kind = head
        .kind
        .as_ref()
        .and_then(Value::as_str)
        .unwrap_or_default();
    kind == "List" || (kind.ends_with("List") && head.items.is_some())
}

/// An item's (or a document's) skeleton, or the whole of it when anything about it is
/// out of the ordinary.
fn skeleton_or_whole<'t>(
    text: &'t RawValue,
    list: Option<(String, String, usize)>,
    origin: &Origin,
    entries: &mut Vec<Entry<'t>>,
    loaded: &mut Loaded,
) {
    let Ok(s) = serde_json::from_str::<Skeleton>(text.get()) else {
        return whole(text, list, origin, entries, loaded);
    };
    let kind = s.kind.as_ref().and_then(Value::as_str);
    let ordinary = s.items.is_none()
        && kind.is_some_and(|k| !k.ends_with("List") && k != "CustomResourceDefinition");
    if !ordinary {
        return whole(text, list, origin, entries, loaded);
    }
    let mut doc = Doc {
        kind: s.kind,
        api_version: s.api_version,
        metadata: s.metadata.map(MapOr::from),
        spec: s.spec.map(Links::into_spec),
        ..Doc::default()
    };
    fill_from_list(&mut doc, &list);
    match object_alone(MapOr::Map(doc), origin) {
        Ok(Some(object)) => entries.push(Entry {
            object,
            unread: Some(Unread { text, list }),
        }),
        _ => whole(text, list, origin, entries, loaded),
    }
}

/// A List's item without apiVersion or kind takes the List's (as `load_text` does).
fn fill_from_list(doc: &mut Doc, list: &Option<(String, String, usize)>) {
    if let Some((api_version, item_kind, _)) = list {
        if !item_kind.is_empty() && doc.kind.is_none() {
            doc.kind = Some(Value::String(item_kind.clone()));
        }
        if !item_kind.is_empty() && doc.api_version.is_none() {
            doc.api_version = Some(Value::String(api_version.clone()));
        }
    }
}

/// Reads one item or document in full, as `load_text` would.
fn read_whole(
    text: &RawValue,
    list: &Option<(String, String, usize)>,
    origin: &Origin,
    out: &mut Vec<Object>,
    loaded_errors: &mut Vec<super::ShapeError>,
) {
    let Ok(mut doc) = serde_json::from_str::<MapOr<Doc>>(text.get()) else {
        // The first pass read this text as JSON; only nesting beyond the parser's
        // limit fails here, and that is the document's shape.
        loaded_errors.push(super::ShapeError {
            origin: origin.clone(),
            field: "(document)".into(),
            message: "is nested too deeply".into(),
        });
        return;
    };
    if let MapOr::Map(d) = &mut doc {
        fill_from_list(d, list);
    }
    let before = loaded_errors.len();
    objects_from_document(doc, origin, out, loaded_errors);
    if let Some((_, _, n)) = list {
        for e in &mut loaded_errors[before..] {
            e.field = format!("items[{n}].{}", e.field);
        }
    }
}

fn whole<'t>(
    text: &'t RawValue,
    list: Option<(String, String, usize)>,
    origin: &Origin,
    entries: &mut Vec<Entry<'t>>,
    loaded: &mut Loaded,
) {
    let mut objects = Vec::new();
    read_whole(text, &list, origin, &mut objects, &mut loaded.shape_errors);
    entries.extend(objects.into_iter().map(|object| Entry {
        object,
        unread: None,
    }));
}

/// Reads JSON texts (file name, text) for an answer about the object `focus` names,
/// given the whole input's catalog and objects (as skeletons); `None` reads everything.
/// The objects come out in the order `load_text` gives them.
pub fn load_json_texts(
    texts: &[(String, String)],
    declared: &[crate::catalog::Declared],
    focus: impl FnOnce(&Catalog, &[Object]) -> Option<ObjRef>,
) -> Result<(Loaded, Vec<Object>), SyntaxError> {
    let mut loaded = Loaded::default();
    let mut entries = Vec::new();
    for (file, text) in texts {
        first_pass(text, file, &mut entries, &mut loaded)?;
    }
    let (skeletons, unread): (Vec<Object>, Vec<Option<Unread>>) =
        entries.into_iter().map(|e| (e.object, e.unread)).unzip();
    let catalog = Catalog::build(&skeletons, declared);
    let keep = focus(&catalog, &skeletons)
        .and_then(|f| crate::narrow::keep_mask(&skeletons, &catalog, &f));
    let mut aside = Vec::new();
    for ((skeleton, unread), i) in skeletons.into_iter().zip(unread).zip(0..) {
        if keep.as_ref().is_some_and(|k| !k[i]) {
            aside.push(skeleton);
            continue;
        }
        match unread {
            None => loaded.snapshot.objects.push(skeleton),
            Some(u) => read_whole(
                u.text,
                &u.list,
                &skeleton.origin,
                &mut loaded.snapshot.objects,
                &mut loaded.shape_errors,
            ),
        }
    }
    Ok((loaded, aside))
}

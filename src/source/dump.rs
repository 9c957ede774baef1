//! What `dump` writes: one `List` of everything read, as `kubectl get -o yaml` prints
//! one, its blind spots recorded in an annotation so that reading the dump back with
//! `-f` stays honest about what it could not see.
//!
//! The List is written straight from the objects read, one after another: an object's
//! spec and status still held as the JSON text they were read as are built for that
//! object alone and dropped once it is written, so the cluster is never held built.
//! The objects themselves are all held until the read ends, compactly as their text:
//! the blind spots come first in the List and are known only then.

use super::files::Loaded;
use super::{BLIND_SPOTS_ANNOTATION, LISTED_ANNOTATION};
use crate::model::{Lazy, Metadata, Object};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// The `List` `dump` writes, borrowing the objects read. It serialises with the calls
/// a `serde_json::Value` of the same JSON makes (mappings, sequences, strings), so every
/// format prints it as it would print that value.
#[derive(Clone, Debug)]
pub struct DumpList<'a> {
    objects: &'a [Object],
    /// The blind spots of the read as the annotation's text, when there are any.
    blind_spots: Option<String>,
    /// What a live read listed, and where, as the annotation's text.
    listed: Option<String>,
}

impl<'a> DumpList<'a> {
    pub fn of(loaded: &'a Loaded) -> DumpList<'a> {
        let spots = &loaded.snapshot.blind_spots;
        DumpList {
            objects: &loaded.snapshot.objects,
            blind_spots: (!spots.is_empty())
                .then(|| serde_json::to_string(spots).unwrap_or_default()),
            // A read's own record only (a dump of files says what it holds).
            listed: loaded
                .snapshot
                .listed
                .as_ref()
                .filter(|l| l.iter().all(|l| l.file.is_none()))
                .map(|l| serde_json::to_string(l).unwrap_or_default()),
        }
    }
}

impl Serialize for DumpList<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut list = s.serialize_map(Some(4))?;
        list.serialize_entry("apiVersion", "v1")?;
        list.serialize_entry("kind", "List")?;
        let meta = DumpMeta(self.blind_spots.as_deref(), self.listed.as_deref());
        list.serialize_entry("metadata", &meta)?;
        list.serialize_entry("items", &Items(self.objects))?;
        list.end()
    }
}

/// The List's metadata: the blind-spots annotation, when there are blind spots, and
/// the record of what a live read listed.
struct DumpMeta<'a>(Option<&'a str>, Option<&'a str>);

impl Serialize for DumpMeta<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let any = self.0.is_some() || self.1.is_some();
        let mut meta = s.serialize_map(Some(usize::from(any)))?;
        if any {
            meta.serialize_entry("annotations", &Annotations(self.0, self.1))?;
        }
        meta.end()
    }
}

struct Annotations<'a>(Option<&'a str>, Option<&'a str>);

impl Serialize for Annotations<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let count = usize::from(self.0.is_some()) + usize::from(self.1.is_some());
        let mut annotations = s.serialize_map(Some(count))?;
        if let Some(spots) = self.0 {
            annotations.serialize_entry(BLIND_SPOTS_ANNOTATION, spots)?;
        }
        if let Some(listed) = self.1 {
            annotations.serialize_entry(LISTED_ANNOTATION, listed)?;
        }
        annotations.end()
    }
}

struct Items<'a>(&'a [Object]);

impl Serialize for Items<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut items = s.serialize_seq(Some(self.0.len()))?;
        for o in self.0 {
            items.serialize_element(&Item(o))?;
        }
        items.end()
    }
}

/// One object as JSON again: apiVersion, kind, metadata (`Metadata`: name, namespace,
/// uid, generation, labels, annotations, creationTimestamp, each only when set), spec and status (each only
/// when not null).
struct Item<'a>(&'a Object);

impl Serialize for Item<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let o = self.0;
        let (spec, status) = (!o.spec.is_null(), !o.status.is_null());
        let len = 3 + usize::from(spec) + usize::from(status);
        let mut item = s.serialize_map(Some(len))?;
        item.serialize_entry("apiVersion", o.api_version.as_str())?;
        item.serialize_entry("kind", o.kind.as_str())?;
        item.serialize_entry("metadata", &Metadata(o))?;
        if spec {
            item.serialize_entry("spec", &Passed(o.spec.lazy()))?;
        }
        if status {
            item.serialize_entry("status", &Passed(&o.status))?;
        }
        item.end()
    }
}

/// A spec or status written as it is, without keeping it built.
struct Passed<'a>(&'a Lazy);

impl Serialize for Passed<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.with(|v| v.serialize(s))
    }
}

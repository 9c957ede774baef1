//! Objects as every stage after the source sees them: what was read, from where, and
//! what could not be read. Plain data, no I/O.

use super::{
    group_of_api_version, normalize_group, text, GroupKind, Lazy, Links, ObjRef, Spec, Text,
};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Where an object was read from, so errors and findings can point at it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct Origin {
    /// A file path, `<stdin>`, `<demo>` or a cluster URL.
    pub(crate) file: std::sync::Arc<str>,
    /// 1-based document number inside the file (0 when it does not apply).
    pub(crate) document: usize,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.document > 0 {
            write!(f, "{} (document {})", self.file, self.document)
        } else {
            write!(f, "{}", self.file)
        }
    }
}

/// One Kubernetes object, reduced to what the tool reads.
#[derive(Clone, Debug)]
pub struct Object {
    pub api_version: Text,
    pub kind: Text,
    pub name: Text,
    pub namespace: Option<Text>,
    pub labels: BTreeMap<String, String>,
    pub(crate) annotations: BTreeMap<String, String>,
    /// `metadata.uid`, when the input has one (a cluster's objects do; files often not).
    pub(crate) uid: Option<Text>,
    /// `metadata.generation`, when the input has one: which version of its spec the
    /// object is, what a controller's `observedGeneration` is compared with.
    pub(crate) generation: Option<i64>,
    /// RFC 3339, as the API server writes it; compared as text (same format, so same order).
    pub(crate) creation_timestamp: Option<String>,
    /// Whole, but for a route or backend once the snapshot is settled: its links are
    /// kept instead (a Service's spec is kept whole when the input holds Pods: its
    /// `selector` places them).
    pub spec: Spec,
    pub(crate) status: Lazy,
    pub(crate) origin: Origin,
}

impl Object {
    /// What the hierarchy reads of a route's or backend's spec (`Spec::links`).
    pub(crate) fn links(&self) -> &Links {
        self.spec.links()
    }

    pub(crate) fn group(&self) -> &str {
        group_of_api_version(&self.api_version)
    }

    /// A core Service.
    pub(crate) fn is_service(&self) -> bool {
        self.kind == "Service" && self.group().is_empty()
    }

    /// A core Pod: read for the policies that pick Pods by label, kept as its name,
    /// namespace and labels only.
    pub(crate) fn is_pod(&self) -> bool {
        self.kind == "Pod" && self.group().is_empty()
    }

    /// As `GroupKind::new` makes it; the kind shared with the object, not looked up again.
    pub fn group_kind(&self) -> GroupKind {
        GroupKind {
            group: text(normalize_group(self.group())),
            kind: self.kind.clone(),
        }
    }

    /// As `ObjRef::new` makes it; the names shared with the object, not looked up again.
    pub fn obj_ref(&self) -> ObjRef {
        ObjRef {
            group: text(normalize_group(self.group())),
            kind: self.kind.clone(),
            namespace: self.namespace.clone(),
            name: self.name.clone(),
            section: None,
        }
    }
}

/// An object's metadata as JSON again: name, namespace, uid, generation, labels,
/// annotations, creationTimestamp, each only when set (`managedFields` and kubectl's
/// last-applied annotation are never kept). What `dump` writes and `get`'s items show.
pub(crate) struct Metadata<'a>(pub &'a Object);

impl Serialize for Metadata<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let o = self.0;
        let (labels, annotations) = (!o.labels.is_empty(), !o.annotations.is_empty());
        let len = 1
            + usize::from(o.namespace.is_some())
            + usize::from(o.uid.is_some())
            + usize::from(o.generation.is_some())
            + usize::from(labels)
            + usize::from(annotations)
            + usize::from(o.creation_timestamp.is_some());
        let mut meta = s.serialize_map(Some(len))?;
        meta.serialize_entry("name", o.name.as_str())?;
        if let Some(ns) = &o.namespace {
            meta.serialize_entry("namespace", ns.as_str())?;
        }
        if let Some(uid) = &o.uid {
            meta.serialize_entry("uid", uid.as_str())?;
        }
        if let Some(generation) = o.generation {
            meta.serialize_entry("generation", &generation)?;
        }
        if labels {
            meta.serialize_entry("labels", &o.labels)?;
        }
        if annotations {
            meta.serialize_entry("annotations", &o.annotations)?;
        }
        if let Some(ts) = &o.creation_timestamp {
            meta.serialize_entry("creationTimestamp", ts)?;
        }
        meta.end()
    }
}

/// An RFC 3339 time as `creationTimestamp` holds it (`2026-02-03T09:00:00Z`, fractions
/// and offsets allowed), read by jiff; None when it is not one.
pub(crate) fn parse_timestamp(s: &str) -> Option<jiff::Timestamp> {
    s.parse().ok()
}

/// Why something could not be seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum BlindReason {
    Forbidden,
    NotFound,
    Error,
    /// A document that was read but is not a valid object.
    Invalid,
    /// References a policy makes to objects of a kind the source did not list there:
    /// not known to exist or not, so not checked (the policy's verdict stands).
    Unchecked,
}

/// Something the source could not read: a kind (optionally in one namespace) it may not
/// list or that the server does not serve, or a document of the input that is not a
/// valid object (its group and kind when the document says them, and where it is).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BlindSpot {
    pub group: String,
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default)]
    pub namespace: Option<String>,
    pub reason: BlindReason,
    pub message: String,
    /// The file (or `<stdin>`) of a document that could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default)]
    pub file: Option<String>,
    /// Its 1-based document number in that file.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default)]
    pub document: Option<usize>,
}

/// One object defined more than once in the input (one identity: group, kind,
/// namespace and name, whatever the version).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Duplicate {
    pub(crate) object: ObjRef,
    /// Where the copies that were set aside came from, in input order.
    pub(crate) dropped: Vec<Origin>,
    /// Where the copy in use came from: the last, as `kubectl apply` would leave it.
    pub(crate) used: Origin,
}

/// Keeps the last copy of every object defined more than once (as applying the files
/// in order would leave the cluster) and says which.
pub(crate) fn drop_duplicates(objects: &mut Vec<Object>) -> Vec<Duplicate> {
    let mut dropped = dropped_by_hash(objects).unwrap_or_else(|| dropped_by_identity(objects));
    if dropped.is_empty() {
        return Vec::new();
    }
    let mut last: super::FastMap<Identity, usize> = super::FastMap::default();
    for (i, o) in objects.iter().enumerate() {
        last.insert(identity(o), i);
    }
    let mut by_used: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for &d in &dropped {
        by_used
            .entry(last[&identity(&objects[d])])
            .or_default()
            .push(d);
    }
    let duplicates = by_used
        .into_iter()
        .map(|(used, mut copies)| {
            copies.sort_unstable();
            Duplicate {
                object: objects[used].obj_ref(),
                dropped: copies.iter().map(|&d| objects[d].origin.clone()).collect(),
                used: objects[used].origin.clone(),
            }
        })
        .collect();
    dropped.sort_unstable();
    let mut i = 0;
    let mut next = dropped.iter().peekable();
    objects.retain(|_| {
        let keep = next.peek() != Some(&&i);
        if !keep {
            next.next();
        }
        i += 1;
        keep
    });
    duplicates
}

/// What makes an object one object: group, kind, namespace and name.
type Identity<'o> = (&'o str, &'o str, Option<&'o str>, &'o str);

fn identity(object: &Object) -> Identity<'_> {
    (
        crate::model::normalize_group(object.group()),
        object.kind.as_str(),
        object.namespace.as_deref(),
        object.name.as_str(),
    )
}

/// The copies set aside: every copy of an identity but its last, in input order.
fn dropped_by_identity(objects: &[Object]) -> Vec<usize> {
    let mut last: super::FastMap<Identity, usize> =
        super::FastMap::with_capacity_and_hasher(objects.len(), Default::default());
    let mut dropped: Vec<usize> = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        if let Some(earlier) = last.insert(identity(o), i) {
            dropped.push(earlier);
        }
    }
    dropped
}

/// `dropped_by_identity`, by each identity's 64-bit hash, taken on every core: most
/// of the work is reading the names. None if two identities share a hash.
fn dropped_by_hash(objects: &[Object]) -> Option<Vec<usize>> {
    let hashes: Vec<u64> = objects
        .par_iter()
        .with_min_len(4096)
        .map(|o| super::key_hash(&identity(o)))
        .collect();
    let mut last: super::FastMap<u64, usize> =
        super::FastMap::with_capacity_and_hasher(objects.len(), Default::default());
    let mut dropped: Vec<usize> = Vec::new();
    for (i, h) in hashes.into_iter().enumerate() {
        if let Some(earlier) = last.insert(h, i) {
            if identity(&objects[earlier]) != identity(&objects[i]) {
                return None;
            }
            dropped.push(earlier);
        }
    }
    Some(dropped)
}

/// Everything a source read: the objects and what it could not see.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    pub objects: Vec<Object>,
    pub blind_spots: Vec<BlindSpot>,
    /// The namespaces whose Pods a live read listed (for the policies that pick Pods
    /// by label, with their selector): no Pod of one of them in `objects` means none
    /// matches, not that none was read.
    pub pods_read_in: std::collections::BTreeSet<String>,
    /// Which kinds the source listed, and where (a live read's successful lists): a
    /// reference to an object of a kind not listed where it points is unchecked, not
    /// missing. `None` for files (`listed_in_files`): a file that holds objects of a
    /// kind in a namespace says what exists of it there, for the policies of that file.
    pub listed: Option<std::collections::BTreeSet<Listed>>,
}

/// A snapshot as the topology built from it holds it: the same parts, of a type that
/// is not a `Snapshot`, so it cannot be built into a topology again (`Topology::build`
/// takes a `Snapshot`). A world whose links were released (`query::analyze_once`)
/// holds one of these and nothing else: its routes and backends no longer say what
/// they link, and a topology built from them would link nothing. A world that keeps
/// them (`query::Rebuildable`) makes a `Snapshot` of its objects again (`Held` is not
/// `Clone`: a copy is made only through that). The one thing the compiler does not see: an
/// `Object` of a released world, cloned by hand into a new `Snapshot`.
#[derive(Debug, Default)]
pub struct Held {
    pub(crate) objects: Vec<Object>,
    pub blind_spots: Vec<BlindSpot>,
    /// As `Snapshot::pods_read_in`.
    pub(crate) pods_read_in: std::collections::BTreeSet<String>,
    /// As `Snapshot::listed`.
    pub(crate) listed: Option<std::collections::BTreeSet<Listed>>,
}

impl From<Snapshot> for Held {
    fn from(s: Snapshot) -> Held {
        let Snapshot {
            objects,
            blind_spots,
            pods_read_in,
            listed,
        } = s;
        Held {
            objects,
            blind_spots,
            pods_read_in,
            listed,
        }
    }
}

impl Held {
    /// Lets go of what routes and backends said of the hierarchy (their links, all
    /// that settling kept of their specs), once a topology has been built from them.
    /// Only a world that is never built again does (`query::analyze_once`).
    pub(crate) fn release_links(&mut self) {
        // Read on every core (`settle`), let go on every core.
        self.objects.par_iter_mut().with_min_len(256).for_each(|o| {
            o.spec.release_links();
        });
    }
}

/// A kind a source listed, in one namespace or (`namespace: None`) in all of them;
/// for a file (`file`), as that file says it, for the references of its own policies.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Listed {
    pub group: String,
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default)]
    pub namespace: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default)]
    pub file: Option<String>,
}

/// `listed` as files say it: each (kind, namespace) a file holds objects of, for that
/// file. Manifests are often applied beside objects made elsewhere (Gateway API's
/// conformance suite makes its CA ConfigMaps at run time, beside a file that holds
/// another ConfigMap in the same namespace): only the file a policy is in says what
/// exists for it.
pub(crate) fn listed_in_files(objects: &[Object]) -> std::collections::BTreeSet<Listed> {
    let held: super::FastSet<(&str, &str, Option<&str>, &str)> = objects
        .iter()
        .map(|o| {
            let group = normalize_group(o.group());
            (
                group,
                o.kind.as_str(),
                o.namespace.as_deref(),
                &*o.origin.file,
            )
        })
        .collect();
    held.into_iter()
        .map(|(group, kind, namespace, file)| Listed {
            group: group.to_string(),
            kind: kind.to_string(),
            namespace: namespace.map(str::to_string),
            file: Some(file.to_string()),
        })
        .collect()
}

/// What says which kinds exist where: a live read's `listed` as it is; for files,
/// what they hold (`listed_in_files`), with what a `dump` read back recorded its read
/// listed (entries of a file: `file` set).
pub(crate) fn listed_or_files(
    listed: Option<&std::collections::BTreeSet<Listed>>,
    objects: &[Object],
) -> std::collections::BTreeSet<Listed> {
    match listed {
        Some(live) if live.iter().all(|l| l.file.is_none()) => live.clone(),
        recorded => {
            let mut all = listed_in_files(objects);
            all.extend(recorded.into_iter().flatten().cloned());
            all
        }
    }
}

impl Snapshot {
    /// Builds every spec and status still held as text, and lets the text go: what is
    /// left after an answer has set aside what it does not need is all looked at;
    /// except routes and backends, whose specs are reduced to their links (the
    /// answers read nothing else of them): after this their `spec` is `Spec::Links`
    /// (but a Service's, when the input holds Pods). Answers that write objects back (`dump`) do not
    /// settle the snapshot. Built on every core: building is most of the cost of reading.
    pub fn settle(&mut self) {
        // A Service's `selector` places the Pods a policy picks below it: kept with the
        // rest of its spec when the input holds Pods (else no answer reads it).
        let pods = self.objects.par_iter().any(Object::is_pod);
        self.objects.par_iter_mut().with_min_len(256).for_each(|o| {
            if Links::kept_for(o.group(), &o.kind) && !(pods && o.is_service()) {
                o.spec.keep_links();
            } else {
                o.spec.settle();
                o.status.settle();
            }
        });
    }
}

/// A readable document whose shape is wrong for a Kubernetes object.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MalformedObject {
    pub(crate) origin: Origin,
    pub(crate) field: String,
    pub(crate) message: String,
    /// What the document says it is, when it says so.
    pub(crate) says: Option<Box<DocumentSays>>,
}

/// The group, kind and namespace a document that is not a valid object says it has
/// (empty when it does not say).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct DocumentSays {
    pub(crate) group: String,
    pub(crate) kind: String,
    pub(crate) namespace: Option<String>,
}

impl fmt::Display for MalformedObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: field {}: {}", self.origin, self.field, self.message)
    }
}

impl MalformedObject {
    /// What every answer says of this document: it could not be read, where, and why
    /// (docs/reference.md, Blind spots: `b.yaml document 4: metadata.name: must be a string; this
    /// object is not shown`).
    pub(crate) fn blind_spot(&self) -> BlindSpot {
        let (file, document) = (self.origin.file.to_string(), self.origin.document);
        let place = match document {
            0 => file.clone(),
            n => format!("{file} document {n}"),
        };
        let says = self.says.as_deref().cloned().unwrap_or_default();
        let what = match says.kind.as_str() {
            "" => String::new(),
            kind => format!(" ({kind})"),
        };
        BlindSpot {
            group: says.group,
            kind: says.kind,
            namespace: says.namespace,
            reason: BlindReason::Invalid,
            message: format!(
                "{place}{what}: {}: {}; this object is not shown",
                self.field, self.message
            ),
            file: Some(file),
            document: (document > 0).then_some(document),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::files::{load_text, Loaded};

    fn objects(yaml: &str) -> Vec<Object> {
        let mut loaded = Loaded::default();
        load_text(yaml, "<literal>", &mut loaded).unwrap();
        loaded.place_in("default");
        loaded.snapshot.objects
    }

    /// The copies set aside by hash (on every core) are the ones set aside by name:
    /// every copy but the last, the core group written either way.
    #[test]
    fn duplicates_found_by_hash_are_the_ones_found_by_name() {
        let mut objects = objects(
            "apiVersion: v1\nkind: Service\nmetadata: {name: a}\n---\n\
             apiVersion: v1\nkind: Service\nmetadata: {name: b}\n---\n\
             apiVersion: core/v1\nkind: Service\nmetadata: {name: a}\n---\n\
             apiVersion: v1\nkind: Service\nmetadata: {name: a, namespace: other}\n---\n\
             apiVersion: v1\nkind: Service\nmetadata: {name: b}\n---\n\
             apiVersion: v1\nkind: Service\nmetadata: {name: a}\n",
        );
        assert_eq!(dropped_by_identity(&objects), [0, 1, 2]);
        assert_eq!(dropped_by_hash(&objects), Some(vec![0, 1, 2]));
        let duplicates = drop_duplicates(&mut objects);
        let names: Vec<String> = objects.iter().map(|o| o.obj_ref().ns_name()).collect();
        assert_eq!(names, ["other/a", "default/b", "default/a"]);
        let dropped: Vec<usize> = duplicates.iter().map(|d| d.dropped.len()).collect();
        assert_eq!(
            dropped,
            [1, 2],
            "b once, then a twice, in the order used: {duplicates:?}"
        );
    }
}

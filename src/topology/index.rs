//! Nodes by reference. A node's reference lives in the node; the index keeps only
//! the reference's hash, so building it copies no strings and a lookup can be made
//! from borrowed parts (a parentRef's fields) without building an `ObjRef`.

use super::{Node, NodeId};
use crate::model::{normalize_group, ObjRef};
use std::collections::hash_map::{Entry, HashMap};
use std::hash::{DefaultHasher, Hash, Hasher};

/// A reference as borrowed parts: what a lookup needs.
#[derive(Clone, Copy, Debug)]
pub struct RefKey<'a> {
    pub group: &'a str,
    pub kind: &'a str,
    pub namespace: Option<&'a str>,
    pub name: &'a str,
    pub section: Option<&'a str>,
}

impl<'a> RefKey<'a> {
    /// As `ObjRef::new` would make it (`core` is the core group, `""`).
    pub fn new(group: &'a str, kind: &'a str, namespace: Option<&'a str>, name: &'a str) -> Self {
        RefKey {
            group: normalize_group(group),
            kind,
            namespace,
            name,
            section: None,
        }
    }

    pub fn of(r: &'a ObjRef) -> RefKey<'a> {
        RefKey {
            group: &r.group,
            kind: &r.kind,
            namespace: r.namespace.as_deref(),
            name: &r.name,
            section: r.section.as_deref(),
        }
    }

    /// The same reference with `section` instead of its own.
    pub fn with_section(self, section: Option<&'a str>) -> RefKey<'a> {
        RefKey { section, ..self }
    }

    /// `namespace/name`, as `ObjRef::ns_name`.
    pub fn ns_name(&self) -> String {
        match self.namespace {
            Some(ns) => format!("{ns}/{}", self.name),
            None => self.name.to_string(),
        }
    }

    pub fn to_obj_ref(self) -> ObjRef {
        ObjRef::new(self.group, self.kind, self.namespace, self.name).with_section(self.section)
    }

    fn hash(&self) -> u64 {
        let mut h = DefaultHasher::new();
        (
            self.group,
            self.kind,
            self.namespace,
            self.name,
            self.section,
        )
            .hash(&mut h);
        h.finish()
    }

    fn names(&self, r: &ObjRef) -> bool {
        self.name == r.name
            && self.kind == r.kind
            && self.namespace == r.namespace.as_deref()
            && self.section == r.section.as_deref()
            && self.group == r.group
    }
}

#[derive(Debug, Default)]
pub struct RefIndex {
    by_hash: HashMap<u64, NodeId>,
    /// Nodes whose reference hashes like an earlier node's: practically never, but
    /// they are still found.
    collided: Vec<NodeId>,
}

impl RefIndex {
    pub fn get(&self, nodes: &[Node], key: RefKey) -> Option<NodeId> {
        let id = *self.by_hash.get(&key.hash())?;
        if key.names(&nodes[id].obj_ref) {
            return Some(id);
        }
        self.collided
            .iter()
            .copied()
            .find(|&c| key.names(&nodes[c].obj_ref))
    }

    /// Indexes node `id` (already in `nodes`) by its reference.
    pub fn insert(&mut self, nodes: &[Node], id: NodeId) {
        let hash = RefKey::of(&nodes[id].obj_ref).hash();
        match self.by_hash.entry(hash) {
            Entry::Vacant(v) => {
                v.insert(id);
            }
            Entry::Occupied(_) => self.collided.push(id),
        }
    }
}

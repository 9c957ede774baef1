//! Nodes by reference. A node's reference lives in the node; the index keeps only
//! the reference's hash, so building it copies no strings and a lookup can be made
//! from borrowed parts (a parentRef's fields) without building an `ObjRef`.

use super::{Node, NodeId};
use crate::model::{key_hash, FastMap};
use crate::model::{normalize_group, ObjRef};

/// A reference as borrowed parts: what a lookup needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RefKey<'a> {
    pub(crate) group: &'a str,
    pub(crate) kind: &'a str,
    pub(crate) namespace: Option<&'a str>,
    pub(crate) name: &'a str,
    pub(crate) section: Option<&'a str>,
}

impl<'a> RefKey<'a> {
    /// As `ObjRef::new` would make it (`core` is the core group, `""`).
    pub(crate) fn new(
        group: &'a str,
        kind: &'a str,
        namespace: Option<&'a str>,
        name: &'a str,
    ) -> Self {
        RefKey {
            group: normalize_group(group),
            kind,
            namespace,
            name,
            section: None,
        }
    }

    pub(crate) fn of(r: &'a ObjRef) -> RefKey<'a> {
        RefKey {
            group: &r.group,
            kind: &r.kind,
            namespace: r.namespace.as_deref(),
            name: &r.name,
            section: r.section.as_deref(),
        }
    }

    /// The same reference with `section` instead of its own.
    pub(crate) fn with_section(self, section: Option<&'a str>) -> RefKey<'a> {
        RefKey { section, ..self }
    }

    /// `namespace/name`, as `ObjRef::ns_name`.
    pub(crate) fn ns_name(&self) -> String {
        match self.namespace {
            Some(ns) => format!("{ns}/{}", self.name),
            None => self.name.to_string(),
        }
    }

    pub(crate) fn to_obj_ref(self) -> ObjRef {
        ObjRef::new(self.group, self.kind, self.namespace, self.name).with_section(self.section)
    }

    /// The hash of the parts, the one the index keeps (taken beforehand, perhaps on
    /// another core, it is given to `RefIndex::probe_hashed`). The index keeps only this
    /// number, so it is the hash kept as a key (`key_hash`): names made to a pattern do
    /// not collide.
    pub(crate) fn hash(&self) -> u64 {
        key_hash(&(
            self.group,
            self.kind,
            self.namespace,
            self.name,
            self.section,
        ))
    }

    fn names(&self, obj_ref: &ObjRef) -> bool {
        self.name == obj_ref.name
            && self.kind == obj_ref.kind
            && self.namespace == obj_ref.namespace.as_deref()
            && self.section == obj_ref.section.as_deref()
            && self.group == obj_ref.group
    }
}

/// Nodes by reference, hashed once: the index the topology finds nodes by, without a
/// second copy of every reference.
#[derive(Debug, Default)]
pub(crate) struct RefIndex {
    by_hash: FastMap<u64, NodeId>,
    /// Nodes whose reference hashes like an earlier node's: practically never, but
    /// they are still found.
    collided: Vec<NodeId>,
}

impl RefIndex {
    pub(crate) fn get(&self, nodes: &[Node], key: RefKey) -> Option<NodeId> {
        self.probe(nodes, key).ok()
    }

    /// The node `key` names, or the place to index a new node under that name.
    pub(crate) fn probe(&self, nodes: &[Node], key: RefKey) -> Result<NodeId, Slot> {
        self.probe_with(nodes, key.hash(), |n| key.names(n))
    }

    /// `probe` of `r`, its hash taken beforehand (`RefKey::hash`): `r`'s names are read only
    /// when a node has that hash (a new node's are not read at all).
    pub(crate) fn probe_hashed(
        &self,
        nodes: &[Node],
        obj_ref: &ObjRef,
        hash: u64,
    ) -> Result<NodeId, Slot> {
        self.probe_with(nodes, hash, |n| RefKey::of(obj_ref).names(n))
    }

    fn probe_with(
        &self,
        nodes: &[Node],
        hash: u64,
        names: impl Fn(&ObjRef) -> bool,
    ) -> Result<NodeId, Slot> {
        let Some(&id) = self.by_hash.get(&hash) else {
            return Err(Slot { hash, taken: false });
        };
        if names(&nodes[id].obj_ref) {
            return Ok(id);
        }
        self.collided
            .iter()
            .copied()
            .find(|&c| names(&nodes[c].obj_ref))
            .ok_or(Slot { hash, taken: true })
    }

    pub(crate) fn shrink_to_fit(&mut self) {
        self.by_hash.shrink_to_fit();
    }

    /// Room for `more` nodes, made at once.
    pub(crate) fn reserve(&mut self, more: usize) {
        self.by_hash.reserve(more);
    }

    /// Indexes node `id` at the place `probe` gave for its name.
    pub(crate) fn insert(&mut self, slot: Slot, id: NodeId) {
        if slot.taken {
            self.collided.push(id);
        } else {
            self.by_hash.insert(slot.hash, id);
        }
    }
}

/// Where a name not yet indexed goes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    hash: u64,
    /// Another name has the same hash.
    taken: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::Role;

    fn node(r: ObjRef) -> Node {
        Node {
            obj_ref: r,
            role: Role::Backend,
            object: None,
            owner: None,
            parents: Default::default(),
            children: Default::default(),
        }
    }

    #[test]
    fn names_that_share_a_hash_are_both_found() {
        let a = ObjRef::new("", "Service", Some("ns"), "a");
        let b = ObjRef::new("", "Service", Some("ns"), "b").with_section(Some("http"));
        let nodes = vec![node(a.clone()), node(b.clone())];
        let mut index = RefIndex::default();
        let Err(slot) = index.probe(&nodes, RefKey::of(&a)) else {
            panic!("empty index")
        };
        index.insert(slot, NodeId(0));
        // Pretend b hashes like a: it goes beside it, not over it, and is found there.
        let Err(slot_b) = index.probe_hashed(&nodes, &b, slot.hash) else {
            panic!("b is not indexed yet")
        };
        assert!(slot_b.taken);
        index.insert(slot_b, NodeId(1));
        assert_eq!(index.get(&nodes, RefKey::of(&a)), Some(NodeId(0)));
        assert_eq!(
            index.probe_hashed(&nodes, &b, slot.hash).ok(),
            Some(NodeId(1))
        );
        assert_eq!(
            index.get(&nodes, RefKey::new("core", "Service", Some("ns"), "a")),
            Some(NodeId(0))
        );
        assert_eq!(
            index.get(&nodes, RefKey::new("", "Service", Some("ns"), "c")),
            None
        );
    }
}

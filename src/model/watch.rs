//! What `get -w`'s watches report, as plain data: the lists they follow (`WatchList`)
//! and the changes they see (`Change`). The live reader (`source::live::watch`) makes
//! them and reads them to tell what else to watch (`grow`); `query::watch` answers
//! them, with no I/O.

use super::read::Resource;
use super::{BlindSpot, ObjRef, Object};

/// One list the read made, watched the same way (same kind, namespace and selector).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WatchList {
    pub resource: Resource,
    /// None: cluster-wide.
    pub namespace: Option<String>,
    pub selector: Option<String>,
}

impl WatchList {
    /// Whether this list is of Pods.
    pub(crate) fn is_pods(&self) -> bool {
        self.resource.group.is_empty() && self.resource.kind == "Pod"
    }

    /// Whether `o` is one of the objects this list covers.
    pub fn covers(&self, object: &Object) -> bool {
        object.kind == self.resource.kind
            && super::normalize_group(object.group()) == self.resource.group
            && (self.namespace.is_none()
                || object.namespace.as_deref() == self.namespace.as_deref())
    }
}

/// What the watches saw.
#[derive(Debug)]
pub enum Change {
    /// An object added or modified.
    Applied(Object),
    /// An object deleted.
    Deleted(ObjRef),
    /// A list read from the start (the watcher's first, or again after 410 Gone): the
    /// objects it covers are now exactly these.
    Relisted {
        list: WatchList,
        objects: Vec<Object>,
    },
    /// A list no longer watched: its kind is no longer served (404: its CRD was
    /// deleted), or no policy needs it any more. The objects it covered are no longer
    /// known, and it is no longer listed.
    Unwatched(WatchList),
    /// Something that can no longer be watched or read (a kind now forbidden, a
    /// document that is not a valid object): said once, the rest goes on.
    Blind(BlindSpot),
}

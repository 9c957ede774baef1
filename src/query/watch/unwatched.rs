//! A list no longer watched (`Change::Unwatched`: its kind no longer served, or no
//! policy needing it): the objects it covered are no longer known and it is no longer
//! listed, as a fresh `get` would neither list it nor hold them.

use super::Watched;
use crate::model::{Listed, ObjRef};
use crate::source::live::watch::WatchList;

impl Watched {
    /// Forgets `list`: its objects (each a deletion), that it was listed, and, for
    /// Pods, that its namespace's Pods were read. Whether anything changed.
    pub(super) fn unwatched(&mut self, list: &WatchList) -> bool {
        let mut changed = false;
        if let (true, Some(ns)) = (list.is_pods(), &list.namespace) {
            changed |= self.pods_read_in.remove(ns);
        }
        let entry = Listed {
            group: list.resource.group.clone(),
            kind: list.resource.kind.clone(),
            namespace: list.namespace.clone(),
            file: None,
        };
        if let Some(listed) = &mut self.listed {
            changed |= listed.remove(&entry);
        }
        if changed {
            self.pending.any = true;
            self.pending.full = true;
        }
        let gone: Vec<ObjRef> = self
            .objects
            .iter()
            .filter(|(_, o)| list.covers(o))
            .map(|(r, _)| r.clone())
            .collect();
        for r in gone {
            if let Some(before) = self.objects.remove(&r) {
                changed = true;
                self.note(None, Some(before));
            }
        }
        changed
    }
}

//! A list no longer watched (`Change::Unwatched`: its kind no longer served, or no
//! policy needing it): the objects it covered are no longer known and it is no longer
//! listed, as a fresh `get` would neither list it nor hold them.

use super::{listed_entry, Watched};
use crate::model::watch::WatchList;

impl Watched {
    /// Forgets `list`: its objects (each a deletion), that it was listed, and, for
    /// Pods, that its namespace's Pods were read. Whether anything changed.
    pub(super) fn unwatched(&mut self, list: &WatchList) -> bool {
        let mut changed = false;
        if let (true, Some(ns)) = (list.is_pods(), &list.namespace) {
            changed |= self.pods_read_in.remove(ns);
        }
        let entry = listed_entry(list);
        if let Some(listed) = &mut self.listed {
            changed |= listed.remove(&entry);
        }
        if changed {
            self.note_full();
        }
        changed |= self.forget_covered(list, |_| false);
        changed
    }
}

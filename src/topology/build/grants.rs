//! ReferenceGrants: what lets a reference cross into another namespace (a backendRef, a
//! policy's targetSelectors).

use super::{Builder, View};
use crate::model::{normalize_group, ObjRef, Val, GATEWAY_GROUP, GATEWAY_X_GROUP};
use crate::topology::RefKey;

impl<'s> Builder<'s> {
    /// A ReferenceGrant in the target's namespace that lets `from` refer to `to`.
    pub(super) fn reference_granted(&self, from: &ObjRef, to: RefKey) -> bool {
        self.view().reference_granted(from, to)
    }
}

impl<'s> View<'_, 's> {
    /// A ReferenceGrant in the target's namespace that lets `from` refer to `to`.
    pub(super) fn reference_granted(&self, from: &ObjRef, to: RefKey) -> bool {
        let grants = [GATEWAY_GROUP, GATEWAY_X_GROUP]
            .iter()
            .filter_map(|group| self.by_kind.get(&(*group, "ReferenceGrant", to.namespace)))
            .flatten();
        for &gi in grants {
            let spec = &self.objects[gi].spec;
            let from_ok = spec
                .get("from")
                .and_then(Val::as_array)
                .is_some_and(|entries| {
                    entries.iter().any(|entry| {
                        entry.get("kind").and_then(Val::as_str) == Some(from.kind.as_str())
                            && normalize_group(
                                entry.get("group").and_then(Val::as_str).unwrap_or(""),
                            ) == from.group
                            && entry.get("namespace").and_then(Val::as_str)
                                == from.namespace.as_deref()
                    })
                });
            let to_ok = spec
                .get("to")
                .and_then(Val::as_array)
                .is_some_and(|entries| {
                    entries.iter().any(|entry| {
                        entry.get("kind").and_then(Val::as_str) == Some(to.kind)
                            && normalize_group(
                                entry.get("group").and_then(Val::as_str).unwrap_or(""),
                            ) == to.group
                            && entry
                                .get("name")
                                .and_then(Val::as_str)
                                .is_none_or(|n| n == to.name)
                    })
                });
            if from_ok && to_ok {
                return true;
            }
        }
        false
    }
}

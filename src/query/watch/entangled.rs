//! Policy kinds that fold together: a kind whose verdict rests on another kind's
//! policies (a `Further::PolicyOnIt` rule, a `ShadowedBy` rule) is folded again with
//! it when a change to policies alone is answered by folding their kinds again.

use super::Watched;
use crate::catalog::Further;
use crate::model::{normalize_group, GroupKind, ObjRef};
use std::collections::BTreeSet;

impl Watched {
    /// The policy kinds folded again with `kinds`: those of the policies in the input
    /// whose verdict rests on a policy of one of them (a `Further::PolicyOnIt` rule's
    /// kind, the BackendTLSPolicy on an ext-auth Service; a `ShadowedBy` rule's), and
    /// the kinds theirs rest on (kept in the world they are judged in).
    pub(super) fn entangled(&self, kinds: &BTreeSet<GroupKind>) -> BTreeSet<GroupKind> {
        let catalog = self.world.topology.catalog();
        let present: BTreeSet<GroupKind> = self.places.keys().map(ObjRef::group_kind).collect();
        let mut out = kinds.clone();
        for policy in present {
            let entry = &catalog.kind_of(&policy).entry;
            let further = entry.further.iter();
            let rests_on: Vec<GroupKind> = further
                .filter_map(|rule| match rule {
                    Further::PolicyOnIt { policy, .. } => Some(policy),
                    Further::ItsReferences { .. } => None,
                })
                .chain(entry.shadowed_by.as_ref().map(|s| &s.by))
                .map(|(group, kind)| GroupKind::new(normalize_group(group), kind))
                .collect();
            if kinds.contains(&policy) {
                out.extend(rests_on);
            } else if rests_on.iter().any(|k| kinds.contains(k)) {
                out.insert(policy);
            }
        }
        out
    }
}

//! What one batch of changes did to `get`'s rows: every row that differs from the last
//! answer in anything, and every policy whose object changed (its `-o json` item did,
//! whatever its row), with the row each had before; which of them an output prints
//! again is `events`' to say.

use super::{row_order, Watched};
use crate::model::{ObjRef, Object};
use crate::query::{PolicyRow, World};
use std::collections::{BTreeMap, BTreeSet};

/// What one batch of changes did to `get`'s rows.
pub struct Answer<'w> {
    /// A world the rows can be looked up in (for "not found" hints).
    pub world: &'w World,
    /// The rows that changed in anything, or whose policy's object changed (new policies
    /// included), in `get`'s order.
    pub changed: Vec<PolicyRow>,
    /// Policies gone, as their last rows.
    pub deleted: Vec<PolicyRow>,
    /// The row each policy of `changed` had before (none for a new policy).
    pub was: BTreeMap<ObjRef, PolicyRow>,
    /// The policies of `changed` whose objects changed (spec, labels, annotations, the
    /// status controllers wrote).
    pub(crate) edited: BTreeSet<ObjRef>,
    /// The objects now held (the changed rows' policies among them), but for those
    /// lent to the world of an answer in full (`first`).
    pub(super) objects: &'w BTreeMap<ObjRef, Object>,
    pub(super) first: Option<&'w World>,
    /// The policies gone, as last seen.
    pub(super) gone: Vec<Object>,
}

impl Answer<'_> {
    /// The object of a row answered: the policy as it is now, or as last seen if gone
    /// (what `get -w -o json` prints the row as).
    pub fn object(&self, policy: &ObjRef) -> Option<&Object> {
        self.objects
            .get(policy)
            .or_else(|| self.first?.policy_object(policy))
            .or_else(|| self.gone.iter().rev().find(|o| o.obj_ref() == *policy))
    }
}

impl Watched {
    /// `get`'s rows answered again from the objects as they are now: those that differ
    /// from the last answer, those whose policies' objects changed, and the policies
    /// gone.
    pub fn answer(&mut self) -> Answer<'_> {
        let (rows, mut gone, mut edited) = self.answer_pending();
        let mut changed = Vec::new();
        let mut deleted = Vec::new();
        let mut was = BTreeMap::new();
        // The edited policies whose rows were made again.
        let mut made = BTreeSet::new();
        for (policy, row) in rows {
            match row {
                Some(r) => {
                    if edited.contains(&policy) {
                        made.insert(policy.clone());
                    }
                    let before = self.last.insert(policy.clone(), r.clone());
                    if before.as_ref() != Some(&r) || edited.contains(&policy) {
                        changed.push(r);
                        was.extend(before.map(|b| (policy, b)));
                    }
                }
                None => deleted.extend(self.last.remove(&policy)),
            }
        }
        // A policy edited whose row was not made again (the same as the last): its
        // item changed all the same.
        edited.retain(|p| self.last.contains_key(p));
        for policy in edited.difference(&made) {
            if let Some(row) = self.last.get(policy) {
                changed.push(row.clone());
                was.insert(policy.clone(), row.clone());
            }
        }
        changed.sort_by(row_order);
        deleted.sort_by(row_order);
        gone.retain(|o| deleted.iter().any(|r| r.policy == o.obj_ref()));
        Answer {
            world: self.first.as_deref().unwrap_or(&self.world),
            changed,
            deleted,
            was,
            edited,
            objects: &self.objects,
            first: self.first.as_deref(),
            gone,
        }
    }
}

//! `MergeModel::None`: GEP-713's None. Nothing is merged: each policy is read as
//! Atomic Defaults (no strategy fields), so on a path the most specific policy wins
//! whole; a policy on a section beats one on the whole object for that section
//! (GEP-2648). Several on one target are the same-target rule's affair (most often
//! `OldestWins`: the others are Conflicted), and a Direct policy reaches only its target
//! (GEP-713, "Direct Policy Attachment"; the Gateway API's BackendTLSPolicy and most
//! vendors' Direct kinds, as their registry entries cite).

use super::gep713;
use crate::effective::sourced::Sourced;
use crate::effective::Joining;
use std::rc::Rc;

/// GEP-713's fold over Atomic Defaults: the most specific wins whole.
pub(super) fn fold(entries: &[Rc<Joining>]) -> Rc<Sourced> {
    gep713::fold(entries, &[])
}

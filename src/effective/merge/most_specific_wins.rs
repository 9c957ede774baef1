//! `MergeModel::MostSpecificWins`: an Inherited kind without strategy fields whose
//! most specific policy wins whole: each policy is read as Atomic Defaults and folds as
//! GEP-713's Atomic Defaults do (NGINX's WAFPolicy and PayloadProcessor, as their
//! registry entries cite).

use super::gep713;
use crate::effective::sourced::Sourced;
use crate::effective::Joining;
use std::rc::Rc;

/// GEP-713's fold over Atomic Defaults: the most specific wins whole.
pub(super) fn fold(entries: &[Rc<Joining>]) -> Rc<Sourced> {
    gep713::fold(entries, &[])
}

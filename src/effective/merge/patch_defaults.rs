//! `MergeModel::PatchDefaults`: an Inherited kind without strategy fields whose more
//! specific settings win per field: each policy is read as Patch Defaults and folds as
//! GEP-713's Patch Defaults do, a JSON Merge Patch (RFC 7396) of the more specific
//! policy over the less specific one (NGINX Gateway Fabric's ClientSettingsPolicy,
//! ProxySettingsPolicy, RateLimitPolicy and UpstreamSettingsPolicy: NGINX Gateway
//! Fabric docs, "Custom policies", "Merging Policies").

use super::gep713;
use crate::effective::sourced::Sourced;
use crate::effective::Joining;
use std::rc::Rc;

/// GEP-713's fold over Patch Defaults: each field from the most specific that sets it.
pub(super) fn fold(entries: &[Rc<Joining>]) -> Rc<Sourced> {
    gep713::fold(entries, &[])
}

//! `MergeModel::KeyedFields`: an Inherited kind without strategy fields whose more
//! specific policy wins each rule it sets: each policy is read as Merge Defaults and
//! folds as GEP-713's Merge Defaults do. The rules are the children of each JSON
//! pointer in `rule_paths`; elsewhere each top-level field is one rule (Istio's
//! Telemetry: tracing, metrics, accessLogging; agentgateway's and kgateway's shallow
//! merge per sub-section; Gloo's policies: as their registry entries cite).

use super::gep713;
use crate::effective::sourced::Sourced;
use crate::effective::Joining;
use std::rc::Rc;

/// GEP-713's fold over Merge Defaults keyed by `rule_paths`: each rule from the most
/// specific that sets it.
pub(super) fn fold(entries: &[Rc<Joining>], rule_paths: &[&str]) -> Rc<Sourced> {
    gep713::fold(entries, rule_paths)
}

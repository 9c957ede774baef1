//! `MergeModel::EnvoyMergeType`: Envoy Gateway's policy precedence. A more specific
//! policy replaces the less specific one whole, even one that sets nothing: the
//! translator gives a route (or listener) its own policy and passes the parent's over
//! there. A policy with `mergeType` (JSONMerge, StrategicMerge) is instead merged into
//! "the closest parent BackendTrafficPolicy in the route's attachment hierarchy (... a
//! Gateway, Gateway listener, ListenerSet, or ListenerSet listener)": a route-level
//! policy between them is passed over (Envoy Gateway docs, BackendTrafficPolicy,
//! "Precedence", "Multiple Policies at the Same Level", `mergeType`).

use super::gep713;
use crate::effective::sourced::{merge_patch, Sourced};
use crate::effective::Joining;
use std::rc::Rc;

/// The spec the entries of a path make (least specific first), from the most specific
/// up.
pub(super) fn fold(entries: &[Rc<Joining>]) -> Rc<Sourced> {
    let mut result = Rc::new(Sourced::Object(Vec::new()));
    // Whether what is folded so far still takes a parent's settings in: a policy
    // without mergeType replaces everything above it, for good.
    let mut open = true;
    // A more specific policy with mergeType waits for its Gateway-level parent.
    let mut merging = false;
    for entry in entries.iter().rev() {
        if merging && entry.route_level {
            // A route-level policy above a rule-level one that merges: it loses there.
            continue;
        }
        let was_empty = result.is_empty();
        result = join(entry, result, open);
        open = (was_empty || open) && entry.merges_into_parent;
        merging = open && entry.merges_into_parent;
    }
    result
}

/// `entry` joining what the levels below it set (`below`, empty when nothing).
/// `below_merges`: the nearest more specific policy asked to be merged into this one.
fn join(entry: &Joining, below: Rc<Sourced>, below_merges: bool) -> Rc<Sourced> {
    let mut joined = below;
    if let Some(defaults) = &entry.defaults {
        joined = match (below_merges, joined.is_empty()) {
            (false, _) => joined,
            (true, true) => defaults.value.clone(),
            (true, false) => merge_patch(&defaults.value, &joined),
        };
    }
    if let Some(overrides) = &entry.overrides {
        // Envoy Gateway's policies have no overrides; GEP-713's, were there any.
        joined = gep713::join_overrides(overrides, joined, &[]);
    }
    joined
}

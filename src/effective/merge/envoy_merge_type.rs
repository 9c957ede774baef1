//! `MergeModel::EnvoyMergeType`: Envoy Gateway's policy precedence. A more specific
//! policy replaces the less specific one whole, even one that sets nothing: the
//! translator gives a route (or listener) its own policy and passes the parent's over
//! there, marking the parent's `Overridden` for it. A policy with `mergeType`
//! (JSONMerge, StrategicMerge) is instead merged into "the closest parent
//! BackendTrafficPolicy in the route's attachment hierarchy (... a Gateway, Gateway
//! listener, ListenerSet, or ListenerSet listener)": a route-level policy between them
//! is passed over (Envoy Gateway docs, BackendTrafficPolicy, "Precedence", "Multiple
//! Policies at the Same Level", `mergeType`; internal/gatewayapi/backendtrafficpolicy.go:
//! a route that already has its traffic settings is skipped by the less specific
//! policies, and the Gateway's policy is `Overridden` for the routes with a policy of
//! their own that does not merge into it).

use super::{gep713, Folded};
use crate::effective::sourced::{merge_patch, Sourced};
use crate::effective::Joining;
use std::rc::Rc;

/// The spec the entries of a path make (least specific first), from the most specific
/// up, and the entries replaced whole on the way.
pub(super) fn fold(entries: &[Rc<Joining>]) -> Folded {
    replacing(entries, true)
}

/// Envoy Gateway's fold: each policy that does not merge into its parent replaces
/// everything less specific, even when it sets nothing. `merge_type`: whether a
/// policy's `mergeType` is read (a kind without the field never merges:
/// `most_specific_replaces`).
pub(super) fn replacing(entries: &[Rc<Joining>], merge_type: bool) -> Folded {
    let merges = |e: &Joining| merge_type && e.merges_into_parent;
    let mut result = Rc::new(Sourced::Object(Vec::new()));
    // Per entry replaced whole: (its index, the index of the entry that replaces it).
    let mut replaced: Vec<(usize, usize)> = Vec::new();
    // The most specific entry that does not merge into its parent: everything above it
    // is replaced, for good (none yet: what is folded still takes a parent's settings).
    let mut closed_by: Option<usize> = None;
    // Every entry below merges into its parent: a more specific policy with mergeType
    // waits for its Gateway-level parent, passing route-level ones over.
    let mut merging = false;
    for (i, entry) in entries.iter().enumerate().rev() {
        if merging && entry.route_level {
            // A route-level policy above a rule-level one that merges: it loses there,
            // to the most specific one.
            replaced.push((i, entries.len() - 1));
            continue;
        }
        let open = closed_by.is_none();
        if let (Some(by), None) = (closed_by, &entry.overrides) {
            replaced.push((i, by));
        }
        result = join(entry, result, open);
        if open && !merges(entry) {
            closed_by = Some(i);
        }
        merging = closed_by.is_none();
    }
    Folded {
        result,
        replaced: super::replaced_policies(entries, &replaced),
    }
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

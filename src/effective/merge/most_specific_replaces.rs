//! `MergeModel::MostSpecificReplaces`: the most specific policy on a path replaces the
//! less specific ones whole, even when it sets nothing, and nothing is ever merged
//! (Envoy Gateway's ClientTrafficPolicy, which has no `mergeType`: the translator
//! gives a listener with a policy of its own that one, passes the Gateway's over there
//! and marks it `Overridden` for that listener; internal/gatewayapi/
//! clienttrafficpolicy.go). Unlike `MostSpecificWins` (GEP-713's Atomic Defaults), a
//! more specific policy that sets nothing still takes the place.

use super::{envoy_merge_type, Folded};
use crate::effective::Joining;
use std::rc::Rc;

/// Envoy Gateway's fold with no `mergeType` read: the most specific entry wins whole.
pub(super) fn fold(entries: &[Rc<Joining>]) -> Folded {
    envoy_merge_type::replacing(entries, false)
}

//! `SameTarget::Stack`: every policy takes part in the fold on its own, in GEP-713's
//! order: the older one is established and its strategy decides where they meet
//! (GEP-713, "Conflict resolution"; Kuadrant's policies, Linkerd's
//! AuthorizationPolicy, NGINX Gateway Fabric's SnippetsPolicy and WAFPolicy).

use super::{each_alone, Outcome};
use crate::topology::PolicyId;

/// Each policy a group of its own, oldest first; none loses.
pub(super) fn groups(mine: &[PolicyId]) -> Outcome {
    (each_alone(mine.iter().copied()), Vec::new())
}

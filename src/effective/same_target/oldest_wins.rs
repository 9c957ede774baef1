//! `SameTarget::OldestWins`: GEP-713's None. Of several policies on one target the
//! oldest (creationTimestamp, then `namespace/name`) applies; the others are Conflicted
//! whole (GEP-713, "Conflict resolution"; the Gateway API's own Direct policies and
//! most vendors' single-policy kinds, as their registry entries cite).

use super::Outcome;
use crate::topology::PolicyId;

/// The oldest alone; each other one loses to it.
pub(super) fn groups(mine: &[PolicyId]) -> Outcome {
    match mine.split_first() {
        Some((&oldest, rest)) => (
            vec![vec![oldest]],
            rest.iter().map(|&loser| (loser, oldest)).collect(),
        ),
        None => (Vec::new(), Vec::new()),
    }
}

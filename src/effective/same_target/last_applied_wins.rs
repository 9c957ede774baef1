//! `SameTarget::LastAppliedWins`: the policy applied last applies whole; the others are
//! Conflicted (kgateway's HTTPListenerPolicy: "only the HTTPListenerPolicy that was
//! last applied is enforced", kgateway docs, "Policy priority and merging rules").

use super::Outcome;
use crate::topology::PolicyId;

/// The last applied alone; each other one loses to it. Without a record of when each
/// was applied, the newest creationTimestamp (then the last `namespace/name`) stands
/// for it: the last of `mine`.
pub(super) fn groups(mine: &[PolicyId]) -> Outcome {
    match mine.split_last() {
        Some((&last, rest)) => (
            vec![vec![last]],
            rest.iter().map(|&loser| (loser, last)).collect(),
        ),
        None => (Vec::new(), Vec::new()),
    }
}

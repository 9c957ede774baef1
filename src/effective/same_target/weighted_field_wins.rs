//! `SameTarget::WeightedFieldWins`: merged field by field as `OldestFieldWins`, but
//! ordered first by an integer annotation on the policy, higher first (missing or not
//! an integer: 0, as kgateway reads it), then by age: kgateway's
//! `kgateway.dev/policy-weight` (kgateway docs, "Policy priority and merging rules").

use super::{oldest_field_wins, Outcome};
use crate::effective::Joining;
use crate::topology::{PolicyId, Topology};

/// All of them one group, the higher `annotation` weight first, then the older (the
/// sort is stable, and `mine` is oldest first); none loses.
pub(super) fn groups(topology: &Topology, mine: &[PolicyId], annotation: &str) -> Outcome {
    let weight = |p: PolicyId| {
        let o = topology.policy_object(p);
        o.annotations
            .get(annotation)
            .and_then(|w| w.trim().parse::<i64>().ok())
            .unwrap_or(0)
    };
    let mut ordered = mine.to_vec();
    ordered.sort_by_key(|&p| std::cmp::Reverse(weight(p)));
    (vec![ordered], Vec::new())
}

/// The group as one entry: the first in the weighted order keeps each field.
pub(super) fn merged(entries: &[Joining], rule_paths: &[&str]) -> Joining {
    oldest_field_wins::merged(entries, rule_paths)
}

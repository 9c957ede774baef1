//! Several policies of one kind on one target (one object, or one section of it): how
//! they enter the fold, one module per rule of `SameTarget`, named after it. Each rule
//! answers two questions, each asked here by a `match` that names every rule:
//!
//! - `groups`: the policies (oldest first) as the groups that enter the fold, and the
//!   ones that lose there as (loser, winner);
//! - `merged`: a group of several as one entry of the fold.
//!
//! A group of one is pushed on its own. A new rule is a new variant of `SameTarget`
//! and a module here; the compiler names each question it must answer.

mod all_by_priority;
mod all_conflicted_on_mismatch;
mod disjoint_fields;
mod oldest_field_wins;
mod oldest_wins;
mod one_per_value;
mod several_conflict;
mod stack;
mod weighted_field_wins;

use super::Joining;
use crate::catalog::SameTarget;
use crate::model::Val;
use crate::topology::{PolicyId, Topology};

/// The groups that enter the fold, and the losers as (loser, winner).
pub(super) type Outcome = (Vec<Vec<PolicyId>>, Vec<(PolicyId, PolicyId)>);

/// The policies of one kind on one target (`mine`, oldest first) as the groups that
/// enter the fold, and the ones that lose to another there, as `rule` says.
pub(super) fn groups(topology: &Topology, mine: &[PolicyId], rule: SameTarget) -> Outcome {
    match mine {
        [] => return (Vec::new(), Vec::new()),
        // One alone never conflicts, whatever the rule.
        [one] => return (vec![vec![*one]], Vec::new()),
        _ => {}
    }
    match rule {
        SameTarget::Stack => stack::groups(mine),
        SameTarget::OldestWins => oldest_wins::groups(mine),
        SameTarget::DisjointFields(fields) => disjoint_fields::groups(topology, mine, fields),
        SameTarget::OldestFieldWins => oldest_field_wins::groups(mine),
        SameTarget::WeightedFieldWins { annotation } => {
            weighted_field_wins::groups(topology, mine, annotation)
        }
        SameTarget::AllByPriority {
            field,
            higher_first,
        } => all_by_priority::groups(topology, mine, field, higher_first),
        SameTarget::OnePerValue { field, key } => one_per_value::groups(topology, mine, field, key),
        SameTarget::AllConflictedOnMismatch { field } => {
            all_conflicted_on_mismatch::groups(topology, mine, field)
        }
        SameTarget::SeveralConflict => several_conflict::groups(mine),
    }
}

/// A group of several policies (as `groups` made it, in its order) as one entry of the
/// fold. `rule_paths`: where the named rules are (`MergeModel::rule_paths`).
pub(super) fn merged(rule: SameTarget, entries: &[Joining], rule_paths: &[&str]) -> Joining {
    match rule {
        SameTarget::OldestFieldWins => oldest_field_wins::merged(entries, rule_paths),
        SameTarget::WeightedFieldWins { .. } => weighted_field_wins::merged(entries, rule_paths),
        SameTarget::DisjointFields(_) => disjoint_fields::merged(entries),
        // Their groups hold one policy each, never merged; should one hold several, its
        // fields merge as disjoint ones would.
        SameTarget::Stack
        | SameTarget::OldestWins
        | SameTarget::AllByPriority { .. }
        | SameTarget::OnePerValue { .. }
        | SameTarget::AllConflictedOnMismatch { .. }
        | SameTarget::SeveralConflict => disjoint_fields::merged(entries),
    }
}

/// Each policy of `mine` as a group of its own, in that order.
fn each_alone(mine: impl IntoIterator<Item = PolicyId>) -> Vec<Vec<PolicyId>> {
    mine.into_iter().map(|p| vec![p]).collect()
}

/// A value of the policy's spec (a JSON pointer into `spec`).
fn spec_value<'t>(topology: &'t Topology, policy: PolicyId, field: &str) -> Option<&'t Val> {
    let spec: &Val = &topology.policy_object(policy).spec;
    spec.pointer(field).filter(|v| !v.is_null())
}

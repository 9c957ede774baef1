//! `SameTarget::OnePerValue`: one policy per value of a field (a JSON pointer into the
//! spec proper, read as `ValueKey` says): of several with the same value the oldest
//! applies and the others are Conflicted; different values all apply side by side (AWS
//! Gateway API Controller's AccessLogPolicy: one per destination type, the service of
//! its destination ARN).

use super::{each_alone, spec_value, Outcome};
use crate::catalog::ValueKey;
use crate::model::Val;
use crate::topology::{PolicyId, Topology};

/// The oldest with each value, each a group of its own; a later one with the same value
/// loses to it.
pub(super) fn groups(
    topology: &Topology,
    mine: &[PolicyId],
    field: &str,
    key: ValueKey,
) -> Outcome {
    let mut winners: Vec<(String, PolicyId)> = Vec::new();
    let mut lost = Vec::new();
    for &p in mine {
        let value = key_of(topology, p, field, key);
        match winners.iter().find(|(theirs, _)| *theirs == value) {
            Some(&(_, winner)) => lost.push((p, winner)),
            None => winners.push((value, p)),
        }
    }
    (each_alone(winners.into_iter().map(|(_, p)| p)), lost)
}

/// The value compared (missing: the empty value, shared by every policy that leaves the
/// field out).
fn key_of(topology: &Topology, policy: PolicyId, field: &str, key: ValueKey) -> String {
    let v = spec_value(topology, policy, field);
    let text = match v {
        Some(Val::String(s)) => s.to_string(),
        Some(other) => other.to_value().to_string(),
        None => String::new(),
    };
    match key {
        ValueKey::Whole => text,
        // arn:PARTITION:SERVICE:REGION:ACCOUNT:RESOURCE
        ValueKey::ArnService => match text.split(':').collect::<Vec<_>>()[..] {
            ["arn", _, service, ..] => service.to_string(),
            _ => text,
        },
    }
}

//! `SameTarget::AllConflictedOnMismatch`: every policy applies while they all agree on
//! a field; if any two differ in it, every one of them is Conflicted (APISIX's
//! HTTPRoutePolicy and its `priority`, APISIX Ingress Controller API reference).

use super::{each_alone, spec_value, Outcome};
use crate::model::Val;
use crate::topology::{PolicyId, Topology};

/// Each a group of its own while they agree on `field`; when two differ, every one
/// loses, to the first policy whose value differs from its own.
pub(super) fn groups(topology: &Topology, mine: &[PolicyId], field: &str) -> Outcome {
    let values: Vec<Option<&Val>> = mine
        .iter()
        .map(|&p| spec_value(topology, p, field))
        .collect();
    let lost: Vec<(PolicyId, PolicyId)> = mine
        .iter()
        .zip(&values)
        .filter_map(|(&p, v)| {
            let other = values.iter().position(|w| w != v)?;
            Some((p, mine[other]))
        })
        .collect();
    if lost.is_empty() {
        (each_alone(mine.iter().copied()), lost)
    } else {
        (Vec::new(), lost)
    }
}

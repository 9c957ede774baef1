//! `SameTarget::AllByPriority`: every policy applies on its own, side by side, ordered
//! by an integer field of its spec (missing or not an integer: 0; lower first, or
//! higher first), then by age; none is Overridden or Conflicted. Envoy Gateway's
//! EnvoyPatchPolicy ("applied in the ascending order of the priority"), Istio's
//! WasmPlugin, EnvoyFilter and TrafficExtension, as their registry entries cite.

use super::{each_alone, spec_value, Outcome};
use crate::model::Val;
use crate::topology::{PolicyId, Topology};

/// Each a group of its own, ordered by `field` (lower first unless `higher_first`),
/// then the older first; none loses.
pub(super) fn groups(
    topology: &Topology,
    mine: &[PolicyId],
    field: &str,
    higher_first: bool,
) -> Outcome {
    let mut ordered = mine.to_vec();
    ordered.sort_by_key(|&p| {
        let priority = integer(spec_value(topology, p, field)).unwrap_or(0);
        if higher_first {
            -priority
        } else {
            priority
        }
    });
    (each_alone(ordered), Vec::new())
}

/// An integer setting: a number, or a string holding one.
fn integer(v: Option<&Val>) -> Option<i64> {
    match v? {
        Val::Number(n) => n.as_i64(),
        Val::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

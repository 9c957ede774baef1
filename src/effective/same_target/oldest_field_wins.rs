//! `SameTarget::OldestFieldWins`: several policies on one target are merged field by
//! field, each field (each rule, where the merge model names rules) from the oldest
//! policy that sets it (agentgateway's policyselection `HasHigherPriority`: the oldest,
//! then namespace, then name; Gloo's policies).

use super::Outcome;
use crate::effective::joining::Layer;
use crate::effective::sourced::{merge_rules_run, Run, Sourced};
use crate::effective::Joining;
use crate::topology::PolicyId;
use std::rc::Rc;

/// All of them one group, oldest first; none loses.
pub(super) fn groups(mine: &[PolicyId]) -> Outcome {
    (vec![mine.to_vec()], Vec::new())
}

/// The group as one entry, the first of `entries` keeping each rule several set: the
/// stanzas of each kind merged in one pass (`Run::OldestFirst`), not one policy at a
/// time.
pub(super) fn merged(entries: &[Joining], rule_paths: &[&str]) -> Joining {
    let stanza = |of: fn(&Joining) -> &Option<Layer>| {
        let layers: Vec<&Layer> = entries.iter().filter_map(|e| of(e).as_ref()).collect();
        let first = layers.first()?;
        let values: Vec<&Rc<Sourced>> = layers.iter().map(|l| &l.value).collect();
        Some(Layer {
            how: first.how,
            value: match values[..] {
                [one] => one.clone(),
                _ => merge_rules_run(&values, Run::OldestFirst, rule_paths),
            },
        })
    };
    Joining {
        policies: entries
            .iter()
            .flat_map(|e| e.policies.iter().copied())
            .collect(),
        defaults: stanza(|e| &e.defaults),
        overrides: stanza(|e| &e.overrides),
        merges_into_parent: entries.iter().any(|e| e.merges_into_parent),
        route_level: entries.iter().any(|e| e.route_level),
        narrowed: entries.iter().flat_map(|e| e.narrowed.clone()).collect(),
    }
}

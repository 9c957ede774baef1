//! Statuses at a few nodes only (`describe` of one object), folding only the paths
//! down to them.

use super::tally::{leaf_counts, Tallies};
use super::PolicyStatus;
use crate::effective::KindFold;
use crate::topology::{Conflict, NodeId, PolicyId, Topology};
use std::collections::BTreeMap;

/// Statuses at a few nodes only: what `describe` of one object needs, folding only
/// the paths down to those nodes instead of the whole topology. For those nodes it
/// agrees with `Statuses::compute` (a test holds them equal).
#[derive(Debug, Default, PartialEq)]
pub struct StatusesAt {
    /// Per policy that reaches one of the nodes: its status at each of them.
    pub per_node: BTreeMap<PolicyId, BTreeMap<NodeId, PolicyStatus>>,
    /// Conflicts on one of the nodes.
    pub conflicts: Vec<Conflict>,
}

impl StatusesAt {
    pub fn compute(topology: &Topology, nodes: &[NodeId]) -> StatusesAt {
        let mut per_node: BTreeMap<PolicyId, BTreeMap<NodeId, PolicyStatus>> = BTreeMap::new();
        let mut conflicts = Vec::new();
        let leaves = leaf_counts(topology);
        let mut here = Vec::new();
        for kind in KindFold::kinds_in_use(topology) {
            let mut f = KindFold::for_statuses(topology, &kind);
            let config = f.config();
            conflicts.extend(config.conflicts.iter().filter(|c| nodes.contains(&c.at)));
            let mut tallies = Tallies::new(config, &leaves);
            for &n in nodes {
                tallies.at(&mut f, n, &mut here);
                for &(p, tally) in &here {
                    per_node.entry(p).or_default().insert(n, tally.status());
                }
            }
        }
        conflicts.sort();
        StatusesAt {
            per_node,
            conflicts,
        }
    }
}

//! Computed status (GEP-713 §"Policy status"): per policy over every context it
//! takes part in, and per (policy, object).

use super::KindFold;
use crate::catalog::Class;
use crate::topology::{Code, NodeId, PolicyId, Resolution, Topology};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum PolicyStatus {
    /// Its whole spec survives in every context it takes part in.
    Enforced,
    /// Some of it survives somewhere, not all of it everywhere.
    PartiallyEnforced,
    /// Nothing of it survives anywhere.
    Overridden,
    /// A Direct policy that loses to an older one on the same target.
    Conflicted,
    TargetNotFound,
    SectionNotFound,
    /// Its spec cannot be read well enough to attach it.
    Invalid,
    /// Bound by a workload selector, outside the hierarchy.
    SelectorBound,
}

impl PolicyStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            PolicyStatus::Enforced => "Enforced",
            PolicyStatus::PartiallyEnforced => "PartiallyEnforced",
            PolicyStatus::Overridden => "Overridden",
            PolicyStatus::Conflicted => "Conflicted",
            PolicyStatus::TargetNotFound => "TargetNotFound",
            PolicyStatus::SectionNotFound => "SectionNotFound",
            PolicyStatus::Invalid => "Invalid",
            PolicyStatus::SelectorBound => "SelectorBound",
        }
    }
}

/// How much of a policy survived in the contexts of one node.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    full: u32,
    partial: u32,
    none: u32,
    conflicted: u32,
}

impl Tally {
    fn status(self) -> PolicyStatus {
        let enforced_somewhere = self.full + self.partial > 0;
        match () {
            _ if self.conflicted > 0 && !enforced_somewhere => PolicyStatus::Conflicted,
            _ if self.conflicted > 0 => PolicyStatus::PartiallyEnforced,
            _ if self.partial == 0 && self.none == 0 => PolicyStatus::Enforced,
            _ if self.full == 0 && self.partial == 0 => PolicyStatus::Overridden,
            _ => PolicyStatus::PartiallyEnforced,
        }
    }
    fn add(&mut self, o: Tally) {
        self.full += o.full;
        self.partial += o.partial;
        self.none += o.none;
        self.conflicted += o.conflicted;
    }
}

/// Statuses for every policy in a topology.
#[derive(Debug, Default)]
pub struct Statuses {
    /// Per policy: its computed status over the most specific objects it reaches.
    pub overall: Vec<PolicyStatus>,
    /// Per policy: every node it reaches and its status there.
    pub per_node: Vec<BTreeMap<NodeId, PolicyStatus>>,
    /// Direct conflicts: (loser, winner, node).
    pub conflicts: Vec<(PolicyId, PolicyId, NodeId)>,
}

impl Statuses {
    pub fn compute(t: &Topology) -> Statuses {
        let np = t.policies.len();
        let mut tallies: Vec<BTreeMap<NodeId, Tally>> = vec![BTreeMap::new(); np];
        let mut leaf_tally = vec![Tally::default(); np];
        let mut conflicts = Vec::new();
        let leaves: Vec<usize> = t.policies.iter().map(|p| p.intent.leaf_count()).collect();
        for kind in KindFold::kinds_in_use(t) {
            let mut f = KindFold::new(t, &kind);
            for &(loser, winner, n) in &f.conflicts {
                conflicts.push((loser, winner, n));
                let mut targets = vec![n];
                targets.extend(
                    t.nodes[n]
                        .children
                        .iter()
                        .copied()
                        .filter(|&c| t.nodes[c].owner == Some(n)),
                );
                for m in targets {
                    tallies[loser].entry(m).or_default().conflicted += 1;
                    if is_leaf(t, m, f.class) {
                        leaf_tally[loser].conflicted += 1;
                    }
                }
            }
            for n in 0..t.nodes.len() {
                let ctxs = f.contexts(n);
                let leaf = is_leaf(t, n, f.class);
                for c in ctxs.iter() {
                    let Some(acc) = &c.acc else { continue };
                    let result = acc.result();
                    for &p in &acc.applied {
                        let total = leaves[p];
                        let kept = result.count_from(p);
                        let one = match () {
                            _ if kept >= total => Tally {
                                full: 1,
                                ..Tally::default()
                            },
                            _ if kept == 0 => Tally {
                                none: 1,
                                ..Tally::default()
                            },
                            _ => Tally {
                                partial: 1,
                                ..Tally::default()
                            },
                        };
                        tallies[p].entry(n).or_default().add(one);
                        if leaf {
                            leaf_tally[p].add(one);
                        }
                    }
                }
            }
        }
        let mut overall = Vec::with_capacity(np);
        for (p, leaf) in leaf_tally.iter().enumerate() {
            let attached = t.targets[p]
                .iter()
                .any(|r| matches!(r.resolution, Resolution::Node(_) | Resolution::Namespace(_)));
            let status = if attached {
                leaf.status()
            } else if t.policies[p].workload_selector.is_some() {
                PolicyStatus::SelectorBound
            } else if t.targets[p]
                .iter()
                .any(|r| r.resolution == Resolution::NotFound(Code::TargetNotFound))
            {
                PolicyStatus::TargetNotFound
            } else if t.targets[p]
                .iter()
                .any(|r| r.resolution == Resolution::NotFound(Code::SectionNotFound))
            {
                PolicyStatus::SectionNotFound
            } else if t.targets[p]
                .iter()
                .any(|r| r.resolution == Resolution::NotFound(Code::SelectorBound))
            {
                PolicyStatus::SelectorBound
            } else if !t.policies[p].invalid.is_empty() {
                PolicyStatus::Invalid
            } else {
                // A selector that matched nothing: attached to nothing, so nothing to enforce.
                PolicyStatus::TargetNotFound
            };
            overall.push(status);
        }
        let per_node = tallies
            .into_iter()
            .map(|m| m.into_iter().map(|(n, t)| (n, t.status())).collect())
            .collect();
        conflicts.sort();
        Statuses {
            overall,
            per_node,
            conflicts,
        }
    }

    /// The number of distinct objects a policy reaches (a section counts as its object).
    pub fn affects_count(&self, t: &Topology, p: PolicyId) -> usize {
        let mut objs: Vec<NodeId> = self.per_node[p]
            .keys()
            .map(|&n| t.nodes[n].owner.unwrap_or(n))
            .collect();
        objs.sort_unstable();
        objs.dedup();
        objs.len()
    }
}

/// The most specific objects a policy of this class reaches: DAG leaves for
/// inherited kinds; for Direct kinds, a target's sections or the target itself.
fn is_leaf(t: &Topology, n: NodeId, class: Class) -> bool {
    let node = &t.nodes[n];
    match class {
        Class::Inherited => node.children.is_empty(),
        Class::Direct => !node.children.iter().any(|&c| t.nodes[c].owner == Some(n)),
    }
}

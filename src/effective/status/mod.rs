//! Computed status (GEP-713 §"Policy status"): per policy over every context it
//! takes part in, and per (policy, object).
//!
//! Here: a status (`PolicyStatus`), a tally of how much of a policy survived
//! (`Tally`), and what a policy's overall status takes from itself (`Own`). Measuring
//! at one node is `tally`'s; the whole topology's statuses `whole`'s, a few nodes'
//! `at_nodes`'s, and the parts `get -w` counts again `parts`'s.

mod at_nodes;
mod parts;
mod tally;
mod whole;

pub use at_nodes::StatusesAt;
pub(crate) use parts::{contributions, leaf_contributions_at, Contribution};
pub use whole::{Counts, Reached, Statuses};

use crate::topology::{Code, PolicyId, Resolution, Topology};
use serde::Serialize;

/// A policy's computed status (GEP-713 §"Policy status", and why one that attaches
/// nowhere does not).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum PolicyStatus {
    /// Its whole spec survives in every context it takes part in.
    Enforced,
    /// Some of it survives somewhere, not all of it everywhere.
    PartiallyEnforced,
    /// Nothing of it survives anywhere.
    Overridden,
    /// Another policy of its kind wins on the same target, by the kind's same-target
    /// rule (GEP-713's None: the older one).
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
pub(crate) struct Tally {
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

/// A policy that loses a Direct conflict on a node counts as Conflicted there.
const CONFLICTED: Tally = Tally {
    full: 0,
    partial: 0,
    none: 0,
    conflicted: 1,
};

impl PartialEq for Tally {
    fn eq(&self, o: &Tally) -> bool {
        (self.full, self.partial, self.none, self.conflicted)
            == (o.full, o.partial, o.none, o.conflicted)
    }
}
impl Eq for Tally {}

/// A policy's computed status from its tally over the most specific objects it reaches
/// (conflicts lost included) and how its targets resolved.
fn overall_status(topology: &Topology, policy: PolicyId, leaf: Tally) -> PolicyStatus {
    Own::of(topology, policy).status(leaf)
}

/// What a policy's overall status takes from the policy itself and how its targets
/// resolved, whatever it reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Own {
    /// Attached somewhere: its status is its tally's (Invalid when its controller
    /// refused it whole), with the targets its vendor refuses it on alone counted as
    /// targets where nothing of it holds.
    Attached {
        rejected: bool,
        /// Set Conflicted on some of its targets by its controller (Kong's Services of
        /// one rule naming different policies): as a conflict lost there.
        conflicted_on_some: bool,
        /// Refused on some of its targets (a setting its controller does not accept on
        /// the target's kind): it cannot be Enforced.
        invalid_on_some: bool,
    },
    /// Attached nowhere: this status.
    Unattached(PolicyStatus),
}

impl Own {
    pub(crate) fn status_of(self, c: &Contribution) -> PolicyStatus {
        self.status(c.tally)
    }

    fn status(self, leaf: Tally) -> PolicyStatus {
        match self {
            Own::Attached { rejected: true, .. } => PolicyStatus::Invalid,
            Own::Attached {
                rejected: false,
                conflicted_on_some,
                invalid_on_some,
            } => {
                let mut leaf = leaf;
                if conflicted_on_some {
                    leaf.add(CONFLICTED);
                }
                match leaf.status() {
                    PolicyStatus::Enforced if invalid_on_some => PolicyStatus::PartiallyEnforced,
                    status => status,
                }
            }
            Own::Unattached(s) => s,
        }
    }

    /// What policy `policy` of `topology` takes from itself and its targets.
    pub(crate) fn of(topology: &Topology, policy: PolicyId) -> Own {
        let attached = topology
            .targets_of(policy)
            .iter()
            .any(|r| match r.resolution {
                Resolution::Node(_) | Resolution::Namespace(_) => true,
                Resolution::NotFound(_) => false,
            });
        let unresolved = |code| {
            topology
                .targets_of(policy)
                .iter()
                .any(|r| r.resolution == Resolution::NotFound(code))
        };
        Own::Unattached(if attached {
            // Refused by its controller on a target that exists: Invalid.
            return Own::Attached {
                rejected: topology.policy(policy).rejected.is_some(),
                conflicted_on_some: unresolved(Code::Conflicted),
                invalid_on_some: unresolved(Code::Invalid),
            };
        } else if topology.policy(policy).workload_selector.is_some() {
            PolicyStatus::SelectorBound
        } else if unresolved(Code::TargetNotFound) {
            PolicyStatus::TargetNotFound
        } else if unresolved(Code::SectionNotFound) {
            PolicyStatus::SectionNotFound
        } else if unresolved(Code::SelectorBound) {
            PolicyStatus::SelectorBound
        } else if unresolved(Code::Conflicted) {
            // Set Conflicted by its controller on every target (Kong).
            PolicyStatus::Conflicted
        } else if !topology.policy(policy).invalid.is_empty() || unresolved(Code::TargetIsPolicy) {
            PolicyStatus::Invalid
        } else {
            // A selector that matched nothing: attached to nothing, so nothing to enforce.
            PolicyStatus::TargetNotFound
        })
    }
}

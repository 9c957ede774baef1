//! What `get -w` keeps per part of the hierarchy (a namespace, or the cluster-scoped
//! objects): per policy, what each part contributes to its status and reach, and per
//! part the edges into it; how a part counted again replaces what was counted there,
//! and how a node above it that gains its first child or loses its last is corrected.

use crate::effective::status::{leaf_contributions_at, Contribution, Own};
use crate::model::{FastMap, ObjRef};
use crate::query::get::policy_row;
use crate::query::PolicyRow;
use crate::topology::{NodeId, PolicyId, Topology};
use std::collections::{BTreeMap, BTreeSet};

/// The part of a topology a node is counted in: the namespace of its object (None:
/// cluster-scoped).
pub(super) type Part = Option<String>;

/// Per policy, what each part contributes to its status and reach, how its targets
/// resolved; per part, the hierarchy's edges from a node to a child counted there.
#[derive(Default)]
pub(super) struct Parts {
    pub(super) contrib: FastMap<ObjRef, BTreeMap<Part, Contribution>>,
    pub(super) own: FastMap<ObjRef, Own>,
    /// Per part of the children: each node of another part (by reference) with
    /// children in that part, and how many.
    pub(super) edges: FastMap<Part, FastMap<ObjRef, u32>>,
}

impl Parts {
    /// What every part contributes to `policy`.
    pub(super) fn total(&self, policy: &ObjRef) -> Contribution {
        let mut total = Contribution::default();
        for c in self
            .contrib
            .get(policy)
            .into_iter()
            .flat_map(BTreeMap::values)
        {
            total.add(c);
        }
        total
    }

    /// The parts counted again (`touched`) replace what was counted there. Returns the
    /// policies counted in them, before or now.
    pub(super) fn replace(&mut self, mut counted: Parts, touched: Vec<Part>) -> BTreeSet<ObjRef> {
        let mut changed: BTreeSet<ObjRef> = BTreeSet::new();
        // What was counted in those parts is let go.
        for (policy, per) in self.contrib.iter_mut() {
            let counted_there = per.len();
            per.retain(|part, _| !touched.contains(part));
            if per.len() != counted_there {
                changed.insert(policy.clone());
            }
        }
        for part in touched {
            match counted.edges.remove(&part) {
                Some(e) => self.edges.insert(part, e),
                None => self.edges.remove(&part),
            };
        }
        for (policy, per) in counted.contrib {
            for (part, c) in per {
                self.contrib
                    .entry(policy.clone())
                    .or_default()
                    .insert(part, c);
            }
            changed.insert(policy);
        }
        changed
    }

    /// A node that became, or stopped being, one of the most specific: its part gains
    /// or loses what it adds there, for each policy (noted in `changed`).
    pub(super) fn apply_flips(
        &mut self,
        topology: &Topology,
        flips: Vec<Flip>,
        changed: &mut BTreeSet<ObjRef>,
    ) {
        for Flip { node, id, leaf } in flips {
            let part: Part = node.namespace.as_deref().map(str::to_string);
            for (p, c) in leaf_contributions_at(topology, id) {
                let policy = topology.policy(p).obj_ref.clone();
                let per = self.contrib.entry(policy.clone()).or_default();
                let mine = per.entry(part.clone()).or_default();
                match leaf {
                    true => mine.add(&c),
                    false => mine.subtract(&c),
                }
                if mine.is_empty() {
                    per.remove(&part);
                }
                changed.insert(policy);
            }
        }
    }

    /// The policies whose targets were judged whole (`exact`): what they say of
    /// themselves is read again, and their rows made anew (noted in `changed`); their
    /// status and reach are the parts' sums, set afterwards.
    pub(super) fn judge(
        &mut self,
        topology: &Topology,
        exact: Vec<PolicyId>,
        changed: &mut BTreeSet<ObjRef>,
    ) -> BTreeMap<ObjRef, PolicyRow> {
        let mut rows: BTreeMap<ObjRef, PolicyRow> = BTreeMap::new();
        for i in exact {
            let policy = topology.policy(i).obj_ref.clone();
            self.own.insert(policy.clone(), Own::of(topology, i));
            rows.insert(
                policy.clone(),
                policy_row(
                    topology,
                    i,
                    Own::of(topology, i).status_of(&Contribution::default()),
                    0,
                ),
            );
            changed.insert(policy);
        }
        rows
    }

    /// A policy gone: nothing is counted for it any more.
    pub(super) fn forget(&mut self, policy: &ObjRef) {
        self.contrib.remove(policy);
        self.own.remove(policy);
    }
}

/// A node outside the parts counted again that became (`leaf`), or stopped being, one
/// of the most specific objects: its children there were all it had.
pub(super) struct Flip {
    node: ObjRef,
    id: NodeId,
    leaf: bool,
}

/// The nodes above the parts counted again (`touched_parts`, the namespaces
/// `touched`) that gained their first child or lost their last, from the edges into
/// those parts as last counted (`parts`) and now (`counted`). None: such a node is not
/// in what was read (nothing has been changed yet: answered otherwise).
pub(super) fn leaf_flips(
    topology: &Topology,
    parts: &Parts,
    counted: &Parts,
    touched_parts: &[Part],
    touched: &BTreeSet<String>,
) -> Option<Vec<Flip>> {
    // Per node above the parts counted again: its children there, before and now.
    let mut counts: FastMap<&ObjRef, (u32, u32)> = FastMap::default();
    for part in touched_parts {
        for (parent, n) in parts.edges.get(part).into_iter().flatten() {
            counts.entry(parent).or_default().0 += n;
        }
        for (parent, n) in counted.edges.get(part).into_iter().flatten() {
            counts.entry(parent).or_default().1 += n;
        }
    }
    let mut flips: Vec<Flip> = Vec::new();
    for (parent, (old, new)) in counts {
        if parent
            .namespace
            .as_deref()
            .is_some_and(|ns| touched.contains(ns))
            || (old > 0) == (new > 0)
        {
            continue;
        }
        // Each such node is in what was read (it is above a part counted again).
        let id = topology.lookup(parent)?;
        // Its children elsewhere: in its own namespace (read whole), or counted
        // in parts not counted again.
        let mine = part_of(topology, id);
        let at_home = topology
            .skeleton()
            .children(id)
            .iter()
            .any(|&c| part_of(topology, c) == mine);
        let elsewhere = parts
            .edges
            .iter()
            .filter(|(part, _)| !part.as_ref().is_some_and(|ns| touched.contains(ns)))
            .any(|(_, e)| e.contains_key(parent));
        if !at_home && !elsewhere {
            flips.push(Flip {
                node: parent.clone(),
                id,
                leaf: new == 0,
            });
        }
    }
    Some(flips)
}

/// The namespace of the object `node` is or belongs to; None: cluster-scoped.
fn part_of(topology: &Topology, node: NodeId) -> Option<String> {
    let object = topology.skeleton().object(node);
    topology
        .node(object)
        .obj_ref
        .namespace
        .as_deref()
        .map(str::to_string)
}

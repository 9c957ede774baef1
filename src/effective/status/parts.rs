//! What the nodes of one part of a topology contribute to each policy's overall
//! status and reach: `get -w` answers a change by counting again only the parts it can
//! touch, and sums of parts are the whole.

use super::tally::{is_leaf, leaf_counts, Tallies};
use super::whole::{fold_largest_first, sections_follow_owners};
use super::{Tally, CONFLICTED};
use crate::catalog::Class;
use crate::effective::KindFold;
use crate::model::{FastMap, FastSet, GroupKind};
use crate::topology::{NodeId, PolicyId, Topology};
use rayon::prelude::*;

/// What the nodes of one part of a topology add to a policy's overall status and reach:
/// its tally over the most specific nodes there (and the conflicts it loses there), and
/// the objects it reaches there. Sums of parts are the whole (`get -w` answers a change
/// by counting again only the parts it can touch).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Contribution {
    pub(super) tally: Tally,
    pub(crate) objects: u32,
}

impl Contribution {
    pub(crate) fn add(&mut self, o: &Contribution) {
        self.tally.add(o.tally);
        self.objects += o.objects;
    }

    pub(crate) fn is_empty(&self) -> bool {
        *self == Contribution::default()
    }

    /// `self` less `o` (which it holds).
    pub(crate) fn subtract(&mut self, o: &Contribution) {
        let t = &mut self.tally;
        t.full = t.full.saturating_sub(o.tally.full);
        t.partial = t.partial.saturating_sub(o.tally.partial);
        t.none = t.none.saturating_sub(o.tally.none);
        t.conflicted = t.conflicted.saturating_sub(o.tally.conflicted);
        self.objects = self.objects.saturating_sub(o.objects);
    }
}

/// Per policy, per part of `t` (`part_of[n]`: the part node `n` is counted in, `None`
/// for a node not counted), what the counted nodes contribute (see `Contribution`).
pub(crate) fn contributions(
    t: &Topology,
    part_of: &[Option<u32>],
) -> Vec<Vec<(u32, Contribution)>> {
    let np = t.policies().len();
    let leaves = leaf_counts(t);
    let kinds = KindFold::kinds_in_use(t);
    // Objects reached are counted as the nodes go by when each section's node follows
    // its object's (as the topology makes them); else each (policy, object) is kept.
    let ordered = sections_follow_owners(t);
    let reach: Vec<Vec<NodeId>> = kinds
        .par_iter()
        .map(|k| t.at_or_below(KindFold::new(t, k).starts()))
        .collect();
    let sizes: Vec<usize> = reach.iter().map(Vec::len).collect();
    let counting = Counting {
        topology: t,
        part_of,
        leaves: &leaves,
        ordered,
    };
    let folded = fold_largest_first(&sizes, |k| {
        contributions_of_kind(&counting, &kinds[k], &reach[k])
    });
    let mut per: Vec<Vec<(u32, Contribution)>> = vec![Vec::new(); np];
    for ((p, part), c) in folded.into_iter().flatten() {
        per[p].push((part, c));
    }
    per
}

/// What `contributions` counts with, the same for every kind: the topology, the part
/// each node is counted in, how many settings each policy sets, and whether objects
/// come in node order (`sections_follow_owners`).
struct Counting<'a> {
    topology: &'a Topology,
    part_of: &'a [Option<u32>],
    leaves: &'a [usize],
    ordered: bool,
}

/// `contributions` of the policies of one kind, folded over `nodes` (at or below where
/// they enter, in node order).
fn contributions_of_kind(
    counting: &Counting,
    k: &GroupKind,
    nodes: &[NodeId],
) -> FastMap<(PolicyId, u32), Contribution> {
    let Counting {
        topology: t,
        part_of,
        leaves,
        ordered,
    } = *counting;
    let np = t.policies().len();
    let f = &mut KindFold::for_statuses(t, k);
    let mut sums: FastMap<(PolicyId, u32), Contribution> = FastMap::default();
    let mut tallies = Tallies::new(f.config(), leaves);
    let mut here = Vec::new();
    // Per policy: the last object it reached, and what it adds in the part it
    // was reached in last (added to `sums` when the part changes: the nodes
    // of a part mostly come together).
    let mut last_object: Vec<Option<NodeId>> = vec![None; np];
    let mut adding: Vec<Option<(u32, Contribution)>> = vec![None; np];
    let mut seen: FastSet<(PolicyId, NodeId)> = FastSet::default();
    for &n in nodes {
        let Some(part) = part_of[n.index()] else {
            continue;
        };
        tallies.at(f, n, &mut here);
        let leaf = is_leaf(t, n, f.config().rules.class, f.config().rules.flow);
        let object = t.skeleton().object(n);
        for &(p, tally) in &here {
            let new_object = last_object[p.index()].replace(object) != Some(object)
                && (ordered || seen.insert((p, object)));
            if !new_object && !leaf {
                continue;
            }
            let c = match &mut adding[p.index()] {
                Some((at, c)) if *at == part => c,
                slot => {
                    if let Some((at, c)) = slot.take() {
                        sums.entry((p, at)).or_default().add(&c);
                    }
                    &mut slot.insert((part, Contribution::default())).1
                }
            };
            if new_object {
                c.objects += 1;
            }
            if leaf {
                c.tally.add(tally);
            }
        }
    }
    for (i, slot) in adding.into_iter().enumerate() {
        if let Some((at, c)) = slot {
            sums.entry((PolicyId::at(i), at)).or_default().add(&c);
        }
    }
    for c in &f.config().conflicts {
        if let Some(part) = part_of[c.at.index()] {
            sums.entry((c.loser, part))
                .or_default()
                .tally
                .add(CONFLICTED);
        }
    }
    sums
}

/// Per policy of an inherited kind that reaches node `n`: what `n` would add to its
/// tally were it one of the most specific nodes (a leaf).
pub(crate) fn leaf_contributions_at(
    topology: &Topology,
    node: NodeId,
) -> Vec<(PolicyId, Contribution)> {
    let leaves = leaf_counts(topology);
    let mut out = Vec::new();
    let mut here = Vec::new();
    for kind in KindFold::kinds_in_use(topology) {
        let f = &mut KindFold::for_statuses(topology, &kind);
        if f.config().rules.class != Class::Inherited {
            continue;
        }
        let mut tallies = Tallies::new(f.config(), &leaves);
        tallies.at(f, node, &mut here);
        out.extend(
            here.iter()
                .map(|&(p, tally)| (p, Contribution { tally, objects: 0 })),
        );
    }
    out
}

//! Statuses over the whole topology: every kind folded (the largest first, a core
//! each), each policy's overall status and the objects it reaches (`Counts`), and with
//! `Statuses` its status at every node it reaches (`Reached`).

use super::tally::{is_leaf, leaf_counts, Tallies};
use super::{overall_status, PolicyStatus, Tally, CONFLICTED};
use crate::effective::{KindFold, NoPaths};
use crate::topology::{Conflict, NodeId, PolicyId, Topology};
use rayon::prelude::*;

/// The nodes one policy reaches and its status at each, in node order: lists, not a
/// map (node numbers as 32 bits, statuses as runs), for a large cluster has a million
/// of these.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reached {
    /// The nodes, in node order.
    nodes: Vec<NodeId>,
    /// The statuses as runs: from `nodes[i]` on, until the next run, each node's status
    /// is this one (a policy mostly has one status wherever it reaches).
    runs: Vec<(u32, PolicyStatus)>,
}

impl Reached {
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Adds node `n`, after every node already in.
    pub(crate) fn push(&mut self, n: NodeId, status: PolicyStatus) {
        debug_assert!(self.nodes.last().is_none_or(|&m| m < n), "in node order");
        if self.runs.last().is_none_or(|&(_, s)| s != status) {
            self.runs.push((self.nodes.len() as u32, status));
        }
        self.nodes.push(n);
    }

    fn shrink_to_fit(&mut self) {
        self.nodes.shrink_to_fit();
        self.runs.shrink_to_fit();
    }

    fn status_at(&self, i: usize) -> PolicyStatus {
        let run = self.runs.partition_point(|&(from, _)| from as usize <= i);
        self.runs[run - 1].1
    }

    pub fn get(&self, node: NodeId) -> Option<PolicyStatus> {
        let i = self.nodes.binary_search(&node).ok()?;
        Some(self.status_at(i))
    }

    /// (node, status), in node order.
    pub fn iter(&self) -> impl Iterator<Item = (NodeId, PolicyStatus)> + '_ {
        let mut run = 0;
        self.nodes.iter().enumerate().map(move |(i, &n)| {
            while run + 1 < self.runs.len() && self.runs[run + 1].0 as usize <= i {
                run += 1;
            }
            (n, self.runs[run].1)
        })
    }

    pub fn nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.nodes.iter().copied()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// Every policy's overall status, the objects each reaches counted, and the conflicts:
/// what `get` and `check` show, without each policy's status at every node (`Statuses`
/// adds those).
#[derive(Debug, Default)]
pub struct Counts {
    /// Per policy: its computed status over the most specific objects it reaches.
    pub overall: Vec<PolicyStatus>,
    /// Per policy: how many distinct objects it reaches (a section counts as its object).
    affects: Vec<usize>,
    /// Policies that lose to another on a target, sorted by loser.
    pub conflicts: Vec<Conflict>,
}

impl Counts {
    /// `Statuses::compute`, without each policy's status at every node it reaches: on
    /// a large cluster those are tens of megabytes.
    pub fn compute(topology: &Topology) -> Counts {
        computed(topology, false).0
    }

    /// The number of distinct objects a policy reaches (a section counts as its object).
    pub fn affects_count(&self, policy: PolicyId) -> usize {
        self.affects[policy]
    }
}

/// Statuses for every policy in a topology: its `Counts`, and its status at every node
/// it reaches.
#[derive(Debug, Default)]
pub struct Statuses {
    counts: Counts,
    /// Per policy: every node it reaches and its status there.
    per_node: Vec<Reached>,
}

/// The counts are part of the statuses: `statuses.overall` reads them (a field, no
/// work done).
impl std::ops::Deref for Statuses {
    type Target = Counts;
    fn deref(&self) -> &Counts {
        &self.counts
    }
}

impl Statuses {
    /// Every policy's statuses, at every node it reaches included.
    pub(crate) fn compute(topology: &Topology) -> Statuses {
        let (counts, per_node) = computed(topology, true);
        Statuses { counts, per_node }
    }

    /// The overall statuses and counts alone.
    pub(crate) fn counts(&self) -> &Counts {
        &self.counts
    }

    /// Every node policy `p` reaches and its status there.
    pub fn reached(&self, policy: PolicyId) -> &Reached {
        &self.per_node[policy]
    }

    /// Per policy, `reached`.
    pub fn per_node(&self) -> &[Reached] {
        &self.per_node
    }
}

/// The counts, and each policy's status at every node it reaches when `keep`
/// (else none: empty).
fn computed(topology: &Topology, keep: bool) -> (Counts, Vec<Reached>) {
    let np = topology.policies().len();
    // Per policy, its status at every node it reaches, in node order (node numbers
    // as 32 bits: there can be a million of these).
    let mut reached: Vec<Reached> = Vec::new();
    let mut affects = vec![0; np];
    // Objects reached are counted as the nodes go by, when each section's node
    // follows its object's; else they are counted from the nodes kept.
    let ordered = sections_follow_owners(topology);
    let keep_nodes = keep || !ordered;
    if keep_nodes {
        reached = vec![Reached::default(); np];
    }
    let mut leaf_tally = vec![Tally::default(); np];
    let mut conflicts = Vec::new();
    let leaves = leaf_counts(topology);
    let kinds = KindFold::kinds_in_use(topology);
    // Only nodes at or below where a kind's policies enter can hold one of them.
    let reach: Vec<NodeSet> = kinds
        .par_iter()
        .map(|k| {
            NodeSet::of(
                topology.nodes().len(),
                &topology.at_or_below(KindFold::new(topology, k).starts()),
            )
        })
        .collect();
    // Kinds fold independently (a policy has one kind). Joined in the order folded,
    // as one by one.
    let sizes: Vec<usize> = reach.iter().map(|r| r.len).collect();
    let folded = fold_largest_first(&sizes, |k| {
        let f = &mut KindFold::for_statuses(topology, &kinds[k]);
        statuses_of_kind(f, &reach[k], &leaves, keep_nodes)
    });
    for kind in folded {
        for (p, at) in kind.reached {
            affects[p] = objects_reached(topology, &at, ordered);
            reached[p] = at;
        }
        for (p, count) in kind.affects {
            affects[p] = count;
        }
        for (p, tally) in kind.leaf_tally {
            leaf_tally[p].add(tally);
        }
        conflicts.extend(kind.conflicts);
    }
    // A policy that loses to another on a target would have reached everything below
    // it: whatever the most specific objects show, it is Conflicted there.
    for c in &conflicts {
        leaf_tally[c.loser].add(CONFLICTED);
    }
    let overall = leaf_tally
        .iter()
        .enumerate()
        .map(|(p, leaf)| overall_status(topology, PolicyId::at(p), *leaf))
        .collect();
    conflicts.sort();
    let counts = Counts {
        overall,
        affects,
        conflicts,
    };
    (counts, if keep { reached } else { Vec::new() })
}

/// `fold(k)` for every kind `k` (`sizes[k]`: how many nodes it folds over), one per
/// core at a time, the largest first, so that no core is left with a large one at the
/// end (each core takes the oldest task of a FIFO scope); in that order.
pub(super) fn fold_largest_first<T: Send>(
    sizes: &[usize],
    fold: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(sizes[k]));
    let folded = std::sync::Mutex::new(Vec::with_capacity(sizes.len()));
    let (folded_ref, fold) = (&folded, &fold);
    rayon::scope_fifo(|s| {
        for (turn, &k) in order.iter().enumerate() {
            s.spawn_fifo(move |_| {
                let out = fold(k);
                let mut folded = folded_ref.lock().unwrap_or_else(|e| e.into_inner());
                folded.push((turn, out));
            });
        }
    });
    let mut folded = folded.into_inner().unwrap_or_else(|e| e.into_inner());
    folded.sort_unstable_by_key(|&(turn, _)| turn);
    folded.into_iter().map(|(_, out)| out).collect()
}

/// Whether every section's node comes right after its object's node or another
/// section of it (as the topology makes them): then, in node order, the objects of
/// the nodes a policy reaches come in order too, and counting them takes no list.
pub(super) fn sections_follow_owners(topology: &Topology) -> bool {
    let mut object = None;
    NodeId::all(topology.nodes().len()).all(|n| match topology.skeleton().owner(n) {
        None => {
            object = Some(n);
            true
        }
        Some(o) => object == Some(o),
    })
}

/// How many distinct objects the nodes `at` holds are or belong to: counted as they go
/// by when they come in order (`sections_follow_owners`), else sorted.
fn objects_reached(topology: &Topology, at: &Reached, ordered: bool) -> usize {
    let objects = at.nodes().map(|n| topology.skeleton().object(n));
    if ordered {
        let mut last = None;
        objects.filter(|&o| last.replace(o) != Some(o)).count()
    } else {
        let mut all: Vec<NodeId> = objects.collect();
        all.sort_unstable();
        all.dedup();
        all.len()
    }
}

/// Nodes of a topology, a bit each: where a kind may reach, held for every kind at
/// once while the kinds are folded (a list of node numbers would take 32 times more).
struct NodeSet {
    words: Vec<u64>,
    /// How many nodes are in.
    len: usize,
}

impl NodeSet {
    /// `nodes` (each once) among `all` nodes.
    fn of(all: usize, nodes: &[NodeId]) -> NodeSet {
        let mut words = vec![0u64; all.div_ceil(64)];
        for n in nodes {
            words[n.index() / 64] |= 1 << (n.index() % 64);
        }
        NodeSet {
            words,
            len: nodes.len(),
        }
    }

    /// The nodes in, in node order.
    fn iter(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    NodeId::at(i * 64 + bit)
                })
            })
        })
    }
}

/// What folding one kind tells of its policies.
struct KindStatuses {
    /// Per policy of the kind that reaches anything: its status at every node it
    /// reaches, in node order.
    reached: Vec<(PolicyId, Reached)>,
    /// Per policy of the kind, when its nodes are not kept: how many objects it reaches.
    affects: Vec<(PolicyId, usize)>,
    /// Per policy: its tally over the most specific nodes it reaches.
    leaf_tally: Vec<(PolicyId, Tally)>,
    conflicts: Vec<Conflict>,
}

/// Folds one kind over the nodes it may reach. Each policy's status at every node is
/// kept if `keep_nodes`; else only how many objects it reaches (see
/// `sections_follow_owners`).
fn statuses_of_kind(
    fold: &mut KindFold<NoPaths>,
    reach: &NodeSet,
    leaves: &[usize],
    keep_nodes: bool,
) -> KindStatuses {
    let config = fold.config();
    let (t, class, flow) = (config.topology, config.rules.class, config.rules.flow);
    let kind = config.kind.clone();
    let np = t.policies().len();
    let mut reached: Vec<Reached> = Vec::new();
    // Per policy: the last object reached and how many so far.
    let mut objects: Vec<(Option<NodeId>, usize)> = Vec::new();
    if keep_nodes {
        reached = vec![Reached::default(); np];
    } else {
        objects = vec![(None, 0); np];
    }
    let mut leaf_tally = vec![Tally::default(); np];
    let mut tallies = Tallies::new(fold.config(), leaves);
    let mut here = Vec::new();
    for n in reach.iter() {
        tallies.at(fold, n, &mut here);
        let leaf = is_leaf(t, n, class, flow);
        let object = t.skeleton().object(n);
        for &(p, tally) in &here {
            if keep_nodes {
                reached[p].push(n, tally.status());
            } else if objects[p].0 != Some(object) {
                objects[p] = (Some(object), objects[p].1 + 1);
            }
            if leaf {
                leaf_tally[p].add(tally);
            }
        }
    }
    let of_kind = |p: &PolicyId| t.policy(*p).kind == kind;
    let mine = || PolicyId::all(np).filter(of_kind);
    KindStatuses {
        reached: match keep_nodes {
            true => mine()
                .map(|p| {
                    let mut at = std::mem::take(&mut reached[p]);
                    at.shrink_to_fit();
                    (p, at)
                })
                .collect(),
            false => Vec::new(),
        },
        affects: match keep_nodes {
            true => Vec::new(),
            false => mine().map(|p| (p, objects[p].1)).collect(),
        },
        leaf_tally: mine().map(|p| (p, leaf_tally[p])).collect(),
        conflicts: fold.take_conflicts(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PolicyStatus::*;

    #[test]
    fn a_node_set_gives_back_its_nodes_in_order() {
        for all in [0, 1, 63, 64, 65, 200] {
            let nodes: Vec<NodeId> = NodeId::all(all).filter(|n| n.index() % 3 != 1).collect();
            let set = NodeSet::of(all, &nodes);
            assert_eq!(set.len, nodes.len());
            assert_eq!(set.iter().collect::<Vec<_>>(), nodes, "of {all}");
        }
        let ends = [
            NodeId::at(0),
            NodeId::at(63),
            NodeId::at(64),
            NodeId::at(127),
        ];
        assert_eq!(NodeSet::of(128, &ends).iter().collect::<Vec<_>>(), ends);
    }

    #[test]
    fn reached_keeps_each_nodes_status_through_its_runs() {
        let at: Vec<(NodeId, PolicyStatus)> = [
            (2, Enforced),
            (3, Enforced),
            (5, Overridden),
            (8, Enforced),
            (9, Conflicted),
            (10, Conflicted),
        ]
        .into_iter()
        .map(|(n, s)| (NodeId(n), s))
        .collect();
        let mut r = Reached::default();
        for &(n, s) in &at {
            r.push(n, s);
        }
        assert_eq!(r.runs.len(), 4, "equal neighbours share a run");
        assert_eq!(r.iter().collect::<Vec<_>>(), at);
        for &(n, s) in &at {
            assert_eq!(r.get(n), Some(s));
        }
        assert_eq!(r.get(NodeId(4)), None);
        assert_eq!(r.get(NodeId(11)), None);
        assert_eq!(r.len(), 6);
        assert!(Reached::default().iter().next().is_none());
    }
}

//! Computed status (GEP-713 §"Policy status"): per policy over every context it
//! takes part in, and per (policy, object).

use super::combine::StateKey;
use super::{Acc, FoldConfig, KindFold, NoPaths};
use crate::catalog::{Class, Flow};
use crate::model::{FastMap, FastSet, GroupKind};
use crate::topology::{Code, Conflict, NodeId, PolicyId, Resolution, Topology};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::rc::Rc;

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
pub struct Tally {
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

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
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
    pub fn compute(topology: &Topology) -> Statuses {
        let (counts, per_node) = computed(topology, true);
        Statuses { counts, per_node }
    }

    /// The overall statuses and counts alone.
    pub fn counts(&self) -> &Counts {
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
    let np = topology.policies.len();
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
                topology.nodes.len(),
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

/// A policy's computed status from its tally over the most specific objects it reaches
/// (conflicts lost included) and how its targets resolved.
fn overall_status(topology: &Topology, policy: PolicyId, leaf: Tally) -> PolicyStatus {
    Own::of(topology, policy).status(leaf)
}

/// What a policy's overall status takes from the policy itself and how its targets
/// resolved, whatever it reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Own {
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
    pub fn status_of(self, c: &Contribution) -> PolicyStatus {
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
    pub fn of(topology: &Topology, policy: PolicyId) -> Own {
        let attached = topology.targets[policy].iter().any(|r| match r.resolution {
            Resolution::Node(_) | Resolution::Namespace(_) => true,
            Resolution::NotFound(_) => false,
        });
        let unresolved = |code| {
            topology.targets[policy]
                .iter()
                .any(|r| r.resolution == Resolution::NotFound(code))
        };
        Own::Unattached(if attached {
            // Refused by its controller on a target that exists: Invalid.
            return Own::Attached {
                rejected: topology.policies[policy].rejected.is_some(),
                conflicted_on_some: unresolved(Code::Conflicted),
                invalid_on_some: unresolved(Code::Invalid),
            };
        } else if topology.policies[policy].workload_selector.is_some() {
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
        } else if !topology.policies[policy].invalid.is_empty() || unresolved(Code::TargetIsPolicy)
        {
            PolicyStatus::Invalid
        } else {
            // A selector that matched nothing: attached to nothing, so nothing to enforce.
            PolicyStatus::TargetNotFound
        })
    }
}

/// What the nodes of one part of a topology add to a policy's overall status and reach:
/// its tally over the most specific nodes there (and the conflicts it loses there), and
/// the objects it reaches there. Sums of parts are the whole (`get -w` answers a change
/// by counting again only the parts it can touch).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Contribution {
    tally: Tally,
    pub objects: u32,
}

impl PartialEq for Tally {
    fn eq(&self, o: &Tally) -> bool {
        (self.full, self.partial, self.none, self.conflicted)
            == (o.full, o.partial, o.none, o.conflicted)
    }
}
impl Eq for Tally {}

impl Contribution {
    pub fn add(&mut self, o: &Contribution) {
        self.tally.add(o.tally);
        self.objects += o.objects;
    }

    pub fn is_empty(&self) -> bool {
        *self == Contribution::default()
    }

    /// `self` less `o` (which it holds).
    pub fn subtract(&mut self, o: &Contribution) {
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
pub fn contributions(t: &Topology, part_of: &[Option<u32>]) -> Vec<Vec<(u32, Contribution)>> {
    let np = t.policies.len();
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

/// `fold(k)` for every kind `k` (`sizes[k]`: how many nodes it folds over), one per
/// core at a time, the largest first, so that no core is left with a large one at the
/// end (each core takes the oldest task of a FIFO scope); in that order.
fn fold_largest_first<T: Send>(sizes: &[usize], fold: impl Fn(usize) -> T + Sync) -> Vec<T> {
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
    let np = t.policies.len();
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
        let leaf = is_leaf(t, n, f.config().class, f.config().flow);
        let object = t.skeleton.object(n);
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
pub fn leaf_contributions_at(topology: &Topology, node: NodeId) -> Vec<(PolicyId, Contribution)> {
    let leaves = leaf_counts(topology);
    let mut out = Vec::new();
    let mut here = Vec::new();
    for kind in KindFold::kinds_in_use(topology) {
        let f = &mut KindFold::for_statuses(topology, &kind);
        if f.config().class != Class::Inherited {
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

/// Whether every section's node comes right after its object's node or another
/// section of it (as the topology makes them): then, in node order, the objects of
/// the nodes a policy reaches come in order too, and counting them takes no list.
fn sections_follow_owners(topology: &Topology) -> bool {
    let mut object = None;
    NodeId::all(topology.nodes.len()).all(|n| match topology.skeleton.owner(n) {
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
    let objects = at.nodes().map(|n| topology.skeleton.object(n));
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
    let (t, class, flow) = (config.topology, config.class, config.flow);
    let kind = config.kind.clone();
    let np = t.policies.len();
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
        let object = t.skeleton.object(n);
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
    let of_kind = |p: &PolicyId| t.policies[*p].kind == kind;
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

/// How much of each policy of one kind survives at a node, over all the node's
/// contexts, with the Direct conflicts it loses there. Nodes below an attachment
/// point share their parent's result object, so each result is measured once (and
/// kept alive here, so its address stays its identity).
struct Tallies<'a> {
    leaves: &'a [usize],
    /// Each result measured, kept with it so that its key stays its identity.
    measured: FastMap<StateKey, (Rc<Acc>, Survived)>,
    /// Per node, the policies that lose a Direct conflict there.
    conflicted: FastMap<NodeId, Vec<PolicyId>>,
    /// The one state the last node asked about had, if it had one and no conflict:
    /// the answer for it is still in `out` (a node mostly has its parent's state).
    last: Option<StateKey>,
}

/// Per policy folded into a result, how much of it survived there.
type Survived = Vec<(PolicyId, Tally)>;

impl<'a> Tallies<'a> {
    fn new(config: &FoldConfig, leaves: &'a [usize]) -> Self {
        let mut conflicted: FastMap<NodeId, Vec<PolicyId>> = FastMap::default();
        for c in &config.conflicts {
            for m in conflict_nodes(config.topology, c.at) {
                conflicted.entry(m).or_default().push(c.loser);
            }
        }
        Tallies {
            leaves,
            measured: FastMap::default(),
            conflicted,
            last: None,
        }
    }

    /// Into `out`: (policy, tally) for every policy at `n`, one entry per policy.
    /// `out` is what the last call left there: it is kept as it is when `n` has the
    /// same single state as the node before.
    fn at(&mut self, fold: &mut KindFold<NoPaths>, node: NodeId, out: &mut Vec<(PolicyId, Tally)>) {
        let ctxs = fold.contexts(node);
        let single = match ctxs {
            [c] if !self.conflicted.contains_key(&node) => c.acc.as_ref().map(StateKey::of),
            _ => None,
        };
        if single.is_some() && single == self.last {
            return;
        }
        self.last = single;
        out.clear();
        for c in ctxs {
            let Some(acc) = &c.acc else { continue };
            let leaves = self.leaves;
            let (_, survived) = self
                .measured
                .entry(StateKey::of(acc))
                .or_insert_with(|| (acc.clone(), measure(acc, leaves)));
            out.extend(survived.iter().copied());
        }
        let losers = self.conflicted.get(&node).into_iter().flatten();
        out.extend(losers.map(|&p| (p, CONFLICTED)));
        out.sort_by_key(|&(p, _)| p);
        out.dedup_by(|(p, tally), (q, sum)| {
            let same = p == q;
            if same {
                sum.add(*tally);
            }
            same
        });
    }
}

/// How many settings each policy sets.
fn leaf_counts(topology: &Topology) -> Vec<usize> {
    let spec = |p: &crate::catalog::policy::Policy| &topology.snapshot.objects[p.object].spec;
    // Every policy's spec is walked: on every core.
    topology
        .policies
        .par_iter()
        .with_min_len(1024)
        .map(|p| p.intent.leaf_count(spec(p)))
        .collect()
}

/// A conflict on node `n` makes the loser Conflicted on `n` and on its sections.
fn conflict_nodes(topology: &Topology, node: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    let sections = topology
        .skeleton
        .children(node)
        .iter()
        .copied()
        .filter(move |&c| topology.skeleton.owner(c) == Some(node));
    std::iter::once(node).chain(sections)
}

fn measure(acc: &Acc, leaves: &[usize]) -> Survived {
    let mut kept_of = FastMap::default();
    acc.result().count_by_source(&mut kept_of);
    acc.applied
        .iter()
        .map(|&p| {
            let kept = kept_of.get(&p).copied().unwrap_or(0);
            let one = match () {
                // Replaced whole by a more specific policy (Envoy Gateway): Overridden
                // here, even if it sets nothing.
                _ if acc.replaced_by(p).is_some() => Tally {
                    none: 1,
                    ..Tally::default()
                },
                _ if kept >= acc.expected(p, leaves[p]) => Tally {
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
            (p, one)
        })
        .collect()
}

/// The most specific objects a policy of this class reaches: DAG leaves for
/// inherited kinds (for a kind that configures the client side only, also the last
/// nodes before the backends); for Direct kinds, a target's sections or the target
/// itself.
fn is_leaf(topology: &Topology, node: NodeId, class: Class, flow: Flow) -> bool {
    let children = topology.skeleton.children(node);
    let backend = |m: NodeId| topology.skeleton.role(m).is_backend_side();
    match (class, flow) {
        (Class::Inherited, Flow::Down) => children.is_empty(),
        (Class::Inherited, Flow::ClientSide { .. }) => {
            children.is_empty() || (!backend(node) && children.iter().all(|&c| backend(c)))
        }
        (Class::Direct, _) => !children
            .iter()
            .any(|&c| topology.skeleton.owner(c) == Some(node)),
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

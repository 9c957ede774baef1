//! Effective policies (GEP-713 §"Abstract process"): per policy kind, per context
//! path, the stack of policies folded from the least specific end. Pure functions.
//!
//! The fold is top-down: a node's contexts are its parents' contexts plus the
//! policies attached at this node (and at its namespace level, the first time a
//! path enters that namespace). Each node's contexts are computed once and shared by
//! every child, so no path is ever re-walked from the root.

pub mod combine;
mod joining;
mod merge;
mod same_target;
pub mod sourced;
pub mod status;

pub use combine::Acc;
pub use joining::{Joining, Layer};
pub use status::{Counts, PolicyStatus, Reached, Statuses, StatusesAt};

use crate::catalog::{Class, Flow, MergeModel, SameTarget};
use crate::model::FastMap;
use crate::model::{GroupKind, ObjRef};
use crate::topology::{
    Conflict, LevelId, NodeId, PolicyId, PortTraffic, Resolution, Role, Topology,
};
use serde_json::Value;
use smallvec::SmallVec;
use std::marker::PhantomData;
use std::rc::Rc;

/// Policies that apply together at one place (most often one), held inline: looking
/// one up allocates nothing.
type Group = SmallVec<[PolicyId; 2]>;

/// One step of a context path: a node, or the namespace level a path enters just
/// above that node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum PathStep {
    Namespace(NodeId),
    Node(NodeId),
}

impl PathStep {
    /// The reference a path shows for this step.
    pub fn obj_ref(self, topology: &Topology) -> ObjRef {
        match self {
            PathStep::Namespace(n) => ObjRef::new(
                "",
                "Namespace",
                None,
                topology.namespace_level(n).unwrap_or_default(),
            ),
            PathStep::Node(n) => topology.node(n).obj_ref.clone(),
        }
    }

    /// A path of steps as the references it shows.
    pub(crate) fn refs(topology: &Topology, path: &[PathStep]) -> Vec<ObjRef> {
        path.iter().map(|s| s.obj_ref(topology)).collect()
    }
}

/// A set of namespaces whose level a path has already passed (each is applied once,
/// at its highest position), as an index into `SeenSets`.
type SeenId = u32;

/// The sets of namespaces paths have passed, each stored once. Set 0 is the empty
/// set; a set is only ever made by adding one namespace to another, so two paths
/// that passed the same namespaces in the same order share one id.
#[derive(Clone, Debug)]
struct SeenSets {
    sets: Vec<Vec<LevelId>>,
    entered: FastMap<(SeenId, LevelId), SeenId>,
}

impl SeenSets {
    fn new() -> Self {
        SeenSets {
            sets: vec![Vec::new()],
            entered: FastMap::default(),
        }
    }

    fn contains(&self, s: SeenId, ns: LevelId) -> bool {
        self.sets[s as usize].contains(&ns)
    }

    /// The set `s` plus `ns`.
    fn enter(&mut self, s: SeenId, ns: LevelId) -> SeenId {
        if let Some(&id) = self.entered.get(&(s, ns)) {
            return id;
        }
        let mut set = self.sets[s as usize].clone();
        set.push(ns);
        let id = self.sets.len() as SeenId;
        self.sets.push(set);
        self.entered.insert((s, ns), id);
        id
    }
}

/// A node whose contexts are not computed yet, in `KindFold::memo` (no range of
/// contexts ends before it starts).
const NOT_YET: (u32, u32) = (u32::MAX, 0);

/// A state, the entries pushed onto it, and the resulting state.
type Pushed = (Option<Rc<Acc>>, Vec<Rc<Joining>>, Rc<Acc>);

/// Entries pushed at once, by address (most often one or two, held inline).
type Entries = SmallVec<[usize; 2]>;

/// One context of a node: the folded result of one or more root→node paths.
///
/// Two words: a large topology has a million of these.
#[derive(Clone, Debug)]
pub struct Ctx {
    pub acc: Option<Rc<Acc>>,
    /// The namespaces passed (`SeenId`), and in the top bit whether this node's
    /// namespace level is on the path here (the path enters the namespace at this node).
    seen_entered: u32,
    /// Where the links to the parent contexts this one continues start in
    /// `KindFold::links`. Contexts and their links are appended in step, so they end
    /// where the next context's start (the last context's, at the end of the links).
    preds_from: u32,
}

/// The bit of `Ctx::seen_entered` that says the namespace level is entered here.
const ENTERED: u32 = 1 << 31;

impl Ctx {
    fn seen(&self) -> SeenId {
        self.seen_entered & !ENTERED
    }

    /// This node's namespace level is on the path here.
    pub fn entered_ns(&self) -> bool {
        self.seen_entered & ENTERED != 0
    }
}

/// Which links a fold keeps, as its type says: `WithPaths` (every context's, read by
/// `KindFold::paths`) or `NoPaths` (a backend's alone: statuses and counts).
pub trait Paths {
    /// Every context's links are kept.
    const KEPT: bool;
}

/// A fold whose contexts' paths can be read (`KindFold::new`).
pub struct WithPaths;

/// A fold for statuses and counts, which reads no paths (`KindFold::for_statuses`).
pub struct NoPaths;

impl Paths for WithPaths {
    const KEPT: bool = true;
}

impl Paths for NoPaths {
    const KEPT: bool = false;
}

/// The fold for one policy kind over the whole topology, computed on demand.
///
/// Every node's contexts are stored one node after another in one list (`ctxs`,
/// `memo` says where each node's are), and the links from a context to the parent
/// contexts it continues likewise (`links`): a topology of a hundred thousand nodes
/// makes a few large allocations, not a few small ones per node.
pub struct KindFold<'t, P: Paths = WithPaths> {
    pub topology: &'t Topology,
    pub kind: GroupKind,
    pub class: Class,
    /// How far down the kind's settings flow.
    pub flow: Flow,
    pub model: MergeModel,
    /// How several of this kind on one target combine.
    pub same_target: SameTarget,
    /// The policies of this kind attached to each node they attach to, in the groups
    /// that enter the fold together (`SameTarget`), oldest first; in node order.
    node_policies: Vec<(NodeId, Vec<Vec<PolicyId>>)>,
    /// Per node, 1 + where in `node_policies` its policies are, or 0 if it has none: a
    /// number per node read in node order, where a map of a large cluster's routes
    /// would be read at random.
    at_node: Vec<u32>,
    /// Likewise per namespace level (`LevelId`), for policies that target a Namespace:
    /// empty if none does.
    ns_policies: Vec<Vec<Vec<PolicyId>>>,
    /// Whether a policy enters the fold differently from one place to another (its
    /// merge model's `enters_by_place`, or a spec that lists settings per port): then
    /// its entries are kept per place.
    entries_by_place: bool,
    entries: FastMap<(Group, Option<NodeId>), Rc<Joining>>,
    pushed: FastMap<(usize, Entries), Pushed>,
    /// States narrowed past the client side (`only`), by the address of the state.
    narrowed: FastMap<usize, (Rc<Acc>, Option<Rc<Acc>>)>,
    ctxs: Vec<Ctx>,
    /// Per node, its range of `ctxs` once computed, else `NOT_YET` (allocated on first use).
    memo: Vec<(u32, u32)>,
    /// Per node, whether `compute` is walking above it now (allocated with `memo`).
    walking: Vec<bool>,
    /// The walk's stack, kept between calls (one is made per node asked for).
    walk: Vec<NodeId>,
    /// (parent node, index among the parent's contexts), as 32-bit numbers: a large
    /// topology has hundreds of thousands.
    links: Vec<(NodeId, u32)>,
    /// Whether every context's links are kept (`WithPaths`: `paths` reads them); else
    /// (`NoPaths`) only those of the contexts of backends, which the check of their
    /// ports reads (`KindFold::for_statuses`).
    paths: PhantomData<P>,
    seen: SeenSets,
    /// Per node being folded: each distinct arriving (state, seen) and the context
    /// it went to; and (context, parent link) pairs. Kept to reuse their memory.
    arrived: Vec<(Option<*const Acc>, SeenId, u32)>,
    arrival_links: Vec<(u32, (NodeId, u32))>,
    /// Direct policies that lost to an older one on the same target: (loser, winner, node).
    pub conflicts: Vec<Conflict>,
}

/// The policies `mine` on listener `n` (oldest first) as the groups that enter the
/// fold, for a kind whose port is a level of its own (`Sections::
/// port_ranks_below_sections`): those that reach `n` by its port only, then those that
/// name it, each tier grouped by `rule`. The tiers enter as two levels, the port's
/// the less specific, so the kind's merge model decides between them as between a
/// Gateway and a listener.
fn port_then_named(
    t: &Topology,
    n: NodeId,
    mine: &[PolicyId],
    rule: SameTarget,
) -> same_target::Outcome {
    let by_port = |&p: &PolicyId| {
        let policy = t.policy(p);
        let mut here = t
            .targets_of(p)
            .iter()
            .filter(|r| r.resolution == Resolution::Node(n))
            .peekable();
        here.peek().is_some() && here.all(|r| policy.by_port().contains(&r.target))
    };
    let (port, named): (Vec<PolicyId>, Vec<PolicyId>) = mine.iter().partition(|p| by_port(p));
    let (mut groups, mut lost) = same_target::groups(t, &port, rule);
    let (named_groups, named_lost) = same_target::groups(t, &named, rule);
    groups.extend(named_groups);
    lost.extend(named_lost);
    (groups, lost)
}

impl<'t> KindFold<'t> {
    pub fn new(topology: &'t Topology, kind: &GroupKind) -> KindFold<'t> {
        Self::with(topology, kind, None)
    }

    /// The fold as it would be if policy `removed` did not exist. Only nodes at or below
    /// where `removed` attaches can differ (`below[n]`); every other node's contexts are
    /// shared with `self`, not recomputed.
    pub fn without(&self, removed: PolicyId, below: &[bool]) -> KindFold<'t> {
        let mut f = Self::with(self.topology, &self.kind, Some(removed));
        f.ctxs = self.ctxs.clone();
        f.links = self.links.clone();
        f.seen = self.seen.clone();
        f.memo = self.memo.clone();
        f.walking = vec![false; f.memo.len()];
        for (m, &below) in f.memo.iter_mut().zip(below) {
            if below {
                *m = NOT_YET;
            }
        }
        f
    }

    /// Policy kinds that have at least one policy in the topology.
    pub(crate) fn kinds_in_use(topology: &Topology) -> Vec<GroupKind> {
        // A few kinds among tens of thousands of policies: each is looked for among
        // those found so far, not every policy's kind sorted.
        let mut kinds: Vec<GroupKind> = Vec::new();
        for p in topology.policies() {
            if !kinds.contains(&p.kind) {
                kinds.push(p.kind.clone());
            }
        }
        kinds.sort();
        kinds
    }
}

impl<'t> KindFold<'t, NoPaths> {
    /// `new`, for the folds that ask only for contexts and their states (statuses,
    /// counts): no `paths` (a `KindFold<NoPaths>` has none). The links from a context
    /// to its parents' are kept only where the port check reads them (a backend's, for
    /// its ports): on a large cluster the rest are megabytes per kind, and kinds fold
    /// two at a time.
    pub fn for_statuses(topology: &'t Topology, kind: &GroupKind) -> KindFold<'t, NoPaths> {
        Self::with(topology, kind, None)
    }
}

impl<'t, P: Paths> KindFold<'t, P> {
    fn with(
        topology: &'t Topology,
        kind: &GroupKind,
        removed: Option<PolicyId>,
    ) -> KindFold<'t, P> {
        let pk = topology.catalog().kind_of(kind);
        let (class, flow, model, same_target) = (
            pk.entry.class,
            pk.entry.flow,
            pk.entry.merge,
            pk.entry.same_target,
        );
        let port_level = pk.entry.sections.port_ranks_below_sections();
        let of_kind = |p: PolicyId| &topology.policy(p).kind == kind && Some(p) != removed;
        // The nodes policies of this kind attach to, in node order.
        let mut nodes: Vec<NodeId> = PolicyId::all(topology.policies().len())
            .filter(|&p| of_kind(p))
            .flat_map(|p| topology.targets_of(p))
            .filter_map(|r| match r.resolution {
                Resolution::Node(n) => Some(n),
                Resolution::Namespace(_) | Resolution::NotFound(_) => None,
            })
            .collect();
        nodes.sort_unstable();
        nodes.dedup();
        let mut node_policies = Vec::with_capacity(nodes.len());
        let mut at_node = vec![
            0;
            if nodes.is_empty() {
                0
            } else {
                topology.nodes().len()
            }
        ];
        let mut conflicts = Vec::new();
        for n in nodes {
            let mine: Vec<PolicyId> = topology
                .attached_to(n)
                .iter()
                .copied()
                .filter(|&p| of_kind(p))
                .collect();
            let (groups, lost) = match port_level {
                false => same_target::groups(topology, &mine, same_target),
                true => port_then_named(topology, n, &mine, same_target),
            };
            conflicts.extend(lost.into_iter().map(|(loser, winner)| Conflict {
                loser,
                winner,
                at: n,
            }));
            node_policies.push((n, groups));
            at_node[n] = node_policies.len() as u32;
        }
        let mut ns_policies = Vec::new();
        if class == Class::Inherited {
            for (ns, ps) in topology.namespace_attachments() {
                let mine: Vec<PolicyId> = ps.iter().copied().filter(|&p| of_kind(p)).collect();
                // A namespace no node is in has no level to apply at.
                let Some(level) = topology.skeleton().level_of(ns) else {
                    continue;
                };
                if !mine.is_empty() {
                    ns_policies.resize(topology.skeleton().levels(), Vec::new());
                    // A namespace level is no object to be Conflicted on: its policies stack.
                    ns_policies[level as usize] = mine.into_iter().map(|p| vec![p]).collect();
                }
            }
        }
        KindFold {
            topology,
            kind: kind.clone(),
            class,
            flow,
            model,
            same_target,
            node_policies,
            at_node,
            ns_policies,
            entries_by_place: merge::enters_by_place(model)
                || !pk.entry.sections.spec_port_lists().is_empty()
                || pk.entry.shadowed_by.is_some(),
            entries: FastMap::default(),
            pushed: FastMap::default(),
            narrowed: FastMap::default(),
            ctxs: Vec::new(),
            memo: Vec::new(),
            walking: Vec::new(),
            walk: Vec::new(),
            links: Vec::new(),
            paths: PhantomData,
            seen: SeenSets::new(),
            arrived: Vec::new(),
            arrival_links: Vec::new(),
            conflicts,
        }
    }

    /// Where policies of this kind enter the fold: the nodes they attach to, and for
    /// a Namespace-level one every object of that namespace. What they may reach is at
    /// or below these.
    pub fn starts(&self) -> Vec<NodeId> {
        let t = self.topology;
        let namespaces = if self.ns_policies.is_empty() {
            0
        } else {
            t.nodes().len()
        };
        let in_policy_namespace =
            NodeId::all(namespaces).filter(|&n| !self.ns_policies_at(n).is_empty());
        let mut starts: Vec<NodeId> = self.node_policies.iter().map(|&(n, _)| n).collect();
        starts.extend(in_policy_namespace);
        starts
    }

    /// The groups of policies of this kind attached to node `n`.
    fn node_policies_at(&self, node: NodeId) -> &[Vec<PolicyId>] {
        match self.at_node.get(node.index()) {
            Some(&i) if i > 0 => &self.node_policies[i as usize - 1].1,
            _ => &[],
        }
    }

    /// The groups of Namespace-targeting policies of this kind at node `n`'s namespace
    /// level, if it has one.
    fn ns_policies_at(&self, node: NodeId) -> &[Vec<PolicyId>] {
        self.topology
            .skeleton()
            .level(node)
            .map_or(&[], |l| self.ns_policies_of(l))
    }

    /// The groups of Namespace-targeting policies of this kind at namespace level `l`.
    fn ns_policies_of(&self, l: LevelId) -> &[Vec<PolicyId>] {
        self.ns_policies.get(l as usize).map_or(&[], Vec::as_slice)
    }

    /// The policies `ps` (one, or several merged on one target) as they enter the fold
    /// at `at`. Only kgateway's merge depends on where (the annotation on the parent
    /// object), and a spec that lists settings per port (each port its own entries);
    /// any other entry is the same everywhere.
    fn entry(&mut self, ps: Group, at: NodeId) -> Rc<Joining> {
        let key = (ps, self.entries_by_place.then_some(at));
        if let Some(e) = self.entries.get(&key) {
            return e.clone();
        }
        let ps = &key.0;
        let e = match ps[..] {
            [p] => Joining::new(self.topology, p, at, self.model),
            _ => {
                let each: Vec<Joining> = ps
                    .iter()
                    .map(|&p| Joining::new(self.topology, p, at, self.model))
                    .collect();
                same_target::merged(self.same_target, &each, self.model.rule_paths())
            }
        };
        let e = Rc::new(e);
        self.entries.insert(key, e.clone());
        e
    }

    /// `combine::push`, once per (state, entries): nodes that share a parent's state
    /// and the same entries share the result too (a namespace's policy meets the same
    /// Gateway state at every route of the namespace).
    fn push(&mut self, acc: Option<Rc<Acc>>, es: &[Rc<Joining>]) -> Rc<Acc> {
        let key = (
            acc.as_ref().map_or(0, |a| Rc::as_ptr(a) as usize),
            es.iter()
                .map(|e| Rc::as_ptr(e) as usize)
                .collect::<Entries>(),
        );
        if let Some((.., pushed)) = self.pushed.get(&key) {
            return pushed.clone();
        }
        let pushed = combine::push(acc.as_deref(), es, self.model, &self.kind);
        // The inputs are kept with the result, so their addresses stay their identity.
        self.pushed.insert(key, (acc, es.to_vec(), pushed.clone()));
        pushed
    }

    /// Whether context `c` of backend `backend` comes, on some path, through a
    /// backendRef that names port section `port` (or no port): a root backend, or
    /// one of its parent contexts is such a path.
    fn traffic_reaches(&self, c: usize, backend: NodeId, port: NodeId) -> bool {
        let mut preds = self.preds(c).peekable();
        preds.peek().is_none() || preds.any(|(q, _)| self.topology.reaches_port(q, backend, port))
    }

    /// The state made of the policies attached to `n` alone (none: it has none).
    fn own_policies(&mut self, node: NodeId) -> Option<Rc<Acc>> {
        let count = self.node_policies_at(node).len();
        if count == 0 {
            return None;
        }
        let mut es: SmallVec<[Rc<Joining>; 2]> = SmallVec::new();
        for k in 0..count {
            let group = Group::from_slice(&self.node_policies_at(node)[k]);
            es.push(self.entry(group, node));
        }
        Some(self.push(None, &es))
    }

    /// `acc` with only the fields `keep` (`Acc::only`), once per state: contexts that
    /// share a state share the narrowed one.
    fn only(&mut self, acc: Rc<Acc>, keep: &[&str]) -> Option<Rc<Acc>> {
        let key = Rc::as_ptr(&acc) as usize;
        if let Some((_, narrowed)) = self.narrowed.get(&key) {
            return narrowed.clone();
        }
        let narrowed = acc.only(keep);
        // The input is kept with the result, so its address stays its identity.
        self.narrowed.insert(key, (acc, narrowed.clone()));
        narrowed
    }

    /// The contexts of node `n`: every root→n path, grouped where they fold alike.
    pub fn contexts(&mut self, node: NodeId) -> &[Ctx] {
        let (a, b) = self.compute(node);
        &self.ctxs[a as usize..b as usize]
    }

    /// The parent contexts context `c` (an index into `ctxs`) continues: (parent
    /// node, index among its contexts).
    fn preds(&self, c: usize) -> impl Iterator<Item = (NodeId, usize)> + '_ {
        let from = self.ctxs[c].preds_from as usize;
        let to = self
            .ctxs
            .get(c + 1)
            .map_or(self.links.len(), |next| next.preds_from as usize);
        self.links[from..to].iter().map(|&(p, j)| (p, j as usize))
    }

    /// Computes the contexts of `n` (and, first, of everything above it). A walk up
    /// with a stack of its own, not recursion: a chain of references may be as long
    /// as the input. A parent still being walked (there is none in a DAG, as the
    /// topology makes it) is passed over, so even a cycle ends.
    fn compute(&mut self, node: NodeId) -> (u32, u32) {
        if self.memo.is_empty() {
            self.memo = vec![NOT_YET; self.topology.nodes().len()];
            self.walking = vec![false; self.topology.nodes().len()];
        }
        if self.memo[node] != NOT_YET {
            return self.memo[node];
        }
        let t = self.topology;
        let skeleton = t.skeleton();
        let mut stack = std::mem::take(&mut self.walk);
        stack.clear();
        stack.push(node);
        while let Some(&m) = stack.last() {
            if self.memo[m] != NOT_YET {
                stack.pop();
            } else if self.walking[m] {
                // Its parents are done (or being walked): its turn.
                stack.pop();
                self.compute_here(m);
                self.walking[m] = false;
            } else {
                self.walking[m] = true;
                let parents = skeleton.parents(m).iter().copied();
                stack.extend(parents.filter(|&p| self.memo[p] == NOT_YET && !self.walking[p]));
            }
        }
        self.walk = stack;
        self.memo[node]
    }

    /// Computes the contexts of `n`, those of its parents being computed.
    fn compute_here(&mut self, node: NodeId) -> (u32, u32) {
        let topology = self.topology;
        let skeleton = topology.skeleton();
        let parents = skeleton.parents(node);
        let start = self.ctxs.len();
        let mut arrived = std::mem::take(&mut self.arrived);
        let mut links = std::mem::take(&mut self.arrival_links);
        arrived.clear();
        links.clear();
        if parents.is_empty() {
            self.arrive(node, None, 0, None, start, &mut arrived, &mut links);
        }
        // An Inherited kind's settings go only as far down as its vendor configures
        // them (`Flow`): into a backend from a rule, past the client side, only some.
        let into_backend = match (self.class, self.flow) {
            (Class::Direct, _) | (Class::Inherited, Flow::Down) => None,
            (Class::Inherited, Flow::ClientSide { to_backends }) => {
                skeleton.role(node).is_backend_side().then_some(to_backends)
            }
        };
        // A backend's port is reached through the ports the backendRefs name: a path
        // into the backend that names other ports brings only the backend's own
        // policies to this one.
        let port_owner = match topology.backend_refs_name_ports() {
            false => None,
            true => skeleton
                .owner(node)
                .filter(|_| matches!(skeleton.role(node), Role::Port)),
        };
        for &p in parents {
            let (a, b) = self.memo[p];
            if (a, b) == NOT_YET {
                continue;
            }
            // Direct policies reach only their target and its sections.
            let cut = self.class == Class::Direct && skeleton.owner(node) != Some(p);
            let keep = into_backend.filter(|_| !skeleton.role(p).is_backend_side());
            // Whether traffic reaches this port of backend `p` along each of its
            // contexts: told once per topology when every rule into `p`, or none,
            // names it (`Topology::port_traffic`).
            let reach = match port_owner == Some(p) {
                false => PortTraffic::Every,
                true => topology.port_traffic(node),
            };
            // The backend's own policies, for the contexts traffic does not reach this
            // port along: made once.
            let mut own: Option<Option<Rc<Acc>>> = None;
            for j in a..b {
                let c = &self.ctxs[j as usize];
                let seen = c.seen();
                let mut acc = c.acc.clone();
                let reached = match reach {
                    PortTraffic::Every => true,
                    PortTraffic::None => self.preds(j as usize).next().is_none(),
                    PortTraffic::Some => self.traffic_reaches(j as usize, p, node),
                };
                if !reached {
                    acc = match &own {
                        Some(o) => o.clone(),
                        None => own.insert(self.own_policies(p)).clone(),
                    };
                }
                let acc = match (cut, keep, acc) {
                    (true, ..) | (false, _, None) => None,
                    (false, None, acc) => acc,
                    (false, Some(keep), Some(acc)) => self.only(acc, keep),
                };
                self.arrive(
                    node,
                    acc,
                    seen,
                    Some((p, j - a)),
                    start,
                    &mut arrived,
                    &mut links,
                );
            }
        }
        // Ports are sections of backends alone (`topology::build::nodes`).
        if P::KEPT || skeleton.role(node) == Role::Backend {
            self.record_links(start, &mut links);
        }
        self.arrived = arrived;
        self.arrival_links = links;
        let range = (start as u32, self.ctxs.len() as u32);
        self.memo[node] = range;
        range
    }

    /// The links of the contexts made from `start` on (`links`: each as (context from
    /// `start`, link), in the order they arrived), each context's in that order.
    fn record_links(&mut self, start: usize, links: &mut [(u32, (NodeId, u32))]) {
        if links.len() > 1 {
            links.sort_by_key(|&(i, _)| i);
        }
        let mut k = 0;
        for i in 0..(self.ctxs.len() - start) as u32 {
            let from = self.links.len() as u32;
            while k < links.len() && links[k].0 == i {
                self.links.push(links[k].1);
                k += 1;
            }
            self.ctxs[start + i as usize].preds_from = from;
        }
    }

    /// One parent context arriving at `n` (`pred` none: `n` is a root). Contexts that
    /// arrive with the same state fold alike from here on, so each distinct (state,
    /// seen) is folded once.
    #[allow(clippy::too_many_arguments)]
    fn arrive(
        &mut self,
        node: NodeId,
        acc: Option<Rc<Acc>>,
        seen: SeenId,
        pred: Option<(NodeId, u32)>,
        start: usize,
        arrived: &mut Vec<(Option<*const Acc>, SeenId, u32)>,
        links: &mut Vec<(u32, (NodeId, u32))>,
    ) {
        // The state's address is its identity: the parent context holds it alive.
        let key = (acc.as_ref().map(Rc::as_ptr), seen);
        let i = match arrived.iter().find(|a| (a.0, a.1) == key) {
            Some(a) => a.2,
            None => {
                let i = self.fold_here(node, acc, seen, start);
                arrived.push((key.0, key.1, i));
                i
            }
        };
        if let Some((p, j)) = pred {
            links.push((i, (p, j)));
        }
    }

    /// Folds the policies that apply at `n` (its namespace level the first time a path
    /// enters it, then its own) onto one arriving state; returns the index among `n`'s
    /// contexts (from `start`) of the one it belongs to: an equal one already there,
    /// or a new one.
    fn fold_here(
        &mut self,
        n: NodeId,
        mut acc: Option<Rc<Acc>>,
        seen: SeenId,
        start: usize,
    ) -> u32 {
        let mut seen_next = seen;
        let mut entered = false;
        let mut es: SmallVec<[Rc<Joining>; 2]> = SmallVec::new();
        if let Some(ns) = self.topology.skeleton().level(n) {
            if !self.seen.contains(seen, ns) {
                seen_next = self.seen.enter(seen, ns);
                entered = true;
                for k in 0..self.ns_policies_of(ns).len() {
                    let group = Group::from_slice(&self.ns_policies_of(ns)[k]);
                    es.push(self.entry(group, n));
                }
            }
        }
        let count = self.node_policies_at(n).len();
        for k in 0..count {
            let group = Group::from_slice(&self.node_policies_at(n)[k]);
            es.push(self.entry(group, n));
        }
        if !es.is_empty() {
            acc = Some(self.push(acc, &es));
        }
        // Two inputs that ended up equal share one context (same pointer when nothing
        // new applied here).
        if let Some(i) = self.ctxs[start..].iter().position(|c| {
            c.seen() == seen_next && c.entered_ns() == entered && same_acc(&c.acc, &acc)
        }) {
            return i as u32;
        }
        debug_assert!(seen_next < ENTERED, "namespace sets fit in 31 bits");
        self.ctxs.push(Ctx {
            acc,
            seen_entered: seen_next | if entered { ENTERED } else { 0 },
            // Set once the node's contexts are all in (`compute`).
            preds_from: self.links.len() as u32,
        });
        (self.ctxs.len() - start - 1) as u32
    }

    /// Does any policy of this kind reach node `n` on some path?
    pub fn reaches(&mut self, node: NodeId) -> bool {
        self.contexts(node).iter().any(|c| c.acc.is_some())
    }
}

/// The paths, and the effective specs with them, read only from a fold that keeps
/// every context's links (`WithPaths`): a fold for statuses (`NoPaths`) has none.
impl<'t> KindFold<'t> {
    /// The effective specs at `n`, contexts with equal results grouped.
    pub fn effective_at(&mut self, n: NodeId) -> Vec<EffectiveGroup> {
        let accs: Vec<Option<Rc<Acc>>> = self.contexts(n).iter().map(|c| c.acc.clone()).collect();
        let mut groups: Vec<EffectiveGroup> = Vec::new();
        for (i, acc) in accs.iter().enumerate() {
            let Some(acc) = acc else { continue };
            let result = acc.result();
            let spec = result.to_value();
            let sources = result.sources();
            let paths = self.paths(n, i);
            match groups
                .iter_mut()
                .find(|g| g.spec == spec && g.sources == sources)
            {
                Some(g) => {
                    g.contexts.extend(paths);
                    for p in &acc.applied {
                        if !g.applied.contains(p) {
                            g.applied.push(*p);
                        }
                    }
                }
                None => groups.push(EffectiveGroup {
                    kind: self.kind.clone(),
                    node: n,
                    contexts: paths,
                    spec,
                    sources,
                    applied: acc.applied.clone(),
                }),
            }
        }
        for g in &mut groups {
            g.contexts.sort();
            g.contexts.dedup();
        }
        groups.sort_by(|a, b| a.contexts.cmp(&b.contexts));
        groups
    }

    /// Every root→n path of context `i` of node `n`, as references (namespace levels
    /// included where a path enters a namespace).
    pub fn paths(&mut self, node: NodeId, i: usize) -> Vec<Vec<ObjRef>> {
        let t = self.topology;
        let steps = self.step_paths(node, i);
        steps.iter().map(|p| PathStep::refs(t, p)).collect()
    }

    /// `paths` as steps: the same paths, named by node, without building references
    /// (two paths are equal exactly when their references are).
    pub(crate) fn step_paths(&mut self, node: NodeId, i: usize) -> Vec<Vec<PathStep>> {
        let mut out = Vec::new();
        self.walk_paths(node, i, &mut Vec::new(), &mut out);
        out
    }

    /// Walks the paths of context `i` of `n` up to their roots, each path's steps below
    /// the current one held in `below` (last step first), and adds each whole path to
    /// `out` as it reaches a root: in the order of the predecessors, as the paths are
    /// read. With a stack of its own, not recursion: a path may be as long as the input.
    fn walk_paths(
        &mut self,
        n: NodeId,
        i: usize,
        below: &mut Vec<PathStep>,
        out: &mut Vec<Vec<PathStep>>,
    ) {
        enum Work {
            /// Context `.1` of node `.0`: its steps onto `below`, then its predecessors;
            /// `.2`: the port section below when `.0` is its backend (only the paths
            /// that send traffic to that port lead to it).
            Visit(NodeId, usize, Option<NodeId>),
            /// Back to the steps below a node, once its predecessors are walked.
            Truncate(usize),
        }
        let mut work = vec![Work::Visit(n, i, None)];
        while let Some(w) = work.pop() {
            let (n, i, port) = match w {
                Work::Truncate(depth) => {
                    below.truncate(depth);
                    continue;
                }
                Work::Visit(n, i, port) => (n, i, port),
            };
            let (a, _) = self.compute(n);
            let c = a as usize + i;
            work.push(Work::Truncate(below.len()));
            below.push(PathStep::Node(n));
            if self.ctxs[c].entered_ns() && self.topology.namespace_level(n).is_some() {
                below.push(PathStep::Namespace(n));
            }
            let mut preds: SmallVec<[(NodeId, usize); 4]> = self.preds(c).collect();
            if let Some(port) = port {
                // None of them naming the port: the backend's own policies, from here.
                preds.retain(|&mut (q, _)| self.topology.reaches_port(q, n, port));
            }
            if preds.is_empty() {
                out.push(below.iter().rev().copied().collect());
            }
            let t = self.topology;
            let is_port = t.skeleton().role(n) == Role::Port;
            work.extend(preds.into_iter().rev().map(|(p, j)| {
                let port = (is_port && t.skeleton().owner(n) == Some(p)).then_some(n);
                Work::Visit(p, j, port)
            }));
        }
    }
}

fn same_acc(a: &Option<Rc<Acc>>, b: &Option<Rc<Acc>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => Rc::ptr_eq(x, y) || **x == **y,
        _ => false,
    }
}

/// The effective spec of one kind at one node, for the contexts that share it.
#[derive(Clone, Debug)]
pub struct EffectiveGroup {
    pub kind: GroupKind,
    pub node: NodeId,
    pub contexts: Vec<Vec<ObjRef>>,
    pub spec: Value,
    /// Each leaf's JSON pointer and the policy that set it.
    pub sources: Vec<(String, PolicyId)>,
    /// The policies folded in, least specific first.
    pub applied: Vec<PolicyId>,
}

/// Effective specs of every policy kind that reaches `n`.
pub fn effective_at(topology: &Topology, node: NodeId) -> Vec<EffectiveGroup> {
    let mut out = Vec::new();
    for kind in KindFold::kinds_in_use(topology) {
        let mut f = KindFold::new(topology, &kind);
        out.extend(f.effective_at(node));
    }
    out
}

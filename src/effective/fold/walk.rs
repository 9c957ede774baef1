//! What the walks of a fold hold: every node's contexts computed so far, one node
//! after another in one list, with the links from each context to the parent contexts
//! it continues (a topology of a hundred thousand nodes makes a few large allocations,
//! not a few small ones per node); and the scratch one walk reuses.
//!
//! A node's contexts are its parents' contexts plus the policies attached at the node
//! (and at its namespace level, the first time a path enters that namespace). Each is
//! computed once and shared by every child, so no path is ever re-walked from the root.

use super::config::FoldConfig;
use super::memo::{Entries, FoldMemo, Group};
use super::Paths;
use crate::catalog::{Class, Flow};
use crate::effective::combine::StateKey;
use crate::effective::Acc;
use crate::model::FastMap;
use crate::topology::{LevelId, NodeId, PortTraffic, Role, Topology};
use std::marker::PhantomData;
use std::rc::Rc;

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

/// A node whose contexts are not computed yet, in `FoldWalk::ranges` (no range of
/// contexts ends before it starts).
const NOT_YET: (u32, u32) = (u32::MAX, 0);

/// One context of a node: the folded result of one or more root→node paths.
///
/// Two words: a large topology has a million of these.
#[derive(Clone, Debug)]
pub struct Ctx {
    pub(crate) acc: Option<Rc<Acc>>,
    /// The namespaces passed (`SeenId`), and in the top bit whether this node's
    /// namespace level is on the path here (the path enters the namespace at this node).
    seen_entered: u32,
    /// Where the links to the parent contexts this one continues start in
    /// `FoldWalk::links`. Contexts and their links are appended in step, so they end
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
    pub(crate) fn entered_ns(&self) -> bool {
        self.seen_entered & ENTERED != 0
    }
}

/// The node being folded, and where its contexts start in `FoldWalk::ctxs`.
#[derive(Clone, Copy)]
struct At {
    node: NodeId,
    start: usize,
}

/// One parent context arriving at the node being folded: its state, the namespaces
/// its path passed, and which it is (parent node, index among the parent's contexts;
/// none: the node is a root).
struct Arrival {
    acc: Option<Rc<Acc>>,
    seen: SeenId,
    pred: Option<(NodeId, u32)>,
}

/// The scratch of folding one node, kept between nodes to reuse its memory: the node,
/// each distinct arriving (state, seen) and the context it went to; and (context,
/// parent link) pairs.
struct Arrivals {
    at: At,
    arrived: Vec<(Option<StateKey>, SeenId, u32)>,
    links: Vec<(u32, (NodeId, u32))>,
}

impl Arrivals {
    fn new() -> Self {
        Arrivals {
            at: At {
                node: NodeId::at(0),
                start: 0,
            },
            arrived: Vec::new(),
            links: Vec::new(),
        }
    }
}

/// The contexts of one kind's fold computed so far, and the walk's scratch.
pub(super) struct FoldWalk<P: Paths> {
    ctxs: Vec<Ctx>,
    /// Per node, its range of `ctxs` once computed, else `NOT_YET` (allocated on first use).
    ranges: Vec<(u32, u32)>,
    /// Per node, whether `compute` is walking above it now (allocated with `ranges`).
    walking: Vec<bool>,
    /// The walk's stack, kept between calls (one is made per node asked for).
    stack: Vec<NodeId>,
    /// (parent node, index among the parent's contexts), as 32-bit numbers: a large
    /// topology has hundreds of thousands.
    links: Vec<(NodeId, u32)>,
    /// Whether every context's links are kept (`WithPaths`: `paths` reads them); else
    /// (`NoPaths`) only those of the contexts of backends, which the check of their
    /// ports reads (`KindFold::for_statuses`).
    paths: PhantomData<P>,
    seen: SeenSets,
    scratch: Arrivals,
}

impl<P: Paths> FoldWalk<P> {
    pub(super) fn new() -> Self {
        FoldWalk {
            ctxs: Vec::new(),
            ranges: Vec::new(),
            walking: Vec::new(),
            stack: Vec::new(),
            links: Vec::new(),
            paths: PhantomData,
            seen: SeenSets::new(),
            scratch: Arrivals::new(),
        }
    }

    /// These contexts, with those of the nodes `below[n]` to be computed again.
    pub(super) fn without(&self, below: &[bool]) -> Self {
        let mut ranges = self.ranges.clone();
        for (m, &below) in ranges.iter_mut().zip(below) {
            if below {
                *m = NOT_YET;
            }
        }
        FoldWalk {
            ctxs: self.ctxs.clone(),
            walking: vec![false; ranges.len()],
            ranges,
            stack: Vec::new(),
            links: self.links.clone(),
            paths: PhantomData,
            seen: self.seen.clone(),
            scratch: Arrivals::new(),
        }
    }

    /// Context `c` (an index into `ctxs`).
    pub(super) fn ctx(&self, c: usize) -> &Ctx {
        &self.ctxs[c]
    }

    /// The contexts in range `(a, b)` of `ctxs`.
    pub(super) fn slice(&self, (a, b): (u32, u32)) -> &[Ctx] {
        &self.ctxs[a as usize..b as usize]
    }

    /// The parent contexts context `c` (an index into `ctxs`) continues: (parent
    /// node, index among its contexts).
    pub(super) fn preds(&self, c: usize) -> impl Iterator<Item = (NodeId, usize)> + '_ {
        let from = self.ctxs[c].preds_from as usize;
        let to = self
            .ctxs
            .get(c + 1)
            .map_or(self.links.len(), |next| next.preds_from as usize);
        self.links[from..to].iter().map(|&(p, j)| (p, j as usize))
    }

    /// Whether context `c` of backend `backend` comes, on some path, through a
    /// backendRef that names port section `port` (or no port): a root backend, or
    /// one of its parent contexts is such a path.
    fn traffic_reaches(&self, t: &Topology, c: usize, backend: NodeId, port: NodeId) -> bool {
        let mut preds = self.preds(c).peekable();
        preds.peek().is_none() || preds.any(|(q, _)| t.reaches_port(q, backend, port))
    }

    /// Computes the contexts of `n` (and, first, of everything above it); their range
    /// of `ctxs`. A walk up with a stack of its own, not recursion: a chain of
    /// references may be as long as the input. A parent still being walked (there is
    /// none in a DAG, as the topology makes it) is passed over, so even a cycle ends.
    pub(super) fn compute(
        &mut self,
        config: &FoldConfig,
        memo: &mut FoldMemo,
        node: NodeId,
    ) -> (u32, u32) {
        let t = config.topology;
        if self.ranges.is_empty() {
            self.ranges = vec![NOT_YET; t.nodes().len()];
            self.walking = vec![false; t.nodes().len()];
        }
        if self.ranges[node] != NOT_YET {
            return self.ranges[node];
        }
        let skeleton = t.skeleton();
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.push(node);
        while let Some(&m) = stack.last() {
            if self.ranges[m] != NOT_YET {
                stack.pop();
            } else if self.walking[m] {
                // Its parents are done (or being walked): its turn.
                stack.pop();
                self.compute_here(config, memo, m);
                self.walking[m] = false;
            } else {
                self.walking[m] = true;
                let parents = skeleton.parents(m).iter().copied();
                stack.extend(parents.filter(|&p| self.ranges[p] == NOT_YET && !self.walking[p]));
            }
        }
        self.stack = stack;
        self.ranges[node]
    }

    /// Computes the contexts of `n`, those of its parents being computed.
    fn compute_here(&mut self, config: &FoldConfig, memo: &mut FoldMemo, node: NodeId) {
        let topology = config.topology;
        let skeleton = topology.skeleton();
        let parents = skeleton.parents(node);
        let at = At {
            node,
            start: self.ctxs.len(),
        };
        let mut scratch = std::mem::replace(&mut self.scratch, Arrivals::new());
        scratch.at = at;
        scratch.arrived.clear();
        scratch.links.clear();
        if parents.is_empty() {
            let root = Arrival {
                acc: None,
                seen: 0,
                pred: None,
            };
            self.arrive(config, memo, &mut scratch, root);
        }
        // An Inherited kind's settings go only as far down as its vendor configures
        // them (`Flow`): into a backend from a rule, past the client side, only some.
        let into_backend = match (config.rules.class, config.rules.flow) {
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
            let (a, b) = self.ranges[p];
            if (a, b) == NOT_YET {
                continue;
            }
            // Direct policies reach only their target and its sections.
            let cut = config.rules.class == Class::Direct && skeleton.owner(node) != Some(p);
            let keep = into_backend.filter(|_| !skeleton.role(p).is_backend_side());
            // Whether traffic reaches this port of backend `p` along each of its
            // contexts: told once per topology when every rule into `p`, or none,
            // names it (`Topology::port_traffic`).
            let reach = match port_owner == Some(p) {
                false => PortTraffic::AllRules,
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
                    PortTraffic::AllRules => true,
                    PortTraffic::NoRule => self.preds(j as usize).next().is_none(),
                    PortTraffic::PerRule => self.traffic_reaches(topology, j as usize, p, node),
                };
                if !reached {
                    acc = match &own {
                        Some(o) => o.clone(),
                        None => own.insert(memo.own_policies(config, p)).clone(),
                    };
                }
                let acc = match (cut, keep, acc) {
                    (true, ..) | (false, _, None) => None,
                    (false, None, acc) => acc,
                    (false, Some(keep), Some(acc)) => memo.only(acc, keep),
                };
                let pred = Some((p, j - a));
                self.arrive(config, memo, &mut scratch, Arrival { acc, seen, pred });
            }
        }
        // Ports are sections of backends alone (`topology::build::nodes`).
        if P::KEPT || skeleton.role(node) == Role::Backend {
            self.record_links(at.start, &mut scratch.links);
        }
        self.scratch = scratch;
        self.ranges[node] = (at.start as u32, self.ctxs.len() as u32);
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

    /// One parent context arriving at the node folded now. Contexts that arrive with
    /// the same state fold alike from here on, so each distinct (state, seen) is
    /// folded once.
    fn arrive(
        &mut self,
        config: &FoldConfig,
        memo: &mut FoldMemo,
        scratch: &mut Arrivals,
        arrival: Arrival,
    ) {
        // The parent context (or the memo, for a state narrowed or made of a backend's
        // own policies) holds the state alive while its key is in `arrived`.
        let key = (arrival.acc.as_ref().map(StateKey::of), arrival.seen);
        let pred = arrival.pred;
        let i = match scratch.arrived.iter().find(|a| (a.0, a.1) == key) {
            Some(a) => a.2,
            None => {
                let i = self.fold_here(config, memo, scratch.at, arrival);
                scratch.arrived.push((key.0, key.1, i));
                i
            }
        };
        if let Some(pred) = pred {
            scratch.links.push((i, pred));
        }
    }

    /// Folds the policies that apply at node `at` (its namespace level the first time a
    /// path enters it, then its own) onto the state of one arriving context; returns the index among
    /// the node's contexts of the one it belongs to: an equal one already there, or a
    /// new one.
    fn fold_here(
        &mut self,
        config: &FoldConfig,
        memo: &mut FoldMemo,
        at: At,
        arrival: Arrival,
    ) -> u32 {
        let Arrival { mut acc, seen, .. } = arrival;
        let n = at.node;
        let mut seen_next = seen;
        let mut entered = false;
        let mut es = Entries::new();
        if let Some(ns) = config.topology.skeleton().level(n) {
            if !self.seen.contains(seen, ns) {
                seen_next = self.seen.enter(seen, ns);
                entered = true;
                for group in config.ns_policies_of(ns) {
                    es.push(memo.entry(config, Group::from_slice(group), n));
                }
            }
        }
        for group in config.node_policies_at(n) {
            es.push(memo.entry(config, Group::from_slice(group), n));
        }
        if !es.is_empty() {
            acc = Some(memo.push(config, acc, &es));
        }
        // Two inputs that ended up equal share one context (same pointer when nothing
        // new applied here).
        if let Some(i) = self.ctxs[at.start..].iter().position(|c| {
            c.seen() == seen_next && c.entered_ns() == entered && same_acc(&c.acc, &acc)
        }) {
            return i as u32;
        }
        debug_assert!(seen_next < ENTERED, "namespace sets fit in 31 bits");
        self.ctxs.push(Ctx {
            acc,
            seen_entered: seen_next | if entered { ENTERED } else { 0 },
            // Set once the node's contexts are all in (`compute_here`).
            preds_from: self.links.len() as u32,
        });
        (self.ctxs.len() - at.start - 1) as u32
    }
}

fn same_acc(a: &Option<Rc<Acc>>, b: &Option<Rc<Acc>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => Rc::ptr_eq(x, y) || **x == **y,
        _ => false,
    }
}

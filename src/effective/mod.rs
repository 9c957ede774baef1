//! Effective policies (GEP-713 §"Abstract process"): per policy kind, per context
//! path, the stack of policies folded from the least specific end. Pure functions.
//!
//! The fold is top-down: a node's contexts are its parents' contexts plus the
//! policies attached at this node (and at its namespace level, the first time a
//! path enters that namespace). Each node's contexts are computed once and shared by
//! every child, so no path is ever re-walked from the root.

pub mod combine;
pub mod status;
pub mod tree;

pub use combine::{Acc, Entry};
pub use status::{PolicyStatus, Statuses};

use crate::catalog::{Class, MergeModel};
use crate::model::{GroupKind, ObjRef};
use crate::topology::{NodeId, PolicyId, Topology};
use serde_json::Value;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::rc::Rc;

/// GEP-713 conflict resolution between two policies at the same level: older
/// creationTimestamp first, then `namespace/name`. A missing timestamp sorts last.
pub fn precedence_cmp(t: &Topology, a: PolicyId, b: PolicyId) -> Ordering {
    let (pa, pb) = (&t.policies[a], &t.policies[b]);
    let ts = |p: &crate::catalog::policy::Policy| p.creation_timestamp.clone();
    match (ts(pa), ts(pb)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
    .then_with(|| pa.obj_ref.ns_name().cmp(&pb.obj_ref.ns_name()))
}

/// A parent context arriving at a node: its state, namespaces seen, where it came from.
type Incoming = (Option<Rc<Acc>>, Rc<Vec<String>>, Vec<(NodeId, usize)>);

/// One context of a node: the folded result of one or more root→node paths.
#[derive(Clone, Debug)]
pub struct Ctx {
    pub acc: Option<Rc<Acc>>,
    /// Namespaces whose level this path has already passed (each is applied once,
    /// at its highest position).
    seen_ns: Rc<Vec<String>>,
    /// The namespace level this node adds to the path, if any.
    pub entered_ns: Option<String>,
    /// The parent contexts this one continues: (parent node, index of its context).
    pub preds: Vec<(NodeId, usize)>,
}

/// The fold for one policy kind over the whole topology, computed on demand.
pub struct KindFold<'t> {
    pub t: &'t Topology,
    pub kind: GroupKind,
    pub class: Class,
    pub model: MergeModel,
    node_policies: HashMap<NodeId, Vec<PolicyId>>,
    ns_policies: HashMap<String, Vec<PolicyId>>,
    entries: HashMap<(PolicyId, NodeId), Rc<Entry>>,
    memo: Vec<Option<Rc<Vec<Ctx>>>>,
    /// Direct policies that lost to an older one on the same target: (loser, winner, node).
    pub conflicts: Vec<(PolicyId, PolicyId, NodeId)>,
}

impl<'t> KindFold<'t> {
    pub fn new(t: &'t Topology, kind: &GroupKind) -> KindFold<'t> {
        let pk = t.catalog.get(kind);
        let class = pk.map(|k| k.class).unwrap_or(Class::Inherited);
        let model = pk
            .map(|k| k.merge)
            .unwrap_or(MergeModel::Gep713 { rule_paths: &[] });
        let mut node_policies: HashMap<NodeId, Vec<PolicyId>> = HashMap::new();
        let mut conflicts = Vec::new();
        for (n, ps) in t.attached.iter().enumerate() {
            let mine: Vec<PolicyId> = ps
                .iter()
                .copied()
                .filter(|&p| &t.policies[p].kind == kind)
                .collect();
            if mine.is_empty() {
                continue;
            }
            // GEP-713 None: the oldest (then namespace/name) wins; the rest are Conflicted.
            let mine = if model == MergeModel::None && mine.len() > 1 {
                for &loser in &mine[1..] {
                    conflicts.push((loser, mine[0], n));
                }
                vec![mine[0]]
            } else {
                mine
            };
            node_policies.insert(n, mine);
        }
        let mut ns_policies = HashMap::new();
        if class == Class::Inherited {
            for (ns, ps) in &t.ns_attached {
                let mine: Vec<PolicyId> = ps
                    .iter()
                    .copied()
                    .filter(|&p| &t.policies[p].kind == kind)
                    .collect();
                if !mine.is_empty() {
                    ns_policies.insert(ns.clone(), mine);
                }
            }
        }
        KindFold {
            t,
            kind: kind.clone(),
            class,
            model,
            node_policies,
            ns_policies,
            entries: HashMap::new(),
            memo: vec![None; t.nodes.len()],
            conflicts,
        }
    }

    /// Policy kinds that have at least one policy in the topology.
    pub fn kinds_in_use(t: &Topology) -> Vec<GroupKind> {
        let mut kinds: Vec<GroupKind> = t.policies.iter().map(|p| p.kind.clone()).collect();
        kinds.sort();
        kinds.dedup();
        kinds
    }

    fn entry(&mut self, p: PolicyId, at: NodeId) -> Rc<Entry> {
        if let Some(e) = self.entries.get(&(p, at)) {
            return e.clone();
        }
        let e = Rc::new(Entry::new(self.t, p, at, self.model));
        self.entries.insert((p, at), e.clone());
        e
    }

    /// The contexts of node `n`: every root→n path, grouped where they fold alike.
    pub fn contexts(&mut self, n: NodeId) -> Rc<Vec<Ctx>> {
        if let Some(c) = &self.memo[n] {
            return c.clone();
        }
        let t = self.t;
        let node = &t.nodes[n];
        let mut incoming: Vec<Incoming> = Vec::new();
        if node.parents.is_empty() {
            incoming.push((None, Rc::new(Vec::new()), Vec::new()));
        } else {
            for &p in &node.parents {
                let pctx = self.contexts(p);
                for (i, c) in pctx.iter().enumerate() {
                    // Direct policies reach only their target and its sections.
                    let acc = if self.class == Class::Direct && node.owner != Some(p) {
                        None
                    } else {
                        c.acc.clone()
                    };
                    incoming.push((acc, c.seen_ns.clone(), vec![(p, i)]));
                }
            }
        }
        let ns_here = t.namespace_level(n).map(str::to_string);
        let own = self.node_policies.get(&n).cloned().unwrap_or_default();
        let mut out: Vec<Ctx> = Vec::new();
        // Contexts that arrive with the same accumulated state fold alike from here on.
        let mut cache: HashMap<(usize, Rc<Vec<String>>), usize> = HashMap::new();
        for (acc, seen, preds) in incoming {
            let key = (
                acc.as_ref().map_or(0, |a| Rc::as_ptr(a) as usize),
                seen.clone(),
            );
            if let Some(&i) = cache.get(&key) {
                out[i].preds.extend(preds);
                continue;
            }
            let mut acc = acc;
            let mut seen_next = seen.clone();
            let mut entered = None;
            if let Some(ns) = &ns_here {
                if !seen.contains(ns) {
                    let mut s = (*seen).clone();
                    s.push(ns.clone());
                    seen_next = Rc::new(s);
                    entered = Some(ns.clone());
                    if let Some(ps) = self.ns_policies.get(ns).cloned() {
                        for p in ps {
                            let e = self.entry(p, n);
                            acc = Some(combine::push(acc.as_deref(), &e, self.model));
                        }
                    }
                }
            }
            for &p in &own {
                let e = self.entry(p, n);
                acc = Some(combine::push(acc.as_deref(), &e, self.model));
            }
            // Two inputs that ended up equal share one context (same pointer when
            // nothing new applied here).
            if let Some(i) = out.iter().position(|c| {
                c.seen_ns == seen_next && c.entered_ns == entered && same_acc(&c.acc, &acc)
            }) {
                out[i].preds.extend(preds);
                cache.insert(key, i);
                continue;
            }
            cache.insert(key, out.len());
            out.push(Ctx {
                acc,
                seen_ns: seen_next,
                entered_ns: entered,
                preds,
            });
        }
        let out = Rc::new(out);
        self.memo[n] = Some(out.clone());
        out
    }

    /// Every root→n path of context `i` of node `n`, as references (namespace levels
    /// included where a path enters a namespace).
    pub fn paths(&mut self, n: NodeId, i: usize) -> Vec<Vec<ObjRef>> {
        let ctxs = self.contexts(n);
        let c = &ctxs[i];
        let mut tail = Vec::new();
        if let Some(ns) = &c.entered_ns {
            tail.push(ObjRef::new("", "Namespace", None, ns));
        }
        tail.push(self.t.nodes[n].obj_ref.clone());
        if c.preds.is_empty() {
            return vec![tail];
        }
        let mut out = Vec::new();
        for &(p, j) in &c.preds.clone() {
            for mut path in self.paths(p, j) {
                path.extend(tail.iter().cloned());
                out.push(path);
            }
        }
        out
    }

    /// The effective specs at `n`, contexts with equal results grouped.
    pub fn effective_at(&mut self, n: NodeId) -> Vec<EffectiveGroup> {
        let ctxs = self.contexts(n);
        let mut groups: Vec<EffectiveGroup> = Vec::new();
        for (i, c) in ctxs.iter().enumerate() {
            let Some(acc) = &c.acc else { continue };
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

    /// Does any policy of this kind reach node `n` on some path?
    pub fn reaches(&mut self, n: NodeId) -> bool {
        self.contexts(n).iter().any(|c| c.acc.is_some())
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
pub fn effective_at(t: &Topology, n: NodeId) -> Vec<EffectiveGroup> {
    let mut out = Vec::new();
    for kind in KindFold::kinds_in_use(t) {
        let mut f = KindFold::new(t, &kind);
        out.extend(f.effective_at(n));
    }
    out
}

//! The paths of a fold's contexts, and the effective specs with them: read only from
//! a fold that keeps every context's links (`WithPaths`); a fold for statuses
//! (`NoPaths`) has none.

use super::KindFold;
use crate::effective::Acc;
use crate::model::{GroupKind, ObjRef};
use crate::topology::{NodeId, PolicyId, Role, Topology};
use serde_json::Value;
use smallvec::SmallVec;
use std::rc::Rc;

/// One step of a context path: a node, or the namespace level a path enters just
/// above that node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum PathStep {
    Namespace(NodeId),
    Node(NodeId),
}

impl PathStep {
    /// The reference a path shows for this step.
    pub(crate) fn obj_ref(self, topology: &Topology) -> ObjRef {
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

/// The effective spec of one kind at one node, for the contexts that share it.
#[derive(Clone, Debug)]
pub struct EffectiveGroup {
    pub(crate) kind: GroupKind,
    pub(crate) node: NodeId,
    pub contexts: Vec<Vec<ObjRef>>,
    pub spec: Value,
    /// Each leaf's JSON pointer and the policy that set it.
    pub sources: Vec<(String, PolicyId)>,
    /// The policies folded in, least specific first.
    pub(crate) applied: Vec<PolicyId>,
}

impl KindFold<'_> {
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
                    kind: self.config.kind.clone(),
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
    pub(crate) fn paths(&mut self, node: NodeId, i: usize) -> Vec<Vec<ObjRef>> {
        let t = self.config.topology;
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
        let t = self.config.topology;
        let mut work = vec![Work::Visit(n, i, None)];
        while let Some(w) = work.pop() {
            let (n, i, port) = match w {
                Work::Truncate(depth) => {
                    below.truncate(depth);
                    continue;
                }
                Work::Visit(n, i, port) => (n, i, port),
            };
            let (a, _) = self.walk.compute(&self.config, &mut self.memo, n);
            let c = a as usize + i;
            work.push(Work::Truncate(below.len()));
            below.push(PathStep::Node(n));
            if self.walk.ctx(c).entered_ns() && t.namespace_level(n).is_some() {
                below.push(PathStep::Namespace(n));
            }
            let mut preds: SmallVec<[(NodeId, usize); 4]> = self.walk.preds(c).collect();
            if let Some(port) = port {
                // None of them naming the port: the backend's own policies, from here.
                preds.retain(|&mut (q, _)| t.reaches_port(q, n, port));
            }
            if preds.is_empty() {
                out.push(below.iter().rev().copied().collect());
            }
            let is_port = t.skeleton().role(n) == Role::Port;
            work.extend(preds.into_iter().rev().map(|(p, j)| {
                let port = (is_port && t.skeleton().owner(n) == Some(p)).then_some(n);
                Work::Visit(p, j, port)
            }));
        }
    }
}

//! How much of each policy survives at one node, over the node's contexts: each
//! folded state measured once against how many settings each policy sets, with the
//! Direct conflicts lost there; and which nodes are the most specific a kind reaches.

use super::{Tally, CONFLICTED};
use crate::catalog::{Class, Flow};
use crate::effective::combine::StateKey;
use crate::effective::{Acc, FoldConfig, KindFold, NoPaths};
use crate::model::FastMap;
use crate::topology::{NodeId, PolicyId, Topology};
use rayon::prelude::*;
use std::rc::Rc;

/// How much of each policy of one kind survives at a node, over all the node's
/// contexts, with the Direct conflicts it loses there. Nodes below an attachment
/// point share their parent's result object, so each result is measured once (and
/// kept alive here, so its address stays its identity).
pub(super) struct Tallies<'a> {
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
    pub(super) fn new(config: &FoldConfig, leaves: &'a [usize]) -> Self {
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
    pub(super) fn at(
        &mut self,
        fold: &mut KindFold<NoPaths>,
        node: NodeId,
        out: &mut Vec<(PolicyId, Tally)>,
    ) {
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
pub(super) fn leaf_counts(topology: &Topology) -> Vec<usize> {
    let spec = |p: &crate::catalog::policy::Policy| &topology.object(p.object).spec;
    // Every policy's spec is walked: on every core.
    topology
        .policies()
        .par_iter()
        .with_min_len(1024)
        .map(|p| p.intent.leaf_count(spec(p)))
        .collect()
}

/// A conflict on node `n` makes the loser Conflicted on `n` and on its sections.
fn conflict_nodes(topology: &Topology, node: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    let sections = topology
        .skeleton()
        .children(node)
        .iter()
        .copied()
        .filter(move |&c| topology.skeleton().owner(c) == Some(node));
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
pub(super) fn is_leaf(topology: &Topology, node: NodeId, class: Class, flow: Flow) -> bool {
    let children = topology.skeleton().children(node);
    let backend = |m: NodeId| topology.skeleton().role(m).is_backend_side();
    match (class, flow) {
        (Class::Inherited, Flow::Down) => children.is_empty(),
        (Class::Inherited, Flow::ClientSide { .. }) => {
            children.is_empty() || (!backend(node) && children.iter().all(|&c| backend(c)))
        }
        (Class::Direct, _) => !children
            .iter()
            .any(|&c| topology.skeleton().owner(c) == Some(node)),
    }
}

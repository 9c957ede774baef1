//! What a fold is configured with: the policy kind and its rules (class, flow, merge
//! model, same-target rule), the topology it reads, and the attachment index (the
//! groups of the kind's policies that enter at each node and namespace level). Made
//! once per kind, read-only afterwards.

use crate::catalog::{Class, Entry, SameTarget};
use crate::effective::same_target;
use crate::model::GroupKind;
use crate::topology::{Conflict, LevelId, NodeId, PolicyId, Resolution, Topology};

/// One kind's configuration and attachment index.
pub struct FoldConfig<'t> {
    pub(crate) topology: &'t Topology,
    pub(crate) kind: GroupKind,
    /// The kind's rules (its registry entry, or its class's generic one): its class,
    /// how far down its settings flow, its merge model and same-target rule.
    pub(crate) rules: &'t Entry,
    /// Whether a policy enters the fold differently from one place to another (its
    /// merge model's `enters_by_place`, or a spec that lists settings per port): then
    /// its entries are kept per place.
    pub(super) entries_by_place: bool,
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
    /// Direct policies that lost to an older one on the same target: (loser, winner, node).
    pub(crate) conflicts: Vec<Conflict>,
}

impl<'t> FoldConfig<'t> {
    /// The configuration of `kind`'s fold over `topology`, as if policy `removed` (if
    /// any) did not exist.
    pub(super) fn new(
        topology: &'t Topology,
        kind: &GroupKind,
        removed: Option<PolicyId>,
    ) -> FoldConfig<'t> {
        let pk = topology.catalog().kind_of(kind);
        let (class, model, same_target) = (pk.entry.class, pk.entry.merge, pk.entry.same_target);
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
        FoldConfig {
            topology,
            kind: kind.clone(),
            rules: &pk.entry,
            entries_by_place: crate::effective::merge::enters_by_place(model)
                || !pk.entry.sections.spec_port_lists().is_empty()
                || pk.entry.shadowed_by.is_some(),
            node_policies,
            at_node,
            ns_policies,
            conflicts,
        }
    }

    /// Where policies of this kind enter the fold: the nodes they attach to, and for
    /// a Namespace-level one every object of that namespace. What they may reach is at
    /// or below these.
    pub(crate) fn starts(&self) -> Vec<NodeId> {
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
    pub(super) fn node_policies_at(&self, node: NodeId) -> &[Vec<PolicyId>] {
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
    pub(super) fn ns_policies_of(&self, l: LevelId) -> &[Vec<PolicyId>] {
        self.ns_policies.get(l as usize).map_or(&[], Vec::as_slice)
    }
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

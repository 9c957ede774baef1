//! What each merge model (`MergeModel`) does in the fold, one module per model, named
//! after it. The fold of a context path (`combine::push`) is the same for every model;
//! the models differ in the questions asked here, each by a `match` that names every
//! model:
//!
//! - `enters`: how a policy's stanzas enter the fold where it attaches;
//! - `enters_by_place`: whether that depends on where it attaches;
//! - `fold`: how the entries of a path, least specific first, make one spec, and which
//!   of them a more specific one replaced whole there (Envoy Gateway's models only:
//!   such a policy is Overridden there even if it sets nothing).
//!
//! How a policy of each model is read (its stanzas, and the strategy a model without
//! strategy fields implies) is the catalog's (`catalog::policy::intent`). A new model is
//! a new variant of `MergeModel` and a module here; the compiler names each question it
//! must answer.

mod accumulated;
mod envoy_merge_type;
mod gep713;
mod keyed_fields;
mod kgateway_priority;
mod most_specific_replaces;
mod most_specific_wins;
mod none;
mod patch_defaults;
mod shadowed;

pub(super) use shadowed::without_shadowed;

use super::joining::Layer;
use super::sourced::Sourced;
use super::Joining;
use crate::catalog::{Entry, MergeModel};
use crate::topology::{NodeId, PolicyId, Topology};
use smallvec::SmallVec;
use std::rc::Rc;

/// A policy's defaults and overrides (none: no intent), as it enters the fold.
pub(super) type Stanzas = (Option<Layer>, Option<Layer>);

/// Policy `p`'s stanzas, as read, as they enter the fold at node `at`.
pub(super) fn enters(
    model: MergeModel,
    topology: &Topology,
    p: PolicyId,
    at: NodeId,
    read: Stanzas,
) -> Stanzas {
    match model {
        MergeModel::KgatewayPriority => kgateway_priority::enters(topology, p, at, read),
        MergeModel::Accumulated => accumulated::enters(topology, p, read),
        // As read, with the strategy the policy declares or its model implies.
        MergeModel::None
        | MergeModel::Gep713 { .. }
        | MergeModel::MostSpecificWins
        | MergeModel::PatchDefaults
        | MergeModel::KeyedFields { .. }
        | MergeModel::EnvoyMergeType
        | MergeModel::MostSpecificReplaces => read,
    }
}

/// Whether how a policy enters the fold depends on where it attaches (`enters`'s
/// `at`); if not, one entry serves every place.
pub(super) fn enters_by_place(model: MergeModel) -> bool {
    match model {
        MergeModel::KgatewayPriority => true,
        MergeModel::None
        | MergeModel::Gep713 { .. }
        | MergeModel::MostSpecificWins
        | MergeModel::PatchDefaults
        | MergeModel::KeyedFields { .. }
        | MergeModel::EnvoyMergeType
        | MergeModel::MostSpecificReplaces
        | MergeModel::Accumulated => false,
    }
}

/// What the entries of a context path make: the spec, and the policies a more
/// specific one replaced whole on the path.
pub(super) struct Folded {
    pub(super) result: Rc<Sourced>,
    /// (policy, the policy that replaced it), each policy once; empty for the models
    /// that merge (their policies lose setting by setting).
    pub(super) replaced: Vec<(PolicyId, PolicyId)>,
}

impl Folded {
    /// A spec in which nothing was replaced whole.
    fn merged(result: Rc<Sourced>) -> Folded {
        Folded {
            result,
            replaced: Vec::new(),
        }
    }
}

/// The spec the entries of a context path make, `entries` least specific first, for
/// policies of a kind whose rules are `rules`.
pub(super) fn fold(rules: &Entry, entries: &[Rc<Joining>]) -> Folded {
    match rules.merge {
        MergeModel::None => Folded::merged(none::fold(entries)),
        MergeModel::Gep713 { rule_paths } => Folded::merged(gep713::fold(entries, rule_paths)),
        MergeModel::MostSpecificWins => Folded::merged(most_specific_wins::fold(entries)),
        MergeModel::PatchDefaults => Folded::merged(patch_defaults::fold(entries)),
        MergeModel::KeyedFields { rule_paths } => {
            Folded::merged(keyed_fields::fold(entries, rule_paths))
        }
        MergeModel::EnvoyMergeType => envoy_merge_type::fold(entries),
        MergeModel::MostSpecificReplaces => most_specific_replaces::fold(entries),
        MergeModel::KgatewayPriority => Folded::merged(kgateway_priority::fold(
            rules.acts_per_level.as_ref(),
            entries,
        )),
        MergeModel::Accumulated => Folded::merged(accumulated::fold(entries)),
    }
}

/// The policies of the entries replaced whole (`replaced`: (entry, replacing entry),
/// as indices into `entries`), each with the first policy of the entry replacing it;
/// a policy that also applies through an entry not replaced is left out.
fn replaced_policies(
    entries: &[Rc<Joining>],
    replaced: &[(usize, usize)],
) -> Vec<(PolicyId, PolicyId)> {
    if replaced.is_empty() {
        return Vec::new();
    }
    let gone: SmallVec<[usize; 4]> = replaced.iter().map(|&(i, _)| i).collect();
    let applies = |p: &PolicyId| {
        entries
            .iter()
            .enumerate()
            .any(|(i, e)| !gone.contains(&i) && e.policies.contains(p))
    };
    let mut out: Vec<(PolicyId, PolicyId)> = Vec::new();
    for &(i, by) in replaced {
        let Some(&winner) = entries[by].policies.first() else {
            continue;
        };
        for &p in &entries[i].policies {
            if !applies(&p) && !out.iter().any(|&(q, _)| q == p) {
                out.push((p, winner));
            }
        }
    }
    out
}

//! What each merge model (`MergeModel`) does in the fold, one module per model, named
//! after it. The fold of a context path (`combine::push`) is the same for every model;
//! the models differ in the questions asked here, each by a `match` that names every
//! model:
//!
//! - `enters`: how a policy's stanzas enter the fold where it attaches;
//! - `enters_by_place`: whether that depends on where it attaches;
//! - `fold`: how the entries of a path, least specific first, make one spec.
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
mod most_specific_wins;
mod none;
mod patch_defaults;

use super::combine::Layer;
use super::sourced::Sourced;
use super::Joining;
use crate::catalog::MergeModel;
use crate::topology::{NodeId, PolicyId, Topology};
use std::rc::Rc;

/// A policy's defaults and overrides (none: no intent), as it enters the fold.
pub(super) type Stanzas = (Option<Layer>, Option<Layer>);

/// Policy `p`'s stanzas, as read, as they enter the fold at node `at`.
pub(super) fn enters(
    model: MergeModel,
    t: &Topology,
    p: PolicyId,
    at: NodeId,
    read: Stanzas,
) -> Stanzas {
    match model {
        MergeModel::KgatewayPriority => kgateway_priority::enters(t, at, read),
        MergeModel::Accumulated => accumulated::enters(t, p, read),
        // As read, with the strategy the policy declares or its model implies.
        MergeModel::None
        | MergeModel::Gep713 { .. }
        | MergeModel::MostSpecificWins
        | MergeModel::PatchDefaults
        | MergeModel::KeyedFields { .. }
        | MergeModel::EnvoyMergeType => read,
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
        | MergeModel::Accumulated => false,
    }
}

/// The spec the entries of a context path make, `entries` least specific first.
pub(super) fn fold(model: MergeModel, entries: &[Rc<Joining>]) -> Rc<Sourced> {
    match model {
        MergeModel::None => none::fold(entries),
        MergeModel::Gep713 { rule_paths } => gep713::fold(entries, rule_paths),
        MergeModel::MostSpecificWins => most_specific_wins::fold(entries),
        MergeModel::PatchDefaults => patch_defaults::fold(entries),
        MergeModel::KeyedFields { rule_paths } => keyed_fields::fold(entries, rule_paths),
        MergeModel::EnvoyMergeType => envoy_merge_type::fold(entries),
        MergeModel::KgatewayPriority => kgateway_priority::fold(entries),
        MergeModel::Accumulated => accumulated::fold(entries),
    }
}

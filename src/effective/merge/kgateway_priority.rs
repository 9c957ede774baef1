//! `MergeModel::KgatewayPriority`: kgateway's policy inheritance. The parent object's
//! `kgateway.dev/inherited-policy-priority` annotation picks, for the policies attached
//! to it, a shallow (per top-level field) or deep (per leaf) merge and which side wins:
//! ShallowMergePreferChild by default (kgateway docs, "Policy priority and merging
//! rules"). In GEP-713's terms: prefer child is Defaults, prefer parent Overrides;
//! shallow is Merge, deep is Patch.

use super::{gep713, Stanzas};
use crate::catalog::policy::{How, Mode, Strategy};
use crate::effective::joining::Layer;
use crate::effective::sourced::Sourced;
use crate::effective::Joining;
use crate::topology::{NodeId, Topology};
use std::rc::Rc;

/// The kgateway annotation that picks the merge on the parent object.
const KGATEWAY_PRIORITY: &str = "kgateway.dev/inherited-policy-priority";

/// The policy's spec, as read, joining with the strategy the annotation on the object
/// that owns node `at` picks.
pub(super) fn enters(topology: &Topology, at: NodeId, (defaults, overrides): Stanzas) -> Stanzas {
    let picked = priority(topology, at);
    let tree = defaults.or(overrides).map(|s| s.value);
    let stanza = tree.map(|value| Layer {
        how: picked.how,
        value,
    });
    match picked.mode {
        Mode::Defaults => (stanza, None),
        Mode::Overrides => (None, stanza),
    }
}

/// The strategy a kgateway parent object's annotation picks for the policies attached
/// to it.
fn priority(topology: &Topology, at: NodeId) -> Strategy {
    let owner = topology
        .nodes
        .get(at.index())
        .and_then(|n| n.owner)
        .unwrap_or(at);
    let annotation = topology
        .nodes
        .get(owner.index())
        .and_then(|n| n.object)
        .and_then(|o| {
            topology.snapshot.objects[o]
                .annotations
                .get(KGATEWAY_PRIORITY)
        })
        .map(String::as_str);
    let (mode, how) = match annotation {
        Some("ShallowMergePreferParent") => (Mode::Overrides, How::Merge),
        Some("DeepMergePreferChild") => (Mode::Defaults, How::Patch),
        Some("DeepMergePreferParent") => (Mode::Overrides, How::Patch),
        _ => (Mode::Defaults, How::Merge),
    };
    Strategy { mode, how }
}

/// GEP-713's fold, each policy with the strategy its parent's annotation picked.
pub(super) fn fold(entries: &[Rc<Joining>]) -> Rc<Sourced> {
    gep713::fold(entries, &[])
}

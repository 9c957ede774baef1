//! `MergeModel::KgatewayPriority`: kgateway's policy inheritance. The parent object's
//! `kgateway.dev/inherited-policy-priority` annotation picks, for the policies attached
//! to it, a shallow (per top-level field) or deep (per leaf) merge and which side wins:
//! ShallowMergePreferChild by default (kgateway docs, "Policy priority and merging
//! rules"). In GEP-713's terms: prefer child is Defaults, prefer parent Overrides;
//! shallow is Merge, deep is Patch.
//!
//! A kind with settings that act at every level (`catalog::merged::ActsPerLevel`:
//! kgateway's TrafficPolicy header modifiers, and its ext-auth, ext-proc, JWT and OAuth2
//! providers) enters with each such setting held under a key of its own: the object (or
//! section) it attaches to, or the provider it names. The fold merges those fields key
//! by key, so a more specific policy shadows only the same level's or provider's; a
//! `disable` at the most specific level that sets the field turns the others off.

use super::{gep713, Stanzas};
use crate::catalog::merged::ActsPerLevel;
use crate::catalog::policy::{How, Mode, Strategy};
use crate::effective::joining::Layer;
use crate::effective::sourced::Sourced;
use crate::effective::Joining;
use crate::model::{Text, Val};
use crate::topology::{NodeId, PolicyId, Topology};
use smallvec::SmallVec;
use std::rc::Rc;

/// The kgateway annotation that picks the merge on the parent object.
const KGATEWAY_PRIORITY: &str = "kgateway.dev/inherited-policy-priority";

/// Policy `p`'s spec, as read, joining with the strategy the annotation on the object
/// that owns node `at` picks; its settings that act at every level keyed.
pub(super) fn enters(
    topology: &Topology,
    p: PolicyId,
    at: NodeId,
    (defaults, overrides): Stanzas,
) -> Stanzas {
    let picked = priority(topology, at);
    let tree = defaults.or(overrides).map(|s| s.value);
    let tree = match &topology.kind_of(p).entry.acts_per_level {
        Some(rule) => tree.map(|t| keyed(topology, p, at, rule, &t)),
        None => tree,
    };
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
        .nodes()
        .get(at.index())
        .and_then(|n| n.owner)
        .unwrap_or(at);
    let annotation = topology
        .nodes()
        .get(owner.index())
        .and_then(|n| n.object)
        .and_then(|o| topology.object(o).annotations.get(KGATEWAY_PRIORITY))
        .map(String::as_str);
    let (mode, how) = match annotation {
        Some("ShallowMergePreferParent") => (Mode::Overrides, How::Merge),
        Some("DeepMergePreferChild") => (Mode::Defaults, How::Patch),
        Some("DeepMergePreferParent") => (Mode::Overrides, How::Patch),
        _ => (Mode::Defaults, How::Merge),
    };
    Strategy { mode, how }
}

/// `tree` with each setting that acts at every level under its key: the node `at`
/// (`kind/namespace/name#section`) for `every_level` fields, the provider's
/// `namespace/name` for `per_provider` fields that name one.
fn keyed(
    topology: &Topology,
    p: PolicyId,
    at: NodeId,
    rule: &ActsPerLevel,
    tree: &Rc<Sourced>,
) -> Rc<Sourced> {
    let Sourced::Object(fields) = &**tree else {
        return tree.clone();
    };
    let key_of = |field: &str, value: &Rc<Sourced>| -> Option<Text> {
        if rule.every_level.contains(&field) {
            return Some(topology.node(at).obj_ref.to_string().into());
        }
        if !rule.per_provider.contains(&field) {
            return None;
        }
        let reference = child(value, rule.provider_ref)?;
        let name = string_leaf(child(reference, "name")?)?;
        let namespace = child(reference, "namespace")
            .and_then(string_leaf)
            .or_else(|| topology.policy(p).obj_ref.namespace.clone())
            .unwrap_or_default();
        Some(format!("{namespace}/{name}").into())
    };
    let fields = fields
        .iter()
        .map(|(k, v)| match key_of(k.as_str(), v) {
            Some(key) => (k.clone(), Rc::new(Sourced::Object(vec![(key, v.clone())]))),
            None => (k.clone(), v.clone()),
        })
        .collect();
    Rc::new(Sourced::Object(fields))
}

/// The field `key` of an object.
fn child<'t>(tree: &'t Rc<Sourced>, key: &str) -> Option<&'t Rc<Sourced>> {
    match &**tree {
        Sourced::Object(fields) => fields
            .iter()
            .find(|(k, _)| k.as_str() == key)
            .map(|(_, v)| v),
        Sourced::Leaf { .. } => None,
    }
}

/// A leaf's string.
fn string_leaf(tree: &Rc<Sourced>) -> Option<Text> {
    match &**tree {
        Sourced::Leaf {
            value: Val::String(s),
            ..
        } => Some(s.clone()),
        _ => None,
    }
}

/// GEP-713's fold, each policy with the strategy its parent's annotation picked; the
/// settings that act at every level merged key by key, a `disable` at the most
/// specific level that sets such a provider field leaving only itself.
pub(super) fn fold(acts_per_level: Option<&ActsPerLevel>, entries: &[Rc<Joining>]) -> Rc<Sourced> {
    let Some(rule) = acts_per_level else {
        return gep713::fold(entries, &[]);
    };
    let paths: SmallVec<[String; 8]> = rule
        .every_level
        .iter()
        .chain(rule.per_provider)
        .map(|f| format!("/{f}"))
        .collect();
    let paths: SmallVec<[&str; 8]> = paths.iter().map(String::as_str).collect();
    let mut result = gep713::fold(entries, &paths);
    for field in rule.per_provider {
        if disabled_below(entries, field, rule.disables_all) {
            result = only_disable(&result, field, rule.disables_all);
        }
    }
    result
}

/// Whether the most specific entry that sets `field` prefers the child and sets
/// `field`'s `disables_all` there.
fn disabled_below(entries: &[Rc<Joining>], field: &str, disables_all: &str) -> bool {
    let set = |l: &Option<Layer>| l.as_ref().and_then(|l| child(&l.value, field).cloned());
    let Some(e) = entries
        .iter()
        .rev()
        .find(|e| set(&e.defaults).is_some() || set(&e.overrides).is_some())
    else {
        return false;
    };
    set(&e.defaults).is_some_and(|v| child(&v, disables_all).is_some())
}

/// `result` with `field` holding its `disables_all` only.
fn only_disable(result: &Rc<Sourced>, field: &str, disables_all: &str) -> Rc<Sourced> {
    let Sourced::Object(fields) = &**result else {
        return result.clone();
    };
    let fields = fields
        .iter()
        .map(|(k, v)| match (k.as_str() == field, &**v) {
            (true, Sourced::Object(inner)) => {
                let kept = inner
                    .iter()
                    .filter(|(c, _)| c.as_str() == disables_all)
                    .cloned()
                    .collect();
                (k.clone(), Rc::new(Sourced::Object(kept)))
            }
            _ => (k.clone(), v.clone()),
        })
        .collect();
    Rc::new(Sourced::Object(fields))
}

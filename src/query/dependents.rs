//! Who depends on an object: the policies whose spec names it (a Secret, a ConfigMap,
//! an ext-auth Service, a Backend), by which field, their status, and what becomes of
//! each without it, as its vendor's rule says (`catalog::Unresolved`).

use super::World;
use crate::catalog::references::{setting_left, settings};
use crate::catalog::Unresolved;
use crate::effective::PolicyStatus;
use crate::model::{BlindSpot, GroupKind, ObjRef};
use crate::topology::{PolicyId, PolicyReference, RefReason};
use serde::Serialize;

/// What becomes of a policy without the object it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Without {
    /// Its controller refuses the whole policy.
    Invalid,
    /// Its controller drops that entry and applies the rest.
    EntryDropped,
    /// Its controller leaves out the setting that names it and applies the policy's
    /// other settings.
    SettingDropped,
    /// Invalid: its controller keeps the policy but leaves the objects it targets out
    /// of the data plane's configuration.
    TargetsDropped,
    /// Invalid: its controller accepts the policy but reports it not enforced.
    NotEnforced,
    /// Nothing its controller does: it never reads the object (nothing matches the
    /// name until the object exists).
    NotRead,
    /// Its vendor does not document what its controller does.
    Undocumented,
}

impl Without {
    pub fn as_str(self) -> &'static str {
        match self {
            Without::Invalid => "Invalid",
            Without::EntryDropped => "entry dropped",
            Without::SettingDropped => "setting dropped",
            Without::TargetsDropped => "Invalid, targets left out",
            Without::NotEnforced => "Invalid, not enforced",
            Without::NotRead => "nothing matches it (not read)",
            Without::Undocumented => "undocumented",
        }
    }
}

/// One reference to the described object: the policy, the field (a JSON pointer), the
/// policy's status, how the reference resolves now, and what becomes of the policy
/// without the object.
#[derive(Clone, Debug, Serialize)]
pub struct Dependent {
    pub policy: ObjRef,
    pub path: String,
    pub(crate) status: PolicyStatus,
    /// How it resolves now: `null` when it does (`NotFound`, `Unchecked`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<RefReason>,
    #[serde(rename = "withoutIt")]
    pub without: Without,
    #[serde(skip)]
    pub(crate) policy_id: PolicyId,
}

/// `describe secret/NAME`, `configmap/NAME`, or any object that is no object of the
/// hierarchy: the policies that name it.
#[derive(Clone, Debug, Serialize)]
pub struct DependencyDescription {
    pub(crate) kind: &'static str,
    pub(crate) object: ObjRef,
    /// Whether the input holds the object.
    pub found: bool,
    #[serde(rename = "referencedBy")]
    pub referenced_by: Vec<Dependent>,
    #[serde(rename = "blindSpots")]
    pub(crate) blind_spots: Vec<BlindSpot>,
}

/// Whether references to `object` are references to `target` (a port of it too).
fn names(target: &ObjRef, object: &ObjRef) -> bool {
    target.name == object.name
        && target.kind == object.kind
        && target.group == object.group
        && target.namespace == object.namespace
}

/// Every reference to `object` (a port of it too) in the policies' specs, in policy
/// then field order.
pub(crate) fn dependents(world: &World, object: &ObjRef) -> Vec<Dependent> {
    let topology = &world.topology;
    let mut out = Vec::new();
    for pid in PolicyId::all(topology.policies().len()) {
        let refs = topology.references_of(pid);
        for r in refs.iter().filter(|r| names(&r.target, object)) {
            let rule = topology
                .kind_of(pid)
                .entry
                .references
                .get(r.field)
                .map(|f| f.unresolved);
            let without = match rule {
                Some(Unresolved::DropsEntry) => Without::EntryDropped,
                Some(Unresolved::RefusesWhenNoneResolves) => {
                    // Refused when no other entry of the field resolves.
                    let others = refs
                        .iter()
                        .any(|o| o.field == r.field && o.resolved && !names(&o.target, object));
                    match others {
                        true => Without::EntryDropped,
                        false => Without::Invalid,
                    }
                }
                Some(Unresolved::DropsSetting) => setting_dropped(world, pid, refs, r, object),
                Some(Unresolved::DropsTargets) => Without::TargetsDropped,
                Some(Unresolved::NotEnforced) => Without::NotEnforced,
                Some(Unresolved::NotRead) => Without::NotRead,
                Some(Unresolved::Undocumented) => Without::Undocumented,
                Some(Unresolved::RefusesPolicy) | None => Without::Invalid,
            };
            out.push(Dependent {
                policy: topology.policy(pid).obj_ref.clone(),
                path: r.path.clone(),
                status: world.statuses().overall[pid],
                reason: r.reason,
                without,
                policy_id: pid,
            });
        }
    }
    out.sort_by(|a, b| (&a.policy, &a.path).cmp(&(&b.policy, &b.path)));
    out
}

/// What becomes of policy `pid` without `object`, named at `r` by a field whose
/// controller leaves the setting out: Invalid when no other setting of the policy is
/// left (its other settings' `DropsSetting` references failing, or naming `object`).
fn setting_dropped(
    world: &World,
    pid: PolicyId,
    refs: &[PolicyReference],
    r: &PolicyReference,
    object: &ObjRef,
) -> Without {
    let topology = &world.topology;
    let policy = topology.policy(pid);
    let kind = topology.kind_of(pid);
    let spec = &topology.object(policy.object).spec;
    let settings = spec.with(|s| {
        s.as_object()
            .map(|m| settings(m, kind.entry.merge.rule_paths()))
            .unwrap_or_default()
    });
    let drops = |o: &PolicyReference| {
        kind.entry
            .references
            .get(o.field)
            .is_some_and(|f| f.unresolved == Unresolved::DropsSetting)
            && (names(&o.target, object) || !matches!(o.reason, None | Some(RefReason::Unchecked)))
    };
    let taken = refs
        .iter()
        .filter(|o| drops(o) || std::ptr::eq(*o, r))
        .map(|o| o.path.as_str());
    match setting_left(&settings, taken) {
        true => Without::SettingDropped,
        false => Without::Invalid,
    }
}

/// Whether any policy of the catalog may name objects of kind `gk` in its spec.
pub fn is_referenced_kind(world: &World, gk: &GroupKind) -> bool {
    world.topology.catalog().kinds.values().any(|k| {
        k.entry
            .references
            .iter()
            .any(|f| crate::catalog::references::kind_allowed(f, &gk.group, &gk.kind))
    })
}

/// Whether the input holds `object`.
pub(crate) fn in_input(world: &World, object: &ObjRef) -> bool {
    world.topology.objects().iter().any(|o| {
        o.name == object.name
            && o.kind == object.kind
            && o.namespace.as_deref() == object.namespace.as_deref()
            && o.group() == object.group.as_str()
    })
}

/// `describe` of an object that policies may name: who names it, and how.
pub fn describe_dependency(world: &World, object: &ObjRef) -> DependencyDescription {
    let blind_spots = world
        .topology
        .snapshot()
        .blind_spots
        .iter()
        .filter(|b| {
            b.group == object.group.as_str()
                && b.kind == object.kind.as_str()
                && (b.namespace.is_none() || b.namespace.as_deref() == object.namespace.as_deref())
        })
        .cloned()
        .collect();
    DependencyDescription {
        kind: "DependencyDescription",
        object: object.clone(),
        found: in_input(world, object),
        referenced_by: dependents(world, object),
        blind_spots,
    }
}

/// The objects of kind `gk` the input holds or a policy's spec names.
pub(crate) fn named_or_read(world: &World, gk: &GroupKind) -> Vec<ObjRef> {
    let topology = &world.topology;
    let read = topology
        .objects()
        .iter()
        .filter(|o| o.kind == gk.kind.as_str() && o.group() == gk.group.as_str())
        .map(|o| o.obj_ref());
    let named = topology
        .all_references()
        .map(|r| r.target.object())
        .filter(|r| r.group_kind() == *gk);
    let mut out: Vec<ObjRef> = read.chain(named).collect();
    out.sort();
    out.dedup();
    out
}

//! A policy object read for what the tool needs: its targets and its intent.
//! Anything unreadable becomes an `invalid` entry naming the field; the policy is
//! still listed (never dropped). Where it attaches is read in `targets`, how it merges
//! in `intent`.

use super::{Class, ClassOrigin, MergeModel, NamespaceRule, PolicyKind, Refuses};
use crate::model::Object;
use crate::model::{canonical_kind, GroupKind, ObjRef, ObjectId};
use crate::model::{Map, Val};

mod intent;
mod invalid;
mod ports;
mod selector_refs;
mod target_spec;
mod targets;

use intent::read_intent;
pub(crate) use intent::*;
pub(crate) use invalid::{FieldError, FieldProblem};
pub(crate) use ports::spec_at_port;
pub(crate) use selector_refs::pod_selector_queries;
use selector_refs::workload_selector_ref;
pub use target_spec::*;
pub(crate) use targets::{read_shaped_targets, read_targets, ref_namespace};

/// One policy object, read.
#[derive(Clone, Debug)]
pub struct Policy {
    pub obj_ref: ObjRef,
    pub(crate) kind: GroupKind,
    pub class: Class,
    pub(crate) class_origin: ClassOrigin,
    pub(crate) merge: MergeModel,
    pub(crate) creation_timestamp: Option<String>,
    pub(crate) targets: Vec<TargetSpec>,
    /// `selector` / `workloadSelector`, or a targetRefs entry picking workloads the tool
    /// does not resolve (Pods, when none of the policy's namespace is in the input):
    /// outside the hierarchy, shown but not resolved.
    pub(crate) workload_selector: Option<String>,
    pub(crate) intent: Intent,
    /// Envoy Gateway `mergeType`, when set.
    pub(crate) merge_type: Option<String>,
    /// Fields that could not be read, or that its controller refuses.
    pub invalid: Vec<FieldError>,
    /// Why its controller refuses it whole, if it does (a reference to a kind the
    /// kind's project never resolves): then it applies nowhere.
    pub rejected: Option<String>,
    /// What only some policies have (targets its vendor refuses, listeners reached by a
    /// port number), apart so that every other policy pays one pointer for it.
    pub rare: Option<Box<Rare>>,
    /// For a kind whose spec lists settings per port (`Sections::SpecPorts`), the JSON
    /// pointers to those lists: at each port only that port's entries apply
    /// (`spec_at_port`). Empty for the other kinds.
    pub(crate) spec_port_lists: &'static [&'static str],
    /// Index of the object in the snapshot.
    pub object: ObjectId,
}

/// What only some policies have, kept apart from `Policy` (most policies have none of
/// it, and a large cluster holds tens of thousands of policies).
#[derive(Clone, Debug, Default)]
pub struct Rare {
    /// The kinds its references name that its vendor refuses as targets (the kind's
    /// `other_target_kinds`): those targets are Invalid; its others stand only where
    /// its controller, not its CRD, refuses them (a CRD refuses the whole policy,
    /// `rejected`).
    pub(crate) refused_kinds: Vec<String>,
    /// Targets its vendor refuses it on while its other targets stand, each with what
    /// it is there (a setting its controller refuses on the target's kind: Invalid;
    /// Kong's Services of one rule naming different policies: Conflicted). The
    /// finding that says why is made where the refusal is found.
    pub refused_targets: Vec<(ObjRef, TargetRefusal)>,
    /// Kinds of target its controller refuses it on alone, each with the setting it
    /// refuses there (the kind's `refused_on`, `Refuses::ThatTarget`): what a
    /// `targetSelectors` entry picks of such a kind is refused as it is picked.
    pub(crate) refused_on_kinds: Vec<(&'static str, &'static str)>,
    /// The listener targets only a port number reached (agentgateway's `port` on a
    /// Gateway reference, made one target per listener on that port), not a name.
    pub(crate) by_port: Vec<ObjRef>,
}

/// What a policy is on a target its vendor refuses it on (`Rare::refused_targets`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetRefusal {
    /// Its controller refuses a setting on the target (Invalid there).
    Invalid,
    /// Its controller sets it Conflicted there (Accepted=False, reason Conflicted).
    Conflicted,
}

/// The settings (leaves) a value sets: a mapping's leaves, an empty mapping one (it sets
/// the field to `{}`), a null none (it only deletes in a patch).
pub(crate) fn value_leaf_count(v: &Val) -> usize {
    match v {
        Val::Object(m) if !m.is_empty() => m.values().map(value_leaf_count).sum(),
        Val::Null => 0,
        _ => 1,
    }
}

/// GEP-713's conflict resolution between two policies at the same level: the older
/// creationTimestamp first, then `namespace/name`. A missing timestamp sorts last.
pub(crate) fn precedence(a: &Policy, b: &Policy) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (&a.creation_timestamp, &b.creation_timestamp) {
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
    .then_with(|| ns_name_bytes(&a.obj_ref).cmp(ns_name_bytes(&b.obj_ref)))
}

/// The bytes of `ns_name()` (`namespace/name`), without building the string.
fn ns_name_bytes(reference: &ObjRef) -> impl Iterator<Item = u8> + '_ {
    let ns = reference
        .namespace
        .as_deref()
        .map(|ns| ns.bytes().chain([b'/']));
    ns.into_iter().flatten().chain(reference.name.bytes())
}

impl Rare {
    /// The rare part of a policy read with these: none when all are empty.
    fn of(
        refused_kinds: Vec<String>,
        refused_targets: Vec<(ObjRef, TargetRefusal)>,
        refused_on_kinds: Vec<(&'static str, &'static str)>,
    ) -> Option<Box<Rare>> {
        let none =
            refused_kinds.is_empty() && refused_targets.is_empty() && refused_on_kinds.is_empty();
        (!none).then(|| {
            Box::new(Rare {
                refused_kinds,
                refused_targets,
                refused_on_kinds,
                by_port: Vec::new(),
            })
        })
    }
}

impl Policy {
    /// What it is on `target` if its vendor refuses it there alone (`refused_targets`).
    pub(crate) fn refusal_on(&self, target: &ObjRef) -> Option<TargetRefusal> {
        self.rare
            .as_deref()?
            .refused_targets
            .iter()
            .find(|(refused, _)| refused == target)
            .map(|&(_, refusal)| refusal)
    }

    /// Refuses it on `target` alone (once), as `refusal`.
    pub(crate) fn refuse_on(&mut self, target: ObjRef, refusal: TargetRefusal) {
        if self.refusal_on(&target).is_none() {
            self.rare_mut().refused_targets.push((target, refusal));
        }
    }

    /// Its `rare` part, made when first needed.
    pub(crate) fn rare_mut(&mut self) -> &mut Rare {
        self.rare.get_or_insert_with(Box::default)
    }

    /// The listener targets only a port number reached (`Rare::by_port`).
    pub(crate) fn by_port(&self) -> &[ObjRef] {
        self.rare.as_deref().map_or(&[], |rare| &rare.by_port)
    }

    /// (the kind, the setting) its controller refuses on a target of `kind` alone, if
    /// it sets one (`refused_on_kinds`).
    pub(crate) fn setting_refused_on(&self, kind: &str) -> Option<(&'static str, &'static str)> {
        self.rare
            .as_deref()?
            .refused_on_kinds
            .iter()
            .find(|(refused, _)| *refused == kind)
            .copied()
    }

    /// Whether its vendor refuses its targets of `kind` (`refused_kinds`).
    pub(crate) fn refuses_kind(&self, kind: &str) -> bool {
        self.rare
            .as_deref()
            .is_some_and(|rare| rare.refused_kinds.iter().any(|k| k == kind))
    }

    /// The merge strategy it takes part in the fold with: its own (GEP-713's
    /// `defaults`/`overrides`) or, for kinds without strategy fields, its kind's.
    pub(crate) fn strategy_name(&self) -> String {
        match self.merge {
            MergeModel::Gep713 { .. } => self.intent.strategy_name(),
            // GEP-713's None: several on one target conflict, nothing is merged.
            MergeModel::None => "None".to_string(),
            MergeModel::Accumulated => "None (side by side)".to_string(),
            MergeModel::MostSpecificWins => "Atomic Defaults".to_string(),
            MergeModel::PatchDefaults => "Patch Defaults".to_string(),
            MergeModel::KeyedFields { .. } => "Merge Defaults".to_string(),
            MergeModel::EnvoyMergeType => match &self.merge_type {
                Some(m) => format!("mergeType {m}"),
                None => "Atomic Defaults".to_string(),
            },
            MergeModel::MostSpecificReplaces => "Atomic Defaults".to_string(),
            MergeModel::KgatewayPriority => "parent's inherited-policy-priority".to_string(),
        }
    }
}

/// Fields that say where a policy attaches or how it merges, not what it sets.
pub(crate) const WRAPPER_FIELDS: &[&str] = &[
    "targetRef",
    "targetRefs",
    "targetSelectors",
    "strategy",
    "mergeType",
    "selector",
    "workloadSelector",
];

/// Reads a policy object of a known policy kind.
pub(crate) fn read_policy(object: &Object, index: ObjectId, pk: &PolicyKind) -> Policy {
    let mut invalid = Vec::new();
    let no_spec = Map::new();
    let spec = spec_of(object, pk, &no_spec, &mut invalid);
    let obj_ref = object.obj_ref();
    let mut targets = read_shaped_targets(
        spec,
        object.namespace.as_deref(),
        pk.entry.sections,
        &mut invalid,
    );
    // Pods picked by label are targets only for the kinds the registry says pick them.
    let pods_resolved = pk.entry.targeting.pod_selector;
    if !pods_resolved {
        targets.retain(|t| !matches!(t, TargetSpec::Pods(_)));
    }
    // A workload selector binds the policy only when no targetRef does (Istio: "has
    // targetRef set, should be effective"). A targetRefs entry that selects workloads
    // this kind does not resolve is a target of its own, beside the others, said
    // whatever else it names.
    let workload_selector = ["selector", "workloadSelector"]
        .iter()
        .find(|f| spec.get(f).is_some_and(|v| !v.is_null()))
        .map(|f| format!("spec.{f}"))
        .filter(|_| targets.is_empty())
        .or_else(|| workload_selector_ref(spec, pods_resolved));
    let untargeted = targets.is_empty() && workload_selector.is_none() && invalid.is_empty();
    if untargeted && pk.entry.targeting.workload_selector {
        // Istio: a workload policy with neither a selector nor a targetRef applies to
        // every workload of its namespace (the whole mesh in the root namespace).
        if let Some(ns) = &object.namespace {
            targets.push(TargetSpec::Ref(ObjRef::new("", "Namespace", None, ns)));
        }
    } else if untargeted
        && !pk.entry.targeting.extension_ref
        && pk.entry.targeting.target_annotation.is_none()
    {
        invalid.push(FieldError::new("spec.targetRefs", FieldProblem::NoTarget));
    }
    let merge_type = spec
        .get("mergeType")
        .and_then(Val::as_str)
        .map(str::to_string);
    let intent = read_intent(spec, pk.entry.merge, &mut invalid);
    let refused_kinds = refused_target_kinds(spec, pk, &mut invalid);
    let refused_on_kinds = refused_on_kinds(spec, pk);
    let (refused_targets, rejected) = refusals(spec, object, &targets, pk, &mut invalid);
    Policy {
        obj_ref,
        kind: pk.group_kind(),
        class: pk.entry.class,
        class_origin: pk.origin,
        merge: pk.entry.merge,
        creation_timestamp: object.creation_timestamp.clone(),
        targets,
        workload_selector,
        intent,
        merge_type,
        invalid,
        rejected,
        rare: Rare::of(refused_kinds, refused_targets, refused_on_kinds),
        spec_port_lists: pk.entry.sections.spec_port_lists(),
        object: index,
    }
}

/// The spec proper of `object`: its mapping, else `no_spec` and (but for the workload
/// policies that may leave it out) why in `invalid`.
fn spec_of<'o>(
    object: &'o Object,
    pk: &PolicyKind,
    no_spec: &'o Map,
    invalid: &mut Vec<FieldError>,
) -> &'o Map {
    match &*object.spec {
        Val::Object(m) => m,
        // Istio's workload policies may leave out their spec: they then apply, as they
        // are, to every workload of the namespace.
        Val::Null if pk.entry.targeting.workload_selector => no_spec,
        Val::Null => {
            invalid.push(FieldError::new("spec", FieldProblem::Missing));
            no_spec
        }
        _ => {
            invalid.push(FieldError::new("spec", FieldProblem::MustBe("a mapping")));
            no_spec
        }
    }
}

/// What the policy's vendor refuses: the targets it refuses the policy on alone, and why
/// it refuses the policy whole, if it does; each refusal also goes to `invalid`.
fn refusals(
    spec: &Map,
    object: &Object,
    targets: &[TargetSpec],
    pk: &PolicyKind,
    invalid: &mut Vec<FieldError>,
) -> (Vec<(ObjRef, TargetRefusal)>, Option<String>) {
    let mut refused_targets = Vec::new();
    for refused in refused_on_targets(spec, targets, pk) {
        if let FieldProblem::UnsupportedOnTarget {
            target,
            whole: false,
            ..
        } = &refused.problem
        {
            refused_targets.push((target.clone(), TargetRefusal::Invalid));
        }
        invalid.push(refused);
    }
    ports::refused_sections(spec, pk.entry.sections, invalid);
    // A field its CRD refuses (a target's kind, a port where none may be, a setting on
    // a kind of target): the API server refuses the object whole.
    let refused_whole = invalid
        .iter()
        .find(|e| e.problem.refused_by_api_server())
        .map(|e| e.problem.to_string());
    let rejected = refused_whole.or_else(|| {
        refused_namespace(targets, object.namespace.as_deref(), pk).map(|refused| {
            let why = refused.problem.to_string();
            invalid.push(refused);
            why
        })
    });
    (refused_targets, rejected)
}

/// Whether `kind` (as a reference writes it, canonical) is among `allowed`; the
/// experimental `XListenerSet` is taken for the `ListenerSet` it became, and back.
pub(crate) fn kind_allowed(allowed: &[&str], kind: &str) -> bool {
    let alias = match kind {
        "ListenerSet" => Some("XListenerSet"),
        "XListenerSet" => Some("ListenerSet"),
        _ => None,
    };
    allowed.iter().any(|&a| a == kind || Some(a) == alias)
}

/// The kinds the policy's `targetRef`, `targetRefs` and `targetSelectors` name that its
/// vendor refuses as targets (the kind's `other_target_kinds`, outside its
/// `target_kinds`), each reference a `FieldError` at its `kind`. Nothing when the
/// vendor accepts other kinds or what it does is not known.
fn refused_target_kinds(spec: &Map, pk: &PolicyKind, invalid: &mut Vec<FieldError>) -> Vec<String> {
    let Some(by) = pk.entry.other_target_kinds.refused_by() else {
        return Vec::new();
    };
    if pk.entry.target_kinds.is_empty() {
        return Vec::new();
    }
    let mut refused = Vec::new();
    for (field, entry) in reference_entries(spec) {
        // Misshapen references are reported where targets are read.
        let Some(written) = entry
            .get("kind")
            .and_then(Val::as_str)
            .filter(|k| !k.is_empty())
        else {
            continue;
        };
        let kind = canonical_kind(written);
        if kind_allowed(pk.entry.target_kinds, &kind) {
            continue;
        }
        invalid.push(FieldError::new(
            format!("{field}.kind"),
            FieldProblem::TargetKindNotAllowed {
                named: kind.to_string(),
                allowed: pk
                    .entry
                    .target_kinds
                    .iter()
                    .map(|k| k.to_string())
                    .collect(),
                by,
                whole: pk.entry.other_target_kinds.refuses_whole(),
            },
        ));
        if !refused.iter().any(|k| *k == *kind) {
            refused.push(kind.to_string());
        }
    }
    refused
}

/// The settings its vendor refuses on the targets of a kind the policy names (the
/// kind's `refused_on`): for a refusal of the whole policy (its CRD's), the first
/// target and field found; for its controller's, one for each target so refused.
fn refused_on_targets(spec: &Map, targets: &[TargetSpec], pk: &PolicyKind) -> Vec<FieldError> {
    let mut refused = Vec::new();
    for rule in pk.entry.refused_on {
        let Some(field) = rule
            .fields
            .iter()
            .find(|f| spec.get(f).is_some_and(|v| !v.is_null()))
        else {
            continue;
        };
        let whole = rule.refuses == Refuses::WholePolicy;
        let of_kind = targets.iter().filter_map(|t| match t {
            TargetSpec::Ref(r) if r.kind == rule.kind => Some(r),
            TargetSpec::Ref(_) | TargetSpec::Selector { .. } | TargetSpec::Pods(_) => None,
        });
        for target in of_kind {
            refused.push(FieldError::new(
                format!("spec.{field}"),
                FieldProblem::UnsupportedOnTarget {
                    target: target.clone(),
                    field,
                    kind: rule.kind,
                    whole,
                },
            ));
            if whole {
                return refused;
            }
        }
    }
    refused
}

/// (target kind, the setting refused there) for each of the kind's `refused_on` rules
/// that refuse a target alone and whose settings the policy sets.
fn refused_on_kinds(spec: &Map, pk: &PolicyKind) -> Vec<(&'static str, &'static str)> {
    pk.entry
        .refused_on
        .iter()
        .filter(|rule| rule.refuses == Refuses::ThatTarget)
        .filter_map(|rule| {
            let field = rule
                .fields
                .iter()
                .find(|f| spec.get(f).is_some_and(|v| !v.is_null()))?;
            Some((rule.kind, *field))
        })
        .collect()
}

/// A target in another namespace, for a kind whose CRD refuses one (Istio: CEL
/// `self.size() == 0` on `targetRef(s).namespace`, "cross namespace referencing is not
/// currently supported").
fn refused_namespace(
    targets: &[TargetSpec],
    policy_ns: Option<&str>,
    pk: &PolicyKind,
) -> Option<FieldError> {
    if pk.entry.namespaces != NamespaceRule::OwnOrMeshRoot {
        return None;
    }
    targets.iter().find_map(|t| match t {
        TargetSpec::Ref(r) if r.namespace.is_some() && r.namespace.as_deref() != policy_ns => {
            Some(FieldError::new(
                "spec.targetRefs",
                FieldProblem::CrossNamespace { target: r.clone() },
            ))
        }
        TargetSpec::Ref(_) | TargetSpec::Selector { .. } | TargetSpec::Pods(_) => None,
    })
}

/// Every reference entry of `spec` with its field path: `targetRef`, then each of
/// `targetRefs` and `targetSelectors` (a field that is not a list gives none).
pub(super) fn reference_entries(spec: &Map) -> impl Iterator<Item = (String, &Val)> {
    let single = spec
        .get("targetRef")
        .map(|entry| ("spec.targetRef".to_string(), entry));
    let listed = ["targetRefs", "targetSelectors"]
        .into_iter()
        .flat_map(|field| {
            let list = spec.get(field).and_then(Val::as_array);
            list.unwrap_or_default()
                .iter()
                .enumerate()
                .map(move |(i, entry)| (format!("spec.{field}[{i}]"), entry))
        });
    single.into_iter().chain(listed)
}

/// The value at JSON pointer `field` (`/default/ports`) in `spec`.
pub(super) fn pointer<'v>(spec: &'v Map, field: &str) -> Option<&'v Val> {
    let mut parts = field.trim_start_matches('/').split('/');
    let mut value = spec.get(parts.next()?)?;
    for part in parts {
        value = value.get(part)?;
    }
    Some(value)
}

#[cfg(test)]
mod tests;

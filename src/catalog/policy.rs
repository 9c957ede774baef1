//! A policy object read for what the tool needs: its targets and its intent.
//! Anything unreadable becomes an `invalid` entry naming the field; the policy is
//! still listed (never dropped).

use super::{Class, ClassSource, MergeModel, NamespaceRule, PolicyKind};
use crate::model::Object;
use crate::model::{normalize_group, GroupKind, ObjRef, ObjectId};
use crate::model::{Map, Text, Val};

/// What a target entry names.
#[derive(Clone, Debug, PartialEq)]
pub enum TargetSpec {
    /// `targetRef` / `targetRefs[i]`, namespace filled in, group normalised.
    Ref(ObjRef),
    /// `targetSelectors[i]`: objects of this kind whose labels match, in the namespaces
    /// it names (the policy's own unless Envoy Gateway's `namespaces` says otherwise).
    Selector {
        group_kind: GroupKind,
        namespaces: SelectorScope,
        selector: LabelSelector,
    },
}

/// The namespaces a `targetSelectors` entry looks in: Envoy Gateway's
/// `namespaces: {from: Same | All | Selector, selector}` (a match in another namespace
/// than the policy's needs a ReferenceGrant there).
#[derive(Clone, Debug, PartialEq)]
pub enum SelectorScope {
    /// The policy's namespace (none: a cluster-scoped kind).
    Same(Option<String>),
    All,
    /// Namespaces whose labels match.
    Labelled(LabelSelector),
}

/// `matchLabels` + `matchExpressions`, as Kubernetes evaluates them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabelSelector {
    pub match_labels: Vec<(String, String)>,
    pub match_expressions: Vec<(String, String, Vec<String>)>,
}

impl LabelSelector {
    pub fn parse(v: &Val, field: &str) -> Result<LabelSelector, (String, String)> {
        let mut sel = LabelSelector::default();
        let Some(m) = v.as_object() else {
            return Err((field.into(), "must be a mapping".into()));
        };
        if let Some(ml) = m.get("matchLabels").filter(|v| !v.is_null()) {
            let ml = ml.as_object().ok_or_else(|| {
                (
                    format!("{field}.matchLabels"),
                    "must be a map of strings".into(),
                )
            })?;
            for (k, v) in ml {
                let v = v.as_str().ok_or_else(|| {
                    (
                        format!("{field}.matchLabels.{k}"),
                        "must be a string".into(),
                    )
                })?;
                sel.match_labels.push((k.to_string(), v.to_string()));
            }
        }
        if let Some(me) = m.get("matchExpressions").filter(|v| !v.is_null()) {
            let me = me
                .as_array()
                .ok_or_else(|| (format!("{field}.matchExpressions"), "must be a list".into()))?;
            for (i, e) in me.iter().enumerate() {
                let f = format!("{field}.matchExpressions[{i}]");
                let key = e.get("key").and_then(Val::as_str);
                let op = e.get("operator").and_then(Val::as_str);
                let (Some(key), Some(op)) = (key, op) else {
                    return Err((f, "needs string key and operator".into()));
                };
                if !matches!(op, "In" | "NotIn" | "Exists" | "DoesNotExist") {
                    return Err((format!("{f}.operator"), format!("unknown operator {op:?}")));
                }
                let values = match e.get("values") {
                    None | Some(Val::Null) => Vec::new(),
                    Some(Val::Array(a)) => a
                        .iter()
                        .map(|v| v.as_str().map(str::to_string))
                        .collect::<Option<Vec<_>>>()
                        .ok_or_else(|| {
                            (format!("{f}.values"), "must be a list of strings".into())
                        })?,
                    Some(_) => {
                        return Err((format!("{f}.values"), "must be a list of strings".into()))
                    }
                };
                sel.match_expressions.push((key.into(), op.into(), values));
            }
        }
        Ok(sel)
    }

    pub fn matches(&self, labels: &std::collections::BTreeMap<String, String>) -> bool {
        self.match_labels
            .iter()
            .all(|(k, v)| labels.get(k) == Some(v))
            && self.match_expressions.iter().all(|(k, op, vals)| {
                let have = labels.get(k);
                match op.as_str() {
                    "In" => have.is_some_and(|h| vals.contains(h)),
                    "NotIn" => have.is_none_or(|h| !vals.contains(h)),
                    "Exists" => have.is_some(),
                    "DoesNotExist" => have.is_none(),
                    _ => false,
                }
            })
    }
}

/// defaults vs overrides (GEP-713 strategy families).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    Defaults,
    Overrides,
}

/// How the spec proper combines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum How {
    Atomic,
    /// RFC 7396 JSON Merge Patch.
    Patch,
    /// Keyed rules: the winner per rule.
    Merge,
}

/// A merge strategy as a policy declares it (or as its kind implies).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Strategy {
    pub mode: Mode,
    pub how: How,
}

impl Strategy {
    pub(crate) const ATOMIC_DEFAULTS: Strategy = Strategy {
        mode: Mode::Defaults,
        how: How::Atomic,
    };

    /// GEP-713's names: "Atomic Defaults", "Patch Overrides"...
    pub fn name(self) -> &'static str {
        match (self.how, self.mode) {
            (How::Atomic, Mode::Defaults) => "Atomic Defaults",
            (How::Atomic, Mode::Overrides) => "Atomic Overrides",
            (How::Patch, Mode::Defaults) => "Patch Defaults",
            (How::Patch, Mode::Overrides) => "Patch Overrides",
            (How::Merge, Mode::Defaults) => "Merge Defaults",
            (How::Merge, Mode::Overrides) => "Merge Overrides",
        }
    }
}

/// What a policy asks for, read per its kind's merge model.
#[derive(Clone, Debug, PartialEq)]
pub enum Intent {
    /// One spec proper with one strategy (GEP-713's current shape, bare specs, and
    /// every kind whose model has no per-policy strategy).
    Stack { strategy: Strategy, spec: Stanza },
    /// The older GEP-2649 shape: `default:` and `override:` stanzas, merged per field.
    Dual { default: Stanza, overrides: Stanza },
}

/// Where settings are in a policy's spec. They are read from the policy's object
/// when needed, never copied.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stanza {
    /// The spec itself (`None`) or the mapping under this field of it, without the
    /// fields that say where the policy attaches or how it merges.
    Proper(Option<&'static str>),
    /// The mapping under this field as written (GEP-2649's `default:`, `override:`).
    Whole(&'static str),
}

impl Stanza {
    /// The settings in `spec` (the policy object's), in the order they are written.
    /// An empty mapping has none.
    pub fn settings(self, spec: &Val) -> impl Iterator<Item = (&Text, &Val)> {
        let (field, proper) = match self {
            Stanza::Proper(field) => (field, true),
            Stanza::Whole(field) => (Some(field), false),
        };
        let map = match field {
            None => spec.as_object(),
            Some(f) => spec.get(f).and_then(Val::as_object),
        };
        map.into_iter()
            .flatten()
            .filter(move |(k, _)| !proper || !WRAPPER_FIELDS.contains(&&***k))
    }

    /// How many settings (leaves) it holds; an empty stanza holds none.
    pub(crate) fn leaf_count(self, spec: &Val) -> usize {
        self.settings(spec).map(|(_, v)| value_leaf_count(v)).sum()
    }
}

impl Intent {
    /// Every setting the policy makes, across its stanzas (`spec` is the object's).
    pub fn settings<'v>(&self, spec: &'v Val) -> Vec<(&'v Text, &'v Val)> {
        match self {
            Intent::Stack { spec: s, .. } => s.settings(spec).collect(),
            Intent::Dual { default, overrides } => default
                .settings(spec)
                .chain(overrides.settings(spec))
                .collect(),
        }
    }

    /// How many settings (leaves) the policy sets: what "its whole spec survives" counts.
    /// `spec` is the policy object's.
    pub(crate) fn leaf_count(&self, spec: &Val) -> usize {
        match self {
            Intent::Stack { spec: s, .. } => s.leaf_count(spec),
            Intent::Dual { default, overrides } => {
                default.leaf_count(spec) + overrides.leaf_count(spec)
            }
        }
    }

    pub(crate) fn strategy_name(&self) -> String {
        match self {
            Intent::Stack { strategy, .. } => strategy.name().to_string(),
            Intent::Dual { .. } => "default + override (per field)".to_string(),
        }
    }
}

/// One policy object, read.
#[derive(Clone, Debug)]
pub struct Policy {
    pub obj_ref: ObjRef,
    pub kind: GroupKind,
    pub class: Class,
    pub class_source: ClassSource,
    pub merge: MergeModel,
    pub creation_timestamp: Option<String>,
    pub targets: Vec<TargetSpec>,
    /// `selector` / `workloadSelector`: outside the hierarchy, shown but not resolved.
    pub workload_selector: Option<String>,
    pub intent: Intent,
    /// Envoy Gateway `mergeType`, when set.
    pub merge_type: Option<String>,
    /// Fields that could not be read: (field path, message).
    pub invalid: Vec<(String, String)>,
    /// Why its controller refuses it whole, if it does (a reference to a kind the
    /// kind's project never resolves): then it applies nowhere.
    pub rejected: Option<String>,
    /// Index of the object in the snapshot.
    pub object: ObjectId,
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
pub fn precedence(a: &Policy, b: &Policy) -> std::cmp::Ordering {
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
fn ns_name_bytes(r: &ObjRef) -> impl Iterator<Item = u8> + '_ {
    let ns = r.namespace.as_deref().map(|ns| ns.bytes().chain([b'/']));
    ns.into_iter().flatten().chain(r.name.bytes())
}

impl Policy {
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
            MergeModel::KgatewayPriority => "parent's inherited-policy-priority".to_string(),
        }
    }
}

/// Fields that say where a policy attaches or how it merges, not what it sets.
const WRAPPER_FIELDS: &[&str] = &[
    "targetRef",
    "targetRefs",
    "targetSelectors",
    "strategy",
    "mergeType",
    "selector",
    "workloadSelector",
];

use crate::model::{canonical_kind, default_group_for, is_cluster_scoped};

/// Where a policy in namespace `ns` says it attaches: `targetRef`, `targetRefs` and
/// `targetSelectors`, in that order; what cannot be read goes to `invalid`.
pub(crate) fn read_targets(
    spec: &Map,
    ns: Option<&str>,
    invalid: &mut Vec<(String, String)>,
) -> Vec<TargetSpec> {
    let mut targets = Vec::new();
    if let Some(v) = spec.get("targetRef").filter(|v| !v.is_null()) {
        match read_ref(v, ns, || "spec.targetRef".to_string()) {
            Ok(r) => push_sections(v, r, "spec.targetRef", &mut targets, invalid),
            Err(e) => invalid.push(e),
        }
    }
    if let Some(v) = spec.get("targetRefs").filter(|v| !v.is_null()) {
        match v.as_array() {
            Some(list) => {
                for (i, item) in list.iter().enumerate() {
                    if is_selector_ref(item) {
                        // Bound by labels to workloads (read_policy says so), not named.
                        continue;
                    }
                    match read_ref(item, ns, || format!("spec.targetRefs[{i}]")) {
                        Ok(r) => {
                            let field = format!("spec.targetRefs[{i}]");
                            push_sections(item, r, &field, &mut targets, invalid)
                        }
                        Err(e) => invalid.push(e),
                    }
                }
            }
            None => invalid.push((
                "spec.targetRefs".into(),
                "must be a list of references".into(),
            )),
        }
    }
    if let Some(v) = spec.get("targetSelectors").filter(|v| !v.is_null()) {
        match v.as_array() {
            Some(list) => {
                for (i, item) in list.iter().enumerate() {
                    let field = format!("spec.targetSelectors[{i}]");
                    match read_selector(item, ns, &field) {
                        Ok(t) => targets.push(t),
                        Err(e) => invalid.push(e),
                    }
                }
            }
            None => invalid.push(("spec.targetSelectors".into(), "must be a list".into())),
        }
    }
    // Kept for the life of the command, a list per policy: no room to spare.
    targets.shrink_to_fit();
    targets
}

/// A targetRefs entry that picks its targets by a label `selector` instead of a name
/// (GKE's `{kind: Pod, selector}` and `{kind: Namespace, selector: {}}`, the direction of
/// GEP-3779): outside the hierarchy the tool builds, like a workload selector.
fn is_selector_ref(item: &Val) -> bool {
    item.get("selector").is_some_and(|v| !v.is_null())
        && item.get("name").is_none_or(|v| v.is_null())
}

/// The reference `r` read from `item`, once, or once per name of its `sectionNames`
/// list (Azure Application Gateway for Containers' pre-GEP-2648 shape: one targetRef
/// naming several listeners or rules).
fn push_sections(
    item: &Val,
    r: ObjRef,
    field: &str,
    targets: &mut Vec<TargetSpec>,
    invalid: &mut Vec<(String, String)>,
) {
    let names = match item.get("sectionNames") {
        None | Some(Val::Null) => return targets.push(TargetSpec::Ref(r)),
        Some(Val::Array(names)) => names,
        Some(_) => {
            invalid.push((
                format!("{field}.sectionNames"),
                "must be a list of names".into(),
            ));
            return targets.push(TargetSpec::Ref(r));
        }
    };
    let mut any = false;
    for (j, n) in names.iter().enumerate() {
        match n.as_str().filter(|n| !n.is_empty()) {
            Some(n) => {
                any = true;
                targets.push(TargetSpec::Ref(r.clone().with_section(Some(n))));
            }
            None => invalid.push((
                format!("{field}.sectionNames[{j}]"),
                "must be a non-empty string".into(),
            )),
        }
    }
    // An empty list names no section: the whole object.
    if !any {
        targets.push(TargetSpec::Ref(r));
    }
}

/// Reads a policy object of a known policy kind.
pub(crate) fn read_policy(o: &Object, index: ObjectId, pk: &PolicyKind) -> Policy {
    let mut invalid = Vec::new();
    let no_spec = Map::new();
    let spec = match &*o.spec {
        Val::Object(m) => m,
        // Istio's workload policies may leave out their spec: they then apply, as they
        // are, to every workload of the namespace.
        Val::Null if pk.targeting.workload_selector => &no_spec,
        Val::Null => {
            invalid.push(("spec".into(), "is missing".into()));
            &no_spec
        }
        _ => {
            invalid.push(("spec".into(), "must be a mapping".into()));
            &no_spec
        }
    };
    let obj_ref = o.obj_ref();
    let mut targets = read_targets(spec, o.namespace.as_deref(), &mut invalid);
    // A workload selector binds the policy only when no targetRef does (Istio: "has
    // targetRef set, should be effective").
    let selector_ref = spec
        .get("targetRefs")
        .and_then(Val::as_array)
        .and_then(|refs| refs.iter().position(is_selector_ref))
        .map(|i| format!("spec.targetRefs[{i}].selector"));
    let workload_selector = ["selector", "workloadSelector"]
        .iter()
        .find(|f| spec.get(f).is_some_and(|v| !v.is_null()))
        .map(|f| format!("spec.{f}"))
        .or(selector_ref)
        .filter(|_| targets.is_empty());
    let untargeted = targets.is_empty() && workload_selector.is_none() && invalid.is_empty();
    if untargeted && pk.targeting.workload_selector {
        // Istio: a workload policy with neither a selector nor a targetRef applies to
        // every workload of its namespace (the whole mesh in the root namespace).
        if let Some(ns) = &o.namespace {
            targets.push(TargetSpec::Ref(ObjRef::new("", "Namespace", None, ns)));
        }
    } else if untargeted && !pk.targeting.extension_ref && pk.targeting.target_annotation.is_none()
    {
        invalid.push((
            "spec.targetRefs".into(),
            "the policy names no target (targetRef, targetRefs or targetSelectors)".into(),
        ));
    }
    let merge_type = spec
        .get("mergeType")
        .and_then(Val::as_str)
        .map(str::to_string);
    let intent = read_intent(spec, pk.merge, &mut invalid);
    let rejected = unresolvable_ref(spec, pk)
        .or_else(|| refused_namespace(&targets, o.namespace.as_deref(), pk))
        .map(|(field, why)| {
            invalid.push((field, why.clone()));
            why
        });
    Policy {
        obj_ref,
        kind: pk.group_kind(),
        class: pk.class,
        class_source: pk.source,
        merge: pk.merge,
        creation_timestamp: o.creation_timestamp.clone(),
        targets,
        workload_selector,
        intent,
        merge_type,
        invalid,
        rejected,
        object: index,
    }
}

/// A target in another namespace, for a kind whose CRD refuses one (Istio: CEL
/// `self.size() == 0` on `targetRef(s).namespace`, "cross namespace referencing is not
/// currently supported"): (field, why).
fn refused_namespace(
    targets: &[TargetSpec],
    policy_ns: Option<&str>,
    pk: &PolicyKind,
) -> Option<(String, String)> {
    if pk.namespaces != NamespaceRule::OwnOrMeshRoot {
        return None;
    }
    targets.iter().find_map(|t| match t {
        TargetSpec::Ref(r) if r.namespace.is_some() && r.namespace.as_deref() != policy_ns => {
            Some((
                "spec.targetRefs".to_string(),
                format!(
                    "names {r} in another namespace: its CRD accepts no namespace in a reference (cross-namespace references are not supported)"
                ),
            ))
        }
        _ => None,
    })
}

/// The first reference in the spec to an object of a kind the policy's kind may not
/// name (the registry's `refs`): (field, why its controller refuses the policy).
fn unresolvable_ref(spec: &Map, pk: &PolicyKind) -> Option<(String, String)> {
    for &(field, allowed) in pk.refs {
        let Some(list) = pointer(spec, field).and_then(Val::as_array) else {
            continue;
        };
        for (i, r) in list.iter().enumerate() {
            let group = normalize_group(r.get("group").and_then(Val::as_str).unwrap_or(""));
            let Some(kind) = r.get("kind").and_then(Val::as_str) else {
                continue;
            };
            if !allowed.iter().any(|&(g, k)| g == group && k == kind) {
                let named = if group.is_empty() {
                    kind.to_string()
                } else {
                    format!("{group}/{kind}")
                };
                let kinds: Vec<&str> = allowed.iter().map(|(_, k)| *k).collect();
                return Some((
                    format!("spec{}[{i}]", field.replace('/', ".")),
                    format!(
                        "names {named}, a kind it cannot refer to ({}): its controller refuses the policy",
                        kinds.join(", ")
                    ),
                ));
            }
        }
    }
    None
}

fn pointer<'v>(spec: &'v Map, field: &str) -> Option<&'v Val> {
    let mut parts = field.trim_start_matches('/').split('/');
    let mut v = spec.get(parts.next()?)?;
    for p in parts {
        v = v.get(p)?;
    }
    Some(v)
}

/// `field` names the reference in messages; it is built only for one.
fn read_ref(
    v: &Val,
    policy_ns: Option<&str>,
    field: impl Fn() -> String,
) -> Result<ObjRef, (String, String)> {
    let m = v
        .as_object()
        .ok_or_else(|| (field(), "must be a mapping with kind and name".to_string()))?;
    let s = |k: &str| -> Result<Option<&str>, (String, String)> {
        match m.get(k) {
            None | Some(Val::Null) => Ok(None),
            Some(Val::String(s)) => Ok(Some(&**s)),
            Some(_) => Err((format!("{}.{k}", field()), "must be a string".into())),
        }
    };
    let kind = s("kind")?
        .filter(|k| !k.is_empty())
        .ok_or_else(|| (format!("{}.kind", field()), "is missing".to_string()))?;
    let name = s("name")?
        .filter(|k| !k.is_empty())
        .ok_or_else(|| (format!("{}.name", field()), "is missing".to_string()))?;
    // kind is matched case-insensitively for core kinds some examples write in lower case.
    let kind = canonical_kind(kind);
    let group = match s("group")? {
        Some(g) => normalize_group(g).to_string(),
        None => default_group_for(&kind).to_string(),
    };
    let namespace = ref_namespace(&kind, s("namespace")?, policy_ns).map(str::to_string);
    // Flomesh names a route rule by `rule` (LocalFilterPolicyTargetReference).
    let section = s("sectionName")?.or(s("rule")?).filter(|s| !s.is_empty());
    Ok(ObjRef {
        group: group.into(),
        kind: kind.into(),
        namespace: namespace.map(Text::from),
        name: name.into(),
        section: section.map(Text::from),
    })
}

/// A reference's namespace: none for a cluster-scoped kind (as `canonical_kind`
/// writes it), else the one it names, else the policy's own.
pub(crate) fn ref_namespace<'a>(
    kind: &str,
    written: Option<&'a str>,
    policy_ns: Option<&'a str>,
) -> Option<&'a str> {
    match is_cluster_scoped(kind) {
        true => None,
        false => written.or(policy_ns),
    }
}

fn read_selector(
    v: &Val,
    policy_ns: Option<&str>,
    field: &str,
) -> Result<TargetSpec, (String, String)> {
    let m = v
        .as_object()
        .ok_or_else(|| (field.to_string(), "must be a mapping".to_string()))?;
    let kind = m
        .get("kind")
        .and_then(Val::as_str)
        .filter(|k| !k.is_empty())
        .ok_or_else(|| (format!("{field}.kind"), "is missing".to_string()))?;
    let kind = canonical_kind(kind);
    let group = match m.get("group").and_then(Val::as_str) {
        Some(g) => normalize_group(g).to_string(),
        None => default_group_for(&kind).to_string(),
    };
    // An empty selector selects every object of the kind in scope, as Kubernetes
    // label selectors do (Envoy Gateway relies on it with `namespaces`).
    let selector = LabelSelector::parse(v, field)?;
    let same = if is_cluster_scoped(&kind) {
        None
    } else {
        policy_ns.map(str::to_string)
    };
    let namespaces = match m.get("namespaces").filter(|n| !n.is_null()) {
        None => SelectorScope::Same(same),
        Some(n) => {
            let from = n.get("from").and_then(Val::as_str).unwrap_or("Same");
            match from {
                "Same" => SelectorScope::Same(same),
                "All" => SelectorScope::All,
                "Selector" => {
                    let sel = match n.get("selector").filter(|s| !s.is_null()) {
                        Some(s) => {
                            LabelSelector::parse(s, &format!("{field}.namespaces.selector"))?
                        }
                        None => LabelSelector::default(),
                    };
                    SelectorScope::Labelled(sel)
                }
                other => {
                    return Err((
                        format!("{field}.namespaces.from"),
                        format!("unknown value {other:?} (Same, All or Selector)"),
                    ))
                }
            }
        }
    };
    Ok(TargetSpec::Selector {
        group_kind: GroupKind::new(&group, &kind),
        namespaces,
        selector,
    })
}

fn parse_how(v: Option<&Val>, field: &str, invalid: &mut Vec<(String, String)>) -> Option<How> {
    match v {
        None | Some(Val::Null) => None,
        Some(Val::String(s)) => match s.to_ascii_lowercase().as_str() {
            "atomic" => Some(How::Atomic),
            "patch" => Some(How::Patch),
            "merge" => Some(How::Merge),
            _ => {
                invalid.push((
                    field.into(),
                    format!("unknown strategy {s:?} (atomic, patch or merge)"),
                ));
                None
            }
        },
        Some(_) => {
            invalid.push((field.into(), "must be a string".into()));
            None
        }
    }
}

/// Reads `defaults` / `overrides` / `strategy` / `default` + `override` as GEP-713 and
/// GEP-2649 describe them. Kinds whose model has no per-policy strategy take the
/// spec proper as it is, with the strategy their model implies.
fn read_intent(spec: &Map, model: MergeModel, invalid: &mut Vec<(String, String)>) -> Intent {
    if !matches!(model, MergeModel::Gep713 { .. }) {
        let strategy = match model {
            MergeModel::PatchDefaults => Strategy {
                mode: Mode::Defaults,
                how: How::Patch,
            },
            MergeModel::KeyedFields { .. } => Strategy {
                mode: Mode::Defaults,
                how: How::Merge,
            },
            _ => Strategy::ATOMIC_DEFAULTS,
        };
        return Intent::Stack {
            strategy,
            spec: Stanza::Proper(None),
        };
    }
    let top_how = parse_how(spec.get("strategy"), "spec.strategy", invalid);
    let stanza = |name: &str, invalid: &mut Vec<(String, String)>| -> Option<&Map> {
        match spec.get(name) {
            None | Some(Val::Null) => None,
            Some(Val::Object(m)) => Some(m),
            Some(_) => {
                invalid.push((format!("spec.{name}"), "must be a mapping".into()));
                None
            }
        }
    };
    let defaults = stanza("defaults", invalid);
    let overrides = stanza("overrides", invalid);
    let old_default = stanza("default", invalid);
    let old_override = stanza("override", invalid);
    if old_default.is_some() || old_override.is_some() {
        if defaults.is_some() || overrides.is_some() {
            invalid.push((
                "spec".into(),
                "mixes default/override stanzas with defaults/overrides; default/override is used"
                    .into(),
            ));
        }
        return Intent::Dual {
            default: Stanza::Whole("default"),
            overrides: Stanza::Whole("override"),
        };
    }
    match (defaults, overrides) {
        (Some(_), Some(_)) => {
            // GEP-713: one strategy per policy. Kuadrant's CRDs refuse this; if it got
            // in anyway, read it the GEP-2649 way (per field) and say so.
            invalid.push((
                "spec".into(),
                "has both defaults and overrides; GEP-713 allows one merge strategy per policy"
                    .into(),
            ));
            Intent::Dual {
                default: Stanza::Proper(Some("defaults")),
                overrides: Stanza::Proper(Some("overrides")),
            }
        }
        (Some(m), None) | (None, Some(m)) => {
            // The mode of the stanza read (a null or misshapen one beside it reads as absent).
            let mode = if defaults.is_some() {
                Mode::Defaults
            } else {
                Mode::Overrides
            };
            let field = if mode == Mode::Defaults {
                "spec.defaults.strategy"
            } else {
                "spec.overrides.strategy"
            };
            let how = parse_how(m.get("strategy"), field, invalid)
                .or(top_how)
                .unwrap_or(How::Atomic);
            let stanza = if defaults.is_some() {
                "defaults"
            } else {
                "overrides"
            };
            Intent::Stack {
                strategy: Strategy { mode, how },
                spec: Stanza::Proper(Some(stanza)),
            }
        }
        (None, None) => Intent::Stack {
            strategy: Strategy {
                mode: Mode::Defaults,
                how: top_how.unwrap_or(How::Atomic),
            },
            spec: Stanza::Proper(None),
        },
    }
}

#[cfg(test)]
mod tests {
    //! Label selectors as Kubernetes evaluates them, and a policy's intent as GEP-713
    //! and GEP-2649 write it.
    use super::*;
    use serde_json::{json, Value};
    use std::collections::BTreeMap;

    fn val(v: Value) -> Val {
        Val::from_value(v)
    }

    fn selector(v: Value) -> LabelSelector {
        LabelSelector::parse(&val(v), "selector").expect("selector parses")
    }

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// Which of a few label sets `sel` matches, by their names.
    fn matching(sel: &LabelSelector) -> Vec<&'static str> {
        let sets: [(&str, &[(&str, &str)]); 4] = [
            ("none", &[]),
            ("prod", &[("env", "prod")]),
            ("staging", &[("env", "staging"), ("team", "web")]),
            ("team", &[("team", "web")]),
        ];
        sets.iter()
            .filter(|(_, l)| sel.matches(&labels(l)))
            .map(|(name, _)| *name)
            .collect()
    }

    fn expression(op: &str, values: &[&str]) -> LabelSelector {
        selector(json!({"matchExpressions": [{"key": "env", "operator": op, "values": values}]}))
    }

    #[test]
    fn an_empty_selector_matches_everything() {
        assert_eq!(
            matching(&selector(json!({}))),
            ["none", "prod", "staging", "team"]
        );
        assert_eq!(
            matching(&selector(
                json!({"matchLabels": null, "matchExpressions": null})
            )),
            ["none", "prod", "staging", "team"]
        );
    }

    #[test]
    fn match_labels_must_all_be_there_with_those_values() {
        assert_eq!(
            matching(&selector(json!({"matchLabels": {"env": "prod"}}))),
            ["prod"]
        );
        assert_eq!(
            matching(&selector(
                json!({"matchLabels": {"env": "staging", "team": "web"}})
            )),
            ["staging"]
        );
        assert!(matching(&selector(json!({"matchLabels": {"env": "Prod"}}))).is_empty());
    }

    #[test]
    fn in_needs_the_key_with_one_of_the_values() {
        assert_eq!(
            matching(&expression("In", &["prod", "staging"])),
            ["prod", "staging"]
        );
        assert_eq!(matching(&expression("In", &["dev"])), Vec::<&str>::new());
        assert_eq!(matching(&expression("In", &[])), Vec::<&str>::new());
    }

    #[test]
    fn not_in_matches_a_missing_key_or_another_value() {
        assert_eq!(
            matching(&expression("NotIn", &["prod"])),
            ["none", "staging", "team"]
        );
        assert_eq!(
            matching(&expression("NotIn", &[])),
            ["none", "prod", "staging", "team"]
        );
    }

    #[test]
    fn exists_and_does_not_exist_look_at_the_key_only() {
        assert_eq!(matching(&expression("Exists", &[])), ["prod", "staging"]);
        assert_eq!(matching(&expression("DoesNotExist", &[])), ["none", "team"]);
        let no_values =
            selector(json!({"matchExpressions": [{"key": "team", "operator": "Exists"}]}));
        assert_eq!(matching(&no_values), ["staging", "team"]);
    }

    #[test]
    fn labels_and_expressions_must_all_hold() {
        let sel = selector(json!({
            "matchLabels": {"team": "web"},
            "matchExpressions": [
                {"key": "env", "operator": "Exists"},
                {"key": "env", "operator": "NotIn", "values": ["prod"]},
            ],
        }));
        assert_eq!(matching(&sel), ["staging"]);
    }

    #[test]
    fn a_selector_that_cannot_be_read_names_the_field() {
        let err = |v: Value| {
            LabelSelector::parse(&val(v), "spec.targetSelectors[0].matchLabels")
                .unwrap_err()
                .0
        };
        assert_eq!(err(json!([])), "spec.targetSelectors[0].matchLabels");
        assert_eq!(
            LabelSelector::parse(
                &val(json!({"matchExpressions": [{"key": "env", "operator": "Within"}]})),
                "s"
            )
            .unwrap_err(),
            (
                "s.matchExpressions[0].operator".to_string(),
                "unknown operator \"Within\"".to_string()
            )
        );
        assert_eq!(
            LabelSelector::parse(&val(json!({"matchLabels": {"env": 1}})), "s")
                .unwrap_err()
                .0,
            "s.matchLabels.env"
        );
        assert_eq!(
            LabelSelector::parse(
                &val(json!({"matchExpressions": [{"key": "env", "operator": "In", "values": "prod"}]})),
                "s"
            )
            .unwrap_err()
            .0,
            "s.matchExpressions[0].values"
        );
    }

    const GEP713: MergeModel = MergeModel::Gep713 { rule_paths: &[] };

    /// The intent of `spec` under `model`, and the fields found invalid.
    fn intent(spec: Value, model: MergeModel) -> (Intent, Vec<String>) {
        let mut invalid = Vec::new();
        let spec = val(spec);
        let intent = read_intent(spec.as_object().expect("a mapping"), model, &mut invalid);
        (
            intent,
            invalid.into_iter().map(|(field, _)| field).collect(),
        )
    }

    fn stack(mode: Mode, how: How, stanza: Option<&'static str>) -> Intent {
        Intent::Stack {
            strategy: Strategy { mode, how },
            spec: Stanza::Proper(stanza),
        }
    }

    #[test]
    fn a_bare_spec_is_atomic_defaults() {
        let (got, invalid) = intent(json!({"targetRef": {}, "color": "red"}), GEP713);
        assert_eq!(got, stack(Mode::Defaults, How::Atomic, None));
        assert!(invalid.is_empty());
        assert_eq!(got.strategy_name(), "Atomic Defaults");
    }

    #[test]
    fn defaults_or_overrides_with_each_strategy() {
        for (written, how) in [
            (None, How::Atomic),
            (Some("atomic"), How::Atomic),
            (Some("patch"), How::Patch),
            (Some("merge"), How::Merge),
            (Some("Patch"), How::Patch),
        ] {
            for (field, mode) in [("defaults", Mode::Defaults), ("overrides", Mode::Overrides)] {
                let mut stanza = json!({"color": "red"});
                if let Some(s) = written {
                    stanza["strategy"] = json!(s);
                }
                let (got, invalid) = intent(json!({ field: stanza }), GEP713);
                assert_eq!(got, stack(mode, how, Some(field)), "{field} {written:?}");
                assert!(invalid.is_empty(), "{field} {written:?}: {invalid:?}");
            }
        }
    }

    #[test]
    fn a_top_level_strategy_applies_where_the_stanza_names_none() {
        let (got, _) = intent(json!({"strategy": "patch", "color": "red"}), GEP713);
        assert_eq!(got, stack(Mode::Defaults, How::Patch, None));
        let (got, _) = intent(
            json!({"strategy": "merge", "overrides": {"color": "red"}}),
            GEP713,
        );
        assert_eq!(got, stack(Mode::Overrides, How::Merge, Some("overrides")));
        // The stanza's own strategy wins.
        let (got, invalid) = intent(
            json!({"strategy": "merge", "defaults": {"strategy": "patch", "color": "red"}}),
            GEP713,
        );
        assert_eq!(got, stack(Mode::Defaults, How::Patch, Some("defaults")));
        assert!(invalid.is_empty());
    }

    #[test]
    fn gep2649_default_and_override_are_dual() {
        let dual = Intent::Dual {
            default: Stanza::Whole("default"),
            overrides: Stanza::Whole("override"),
        };
        for spec in [
            json!({"default": {"color": "red"}}),
            json!({"override": {"color": "red"}}),
            json!({"default": {"color": "red"}, "override": {"size": 1}}),
        ] {
            let (got, invalid) = intent(spec.clone(), GEP713);
            assert_eq!(got, dual, "{spec}");
            assert!(invalid.is_empty(), "{spec}: {invalid:?}");
        }
        assert_eq!(dual.strategy_name(), "default + override (per field)");
        // Mixed with the GEP-713 stanzas: the older ones are used, and that is said.
        let (got, invalid) = intent(
            json!({"default": {"color": "red"}, "defaults": {"color": "blue"}}),
            GEP713,
        );
        assert_eq!(got, dual);
        assert_eq!(invalid, ["spec"]);
    }

    #[test]
    fn both_defaults_and_overrides_are_read_per_field_and_invalid() {
        let (got, invalid) = intent(
            json!({"defaults": {"color": "red"}, "overrides": {"size": 1}}),
            GEP713,
        );
        assert_eq!(
            got,
            Intent::Dual {
                default: Stanza::Proper(Some("defaults")),
                overrides: Stanza::Proper(Some("overrides")),
            }
        );
        assert_eq!(invalid, ["spec"]);
    }

    #[test]
    fn an_unknown_or_misshapen_strategy_is_invalid_and_atomic() {
        let (got, invalid) = intent(
            json!({"defaults": {"strategy": "deep", "color": "red"}}),
            GEP713,
        );
        assert_eq!(got, stack(Mode::Defaults, How::Atomic, Some("defaults")));
        assert_eq!(invalid, ["spec.defaults.strategy"]);
        let (got, invalid) = intent(json!({"strategy": 3, "color": "red"}), GEP713);
        assert_eq!(got, stack(Mode::Defaults, How::Atomic, None));
        assert_eq!(invalid, ["spec.strategy"]);
        let (_, invalid) = intent(
            json!({"overrides": {"strategy": ["patch"], "color": "red"}}),
            GEP713,
        );
        assert_eq!(invalid, ["spec.overrides.strategy"]);
    }

    #[test]
    fn a_stanza_that_is_not_a_mapping_is_invalid() {
        let (got, invalid) = intent(json!({"defaults": "red"}), GEP713);
        assert_eq!(got, stack(Mode::Defaults, How::Atomic, None));
        assert_eq!(invalid, ["spec.defaults"]);
        let (_, invalid) = intent(json!({"override": 1}), GEP713);
        assert_eq!(invalid, ["spec.override"]);
    }

    /// `defaults: ~` (or a `defaults` that is not a mapping) beside `overrides`: the
    /// policy overrides; its mode follows the stanza that is read.
    #[test]
    fn a_null_defaults_beside_overrides_still_overrides() {
        for defaults in [json!(null), json!("red")] {
            let (got, _) = intent(
                json!({"defaults": defaults, "overrides": {"color": "red"}}),
                GEP713,
            );
            assert_eq!(
                got,
                stack(Mode::Overrides, How::Atomic, Some("overrides")),
                "defaults: {defaults}"
            );
        }
    }

    #[test]
    fn other_models_take_the_spec_with_their_fixed_strategy() {
        for (model, how) in [
            (MergeModel::None, How::Atomic),
            (MergeModel::MostSpecificWins, How::Atomic),
            (MergeModel::PatchDefaults, How::Patch),
            (MergeModel::KeyedFields { rule_paths: &[] }, How::Merge),
            (MergeModel::EnvoyMergeType, How::Atomic),
            (MergeModel::KgatewayPriority, How::Atomic),
            (MergeModel::Accumulated, How::Atomic),
        ] {
            // Strategy fields mean nothing to these kinds: never read, never invalid.
            let (got, invalid) = intent(
                json!({"strategy": "bogus", "overrides": {"strategy": "patch"}, "default": 1}),
                model,
            );
            assert_eq!(got, stack(Mode::Defaults, how, None), "{model:?}");
            assert!(invalid.is_empty(), "{model:?}: {invalid:?}");
        }
    }
}

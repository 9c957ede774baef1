//! Which kinds are policies and how each behaves; and the policies themselves,
//! read from objects (targets, intent). Sources, in order: the CRD label, the
//! built-in registry, the user's `--policy-kind`, and the name-based assumption.

pub mod policy;
pub mod registry;

use crate::model::Object;
use crate::model::{GroupKind, POLICY_LABEL};
use serde::Serialize;
use std::collections::BTreeMap;

/// GEP-713 classes (a communicative aid in the current text, still the common vocabulary).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Class {
    Direct,
    Inherited,
}

/// Where the tool learned that a kind is a policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ClassSource {
    Label,
    Registry,
    Declared,
    Assumed,
}

impl ClassSource {
    pub fn as_str(self) -> &'static str {
        match self {
            ClassSource::Label => "label",
            ClassSource::Registry => "registry",
            ClassSource::Declared => "declared",
            ClassSource::Assumed => "assumed",
        }
    }
}

/// How policies of one kind combine when several reach the same object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MergeModel {
    /// GEP-713 None: one policy per target; the oldest wins (then `namespace/name`),
    /// the others are Conflicted. A policy on a section beats one on the whole object
    /// for that section (GEP-2648). Direct policies reach only their target.
    None,
    /// GEP-713 as written: `defaults`/`overrides`, each with an optional
    /// `strategy: atomic|patch|merge`; a bare spec is implicit Atomic Defaults; the
    /// older `default:`/`override:` stanzas merge per field (GEP-2649).
    /// `merge` is keyed by the entries under `rule_paths` (JSON pointers whose
    /// children are named rules); elsewhere each top-level field is one rule.
    Gep713 { rule_paths: &'static [&'static str] },
    /// The most specific policy wins whole (Atomic Defaults, no strategy fields).
    MostSpecificWins,
    /// More specific settings win per field (Patch Defaults, no strategy fields).
    PatchDefaults,
    /// More specific settings win per rule (Merge Defaults, no strategy fields): the
    /// children of each pointer in `rule_paths` are the rules.
    KeyedFields { rule_paths: &'static [&'static str] },
    /// Envoy Gateway: a policy with `mergeType` (JSONMerge / StrategicMerge) is merged
    /// into the less specific one; without it, the most specific wins whole.
    EnvoyMergeType,
    /// kgateway: the parent object's `kgateway.dev/inherited-policy-priority`
    /// annotation picks shallow or deep merge and which side wins.
    KgatewayPriority,
    /// Evaluated by the data plane as a set (Istio's ALLOW/DENY), never merged: every
    /// policy that reaches an object applies side by side.
    Accumulated,
}

impl MergeModel {
    /// Where the named rules are that keyed merges combine rule by rule (none: every
    /// top-level field is one rule).
    pub(crate) fn rule_paths(self) -> &'static [&'static str] {
        match self {
            MergeModel::Gep713 { rule_paths } | MergeModel::KeyedFields { rule_paths } => {
                rule_paths
            }
            _ => &[],
        }
    }

    /// One line for `get kinds -o wide` and `describe` of a policy.
    pub fn describe(self) -> &'static str {
        match self {
            MergeModel::None => "none: a section beats its object",
            MergeModel::Gep713 { .. } => {
                "defaults/overrides with strategy atomic|patch|merge; bare spec = atomic defaults"
            }
            MergeModel::MostSpecificWins => "atomic defaults: the most specific policy wins whole",
            MergeModel::PatchDefaults => "patch defaults: more specific settings win per field",
            MergeModel::KeyedFields { .. } => {
                "merge defaults: the more specific policy wins each option it sets"
            }
            MergeModel::EnvoyMergeType => {
                "mergeType JSONMerge|StrategicMerge merges into the parent's; unset: most specific wins whole"
            }
            MergeModel::KgatewayPriority => {
                "parent annotation kgateway.dev/inherited-policy-priority: shallow|deep merge, child|parent preferred"
            }
            MergeModel::Accumulated => "not merged: every policy applies side by side",
        }
    }
}

/// How several policies of one kind on the same target (one object, or one section of
/// it) combine, before the levels of the hierarchy are folded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SameTarget {
    /// They all take part in the fold in GEP-713's order: the older one is established,
    /// and its strategy decides (GEP-713, "Conflict resolution").
    Stack,
    /// GEP-713's None: the oldest (then `namespace/name`) applies; the others are
    /// Conflicted whole.
    OldestWins,
    /// Merged field by field. Walking them oldest first, a policy that sets one of these
    /// fields (JSON pointers into the spec proper; none listed: any field) that an
    /// accepted policy already sets is Conflicted whole.
    DisjointFields(&'static [&'static str]),
    /// Merged field by field; each field comes from the oldest policy that sets it.
    OldestFieldWins,
}

impl SameTarget {
    /// What several policies of a kind do on one target, for `get kinds -o wide`.
    pub fn describe(self) -> &'static str {
        match self {
            SameTarget::Stack => "stacked, the older established",
            SameTarget::OldestWins => "the oldest applies, the others are Conflicted",
            SameTarget::DisjointFields(_) => {
                "merged by field; a later one setting a field already set is Conflicted"
            }
            SameTarget::OldestFieldWins => "merged by field, the oldest wins each field",
        }
    }
}

/// How a kind names its targets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Targeting {
    pub target_ref: bool,
    pub target_refs: bool,
    pub target_selectors: bool,
    /// Istio `selector` / `workloadSelector`: outside the Gateway API hierarchy.
    pub workload_selector: bool,
    /// A route rule's `ExtensionRef` filter naming the policy attaches it to that rule.
    pub extension_ref: bool,
    /// Its targetRefs may name another namespace, or its selectors look in other
    /// namespaces (Istio, Gloo, GKE references; Envoy Gateway's `namespaces`).
    pub other_namespaces: bool,
}

/// Everything the tool knows about one policy kind.
#[derive(Clone, Debug, Serialize)]
pub struct PolicyKind {
    pub group: String,
    pub kind: String,
    pub class: Class,
    pub source: ClassSource,
    #[serde(skip)]
    pub merge: MergeModel,
    /// How several of this kind on one target combine.
    #[serde(skip)]
    pub same_target: SameTarget,
    #[serde(skip)]
    pub targeting: Targeting,
    /// Kinds it may target (empty: not known).
    #[serde(skip)]
    pub target_kinds: Vec<String>,
    #[serde(skip)]
    pub section_name: bool,
    /// References in its spec and the kinds they may name (JSON pointer to a list of
    /// references, (group, kind) allowed).
    #[serde(skip)]
    pub refs: &'static [(&'static str, &'static [(&'static str, &'static str)])],
    /// The project that defines it, when the registry knows.
    #[serde(skip)]
    pub project: &'static str,
}

impl PolicyKind {
    pub fn group_kind(&self) -> GroupKind {
        GroupKind::new(&self.group, &self.kind)
    }
}

/// A user's `--policy-kind KIND.GROUP=direct|inherited`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    pub group_kind: GroupKind,
    pub class: Class,
}

impl std::str::FromStr for Declared {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (gk, class) = s
            .split_once('=')
            .ok_or_else(|| format!("--policy-kind {s:?}: expected KIND.GROUP=direct|inherited"))?;
        let class = parse_class_label(class).ok_or_else(|| {
            format!("--policy-kind {s:?}: class must be direct or inherited, not {class:?}")
        })?;
        let (kind, group) = gk.split_once('.').unwrap_or((gk, ""));
        if kind.is_empty() {
            return Err(format!("--policy-kind {s:?}: the kind is empty"));
        }
        Ok(Declared {
            group_kind: GroupKind::new(group, kind),
            class,
        })
    }
}

/// The label's value, compared case-insensitively; `true` means direct.
pub(crate) fn parse_class_label(v: &str) -> Option<Class> {
    match v.trim().to_ascii_lowercase().as_str() {
        "direct" | "true" => Some(Class::Direct),
        "inherited" => Some(Class::Inherited),
        _ => None,
    }
}

/// The policy kinds in play, keyed by group + kind.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    pub kinds: BTreeMap<GroupKind, PolicyKind>,
}

impl Catalog {
    /// Builds the catalog for a snapshot: labelled CRDs in the input, then the registry,
    /// then declarations, then objects that look like policies.
    pub fn build(objects: &[Object], declared: &[Declared]) -> Catalog {
        let mut kinds: BTreeMap<GroupKind, PolicyKind> = BTreeMap::new();
        for o in objects
            .iter()
            .filter(|o| o.kind == "CustomResourceDefinition")
        {
            let Some(class) = o
                .labels
                .get(POLICY_LABEL)
                .and_then(|v| parse_class_label(v))
            else {
                continue;
            };
            let group = o
                .spec
                .get("group")
                .and_then(|v| v.as_str())
                .unwrap_or_default();
            let Some(kind) = o.spec.pointer("/names/kind").and_then(|v| v.as_str()) else {
                continue;
            };
            let gk = GroupKind::new(group, kind);
            // The label decides the class; a registry entry still says how the kind merges
            // when it agrees with the label, and is set aside when it does not.
            let pk = match registry::lookup(&gk) {
                Some(e) if e.class == class => e.to_policy_kind(ClassSource::Label),
                Some(e) => PolicyKind {
                    project: e.project,
                    target_kinds: e.target_kinds.iter().map(|k| k.to_string()).collect(),
                    targeting: e.targeting,
                    ..generic(&gk, class, ClassSource::Label)
                },
                None => generic(&gk, class, ClassSource::Label),
            };
            kinds.insert(gk, pk);
        }
        for e in registry::ENTRIES {
            let gk = GroupKind::new(e.group, e.kind);
            kinds
                .entry(gk)
                .or_insert_with(|| e.to_policy_kind(ClassSource::Registry));
        }
        for d in declared {
            // The user's word beats everything but keeps a registry kind's merge model.
            let mut pk = match registry::lookup(&d.group_kind) {
                Some(e) => e.to_policy_kind(ClassSource::Declared),
                None => generic(&d.group_kind, d.class, ClassSource::Declared),
            };
            pk.source = ClassSource::Declared;
            if pk.class != d.class {
                let g = generic(&d.group_kind, d.class, ClassSource::Declared);
                pk.class = d.class;
                pk.merge = g.merge;
                pk.same_target = g.same_target;
            }
            kinds.insert(d.group_kind.clone(), pk);
        }
        for o in objects {
            let gk = o.group_kind();
            if kinds.contains_key(&gk) || !looks_like_policy(o) {
                continue;
            }
            // GEP-713: kinds that name one target kind and no strategy act as Direct;
            // without a CRD we cannot know, so the assumption is Inherited (the general
            // case) and is reported as assumed.
            kinds.insert(
                gk.clone(),
                generic(&gk, Class::Inherited, ClassSource::Assumed),
            );
        }
        Catalog { kinds }
    }

    /// Every kind, and whether it attaches within its own namespace only (its project
    /// names the kinds it targets, and a GatewayClass is not among them): what a live
    /// read is handed before it reads any CRD.
    pub fn kinds_for_reading(&self) -> Vec<(GroupKind, bool)> {
        self.kinds
            .iter()
            .map(|(gk, k)| {
                let namespaced = !k.target_kinds.is_empty()
                    && !k.target_kinds.iter().any(|t| t == "GatewayClass")
                    && !k.targeting.other_namespaces;
                (gk.clone(), namespaced)
            })
            .collect()
    }

    pub fn get(&self, gk: &GroupKind) -> Option<&PolicyKind> {
        self.kinds.get(gk)
    }

    pub(crate) fn is_policy(&self, o: &Object) -> bool {
        self.kinds.contains_key(&o.group_kind())
    }
}

/// A kind the registry does not know: GEP-713 defaults.
fn generic(gk: &GroupKind, class: Class, source: ClassSource) -> PolicyKind {
    PolicyKind {
        group: gk.group.to_string(),
        kind: gk.kind.to_string(),
        class,
        source,
        merge: match class {
            Class::Direct => MergeModel::None,
            Class::Inherited => MergeModel::Gep713 { rule_paths: &[] },
        },
        same_target: match class {
            Class::Direct => SameTarget::OldestWins,
            Class::Inherited => SameTarget::Stack,
        },
        targeting: Targeting {
            target_ref: true,
            target_refs: true,
            target_selectors: true,
            workload_selector: false,
            extension_ref: false,
            other_namespaces: true,
        },
        target_kinds: Vec::new(),
        section_name: true,
        refs: &[],
        project: "",
    }
}

/// The name-based guess for input without CRDs: a kind ending in `Policy` whose spec
/// has a targeting field.
pub(crate) fn looks_like_policy(o: &Object) -> bool {
    o.kind.ends_with("Policy")
        && ["targetRef", "targetRefs", "targetSelectors"]
            .iter()
            .any(|f| o.spec.get(f).is_some())
}

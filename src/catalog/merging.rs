//! How policies of one kind combine: from level to level of the hierarchy
//! (`MergeModel`), several on one target (`SameTarget`), and the `default`/`override`
//! stanzas their spec has (`DefaultsOverrides`). Fields of a kind's registry entry
//! (`Entry`).

use serde::Serialize;

/// How policies of one kind combine when several reach the same object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum MergeModel {
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
    /// into the less specific one; without it, the most specific wins whole, even one
    /// that sets nothing (and the less specific one is Overridden there).
    EnvoyMergeType,
    /// The most specific policy replaces the others whole, even one that sets nothing
    /// (the less specific one is Overridden there); nothing is ever merged (Envoy
    /// Gateway's ClientTrafficPolicy, which has no `mergeType`).
    MostSpecificReplaces,
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
            MergeModel::None
            | MergeModel::MostSpecificWins
            | MergeModel::PatchDefaults
            | MergeModel::EnvoyMergeType
            | MergeModel::MostSpecificReplaces
            | MergeModel::KgatewayPriority
            | MergeModel::Accumulated => &[],
        }
    }

    /// One line for `get kinds -o wide` and `describe` of a policy.
    pub(crate) fn describe(self) -> &'static str {
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
            MergeModel::MostSpecificReplaces => {
                "the most specific policy wins whole, even one that sets nothing; never merged"
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
    /// Merged by top-level field as `OldestFieldWins`, but ordered first by an integer
    /// annotation on the policy, higher first (missing or unreadable: 0), then by age
    /// (kgateway's `kgateway.dev/policy-weight`).
    WeightedFieldWins { annotation: &'static str },
    /// All apply side by side, ordered by an integer field of the spec (missing: 0;
    /// lower first, or higher first), then by age: none is Overridden or Conflicted
    /// (Envoy Gateway's EnvoyPatchPolicy, Istio's WasmPlugin, EnvoyFilter,
    /// TrafficExtension).
    AllByPriority {
        field: &'static str,
        higher_first: bool,
    },
    /// One per value of a field (JSON pointer into the spec proper, read as `key`
    /// says): of several with the same value the oldest applies and the others are
    /// Conflicted; different values all apply (AWS AccessLogPolicy: one per
    /// destination type).
    OnePerValue { field: &'static str, key: ValueKey },
    /// All apply while they agree on a field; if any two differ in it, every one of
    /// them is Conflicted (APISIX HTTPRoutePolicy's `priority`).
    AllConflictedOnMismatch { field: &'static str },
    /// Only one may reach an object: with several, none applies and all are Conflicted
    /// (Envoy AI Gateway BackendSecurityPolicy: "multiple on the same resource is
    /// invalid").
    SeveralConflict,
}

/// How `SameTarget::OnePerValue` reads the value that must be unique.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ValueKey {
    /// The value as written.
    Whole,
    /// The service of an ARN (`arn:PARTITION:SERVICE:...`): `s3`, `logs`, `firehose`.
    ArnService,
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
            SameTarget::WeightedFieldWins { .. } => {
                "merged by field, the highest weight annotation then the oldest wins each field"
            }
            SameTarget::AllByPriority { .. } => "all apply, ordered by priority",
            SameTarget::OnePerValue { .. } => {
                "one per value of a field: the oldest applies, the others are Conflicted"
            }
            SameTarget::AllConflictedOnMismatch { .. } => {
                "all apply while a field agrees; if it differs, all are Conflicted"
            }
            SameTarget::SeveralConflict => "only one may apply: with several, all are Conflicted",
        }
    }

    /// How a Conflicted policy of a kind with this rule stands to the one it is
    /// paired with, and why, as `check` and `describe` say it: `loses to X: the
    /// oldest policy wins`, `conflicts with X: their priority differs, ...`.
    pub(crate) fn conflict_words(self) -> (&'static str, &'static str) {
        const OLDEST: &str = "the oldest policy wins (GEP-713 None)";
        match self {
            SameTarget::OldestWins => ("loses to", OLDEST),
            SameTarget::DisjointFields(_) => (
                "loses to",
                "a later one setting a field an older one sets is Conflicted",
            ),
            SameTarget::OnePerValue { .. } => (
                "loses to",
                "one per value of a field: the oldest with it wins",
            ),
            SameTarget::AllConflictedOnMismatch { .. } => (
                "conflicts with",
                "they must agree on a field and differ: all are Conflicted",
            ),
            SameTarget::SeveralConflict => (
                "conflicts with",
                "only one may apply: with several, all are Conflicted",
            ),
            // These never make a policy Conflicted; said as GEP-713 would if they did.
            SameTarget::Stack
            | SameTarget::OldestFieldWins
            | SameTarget::WeightedFieldWins { .. }
            | SameTarget::AllByPriority { .. } => ("loses to", OLDEST),
        }
    }
}

/// The `default`/`override` stanzas a kind's spec has, whether GEP-713's or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum DefaultsOverrides {
    /// None: the spec proper is the settings.
    None,
    /// GEP-713 `defaults` / `overrides`, each with a `strategy`.
    Gep713,
    /// A `default` block only: the settings, not an inherited default (GKE).
    DefaultOnly,
    /// `default` and `override` blocks (GEP-2649's older shape: Azure, Consul).
    DefaultAndOverride,
    /// `strategy.inheritance: Default | Override` (agentgateway: Override blocks more
    /// specific traffic policies).
    Inheritance,
}

impl DefaultsOverrides {}

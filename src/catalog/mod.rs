//! Which kinds are policies and how each behaves; and the policies themselves,
//! read from objects (targets, intent). Sources, in order: the CRD label, the
//! built-in registry, the user's `--policy-kind`, and the name-based assumption.

pub mod merged;
pub mod policy;
pub mod references;
pub mod registry;

pub use references::{Further, RefField, RefGroups, RefNamespaces, RefusedReferent, Unresolved};

use crate::model::Object;
use crate::model::{Crd, GroupKind, POLICY_LABEL};
use serde::Serialize;
use std::collections::BTreeMap;

/// GEP-713 classes (a communicative aid in the current text, still the common vocabulary).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Class {
    Direct,
    Inherited,
}

/// How far down the hierarchy an Inherited kind's settings flow from where they
/// attach: the levels its vendor configures with them, and no lower. Direct kinds
/// reach their target and its sections whatever this says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Every level below the target: listeners, routes, their rules, backends and
    /// their ports.
    Down,
    /// The client side of the proxy only (listeners, and the routes and rules their
    /// traffic goes through), not the backends: the vendor writes the settings into
    /// its listeners, filters and route config, not into the upstream clusters it
    /// makes of each backend; but for the settings at `to_backends` (paths of keys
    /// from the spec's top level: `http1`, `timeout/tcp`), which it also sets on those
    /// clusters (none: nothing reaches the backends).
    ClientSide {
        to_backends: &'static [&'static str],
    },
}

/// What the controller does with a policy aimed at one listener that shares its port
/// with other listeners (which the proxy serves as one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SharedPort {
    /// Nothing particular: each listener takes its own.
    Allowed,
    /// Refused when its settings would reach plain HTTP listeners it is not aimed at
    /// (Envoy Gateway's ClientTrafficPolicy): aimed at a plain HTTP listener that
    /// other plain HTTP listeners of its proxy have the port of (its Gateway's, its
    /// ListenerSets', every Gateway's of a class that merges them); or aimed at a whole
    /// Gateway or ListenerSet one of whose plain HTTP listeners has the port of one of
    /// another Gateway or ListenerSet of its proxy (a listener aimed at by a policy of
    /// the kind of its own left to that policy).
    RefusedOnSharedHttpListener,
}

/// Settings a vendor refuses on a target of one kind (Envoy Gateway's SecurityPolicy
/// on a TCPRoute: authorization only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefusedOn {
    /// The target's kind.
    pub kind: &'static str,
    /// The spec fields refused there, any one of them set.
    pub fields: &'static [&'static str],
    pub refuses: Refuses,
    /// Whether its controller runs the check again on the policy merged into its
    /// closest parent's (a route policy with Envoy Gateway's `mergeType`): a field
    /// refused there that the parent's policy sets refuses the route's policy on
    /// that target, as one of its own would (`Refuses::ThatTarget` rules only).
    pub after_merge: bool,
}

/// What a vendor refuses when a policy breaks one of its rules on one of its targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refuses {
    /// The whole policy: its CRD's validation fails the request, so the API server
    /// stores nothing and none of its targets stands.
    WholePolicy,
    /// That target: its controller skips it (its status there says why) and the
    /// policy's other targets stand.
    ThatTarget,
}

/// What its vendor does with a policy that names a target of a kind outside the
/// kind's `target_kinds`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OtherTargetKinds {
    /// Its CRD refuses it (CEL or enum validation on the reference's kind): the API
    /// server refuses the whole object (a validation rule fails the request), so none
    /// of its targets stands.
    RefusedByCrd,
    /// Its controller refuses that target (the reference is accepted by the API
    /// server, then reported invalid).
    RefusedByController,
    /// Accepted (implementation-specific kinds), or what happens is not known:
    /// nothing is refused.
    NotRefused,
}

impl OtherTargetKinds {
    /// Who refuses, as the finding says it (`its CRD allows ...`); none: nobody.
    pub fn refused_by(self) -> Option<&'static str> {
        match self {
            OtherTargetKinds::RefusedByCrd => Some("its CRD"),
            OtherTargetKinds::RefusedByController => Some("its controller"),
            OtherTargetKinds::NotRefused => None,
        }
    }

    /// Whether the refusal is the whole policy's (the API server's validation), not
    /// the one target's (its controller's).
    pub fn refuses_whole(self) -> bool {
        match self {
            OtherTargetKinds::RefusedByCrd => true,
            OtherTargetKinds::RefusedByController | OtherTargetKinds::NotRefused => false,
        }
    }
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
    /// The one applied last (the newest creationTimestamp, then the last
    /// `namespace/name`) applies whole; the others are Conflicted (kgateway
    /// HTTPListenerPolicy: "only the policy that was last applied is enforced").
    LastAppliedWins,
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
            SameTarget::LastAppliedWins => "the last applied applies, the others are Conflicted",
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
    pub fn conflict_words(self) -> (&'static str, &'static str) {
        const OLDEST: &str = "the oldest policy wins (GEP-713 None)";
        match self {
            SameTarget::OldestWins => ("loses to", OLDEST),
            SameTarget::DisjointFields(_) => (
                "loses to",
                "a later one setting a field an older one sets is Conflicted",
            ),
            SameTarget::LastAppliedWins => ("loses to", "the last applied (newest) policy wins"),
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
    /// Attached from the target's side: this annotation on the target names the policy
    /// (Kong's `konghq.com/upstream-policy` on a Service). Such a policy has no targetRef.
    pub target_annotation: Option<&'static str>,
    /// Every Service a route rule sends to must carry the same `target_annotation`
    /// value: where they differ (or one has none), its controller refuses the policy
    /// on those Services (Kong: one KongUpstreamPolicy per rule's upstream).
    pub annotation_same_in_rule: bool,
    /// A `targetRefs` entry `{kind: Pod, selector}` picks the Pods of the policy's
    /// namespace whose labels match (GKE's `PolicyTargetReferenceWithLabelSelectors`):
    /// resolved when Pods are in the input.
    pub pod_selector: bool,
}

/// Which namespaces a kind's policies may reach from their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum NamespaceRule {
    /// Only objects of the policy's own namespace (a local reference, or a `namespace`
    /// field that must equal the policy's).
    Own,
    /// Its reference may name an object of another namespace.
    AnyNamespace,
    /// Its references stay in its namespace; its `targetSelectors` look in the
    /// namespaces their `namespaces` field names, where a ReferenceGrant there allows it
    /// (Envoy Gateway since v1.8).
    SelectorsWithGrant,
    /// Its own namespace (the CRD rejects a `namespace` in a reference); a policy in the
    /// mesh's root namespace reaches a GatewayClass and the whole mesh (Istio).
    OwnOrMeshRoot,
    /// Its own namespace, except a policy in the install's global policy namespace
    /// (`KGW_GLOBAL_POLICY_NAMESPACE`), whose selectors look in every namespace (kgateway).
    OwnOrGlobalNamespace,
}

impl NamespaceRule {
    /// May a policy of the kind reach an object in another namespace than its own?
    pub fn reaches_other_namespaces(self) -> bool {
        match self {
            NamespaceRule::Own => false,
            NamespaceRule::AnyNamespace
            | NamespaceRule::SelectorsWithGrant
            | NamespaceRule::OwnOrMeshRoot
            | NamespaceRule::OwnOrGlobalNamespace => true,
        }
    }

    /// One line for `describe` of a policy and the guide's table of kinds (`docs/policies.md`).
    pub fn describe(self) -> &'static str {
        match self {
            NamespaceRule::Own => "own namespace only",
            NamespaceRule::AnyNamespace => "may name another namespace",
            NamespaceRule::SelectorsWithGrant => {
                "own namespace; selectors in others with a ReferenceGrant"
            }
            NamespaceRule::OwnOrMeshRoot => "own namespace; the root namespace reaches the mesh",
            NamespaceRule::OwnOrGlobalNamespace => {
                "own namespace; selectors everywhere from the global policy namespace"
            }
        }
    }
}

/// What part of a target a kind's reference may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Sections {
    /// The whole object only.
    None,
    /// `sectionName`: a listener, a route rule, a Service port.
    SectionName,
    /// A `sectionNames` list on the one `targetRef` (Azure Application Gateway for
    /// Containers' pre-GEP-2648 shape).
    SectionNames,
    /// A `ports` list on each reference, `[{port: N}]` (Azure
    /// BackendLoadBalancingPolicy's targetRefs): those ports of the target.
    Ports,
    /// `ports` lists in the spec (`lists`, JSON pointers to `[{port: N}]` lists),
    /// settings for those ports of every target; `whole`, the spec field whose settings
    /// cover every port, the whole target (Flomesh HealthCheckPolicy: `/ports` and
    /// `/healthCheck`; Azure BackendTLSPolicy: `/default/ports`, `/override/ports`).
    SpecPorts {
        lists: &'static [&'static str],
        whole: Option<&'static str>,
    },
    /// A `rule` on each targetRef: a rule of a TCP or UDP route (Flomesh).
    Rule,
    /// `sectionName`, and a `port` on a Gateway reference of a frontend policy: the
    /// Gateway's listeners on that port (agentgateway). A port is a level of its own,
    /// between the Gateway and a listener (`port_ranks_below_sections`). What its CRD
    /// refuses, the policy whole: a `port` when the spec sets none of `port_needs`
    /// (JSON pointers), a `sectionName` when it sets one of `no_section_name_with`.
    SectionNameOrPort {
        port_needs: &'static [&'static str],
        no_section_name_with: &'static [&'static str],
    },
}

impl Sections {
    /// Whether its references' sections may be port numbers, resolved to the port of
    /// that number (`ports` lists, agentgateway's `port`).
    pub fn names_ports_by_number(self) -> bool {
        match self {
            Sections::Ports | Sections::SpecPorts { .. } | Sections::SectionNameOrPort { .. } => {
                true
            }
            Sections::None | Sections::SectionName | Sections::SectionNames | Sections::Rule => {
                false
            }
        }
    }

    /// Whether a policy that reaches a Gateway's listeners by their port is less
    /// specific there than one that names the listener: the port a level between the
    /// Gateway and its listeners (agentgateway's frontend precedence "Gateway < Port <
    /// Listener", PR #2363), where it wins over the Gateway's and loses to the
    /// listener's as the kind's merge model says. Otherwise such a policy sits at the
    /// listeners' level.
    pub fn port_ranks_below_sections(self) -> bool {
        match self {
            Sections::SectionNameOrPort { .. } => true,
            Sections::None
            | Sections::SectionName
            | Sections::SectionNames
            | Sections::Ports
            | Sections::SpecPorts { .. }
            | Sections::Rule => false,
        }
    }

    /// The JSON pointers to the spec's per-port lists (`SpecPorts`), none for the other
    /// shapes: where a policy's settings differ from one port of its target to another.
    pub fn spec_port_lists(self) -> &'static [&'static str] {
        match self {
            Sections::SpecPorts { lists, .. } => lists,
            Sections::None
            | Sections::SectionName
            | Sections::SectionNames
            | Sections::Ports
            | Sections::Rule
            | Sections::SectionNameOrPort { .. } => &[],
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Sections::None => "none",
            Sections::SectionName => "sectionName",
            Sections::SectionNames => "sectionNames list",
            Sections::Ports => "ports list",
            Sections::SpecPorts { .. } => "ports list in the spec",
            Sections::Rule => "rule",
            Sections::SectionNameOrPort { .. } => "sectionName or port",
        }
    }
}

/// The `default`/`override` stanzas a kind's spec has, whether GEP-713's or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum DefaultsOverrides {
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

impl DefaultsOverrides {
    pub fn describe(self) -> &'static str {
        match self {
            DefaultsOverrides::None => "none",
            DefaultsOverrides::Gep713 => "defaults/overrides (GEP-713)",
            DefaultsOverrides::DefaultOnly => "default only",
            DefaultsOverrides::DefaultAndOverride => "default/override",
            DefaultsOverrides::Inheritance => "strategy.inheritance Default|Override",
        }
    }
}

/// Everything the tool knows about one policy kind.
#[derive(Clone, Debug, Serialize)]
pub struct PolicyKind {
    pub group: String,
    pub kind: String,
    pub class: Class,
    pub source: ClassSource,
    /// How far down its settings flow (Inherited kinds).
    #[serde(skip)]
    pub flow: Flow,
    /// Settings its vendor refuses on a target of a kind, and whether it refuses the
    /// whole policy or that target.
    #[serde(skip)]
    pub refused_on: &'static [RefusedOn],
    /// Aimed at a listener sharing its port with others.
    #[serde(skip)]
    pub shared_port: SharedPort,
    /// A target kind its controller refuses while the target's GatewayClass merges
    /// its Gateways into one proxy.
    #[serde(skip)]
    pub when_merged: Option<merged::WhenMerged>,
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
    /// Whether a target of another kind is refused, and by what.
    #[serde(skip)]
    pub other_target_kinds: OtherTargetKinds,
    /// The namespaces its policies may reach.
    #[serde(skip)]
    pub namespaces: NamespaceRule,
    /// What part of a target its references may name.
    #[serde(skip)]
    pub sections: Sections,
    #[serde(skip)]
    pub defaults_overrides: DefaultsOverrides,
    /// The class the `gateway.networking.k8s.io/policy` label states: the label of the
    /// CRD in the input, else the one the project ships (registry). May differ from
    /// `class` when the controller behaves otherwise (then the behaviour decides).
    #[serde(skip)]
    pub label: Option<Class>,
    /// The vendor source the registry entry was read from.
    #[serde(skip)]
    pub cite: &'static str,
    /// The objects its spec may name besides its targets, and what its controller does
    /// when one does not resolve (`references`).
    #[serde(skip)]
    pub references: &'static [RefField],
    /// The objects its controller refuses any reference of its to name, whatever the
    /// field (`RefusedReferent`: an ExternalName Service, for Envoy Gateway).
    #[serde(skip)]
    pub refused_referents: &'static [RefusedReferent],
    /// What the objects its references name must themselves have resolve for its
    /// controller to accept it (`Further`).
    #[serde(skip)]
    pub further: &'static [Further],
    /// The project that defines it, when the registry knows.
    #[serde(skip)]
    pub project: &'static str,
}

impl PolicyKind {
    pub fn group_kind(&self) -> GroupKind {
        GroupKind::new(&self.group, &self.kind)
    }

    /// Whether its vendor refuses one of its policies for what the others of the kind
    /// are aimed at or set: its `SharedPort` rule, a `RefusedOn` rule checked again
    /// after merging into a parent's policy, a route's policy translated merged with
    /// its parent's (`MergedParentFields`). Deleting one may then refuse or restore
    /// another.
    pub fn others_turn_on_it(&self) -> bool {
        self.shared_port != SharedPort::Allowed
            || self.refused_on.iter().any(|rule| rule.after_merge)
            || registry::merged_parent_fields(&self.group, &self.kind).is_some()
    }
}

/// Why a `--policy-kind` (`given`) is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeclaredError {
    #[error("--policy-kind {given:?}: expected KIND.GROUP=direct|inherited")]
    NoClass { given: String },
    #[error("--policy-kind {given:?}: class must be direct or inherited, not {class:?}")]
    UnknownClass { given: String, class: String },
    #[error("--policy-kind {given:?}: the kind is empty")]
    EmptyKind { given: String },
}

/// A user's `--policy-kind KIND.GROUP=direct|inherited`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    pub group_kind: GroupKind,
    pub class: Class,
}

impl std::str::FromStr for Declared {
    type Err = DeclaredError;
    fn from_str(given: &str) -> Result<Self, DeclaredError> {
        let (gk, class) = given
            .split_once('=')
            .ok_or_else(|| DeclaredError::NoClass {
                given: given.to_string(),
            })?;
        let class = parse_class_label(class).ok_or_else(|| DeclaredError::UnknownClass {
            given: given.to_string(),
            class: class.to_string(),
        })?;
        let (kind, group) = gk.split_once('.').unwrap_or((gk, ""));
        if kind.is_empty() {
            return Err(DeclaredError::EmptyKind {
                given: given.to_string(),
            });
        }
        Ok(Declared {
            group_kind: GroupKind::new(group, kind),
            class,
        })
    }
}

/// The label's value, compared case-insensitively; `true` means direct.
pub fn parse_class_label(label: &str) -> Option<Class> {
    match label.trim().to_ascii_lowercase().as_str() {
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
        for object in objects.iter().filter(|o| Crd::is_crd(o)) {
            let Some(class) = object
                .labels
                .get(POLICY_LABEL)
                .and_then(|v| parse_class_label(v))
            else {
                continue;
            };
            let Some(crd) = Crd::read(object) else {
                continue;
            };
            let gk = crd.group_kind();
            // The label decides the class of a kind the registry does not know. For one
            // it knows, the controller's behaviour decides (issue 28: kgateway labels
            // TrafficPolicy Direct and inherits it); `label` keeps what the CRD says so
            // `describe` can show that it differs.
            let mut pk = match registry::lookup(&gk) {
                Some(entry) if entry.class == class => entry.to_policy_kind(ClassSource::Label),
                Some(entry) => entry.to_policy_kind(ClassSource::Registry),
                None => generic(&gk, class, ClassSource::Label),
            };
            pk.label = Some(class);
            kinds.insert(gk, pk);
        }
        for entry in registry::entries() {
            let gk = GroupKind::new(entry.group, entry.kind);
            kinds
                .entry(gk)
                .or_insert_with(|| entry.to_policy_kind(ClassSource::Registry));
        }
        for declaration in declared {
            // The user's word beats everything but keeps a registry kind's merge model.
            let mut pk = match registry::lookup(&declaration.group_kind) {
                Some(entry) => entry.to_policy_kind(ClassSource::Declared),
                None => generic(
                    &declaration.group_kind,
                    declaration.class,
                    ClassSource::Declared,
                ),
            };
            pk.source = ClassSource::Declared;
            if let Some(label) = kinds.get(&declaration.group_kind).and_then(|k| k.label) {
                pk.label = Some(label);
            }
            if pk.class != declaration.class {
                let defaults = generic(
                    &declaration.group_kind,
                    declaration.class,
                    ClassSource::Declared,
                );
                pk.class = declaration.class;
                pk.merge = defaults.merge;
                pk.same_target = defaults.same_target;
            }
            kinds.insert(declaration.group_kind.clone(), pk);
        }
        for object in objects {
            let gk = object.group_kind();
            if kinds.contains_key(&gk) || !looks_like_policy(object) {
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
    /// names the kinds it targets, and a GatewayClass is not among them) and names
    /// objects in other namespaces only where a ReferenceGrant lets it (a policy that
    /// may name a Service of any namespace, agentgateway's JWKS one, is read wherever
    /// that Service's answer is asked): what a live read is handed before it reads any
    /// CRD.
    pub fn kinds_for_reading(&self) -> Vec<(GroupKind, bool)> {
        self.kinds
            .iter()
            .map(|(gk, k)| {
                let namespaced = !k.target_kinds.is_empty()
                    && !k.target_kinds.iter().any(|t| t == "GatewayClass")
                    && !k.namespaces.reaches_other_namespaces()
                    && !k
                        .references
                        .iter()
                        .any(|f| f.namespaces == RefNamespaces::Any);
                (gk.clone(), namespaced)
            })
            .collect()
    }

    /// The kinds whose `{kind: Pod, selector}` targetRefs entries pick Pods
    /// (`Targeting::pod_selector`): a live read lists Pods for their policies only.
    pub fn pod_picking_kinds(&self) -> Vec<GroupKind> {
        self.kinds
            .iter()
            .filter(|(_, k)| k.targeting.pod_selector)
            .map(|(gk, _)| gk.clone())
            .collect()
    }

    /// Whether `gk` is a policy kind, and what the tool knows of it. To read a policy's
    /// own kind, `kind_of`.
    pub fn get(&self, gk: &GroupKind) -> Option<&PolicyKind> {
        self.kinds.get(gk)
    }

    /// The entry of policy kind `gk`. Every policy read has one (policies are read only
    /// for the kinds of the catalog they are attached with); a kind the catalog does not
    /// hold (one asked of a world whose input lost its last policy, blast radius' after)
    /// has no policies, and gets GEP-713's defaults for an Inherited kind, `UNKNOWN_KIND`.
    pub fn kind_of(&self, gk: &GroupKind) -> &PolicyKind {
        self.kinds.get(gk).unwrap_or(&UNKNOWN_KIND)
    }

    pub(crate) fn is_policy(&self, object: &Object) -> bool {
        self.kinds.contains_key(&object.group_kind())
    }
}

/// The entry `Catalog::kind_of` gives a kind it does not hold: `generic`'s for an
/// Inherited kind assumed by its name, unnamed (no policy is of it).
pub static UNKNOWN_KIND: PolicyKind = PolicyKind {
    group: String::new(),
    kind: String::new(),
    class: Class::Inherited,
    source: ClassSource::Assumed,
    flow: Flow::Down,
    refused_on: &[],
    shared_port: SharedPort::Allowed,
    merge: MergeModel::Gep713 { rule_paths: &[] },
    same_target: SameTarget::Stack,
    targeting: GENERIC_TARGETING,
    target_kinds: Vec::new(),
    other_target_kinds: OtherTargetKinds::NotRefused,
    namespaces: NamespaceRule::AnyNamespace,
    sections: Sections::SectionName,
    defaults_overrides: DefaultsOverrides::Gep713,
    label: None,
    cite: "",
    references: &[],
    refused_referents: &[],
    further: &[],
    project: "",
    when_merged: None,
};

/// How a kind the registry does not know names its targets: any of GEP-713's fields.
const GENERIC_TARGETING: Targeting = Targeting {
    target_ref: true,
    target_refs: true,
    target_selectors: true,
    workload_selector: false,
    extension_ref: false,
    target_annotation: None,
    annotation_same_in_rule: false,
    pod_selector: false,
};

/// A kind the registry does not know: GEP-713 defaults.
fn generic(gk: &GroupKind, class: Class, source: ClassSource) -> PolicyKind {
    PolicyKind {
        group: gk.group.to_string(),
        kind: gk.kind.to_string(),
        class,
        source,
        flow: Flow::Down,
        refused_on: &[],
        shared_port: SharedPort::Allowed,
        merge: match class {
            Class::Direct => MergeModel::None,
            Class::Inherited => MergeModel::Gep713 { rule_paths: &[] },
        },
        same_target: match class {
            Class::Direct => SameTarget::OldestWins,
            Class::Inherited => SameTarget::Stack,
        },
        targeting: GENERIC_TARGETING,
        target_kinds: Vec::new(),
        other_target_kinds: OtherTargetKinds::NotRefused,
        namespaces: NamespaceRule::AnyNamespace,
        sections: Sections::SectionName,
        defaults_overrides: match class {
            Class::Direct => DefaultsOverrides::None,
            Class::Inherited => DefaultsOverrides::Gep713,
        },
        label: None,
        cite: "",
        references: &[],
        refused_referents: &[],
        further: &[],
        project: "",
        when_merged: None,
    }
}

/// The name-based guess for input without CRDs: a kind ending in `Policy` whose spec
/// has a targeting field.
pub(crate) fn looks_like_policy(object: &Object) -> bool {
    object.kind.ends_with("Policy")
        && ["targetRef", "targetRefs", "targetSelectors"]
            .iter()
            .any(|f| object.spec.get(f).is_some())
}

#[cfg(test)]
mod declared_tests {
    use super::*;

    #[test]
    fn a_kind_the_catalog_does_not_hold_gets_the_generic_inherited_entry() {
        let catalog = Catalog::build(&[], &[]);
        let nowhere = GroupKind::new("nowhere.example", "GhostPolicy");
        assert!(catalog.get(&nowhere).is_none());
        let unnamed = GroupKind::new("", "");
        let generic = generic(&unnamed, Class::Inherited, ClassSource::Assumed);
        assert_eq!(
            format!("{:?}", catalog.kind_of(&nowhere)),
            format!("{generic:?}")
        );
        // A kind it holds is its own entry.
        let held = GroupKind::new("gateway.networking.k8s.io", "BackendTLSPolicy");
        assert_eq!(catalog.kind_of(&held).group_kind(), held);
        assert_eq!(catalog.kind_of(&held).class, Class::Direct);
    }

    #[test]
    fn policy_kind_flags_read_or_say_what_is_wrong() {
        let read = |given: &str| given.parse::<Declared>();
        assert_eq!(
            read("Throttle.example.io=direct"),
            Ok(Declared {
                group_kind: GroupKind::new("example.io", "Throttle"),
                class: Class::Direct,
            })
        );
        assert_eq!(
            read("Throttle.example.io"),
            Err(DeclaredError::NoClass {
                given: "Throttle.example.io".to_string()
            })
        );
        let sideways = read("T.x=sideways").unwrap_err();
        assert_eq!(
            sideways,
            DeclaredError::UnknownClass {
                given: "T.x=sideways".to_string(),
                class: "sideways".to_string()
            }
        );
        assert_eq!(
            sideways.to_string(),
            "--policy-kind \"T.x=sideways\": class must be direct or inherited, not \"sideways\""
        );
        assert!(matches!(
            read(".x=inherited"),
            Err(DeclaredError::EmptyKind { .. })
        ));
    }
}

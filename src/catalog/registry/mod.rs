//! The built-in registry: policy kinds shipped by real projects, with what each one
//! targets and how several of them combine. Many of these CRDs carry no policy label
//! at all, so without this table the tool would not see them; for the ones that do,
//! the table adds the merge model the label cannot express, and where the label and
//! the controller's behaviour disagree, the behaviour.
//!
//! Entries are keyed by group + kind, because the same kind name is reused by
//! unrelated projects (three `RateLimitPolicy` kinds, three `HealthCheckPolicy` kinds).
//! One file per project; every entry cites the vendor source it was read from (the
//! survey `../shared/reference/policy-kinds.md` lists the snapshot commits).

mod agentgateway;
mod airlock;
mod apisix;
mod aws;
mod azure;
mod consul;
mod envoy_ai_gateway;
mod envoy_gateway;
mod flomesh;
mod gateway_api;
mod gke;
mod gloo;
mod istio;
mod kgateway;
mod kong;
mod kuadrant;
mod linkerd;
mod nginx;
mod solo;

use super::merged::{
    ClassParameters, MergedParentFields, SectionByRefPort, ShadowedBy, WhenMerged,
};
use super::{
    Class, ClassSource, DefaultsOverrides, Flow, Further, MergeModel, NamespaceRule,
    OtherTargetKinds, PolicyKind, RefField, RefGroups, RefNamespaces, RefusedOn, RefusedReferent,
    Refuses, SameTarget, Sections, SharedPort, Targeting, Unresolved, ValueKey,
};
use crate::model::GroupKind;

/// One row of the built-in registry.
#[derive(Debug)]
pub struct KnownKind {
    pub group: &'static str,
    pub kind: &'static str,
    /// The class as the project's controller behaves (not necessarily its label).
    pub class: Class,
    /// How far down an Inherited kind's settings flow, with the vendor source that
    /// says so where it is not every level.
    pub flow: Flow,
    /// Settings its vendor refuses on a target of a kind (target kind, spec fields),
    /// and whether that refuses the policy whole (its CRD) or that target (its
    /// controller).
    pub refused_on: &'static [RefusedOn],
    /// Whether one aimed at a listener may share its port with other listeners.
    pub shared_port: SharedPort,
    pub targeting: Targeting,
    /// The kinds it may target (by kind name; the group is the usual one for the kind).
    pub target_kinds: &'static [&'static str],
    /// Whether its vendor refuses a target of a kind not in `target_kinds` (the CRD's
    /// validation or the controller): then such a target is Invalid.
    pub other_target_kinds: OtherTargetKinds,
    /// The namespaces its policies may reach.
    pub namespaces: NamespaceRule,
    /// What part of a target its references may name.
    pub sections: Sections,
    pub merge: MergeModel,
    /// How several policies of the kind on one target combine.
    pub same_target: SameTarget,
    /// Its `default`/`override` stanzas, GEP-713's or not.
    pub defaults_overrides: DefaultsOverrides,
    /// The label its shipped CRD carries, as written (e.g. Some("Direct"),
    /// Some("inherited"), Some("true")); None: no label, or not seen (closed source).
    pub label: Option<&'static str>,
    /// The project that ships it; one of `PROJECTS`.
    pub project: &'static str,
    pub status_shape: &'static str, // "ancestors", "conditions", "statuses map", "none", "unknown"
    /// what the project documents about how the kind merges, one sentence in your own words
    pub note: &'static str,
    /// Where the project documents the rules above (a page a user can open).
    pub documented: &'static str,
    /// The vendor source the entry was read from: `owner/repo@commit path`, or the
    /// documentation set for closed-source projects.
    pub source: &'static str,
    /// The objects its spec names besides its targets: each reference field, the kinds
    /// it may name, where they may be, and what the controller does when one does not
    /// resolve; with the vendor source each was read from.
    pub references: &'static [RefField],
}

impl KnownKind {
    /// The catalog's view of this entry, tagged with where the knowledge came from.
    pub(crate) fn to_policy_kind(&self, source: ClassSource) -> PolicyKind {
        PolicyKind {
            group: self.group.to_string(),
            kind: self.kind.to_string(),
            class: self.class,
            source,
            flow: self.flow,
            refused_on: self.refused_on,
            shared_port: self.shared_port,
            merge: self.merge,
            same_target: self.same_target,
            targeting: self.targeting,
            target_kinds: self.target_kinds.iter().map(|k| k.to_string()).collect(),
            other_target_kinds: self.other_target_kinds,
            namespaces: self.namespaces,
            sections: self.sections,
            defaults_overrides: self.defaults_overrides,
            label: self.label.and_then(super::parse_class_label),
            cite: self.source,
            references: self.references,
            refused_referents: refused_referents(self.group),
            further: further(self.group),
            project: self.project,
            when_merged: when_merged(self.group, self.kind),
        }
    }
}

/// The GatewayClass parameters kinds that can merge a class's Gateways into one proxy,
/// and the field that says so, project by project.
pub fn class_parameters() -> impl Iterator<Item = &'static ClassParameters> {
    envoy_gateway::CLASS_PARAMETERS.iter()
}

/// The policy kinds whose sectionName on a target kind is matched against the port of
/// a route's backendRef.
pub fn sections_by_ref_port() -> impl Iterator<Item = &'static SectionByRefPort> {
    envoy_gateway::SECTION_BY_REF_PORT.iter()
}

/// The settings of (`group`, `kind`) a policy of another kind replaces where both
/// attach (`ShadowedBy`), if its kind has that rule.
pub fn shadowed_by(group: &str, kind: &str) -> Option<&'static ShadowedBy> {
    kgateway::SHADOWED_BY
        .iter()
        .find(|r| r.policy.0 == group && r.policy.1 == kind)
}

/// The parent's fields a route's `mergeType` policy of (`group`, `kind`) is translated
/// with (`MergedParentFields`), if its kind has that rule.
pub fn merged_parent_fields(group: &str, kind: &str) -> Option<&'static MergedParentFields> {
    envoy_gateway::MERGED_PARENT_FIELDS
        .iter()
        .find(|r| r.policy.0 == group && r.policy.1 == kind)
}

/// The objects the controller of group `group`'s policies refuses their references to
/// name (`RefusedReferent`), project by project.
fn refused_referents(group: &str) -> &'static [RefusedReferent] {
    envoy_gateway::REFUSED_REFERENTS
        .iter()
        .find(|(g, _)| *g == group)
        .map_or(&[], |(_, rules)| rules)
}

/// Every `Further` rule of the registry, project by project.
pub fn further_rules() -> impl Iterator<Item = &'static Further> {
    [envoy_gateway::FURTHER, kgateway::FURTHER]
        .into_iter()
        .flatten()
        .flat_map(|(_, rules)| rules.iter())
}

/// What the objects the references of group `group`'s policies name must themselves
/// have resolve (`Further`), project by project.
pub fn further(group: &str) -> &'static [Further] {
    [envoy_gateway::FURTHER, kgateway::FURTHER]
        .into_iter()
        .flatten()
        .find(|(g, _)| *g == group)
        .map_or(&[], |(_, rules)| rules)
}

/// What kind `group`/`kind`'s controller refuses while its target's class merges its
/// Gateways, if anything.
fn when_merged(group: &str, kind: &str) -> Option<WhenMerged> {
    envoy_gateway::WHEN_MERGED
        .iter()
        .find(|(g, k, _)| *g == group && *k == kind)
        .map(|(_, _, rule)| *rule)
}

/// The projects, in the order `docs/policies.md`'s table lists them, each with its entries.
pub static PROJECTS: &[(&str, &[KnownKind])] = &[
    ("Gateway API", gateway_api::ENTRIES),
    ("Envoy Gateway", envoy_gateway::ENTRIES),
    ("Envoy AI Gateway", envoy_ai_gateway::ENTRIES),
    ("Kuadrant", kuadrant::ENTRIES),
    ("NGINX Gateway Fabric", nginx::ENTRIES),
    ("Istio", istio::ENTRIES),
    ("Gloo", gloo::ENTRIES),
    ("kgateway", kgateway::ENTRIES),
    ("agentgateway", agentgateway::ENTRIES),
    ("Solo Enterprise", solo::ENTRIES),
    ("Linkerd", linkerd::ENTRIES),
    ("GKE", gke::ENTRIES),
    ("AWS VPC Lattice", aws::ENTRIES),
    ("Azure AGC", azure::ENTRIES),
    ("Consul", consul::ENTRIES),
    ("Kong", kong::ENTRIES),
    ("APISIX", apisix::ENTRIES),
    ("Airlock", airlock::ENTRIES),
    ("Flomesh", flomesh::ENTRIES),
];

/// Every policy kind the tool knows without being told, project by project.
pub fn entries() -> impl Iterator<Item = &'static KnownKind> {
    PROJECTS.iter().flat_map(|(_, entries)| entries.iter())
}

/// The short names the projects' CRDs declare for their policy kinds (`kubectl get btp`),
/// from each CRD's `names.shortNames` (kubebuilder's `shortName=` markers). A CRD in
/// the input declares its own and is read as well.
pub(crate) const SHORT_NAMES: &[(&str, &str, &[&str])] = &[
    // gateway-api config/crd: backendtlspolicies
    (
        "gateway.networking.k8s.io",
        "BackendTLSPolicy",
        &["btlspolicy"],
    ),
    // envoyproxy/gateway api/v1alpha1/*_types.go
    ("gateway.envoyproxy.io", "BackendTrafficPolicy", &["btp"]),
    ("gateway.envoyproxy.io", "ClientTrafficPolicy", &["ctp"]),
    ("gateway.envoyproxy.io", "SecurityPolicy", &["sp"]),
    ("gateway.envoyproxy.io", "EnvoyPatchPolicy", &["epp"]),
    ("gateway.envoyproxy.io", "EnvoyExtensionPolicy", &["eep"]),
];

/// The short names of a policy kind, from [`SHORT_NAMES`].
pub(crate) fn short_names(group: &str, kind: &str) -> &'static [&'static str] {
    SHORT_NAMES
        .iter()
        .find(|(g, k, _)| *g == group && *k == kind)
        .map(|(_, _, s)| *s)
        .unwrap_or_default()
}

/// The registry entry for exactly this group and kind, if there is one.
/// `gk.group` is expected to be normalised already (`""` for the core group).
pub fn lookup(gk: &GroupKind) -> Option<&'static KnownKind> {
    entries().find(|e| e.group == gk.group && e.kind == gk.kind)
}

// Targeting shapes shared by several entries.

/// A single `targetRef`.
const REF: Targeting = Targeting {
    target_ref: true,
    target_refs: false,
    target_selectors: false,
    workload_selector: false,
    extension_ref: false,
    target_annotation: None,
    annotation_same_in_rule: false,
    pod_selector: false,
};

/// A `targetRefs` list.
const REFS: Targeting = Targeting {
    target_ref: false,
    target_refs: true,
    ..REF
};

/// `targetRefs` or label-based `targetSelectors` (kgateway, agentgateway).
const REFS_OR_SELECTORS: Targeting = Targeting {
    target_selectors: true,
    ..REFS
};

// Target kind lists shared by several entries.

const SERVICE: &[&str] = &["Service"];
const GATEWAY: &[&str] = &["Gateway"];
const HTTPROUTE: &[&str] = &["HTTPRoute"];
const GATEWAY_AND_ROUTES: &[&str] = &["Gateway", "HTTPRoute", "GRPCRoute"];
const GATEWAY_AND_HTTPROUTE: &[&str] = &["Gateway", "HTTPRoute"];
const SERVICE_AND_IMPORT: &[&str] = &["Service", "ServiceImport"];

#[cfg(test)]
mod tests;

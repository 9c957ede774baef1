//! The built-in registry: policy kinds shipped by real projects, with what each one
//! targets and how several of them combine. Many of these CRDs carry no policy label
//! at all, so without this table the tool would not see them; for the ones that do,
//! the table adds the merge model the label cannot express, and where the label and
//! the controller's behaviour disagree, the behaviour.
//!
//! Entries are keyed by group + kind, because the same kind name is reused by
//! unrelated projects (three `RateLimitPolicy` kinds, three `HealthCheckPolicy` kinds).
//! One file per project; every entry cites the vendor source it was read from (`cite`;
//! the survey `../shared/reference/policy-kinds.md` lists the snapshot commits).
//!
//! Each file writes its entries with struct-update syntax from a base of its
//! project's (`const BASE: Entry = Entry { project: "GKE", ..Entry::INHERITED }`, then
//! `Entry { kind: "GCPBackendPolicy", merge: ..., ..BASE }`): every rule of a kind is
//! a field of its `Entry` (what its controller refuses while a class merges its
//! Gateways, the parent's fields a merged route policy is translated with, the
//! settings another kind's policy replaces, its short names), none in a table beside
//! it. What a project reads beside its kinds (the GatewayClass parameters that merge a
//! class's Gateways) is its `Project`'s.

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
    ActsPerLevel, ClassParameters, MergedParentFields, SectionByRefPort, ShadowedBy, WhenMerged,
};
use super::{
    Class, DefaultsOverrides, Entry, Flow, Further, MergeModel, NamespaceRule, OtherTargetKinds,
    RefField, RefGroups, RefNamespaces, RefusedOn, RefusedReferent, Refuses, SameTarget, Sections,
    SharedPort, Targeting, Unresolved, ValueKey,
};
use crate::model::GroupKind;
use std::sync::LazyLock;

/// A project: its name, its policy kinds, and what it reads beside them.
#[derive(Debug)]
pub struct Project {
    /// As `docs/policies.md`'s table names it; every entry's `project`.
    pub name: &'static str,
    pub entries: &'static [Entry],
    /// The GatewayClass parameters kinds that can merge a class's Gateways into one
    /// proxy, and the field that says so.
    pub(crate) class_parameters: &'static [ClassParameters],
}

impl Project {
    const fn of(name: &'static str, entries: &'static [Entry]) -> Project {
        Project {
            name,
            entries,
            class_parameters: &[],
        }
    }
}

/// The GatewayClass parameters kinds that can merge a class's Gateways into one proxy,
/// and the field that says so, project by project.
pub(crate) fn class_parameters() -> impl Iterator<Item = &'static ClassParameters> {
    PROJECTS.iter().flat_map(|p| p.class_parameters)
}

/// Every `Further` rule of the registry, each once, project by project (the entries of
/// a project share theirs): gathered once, since a narrowing asks for them per object.
pub(crate) fn further_rules() -> impl Iterator<Item = &'static Further> {
    static RULES: LazyLock<Vec<&'static Further>> = LazyLock::new(|| {
        let mut rules: Vec<&'static Further> = Vec::new();
        for rule in entries().flat_map(|e| e.further) {
            if !rules.contains(&rule) {
                rules.push(rule);
            }
        }
        rules
    });
    RULES.iter().copied()
}

/// The projects, in the order `docs/policies.md`'s table lists them, each with its entries.
pub static PROJECTS: &[Project] = &[
    Project::of("Gateway API", gateway_api::ENTRIES),
    Project {
        class_parameters: envoy_gateway::CLASS_PARAMETERS,
        ..Project::of("Envoy Gateway", envoy_gateway::ENTRIES)
    },
    Project::of("Envoy AI Gateway", envoy_ai_gateway::ENTRIES),
    Project::of("Kuadrant", kuadrant::ENTRIES),
    Project::of("NGINX Gateway Fabric", nginx::ENTRIES),
    Project::of("Istio", istio::ENTRIES),
    Project::of("Gloo", gloo::ENTRIES),
    Project::of("kgateway", kgateway::ENTRIES),
    Project::of("agentgateway", agentgateway::ENTRIES),
    Project::of("Solo Enterprise", solo::ENTRIES),
    Project::of("Linkerd", linkerd::ENTRIES),
    Project::of("GKE", gke::ENTRIES),
    Project::of("AWS VPC Lattice", aws::ENTRIES),
    Project::of("Azure AGC", azure::ENTRIES),
    Project::of("Consul", consul::ENTRIES),
    Project::of("Kong", kong::ENTRIES),
    Project::of("APISIX", apisix::ENTRIES),
    Project::of("Airlock", airlock::ENTRIES),
    Project::of("Flomesh", flomesh::ENTRIES),
];

/// Every policy kind the tool knows without being told, project by project.
pub fn entries() -> impl Iterator<Item = &'static Entry> {
    PROJECTS.iter().flat_map(|p| p.entries)
}

/// The registry entry for exactly this group and kind, if there is one.
/// `gk.group` is expected to be normalised already (`""` for the core group).
pub(crate) fn lookup(gk: &GroupKind) -> Option<&'static Entry> {
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

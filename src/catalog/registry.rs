//! The built-in registry: policy kinds shipped by real projects, with what each one
//! targets and how several of them combine. Many of these CRDs carry no policy label
//! at all, so without this table the tool would not see them; for the ones that do,
//! the table adds the merge model the label cannot express.
//!
//! Entries are keyed by group + kind, because the same kind name is reused by
//! unrelated projects (two `RateLimitPolicy` kinds, two `AuthorizationPolicy` kinds).

use super::{Class, ClassSource, MergeModel, PolicyKind, Targeting};
use crate::model::GroupKind;

/// One row of the built-in registry.
#[derive(Debug)]
pub struct Entry {
    pub group: &'static str,
    pub kind: &'static str,
    pub class: Class,
    pub targeting: Targeting,
    pub target_kinds: &'static [&'static str],
    pub section_name: bool,
    pub merge: MergeModel,
    /// true only where the registry knows better than the CRD's label (kgateway TrafficPolicy is labelled Direct but merges hierarchically)
    pub overrides_label: bool,
    /// the label real CRDs carry, if any (e.g. Some("Direct"), Some("inherited"))
    pub label: Option<&'static str>,
    pub project: &'static str, // "Gateway API", "Envoy Gateway", "Kuadrant", "NGINX Gateway Fabric", "Istio", "Gloo", "kgateway", "Linkerd", "GKE"
    pub status_shape: &'static str, // "ancestors", "conditions", "statuses map", "none"
    /// what the project documents about how the kind merges, one sentence in your own words
    pub note: &'static str,
}

impl Entry {
    /// The catalog's view of this entry, tagged with where the knowledge came from.
    pub fn to_policy_kind(&self, source: ClassSource) -> PolicyKind {
        PolicyKind {
            group: self.group.to_string(),
            kind: self.kind.to_string(),
            class: self.class,
            source,
            merge: self.merge,
            targeting: self.targeting,
            target_kinds: self.target_kinds.iter().map(|k| k.to_string()).collect(),
            section_name: self.section_name,
            project: self.project,
        }
    }
}

/// The registry entry for exactly this group and kind, if there is one.
/// `gk.group` is expected to be normalised already (`""` for the core group).
pub fn lookup(gk: &GroupKind) -> Option<&'static Entry> {
    ENTRIES
        .iter()
        .find(|e| e.group == gk.group && e.kind == gk.kind)
}

// Targeting shapes shared by several entries.

/// A single `targetRef`.
const REF: Targeting = Targeting {
    target_ref: true,
    target_refs: false,
    target_selectors: false,
    workload_selector: false,
};

/// A `targetRefs` list.
const REFS: Targeting = Targeting {
    target_ref: false,
    target_refs: true,
    target_selectors: false,
    workload_selector: false,
};

/// `targetRefs` or label-based `targetSelectors` (kgateway).
const REFS_OR_SELECTORS: Targeting = Targeting {
    target_ref: false,
    target_refs: true,
    target_selectors: true,
    workload_selector: false,
};

/// Envoy Gateway accepts all three Gateway API shapes.
const EG_TARGETING: Targeting = Targeting {
    target_ref: true,
    target_refs: true,
    target_selectors: true,
    workload_selector: false,
};

/// Istio security/telemetry/extension kinds: a workload `selector`, or Gateway API refs.
const ISTIO_TARGETING: Targeting = Targeting {
    target_ref: true,
    target_refs: true,
    target_selectors: false,
    workload_selector: true,
};

/// Istio EnvoyFilter: `workloadSelector` or `targetRefs`.
const ENVOY_FILTER_TARGETING: Targeting = Targeting {
    target_ref: false,
    target_refs: true,
    target_selectors: false,
    workload_selector: true,
};

// Target kind lists shared by several entries.

const SERVICE: &[&str] = &["Service"];
const GATEWAY: &[&str] = &["Gateway"];
const GATEWAY_AND_ROUTES: &[&str] = &["Gateway", "HTTPRoute", "GRPCRoute"];
const GATEWAY_AND_HTTPROUTE: &[&str] = &["Gateway", "HTTPRoute"];
const GKE_BACKENDS: &[&str] = &["Service", "ServiceImport"];
const EG_ALL_TARGETS: &[&str] = &[
    "Gateway",
    "ListenerSet",
    "HTTPRoute",
    "GRPCRoute",
    "TCPRoute",
    "TLSRoute",
    "UDPRoute",
];
const ISTIO_TARGETS: &[&str] = &["Gateway", "GatewayClass", "Service", "ServiceEntry"];

/// Kuadrant AuthPolicy: the JSON pointers under which children are named rules.
const AUTH_POLICY_RULE_PATHS: &[&str] = &[
    "/rules/authentication",
    "/rules/metadata",
    "/rules/authorization",
    "/rules/response/success/headers",
    "/rules/response/success/filters",
    "/rules/callbacks",
];

/// Kuadrant rate limits are merged by limit name.
const LIMITS_RULE_PATHS: &[&str] = &["/limits"];

/// Every policy kind the tool knows without being told.
pub static ENTRIES: &[Entry] = &[
    // ---- Gateway API ----
    Entry {
        group: "gateway.networking.k8s.io",
        kind: "BackendTLSPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: SERVICE,
        section_name: true,
        merge: MergeModel::None,
        overrides_label: false,
        label: Some("Direct"),
        project: "Gateway API",
        status_shape: "ancestors",
        note: "One policy per Service (or Service port); the oldest one applies and any later one is marked Conflicted.",
    },
    Entry {
        group: "gateway.networking.x-k8s.io",
        kind: "XBackendTrafficPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: SERVICE,
        section_name: false,
        merge: MergeModel::None,
        overrides_label: false,
        label: Some("Direct"),
        project: "Gateway API",
        status_shape: "ancestors",
        note: "Experimental per-Service traffic settings that attach directly and are never combined.",
    },
    Entry {
        group: "gateway.networking.k8s.io",
        kind: "BackendLBPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: SERVICE,
        section_name: false,
        merge: MergeModel::None,
        overrides_label: false,
        label: Some("Direct"),
        project: "Gateway API",
        status_shape: "ancestors",
        note: "Retired experimental load-balancing settings for a Service; attached directly with no merging.",
    },
    // ---- Envoy Gateway ----
    Entry {
        group: "gateway.envoyproxy.io",
        kind: "ClientTrafficPolicy",
        class: Class::Inherited,
        targeting: EG_TARGETING,
        target_kinds: &["Gateway", "ListenerSet"],
        section_name: true,
        merge: MergeModel::MostSpecificWins,
        overrides_label: false,
        label: None,
        project: "Envoy Gateway",
        status_shape: "ancestors",
        note: "Nothing is merged: a policy aimed at a listener replaces one aimed at its whole Gateway.",
    },
    Entry {
        group: "gateway.envoyproxy.io",
        kind: "BackendTrafficPolicy",
        class: Class::Inherited,
        targeting: EG_TARGETING,
        target_kinds: EG_ALL_TARGETS,
        section_name: true,
        merge: MergeModel::EnvoyMergeType,
        overrides_label: false,
        label: None,
        project: "Envoy Gateway",
        status_shape: "ancestors",
        note: "A route-level policy that sets mergeType is folded into the nearest parent's policy; without mergeType the closest policy wins outright.",
    },
    Entry {
        group: "gateway.envoyproxy.io",
        kind: "SecurityPolicy",
        class: Class::Inherited,
        targeting: EG_TARGETING,
        target_kinds: &["Gateway", "ListenerSet", "HTTPRoute", "GRPCRoute", "TCPRoute"],
        section_name: true,
        merge: MergeModel::EnvoyMergeType,
        overrides_label: false,
        label: None,
        project: "Envoy Gateway",
        status_shape: "ancestors",
        note: "Same scheme as BackendTrafficPolicy: route policies opt into merging with the parent through mergeType.",
    },
    Entry {
        group: "gateway.envoyproxy.io",
        kind: "EnvoyExtensionPolicy",
        class: Class::Inherited,
        targeting: EG_TARGETING,
        target_kinds: EG_ALL_TARGETS,
        section_name: true,
        merge: MergeModel::EnvoyMergeType,
        overrides_label: false,
        label: None,
        project: "Envoy Gateway",
        status_shape: "ancestors",
        note: "Extension settings follow the mergeType rule: merged into the parent when a route policy asks for it, otherwise most specific wins.",
    },
    Entry {
        group: "gateway.envoyproxy.io",
        kind: "EnvoyPatchPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: &["Gateway", "GatewayClass"],
        section_name: false,
        merge: MergeModel::None,
        overrides_label: false,
        label: None,
        project: "Envoy Gateway",
        status_shape: "ancestors",
        note: "Raw xDS patches applied to the generated config; priority only orders them, there is no inheritance.",
    },
    // ---- Kuadrant ----
    Entry {
        group: "kuadrant.io",
        kind: "AuthPolicy",
        class: Class::Inherited,
        targeting: REF,
        target_kinds: GATEWAY_AND_ROUTES,
        section_name: true,
        merge: MergeModel::Gep713 {
            rule_paths: AUTH_POLICY_RULE_PATHS,
        },
        overrides_label: false,
        label: Some("inherited"),
        project: "Kuadrant",
        status_shape: "conditions",
        note: "Full GEP-713 defaults and overrides with atomic (the default) or merge strategy; a spec without either is treated as atomic defaults.",
    },
    Entry {
        group: "kuadrant.io",
        kind: "RateLimitPolicy",
        class: Class::Inherited,
        targeting: REF,
        target_kinds: GATEWAY_AND_ROUTES,
        section_name: true,
        merge: MergeModel::Gep713 {
            rule_paths: LIMITS_RULE_PATHS,
        },
        overrides_label: false,
        label: Some("inherited"),
        project: "Kuadrant",
        status_shape: "conditions",
        note: "Works like AuthPolicy, with each named limit being one rule when the merge strategy combines policies.",
    },
    Entry {
        group: "kuadrant.io",
        kind: "TokenRateLimitPolicy",
        class: Class::Inherited,
        targeting: REF,
        target_kinds: GATEWAY_AND_HTTPROUTE,
        section_name: true,
        merge: MergeModel::Gep713 {
            rule_paths: LIMITS_RULE_PATHS,
        },
        overrides_label: false,
        label: Some("inherited"),
        project: "Kuadrant",
        status_shape: "conditions",
        note: "Token-based limits that combine exactly like RateLimitPolicy, keyed by limit name.",
    },
    Entry {
        group: "kuadrant.io",
        kind: "DNSPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: GATEWAY,
        section_name: true,
        merge: MergeModel::None,
        overrides_label: false,
        label: Some("direct"),
        project: "Kuadrant",
        status_shape: "conditions",
        note: "DNS records for a Gateway or one of its listeners; attached directly, never merged.",
    },
    Entry {
        group: "kuadrant.io",
        kind: "TLSPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: GATEWAY,
        section_name: true,
        merge: MergeModel::None,
        overrides_label: false,
        label: Some("direct"),
        project: "Kuadrant",
        status_shape: "conditions",
        note: "Certificate management for a Gateway or listener; one policy per target with no combining.",
    },
    Entry {
        group: "extensions.kuadrant.io",
        kind: "OIDCPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: GATEWAY_AND_HTTPROUTE,
        section_name: true,
        merge: MergeModel::None,
        overrides_label: false,
        label: None,
        project: "Kuadrant",
        status_shape: "conditions",
        note: "Extension that configures an OIDC login flow on its target only; nothing is inherited or merged.",
    },
    Entry {
        group: "extensions.kuadrant.io",
        kind: "PlanPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: GATEWAY_AND_ROUTES,
        section_name: true,
        merge: MergeModel::None,
        overrides_label: false,
        label: None,
        project: "Kuadrant",
        status_shape: "conditions",
        note: "Extension that maps plans to limits on its own target; it does not take part in any merge.",
    },
    Entry {
        group: "extensions.kuadrant.io",
        kind: "TelemetryPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: GATEWAY_AND_HTTPROUTE,
        section_name: true,
        merge: MergeModel::None,
        overrides_label: false,
        label: None,
        project: "Kuadrant",
        status_shape: "conditions",
        note: "Extension for metric labels on its target; its metrics.default field is not a GEP-713 default.",
    },
    // ---- NGINX Gateway Fabric ----
    Entry {
        group: "gateway.nginx.org",
        kind: "ClientSettingsPolicy",
        class: Class::Inherited,
        targeting: REF,
        target_kinds: GATEWAY_AND_ROUTES,
        section_name: false,
        merge: MergeModel::PatchDefaults,
        overrides_label: false,
        label: Some("inherited"),
        project: "NGINX Gateway Fabric",
        status_shape: "ancestors",
        note: "Settings on a route take precedence field by field over the ones set on its Gateway.",
    },
    Entry {
        group: "gateway.nginx.org",
        kind: "ObservabilityPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: &["HTTPRoute", "GRPCRoute"],
        section_name: false,
        merge: MergeModel::None,
        overrides_label: false,
        label: Some("direct"),
        project: "NGINX Gateway Fabric",
        status_shape: "ancestors",
        note: "Tracing settings for the routes it names; one policy per route, no merging.",
    },
    Entry {
        group: "gateway.nginx.org",
        kind: "ProxySettingsPolicy",
        class: Class::Inherited,
        targeting: REFS,
        target_kinds: GATEWAY_AND_ROUTES,
        section_name: false,
        merge: MergeModel::MostSpecificWins,
        overrides_label: false,
        label: Some("inherited"),
        project: "NGINX Gateway Fabric",
        status_shape: "ancestors",
        note: "Flows from a Gateway down to its routes, with the closest policy taking effect as a whole.",
    },
    Entry {
        group: "gateway.nginx.org",
        kind: "RateLimitPolicy",
        class: Class::Inherited,
        targeting: REFS,
        target_kinds: GATEWAY_AND_ROUTES,
        section_name: false,
        merge: MergeModel::MostSpecificWins,
        overrides_label: false,
        label: Some("inherited"),
        project: "NGINX Gateway Fabric",
        status_shape: "ancestors",
        note: "Unrelated to Kuadrant's kind of the same name: no strategy fields, the most specific policy applies whole.",
    },
    Entry {
        group: "gateway.nginx.org",
        kind: "SnippetsPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: GATEWAY,
        section_name: false,
        merge: MergeModel::None,
        overrides_label: false,
        label: Some("direct"),
        project: "NGINX Gateway Fabric",
        status_shape: "ancestors",
        note: "Raw NGINX snippets injected for one Gateway; attached directly and never combined.",
    },
    Entry {
        group: "gateway.nginx.org",
        kind: "UpstreamSettingsPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: SERVICE,
        section_name: false,
        merge: MergeModel::None,
        overrides_label: false,
        label: Some("direct"),
        project: "NGINX Gateway Fabric",
        status_shape: "ancestors",
        note: "Upstream connection settings for a Service (its group may be spelt core); one per Service.",
    },
    Entry {
        group: "gateway.nginx.org",
        kind: "WAFPolicy",
        class: Class::Inherited,
        targeting: REFS,
        target_kinds: GATEWAY_AND_ROUTES,
        section_name: false,
        merge: MergeModel::MostSpecificWins,
        overrides_label: false,
        label: Some("inherited"),
        project: "NGINX Gateway Fabric",
        status_shape: "ancestors",
        note: "Firewall protection inherited from the Gateway unless a route carries its own, which then replaces it.",
    },
    // ---- Istio ----
    Entry {
        group: "security.istio.io",
        kind: "AuthorizationPolicy",
        class: Class::Direct,
        targeting: ISTIO_TARGETING,
        target_kinds: ISTIO_TARGETS,
        section_name: false,
        merge: MergeModel::Accumulated,
        overrides_label: false,
        label: None,
        project: "Istio",
        status_shape: "conditions",
        note: "All matching policies are evaluated together by the proxy (CUSTOM, then DENY, then ALLOW); nothing is merged.",
    },
    Entry {
        group: "security.istio.io",
        kind: "RequestAuthentication",
        class: Class::Direct,
        targeting: ISTIO_TARGETING,
        target_kinds: ISTIO_TARGETS,
        section_name: false,
        merge: MergeModel::Accumulated,
        overrides_label: false,
        label: None,
        project: "Istio",
        status_shape: "conditions",
        note: "Every JWT rule that reaches a workload is accepted side by side; policies do not override each other.",
    },
    Entry {
        group: "telemetry.istio.io",
        kind: "Telemetry",
        class: Class::Direct,
        targeting: ISTIO_TARGETING,
        target_kinds: ISTIO_TARGETS,
        section_name: false,
        merge: MergeModel::Accumulated,
        overrides_label: false,
        label: None,
        project: "Istio",
        status_shape: "conditions",
        note: "Telemetry resources from the mesh, namespace and workload levels are all considered by Istio rather than merged in GEP-713 fashion.",
    },
    Entry {
        group: "extensions.istio.io",
        kind: "WasmPlugin",
        class: Class::Direct,
        targeting: ISTIO_TARGETING,
        target_kinds: ISTIO_TARGETS,
        section_name: false,
        merge: MergeModel::Accumulated,
        overrides_label: false,
        label: None,
        project: "Istio",
        status_shape: "conditions",
        note: "Each plugin that selects a workload is loaded alongside the others, ordered by phase and priority.",
    },
    Entry {
        group: "networking.istio.io",
        kind: "EnvoyFilter",
        class: Class::Direct,
        targeting: ENVOY_FILTER_TARGETING,
        target_kinds: ISTIO_TARGETS,
        section_name: false,
        merge: MergeModel::Accumulated,
        overrides_label: false,
        label: None,
        project: "Istio",
        status_shape: "conditions",
        note: "Every matching filter patches the generated Envoy config in turn; none replaces another.",
    },
    // ---- Gloo ----
    Entry {
        group: "gateway.solo.io",
        kind: "RouteOption",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: &["HTTPRoute"],
        section_name: false,
        merge: MergeModel::None,
        overrides_label: false,
        label: None,
        project: "Gloo",
        status_shape: "statuses map",
        note: "Route options attached to one HTTPRoute (the reference may name a namespace); no inheritance is documented.",
    },
    Entry {
        group: "gateway.solo.io",
        kind: "VirtualHostOption",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: GATEWAY,
        section_name: true,
        merge: MergeModel::None,
        overrides_label: false,
        label: None,
        project: "Gloo",
        status_shape: "statuses map",
        note: "Virtual host settings for a Gateway or one of its listeners; attached directly.",
    },
    Entry {
        group: "gateway.solo.io",
        kind: "ListenerOption",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: GATEWAY,
        section_name: true,
        merge: MergeModel::None,
        overrides_label: false,
        label: None,
        project: "Gloo",
        status_shape: "statuses map",
        note: "Listener-level settings for a Gateway or a single listener, with no merging across policies.",
    },
    Entry {
        group: "gateway.solo.io",
        kind: "HttpListenerOption",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: GATEWAY,
        section_name: true,
        merge: MergeModel::None,
        overrides_label: false,
        label: None,
        project: "Gloo",
        status_shape: "statuses map",
        note: "HTTP connection settings for a Gateway or listener; one policy per target.",
    },
    // ---- kgateway ----
    Entry {
        group: "gateway.kgateway.dev",
        kind: "TrafficPolicy",
        class: Class::Inherited,
        targeting: REFS_OR_SELECTORS,
        target_kinds: &["Gateway", "HTTPRoute", "GRPCRoute", "ListenerSet"],
        section_name: true,
        merge: MergeModel::KgatewayPriority,
        overrides_label: true,
        label: Some("Direct"),
        project: "kgateway",
        status_shape: "ancestors",
        note: "Despite its Direct label it is inherited: an annotation on the parent chooses shallow or deep merging and whether child or parent wins (shallow, child by default).",
    },
    Entry {
        group: "gateway.kgateway.dev",
        kind: "ListenerPolicy",
        class: Class::Direct,
        targeting: REFS_OR_SELECTORS,
        target_kinds: GATEWAY,
        section_name: false,
        merge: MergeModel::None,
        overrides_label: false,
        label: Some("Direct"),
        project: "kgateway",
        status_shape: "ancestors",
        note: "Listener settings for a Gateway, with per-port entries refining its own default block rather than other policies.",
    },
    Entry {
        group: "gateway.kgateway.dev",
        kind: "BackendConfigPolicy",
        class: Class::Direct,
        targeting: REFS_OR_SELECTORS,
        target_kinds: &["Service", "Backend"],
        section_name: false,
        merge: MergeModel::None,
        overrides_label: false,
        label: Some("Direct"),
        project: "kgateway",
        status_shape: "ancestors",
        note: "Connection settings for a Service or Backend; attached directly with no merging.",
    },
    // ---- Linkerd ----
    Entry {
        group: "policy.linkerd.io",
        kind: "AuthorizationPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: &["Server", "Namespace", "HTTPRoute", "GRPCRoute"],
        section_name: false,
        merge: MergeModel::Accumulated,
        overrides_label: false,
        label: None,
        project: "Linkerd",
        status_shape: "none",
        note: "Each grants access to the resource it names; several on one resource add up (any one that matches allows), so none conflicts or overrides another.",
    },
    Entry {
        group: "policy.linkerd.io",
        kind: "HTTPLocalRateLimitPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: &["Server"],
        section_name: false,
        merge: MergeModel::None,
        overrides_label: false,
        label: None,
        project: "Linkerd",
        status_shape: "conditions",
        note: "A rate limit for one Server; its overrides list is about specific clients, not GEP-713 overrides.",
    },
    // ---- GKE ----
    Entry {
        group: "networking.gke.io",
        kind: "GCPBackendPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: GKE_BACKENDS,
        section_name: false,
        merge: MergeModel::None,
        overrides_label: false,
        label: Some("Direct"),
        project: "GKE",
        status_shape: "ancestors",
        note: "Load balancer backend settings for a Service or ServiceImport (possibly in another namespace); only a default block, one policy per backend.",
    },
    Entry {
        group: "networking.gke.io",
        kind: "HealthCheckPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: GKE_BACKENDS,
        section_name: false,
        merge: MergeModel::None,
        overrides_label: false,
        label: Some("Direct"),
        project: "GKE",
        status_shape: "conditions",
        note: "Health check settings for a backend Service; its default block is not a GEP-713 inherited default.",
    },
    Entry {
        group: "networking.gke.io",
        kind: "GCPGatewayPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: GATEWAY,
        section_name: false,
        merge: MergeModel::None,
        overrides_label: false,
        label: Some("Direct"),
        project: "GKE",
        status_shape: "conditions",
        note: "Load balancer settings for a whole Gateway, applied directly with no combining.",
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::parse_class_label;
    use std::collections::BTreeSet;

    /// One (group, kind) per kind listed in the reference table.
    const EXPECTED: &[(&str, &str)] = &[
        ("gateway.networking.k8s.io", "BackendTLSPolicy"),
        ("gateway.networking.x-k8s.io", "XBackendTrafficPolicy"),
        ("gateway.networking.k8s.io", "BackendLBPolicy"),
        ("gateway.envoyproxy.io", "ClientTrafficPolicy"),
        ("gateway.envoyproxy.io", "BackendTrafficPolicy"),
        ("gateway.envoyproxy.io", "SecurityPolicy"),
        ("gateway.envoyproxy.io", "EnvoyExtensionPolicy"),
        ("gateway.envoyproxy.io", "EnvoyPatchPolicy"),
        ("kuadrant.io", "AuthPolicy"),
        ("kuadrant.io", "RateLimitPolicy"),
        ("kuadrant.io", "TokenRateLimitPolicy"),
        ("kuadrant.io", "DNSPolicy"),
        ("kuadrant.io", "TLSPolicy"),
        ("extensions.kuadrant.io", "OIDCPolicy"),
        ("extensions.kuadrant.io", "PlanPolicy"),
        ("extensions.kuadrant.io", "TelemetryPolicy"),
        ("gateway.nginx.org", "ClientSettingsPolicy"),
        ("gateway.nginx.org", "ObservabilityPolicy"),
        ("gateway.nginx.org", "ProxySettingsPolicy"),
        ("gateway.nginx.org", "RateLimitPolicy"),
        ("gateway.nginx.org", "SnippetsPolicy"),
        ("gateway.nginx.org", "UpstreamSettingsPolicy"),
        ("gateway.nginx.org", "WAFPolicy"),
        ("security.istio.io", "AuthorizationPolicy"),
        ("security.istio.io", "RequestAuthentication"),
        ("telemetry.istio.io", "Telemetry"),
        ("extensions.istio.io", "WasmPlugin"),
        ("networking.istio.io", "EnvoyFilter"),
        ("gateway.solo.io", "RouteOption"),
        ("gateway.solo.io", "VirtualHostOption"),
        ("gateway.solo.io", "ListenerOption"),
        ("gateway.solo.io", "HttpListenerOption"),
        ("gateway.kgateway.dev", "TrafficPolicy"),
        ("gateway.kgateway.dev", "ListenerPolicy"),
        ("gateway.kgateway.dev", "BackendConfigPolicy"),
        ("policy.linkerd.io", "AuthorizationPolicy"),
        ("policy.linkerd.io", "HTTPLocalRateLimitPolicy"),
        ("networking.gke.io", "GCPBackendPolicy"),
        ("networking.gke.io", "HealthCheckPolicy"),
        ("networking.gke.io", "GCPGatewayPolicy"),
    ];

    fn is_istio(e: &Entry) -> bool {
        e.group.ends_with("istio.io")
    }

    #[test]
    fn every_reference_row_has_an_entry() {
        for (group, kind) in EXPECTED {
            let e = lookup(&GroupKind::new(group, kind))
                .unwrap_or_else(|| panic!("missing registry entry for {kind}.{group}"));
            assert_eq!((e.group, e.kind), (*group, *kind));
        }
        assert_eq!(
            ENTRIES.len(),
            EXPECTED.len(),
            "registry has unexpected entries"
        );
    }

    #[test]
    fn rate_limit_policy_differs_by_group() {
        let kuadrant = lookup(&GroupKind::new("kuadrant.io", "RateLimitPolicy")).unwrap();
        let nginx = lookup(&GroupKind::new("gateway.nginx.org", "RateLimitPolicy")).unwrap();
        assert_eq!(
            kuadrant.merge,
            MergeModel::Gep713 {
                rule_paths: &["/limits"]
            }
        );
        assert_eq!(nginx.merge, MergeModel::MostSpecificWins);
        assert_ne!(kuadrant.merge, nginx.merge);
        assert_ne!(kuadrant.project, nginx.project);
    }

    #[test]
    fn authorization_policy_differs_by_group() {
        let istio = lookup(&GroupKind::new("security.istio.io", "AuthorizationPolicy")).unwrap();
        let linkerd = lookup(&GroupKind::new("policy.linkerd.io", "AuthorizationPolicy")).unwrap();
        assert_eq!(istio.merge, MergeModel::Accumulated);
        assert!(istio.targeting.workload_selector);
        assert_eq!(linkerd.merge, MergeModel::Accumulated);
        assert!(!linkerd.targeting.workload_selector);
    }

    #[test]
    fn missing_kind_is_none() {
        assert!(lookup(&GroupKind::new("example.com", "NoSuchPolicy")).is_none());
        // Right kind, wrong group.
        assert!(lookup(&GroupKind::new("example.com", "RateLimitPolicy")).is_none());
        // Right group, wrong kind.
        assert!(lookup(&GroupKind::new("kuadrant.io", "BackendTLSPolicy")).is_none());
    }

    #[test]
    fn no_duplicate_group_kind() {
        let mut seen = BTreeSet::new();
        for e in ENTRIES {
            assert!(
                seen.insert((e.group, e.kind)),
                "duplicate entry {}.{}",
                e.kind,
                e.group
            );
        }
    }

    #[test]
    fn direct_entries_do_not_merge_except_accumulating_ones() {
        for e in ENTRIES.iter().filter(|e| e.class == Class::Direct) {
            if is_istio(e) {
                assert_eq!(e.merge, MergeModel::Accumulated, "{}.{}", e.kind, e.group);
                assert!(e.targeting.workload_selector, "{}.{}", e.kind, e.group);
            } else if (e.group, e.kind) == ("policy.linkerd.io", "AuthorizationPolicy") {
                // Linkerd authorizations add up: any matching one allows.
                assert_eq!(e.merge, MergeModel::Accumulated);
            } else {
                assert_eq!(e.merge, MergeModel::None, "{}.{}", e.kind, e.group);
            }
        }
    }

    #[test]
    fn labels_agree_with_class_unless_overridden() {
        for e in ENTRIES {
            let Some(label) = e.label else {
                assert!(!e.overrides_label, "{}.{}", e.kind, e.group);
                continue;
            };
            let parsed = parse_class_label(label).expect("label parses");
            if e.overrides_label {
                assert_ne!(parsed, e.class, "{}.{}", e.kind, e.group);
            } else {
                assert_eq!(parsed, e.class, "{}.{}", e.kind, e.group);
            }
        }
        let overriding: Vec<_> = ENTRIES.iter().filter(|e| e.overrides_label).collect();
        assert_eq!(overriding.len(), 1);
        assert_eq!(overriding[0].kind, "TrafficPolicy");
        assert_eq!(overriding[0].merge, MergeModel::KgatewayPriority);
    }

    #[test]
    fn fields_use_known_vocabulary() {
        const PROJECTS: &[&str] = &[
            "Gateway API",
            "Envoy Gateway",
            "Kuadrant",
            "NGINX Gateway Fabric",
            "Istio",
            "Gloo",
            "kgateway",
            "Linkerd",
            "GKE",
        ];
        const SHAPES: &[&str] = &["ancestors", "conditions", "statuses map", "none"];
        for e in ENTRIES {
            assert!(PROJECTS.contains(&e.project), "{}.{}", e.kind, e.group);
            assert!(SHAPES.contains(&e.status_shape), "{}.{}", e.kind, e.group);
            assert!(!e.target_kinds.is_empty(), "{}.{}", e.kind, e.group);
            assert!(!e.note.is_empty(), "{}.{}", e.kind, e.group);
            let t = e.targeting;
            assert!(
                t.target_ref || t.target_refs || t.target_selectors || t.workload_selector,
                "{}.{} has no way to target",
                e.kind,
                e.group
            );
        }
    }

    #[test]
    fn envoy_gateway_and_kuadrant_models() {
        let gk = |g: &str, k: &str| lookup(&GroupKind::new(g, k)).unwrap();
        let eg = "gateway.envoyproxy.io";
        assert_eq!(
            gk(eg, "ClientTrafficPolicy").merge,
            MergeModel::MostSpecificWins
        );
        for k in [
            "BackendTrafficPolicy",
            "SecurityPolicy",
            "EnvoyExtensionPolicy",
        ] {
            assert_eq!(gk(eg, k).class, Class::Inherited);
            assert_eq!(gk(eg, k).merge, MergeModel::EnvoyMergeType);
        }
        assert_eq!(gk(eg, "BackendTrafficPolicy").target_kinds.len(), 7);
        assert_eq!(
            gk(eg, "EnvoyExtensionPolicy").target_kinds,
            gk(eg, "BackendTrafficPolicy").target_kinds
        );
        match gk("kuadrant.io", "AuthPolicy").merge {
            MergeModel::Gep713 { rule_paths } => {
                assert_eq!(rule_paths.len(), 6);
                assert!(rule_paths.contains(&"/rules/callbacks"));
            }
            other => panic!("AuthPolicy merge is {other:?}"),
        }
        assert_eq!(
            gk("gateway.nginx.org", "ClientSettingsPolicy").merge,
            MergeModel::PatchDefaults
        );
    }

    #[test]
    fn to_policy_kind_copies_fields() {
        let e = lookup(&GroupKind::new(
            "gateway.networking.k8s.io",
            "BackendTLSPolicy",
        ))
        .unwrap();
        let pk = e.to_policy_kind(ClassSource::Registry);
        assert_eq!(pk.group, "gateway.networking.k8s.io");
        assert_eq!(pk.kind, "BackendTLSPolicy");
        assert_eq!(pk.class, Class::Direct);
        assert_eq!(pk.source, ClassSource::Registry);
        assert_eq!(pk.merge, MergeModel::None);
        assert_eq!(pk.targeting, e.targeting);
        assert_eq!(pk.target_kinds, vec!["Service".to_string()]);
        assert!(pk.section_name);
        assert_eq!(pk.project, "Gateway API");
        assert_eq!(pk.group_kind(), GroupKind::new(e.group, e.kind));
    }
}

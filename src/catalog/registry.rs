//! The built-in registry: policy kinds shipped by real projects, with what each one
//! targets and how several of them combine. Many of these CRDs carry no policy label
//! at all, so without this table the tool would not see them; for the ones that do,
//! the table adds the merge model the label cannot express.
//!
//! Entries are keyed by group + kind, because the same kind name is reused by
//! unrelated projects (two `RateLimitPolicy` kinds, two `AuthorizationPolicy` kinds).

use super::{Class, ClassSource, MergeModel, PolicyKind, SameTarget, Targeting};
use crate::model::GroupKind;

/// One row of the built-in registry.
#[derive(Debug)]
pub struct KnownKind {
    pub group: &'static str,
    pub kind: &'static str,
    pub class: Class,
    pub targeting: Targeting,
    pub target_kinds: &'static [&'static str],
    pub section_name: bool,
    pub merge: MergeModel,
    /// How several policies of the kind on one target combine.
    pub same_target: SameTarget,
    /// The label real CRDs carry, if any (e.g. Some("Direct"), Some("inherited")). When
    /// a CRD in the input or the cluster carries it, the label decides the class.
    pub label: Option<&'static str>,
    pub project: &'static str, // "Gateway API", "Envoy Gateway", "Kuadrant", "NGINX Gateway Fabric", "Istio", "Gloo", "kgateway", "Linkerd", "GKE"
    pub status_shape: &'static str, // "ancestors", "conditions", "statuses map", "none"
    /// what the project documents about how the kind merges, one sentence in your own words
    pub note: &'static str,
    /// Where the project documents (or implements) the rules above.
    pub documented: &'static str,
    /// References in the spec and the kinds they may name; naming another makes the
    /// policy refused whole.
    pub refs: &'static [(&'static str, &'static [(&'static str, &'static str)])],
}

impl KnownKind {
    /// The catalog's view of this entry, tagged with where the knowledge came from.
    pub(crate) fn to_policy_kind(&self, source: ClassSource) -> PolicyKind {
        PolicyKind {
            group: self.group.to_string(),
            kind: self.kind.to_string(),
            class: self.class,
            source,
            merge: self.merge,
            same_target: self.same_target,
            targeting: self.targeting,
            target_kinds: self.target_kinds.iter().map(|k| k.to_string()).collect(),
            section_name: self.section_name,
            refs: self.refs,
            project: self.project,
        }
    }
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
    ENTRIES
        .iter()
        .find(|e| e.group == gk.group && e.kind == gk.kind)
}

// Targeting shapes shared by several entries.

/// A single `targetRef` that may name another namespace (GKE).
const NAMESPACED_REF: Targeting = Targeting {
    other_namespaces: true,
    ..REF
};

/// A single `targetRef`.
const REF: Targeting = Targeting {
    target_ref: true,
    target_refs: false,
    target_selectors: false,
    workload_selector: false,
    extension_ref: false,
    other_namespaces: false,
};

/// A `targetRefs` list.
const REFS: Targeting = Targeting {
    target_ref: false,
    target_refs: true,
    target_selectors: false,
    workload_selector: false,
    extension_ref: false,
    other_namespaces: false,
};

/// `targetRefs` or label-based `targetSelectors` (kgateway).
const REFS_OR_SELECTORS: Targeting = Targeting {
    target_ref: false,
    target_refs: true,
    target_selectors: true,
    workload_selector: false,
    extension_ref: false,
    other_namespaces: false,
};

/// `targetRefs`, or a route rule's `ExtensionRef` filter naming the policy (Gloo, kgateway).
const REFS_OR_EXTENSION_REF: Targeting = Targeting {
    extension_ref: true,
    other_namespaces: true,
    ..REFS
};

/// kgateway TrafficPolicy: `targetRefs`, `targetSelectors` or an `ExtensionRef` filter.
const REFS_SELECTORS_OR_EXTENSION_REF: Targeting = Targeting {
    extension_ref: true,
    ..REFS_OR_SELECTORS
};

/// Envoy Gateway accepts all three Gateway API shapes.
const EG_TARGETING: Targeting = Targeting {
    target_ref: true,
    target_refs: true,
    target_selectors: true,
    workload_selector: false,
    extension_ref: false,
    other_namespaces: true,
};

/// Istio security/telemetry/extension kinds: a workload `selector`, or Gateway API refs.
const ISTIO_TARGETING: Targeting = Targeting {
    target_ref: true,
    target_refs: true,
    target_selectors: false,
    workload_selector: true,
    extension_ref: false,
    other_namespaces: true,
};

/// Istio EnvoyFilter: `workloadSelector` or `targetRefs`.
const ENVOY_FILTER_TARGETING: Targeting = Targeting {
    target_ref: false,
    target_refs: true,
    target_selectors: false,
    workload_selector: true,
    extension_ref: false,
    other_namespaces: true,
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

/// What a BackendTLSPolicy's `caCertificateRefs` may name: a ConfigMap (core support),
/// or where an implementation supports it a Secret or a ClusterTrustBundle. Anything
/// else never resolves: Accepted=False, reason NoValidCACertificate (Gateway API
/// conformance test BackendTLSPolicyInvalidKind).
const CA_CERTIFICATE_KINDS: &[(&str, &str)] = &[
    ("", "ConfigMap"),
    ("", "Secret"),
    ("certificates.k8s.io", "ClusterTrustBundle"),
];

/// NGINX Gateway Fabric: the fields two policies of a kind on one target may not both
/// set (its `Conflicts` per kind, internal/controller/nginx/config/policies/*/validator.go).
const CSP_FIELDS: &[&str] = &[
    "/body/timeout",
    "/body/maxSize",
    "/keepAlive/requests",
    "/keepAlive/time",
    "/keepAlive/minTimeout",
    "/keepAlive/timeout",
];
const PSP_FIELDS: &[&str] = &[
    "/buffering/disable",
    "/buffering/bufferSize",
    "/buffering/buffers",
    "/buffering/busyBuffersSize",
];
const NGF_RLP_FIELDS: &[&str] = &[
    "/rateLimit/dryRun",
    "/rateLimit/logLevel",
    "/rateLimit/rejectCode",
];
const USP_FIELDS: &[&str] = &[
    "/zoneSize",
    "/keepAlive/connections",
    "/keepAlive/requests",
    "/keepAlive/time",
    "/keepAlive/timeout",
    "/loadBalancingMethod",
    "/hashMethodKey",
    "/useClusterIP",
];

/// Kuadrant rate limits are merged by limit name.
const LIMITS_RULE_PATHS: &[&str] = &["/limits"];

/// Every policy kind the tool knows without being told.
pub(crate) static ENTRIES: &[KnownKind] = &[
    // ---- Gateway API ----
    KnownKind {
        group: "gateway.networking.k8s.io",
        kind: "BackendTLSPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: SERVICE,
        section_name: true,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        label: Some("Direct"),
        project: "Gateway API",
        status_shape: "ancestors",
        note: "One policy per Service (or Service port); the oldest one applies and any later one is marked Conflicted.",
        documented: "https://gateway-api.sigs.k8s.io/api-types/backendtlspolicy/ (GEP-1897; conflict resolution in apis/v1/backendtlspolicy_types.go)",
        refs: &[("/validation/caCertificateRefs", CA_CERTIFICATE_KINDS)],
    },
    KnownKind {
        group: "gateway.networking.x-k8s.io",
        kind: "XBackendTrafficPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: SERVICE,
        section_name: false,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        label: Some("Direct"),
        project: "Gateway API",
        status_shape: "ancestors",
        note: "Experimental per-Service traffic settings that attach directly and are never combined.",
        documented: "https://gateway-api.sigs.k8s.io/geps/gep-3388/",
        refs: &[],
    },
    KnownKind {
        group: "gateway.networking.k8s.io",
        kind: "BackendLBPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: SERVICE,
        section_name: false,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        label: Some("Direct"),
        project: "Gateway API",
        status_shape: "ancestors",
        note: "Retired experimental load-balancing settings for a Service; attached directly with no merging.",
        documented: "https://gateway-api.sigs.k8s.io/geps/gep-1619/",
        refs: &[],
    },
    // ---- Envoy Gateway ----
    KnownKind {
        group: "gateway.envoyproxy.io",
        kind: "ClientTrafficPolicy",
        class: Class::Inherited,
        targeting: EG_TARGETING,
        target_kinds: &["Gateway", "ListenerSet"],
        section_name: true,
        merge: MergeModel::MostSpecificWins,
        same_target: SameTarget::OldestWins,
        label: None,
        project: "Envoy Gateway",
        status_shape: "ancestors",
        note: "Nothing is merged: a policy aimed at a listener replaces one aimed at its whole Gateway; of several on the same target the oldest applies and the others are Conflicted.",
        documented: "https://gateway.envoyproxy.io/docs/concepts/gateway_api_extensions/client-traffic-policy/",
        refs: &[],
    },
    KnownKind {
        group: "gateway.envoyproxy.io",
        kind: "BackendTrafficPolicy",
        class: Class::Inherited,
        targeting: EG_TARGETING,
        target_kinds: EG_ALL_TARGETS,
        section_name: true,
        merge: MergeModel::EnvoyMergeType,
        same_target: SameTarget::OldestWins,
        label: None,
        project: "Envoy Gateway",
        status_shape: "ancestors",
        note: "A route-level policy that sets mergeType is folded into the nearest parent's policy; without mergeType the closest policy wins outright; of several on the same target the oldest applies and the others are Conflicted.",
        documented: "https://gateway.envoyproxy.io/docs/concepts/gateway_api_extensions/backend-traffic-policy/ (Precedence; Multiple Policies at the Same Level; mergeType)",
        refs: &[],
    },
    KnownKind {
        group: "gateway.envoyproxy.io",
        kind: "SecurityPolicy",
        class: Class::Inherited,
        targeting: EG_TARGETING,
        target_kinds: &["Gateway", "ListenerSet", "HTTPRoute", "GRPCRoute", "TCPRoute"],
        section_name: true,
        merge: MergeModel::EnvoyMergeType,
        same_target: SameTarget::OldestWins,
        label: None,
        project: "Envoy Gateway",
        status_shape: "ancestors",
        note: "Same scheme as BackendTrafficPolicy: route policies opt into merging with the parent through mergeType.",
        documented: "https://gateway.envoyproxy.io/docs/concepts/gateway_api_extensions/security-policy/",
        refs: &[],
    },
    KnownKind {
        group: "gateway.envoyproxy.io",
        kind: "EnvoyExtensionPolicy",
        class: Class::Inherited,
        targeting: EG_TARGETING,
        target_kinds: EG_ALL_TARGETS,
        section_name: true,
        merge: MergeModel::EnvoyMergeType,
        same_target: SameTarget::OldestWins,
        label: None,
        project: "Envoy Gateway",
        status_shape: "ancestors",
        note: "Extension settings follow the mergeType rule: merged into the parent when a route policy asks for it, otherwise most specific wins.",
        documented: "https://gateway.envoyproxy.io/docs/api/extension_types/#envoyextensionpolicy (same precedence as BackendTrafficPolicy: internal/gatewayapi/envoyextensionpolicy.go)",
        refs: &[],
    },
    KnownKind {
        group: "gateway.envoyproxy.io",
        kind: "EnvoyPatchPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: &["Gateway", "GatewayClass"],
        section_name: false,
        merge: MergeModel::None,
        same_target: SameTarget::Stack,
        label: None,
        project: "Envoy Gateway",
        status_shape: "ancestors",
        note: "Raw xDS patches applied to the generated config; priority only orders them, there is no inheritance.",
        documented: "https://gateway.envoyproxy.io/contributions/design/envoy-patch-policy/",
        refs: &[],
    },
    // ---- Kuadrant ----
    KnownKind {
        group: "kuadrant.io",
        kind: "AuthPolicy",
        class: Class::Inherited,
        targeting: REF,
        target_kinds: GATEWAY_AND_ROUTES,
        section_name: true,
        merge: MergeModel::Gep713 {
            rule_paths: AUTH_POLICY_RULE_PATHS,
        },
        same_target: SameTarget::Stack,
        label: Some("inherited"),
        project: "Kuadrant",
        status_shape: "conditions",
        note: "Full GEP-713 defaults and overrides with atomic (the default) or merge strategy; a spec without either is treated as atomic defaults.",
        documented: "https://docs.kuadrant.io/latest/kuadrant-operator/doc/overviews/auth/ (api/v1/merge_strategies.go)",
        refs: &[],
    },
    KnownKind {
        group: "kuadrant.io",
        kind: "RateLimitPolicy",
        class: Class::Inherited,
        targeting: REF,
        target_kinds: GATEWAY_AND_ROUTES,
        section_name: true,
        merge: MergeModel::Gep713 {
            rule_paths: LIMITS_RULE_PATHS,
        },
        same_target: SameTarget::Stack,
        label: Some("inherited"),
        project: "Kuadrant",
        status_shape: "conditions",
        note: "Works like AuthPolicy, with each named limit being one rule when the merge strategy combines policies.",
        documented: "https://docs.kuadrant.io/latest/kuadrant-operator/doc/overviews/rate-limiting/",
        refs: &[],
    },
    KnownKind {
        group: "kuadrant.io",
        kind: "TokenRateLimitPolicy",
        class: Class::Inherited,
        targeting: REF,
        target_kinds: GATEWAY_AND_HTTPROUTE,
        section_name: true,
        merge: MergeModel::Gep713 {
            rule_paths: LIMITS_RULE_PATHS,
        },
        same_target: SameTarget::Stack,
        label: Some("inherited"),
        project: "Kuadrant",
        status_shape: "conditions",
        note: "Token-based limits that combine exactly like RateLimitPolicy, keyed by limit name.",
        documented: "https://docs.kuadrant.io/latest/kuadrant-operator/doc/overviews/token-rate-limiting/",
        refs: &[],
    },
    KnownKind {
        group: "kuadrant.io",
        kind: "DNSPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: GATEWAY,
        section_name: true,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        label: Some("direct"),
        project: "Kuadrant",
        status_shape: "conditions",
        note: "DNS records for a Gateway or one of its listeners; attached directly, never merged.",
        documented: "https://docs.kuadrant.io/latest/kuadrant-operator/doc/overviews/dns/",
        refs: &[],
    },
    KnownKind {
        group: "kuadrant.io",
        kind: "TLSPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: GATEWAY,
        section_name: true,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        label: Some("direct"),
        project: "Kuadrant",
        status_shape: "conditions",
        note: "Certificate management for a Gateway or listener; one policy per target with no combining.",
        documented: "https://docs.kuadrant.io/latest/kuadrant-operator/doc/overviews/tls/",
        refs: &[],
    },
    KnownKind {
        group: "extensions.kuadrant.io",
        kind: "OIDCPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: GATEWAY_AND_HTTPROUTE,
        section_name: true,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        label: None,
        project: "Kuadrant",
        status_shape: "conditions",
        note: "Extension that configures an OIDC login flow on its target only; nothing is inherited or merged.",
        documented: "https://github.com/Kuadrant/kuadrant-operator/tree/main/cmd/extensions/oidc-policy",
        refs: &[],
    },
    KnownKind {
        group: "extensions.kuadrant.io",
        kind: "PlanPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: GATEWAY_AND_ROUTES,
        section_name: true,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        label: None,
        project: "Kuadrant",
        status_shape: "conditions",
        note: "Extension that maps plans to limits on its own target; it does not take part in any merge.",
        documented: "https://github.com/Kuadrant/kuadrant-operator/tree/main/cmd/extensions/plan-policy",
        refs: &[],
    },
    KnownKind {
        group: "extensions.kuadrant.io",
        kind: "TelemetryPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: GATEWAY_AND_HTTPROUTE,
        section_name: true,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        label: None,
        project: "Kuadrant",
        status_shape: "conditions",
        note: "Extension for metric labels on its target; its metrics.default field is not a GEP-713 default.",
        documented: "https://github.com/Kuadrant/kuadrant-operator/tree/main/cmd/extensions/telemetry-policy",
        refs: &[],
    },
    // ---- NGINX Gateway Fabric ----
    KnownKind {
        group: "gateway.nginx.org",
        kind: "ClientSettingsPolicy",
        class: Class::Inherited,
        targeting: REF,
        target_kinds: GATEWAY_AND_ROUTES,
        section_name: false,
        merge: MergeModel::PatchDefaults,
        same_target: SameTarget::DisjointFields(CSP_FIELDS),
        label: Some("inherited"),
        project: "NGINX Gateway Fabric",
        status_shape: "ancestors",
        note: "Settings on a route take precedence field by field over the ones set on its Gateway; several on one target merge unless they set the same field, and then the later one (creation time, then name) is Conflicted whole.",
        documented: "https://docs.nginx.com/nginx-gateway-fabric/overview/custom-policies/ (Merging Policies; internal/controller/state/graph/policies.go markConflictedPolicies; policies/clientsettings/validator.go)",
        refs: &[],
    },
    KnownKind {
        group: "gateway.nginx.org",
        kind: "ObservabilityPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: &["HTTPRoute", "GRPCRoute"],
        section_name: false,
        merge: MergeModel::None,
        same_target: SameTarget::DisjointFields(&["/tracing"]),
        label: Some("direct"),
        project: "NGINX Gateway Fabric",
        status_shape: "ancestors",
        note: "Tracing settings for the routes it names; two that both set tracing on one route conflict, the later one is Conflicted.",
        documented: "https://docs.nginx.com/nginx-gateway-fabric/overview/custom-policies/ (policies/observability/validator.go)",
        refs: &[],
    },
    KnownKind {
        group: "gateway.nginx.org",
        kind: "ProxySettingsPolicy",
        class: Class::Inherited,
        targeting: REFS,
        target_kinds: GATEWAY_AND_ROUTES,
        section_name: false,
        merge: MergeModel::PatchDefaults,
        same_target: SameTarget::DisjointFields(PSP_FIELDS),
        label: Some("inherited"),
        project: "NGINX Gateway Fabric",
        status_shape: "ancestors",
        note: "Settings on a route replace the Gateway's field by field (NGINX directive inheritance); several on one target merge unless they set the same field, and then the later one is Conflicted whole.",
        documented: "https://docs.nginx.com/nginx-gateway-fabric/overview/custom-policies/ (policies/proxysettings/validator.go)",
        refs: &[],
    },
    KnownKind {
        group: "gateway.nginx.org",
        kind: "RateLimitPolicy",
        class: Class::Inherited,
        targeting: REFS,
        target_kinds: GATEWAY_AND_ROUTES,
        section_name: false,
        merge: MergeModel::PatchDefaults,
        same_target: SameTarget::DisjointFields(NGF_RLP_FIELDS),
        label: Some("inherited"),
        project: "NGINX Gateway Fabric",
        status_shape: "ancestors",
        note: "Unrelated to Kuadrant's kind of the same name: a route's policy applies alongside the Gateway's, its dryRun, logLevel and rejectCode taking precedence; several on one target merge unless they set one of those, and then the later one is Conflicted whole. (Rule lists that add up across levels are shown as the route's replacing the Gateway's.)",
        documented: "https://docs.nginx.com/nginx-gateway-fabric/traffic-management/rate-limit/ (policies/ratelimit/validator.go)",
        refs: &[],
    },
    KnownKind {
        group: "gateway.nginx.org",
        kind: "SnippetsPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: GATEWAY,
        section_name: false,
        merge: MergeModel::Accumulated,
        same_target: SameTarget::Stack,
        label: Some("direct"),
        project: "NGINX Gateway Fabric",
        status_shape: "ancestors",
        note: "Raw NGINX snippets injected for one Gateway; several on one Gateway never conflict, all of them apply.",
        documented: "https://docs.nginx.com/nginx-gateway-fabric/overview/custom-policies/ (policies/snippetspolicy/validator.go: never conflicts)",
        refs: &[],
    },
    KnownKind {
        group: "gateway.nginx.org",
        kind: "UpstreamSettingsPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: SERVICE,
        section_name: false,
        merge: MergeModel::PatchDefaults,
        same_target: SameTarget::DisjointFields(USP_FIELDS),
        label: Some("direct"),
        project: "NGINX Gateway Fabric",
        status_shape: "ancestors",
        note: "Upstream connection settings for a Service (its group may be spelt core); several on one Service merge unless they set the same field, and then the later one is Conflicted whole.",
        documented: "https://docs.nginx.com/nginx-gateway-fabric/overview/custom-policies/ (policies/upstreamsettings/validator.go)",
        refs: &[],
    },
    KnownKind {
        group: "gateway.nginx.org",
        kind: "WAFPolicy",
        class: Class::Inherited,
        targeting: REFS,
        target_kinds: GATEWAY_AND_ROUTES,
        section_name: false,
        merge: MergeModel::MostSpecificWins,
        same_target: SameTarget::Stack,
        label: Some("inherited"),
        project: "NGINX Gateway Fabric",
        status_shape: "ancestors",
        note: "Firewall protection inherited from the Gateway unless a route carries its own, which then replaces it.",
        documented: "https://docs.nginx.com/nginx-gateway-fabric/overview/custom-policies/",
        refs: &[],
    },
    KnownKind {
        group: "gateway.nginx.org",
        kind: "PayloadProcessor",
        class: Class::Inherited,
        targeting: REF,
        target_kinds: GATEWAY_AND_HTTPROUTE,
        section_name: false,
        merge: MergeModel::MostSpecificWins,
        same_target: SameTarget::OldestWins,
        label: Some("inherited"),
        project: "NGINX Gateway Fabric",
        status_shape: "ancestors",
        note: "A policy kind whose name does not end in Policy: request and response processing inherited from a Gateway by its routes; two on one target always conflict, the later one is Conflicted.",
        documented: "https://docs.nginx.com/nginx-gateway-fabric/overview/custom-policies/ (policies/payloadprocessor/validator.go)",
        refs: &[],
    },
    KnownKind {
        group: "gateway.nginx.org",
        kind: "ExternalLoadBalancer",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: GATEWAY,
        section_name: false,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        label: Some("direct"),
        project: "NGINX Gateway Fabric",
        status_shape: "conditions",
        note: "A policy kind whose name does not end in Policy: the external load balancer for one Gateway; the oldest applies, any other on the same Gateway is Conflicted.",
        documented: "https://docs.nginx.com/nginx-gateway-fabric/ (internal/controller/state/graph/externalloadbalancer.go)",
        refs: &[],
    },
    // ---- Istio ----
    KnownKind {
        group: "security.istio.io",
        kind: "AuthorizationPolicy",
        class: Class::Direct,
        targeting: ISTIO_TARGETING,
        target_kinds: ISTIO_TARGETS,
        section_name: false,
        merge: MergeModel::Accumulated,
        same_target: SameTarget::Stack,
        label: None,
        project: "Istio",
        status_shape: "conditions",
        note: "All matching policies are evaluated together by the proxy (CUSTOM, then DENY, then ALLOW); nothing is merged.",
        documented: "https://istio.io/latest/docs/reference/config/security/authorization-policy/",
        refs: &[],
    },
    KnownKind {
        group: "security.istio.io",
        kind: "RequestAuthentication",
        class: Class::Direct,
        targeting: ISTIO_TARGETING,
        target_kinds: ISTIO_TARGETS,
        section_name: false,
        merge: MergeModel::Accumulated,
        same_target: SameTarget::Stack,
        label: None,
        project: "Istio",
        status_shape: "conditions",
        note: "Every JWT rule that reaches a workload is accepted side by side; policies do not override each other.",
        documented: "https://istio.io/latest/docs/reference/config/security/request_authentication/",
        refs: &[],
    },
    KnownKind {
        group: "telemetry.istio.io",
        kind: "Telemetry",
        class: Class::Direct,
        targeting: ISTIO_TARGETING,
        target_kinds: ISTIO_TARGETS,
        section_name: false,
        merge: MergeModel::Accumulated,
        same_target: SameTarget::Stack,
        label: None,
        project: "Istio",
        status_shape: "conditions",
        note: "Telemetry resources from the mesh, namespace and workload levels are all considered by Istio rather than merged in GEP-713 fashion.",
        documented: "https://istio.io/latest/docs/reference/config/telemetry/",
        refs: &[],
    },
    KnownKind {
        group: "extensions.istio.io",
        kind: "WasmPlugin",
        class: Class::Direct,
        targeting: ISTIO_TARGETING,
        target_kinds: ISTIO_TARGETS,
        section_name: false,
        merge: MergeModel::Accumulated,
        same_target: SameTarget::Stack,
        label: None,
        project: "Istio",
        status_shape: "conditions",
        note: "Each plugin that selects a workload is loaded alongside the others, ordered by phase and priority.",
        documented: "https://istio.io/latest/docs/reference/config/proxy_extensions/wasm-plugin/",
        refs: &[],
    },
    KnownKind {
        group: "networking.istio.io",
        kind: "EnvoyFilter",
        class: Class::Direct,
        targeting: ENVOY_FILTER_TARGETING,
        target_kinds: ISTIO_TARGETS,
        section_name: false,
        merge: MergeModel::Accumulated,
        same_target: SameTarget::Stack,
        label: None,
        project: "Istio",
        status_shape: "conditions",
        note: "Every matching filter patches the generated Envoy config in turn; none replaces another.",
        documented: "https://istio.io/latest/docs/reference/config/networking/envoy-filter/",
        refs: &[],
    },
    // ---- Gloo ----
    KnownKind {
        group: "gateway.solo.io",
        kind: "RouteOption",
        class: Class::Inherited,
        targeting: REFS_OR_EXTENSION_REF,
        target_kinds: &["HTTPRoute"],
        section_name: false,
        merge: MergeModel::KeyedFields {
            rule_paths: &["/options"],
        },
        same_target: SameTarget::OldestFieldWins,
        label: None,
        project: "Gloo",
        status_shape: "statuses map",
        note: "Options for an HTTPRoute, by targetRefs or a rule's ExtensionRef filter (the rule's win); several on one target merge by option, the oldest setting each; a route that delegates to child routes passes them down.",
        documented: "https://docs.solo.io/gateway/latest/about/policies/routeoption/ (projects/gateway2/translator/plugins/routeoptions/query/query.go; golden outputs/route_options/merge.yaml)",
        refs: &[],
    },
    KnownKind {
        group: "gateway.solo.io",
        kind: "VirtualHostOption",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: GATEWAY,
        section_name: true,
        merge: MergeModel::KeyedFields {
            rule_paths: &["/options"],
        },
        same_target: SameTarget::OldestFieldWins,
        label: None,
        project: "Gloo",
        status_shape: "statuses map",
        note: "Virtual host settings for a Gateway or one of its listeners; several on one target merge by option, the oldest setting each, and a listener's beat the Gateway's option by option.",
        documented: "https://docs.solo.io/gateway/latest/about/policies/virtualhostoption/",
        refs: &[],
    },
    KnownKind {
        group: "gateway.solo.io",
        kind: "ListenerOption",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: GATEWAY,
        section_name: true,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        label: None,
        project: "Gloo",
        status_shape: "statuses map",
        note: "Listener-level settings for a Gateway or a single listener, with no merging across policies.",
        documented: "https://docs.solo.io/gateway/latest/about/policies/listeneroption/",
        refs: &[],
    },
    KnownKind {
        group: "gateway.solo.io",
        kind: "HttpListenerOption",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: GATEWAY,
        section_name: true,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        label: None,
        project: "Gloo",
        status_shape: "statuses map",
        note: "HTTP connection settings for a Gateway or listener; one policy per target.",
        documented: "https://docs.solo.io/gateway/latest/about/policies/httplisteneroption/",
        refs: &[],
    },
    // ---- kgateway ----
    KnownKind {
        group: "gateway.kgateway.dev",
        kind: "TrafficPolicy",
        class: Class::Inherited,
        targeting: REFS_SELECTORS_OR_EXTENSION_REF,
        target_kinds: &["Gateway", "HTTPRoute", "GRPCRoute", "ListenerSet"],
        section_name: true,
        merge: MergeModel::KgatewayPriority,
        same_target: SameTarget::Stack,
        label: Some("Direct"),
        project: "kgateway",
        status_shape: "ancestors",
        note: "Despite its Direct label it is inherited: an annotation on the parent chooses shallow or deep merging and whether child or parent wins (shallow, child by default).",
        documented: "https://kgateway.dev/docs/about/policies/ (Policy inheritance: kgateway.dev/inherited-policy-priority)",
        refs: &[],
    },
    KnownKind {
        group: "gateway.kgateway.dev",
        kind: "ListenerPolicy",
        class: Class::Direct,
        targeting: REFS_OR_SELECTORS,
        target_kinds: GATEWAY,
        section_name: false,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        label: Some("Direct"),
        project: "kgateway",
        status_shape: "ancestors",
        note: "Listener settings for a Gateway, with per-port entries refining its own default block rather than other policies.",
        documented: "https://kgateway.dev/docs/about/policies/",
        refs: &[],
    },
    KnownKind {
        group: "gateway.kgateway.dev",
        kind: "BackendConfigPolicy",
        class: Class::Direct,
        targeting: REFS_OR_SELECTORS,
        target_kinds: &["Service", "Backend"],
        section_name: false,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        label: Some("Direct"),
        project: "kgateway",
        status_shape: "ancestors",
        note: "Connection settings for a Service or Backend; attached directly with no merging.",
        documented: "https://kgateway.dev/docs/about/policies/backendconfigpolicy/",
        refs: &[],
    },
    KnownKind {
        group: "gateway.kgateway.dev",
        kind: "HTTPListenerPolicy",
        class: Class::Direct,
        targeting: REFS_OR_SELECTORS,
        target_kinds: GATEWAY,
        section_name: false,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        label: Some("Direct"),
        project: "kgateway",
        status_shape: "ancestors",
        note: "HTTP listener settings (access logs, upgrades) for every HTTP listener of a Gateway; attached directly.",
        documented: "https://kgateway.dev/docs/about/policies/ (install/helm/kgateway-crds/templates/gateway.kgateway.dev_httplistenerpolicies.yaml)",
        refs: &[],
    },
    KnownKind {
        group: "gateway.kgateway.dev",
        kind: "RoutePolicy",
        class: Class::Inherited,
        targeting: REFS_SELECTORS_OR_EXTENSION_REF,
        target_kinds: &["Gateway", "HTTPRoute"],
        section_name: true,
        merge: MergeModel::KgatewayPriority,
        same_target: SameTarget::Stack,
        label: Some("Direct"),
        project: "kgateway",
        status_shape: "ancestors",
        note: "The early name of TrafficPolicy: route settings inherited down the hierarchy as TrafficPolicy's are, though its CRD is labelled Direct.",
        documented: "https://kgateway.dev/docs/about/policies/ (install/helm/kgateway-crds/templates/gateway.kgateway.dev_routepolicies.yaml)",
        refs: &[],
    },
    // ---- Linkerd ----
    KnownKind {
        group: "policy.linkerd.io",
        kind: "AuthorizationPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: &["Server", "Namespace", "HTTPRoute", "GRPCRoute"],
        section_name: false,
        merge: MergeModel::Accumulated,
        same_target: SameTarget::Stack,
        label: None,
        project: "Linkerd",
        status_shape: "none",
        note: "Each grants access to the resource it names; several on one resource add up (any one that matches allows), so none conflicts or overrides another.",
        documented: "https://linkerd.io/2-edge/reference/authorization-policy/",
        refs: &[],
    },
    KnownKind {
        group: "policy.linkerd.io",
        kind: "HTTPLocalRateLimitPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: &["Server"],
        section_name: false,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        label: None,
        project: "Linkerd",
        status_shape: "conditions",
        note: "A rate limit for one Server; its overrides list is about specific clients, not GEP-713 overrides.",
        documented: "https://linkerd.io/2-edge/reference/rate-limiting/",
        refs: &[],
    },
    // ---- GKE ----
    KnownKind {
        group: "networking.gke.io",
        kind: "GCPBackendPolicy",
        class: Class::Direct,
        targeting: NAMESPACED_REF,
        target_kinds: GKE_BACKENDS,
        section_name: false,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        label: Some("Direct"),
        project: "GKE",
        status_shape: "ancestors",
        note: "Load balancer backend settings for a Service or ServiceImport (possibly in another namespace); only a default block, one policy per backend.",
        documented: "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gateway-resources",
        refs: &[],
    },
    KnownKind {
        group: "networking.gke.io",
        kind: "HealthCheckPolicy",
        class: Class::Direct,
        targeting: NAMESPACED_REF,
        target_kinds: GKE_BACKENDS,
        section_name: false,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        label: Some("Direct"),
        project: "GKE",
        status_shape: "conditions",
        note: "Health check settings for a backend Service; its default block is not a GEP-713 inherited default.",
        documented: "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gateway-resources",
        refs: &[],
    },
    KnownKind {
        group: "networking.gke.io",
        kind: "GCPGatewayPolicy",
        class: Class::Direct,
        targeting: NAMESPACED_REF,
        target_kinds: GATEWAY,
        section_name: false,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        label: Some("Direct"),
        project: "GKE",
        status_shape: "conditions",
        note: "Load balancer settings for a whole Gateway, applied directly with no combining.",
        documented: "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gateway-resources",
        refs: &[],
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
        ("gateway.nginx.org", "PayloadProcessor"),
        ("gateway.nginx.org", "ExternalLoadBalancer"),
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
        ("gateway.kgateway.dev", "HTTPListenerPolicy"),
        ("gateway.kgateway.dev", "RoutePolicy"),
        ("policy.linkerd.io", "AuthorizationPolicy"),
        ("policy.linkerd.io", "HTTPLocalRateLimitPolicy"),
        ("networking.gke.io", "GCPBackendPolicy"),
        ("networking.gke.io", "HealthCheckPolicy"),
        ("networking.gke.io", "GCPGatewayPolicy"),
    ];

    fn is_istio(e: &KnownKind) -> bool {
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
        assert_eq!(nginx.merge, MergeModel::PatchDefaults);
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
    fn direct_entries_do_not_merge_across_levels() {
        // A Direct policy reaches only its target and its sections: the only merging is
        // side by side (accumulating kinds) or among several on one target.
        for e in ENTRIES.iter().filter(|e| e.class == Class::Direct) {
            let g = (e.kind, e.group);
            match e.merge {
                MergeModel::None => {}
                MergeModel::Accumulated => {
                    assert!(is_istio(e) || e.group != "networking.gke.io", "{g:?}")
                }
                MergeModel::PatchDefaults | MergeModel::KeyedFields { .. } => assert!(
                    matches!(
                        e.same_target,
                        SameTarget::DisjointFields(_) | SameTarget::OldestFieldWins
                    ),
                    "{g:?}: only kinds that merge policies on one target"
                ),
                other => panic!("{g:?} merges as {other:?}"),
            }
            if is_istio(e) {
                assert_eq!(e.merge, MergeModel::Accumulated, "{g:?}");
                assert!(e.targeting.workload_selector, "{g:?}");
            }
        }
    }

    #[test]
    fn every_entry_says_where_it_is_documented() {
        for e in ENTRIES {
            assert!(
                e.documented.starts_with("https://"),
                "{}.{}: {}",
                e.kind,
                e.group,
                e.documented
            );
        }
    }

    #[test]
    fn labels_agree_with_class_where_the_project_merges_as_labelled() {
        // Where a CRD's label and the project's documented behaviour differ, the entry
        // keeps the behaviour; a labelled CRD in the input still decides (catalog).
        let mut differing = Vec::new();
        for e in ENTRIES {
            let Some(label) = e.label else { continue };
            let parsed = parse_class_label(label).expect("label parses");
            if parsed != e.class {
                differing.push(e.kind);
                assert_eq!(
                    e.merge,
                    MergeModel::KgatewayPriority,
                    "{}.{}",
                    e.kind,
                    e.group
                );
            }
        }
        assert_eq!(differing, ["TrafficPolicy", "RoutePolicy"]);
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

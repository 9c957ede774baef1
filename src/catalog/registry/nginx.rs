//! NGINX Gateway Fabric (nginx/nginx-gateway-fabric @ e55bfe33, v2.6.7).

use super::*;

/// NGINX Gateway Fabric's kinds.
const BASE: Entry = Entry {
    group: "gateway.nginx.org",
    project: "NGINX Gateway Fabric",
    ..Entry::INHERITED
};

/// The fields two policies of a kind on one target may not both set (its `Conflicts`
/// per kind, internal/controller/nginx/config/policies/*/validator.go).
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

/// NGINX Gateway Fabric's inherited kinds are written into the `http`, `server` and
/// `location` blocks only (internal/controller/nginx/config/policies/generator.go:
/// the `Generator` interface has GenerateForHTTP, GenerateForServer,
/// GenerateForLocation, GenerateForInternalLocation); the `upstream` blocks are
/// UpstreamSettingsPolicy's alone (policies/upstreamsettings/processor.go).
const HTTP_SERVER_LOCATION: Flow = Flow::ClientSide { to_backends: &[] };

/// A Secret of the policy's own namespace named by `name` alone (a `LocalObjectReference`):
/// when it is missing, NGINX Gateway Fabric marks the policy invalid (`Valid = false`,
/// Accepted=False).
const fn ngf_local_secret(path: &'static str, cite: &'static str) -> RefField {
    RefField::local(path, &[("", "Secret")], Unresolved::RefusesPolicy, cite)
}

/// WAFPolicy's bundle credentials and CA (`resolveBundleAuth`, `resolveTLSCA`: a Secret of
/// the policy's namespace; missing, the condition is RefsNotResolved and the policy
/// `Valid = false`). Read where the kind is named WAFGatewayBindingPolicy; v2.6.7's
/// WAFPolicy has the same `policySource` and `securityLogs[].logSource` shape
/// (examples/waf-policy/wafpolicy.yaml @e55bfe33).
const NGF_WAF: &str = "nginx/nginx-gateway-fabric@023b5f8b internal/controller/state/graph/policies.go (fetchPolicyBundle, fetchSecurityLogBundles)";
const WAF_POLICY_REFS: &[RefField] = &[
    ngf_local_secret("/policySource/auth/secretRef", NGF_WAF),
    ngf_local_secret("/policySource/tlsSecretRef", NGF_WAF),
    ngf_local_secret("/securityLogs/*/logSource/auth/secretRef", NGF_WAF),
    ngf_local_secret("/securityLogs/*/logSource/tlsSecretRef", NGF_WAF),
];

/// PayloadProcessor's external processor: a core Service with a port, in the namespace
/// it names (no ReferenceGrant is asked: `extProcessServiceNsName`), its port one of the
/// Service's (`getServicePort`), and an optional auth-token Secret of the policy's
/// namespace; either missing makes the policy invalid (`resolvePayloadProcessor`).
/// The backendRef's group and kind are its CRD's to refuse ("backendRef.group must be
/// core", `''` or `core`; "backendRef.kind must be Service": CEL on
/// `ExtProcessConfig.BackendRef`): an API server stores no other, and the controller
/// then looks a Service up by namespace and name (`RefGroups::AsWritten`, audited for
/// issue 41).
const NGF_PP: &str = "nginx/nginx-gateway-fabric@03b04bda internal/controller/state/graph/payloadprocessor.go (resolveExtProcessURL, resolveExtProcessAuthToken)";
const PAYLOAD_PROCESSOR_REFS: &[RefField] = &[
    RefField {
        path: "/processors/*/extProcess/backendRef",
        kinds: SERVICE_KIND,
        kind_as_written: true,
        groups: RefGroups::AsWritten,
        namespaces: RefNamespaces::Any,
        port: true,
        unresolved: Unresolved::RefusesPolicy,
        cite: NGF_PP,
    },
    ngf_local_secret("/processors/*/extProcess/authTokenRef", NGF_PP),
];

/// What PayloadProcessor's `backendRef` may name (its CEL: "backendRef.kind must be Service").
const SERVICE_KIND: &[(&str, &str)] = &[("", "Service")];

pub(super) static ENTRIES: &[Entry] = &[
    Entry {
        kind: "ClientSettingsPolicy",
        class: Class::Inherited,
        flow: HTTP_SERVER_LOCATION,
        targeting: REF,
        target_kinds: GATEWAY_AND_ROUTES,
        // CEL on targetRef(s): "TargetRef Kind must be one of: ..." (apis/v1alpha*/*_types.go).
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::PatchDefaults,
        same_target: SameTarget::DisjointFields(CSP_FIELDS),
        defaults_overrides: DefaultsOverrides::None,
        label: Some("inherited"),
        status_shape: "ancestors",
        note: "Settings on a route take precedence field by field over the ones set on its Gateway; several on one target merge unless they set the same field, and then the later one (creation time, then name) is Conflicted whole.",
        documented: "https://docs.nginx.com/nginx-gateway-fabric/overview/custom-policies/ (Merging Policies; internal/controller/state/graph/policies.go markConflictedPolicies; policies/clientsettings/validator.go)",
        cite: "nginx/nginx-gateway-fabric@e55bfe33 apis/v1alpha1/clientsettingspolicy_types.go",
        // Its spec names no object besides its targets (read from its API type).
        references: &[],
        ..BASE
    },
    Entry {
        kind: "ObservabilityPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: &["HTTPRoute", "GRPCRoute"],
        // Its CEL asks only that some reference be an HTTPRoute or GRPCRoute
        // (`self.exists`, apis/v1alpha2/observabilitypolicy_types.go): another kind beside one passes.
        other_target_kinds: OtherTargetKinds::NotRefused,
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::None,
        same_target: SameTarget::DisjointFields(&["/tracing"]),
        defaults_overrides: DefaultsOverrides::None,
        label: Some("direct"),
        status_shape: "ancestors",
        note: "Tracing settings for the routes it names; two that both set tracing on one route conflict, the later one is Conflicted.",
        documented: "https://docs.nginx.com/nginx-gateway-fabric/overview/custom-policies/ (policies/observability/validator.go)",
        cite: "nginx/nginx-gateway-fabric@e55bfe33 apis/v1alpha2/observabilitypolicy_types.go",
        // Its spec names no object besides its targets (read from its API type).
        references: &[],
        ..BASE
    },
    Entry {
        kind: "ProxySettingsPolicy",
        class: Class::Inherited,
        flow: HTTP_SERVER_LOCATION,
        targeting: REFS,
        target_kinds: GATEWAY_AND_ROUTES,
        // CEL on targetRef(s): "TargetRef Kind must be one of: ..." (apis/v1alpha*/*_types.go).
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::PatchDefaults,
        same_target: SameTarget::DisjointFields(PSP_FIELDS),
        defaults_overrides: DefaultsOverrides::None,
        label: Some("inherited"),
        status_shape: "ancestors",
        note: "Settings on a route replace the Gateway's field by field (NGINX directive inheritance); several on one target merge unless they set the same field, and then the later one is Conflicted whole.",
        documented: "https://docs.nginx.com/nginx-gateway-fabric/overview/custom-policies/ (policies/proxysettings/validator.go)",
        cite: "nginx/nginx-gateway-fabric@e55bfe33 apis/v1alpha1/proxysettingspolicy_types.go",
        // Its spec names no object besides its targets (read from its API type).
        references: &[],
        ..BASE
    },
    Entry {
        kind: "RateLimitPolicy",
        class: Class::Inherited,
        flow: HTTP_SERVER_LOCATION,
        targeting: REFS,
        target_kinds: GATEWAY_AND_ROUTES,
        // CEL on targetRef(s): "TargetRef Kind must be one of: ..." (apis/v1alpha*/*_types.go).
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::PatchDefaults,
        same_target: SameTarget::DisjointFields(NGF_RLP_FIELDS),
        defaults_overrides: DefaultsOverrides::None,
        label: Some("inherited"),
        status_shape: "ancestors",
        note: "Unrelated to Kuadrant's kind of the same name: a route's policy applies alongside the Gateway's, its dryRun, logLevel and rejectCode taking precedence; several on one target merge unless they set one of those, and then the later one is Conflicted whole. (Rule lists that add up across levels are shown as the route's replacing the Gateway's.)",
        documented: "https://docs.nginx.com/nginx-gateway-fabric/traffic-management/rate-limit/ (policies/ratelimit/validator.go)",
        cite: "nginx/nginx-gateway-fabric@e55bfe33 apis/v1alpha1/ratelimitpolicy_types.go",
        // Its spec names no object besides its targets (read from its API type).
        references: &[],
        ..BASE
    },
    Entry {
        kind: "SnippetsPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: GATEWAY,
        // CEL on targetRef(s): "TargetRef Kind must be one of: ..." (apis/v1alpha*/*_types.go).
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::Accumulated,
        same_target: SameTarget::Stack,
        defaults_overrides: DefaultsOverrides::None,
        label: Some("direct"),
        status_shape: "ancestors",
        note: "Raw NGINX snippets injected for one Gateway; several on one Gateway never conflict, all of them apply.",
        documented: "https://docs.nginx.com/nginx-gateway-fabric/overview/custom-policies/ (policies/snippetspolicy/validator.go: never conflicts)",
        cite: "nginx/nginx-gateway-fabric@e55bfe33 apis/v1alpha1/snippetspolicy_types.go",
        // Its spec names no object besides its targets (read from its API type).
        references: &[],
        ..BASE
    },
    Entry {
        kind: "UpstreamSettingsPolicy",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: SERVICE,
        // CEL on targetRef(s): "TargetRef Kind must be one of: ..." (apis/v1alpha*/*_types.go).
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::PatchDefaults,
        same_target: SameTarget::DisjointFields(USP_FIELDS),
        defaults_overrides: DefaultsOverrides::None,
        label: Some("direct"),
        status_shape: "ancestors",
        note: "Upstream connection settings for a Service (its group may be spelt core); several on one Service merge unless they set the same field, and then the later one is Conflicted whole.",
        documented: "https://docs.nginx.com/nginx-gateway-fabric/overview/custom-policies/ (policies/upstreamsettings/validator.go)",
        cite: "nginx/nginx-gateway-fabric@e55bfe33 apis/v1alpha1/upstreamsettingspolicy_types.go",
        // Its spec names no object besides its targets (read from its API type).
        references: &[],
        ..BASE
    },
    Entry {
        kind: "WAFPolicy",
        class: Class::Inherited,
        flow: HTTP_SERVER_LOCATION,
        targeting: REFS,
        target_kinds: GATEWAY_AND_ROUTES,
        // CEL on targetRef(s): "TargetRef Kind must be one of: ..." (apis/v1alpha*/*_types.go).
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::MostSpecificWins,
        same_target: SameTarget::Stack,
        defaults_overrides: DefaultsOverrides::None,
        label: Some("inherited"),
        status_shape: "ancestors",
        note: "Firewall protection inherited from the Gateway unless a route carries its own, which then replaces it; several on one target are all accepted (its Conflicts() returns false, although the design doc docs/proposals/nap-waf.md says Conflicted: the code is what runs).",
        documented: "https://docs.nginx.com/nginx-gateway-fabric/overview/custom-policies/",
        cite: "nginx/nginx-gateway-fabric@e55bfe33 apis/v1alpha1/wafpolicy_types.go",
        references: WAF_POLICY_REFS,
        ..BASE
    },
    Entry {
        kind: "PayloadProcessor",
        class: Class::Inherited,
        flow: HTTP_SERVER_LOCATION,
        targeting: REF,
        target_kinds: GATEWAY_AND_HTTPROUTE,
        // CEL on targetRef(s): "TargetRef Kind must be one of: ..." (apis/v1alpha*/*_types.go).
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::MostSpecificWins,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        label: Some("inherited"),
        status_shape: "ancestors",
        note: "A policy kind whose name does not end in Policy: request and response processing inherited from a Gateway by its routes; two on one target always conflict, the later one is Conflicted.",
        documented: "https://docs.nginx.com/nginx-gateway-fabric/overview/custom-policies/ (policies/payloadprocessor/validator.go)",
        cite: "nginx/nginx-gateway-fabric@e55bfe33 apis/v1alpha1/payloadprocessor_types.go",
        references: PAYLOAD_PROCESSOR_REFS,
        ..BASE
    },
    Entry {
        kind: "ExternalLoadBalancer",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: GATEWAY,
        // CEL on targetRef(s): "TargetRef Kind must be one of: ..." (apis/v1alpha*/*_types.go).
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        label: Some("direct"),
        status_shape: "conditions",
        note: "A policy kind whose name does not end in Policy: the external load balancer for one Gateway; the oldest applies, any other on the same Gateway is Conflicted.",
        documented: "https://docs.nginx.com/nginx-gateway-fabric/ (internal/controller/state/graph/externalloadbalancer.go)",
        cite: "nginx/nginx-gateway-fabric@e55bfe33 apis/v1alpha1/externalloadbalancer_types.go",
        // `gatewayLink.tls.clientSSLs`/`serverSSLs` name Secrets as bare strings when
        // `reference: secret`: not a `{name}` reference, so not checked (docs/limits.md).
        references: &[],
        ..BASE
    },
];

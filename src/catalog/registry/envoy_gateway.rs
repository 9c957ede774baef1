//! Envoy Gateway (envoyproxy/gateway @ d32f2829, v1.9.0). No CRD carries the policy label.

use super::*;

/// Envoy Gateway's kinds. Its controller refuses any reference of theirs to an
/// ExternalName Service (`REFUSED_REFERENTS`) and looks one step beyond what they name
/// (`FURTHER`). Their short names are api/v1alpha1/*_types.go's kubebuilder
/// `shortName=` markers.
const BASE: Entry = Entry {
    group: "gateway.envoyproxy.io",
    project: "Envoy Gateway",
    refused_referents: REFUSED_REFERENTS,
    further: FURTHER,
    ..Entry::INHERITED
};

/// Envoy Gateway accepts all three Gateway API shapes.
const EG_TARGETING: Targeting = Targeting {
    target_ref: true,
    target_refs: true,
    target_selectors: true,
    ..REF
};

const EG_ALL_TARGETS: &[&str] = &[
    "Gateway",
    "ListenerSet",
    "HTTPRoute",
    "GRPCRoute",
    "TCPRoute",
    "TLSRoute",
    "UDPRoute",
];

/// What an Envoy Gateway `BackendRef` may name (api/v1alpha1/shared_types.go
/// `BackendRef`, CEL "BackendRefs only support Service, ServiceImport and Backend
/// kind"): a Service when it names no kind.
const EG_BACKENDS: &[(&str, &str)] = &[
    ("", "Service"),
    ("multicluster.x-k8s.io", "ServiceImport"),
    ("gateway.envoyproxy.io", "Backend"),
];

/// A Gateway API `SecretObjectReference`: a Secret (its default kind).
const SECRET: &[(&str, &str)] = &[("", "Secret")];

/// A Gateway API `LocalObjectReference` to a ConfigMap.
const CONFIG_MAP: &[(&str, &str)] = &[("", "ConfigMap")];

/// How Envoy Gateway reads the group of a backend reference: it refuses one other than
/// the core group, `multicluster.x-k8s.io` and `gateway.envoyproxy.io` ("Group is
/// invalid, only the core API group, multicluster.x-k8s.io and gateway.envoyproxy.io are
/// supported", `validateBackendRefGroup`), then checks and switches on the kind alone
/// (`validateBackendRefKind`; ext_service.go `processExtServiceDestination` switches on
/// `KindDerefOr(backendRef.Kind, "Service")`). A reference written `{kind: Backend}`
/// with no group, which an API server stores with the `group: ""` the
/// `BackendObjectReference` type defaults, is the Backend of that name: Envoy Gateway
/// accepts such an ext-proc backend (translator testdata
/// backendtrafficpolicy-dns-lookup-family, EnvoyExtensionPolicy `Accepted`).
const EG_BACKEND_GROUPS: RefGroups = RefGroups::KindAlone {
    groups: &["", "multicluster.x-k8s.io", "gateway.envoyproxy.io"],
};

/// A reference through `validateExtServiceBackendReference` / `validateBackendRef`
/// (internal/gatewayapi/validate.go): the Service (or Backend, ServiceImport) exists,
/// its port is one of the Service's or the ServiceImport's `spec.ports`
/// (`validateBackendService`, `validateBackendServiceImport`: "Port %d not found on
/// ServiceImport"), a ReferenceGrant allows one in another namespace; else the
/// policy's translation fails and it is not Accepted. A Backend's port is not matched:
/// its endpoints carry their own (route.go `processBackendDestinationSetting`, and
/// `getTargetBackendReference` takes the port as a section name only).
const fn eg_backend(path: &'static str, cite: &'static str) -> RefField {
    RefField {
        path,
        kinds: EG_BACKENDS,
        kind_as_written: true,
        groups: EG_BACKEND_GROUPS,
        namespaces: RefNamespaces::WithGrant,
        port: true,
        unresolved: Unresolved::RefusesPolicy,
        cite,
    }
}

/// A Secret read by `validateSecretRef` (internal/gatewayapi/helpers.go): it exists,
/// in another namespace only with a ReferenceGrant; else the policy is not Accepted.
const fn eg_secret(path: &'static str, cite: &'static str) -> RefField {
    RefField::named(
        path,
        SECRET,
        RefNamespaces::WithGrant,
        Unresolved::RefusesPolicy,
        cite,
    )
}

/// A ConfigMap of the policy's own namespace (a `LocalObjectReference`, read as a
/// ConfigMap whatever kind it writes: `getLuaBodyFromLocalObjectReference` "assumes the
/// local object reference points to a Kubernetes ConfigMap"): missing, the policy's
/// translation fails and it is not Accepted.
const fn eg_local_config_map(path: &'static str, cite: &'static str) -> RefField {
    RefField::local(path, CONFIG_MAP, Unresolved::RefusesPolicy, cite)
}

const SP: &str = "envoyproxy/gateway@d32f2829 internal/gatewayapi/securitypolicy.go";
const BTP: &str = "envoyproxy/gateway@d32f2829 internal/gatewayapi/backendtrafficpolicy.go (getCustomResponseBody)";
const EEP: &str = "envoyproxy/gateway@d32f2829 internal/gatewayapi/envoyextensionpolicy.go";
const CTP: &str = "envoyproxy/gateway@d32f2829 internal/gatewayapi/clienttrafficpolicy.go (validateTLSSecretsData, getCaCertsFromCARefs)";

/// SecurityPolicy: ext-auth services, OIDC client secret and provider backends, basic
/// auth users, JWT JWKS (local ConfigMap or remote backends), API key credentials.
const SECURITY_POLICY_REFS: &[RefField] = &[
    eg_backend("/extAuth/http/backendRef", SP),
    eg_backend("/extAuth/http/backendRefs/*", SP),
    eg_backend("/extAuth/grpc/backendRef", SP),
    eg_backend("/extAuth/grpc/backendRefs/*", SP),
    eg_secret("/oidc/clientSecret", SP),
    eg_backend("/oidc/provider/backendRefs/*", SP),
    eg_secret("/basicAuth/users", SP),
    eg_local_config_map("/jwt/providers/*/localJWKS/valueRef", SP),
    eg_backend("/jwt/providers/*/remoteJWKS/backendRefs/*", SP),
    eg_secret("/apiKeyAuth/credentialRefs/*", SP),
];

/// ClientTrafficPolicy: the CA certificates a client's certificate is validated with,
/// one list read two ways. A Secret (a reference naming no kind) or a ConfigMap is read
/// by `validateSecretRef` / `validateConfigMapRef`, which match group and kind together
/// (the core group), in the policy's namespace or another with a ReferenceGrant.
const CTP_CA_CERTIFICATES: RefField = RefField::named(
    "/tls/clientValidation/caCertificateRefs/*",
    &[("", "Secret"), ("", "ConfigMap")],
    RefNamespaces::WithGrant,
    Unresolved::RefusesPolicy,
    CTP,
);

/// A ClusterTrustBundle in the same list is looked up by its kind and name alone
/// (cluster-scoped: a `namespace` written beside it is not read): the
/// `SecretObjectReference` the list holds defaults its group to the core one, and
/// Envoy Gateway reads `{kind: ClusterTrustBundle}` with that group, or with none, as
/// the `certificates.k8s.io` ClusterTrustBundle of that name (translator testdata
/// clienttrafficpolicy-mtls-clustertrustbundle: four such policies `Accepted`;
/// clienttrafficpolicy-invalid-settings: one naming a bundle that is not there
/// refused, "ref ClusterTrustBundle [tls-ctb-1] not found").
const CTP_CLUSTER_TRUST_BUNDLES: RefField = RefField {
    kinds: &[("certificates.k8s.io", "ClusterTrustBundle")],
    groups: RefGroups::KindAlone {
        groups: &["", "certificates.k8s.io"],
    },
    ..CTP_CA_CERTIFICATES
};

const CLIENT_TRAFFIC_POLICY_REFS: &[RefField] = &[CTP_CA_CERTIFICATES, CTP_CLUSTER_TRUST_BUNDLES];

/// BackendTrafficPolicy: a response override's body from a ConfigMap.
const BACKEND_TRAFFIC_POLICY_REFS: &[RefField] = &[eg_local_config_map(
    "/responseOverride/*/response/body/valueRef",
    BTP,
)];

/// EnvoyExtensionPolicy: external processors, Lua code from a ConfigMap, a Wasm image's
/// pull secret ("Only support Kubernetes Secret resource from the same namespace",
/// api/v1alpha1/wasm_types.go).
const ENVOY_EXTENSION_POLICY_REFS: &[RefField] = &[
    eg_backend("/extProc/*/backendRefs/*", EEP),
    eg_local_config_map("/lua/*/valueRef", EEP),
    RefField::named(
        "/wasm/*/code/image/pullSecretRef",
        SECRET,
        RefNamespaces::Own,
        Unresolved::RefusesPolicy,
        EEP,
    ),
];

pub(super) static ENTRIES: &[Entry] = &[
    Entry {
        kind: "ClientTrafficPolicy",
        class: Class::Inherited,
        // "settings for configuring the behavior of the connection between the downstream
        // client and Envoy Proxy listener" (clienttrafficpolicy_types.go, the concept
        // page): the listener and the routes behind it, not the clusters. Its `http1`
        // settings alone are also set on the upstream clusters of the listener's routes
        // (internal/xds/translator: `processXdsCluster` and the clusters' `ExtraArgs`
        // take the listener's `http1Settings`).
        flow: Flow::ClientSide {
            to_backends: &["http1"],
        },
        // validatePortOverlapForClientTrafficPolicy (internal/gatewayapi/
        // clienttrafficpolicy.go): one aimed at a listener that shares its port with
        // other plain HTTP listeners (of the Gateway or its ListenerSets: one Envoy
        // listener) "is being applied to multiple http (non https) listeners".
        // Aimed at a whole Gateway or ListenerSet (attachedToGateway), only the
        // listeners on the port that came from another Gateway or ListenerSet conflict
        // (with mergeGateways, the other Gateways of the class are in the same xDS
        // config, listenersWithSameHTTPPort in helpers.go); listeners a sectioned
        // policy already took are skipped (ProcessClientTrafficPolicies). Status on
        // the ancestor: Accepted=False, reason Invalid, "ClientTrafficPolicy is being
        // applied to multiple http (non https) listeners (...) on the same port, which
        // is not allowed".
        shared_port: SharedPort::RefusedOnSharedHttpListener,
        targeting: EG_TARGETING,
        target_kinds: &["Gateway", "ListenerSet"],
        // CEL on targetRef(s).kind: "this policy can only have a targetRef.kind of ..." (api/v1alpha1/*_types.go).
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        namespaces: NamespaceRule::SelectorsWithGrant,
        sections: Sections::SectionName,
        // No mergeType field, so never merged: the most specific policy wins whole, even
        // one that sets nothing (the translator gives a listener with a policy of its own
        // that one and passes the Gateway's over there, marking it Overridden).
        merge: MergeModel::MostSpecificReplaces,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        status_shape: "ancestors",
        note: "Nothing is merged: a policy aimed at a listener replaces one aimed at its ListenerSet or Gateway; of several on the same target the oldest applies and the others are Conflicted.",
        documented: "https://gateway.envoyproxy.io/docs/concepts/gateway_api_extensions/client-traffic-policy/",
        cite: "envoyproxy/gateway@d32f2829 api/v1alpha1/clienttrafficpolicy_types.go",
        references: CLIENT_TRAFFIC_POLICY_REFS,
        short_names: &["ctp"],
        ..BASE
    },
    Entry {
        kind: "BackendTrafficPolicy",
        class: Class::Inherited,
        // Its settings are set on the routes' xDS config (rate limit, fault injection,
        // retries, request timeout, compression, response overrides, upgrades,
        // buffering, tracing) and only these also on the upstream cluster of each
        // route (internal/xds/translator/cluster.go `HTTPRouteTranslator.asClusterArgs`
        // copies `Traffic.{LoadBalancer, ProxyProtocol, CircuitBreaker, HealthCheck,
        // Timeout, TCPKeepalive, BackendConnection, DNS}` and `UseClientProtocol`, and
        // of the timeouts the cluster takes the TCP connect timeout and the HTTP
        // `connectionIdleTimeout` and `maxConnectionDuration` (its protocol options);
        // translator.go passes `Traffic.HTTP2` as the cluster's http2 settings).
        flow: Flow::ClientSide {
            to_backends: &[
                "loadBalancer",
                "proxyProtocol",
                "circuitBreaker",
                "healthCheck",
                "timeout/tcp",
                "timeout/http/connectionIdleTimeout",
                "timeout/http/maxConnectionDuration",
                "tcpKeepalive",
                "connection",
                "dns",
                "http2",
                "useClientProtocol",
            ],
        },
        targeting: EG_TARGETING,
        target_kinds: EG_ALL_TARGETS,
        // CEL on targetRef(s).kind: "this policy can only have a targetRef.kind of ..." (api/v1alpha1/*_types.go).
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        namespaces: NamespaceRule::SelectorsWithGrant,
        sections: Sections::SectionName,
        merge: MergeModel::EnvoyMergeType,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        status_shape: "ancestors",
        note: "A route-level policy that sets mergeType is folded into the nearest parent's policy; without mergeType the closest policy wins outright; of several on the same target the oldest applies and the others are Conflicted.",
        documented: "https://gateway.envoyproxy.io/docs/concepts/gateway_api_extensions/backend-traffic-policy/ (Precedence; Multiple Policies at the Same Level; mergeType)",
        cite: "envoyproxy/gateway@d32f2829 api/v1alpha1/backendtrafficpolicy_types.go",
        references: BACKEND_TRAFFIC_POLICY_REFS,
        short_names: &["btp"],
        merged_parent_fields: Some(BTP_MERGED_PARENT_FIELDS),
        ..BASE
    },
    Entry {
        kind: "SecurityPolicy",
        class: Class::Inherited,
        // HTTP filters on the listener, enabled and configured per route (internal/
        // xds/translator: cors.go, jwt.go, oidc.go, basicauth.go, extauth.go,
        // authorization.go; authorization_tcp.go on TCP listeners); the upstream
        // clusters of the routes take none of it (`asClusterArgs` reads no security
        // setting; the clusters it adds are those of the auth services themselves).
        flow: Flow::ClientSide { to_backends: &[] },
        // validateSecurityPolicyForTCP (internal/gatewayapi/securitypolicy.go): "only
        // authorization is supported for TCP (routes/listeners)". It is run per target
        // (processSecurityPolicyForRoute): a TCPRoute failing it gets a translation
        // error on its ancestors and is skipped; the policy's other targets are
        // translated. A route policy with `mergeType` is merged (mergeSecurityPolicy)
        // into the closest parent policy of the route's listener (the listener's, else
        // its Gateway's; for a ListenerSet listener, the ListenerSet listener's, the
        // ListenerSet's, the Gateway's) and the merged policy is validated again
        // (processSecurityPolicyForRoute: `validator(mergedPolicy)`): a parent setting
        // basicAuth refuses an authorization-only route policy there, Accepted=False,
        // reason Invalid, "Only authorization is supported for TCP (routes/listeners)."
        // It is not translated there: the TCPRoute keeps no authorization of it.
        refused_on: &[RefusedOn {
            kind: "TCPRoute",
            fields: &["cors", "jwt", "oidc", "apiKeyAuth", "basicAuth", "extAuth"],
            refuses: Refuses::ThatTarget,
            after_merge: true,
        }],
        targeting: EG_TARGETING,
        target_kinds: &["Gateway", "ListenerSet", "HTTPRoute", "GRPCRoute", "TCPRoute"],
        // CEL on targetRef(s).kind: "this policy can only have a targetRef.kind of ..." (api/v1alpha1/*_types.go).
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        namespaces: NamespaceRule::SelectorsWithGrant,
        sections: Sections::SectionName,
        merge: MergeModel::EnvoyMergeType,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        status_shape: "ancestors",
        note: "Same scheme as BackendTrafficPolicy: route policies opt into merging with the parent through mergeType.",
        documented: "https://gateway.envoyproxy.io/docs/concepts/gateway_api_extensions/security-policy/",
        cite: "envoyproxy/gateway@d32f2829 api/v1alpha1/securitypolicy_types.go",
        references: SECURITY_POLICY_REFS,
        short_names: &["sp"],
        ..BASE
    },
    Entry {
        kind: "EnvoyExtensionPolicy",
        class: Class::Inherited,
        // Wasm, ExtProc, Lua and dynamic modules are HTTP filters on the listener,
        // enabled per route (internal/xds/translator: extproc.go, lua.go,
        // dynamicmodule.go, the Wasm filter); no setting reaches the routes' upstream
        // clusters (`asClusterArgs` reads none of them).
        flow: Flow::ClientSide { to_backends: &[] },
        targeting: EG_TARGETING,
        target_kinds: EG_ALL_TARGETS,
        // CEL on targetRef(s).kind: "this policy can only have a targetRef.kind of ..." (api/v1alpha1/*_types.go).
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        namespaces: NamespaceRule::SelectorsWithGrant,
        sections: Sections::SectionName,
        merge: MergeModel::EnvoyMergeType,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        status_shape: "ancestors",
        note: "Extension settings follow the mergeType rule: merged into the parent when a route policy asks for it, otherwise most specific wins.",
        documented: "https://gateway.envoyproxy.io/docs/api/extension_types/#envoyextensionpolicy",
        cite: "envoyproxy/gateway@d32f2829 api/v1alpha1/envoyextensionypolicy_types.go",
        references: ENVOY_EXTENSION_POLICY_REFS,
        short_names: &["eep"],
        ..BASE
    },
    Entry {
        kind: "EnvoyPatchPolicy",
        class: Class::Direct,
        targeting: REF,
        target_kinds: &["Gateway", "GatewayClass"],
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge: MergeModel::Accumulated,
        // "applied in the ascending order of the priority".
        same_target: SameTarget::AllByPriority {
            field: "/priority",
            higher_first: false,
        },
        defaults_overrides: DefaultsOverrides::None,
        status_shape: "ancestors",
        note: "Raw xDS patches applied to the generated config of a Gateway (or of every Gateway of a class with mergeGateways); all of them apply, their priority only orders them.",
        documented: "https://gateway.envoyproxy.io/contributions/design/envoy-patch-policy/",
        cite: "envoyproxy/gateway@d32f2829 api/v1alpha1/envoypatchpolicy_types.go",
        short_names: &["epp"],
        when_merged: Some(EPP_WHEN_MERGED),
        ..BASE
    },
];

/// The GatewayClass parameters that merge the class's Gateways into one proxy: an
/// EnvoyProxy named by the class's `parametersRef` whose `mergeGateways` is true.
/// Only the class's EnvoyProxy counts: `IsMergeGatewaysEnabled` (internal/gatewayapi/
/// helpers.go) reads `resources.EnvoyProxyForGatewayClass`; an EnvoyProxy a Gateway
/// names in `spec.infrastructure.parametersRef` merges nothing. Merged, the class's
/// Gateways are one xDS config (`Translator.getIRKey` keys it by the class name), so
/// their plain HTTP listeners on one port are one Envoy listener too.
pub(super) static CLASS_PARAMETERS: &[ClassParameters] = &[ClassParameters {
    group: "gateway.envoyproxy.io",
    kind: "EnvoyProxy",
    merges_gateways: "/mergeGateways",
    cite: "envoyproxy/gateway@d32f2829 internal/gatewayapi/helpers.go (IsMergeGatewaysEnabled), api/v1alpha1/envoyproxy_types.go (mergeGateways)",
}];

/// Targets refused while the target's class merges its Gateways.
/// `ProcessEnvoyPatchPolicies` (internal/gatewayapi/envoypatchpolicy.go): with
/// `t.MergeGateways` the only target kind it takes is a GatewayClass (the patches go
/// to the class's one xDS config); a policy aimed at a Gateway then gets
/// `Accepted=False`, reason `Invalid`, "TargetRef.Group:gateway.networking.k8s.io
/// TargetRef.Kind:Gateway, only TargetRef.Group:gateway.networking.k8s.io and
/// TargetRef.Kind:GatewayClass is supported.", on the class as its ancestor.
const EPP_WHEN_MERGED: WhenMerged = WhenMerged {
    refused: "Gateway",
    instead: "GatewayClass",
    reason: "Invalid",
};

/// A BackendTLSPolicy's sectionName on an Envoy Gateway Backend is a port number ("SectionName
/// is port number for EG Backend object"), and the controller matches it against the
/// port the route's backendRef names: `getBackendTLSPolicy` (internal/gatewayapi/
/// backendtlspolicy.go) compares the policy's target with `GetTargetBackendReference`
/// of the backendRef, whose section is the backendRef's `port` (none when it names
/// none, as a backendRef to a Backend may). The policy's status is written only there
/// (`processBackendTLSPolicy`, per backendRef, the route's parent as its ancestor): a
/// policy on a port no backendRef names gets no TLS applied and no status at all
/// (testdata backendtlspolicy-default-ns: a Backend in `default` reached by a
/// backendRef without a port, its `sectionName: "3443"` policy left with no ancestors).
/// A rule of Gateway API's BackendTLSPolicy entry (`sections_by_ref_port`).
pub(super) const BACKEND_TLS_BY_REF_PORT: &[SectionByRefPort] = &[SectionByRefPort {
    target: ("gateway.envoyproxy.io", "Backend"),
    cite: "envoyproxy/gateway@d32f2829 internal/gatewayapi/backendtlspolicy.go (getBackendTLSPolicy, processBackendTLSPolicy), internal/gatewayapi/route.go (GetTargetBackendReference)",
}];

/// The objects Envoy Gateway refuses its policies' references to name: an
/// `ExternalName` Service, which has no endpoints for the translator to route an
/// external service (ext-auth, ext-proc, OIDC provider, remote JWKS) to. The policy
/// referring to one is refused (Accepted=False) as for any reference that does not
/// resolve; its translator test data holds such refusals (issue 34's count of 43).
const REFUSED_REFERENTS: &[RefusedReferent] = &[RefusedReferent {
    kind: ("", "Service"),
    types: &["ExternalName"],
    cite: "envoyproxy/gateway@d32f2829 internal/gatewayapi (validateExtServiceBackendReference; translator testdata with an ExternalName Service)",
}];

/// One step further than Envoy Gateway's references: every backend of an ext-auth,
/// ext-proc, OIDC provider or remote JWKS service goes through
/// `translateExtServiceBackendRefs` → `processExtServiceDestination`, which applies the
/// BackendTLSPolicy aimed at it (`applyBackendTLSSetting` → `processBackendTLSPolicy`,
/// the first policy `getBackendTLSPolicy` matches: the whole Service or Backend, or the
/// section the reference's port is, a Service port's name, a Backend's port number).
/// Its CA certificates are read by `getCaCertsFromCARefs`, which fails on the first
/// ConfigMap, Secret or ClusterTrustBundle that is not there ("configmap ca-cmap not
/// found in namespace default") and when none gives a CA; the error is the policy's
/// (Accepted=False, "ExtProc: ...", "ExtAuth: ...").
const FURTHER: &[Further] = &[Further::PolicyOnIt {
    policy: ("gateway.networking.k8s.io", "BackendTLSPolicy"),
    referents: &[("", "Service"), ("gateway.envoyproxy.io", "Backend")],
    cite: "envoyproxy/gateway@d32f2829 internal/gatewayapi/ext_service.go (processExtServiceDestination: applyBackendTLSSetting), internal/gatewayapi/backendtlspolicy.go (processBackendTLSPolicy, getBackendTLSPolicy, getBackendTLSBundle, getCaCertsFromCARefs)",
}];

/// A route's BackendTrafficPolicy with `mergeType` is translated merged with its
/// Gateway's (or listener's) policy, and `buildBackendTrafficPolicyOwners` makes the
/// parent the owner of `responseOverride` when the route's policy sets none: the
/// parent's response-override ConfigMap is then looked up for the merged policy too,
/// and one that is not there fails both ("ResponseOverride: can't find the referenced
/// configmap ...", on the parent and on the route's policy; translator test
/// backendtrafficpolicy-with-response-override-merged-invalid-valueref).
const BTP_MERGED_PARENT_FIELDS: MergedParentFields = MergedParentFields {
    fields: &["responseOverride"],
    cite: "envoyproxy/gateway@d32f2829 internal/gatewayapi/testdata/backendtrafficpolicy-with-response-override-merged-invalid-valueref.out.yaml (the route's merged policy refused with its parent's missing ConfigMap); a later internal/gatewayapi/backendtrafficpolicy.go (backendTrafficPolicyOwners, buildBackendTrafficPolicyOwners: the parent owns responseOverride unless the route's policy sets it; getCustomResponseBody)",
};

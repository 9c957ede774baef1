//! kgateway (kgateway-dev/kgateway; types read at api/v1alpha1/kgateway/, index
//! versions traffic_policy_types.go @181f64ab, backend_config_policy_types.go @007f5591,
//! listener_policy_types.go @028d2df5). Every CRD is labelled Direct.

use super::*;

/// kgateway's kinds. Its controller looks one step beyond what they name (`FURTHER`).
const BASE: Entry = Entry {
    group: "gateway.kgateway.dev",
    project: "kgateway",
    further: FURTHER,
    ..Entry::INHERITED
};

/// TrafficPolicy: `targetRefs`, `targetSelectors` or an `ExtensionRef` filter.
const REFS_SELECTORS_OR_EXTENSION_REF: Targeting = Targeting {
    extension_ref: true,
    ..REFS_OR_SELECTORS
};

/// TrafficPolicies on one target merge by top-level field, ordered by the policy's
/// weight annotation (higher first, default 0), then age (kgateway docs, "Policy
/// priority and merging rules"; annotation `PolicyPrecedenceWeight`).
pub(super) const WEIGHTED: SameTarget = SameTarget::WeightedFieldWins {
    annotation: "kgateway.dev/policy-weight",
};

/// TrafficPolicy's settings are per-route filter config and the listener's HTTP
/// filters (internal/kgateway/extensions2/plugins/trafficpolicy/
/// traffic_policy_plugin.go: `ApplyForRoute`, `ApplyForRouteBackend` (the typed
/// filter config of a route's backendRef, not its cluster), `HttpFilters`); it has
/// no backend pass, the upstream clusters are BackendConfigPolicy's.
pub(super) const ROUTE_FILTERS_ONLY: Flow = Flow::ClientSide { to_backends: &[] };

/// A Direct kgateway kind whose policies on one target merge by top-level field.
const PER_FIELD: Entry = Entry {
    class: Class::Direct,
    targeting: REFS_OR_SELECTORS,
    namespaces: NamespaceRule::Own,
    sections: Sections::None,
    // Each top-level field is one rule.
    merge: MergeModel::KeyedFields { rule_paths: &[] },
    defaults_overrides: DefaultsOverrides::None,
    label: Some("Direct"),
    status_shape: "ancestors",
    ..BASE
};

/// A TrafficPolicy's references (`shared.NamespacedObjectReference`: another namespace
/// allowed; a ReferenceGrant is asked for only in kgateway's strict
/// `ReferenceGrantMode`, constructor_refgrant_test.go). Building the policy fails on
/// one that does not resolve ("extauth: ... GatewayExtension not found",
/// pkg/kgateway/extensions2/plugins/trafficpolicy/extauth_policy.go `constructExtAuth`;
/// the Secrets read as resource_refs.go lists them), and the policy is not accepted.
const fn kgateway_ref(
    path: &'static str,
    kinds: &'static [(&'static str, &'static str)],
) -> RefField {
    RefField::named(
        path,
        kinds,
        RefNamespaces::Any,
        Unresolved::RefusesPolicy,
        "kgateway-dev/kgateway@53e05a33 pkg/kgateway/extensions2/plugins/trafficpolicy (extauth_policy.go constructExtAuth, resource_refs.go, constructor_refgrant_test.go)",
    )
}

const GATEWAY_EXTENSION: &[(&str, &str)] = &[("gateway.kgateway.dev", "GatewayExtension")];

/// A TrafficPolicy's Secret (`gwv1.SecretObjectReference`), read through kgateway's
/// `SecretIndex.GetSecret` with the policy as the referrer: in another namespace only
/// with a ReferenceGrant from TrafficPolicy, in kgateway's default `PERMISSIVE`
/// `ReferenceGrantMode` ("enforces ReferenceGrant for cross-namespace BackendRef and
/// SecretRef references"; only `ExtensionRef` is let through without one). A Secret
/// that is missing or not granted fails its setting's construction, whose error joins
/// the policy's, and the policy is not accepted. Not read here: `apiKeyAuth.
/// secretSelector`, which picks Secrets by label in the policy's namespace and in those
/// whose ReferenceGrants allow it (`GetSecretsBySelector`), refusing the policy when
/// none matches.
const fn kgateway_secret_ref(path: &'static str) -> RefField {
    RefField::named(
        path,
        &[("", "Secret")],
        RefNamespaces::WithGrant,
        Unresolved::RefusesPolicy,
        "kgateway-dev/kgateway@7a44f6cb api/settings/settings.go (ReferenceGrantPermissive, the default mode); @2979b00c pkg/krtcollections/secrets.go (SecretIndex.GetSecret: MissingReferenceGrantError, NotFoundError); @0975d4cc pkg/kgateway/extensions2/plugins/trafficpolicy/api_key_auth.go (constructAPIKeyAuth), basic_auth_policy.go",
    )
}

/// A GatewayExtension reference: `shared.NamespacedObjectReference` has a name and a
/// namespace and no kind or group (kgateway's `shared` API package), so kgateway reads
/// a GatewayExtension whatever kind or group a manifest writes beside them (an API
/// server prunes such fields, being none of the type's).
const fn gateway_extension_ref(path: &'static str) -> RefField {
    RefField {
        kind_as_written: false,
        ..kgateway_ref(path, GATEWAY_EXTENSION)
    }
}

const TRAFFIC_POLICY_REFS: &[RefField] = &[
    gateway_extension_ref("/extAuth/extensionRef"),
    gateway_extension_ref("/extProc/extensionRef"),
    gateway_extension_ref("/jwtAuth/extensionRef"),
    gateway_extension_ref("/rateLimit/global/extensionRef"),
    kgateway_secret_ref("/basicAuth/secretRef"),
    kgateway_secret_ref("/apiKeyAuth/secretRef"),
];

/// A GatewayExtension's own backend (`ExtGrpcService.BackendRef`, `ExtHttpService.
/// BackendRef`: a `gwv1.BackendRef`, a Service or a kgateway Backend), resolved by
/// `TranslateGatewayExtensionBuilder` through `BackendIndex.GetBackendFromRef` with the
/// GatewayExtension as the referrer: another namespace only with a ReferenceGrant
/// from GatewayExtension. One that does not resolve sets the extension's `Err`, which
/// `FetchGatewayExtension` hands every TrafficPolicy naming it: that policy is not
/// accepted.
const fn extension_backend(path: &'static str) -> RefField {
    RefField::named(
        path,
        &[("", "Service"), ("gateway.kgateway.dev", "Backend")],
        RefNamespaces::WithGrant,
        Unresolved::RefusesPolicy,
        GATEWAY_EXTENSION_CITE,
    )
}

const GATEWAY_EXTENSION_CITE: &str = "kgateway-dev/kgateway@049cb625 api/v1alpha1/kgateway/gateway_extensions_types.go (ExtGrpcService, ExtHttpService); @049cb625 pkg/kgateway/extensions2/plugins/trafficpolicy/gateway_extension.go (TranslateGatewayExtensionBuilder, ResolveExtGrpcService, ResolveExtHttpService: GetBackendFromRef); trafficpolicy/constructor.go (FetchGatewayExtension returns the extension's Err)";

const GATEWAY_EXTENSION_REFS: &[RefField] = &[
    extension_backend("/extAuth/grpcService/backendRef"),
    extension_backend("/extAuth/httpService/backendRef"),
    extension_backend("/extProc/grpcService/backendRef"),
    extension_backend("/rateLimit/grpcService/backendRef"),
];

/// One step further than kgateway's references: a GatewayExtension's own backend.
const FURTHER: &[Further] = &[Further::ItsReferences {
    referent: ("gateway.kgateway.dev", "GatewayExtension"),
    fields: GATEWAY_EXTENSION_REFS,
    cite: GATEWAY_EXTENSION_CITE,
}];

/// A BackendConfigPolicy's `tls.secretRef` (`corev1.LocalObjectReference`: "resolved
/// in the policy's namespace", resource_refs.go). A Secret that is not there fails
/// `translateTLSConfig`; the error joins the policy's (`PolicyWrapper.Errors`), and
/// the policy is not accepted, as TrafficPolicy's.
const BACKEND_CONFIG_POLICY_REFS: &[RefField] = &[RefField::local(
    "/tls/secretRef",
    &[("", "Secret")],
    Unresolved::RefusesPolicy,
    "kgateway-dev/kgateway@44a41714 api/v1alpha1/kgateway/backend_config_policy_types.go (TLS.SecretRef); kgateway-dev/kgateway@ec7b5c76 pkg/kgateway/extensions2/plugins/backendconfigpolicy/resource_refs.go; @0b1ede4e .../backendconfigpolicy/plugin.go (translate: the TLS error joins the policy's Errors)",
)];

/// The gRPC service of an access log or a tracer (`gwv1.BackendRef`), resolved by
/// kgateway's `BackendIndex.GetBackendFromRef`: another namespace only with a
/// ReferenceGrant from the policy's kind ("ErrMissingReferenceGrant"); a Service or a
/// kgateway Backend. One that does not resolve fails the access log or tracing
/// conversion ("unresolved backend reference"); the error joins the policy's, which
/// is not accepted. The group and kind are matched together as written, an omitted
/// group the core one (`toFromBackendRef` makes the GroupKind the backend index is
/// keyed by; an unknown one is `ErrUnknownBackendKind`): `{kind: Backend}` with no
/// group is no kgateway Backend (`RefGroups::AsWritten`, audited for issue 41).
const fn grpc_service_ref(path: &'static str) -> RefField {
    RefField::named(
        path,
        &[("", "Service"), ("gateway.kgateway.dev", "Backend")],
        RefNamespaces::WithGrant,
        Unresolved::RefusesPolicy,
        "kgateway-dev/kgateway@e30e6459 api/v1alpha1/kgateway/listener_policy_types.go (CommonGrpcService.BackendRef); @204f6456 pkg/kgateway/extensions2/plugins/listenerpolicy/access_logging_converter.go (convertAccessLogConfig: ErrUnresolvedBackendRef); tracing_converter.go (convertTracingConfig: the same); pkg/krtcollections (BackendIndex.GetBackendFromRef: ReferenceAllowed)",
    )
}

/// ListenerPolicy: its default block and each per-port block carry HTTP settings
/// naming gRPC services; the default block's client-certificate validation names CA
/// bundles. Not read here: the Secrets behind local-reply headers (a Secret that does
/// not resolve fails `convertLocalReplyConfig` and joins the policy's errors, as an
/// access log's service does: local_reply_converter.go @32362ea9, pluginutils/
/// headers.go `resolveHeader`; but the JSON names of the local-reply fields were not in
/// the types read, @028d2df5 and @e30e6459 predating them).
const LISTENER_POLICY_REFS: &[RefField] = &[
    grpc_service_ref("/default/httpSettings/accessLog/*/grpcService/backendRef"),
    grpc_service_ref("/default/httpSettings/accessLog/*/openTelemetry/grpcService/backendRef"),
    grpc_service_ref("/default/httpSettings/tracing/provider/openTelemetry/grpcService/backendRef"),
    grpc_service_ref("/perPort/*/listener/httpSettings/accessLog/*/grpcService/backendRef"),
    grpc_service_ref(
        "/perPort/*/listener/httpSettings/accessLog/*/openTelemetry/grpcService/backendRef",
    ),
    grpc_service_ref(
        "/perPort/*/listener/httpSettings/tracing/provider/openTelemetry/grpcService/backendRef",
    ),
    // `default.clientCertificateValidation.caCertificateRefs` (`gwv1.ObjectReference`,
    // ConfigMap or Secret, default block only). kgateway resolves them while
    // translating the Gateway's HTTPS listeners, not in the policy's IR, so the policy
    // itself stays Accepted; `applyClientCertificateValidation` keeps every CA that
    // resolves and drops the others (the listener's ResolvedRefs=False,
    // InvalidCACertificateRef), and when none resolves a `mode: Require` policy fails the
    // listener (its filter chain is skipped, Accepted=False, NoValidCACertificate): the
    // policy then applies nowhere. They are looked up from the listener's parent (the
    // Gateway, in the policy's namespace since a ListenerPolicy targets its own), and a
    // ReferenceGrant is asked of the Gateway's kind, not the policy's: only whether the
    // object exists is judged here.
    RefField::named(
        "/default/clientCertificateValidation/caCertificateRefs/*",
        &[("", "ConfigMap"), ("", "Secret")],
        RefNamespaces::Any,
        Unresolved::RefusesWhenNoneResolves,
        "kgateway-dev/kgateway@e30e6459 api/v1alpha1/kgateway/listener_policy_types.go (ListenerDefaultConfig.ClientCertificateValidation, ClientCertificateValidationConfig.CACertificateRefs); @d7ab0702 pkg/kgateway/translator/listener/gateway_listener_translator.go (translateTLSConfig, applyClientCertificateValidation, buildCaCertificateReference, reportTLSConfigError); listenerpolicy/resource_refs.go @8192f3ed (caCertRefs: \"resolved during Gateway listener translation\")",
    ),
];

/// HTTPListenerPolicy: the same HTTP settings at the top of its spec.
const HTTP_LISTENER_POLICY_REFS: &[RefField] = &[
    grpc_service_ref("/accessLog/*/grpcService/backendRef"),
    grpc_service_ref("/accessLog/*/openTelemetry/grpcService/backendRef"),
    grpc_service_ref("/tracing/provider/openTelemetry/grpcService/backendRef"),
];

pub(super) static ENTRIES: &[Entry] = &[
    Entry {
        kind: "TrafficPolicy",
        class: Class::Inherited,
        flow: ROUTE_FILTERS_ONLY,
        targeting: REFS_SELECTORS_OR_EXTENSION_REF,
        // Any kind ending in ListenerSet (`kind.endsWith('ListenerSet')`).
        target_kinds: &["Gateway", "HTTPRoute", "GRPCRoute", "ListenerSet"],
        // CEL on targetRefs and targetSelectors: "targetRefs may only reference
        // Gateway, HTTPRoute, GRPCRoute, or ListenerSet resources".
        other_target_kinds: OtherTargetKinds::RefusedByCrd,
        namespaces: NamespaceRule::OwnOrGlobalNamespace,
        sections: Sections::SectionName,
        merge: MergeModel::KgatewayPriority,
        same_target: WEIGHTED,
        defaults_overrides: DefaultsOverrides::None,
        label: Some("Direct"),
        status_shape: "ancestors",
        note: "Despite its Direct label it is inherited: an annotation on the parent chooses shallow or deep merging and whether child or parent wins (shallow, child by default); several on one target merge by top-level field, the oldest winning each.",
        documented: "https://kgateway.dev/docs/about/policies/ (Policy priority and merging rules; kgateway.dev/inherited-policy-priority)",
        cite: "kgateway-dev/kgateway@181f64ab api/v1alpha1/kgateway/traffic_policy_types.go",
        references: TRAFFIC_POLICY_REFS,
        acts_per_level: Some(TRAFFIC_POLICY_ACTS_PER_LEVEL),
        ..BASE
    },
    Entry {
        kind: "ListenerPolicy",
        // kgateway merges ListenerPolicies (several on one Gateway, oldest first) setting
        // by setting: its `default` block field by field (`mergeListenerPolicy`:
        // proxyProtocol, perConnectionBufferLimitBytes, the network RBAC filter, the
        // internal flag, httpSettings) and `httpSettings` by each HTTP setting
        // (`MergeHttpPolicies`: accessLog, tracing, upgradeConfig, useRemoteAddress, the
        // timeouts...). Not as one field: a policy that sets the access log and one that
        // sets tracing both act. The `perPort` list is taken whole here, where kgateway
        // merges it port by port.
        merge: MergeModel::KeyedFields {
            rule_paths: &["/default/httpSettings"],
        },
        references: LISTENER_POLICY_REFS,
        target_kinds: GATEWAY,
        same_target: SameTarget::OldestFieldWins,
        note: "Listener settings for a Gateway (httpSettings absorbed HTTPListenerPolicy), per-port entries refining its own default block. Several on one Gateway merge setting by setting (each field of default, each HTTP setting), the oldest winning each.",
        documented: "https://kgateway.dev/docs/about/policies/",
        cite: "kgateway-dev/kgateway@028d2df5 api/v1alpha1/kgateway/listener_policy_types.go; @2c302a02 pkg/kgateway/extensions2/plugins/listenerpolicy/merge.go (MergePolicies, mergeListenerPolicy); @24691451 listenerpolicy/merge_http.go (MergeHttpPolicies)",
        ..PER_FIELD
    },
    Entry {
        kind: "BackendConfigPolicy",
        references: BACKEND_CONFIG_POLICY_REFS,
        target_kinds: &["Service", "Backend", "Hostname"],
        same_target: SameTarget::OldestFieldWins,
        note: "Connection settings for a Service, a kgateway Backend or an Istio Hostname; several on one backend merge by top-level field, the oldest winning each (ties by name). A BackendTLSPolicy on the same backend overrides its tls (Overridden, reason ConflictedWithBackendTLSPolicy).",
        documented: "https://kgateway.dev/docs/about/policies/backendconfigpolicy/",
        cite: "kgateway-dev/kgateway@007f5591 api/v1alpha1/kgateway/backend_config_policy_types.go",
        shadowed_by: Some(BACKEND_CONFIG_SHADOWED_BY),
        ..PER_FIELD
    },
    Entry {
        kind: "HTTPListenerPolicy",
        // kgateway reads an HTTPListenerPolicy as a ListenerPolicy whose `default` holds
        // its spec as `httpSettings` (`NewListenerPolicyIR`), and merges several on one
        // Gateway with ListenerPolicy's own `MergePolicies` (oldest first, no merge
        // settings): setting by setting, as `MergeHttpPolicies` merges `httpSettings`.
        // Its spec's top-level fields are those HTTP settings, each one rule. (kgateway's
        // docs still say "only the HTTPListenerPolicy that was last applied is
        // enforced"; its code merges them.)
        references: HTTP_LISTENER_POLICY_REFS,
        target_kinds: GATEWAY,
        same_target: SameTarget::OldestFieldWins,
        note: "HTTP listener settings (access logs, upgrades) for every HTTP listener of a Gateway, read as a ListenerPolicy's httpSettings; several on one Gateway merge setting by setting, the oldest winning each. Deprecated in 2.2 for ListenerPolicy httpSettings.",
        documented: "https://kgateway.dev/docs/about/policies/",
        cite: "kgateway-dev/kgateway api/v1alpha1/kgateway/http_listener_policy_types.go; @32362ea9 pkg/kgateway/extensions2/plugins/httplistenerpolicy/httplistener_plugin.go (NewListenerPolicyIR of a ListenerPolicySpec whose Default.HTTPSettings is the spec; MergePolicies: listenerpolicy.MergePolicies); @24691451 listenerpolicy/merge_http.go (MergeHttpPolicies)",
        ..PER_FIELD
    },
    Entry {
        kind: "RoutePolicy",
        class: Class::Inherited,
        flow: ROUTE_FILTERS_ONLY,
        targeting: REFS_SELECTORS_OR_EXTENSION_REF,
        target_kinds: GATEWAY_AND_HTTPROUTE,
        namespaces: NamespaceRule::Own,
        sections: Sections::SectionName,
        merge: MergeModel::KgatewayPriority,
        same_target: WEIGHTED,
        defaults_overrides: DefaultsOverrides::None,
        label: Some("Direct"),
        status_shape: "ancestors",
        note: "The pre-2.0 name of TrafficPolicy: route settings inherited down the hierarchy as TrafficPolicy's are, though its CRD is labelled Direct.",
        documented: "https://kgateway.dev/docs/about/policies/",
        cite: "kgateway-dev/kgateway api/v1alpha1/route_policy_types.go",
        // Its spec (pre-2.0, `api/v1alpha1/route_policy_types.go`) was not read for
        // references: none checked.
        references: &[],
        ..BASE
    },
    Entry {
        group: "gateway.kgateway.dev",
        kind: "AgentgatewayPolicy",
        target_kinds: &[
            "Gateway",
            "HTTPRoute",
            "ListenerSet",
            "Service",
            "AgentgatewayBackend",
        ],
        // Its CRD's CEL (@0c6aa135): "the 'frontend' field can only target a Gateway",
        // with `!has(t.sectionName)`, whatever frontend field is set. A `port` on a
        // reference is read as agentgateway's (not checked against this version).
        sections: Sections::SectionNameOrPort {
            port_needs: &["/frontend"],
            no_section_name_with: &["/frontend"],
        },
        project: "kgateway",
        further: FURTHER,
        note: "kgateway 2.1's transitional group for agentgateway's AgentgatewayPolicy (October 2025 CRD): labelled Direct, inherited, merged per sub-section as agentgateway's.",
        documented: "https://kgateway.dev/docs/agentgateway/",
        cite: "kgateway-dev/kgateway@0c6aa135 api/v1alpha1/agentgateway/agentgateway_policy_types.go",
        // Its references are agentgateway's: kgateway's own translation of the kind
        // (kgateway-dev/kgateway@08540069 pkg/agentgateway/plugins/traffic_plugin.go,
        // TranslateAgentgatewayPolicy, and backend_policies.go, frontend_policies.go
        // beside it) is the code agentgateway's controller grew from, with the same
        // PartiallyValid / Invalid status, the same settings kept or left out.
        ..super::agentgateway::AGENTGATEWAY_POLICY
    },
];

/// A BackendTLSPolicy on a Service replaces a BackendConfigPolicy's `tls` there:
/// kgateway drops `spec.tls` "because a BackendTLSPolicy also targets the same
/// backend" and sets `Overridden=True`, reason `ConflictedWithBackendTLSPolicy`, on the
/// BackendConfigPolicy's ancestor (the plugin's `HasTLSConfig` lets the IR translator
/// see the conflict); its other settings are "enforced unchanged". Only a
/// BackendTLSPolicy on the same object (or, for a policy on a port, on its Service)
/// counts here; one on a single port of a Service whose whole a BackendConfigPolicy
/// targets is not modelled.
const BACKEND_CONFIG_SHADOWED_BY: ShadowedBy = ShadowedBy {
    by: ("gateway.networking.k8s.io", "BackendTLSPolicy"),
    fields: &["tls"],
    cite: "kgateway-dev/kgateway pkg/kgateway/extensions2/plugins/backendconfigpolicy (ConditionOverridden, ReasonConflictedWithBackendTLSPolicy, HasTLSConfig); kgateway docs, BackendConfigPolicy (\"the spec.tls field ... overridden by a BackendTLSPolicy\", the other fields \"enforced unchanged\")",
};

/// A TrafficPolicy's settings that Envoy reads at every level. kgateway writes a
/// Gateway's (or listener's) TrafficPolicy into the virtual host's typed per-filter
/// config (`ApplyVhostPlugin`) and a route's into the route's (`ApplyForRoute`), each
/// under its filter's name (`handlePolicies`). Envoy takes one filter's per-route
/// config from the most specific level, so a route's policy shadows a Gateway's only
/// for the filters both configure, with two exceptions read here:
/// - header modifiers (`handleHeaderModifiers`: the `header_mutation` filter's
///   `HeaderMutationPerRoute`), which Envoy evaluates "at all specified levels" (route,
///   virtual host, route table): a route's and a Gateway's both act;
/// - ext-auth, ext-proc, JWT and OAuth2, one filter per provider (`extAuthFilterName`,
///   `extProcFilterName`, `jwtFilterName`, `oauthFilterName` of the GatewayExtension):
///   a route's policy naming another provider leaves the Gateway's running; only one
///   naming the same provider, or `disable` (the global disable filter's metadata,
///   which turns every provider off), shadows it.
///
/// Several TrafficPolicies on one target still merge field by field first
/// (`MergeTrafficPolicies`, `defaultMerge`: one policy's field whole), as before.
const TRAFFIC_POLICY_ACTS_PER_LEVEL: ActsPerLevel = ActsPerLevel {
    every_level: &["headerModifiers"],
    per_provider: &["extAuth", "extProc", "jwtAuth", "oauth2"],
    provider_ref: "extensionRef",
    disables_all: "disable",
    cite: "kgateway-dev/kgateway@0ba18d7f pkg/kgateway/extensions2/plugins/trafficpolicy/traffic_policy_plugin.go (ApplyVhostPlugin, ApplyForRoute, handlePolicies, HttpFilters: one ext-auth, ext-proc, OAuth2 and JWT filter per provider, the global disable filters); @43143f46 trafficpolicy/header_modifiers.go (handleHeaderModifiers); @0c95bb55 trafficpolicy/merge.go (MergeTrafficPolicies); envoyproxy/envoy api/envoy/extensions/filters/http/header_mutation/v3/header_mutation.proto (HeaderMutationPerRoute at multiple route levels: \"header mutations at all specified levels are evaluated\")",
};
